"""Exercises of notebook 01 (a custom Huber loss).

q1 ``WeightedHuberLoss``: one weight per sample, broadcast over that sample's outputs, and a *normalised* weighted
   mean (sum of weight * loss over the sum of the weights). The lesson showed neither: a copy of ``MyHuberLoss`` that
   passes ``weights`` to ``get_loss`` fails (its ``weights`` do not broadcast, and its mean divides by the number of
   elements). The course's own Huber loss (``course_utils.losses``) is refused while the check runs.
q2 ``LogCoshLoss``: log(cosh(error)) with ``reduction``, finite for large errors and float16.
q3 ``FixedHuberLoss``: find and fix the bugs of the notebook's ``BuggyHuberLoss``. Its answer must be that
   class with only the faulty lines changed (``BUGGY_SOURCE``, compared statement by statement), so a copy of
   the notebook's ``MyHuberLoss`` or a subclass of a finished Huber loss is refused before any behaviour check.

The checks call the learner's Cell in the current mode (GRAPH_MODE compiles a few small graphs) on
fixed inputs and compare with values computed independently in NumPy (float64): per-element values,
``|error| == delta`` exactly, the three reductions, another ``delta``, float16 in -> float16 out, and
the gradient with respect to ``logits``.

A message reports the symptom (which call, which input, expected vs got), never the cause or the fix:
finding those is the exercise. Causes and fixes are in ``.hint()`` and ``.solution()``.
"""

from __future__ import annotations

import ast
import difflib
import functools
import inspect
import textwrap

import numpy as np

from course_utils.exercises import Exercise, Incorrect, NotAttempted, code_references, refusing, register, to_numpy
from course_utils.exercises.inspection import is_placeholder_error
from course_utils.fmt import significant as _fmt
from course_utils.i18n import N_, tr
from course_utils.notebook import first_line

# Errors (logits - labels) chosen to cover every region for delta = 1: zero, inside, exactly +-delta, beyond.
_LOGITS = np.array([1.5, 0.0, 2.0, -1.0, 3.0, 0.25, -2.5, 5.0], dtype=np.float32)
_LABELS = np.array([1.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.0, 1.0], dtype=np.float32)
# q1: a batch of 4 samples with 3 outputs each (every region for delta = 1, and |error| == delta in three places),
# one weight per sample (one of them 0: that sample must not count). 4 samples and 3 outputs: weights of shape (4,)
# do not broadcast against (4, 3) by themselves.
_W_LOGITS = np.array([[1.5, 0.0, 2.0], [-1.0, 3.0, 0.25], [-2.5, 5.0, 0.5], [0.0, -0.5, 1.0]], dtype=np.float32)
_W_LABELS = np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 0.5], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], dtype=np.float32)
_SAMPLE_WEIGHTS = np.array([1.0, 2.0, 0.0, 0.5], dtype=np.float32)
_NUMPY_NAMES = {"np", "numpy", "asnumpy"}


def huber_np(error: np.ndarray, delta: float) -> np.ndarray:
    """The Huber formula in float64 NumPy: what the checks expect."""
    e = np.asarray(error, dtype=np.float64)
    return np.where(np.abs(e) <= delta, 0.5 * e ** 2, delta * (np.abs(e) - 0.5 * delta))


def log_cosh_np(error: np.ndarray) -> np.ndarray:
    """log(cosh(e)) in float64, in the form that cannot overflow."""
    a = np.abs(np.asarray(error, dtype=np.float64))
    return a + np.log1p(np.exp(-2.0 * a)) - np.log(2.0)


def _tensor(values, dtype=None):
    import mindspore as ms

    return ms.Tensor(np.asarray(values), dtype or ms.float32)


