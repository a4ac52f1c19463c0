"""Notebook 02's exercise checks accept the reference and the shown solution, and reject the typical mistakes
(q1: no has_aux, no depend, no update, a tuple returned, no jit, the course's make_train_step borrowed, the
lesson's step copied without return_logits, logits ignored or recomputed after the update; q2: the other rankings of
the input gradient; q3: a new iterator per epoch, an iterator for one epoch, sums instead of means, the plain mean of
the batch losses)
with the right message. Lesson 03's tests reuse the helpers
(``from_source``, ``step_source``, ``assert_incorrect``)."""

import functools
import re
import sys
import tempfile
import textwrap
import types
from pathlib import Path

import numpy as np
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


def test_q1_rejects_a_step_without_jit():
    without_jit = from_source(step_source().replace("    @ms.jit\n", ""), "build_train_step", "<nb02-q1-nojit>")
    assert_incorrect(nb02.q1.check(without_jit), "the weights are right", "not compiled", "'train_step'",
                     "@ms.jit")


def test_q1_rejects_the_course_step_borrowed():
    from course_utils.training import make_train_step

    def build_train_step(net, loss_fn, optimizer):
        return make_train_step(net, loss_fn, optimizer)

    assert_incorrect(nb02.q1.check(build_train_step), "make_train_step", "written out")
    assert_incorrect(nb02.q1.check(make_train_step), "make_train_step", "written out")


def test_q1_refuses_a_builder_that_calls_the_courses_step_or_solution():
    """make_train_step under jit, or the exercise's own reference called from a learner's builder (or passed under
    another name): all refused while the check runs; the reference copy the tests use still passes."""
    from course_utils.exercises.nb02 import build_train_step as solution
    from course_utils.training import make_train_step as course_step

    def calls_the_solution(net, loss_fn, optimizer, return_logits=False):
        if return_logits is None:   # never: only so that the source mentions ops.depend
            ops.depend(None, None)
        return solution(net, loss_fn, optimizer, return_logits)

    def jit_over_the_course_step(net, loss_fn, optimizer, return_logits=False):
        inner = course_step(net, loss_fn, optimizer, return_logits=return_logits)

        @ms.jit
        def step(data, label):
            loss = inner(data, label)
            return ops.depend(loss, loss)

        return step

    for answer in (calls_the_solution, jit_over_the_course_step, solution):
        assert_incorrect(nb02.q1.check(answer), "the step comes from the course", "written out")
    assert nb02.q1.check(*nb02.q1.reference()) == Outcome.CORRECT
    assert (course_step.__code__.co_name, solution.__code__.co_name) == ("make_train_step", "build_train_step")


def logits_variant(pair: str, name: str):
    """The reference builder with ``return loss, logits`` (under ``if return_logits``) replaced by ``return pair``."""
    source = nb02.q1.solution_text
    assert source.count("return loss, logits") == 1
    return from_source(source.replace("return loss, logits", f"return {pair}"), "build_train_step", name)


def test_q1_refuses_the_lesson_step_copied_and_logits_ignored_or_recomputed():
    """The shortcut: cells 10, 12 and 17 pasted inside a def (no return_logits) pass the default checks but not the
    variation; nor does a step that ignores the flag or recomputes the logits after the update."""
    copied = from_source(step_source(), "build_train_step", "<nb02-q1-copied>")
    assert_incorrect(nb02.q1.check(copied), "with return_logits=True", "raised TypeError", "return_logits")
    ignored = logits_variant("loss", "<nb02-q1-ignored>")
    assert_incorrect(nb02.q1.check(ignored), "with return_logits=True", "expected a pair (loss, logits)")
    after = logits_variant("loss, net(data)", "<nb02-q1-after>")
    assert_incorrect(nb02.q1.check(after), "with return_logits=True", "after the update")
    assert nb02.q1.check(logits_variant("(loss, logits)", "<nb02-q1-right>")) == Outcome.CORRECT


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


def _input_gradient(net, loss_fn, data, label):
    def loss_of(d, lb):
        return loss_fn(net(d), lb)

    return ms.value_and_grad(loss_of, 0, None)(data, label)[1].asnumpy()


def _ranked(scores, k):
    return [int(i) for i in np.argsort(scores)[::-1][:k]]


def test_q2_accepts_the_reference_and_answers_in_other_forms():
    assert nb02.q2.check(*nb02.q2.reference()) == Outcome.CORRECT
    solution = from_source(nb02.q2.solution_text, "most_sensitive_features", "<nb02-q2-solution>")
    assert nb02.q2.check(solution) == Outcome.CORRECT
    assert nb02.q2.check(lambda net, loss_fn, data, label, k=3: ____) == Outcome.NOT_ATTEMPTED

    def as_array_of_sums(net, loss_fn, data, label, k=3):   # a sum ranks like a mean; an int array is a list
        return np.argsort(-np.abs(_input_gradient(net, loss_fn, data, label)).sum(axis=0))[:k]

    assert nb02.q2.check(as_array_of_sums) == Outcome.CORRECT


