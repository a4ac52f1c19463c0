"""Notebook 02's exercise check accepts the reference and the shown solution, and rejects the typical mistakes
(no has_aux, no depend, no update, a tuple returned) with the right message. Lesson 03's tests reuse the helpers
(``from_source``, ``step_source``, ``assert_incorrect``)."""

import functools
import re
import sys
import tempfile
import textwrap
import types
from pathlib import Path

import pytest

import mindspore as ms
from mindspore import ops

from support import PYNATIVE_FAST_GRAPH_SLOW
from course_utils.exercises import Outcome, ____, nb02

SOURCES = tempfile.TemporaryDirectory(prefix="nb02-answers-")


def from_source(source: str, name: str, filename: str):
    """Define ``name`` from ``source`` in a module of its own, written to a real file the way
    ``runtime.setup`` writes notebook cells (so MindSpore's compiler and ``inspect`` can read it)."""
    source = textwrap.dedent(source).strip() + "\n"
    path = Path(SOURCES.name) / (re.sub(r"\W+", "_", filename).strip("_") + ".py")
    path.write_text(source, encoding="utf-8")
    module = types.ModuleType(path.stem)
    module.__file__, module.ms, module.ops = str(path), ms, ops
    sys.modules[path.stem] = module  # MindSpore's compiler resolves globals through sys.modules
    exec(compile(source, str(path), "exec"), module.__dict__)
    return getattr(module, name)


def assert_incorrect(result, *fragments):
    assert result == Outcome.INCORRECT, result
    for fragment in fragments:
        assert fragment in result.message, result.message


STEP = '''
def build_train_step(net, loss_fn, optimizer):
    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux={has_aux})

    @ms.jit
    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        {update}
        return {result}

    return train_step
'''


def step_source(has_aux="True", update="", result="ops.depend(loss, optimizer(grads))"):
    return STEP.format(has_aux=has_aux, update=update, result=result)


# ---- q1: has_aux ----

def test_q1_accepts_reference_and_solution():
    assert nb02.q1.check(*nb02.q1.reference()) == Outcome.CORRECT
    solution = from_source(nb02.q1.solution_text, "build_train_step", "<nb02-q1-solution>")
    assert nb02.q1.check(solution) == Outcome.CORRECT


def test_q1_not_attempted():
    assert nb02.q1.check(____) == Outcome.NOT_ATTEMPTED
    assert nb02.q1.check(lambda net, loss_fn, optimizer: ____) == Outcome.NOT_ATTEMPTED


@PYNATIVE_FAST_GRAPH_SLOW
def test_q1_rejects_missing_has_aux(ms_mode):
    assert_incorrect(checked("q1-no-aux"), "expected the SGD update", "loss + logits.sum()")


@PYNATIVE_FAST_GRAPH_SLOW
def test_q1_rejects_forgotten_depend(ms_mode):
    assert_incorrect(checked("q1-no-depend"), "no ops.depend", "eliminated by mistake")


@PYNATIVE_FAST_GRAPH_SLOW
def test_q1_rejects_no_update_and_tuple_result(ms_mode):
    assert_incorrect(checked("q1-no-update"), "expected the SGD update", "did not change")
    as_tuple = from_source(step_source(result="loss, ops.depend(loss, optimizer(grads))"), "build_train_step",
                           "<nb02-q1-tuple>")
    assert_incorrect(nb02.q1.check(as_tuple), "expected only the loss")


@PYNATIVE_FAST_GRAPH_SLOW
def test_q1_rejects_builder_returning_a_call(ms_mode):
    def build_train_step(net, loss_fn, optimizer):
        return 1.0

    assert_incorrect(nb02.q1.check(build_train_step), "not a function")


#: Typical wrong answers, by name: (exercise, a function building the answer). Several tests look at the same
#: answer's result (its specific message, and that no message names the fix): ``checked`` checks each once.
WRONG = {
    "q1-no-aux": (nb02.q1, lambda: from_source(step_source(has_aux="False"), "build_train_step", "<nb02-q1-no-aux>")),
    "q1-no-depend": (nb02.q1, lambda: from_source(step_source(update="optimizer(grads)", result="loss"),
                                                  "build_train_step", "<nb02-q1-nodep>")),
    "q1-no-update": (nb02.q1, lambda: from_source(step_source(result="loss"), "build_train_step",
                                                  "<nb02-q1-noupdate>")),
}


@functools.lru_cache(maxsize=None)
def checked(name: str):
    """The (English) result of checking the wrong answer ``name`` of WRONG, computed once per session."""
    exercise, build = WRONG[name]
    return exercise.check(build())


FIX_WORDS = ("Write ", "Apply ", "Divide", "Use another", "set the buffers", "Call optimizer", "return the step",
             "has_aux=True", "unpack", "should ")


@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("name", ["q1-no-aux", "q1-no-update"])
def test_messages_report_symptoms_not_fixes(ms_mode, name):
    """Each wrong answer gets expected vs got; the fix is in .hint() and .solution(), not in the message."""
    message = checked(name).message
    assert checked(name) == Outcome.INCORRECT, message
    named = [w for w in FIX_WORDS if w in message]
    assert not named, f"the message names a fix ({named}): {message}"


def _forward(net, loss_fn):
    def forward(data, label):
        return loss_fn(net(data), label)
    return forward


def _forward_with_logits(net, loss_fn):
    def forward(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits
    return forward


def test_q2_input_gradient():
    assert nb02.q2.check(*nb02.q2.reference()) == Outcome.CORRECT
    assert nb02.q2.check(lambda net, loss_fn, data, label: ____) == Outcome.NOT_ATTEMPTED

    def weights_instead(net, loss_fn, data, label):
        return ms.value_and_grad(_forward(net, loss_fn), None, net.trainable_params())(data, label)[1]

    def of_label(net, loss_fn, data, label):
        return ms.value_and_grad(_forward(net, loss_fn), 1, None)(data, label)[1]

    def no_aux(net, loss_fn, data, label):
        return ms.value_and_grad(_forward_with_logits(net, loss_fn), 0, None)(data, label)[1]

    result = nb02.q2.check(weights_instead)
    assert result == Outcome.INCORRECT and "expected one Tensor of data's shape" in result.message
    result = nb02.q2.check(of_label)
    assert result == Outcome.INCORRECT and "expected data's shape (16, 10)" in result.message
    result = nb02.q2.check(no_aux)
    assert result == Outcome.INCORRECT and "loss + logits.sum()" in result.message
    result = nb02.q2.check(lambda net, loss_fn, data, label: nb02.input_gradient(net, loss_fn, data, label) * 2)
    assert result == Outcome.INCORRECT and "differs from d loss / d data" in result.message