class _LossExercise(Exercise):
    """Shared checks for loss Cells: construction, reductions, dtype, gradient, NumPy diagnosis."""

    solution_imports = ""  # what the shown solution needs beyond the notebook's ms, nn, ops
    _answer_name = ""
    uses_delta = True

    @property
    def name(self) -> str:
        """The class name the learner defines."""
        return self.names[0]

    def reference(self):
        return (solutions()[self.name],)

    @property
    def solution_text(self) -> str:
        """The source of the reference class: the solution shown is exactly the one the tests accept."""
        source = inspect.getsource(solutions()[self.name])
        return f"{self.solution_imports}\n\n{textwrap.dedent(source)}" if self.solution_imports else source

    # -- what the loss should compute (float64 NumPy) --
    def elementwise(self, error, delta):  # pragma: no cover - abstract
        raise NotImplementedError

    def derivative(self, error, delta):  # pragma: no cover - abstract
        raise NotImplementedError

    # -- helpers --
    def _make(self, cls, reduction, delta=1.0):
        kwargs = {"reduction": reduction}
        if self.uses_delta:
            kwargs["delta"] = delta
        args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
        name = getattr(cls, "__name__", self.name)
        try:
            return self.call(cls, **kwargs), f"{name}({args})"
        except (NotAttempted, Incorrect):
            raise
        except TypeError as exc:
            raise Incorrect(tr("{call} failed with TypeError: {error}. The constructor must accept {names} as "
                               "keyword arguments.", call=f"{name}({args})", error=str(exc).splitlines()[0],
                               names=tr(" and ").join(kwargs))) from None

    def _inputs(self, logits, labels, dtype=None):
        return [_tensor(logits, dtype), _tensor(labels, dtype)]

    def _expected_none(self, logits, labels, delta):
        return self.elementwise(np.float64(logits) - np.float64(labels), delta)

    def _expected_reduced(self, logits, labels, delta) -> dict:
        """What "mean" and "sum" should return (float64)."""
        per_element = self._expected_none(logits, labels, delta)
        return {"mean": per_element.mean(), "sum": per_element.sum()}

    def _expected_gradient(self, logits, labels, delta):
        """d mean-loss / d logits (float64)."""
        error = np.float64(logits) - np.float64(labels)
        return self.derivative(error, delta) / error.size

    def _run(self, loss, args, label):
        out = self.call(loss, *args)
        if isinstance(out, (tuple, list)):
            raise Incorrect(tr("{label} returned a {kind} of {n} values; expected one tensor.", label=label,
                               kind=type(out).__name__, n=len(out)))
        if not hasattr(out, "asnumpy"):
            raise Incorrect(tr("{label} returned {value} ({kind}); expected a MindSpore tensor.", label=label,
                               value=repr(out), kind=type(out).__name__))
        return out

    def _inputs_text(self, logits, labels):
        return f"logits={np.round(logits, 4).tolist()}, labels={np.round(labels, 4).tolist()}"

    @staticmethod
    def _element(i, shape) -> str:
        """Element ``i`` of the flattened array, written as its index in an array of ``shape``."""
        return str(i) if len(shape) <= 1 else str(tuple(int(k) for k in np.unravel_index(i, shape)))

    def _weight_text(self, i, shape):
        return ""

    def _none_diagnosis(self, got, expected, logits, labels, delta, label, inputs) -> None:
        """Raise ``Incorrect`` for a known wrong "none" result (subclasses); the generic message follows."""

    # -- the checks --
    def _check_structure(self, cls):
        from mindspore import nn

        if not isinstance(cls, type):
            raise Incorrect(tr("`{name}` should be a class (class {name}(nn.LossBase): ...), got a {kind}.",
                               name=self.name, kind=type(cls).__name__))
        if not issubclass(cls, nn.LossBase):
            raise Incorrect(tr("{name} should derive from nn.LossBase (it gives you reduction and self.get_loss); "
                               "its bases are {bases}.", name=self.name, bases=[b.__name__ for b in cls.__bases__]))

    def _check_none(self, cls, delta, logits, labels):
        loss, label = self._make(cls, "none", delta)
        out = self._run(loss, self._inputs(logits, labels), label)
        got = to_numpy(out).astype(np.float64)
        expected = self._expected_none(logits, labels, delta)
        inputs = self._inputs_text(logits, labels)
        if got.shape != expected.shape:
            what = tr(" (reduction='none' keeps one loss per element)") if got.ndim == 0 else ""
            raise Incorrect(tr("{label} on {inputs}: expected shape {expected}, got shape {got}{what}.", label=label,
                               inputs=inputs, expected=expected.shape, got=got.shape, what=what))
        bad = ~np.isclose(got, expected, rtol=1e-4, atol=1e-5)
        if not bad.any():
            return
        self._none_diagnosis(got, expected, logits, labels, delta, label, inputs)
        # report an element at |error| == delta first when one is wrong: the most telling place
        flat_logits, flat_labels = np.ravel(logits), np.ravel(labels)
        bad = np.ravel(bad)
        boundary = bad & np.isclose(np.abs(np.float64(flat_logits) - np.float64(flat_labels)), delta) \
            if self.uses_delta else bad
        i = int(np.argmax(boundary)) if boundary.any() else int(np.argmax(bad))
        error = float(flat_logits[i]) - float(flat_labels[i])
        where = self.region(error, delta)
        raise Incorrect(tr("{label}, element {i} (logits {logits}, labels {labels}, error {error}{weight}): "
                           "expected {expected}, got {got}. {where}", label=label, i=self._element(i, expected.shape),
                           logits=_fmt(flat_logits[i]), labels=_fmt(flat_labels[i]), error=_fmt(error),
                           weight=self._weight_text(i, expected.shape), expected=_fmt(np.ravel(expected)[i]),
                           got=_fmt(np.ravel(got)[i]), where=where))

    def region(self, error, delta) -> str:
        return ""

    def _reduction_detail(self, reduction, got, logits, labels, delta) -> str:
        """What a wrong reduced value is, when it is a known mistake."""
        per_element = self._expected_none(logits, labels, delta)
        if reduction == "mean" and np.isclose(got, per_element.sum(), rtol=1e-4):
            return tr(" That is the sum of the per-element losses, not their mean.")
        if reduction == "sum" and np.isclose(got, per_element.mean(), rtol=1e-4):
            return tr(" That is the mean of the per-element losses, not their sum.")
        return ""

    def _check_reductions(self, cls, delta, logits, labels):
        inputs = self._inputs_text(logits, labels)
        for reduction, expected in self._expected_reduced(logits, labels, delta).items():
            loss, label = self._make(cls, reduction, delta)
            got = to_numpy(self._run(loss, self._inputs(logits, labels), label)).astype(np.float64)
            if got.shape != ():
                raise Incorrect(tr("{label} on {inputs}: expected a scalar (shape ()), got shape {shape}.",
                                   label=label, inputs=inputs, shape=got.shape))
            if np.isclose(got, expected, rtol=1e-4, atol=1e-5):
                continue
            detail = self._reduction_detail(reduction, got, logits, labels, delta)
            raise Incorrect(tr("{label} on {inputs}: expected {expected}, got {got}.{detail}", label=label,
                               inputs=inputs, expected=_fmt(expected), got=_fmt(got), detail=detail))

    def _check_float16(self, cls, logits, labels, delta=1.0):
        import mindspore as ms

        loss, label = self._make(cls, "none", delta)
        out = self._run(loss, self._inputs(logits, labels, ms.float16), label)
        if out.dtype != ms.float16:
            raise Incorrect(tr("{label} with float16 logits and labels: expected a Float16 loss (the dtype of its "
                               "input, as nn.HuberLoss returns), got a {dtype} loss.", label=label, dtype=out.dtype))
        got = to_numpy(out).astype(np.float64)
        expected = self._expected_none(logits, labels, delta)
        bad = np.ravel(~np.isclose(got, expected, rtol=2e-3, atol=2e-3))
        if bad.any():
            i = int(np.argmax(bad))
            raise Incorrect(tr("{label} with float16 inputs, element {i} (error {error}): expected {expected}, got "
                               "{got}.", label=label, i=self._element(i, expected.shape),
                               error=_fmt(float(np.ravel(logits)[i]) - float(np.ravel(labels)[i])),
                               expected=_fmt(np.ravel(expected)[i]), got=_fmt(np.ravel(got)[i])))

    def _check_gradient(self, cls, delta, logits, labels):
        import mindspore as ms

        loss, label = self._make(cls, "mean", delta)
        args = self._inputs(logits, labels)
        grad = ms.grad(loss, grad_position=0)(*args)
        got = to_numpy(grad).astype(np.float64)
        expected = self._expected_gradient(logits, labels, delta)
        if got.shape == expected.shape and np.allclose(got, expected, rtol=1e-4, atol=1e-6):
            return
        if got.shape == expected.shape and not np.any(got):
            pointer = (tr(" Section 7 of the notebook ('Common mistakes') shows a loss with this symptom.")
                       if code_references(cls, _NUMPY_NAMES) else "")
            raise Incorrect(tr("the gradient of {label} with respect to logits on {inputs}: expected {expected}, got "
                               "all zeros.{pointer}", label=label, inputs=self._inputs_text(logits, labels),
                               expected=np.round(expected, 5).tolist(), pointer=pointer))
        raise Incorrect(tr("the gradient of {label} with respect to logits on {inputs}: expected {expected}, got "
                           "{got}.", label=label, inputs=self._inputs_text(logits, labels),
                           expected=np.round(expected, 5).tolist(), got=np.round(got, 5).tolist()))

    def _check(self, cls):
        self._answer_name = getattr(cls, "__name__", self.name)
        self._check_structure(cls)
        try:
            self.behaviour(cls)
        except (Incorrect, NotAttempted):
            raise
        except Exception as exc:
            if code_references(cls, _NUMPY_NAMES):   # a known mistake: report what happened, not a traceback
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
                raise Incorrect(tr("calling {name} on the check's inputs raised {error}: {message} Section 7 of the "
                                   "notebook ('Common mistakes') shows a loss with this symptom.",
                                   name=self._answer_name, error=type(exc).__name__, message=first)) from None
            raise

    def behaviour(self, cls):
        self._check_none(cls, 1.0, _LOGITS, _LABELS)
        self._check_reductions(cls, 1.0, _LOGITS, _LABELS)
        if self.uses_delta:
            self._check_none(cls, 2.0, 2 * _LOGITS, 2 * _LABELS)
        self._check_float16(cls, _LOGITS, _LABELS)
        self._check_gradient(cls, 1.0, _LOGITS, _LABELS)


