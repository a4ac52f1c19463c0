"""Notebook 01's checkers accept the reference solutions and reject typical wrong answers with the right message.

Most cases run in PyNative mode (no compile per Cell, fast); the cases whose behaviour depends on the mode
(NumPy inside construct) and the reference solutions also run in GRAPH_MODE. The mode comes from conftest's
``ms_mode`` fixture (``pynative`` is its shorthand).
"""

import linecache
import math

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

from course_utils.exercises import Outcome, ____, nb01

#: For the tests that also run compiled: ``ms_mode`` (tests/conftest.py) in GRAPH_MODE.
GRAPH = pytest.mark.parametrize("ms_mode", ["graph"], indirect=True)


def incorrect(exercise, answer, *fragments):
    result = exercise.check(answer)
    assert result == Outcome.INCORRECT, result
    for fragment in fragments:
        assert fragment in result.message, f"{fragment!r} not in {result.message!r}"
    return result


# ---------------------------------------------------------------------------------------------
# Wrong answers, written the way learners write them
# ---------------------------------------------------------------------------------------------

def _huber_pieces(logits, labels, delta):
    error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
    abs_error = ops.abs(error)
    return error, abs_error, 0.5 * ops.square(error), delta * (abs_error - 0.5 * delta)


def _weighted(loss_cell, loss, weights, logits):
    """What q1 asks of the reduction: one weight per sample over its outputs, 'mean' normalised by the weights."""
    w = ops.broadcast_to(ops.cast(weights, ms.float32).reshape(-1, 1), loss.shape)
    loss = w * loss
    if loss_cell.reduce and loss_cell.average:
        loss = loss.sum() / w.sum()
    elif loss_cell.reduce:
        loss = loss.sum()
    return ops.cast(loss, logits.dtype)


class WeightsIgnored(nn.LossBase):
    def __init__(self, delta=1.0, reduction="mean"):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels, weights):
        _, abs_error, quadratic, linear = _huber_pieces(logits, labels, self.delta)
        return self.get_loss(ops.cast(ops.where(abs_error <= self.delta, quadratic, linear), logits.dtype))


class CopiedWithWeights(WeightsIgnored):
    """Notebook 01's MyHuberLoss with a weights argument handed to get_loss: what the lesson showed, nothing more."""

    def construct(self, logits, labels, weights):
        _, abs_error, quadratic, linear = _huber_pieces(logits, labels, self.delta)
        loss = ops.where(abs_error <= self.delta, quadratic, linear)
        return self.get_loss(ops.cast(loss, logits.dtype), weights)


class CopiedWeightsReshaped(WeightsIgnored):
    """The weights broadcast over the outputs, but get_loss's mean divides by the number of elements."""

    def construct(self, logits, labels, weights):
        _, abs_error, quadratic, linear = _huber_pieces(logits, labels, self.delta)
        loss = ops.where(abs_error <= self.delta, quadratic, linear)
        return self.get_loss(ops.cast(loss, logits.dtype), weights.reshape(-1, 1))


class MeanOverSampleWeights(WeightsIgnored):
    """Normalises by the sum of the sample weights, forgetting that each sample has several outputs."""

    def construct(self, logits, labels, weights):
        _, abs_error, quadratic, linear = _huber_pieces(logits, labels, self.delta)
        loss = ops.where(abs_error <= self.delta, quadratic, linear) * weights.reshape(-1, 1)
        if self.reduce and self.average:
            loss = loss.sum() / weights.sum()
        elif self.reduce:
            loss = loss.sum()
        return ops.cast(loss, logits.dtype)


class ReductionDropped(WeightsIgnored):
    def __init__(self, delta=1.0, reduction="mean"):
        super().__init__(delta)  # learner forgot to pass reduction: always "mean"
        nn.LossBase.__init__(self)
        self.delta = delta

    def construct(self, logits, labels, weights):
        _, abs_error, quadratic, linear = _huber_pieces(logits, labels, self.delta)
        return _weighted(self, ops.where(abs_error <= self.delta, quadratic, linear), weights, logits)


