"""Notebook 02's exercise checks accept the reference and the shown solutions, and reject the typical
mistakes (no has_aux, no depend, per-tensor clipping, summed accumulation, ...) with the right message."""

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


# ---- q2: clipping ----

def test_q2_accepts_reference_and_solution():
    assert nb02.q2.check(*nb02.q2.reference()) == Outcome.CORRECT
    solution = from_source(nb02.q2.solution_text, "build_clipped_step", "<nb02-q2-solution>")
    assert nb02.q2.check(solution) == Outcome.CORRECT


def clipped(update: str, name: str):
    source = step_source(update=update).replace("build_train_step(net, loss_fn, optimizer)",
                                                "build_clipped_step(net, loss_fn, optimizer, max_norm)")
    return from_source(source, "build_clipped_step", name)


@PYNATIVE_FAST_GRAPH_SLOW
def test_q2_rejects_per_tensor_clipping(ms_mode):
    wrong = clipped("grads = tuple([ops.clip_by_norm(g, max_norm) for g in grads])", "<nb02-q2-per-tensor>")
    assert_incorrect(nb02.q2.check(wrong), "each gradient tensor clipped on its own")


@PYNATIVE_FAST_GRAPH_SLOW
def test_q2_rejects_no_clipping_and_always_rescaling(ms_mode):
    assert_incorrect(checked("q2-no-clipping"), "not clipped")
    always = clipped("grads = tuple([g * max_norm / ops.sqrt(ops.addn([(t * t).sum() for t in grads])) "
                     "for g in grads])", "<nb02-q2-always>")
    assert_incorrect(nb02.q2.check(always), "max_norm=1000.0", "unclipped")


def clipped_without_depend(filename):
    """q2's clipped step that returns the loss without ``ops.depend`` on the update."""
    source = step_source(update="grads = ops.clip_by_global_norm(grads, max_norm)\n        optimizer(grads)",
                         result="loss").replace("build_train_step(net, loss_fn, optimizer)",
                                                "build_clipped_step(net, loss_fn, optimizer, max_norm)")
    return from_source(source, "build_clipped_step", filename)


@PYNATIVE_FAST_GRAPH_SLOW
def test_q2_rejects_forgotten_depend(ms_mode):
    assert_incorrect(nb02.q2.check(clipped_without_depend("<nb02-q2-nodep>")), "ops.depend")


# ---- q3: accumulation ----

def test_q3_accepts_reference_and_solution():
    assert nb02.q3.check(*nb02.q3.reference()) == Outcome.CORRECT
    solution = from_source(nb02.q3.solution_text, "build_accumulating_step", "<nb02-q3-solution>")
    assert nb02.q3.check(solution) == Outcome.CORRECT


def accumulating(*replacements, name):
    source = nb02.q3.solution_text
    for old, new in replacements:
        assert old in source, old
        source = source.replace(old, new)
    return from_source(source, "build_accumulating_step", name)


#: Typical wrong answers, by name: (exercise, a function building the answer). Several tests look at the same
#: answer's result (its specific message, and that no message names the fix): ``checked`` checks each once.
WRONG = {
    "q1-no-aux": (nb02.q1, lambda: from_source(step_source(has_aux="False"), "build_train_step", "<nb02-q1-no-aux>")),
    "q1-no-depend": (nb02.q1, lambda: from_source(step_source(update="optimizer(grads)", result="loss"),
                                                  "build_train_step", "<nb02-q1-nodep>")),
    "q1-no-update": (nb02.q1, lambda: from_source(step_source(result="loss"), "build_train_step",
                                                  "<nb02-q1-noupdate>")),
    "q2-no-clipping": (nb02.q2, lambda: clipped("", "<nb02-q2-none>")),
    "q3-summed": (nb02.q3, lambda: accumulating(("grad / k", "grad"), name="<nb02-q3-summed>")),
    "q3-accum-prefix": (nb02.q3, lambda: accumulating(('prefix="grad_accum"', 'prefix="accum"'),
                                                      name="<nb02-q3-prefix>")),
    "q3-updates-every-call": (nb02.q3, lambda: accumulating(('if calls["n"] % k == 0:', "if True:"),
                                                            name="<nb02-q3-every-call>")),
    "q3-never-zeroed": (nb02.q3, lambda: accumulating(
        ("done = ops.depend(done, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))", "pass"),
        name="<nb02-q3-never-zeroed>")),
    "q3-overwrites": (nb02.q3, lambda: accumulating(("ops.assign_add(buf, grad / k)", "ops.assign(buf, grad)"),
                                                    name="<nb02-q3-overwrites>")),
}


@functools.lru_cache(maxsize=None)
def checked(name: str):
    """The (English) result of checking the wrong answer ``name`` of WRONG, computed once per session."""
    exercise, build = WRONG[name]
    return exercise.check(build())


@pytest.mark.slow
@pytest.mark.parametrize("name, fragments", [
    ("q3-summed", ("4 times too large",)),
    ("q3-accum-prefix", ("RuntimeError", "already exists")),
    ("q3-updates-every-call", ("got changed weights after call 1",)),
    ("q3-never-zeroed", ("also contains the first round",)),
    ("q3-overwrites", ("only the last micro-batch",)),
], ids=["summed", "accum-prefix", "updates-every-call", "never-zeroed", "overwrites"])
def test_q3_rejects_typical_mistakes(name, fragments):
    assert_incorrect(checked(name), *fragments)


def test_q3_not_attempted():
    assert nb02.q3.check(____) == Outcome.NOT_ATTEMPTED


FIX_WORDS = ("Write ", "Apply ", "Divide", "Use another", "set the buffers", "Call optimizer", "return the step",
             "has_aux=True", "unpack", "should ")


@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("name", ["q1-no-aux", "q1-no-update", "q2-no-clipping", "q3-summed", "q3-accum-prefix"])
def test_messages_report_symptoms_not_fixes(ms_mode, name):
    """Each wrong answer gets expected vs got; the fix is in .hint() and .solution(), not in the message."""
    message = checked(name).message
    assert checked(name) == Outcome.INCORRECT, message
    named = [w for w in FIX_WORDS if w in message]
    assert not named, f"the message names a fix ({named}): {message}"