class _HuberMixin:
    def elementwise(self, error, delta):
        return huber_np(error, delta)

    def derivative(self, error, delta):
        return np.clip(error, -delta, delta)

    def region(self, error, delta) -> str:
        a = abs(error)
        if np.isclose(a, delta):
            return tr("This is exactly |error| == delta ({delta}), where the Huber loss is 0.5 * delta**2 = "
                      "{value}.", delta=_fmt(delta), value=_fmt(0.5 * delta ** 2))
        if a < delta:
            return tr("Here |error| < delta = {delta}.", delta=_fmt(delta))
        return tr("Here |error| > delta = {delta}.", delta=_fmt(delta))


# ----------------------------------------------------------------------------------------------
# q1: weighted Huber
# ----------------------------------------------------------------------------------------------

#: What q1 says when the learner's class leans on the course's own Huber loss.
_COURSE_LOSS_REFUSED = N_("{name} calls the course's own Huber loss (course_utils.losses) while the check runs; this "
                          "exercise is a loss written out in your class, as MyHuberLoss is in section 2, plus the "
                          "weights.")


class WeightedHuber(_HuberMixin, _LossExercise):
    names = ("WeightedHuberLoss",)
    title = N_("weighted Huber")
    hint_text = N_(
        "The elementwise loss is MyHuberLoss's (float32 inside, ops.where). The loss has shape (batch, outputs), "
        "weights (batch,): give weights a trailing axis of size 1 (reshape) so that it broadcasts over each "
        "sample's outputs. get_loss's 'mean' divides by the number of elements, not by the weights, so reduce in "
        "construct: keep reduction in __init__ as an attribute of your own (LossBase keeps only two flags); an if "
        "on that string compiles, it is a constant of the graph. 'mean' is sum(weight * loss) over the sum of "
        "every element's weight. Cast the result to logits.dtype.")

    def _inputs(self, logits, labels, dtype=None):
        return [_tensor(logits, dtype), _tensor(labels, dtype), _tensor(_SAMPLE_WEIGHTS)]   # weights: float32

    @staticmethod
    def _element_weights(shape):
        """Each element's weight: its sample's (row's) weight."""
        return np.broadcast_to(_SAMPLE_WEIGHTS.astype(np.float64)[:, None], shape)

    def _expected_none(self, logits, labels, delta):
        loss = super()._expected_none(logits, labels, delta)
        return loss * self._element_weights(loss.shape)

    def _expected_reduced(self, logits, labels, delta) -> dict:
        weighted = self._expected_none(logits, labels, delta)
        return {"mean": weighted.sum() / self._element_weights(weighted.shape).sum(), "sum": weighted.sum()}

    def _expected_gradient(self, logits, labels, delta):
        error = np.float64(logits) - np.float64(labels)
        weights = self._element_weights(error.shape)
        return self.derivative(error, delta) * weights / weights.sum()

    def _inputs_text(self, logits, labels):
        return super()._inputs_text(logits, labels) + f", weights={_SAMPLE_WEIGHTS.tolist()}"

    def _weight_text(self, i, shape):
        return tr(", its sample's weight {weight}", weight=_fmt(_SAMPLE_WEIGHTS[np.unravel_index(i, shape)[0]]))

    def _run(self, loss, args, label):
        try:
            return super()._run(loss, args, label)
        except (ValueError, TypeError) as exc:
            if is_placeholder_error(exc) or code_references(loss, _NUMPY_NAMES):   # NumPy: _check says more
                raise
            raise Incorrect(tr("{label} on logits and labels of shape {shape} and weights of shape {wshape} (one "
                               "weight per sample): expected a loss, got {error}: {message}", label=label,
                               shape=tuple(args[0].shape), wshape=tuple(args[2].shape), error=type(exc).__name__,
                               message=first_line(exc))) from None

    def _none_diagnosis(self, got, expected, logits, labels, delta, label, inputs) -> None:
        unweighted = super()._expected_none(logits, labels, delta)
        if np.allclose(got, unweighted, rtol=1e-4, atol=1e-5):
            raise Incorrect(tr("{label} on {inputs}: expected the weighted losses {expected}, got the unweighted "
                               "losses {got}: the weights have no effect.", label=label, inputs=inputs,
                               expected=np.round(expected, 4).tolist(), got=np.round(got, 4).tolist()))

    def _reduction_detail(self, reduction, got, logits, labels, delta) -> str:
        weighted = self._expected_none(logits, labels, delta)
        if reduction == "mean":
            total = self._element_weights(weighted.shape).sum()
            if np.isclose(got, weighted.mean(), rtol=1e-4):
                return tr(" That is the sum of weight * loss divided by the number of elements ({n}), not by the "
                          "sum of the elements' weights ({total}): that mean grows with the weights (every weight "
                          "times 10, the loss times 10).", n=weighted.size, total=_fmt(total))
            if np.isclose(got, weighted.sum() / _SAMPLE_WEIGHTS.sum(), rtol=1e-4):
                return tr(" That is the sum of weight * loss divided by the sum of the {k} sample weights "
                          "({samples}), which counts each sample once; each has {outputs} elements, so the "
                          "elements' weights add up to {total}.", k=len(_SAMPLE_WEIGHTS),
                          samples=_fmt(_SAMPLE_WEIGHTS.sum()), outputs=weighted.shape[1], total=_fmt(total))
        return super()._reduction_detail(reduction, got, logits, labels, delta)

    def _check(self, cls):
        from course_utils import losses

        name = getattr(cls, "__name__", self.name)
        if isinstance(cls, type) and issubclass(cls, losses.HuberLoss):
            raise Incorrect(tr(_COURSE_LOSS_REFUSED, name=name))
        # also reached from an instance made beforehand: every HuberLoss calls huber in construct
        with refusing((losses.huber, losses.check_reduction, losses.check_delta), tr(_COURSE_LOSS_REFUSED, name=name)):
            super()._check(cls)

    def behaviour(self, cls):
        self._check_none(cls, 1.0, _W_LOGITS, _W_LABELS)
        self._check_reductions(cls, 1.0, _W_LOGITS, _W_LABELS)
        self._check_none(cls, 2.0, 2 * _W_LOGITS, 2 * _W_LABELS)
        self._check_float16(cls, _W_LOGITS, _W_LABELS)
        self._check_gradient(cls, 1.0, _W_LOGITS, _W_LABELS)