class WrongLinearPiece(WeightsIgnored):
    """delta * (|e| - delta): wrong everywhere beyond delta."""

    def construct(self, logits, labels, weights):
        error, abs_error, quadratic, _ = _huber_pieces(logits, labels, self.delta)
        linear = self.delta * (abs_error - self.delta)
        return _weighted(self, ops.where(abs_error <= self.delta, quadratic, linear), weights, logits)


class StrictWrongLinear(WeightsIgnored):
    """`<` instead of `<=` is harmless, but with a wrong linear piece the boundary itself goes wrong."""

    def construct(self, logits, labels, weights):
        error, abs_error, quadratic, _ = _huber_pieces(logits, labels, self.delta)
        linear = self.delta * (abs_error - self.delta)
        return _weighted(self, ops.where(abs_error < self.delta, quadratic, linear), weights, logits)


class Float32Out(WeightsIgnored):
    def construct(self, logits, labels, weights):
        _, abs_error, quadratic, linear = _huber_pieces(logits, labels, self.delta)
        loss = _weighted(self, ops.where(abs_error <= self.delta, quadratic, linear), weights, logits)
        return ops.cast(loss, ms.float32)


class NumpyInside(WeightsIgnored):
    def construct(self, logits, labels, weights):
        error = (logits - labels).asnumpy()
        a = np.abs(error)
        w = np.broadcast_to(weights.asnumpy()[:, None], error.shape)
        loss = np.where(a <= self.delta, 0.5 * error**2, self.delta * (a - 0.5 * self.delta)) * w
        return ms.Tensor(loss.sum() / w.sum() if self.reduce and self.average else loss.sum() if self.reduce
                         else loss, logits.dtype)


class FixedDeltaOne(WeightsIgnored):
    """Works for delta=1 only: the linear piece is written as |e| - 0.5."""

    def construct(self, logits, labels, weights):
        _, abs_error, quadratic, _ = _huber_pieces(logits, labels, self.delta)
        return _weighted(self, ops.where(abs_error <= self.delta, quadratic, abs_error - 0.5), weights, logits)


class NotALoss(nn.Cell):
    def __init__(self, delta=1.0, reduction="mean"):
        super().__init__()

    def construct(self, logits, labels, weights):
        return ops.abs(logits - labels).mean()


class NoDeltaArgument(nn.LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)

    def construct(self, logits, labels, weights):
        return self.get_loss(ops.abs(logits - labels), weights)


def _course_loss_answers():
    """Answers that lean on the course's own Huber loss: a subclass, an instance kept, its elementwise function."""
    from course_utils.losses import HuberLoss, huber as elementwise_huber   # an alias: refused all the same

    class SubclassOfCourseHuber(HuberLoss):
        def construct(self, logits, labels, weights):
            return _weighted(self, ops.cast(super().construct(logits, labels), ms.float32), weights, logits)

    class HoldsCourseHuber(WeightsIgnored):
        def __init__(self, delta=1.0, reduction="mean"):
            super().__init__(delta, reduction)
            self.elementwise = HuberLoss(reduction="none", delta=delta)

        def construct(self, logits, labels, weights):
            return _weighted(self, ops.cast(self.elementwise(logits, labels), ms.float32), weights, logits)

    class CallsCourseHuber(WeightsIgnored):
        def construct(self, logits, labels, weights):
            error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
            return _weighted(self, elementwise_huber(error, self.delta), weights, logits)

    return SubclassOfCourseHuber, HoldsCourseHuber, CallsCourseHuber


class HalfDone(nn.LossBase):
    def __init__(self, delta=1.0, reduction="mean"):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels, weights):
        return self.get_loss(____)


# ---------------------------------------------------------------------------------------------
# every question: the reference solution passes
# ---------------------------------------------------------------------------------------------

QUESTIONS = pytest.mark.parametrize("q", ["q1", "q2", "q3"])