@pytest.mark.parametrize("score, fragment", [
    (lambda g: g.mean(axis=0), "signed mean"),
    (lambda g: np.abs(g.mean(axis=0)), "|mean|"),
    (lambda g: np.abs(g).max(axis=0), "largest magnitude in each column"),
    (lambda g: np.abs(g[0]), "first sample"),
    (lambda g: -np.abs(g).mean(axis=0), "least sensitive"),
], ids=["signed", "abs-of-mean", "max", "first-sample", "ascending"])
def test_q2_names_the_wrong_ranking(score, fragment):
    def answer(net, loss_fn, data, label, k=3):
        return _ranked(score(_input_gradient(net, loss_fn, data, label)), k)

    assert_incorrect(nb02.q2.check(answer), "with k=3: expected", fragment)


def test_q2_rejects_no_has_aux_a_fixed_k_and_other_results():
    def no_aux(net, loss_fn, data, label, k=3):
        def forward(d, lb):
            logits = net(d)
            return loss_fn(logits, lb), logits
        grad = ms.value_and_grad(forward, 0, None)(data, label)[1].asnumpy()
        return _ranked(np.abs(grad).mean(axis=0), k)

    assert_incorrect(nb02.q2.check(no_aux), "loss + logits.sum()")

    def always_three(net, loss_fn, data, label, k=3):
        return nb02.most_sensitive_features(net, loss_fn, data, label)

    assert_incorrect(nb02.q2.check(always_three), "k=5", "returned 3 indices")

    def the_gradient(net, loss_fn, data, label, k=3):
        return ms.Tensor(_input_gradient(net, loss_fn, data, label))

    assert_incorrect(nb02.q2.check(the_gradient), "expected a list of 3 feature indices")


# ---- q3: the epoch loop ----

EPOCH_LOOP = """
def run_epochs(train_step, dataset, epochs):
    {before}
    epoch_means = []
    for _ in range(epochs):
        {per_epoch}
        pairs = [(float(train_step(data, label)), label.shape[0]) for data, label in {source}]
        losses = [loss for loss, _ in pairs]
        epoch_means.append({reduce})
    return epoch_means
"""


def epoch_loop(before="iterator = dataset.create_tuple_iterator(num_epochs=epochs)", per_epoch="",
               source="iterator", reduce="sum(loss * n for loss, n in pairs) / sum(n for _, n in pairs)"):
    source_text = EPOCH_LOOP.format(before=before, per_epoch=per_epoch or "pass", source=source, reduce=reduce)
    return from_source(source_text, "run_epochs", f"<nb02-q3-{abs(hash(source_text))}>")


def test_q3_accepts_the_reference_the_solution_and_a_default_iterator():
    import mindspore.dataset as ds

    seed = ds.config.get_seed()
    assert nb02.q3.check(*nb02.q3.reference()) == Outcome.CORRECT
    assert ds.config.get_seed() == seed, "the check must put the notebook's dataset seed back"
    solution = from_source(nb02.q3.solution_text, "run_epochs", "<nb02-q3-solution>")
    assert nb02.q3.check(solution) == Outcome.CORRECT
    assert nb02.q3.check(epoch_loop(before="iterator = dataset.create_tuple_iterator()")) == Outcome.CORRECT
    assert nb02.q3.check(lambda train_step, dataset, epochs: ____) == Outcome.NOT_ATTEMPTED


def test_q3_rejects_a_new_iterator_per_epoch():
    per_epoch = epoch_loop(before="pass", per_epoch="iterator = dataset.create_tuple_iterator()")
    assert_incorrect(nb02.q3.check(per_epoch), "same order", "new iterator per epoch")
    over_the_dataset = epoch_loop(before="pass", source="dataset")
    assert_incorrect(nb02.q3.check(over_the_dataset), "same order")


def test_q3_rejects_an_iterator_for_one_epoch():
    one_epoch = epoch_loop(before="iterator = dataset.create_tuple_iterator(num_epochs=1)")
    assert_incorrect(nb02.q3.check(one_epoch), "after 3 steps", "fewer epochs than the loop runs (3)")


@pytest.mark.parametrize("reduce, fragment", [("sum(losses)", "the sum"), ("losses[-1]", "last step"),
                                              ("sum(losses) / len(losses)", "the last batch has 2 samples, not 4")],
                         ids=["sum", "last", "plain-mean"])
def test_q3_rejects_other_epoch_values(reduce, fragment):
    assert_incorrect(nb02.q3.check(epoch_loop(reduce=reduce)), "expected the epoch means [1.8, 4.8, 7.8]", fragment)


def test_q3_refuses_the_lesson_loop_copied():
    """The shortcut: section 5's training loop with the np.mean of TrainingHistory.end_epoch, names changed, averages
    the batch losses as if every batch were full."""
    copied = from_source('''
def run_epochs(train_step, dataset, epochs):
    import numpy as np
    iterator = dataset.create_tuple_iterator(num_epochs=epochs)
    epoch_means = []
    for _ in range(epochs):
        batch_losses = []
        for data, label in iterator:
            batch_losses.append(float(train_step(data, label)))
        epoch_means.append(float(np.mean(batch_losses)))
    return epoch_means
''', "run_epochs", "<nb02-q3-copied>")
    assert_incorrect(nb02.q3.check(copied), "plain mean of the epoch's batch losses", "[1.8, 4.8, 7.8]")
    assert nb02.q3.check(*nb02.q3.reference()) == Outcome.CORRECT