# ----------------------------------------------------------------------------------------------
# q2: log-cosh
# ----------------------------------------------------------------------------------------------

class LogCosh(_LossExercise):
    names = ("LogCoshLoss",)
    title = N_("log-cosh loss")
    uses_delta = False
    solution_imports = "import math"
    hint_text = N_(
        "log(cosh(e)) is about e**2 / 2 for small errors and |e| - log(2) for large ones, like a smooth "
        "Huber. ops.log(ops.cosh(e)) overflows: cosh(e) is inf above |e| ~ 89 in float32 and ~ 11 in "
        "float16. Rewrite it: log(cosh(e)) = |e| + log(1 + exp(-2|e|)) - log(2), where exp(-2|e|) <= 1 "
        "never overflows (ops.log1p, ops.exp). Compute in float32, cast back to logits.dtype, and reduce "
        "with self.get_loss.")
    # errors: 0, small, moderate, and large ones where cosh overflows float32 (100) or float16 (12)
    LOGITS = np.array([0.0, 0.5, -1.0, 3.0, -20.0, 100.0, 12.0, 2.0], dtype=np.float32)
    LABELS = np.array([0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.5], dtype=np.float32)

    def elementwise(self, error, delta):
        return log_cosh_np(error)

    def derivative(self, error, delta):
        return np.tanh(error)

    def region(self, error, delta) -> str:
        return ""

    def behaviour(self, cls):
        self._check_none(cls, 1.0, self.LOGITS, self.LABELS)
        self._check_reductions(cls, 1.0, self.LOGITS, self.LABELS)
        self._check_float16(cls, self.LOGITS, self.LABELS)
        self._check_gradient(cls, 1.0, self.LOGITS, self.LABELS)