@QUESTIONS
def test_accepts_the_reference(pynative, q):
    exercise = getattr(nb01, q)
    assert exercise.check(*exercise.reference()) == Outcome.CORRECT


@pytest.mark.slow
@QUESTIONS
@GRAPH
def test_accepts_the_reference_compiled(ms_mode, q):
    exercise = getattr(nb01, q)
    assert exercise.check(*exercise.reference()) == Outcome.CORRECT


# ---------------------------------------------------------------------------------------------
# q1: weighted Huber
# ---------------------------------------------------------------------------------------------

def test_q1_not_attempted(pynative):
    assert nb01.q1.check(____) == Outcome.NOT_ATTEMPTED
    half = nb01.q1.check(HalfDone)
    assert half == Outcome.NOT_ATTEMPTED and "still contains the placeholder" in half.message


@pytest.mark.parametrize("answer, fragments", [
    (CopiedWithWeights, ("reduction='none'", "logits and labels of shape (4, 3) and weights of shape (4,)",
                         "one weight per sample", "got ValueError")),
    (CopiedWeightsReshaped, ("reduction='mean'", "expected 0.666667, got 0.583333",
                             "divided by the number of elements (12)", "sum of the elements' weights (10.5)")),
    (MeanOverSampleWeights, ("reduction='mean'", "expected 0.666667, got 2", "sum of the 4 sample weights (3.5)",
                             "3 elements")),
    (WeightsIgnored, ("got the unweighted losses", "the weights have no effect")),
    (ReductionDropped, ("expected shape (4, 3), got shape () (reduction='none' keeps one loss per element)",)),
    (WrongLinearPiece, ("element (1, 1)", "error 3", "its sample's weight 2", "expected 5, got 4",
                        "Here |error| > delta = 1")),
    (StrictWrongLinear, ("element (0, 2)", "exactly |error| == delta (1)", "expected 0.5, got 0")),
    (Float32Out, ("expected a Float16 loss", "got a Float32 loss")),
    (NumpyInside, ("with respect to logits on logits=[[1.5", "got all zeros", "Section 7")),
    (FixedDeltaOne, ("delta=2.0", "Here |error| > delta = 2")),
    (NotALoss, ("should derive from nn.LossBase",)),
    (NoDeltaArgument, ("must accept reduction and delta as keyword arguments",)),
    (lambda delta=1.0, reduction="mean": None, ("should be a class",)),
], ids=lambda v: getattr(v, "__name__", "") if not isinstance(v, tuple) else "")
def test_q1_rejects(pynative, answer, fragments):
    incorrect(nb01.q1, answer, *fragments)


def test_q1_refuses_the_courses_huber_loss(pynative):
    """A subclass of course_utils.losses.HuberLoss, an instance of it kept in the Cell, or its elementwise huber()
    called under another name: each is refused, and the course's loss works again after the check."""
    from course_utils.losses import HuberLoss

    for answer in _course_loss_answers():
        incorrect(nb01.q1, answer, f"{answer.__name__} calls the course's own Huber loss (course_utils.losses)")
    assert float(HuberLoss(reduction="sum")(ms.Tensor([3.0, 0.5]), ms.Tensor([0.0, 0.0]))) == 2.625


@pytest.mark.slow
@GRAPH
def test_q1_refuses_the_courses_huber_loss_compiled(ms_mode):
    # compiled, MindSpore parses huber's (swapped) code: the refusal comes back as a compile error, still refused
    for answer in _course_loss_answers():
        incorrect(nb01.q1, answer, "calls the course's own Huber loss")


@pytest.mark.slow
@GRAPH
def test_q1_rejects_numpy_inside_construct_compiled(ms_mode):
    # GRAPH_MODE runs the NumPy part through its Python fallback: the value is right, the gradient is zero
    incorrect(nb01.q1, NumpyInside, "got all zeros", "Section 7")


@pytest.mark.slow
@GRAPH
def test_q1_rejects_the_lessons_loss_with_weights_compiled(ms_mode):
    incorrect(nb01.q1, CopiedWithWeights, "weights of shape (4,)", "got ValueError")


