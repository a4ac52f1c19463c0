"""Notebook 02's exercise checks accept the reference and the shown solutions, and reject the typical
mistakes (no has_aux, no depend, per-tensor clipping, summed accumulation, ...) with the right message."""

import re
import sys
import tempfile
import textwrap
import types
from pathlib import Path

import pytest

from course_utils import runtime

runtime.setup(device="CPU", mode="graph", seed=0, verbose=False)

import mindspore as ms  # noqa: E402
from mindspore import ops  # noqa: E402

from course_utils.exercises import Outcome, ____, nb02  # noqa: E402

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


def test_q1_rejects_missing_has_aux():
    wrong = from_source(step_source(has_aux="False"), "build_train_step", "<nb02-q1-no-aux>")
    assert_incorrect(nb02.q1.check(wrong), "expected the SGD update", "loss + logits.sum()")


def test_q1_rejects_forgotten_depend():
    wrong = from_source(step_source(update="optimizer(grads)", result="loss"), "build_train_step", "<nb02-q1-nodep>")
    assert_incorrect(nb02.q1.check(wrong), "no ops.depend", "eliminated by mistake")


def test_q1_rejects_no_update_and_tuple_result():
    no_update = from_source(step_source(result="loss"), "build_train_step", "<nb02-q1-noupdate>")
    assert_incorrect(nb02.q1.check(no_update), "expected the SGD update", "did not change")
    as_tuple = from_source(step_source(result="loss, ops.depend(loss, optimizer(grads))"), "build_train_step",
                           "<nb02-q1-tuple>")
    assert_incorrect(nb02.q1.check(as_tuple), "expected only the loss")


def test_q1_rejects_builder_returning_a_call():
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


def test_q2_rejects_per_tensor_clipping():
    wrong = clipped("grads = tuple([ops.clip_by_norm(g, max_norm) for g in grads])", "<nb02-q2-per-tensor>")
    assert_incorrect(nb02.q2.check(wrong), "each gradient tensor clipped on its own")


def test_q2_rejects_no_clipping_and_always_rescaling():
    assert_incorrect(nb02.q2.check(clipped("", "<nb02-q2-none>")), "not clipped")
    always = clipped("grads = tuple([g * max_norm / ops.sqrt(ops.addn([(t * t).sum() for t in grads])) "
                     "for g in grads])", "<nb02-q2-always>")
    assert_incorrect(nb02.q2.check(always), "max_norm=1000.0", "unclipped")


def test_q2_rejects_forgotten_depend():
    source = step_source(update="grads = ops.clip_by_global_norm(grads, max_norm)\n        optimizer(grads)",
                         result="loss").replace("build_train_step(net, loss_fn, optimizer)",
                                                "build_clipped_step(net, loss_fn, optimizer, max_norm)")
    wrong = from_source(source, "build_clipped_step", "<nb02-q2-nodep>")
    assert_incorrect(nb02.q2.check(wrong), "ops.depend")


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


@pytest.mark.slow
@pytest.mark.parametrize("replacements, fragments", [
    ([("grad / k", "grad")], ("4 times too large",)),
    ([('prefix="grad_accum"', 'prefix="accum"')], ("RuntimeError", "already exists")),
    ([("if calls[\"n\"] % k == 0:", "if True:")], ("got changed weights after call 1",)),
    ([("done = ops.depend(done, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))", "pass")],
     ("also contains the first round",)),
    ([("ops.assign_add(buf, grad / k)", "ops.assign(buf, grad)")], ("only the last micro-batch",)),
], ids=["summed", "accum-prefix", "updates-every-call", "never-zeroed", "overwrites"])
def test_q3_rejects_typical_mistakes(replacements, fragments):
    wrong = accumulating(*replacements, name=f"<nb02-q3-{fragments[0][:8]}>")
    assert_incorrect(nb02.q3.check(wrong), *fragments)


def test_q3_not_attempted():
    assert nb02.q3.check(____) == Outcome.NOT_ATTEMPTED


FIX_WORDS = ("Write ", "Apply ", "Divide", "Use another", "set the buffers", "Call optimizer", "return the step",
             "has_aux=True", "unpack", "should ")


def test_messages_report_symptoms_not_fixes():
    """Each wrong answer above gets expected vs got; the fix is in .hint() and .solution(), not in the message."""
    wrong = [
        (nb02.q1, from_source(step_source(has_aux="False"), "build_train_step", "<nb02-fx-1>")),
        (nb02.q1, from_source(step_source(result="loss"), "build_train_step", "<nb02-fx-2>")),
        (nb02.q2, from_source(nb02.q2.solution_text.replace("grads = ops.clip_by_global_norm(grads, max_norm)", "pass"),
                              "build_clipped_step", "<nb02-fx-3>")),
        (nb02.q3, accumulating(("grad / k", "grad"), name="<nb02-fx-4>")),
        (nb02.q3, accumulating(('prefix="grad_accum"', 'prefix="accum"'), name="<nb02-fx-5>")),
    ]
    for exercise, answer in wrong:
        message = exercise.check(answer).message
        assert exercise.check(answer) == Outcome.INCORRECT
        named = [w for w in FIX_WORDS if w in message]
        assert not named, f"the message names a fix ({named}): {message}"