# ----------------------------------------------------------------------------------------------
# q3: find the bugs
# ----------------------------------------------------------------------------------------------

#: The notebook's BuggyHuberLoss, exactly as its cell shows it (tests/lessons/test_exercises_nb01.py keeps the two
#: equal, comments aside). q3's answer is this class with the faulty lines changed, nothing else.
BUGGY_SOURCE = '''
class BuggyHuberLoss(nn.LossBase):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__()
        self.delta = delta

    def construct(self, logits, labels):
        error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
        abs_error = ops.abs(error)
        quadratic = 0.5 * ops.square(error)
        linear = self.delta * (abs_error - self.delta)
        loss = ops.where(abs_error <= self.delta, quadratic, linear)
        return self.get_loss(loss)
'''
#: One line per bug: a correct answer changes, adds or removes at most this many statements of BUGGY_SOURCE.
MAX_CHANGED_LINES = 3


def _statements(functions) -> list:
    """``functions``' signatures and top-level statements, one normalised line each (comments, docstrings and
    layout do not count): what q3 compares with ``BUGGY_SOURCE``."""
    lines = []
    for fn in functions:
        args = ast.unparse(fn.args)
        lines.append(f"def {fn.name}({args})")
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        lines += [f"{fn.name}: {ast.unparse(stmt)}" for stmt in body]
    return lines