def test_q1_message_names_the_learners_class(pynative):
    result = incorrect(nb01.q1, WeightsIgnored, "WeightsIgnored(reduction='none', delta=1.0)")
    assert "logits=[[1.5, 0.0, 2.0]" in result.message and "weights=[1.0, 2.0, 0.0, 0.5]" in result.message


def test_q1_solution_leans_on_no_course_helper():
    assert "course_utils" not in nb01.q1.solution_text and "course_utils" not in nb01.q1.hint_text
    assert "get_loss(" not in nb01.q1.solution_text   # get_loss has no weighted mean


# ---------------------------------------------------------------------------------------------
# q2: log-cosh
# ---------------------------------------------------------------------------------------------

class NaiveLogCosh(nn.LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)

    def construct(self, logits, labels):
        error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
        return self.get_loss(ops.cast(ops.log(ops.cosh(error)), logits.dtype))


class NaiveLogCoshFloat16(nn.LossBase):
    """Stable in float32 by accident of clipping, but computes in the input dtype."""

    def __init__(self, reduction="mean"):
        super().__init__(reduction)

    def construct(self, logits, labels):
        error = ops.clamp(logits - labels, -80.0, 80.0)
        return self.get_loss(ops.log(ops.cosh(error)) + ops.relu(ops.abs(logits - labels) - 80.0))


class StableLogCoshFloat32Out(nn.LossBase):
    def __init__(self, reduction="mean"):
        super().__init__(reduction)

    def construct(self, logits, labels):
        a = ops.abs(ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32))
        return self.get_loss(a + ops.log1p(ops.exp(-2.0 * a)) - math.log(2.0))


class StableLogCoshAlwaysSum(StableLogCoshFloat32Out):
    def __init__(self, reduction="mean"):
        super().__init__("sum")

    def construct(self, logits, labels):
        a = ops.abs(ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32))
        return self.get_loss(ops.cast(a + ops.log1p(ops.exp(-2.0 * a)) - math.log(2.0), logits.dtype))


@pytest.mark.parametrize("answer, fragments", [
    (NaiveLogCosh, ("element 5", "error 100", "got inf")),
    (NaiveLogCoshFloat16, ("float16 inputs", "got inf")),
    (StableLogCoshFloat32Out, ("got a Float32 loss",)),
    (StableLogCoshAlwaysSum, ("expected shape (8,), got shape ()",)),
])
def test_q2_rejects(pynative, answer, fragments):
    incorrect(nb01.q2, answer, *fragments)


def test_q2_wrong_reduction_message(pynative):
    class MeanIsSum(StableLogCoshAlwaysSum):
        def __init__(self, reduction="mean"):
            nn.LossBase.__init__(self, "sum" if reduction == "mean" else reduction)

    incorrect(nb01.q2, MeanIsSum, "reduction='mean'", "That is the sum")


# ---------------------------------------------------------------------------------------------
# q3: find the bugs
# ---------------------------------------------------------------------------------------------

def edited(name, *edits):
    """The notebook's BuggyHuberLoss (``nb01.BUGGY_SOURCE``) renamed and edited in place, line by line, the way a
    learner edits it. Compiled under a file name that linecache knows, as IPython does, so q3 can read its source."""
    source = nb01.BUGGY_SOURCE.replace("class BuggyHuberLoss(", f"class {name}(")
    for old, new in edits:
        assert source.count(old) == 1, old
        source = source.replace(old, new)
    filename = f"<test_exercises_nb01 {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"ms": ms, "nn": nn, "ops": ops}
    exec(compile(source, filename, "exec"), namespace)
    cls = namespace[name]
    cls.__module__ = __name__
    return cls


FIX_1 = ("super().__init__()", "super().__init__(reduction)")
FIX_2 = ("(abs_error - self.delta)", "(abs_error - 0.5 * self.delta)")
FIX_3 = ("return self.get_loss(loss)", "return self.get_loss(ops.cast(loss, logits.dtype))")

#: The notebook's buggy version: three bugs.
BuggyHuberLoss = edited("BuggyHuberLoss")
OneBugFixed = edited("OneBugFixed", FIX_1)
#: bug 2 fixed in another form, still one line
TwoBugsFixed = edited("TwoBugsFixed", FIX_1,
                      ("self.delta * (abs_error - self.delta)", "self.delta * abs_error - 0.5 * self.delta ** 2"))
#: bug 3 fixed by a line of its own rather than in the return: still three changed lines
AllFixedOtherwise = edited("AllFixedOtherwise", ("super().__init__()", "super().__init__(reduction=reduction)"), FIX_2,
                           ("        return", "        loss = ops.cast(loss, logits.dtype)\n        return"))
PythonIf = edited("PythonIf", FIX_1, FIX_2, ("ops.where(abs_error <= self.delta, quadratic, linear)",
                                             "quadratic if abs_error.max() <= self.delta else linear"))
#: Notebook 01's MyHuberLoss (section 2) pasted as the answer: it behaves right, but it is not the exercise.
CopiedMyHuberLoss = edited("CopiedMyHuberLoss", FIX_1, FIX_2, FIX_3, (
    "        self.delta = delta",
    "        if delta <= 0:\n            raise ValueError(f'delta must be positive, got {delta}')\n"
    "        self.delta = float(delta)"))


class InheritsMyHuberLoss(CopiedMyHuberLoss):
    """A subclass of a finished Huber loss, nothing of its own."""


def _course_huber():
    from course_utils.losses import HuberLoss

    class InheritsCourseHuber(HuberLoss):
        pass

    return InheritsCourseHuber


def test_q3_refuses_a_copy_or_a_subclass_of_a_finished_huber_loss(pynative):
    from course_utils.losses import HuberLoss

    incorrect(nb01.q3, CopiedMyHuberLoss, "differs from BuggyHuberLoss in 5 lines", "at most 3", "MyHuberLoss")
    incorrect(nb01.q3, HuberLoss, "differs from BuggyHuberLoss in", "at most 3")
    incorrect(nb01.q3, InheritsMyHuberLoss, "derives from CopiedMyHuberLoss", "not a subclass of another loss")
    incorrect(nb01.q3, _course_huber(), "derives from HuberLoss")
    incorrect(nb01.q3, nn.HuberLoss, "differs from BuggyHuberLoss in")
    assert nb01.q3.check(*nb01.q3.reference()) == Outcome.CORRECT      # the reference: exactly three lines


def test_q3_compares_statements_not_comments_or_layout():
    before = nb01.buggy_statements()
    assert nb01.changed_lines(before, nb01.class_statements(BuggyHuberLoss)) == 0   # docstring ignored
    assert nb01.changed_lines(before, nb01.class_statements(nb01.solutions()["FixedHuberLoss"])) == 3
    assert nb01.changed_lines(before, nb01.class_statements(AllFixedOtherwise)) == 3
    assert nb01.changed_lines(before, nb01.class_statements(CopiedMyHuberLoss)) == 5


def test_the_checkers_buggy_loss_is_the_notebooks():
    """nb01.BUGGY_SOURCE (what q3 compares with) is the class both editions show, comments aside."""
    import ast
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    expected = ast.dump(ast.parse(nb01.BUGGY_SOURCE).body[0])
    for path in (root / "notebooks" / "01_custom_huber_loss.ipynb",
                 root / "notebooks" / "zh" / "01_custom_huber_loss.ipynb"):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        shown = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"
                 and "class BuggyHuberLoss(" in "".join(c["source"])]
        assert len(shown) == 1, path
        tree = ast.parse(shown[0])
        classes = [ast.dump(n) for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "BuggyHuberLoss"]
        assert classes == [expected], path
    assert nb01.class_statements(BuggyHuberLoss) == nb01.buggy_statements()   # and this file's copy