def buggy_statements() -> list:
    """The statements of ``BUGGY_SOURCE``."""
    cls = ast.parse(BUGGY_SOURCE).body[0]
    return _statements([node for node in cls.body if isinstance(node, ast.FunctionDef)])


def class_statements(cls):
    """The statements of the methods ``cls`` defines itself (not inherited), or None when their source cannot be
    read (then q3 checks behaviour only)."""
    functions = []
    for member in vars(cls).values():
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if not inspect.isfunction(member):
            continue
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(member)))
        except (OSError, TypeError, SyntaxError):
            return None
        functions += [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return _statements(functions)


def changed_lines(before: list, after: list) -> int:
    """How many statements turn ``before`` into ``after`` (a changed line counts once, as does an added or a
    removed one)."""
    n = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if op != "equal":
            n += max(i2 - i1, j2 - j1)
    return n


class FindTheBug(_HuberMixin, _LossExercise):
    names = ("FixedHuberLoss",)
    title = N_("find the bugs")
    hint_text = N_(
        "There are three bugs. (1) Which reduction does super().__init__() get when called without "
        "arguments? (2) Evaluate the linear piece at |error| == delta: it must equal the quadratic "
        "piece there, 0.5 * delta**2. (3) Call it with float16 tensors and look at the dtype of the result.")

    def _check(self, cls):
        from mindspore import nn

        self._check_structure(cls)
        name = getattr(cls, "__name__", self.name)
        if cls.__bases__ != (nn.LossBase,):
            raise Incorrect(tr("{name} derives from {bases}, BuggyHuberLoss from nn.LossBase: the exercise is "
                               "BuggyHuberLoss with its faulty lines corrected, not a subclass of another loss.",
                               name=name, bases=", ".join(b.__name__ for b in cls.__bases__)))
        mine = class_statements(cls)
        if mine is not None:
            n = changed_lines(buggy_statements(), mine)
            if n > MAX_CHANGED_LINES:
                raise Incorrect(tr("{name} differs from BuggyHuberLoss in {n} lines (comments and layout aside); "
                                   "each of the three bugs sits in one line, so a corrected BuggyHuberLoss differs "
                                   "in at most {most}. Start from BuggyHuberLoss's code, not from another loss "
                                   "such as MyHuberLoss.", name=name, n=n, most=MAX_CHANGED_LINES))
        super()._check(cls)



q1 = WeightedHuber()
q2 = LogCosh()
q3 = FindTheBug()
register(globals(), "01")


@functools.lru_cache(maxsize=None)
def solutions() -> dict:
    """The reference solutions, ``{class name: class}``; ``.solution()`` shows their source.

    Built on first use, so importing this module does not import MindSpore.
    """
    import math

    import mindspore as ms
    from mindspore import nn, ops

    class WeightedHuberLoss(nn.LossBase):
        def __init__(self, reduction="mean", delta=1.0):
            super().__init__(reduction)                 # checks reduction
            self.reduction = reduction                  # construct reduces itself: get_loss has no weighted mean
            self.delta = float(delta)

        def construct(self, logits, labels, weights):
            error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
            abs_error = ops.abs(error)
            quadratic = 0.5 * ops.square(error)
            linear = self.delta * (abs_error - 0.5 * self.delta)
            loss = ops.where(abs_error <= self.delta, quadratic, linear)
            # one weight per sample: (batch,) -> (batch, 1) -> each element gets its sample's weight
            element_weights = ops.broadcast_to(ops.cast(weights, ms.float32).reshape(-1, 1), loss.shape)
            loss = element_weights * loss
            if self.reduction == "mean":                # a Python string: fixed when the graph compiles
                loss = loss.sum() / element_weights.sum()   # normalised: scaling every weight changes nothing
            elif self.reduction == "sum":
                loss = loss.sum()
            return ops.cast(loss, logits.dtype)

    class LogCoshLoss(nn.LossBase):
        def __init__(self, reduction="mean"):
            super().__init__(reduction)

        def construct(self, logits, labels):
            abs_error = ops.abs(ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32))
            # log(cosh(e)) without computing cosh(e), which overflows for large |e|
            loss = abs_error + ops.log1p(ops.exp(-2.0 * abs_error)) - math.log(2.0)
            return self.get_loss(ops.cast(loss, logits.dtype))

    class FixedHuberLoss(nn.LossBase):
        def __init__(self, reduction="mean", delta=1.0):
            super().__init__(reduction)                              # bug 1: reduction was not passed on
            self.delta = delta

        def construct(self, logits, labels):
            error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
            abs_error = ops.abs(error)
            quadratic = 0.5 * ops.square(error)
            linear = self.delta * (abs_error - 0.5 * self.delta)     # bug 2: was (abs_error - self.delta)
            loss = ops.where(abs_error <= self.delta, quadratic, linear)
            return self.get_loss(ops.cast(loss, logits.dtype))        # bug 3: the loss stayed float32

    return {cls.__name__: cls for cls in (WeightedHuberLoss, LogCoshLoss, FixedHuberLoss)}