def test_q3_guides_through_the_bugs_one_by_one(pynative):
    incorrect(nb01.q3, BuggyHuberLoss, "BuggyHuberLoss(reduction='none', delta=1.0)", "got shape ()")
    incorrect(nb01.q3, OneBugFixed, "element 4", "expected 2.5, got 2", "Here |error| > delta = 1")
    incorrect(nb01.q3, TwoBugsFixed, "got a Float32 loss")
    assert nb01.q3.check(AllFixedOtherwise) == Outcome.CORRECT


def test_q3_rejects_a_python_if(pynative):
    incorrect(nb01.q3, PythonIf, "element 0", "expected 0.125, got 0")


def test_q3_not_attempted(pynative):
    assert nb01.q3.check(____) == Outcome.NOT_ATTEMPTED


def test_hints_and_solutions_exist(capsys):
    for q in (nb01.q1, nb01.q2, nb01.q3):
        q.hint()
        q.solution()
    out = capsys.readouterr().out
    assert "Exercise 01.1 (weighted Huber) - Hint:" in out
    assert "class LogCoshLoss(nn.LossBase):" in out and "class FixedHuberLoss(nn.LossBase):" in out
    assert "class WeightedHuberLoss(nn.LossBase):" in out


def test_stored_notebook_ships_the_exercises_unattempted():
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "notebooks" / "01_custom_huber_loss.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]

    def text(cell):
        out = []
        for o in cell.get("outputs", []):
            t = o.get("text") or o.get("data", {}).get("text/plain", "")
            out.append("".join(t) if isinstance(t, list) else t)
        return "\n".join(out)

    checks = {}
    for cell in (c for c in cells if c["cell_type"] == "code"):
        src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for q in ("q1", "q2", "q3"):
            if f"nb01.{q}.check(" in src:
                checks.setdefault(q, []).append((src, text(cell)))
    assert "Exercise 01.1 (weighted Huber) - Not attempted yet" in checks["q1"][0][1]
    assert "Exercise 01.2 (log-cosh loss) - Not attempted yet" in checks["q2"][0][1]
    demo, attempt = checks["q3"]
    assert "check(BuggyHuberLoss)" in demo[0] and "Exercise 01.3 (find the bugs) - Incorrect" in demo[1]
    assert "Exercise 01.3 (find the bugs) - Not attempted yet" in attempt[1]
    assert any("nb01.q1.hint()" in "".join(c["source"]) for c in cells)


# Code a message must not contain: it would name the bug or its fix instead of the symptom.
FIX_WORDS = ("super().__init__", "get_loss", "ops.cast", "ops.where", "self.delta", "log1p", "Pass ", "use ",
             "fix", "should ")


@pytest.mark.parametrize("exercise, answer", [
    (nb01.q1, WeightsIgnored), (nb01.q1, CopiedWithWeights), (nb01.q1, CopiedWeightsReshaped),
    (nb01.q1, MeanOverSampleWeights), (nb01.q1, ReductionDropped), (nb01.q1, WrongLinearPiece),
    (nb01.q1, StrictWrongLinear), (nb01.q1, Float32Out), (nb01.q1, NumpyInside), (nb01.q1, FixedDeltaOne),
    (nb01.q2, NaiveLogCosh), (nb01.q2, NaiveLogCoshFloat16), (nb01.q2, StableLogCoshFloat32Out),
    (nb01.q2, StableLogCoshAlwaysSum), (nb01.q3, BuggyHuberLoss), (nb01.q3, OneBugFixed), (nb01.q3, TwoBugsFixed),
    (nb01.q3, PythonIf)], ids=lambda v: getattr(v, "__name__", "") or getattr(v, "title", ""))
def test_messages_report_symptoms_not_fixes(pynative, exercise, answer):
    """Which input, expected vs got: finding the cause and the fix is the exercise (hints have them)."""
    message = exercise.check(answer).message
    assert "expected" in message and "got" in message, message
    named = [w for w in FIX_WORDS if w in message]
    assert not named, f"the message names a cause or fix ({named}): {message}"
