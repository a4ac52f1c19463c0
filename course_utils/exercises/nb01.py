"""Exercises of notebook 01 (a custom Huber loss).

q1 ``WeightedHuberLoss``: per-element weights for imbalanced targets, reduced by ``get_loss``.
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

from course_utils.exercises import Exercise, Incorrect, NotAttempted, code_references, register, to_numpy
from course_utils.fmt import significant as _fmt
from course_utils.i18n import N_, tr

# Errors (logits - labels) chosen to cover every region for delta = 1: zero, inside, exactly +-delta, beyond.
_LOGITS = np.array([1.5, 0.0, 2.0, -1.0, 3.0, 0.25, -2.5, 5.0], dtype=np.float32)
_LABELS = np.array([1.0, 0.0, 1.0, 0.0, 0.0, 0.5, 0.0, 1.0], dtype=np.float32)
_WEIGHTS = np.array([1.0, 2.0, 0.5, 1.0, 3.0, 1.0, 0.0, 2.0], dtype=np.float32)
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
    extra_input = False  # True when construct takes (logits, labels, weights)

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
        args = [_tensor(logits, dtype), _tensor(labels, dtype)]
        if self.extra_input:
            args.append(_tensor(_WEIGHTS, dtype))
        return args

    def _weights(self):
        return _WEIGHTS.astype(np.float64) if self.extra_input else np.ones(len(_LOGITS))

    def _expected_none(self, logits, labels, delta):
        return self.elementwise(np.float64(logits) - np.float64(labels), delta) * self._weights()

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
        text = f"logits={np.round(logits, 4).tolist()}, labels={np.round(labels, 4).tolist()}"
        if self.extra_input:
            text += f", weights={_WEIGHTS.tolist()}"
        return text

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
        if self.extra_input:
            unweighted = self.elementwise(np.float64(logits) - np.float64(labels), delta)
            if np.allclose(got, unweighted, rtol=1e-4, atol=1e-5):
                raise Incorrect(tr("{label} on {inputs}: expected the weighted losses {expected}, got the "
                                   "unweighted losses {got}: the weights have no effect.", label=label,
                                   inputs=inputs, expected=np.round(expected, 4).tolist(),
                                   got=np.round(got, 4).tolist()))
        # report an element at |error| == delta first when one is wrong: the most telling place
        boundary = bad & np.isclose(np.abs(np.float64(logits) - np.float64(labels)), delta) if self.uses_delta else bad
        i = int(np.argmax(boundary)) if boundary.any() else int(np.argmax(bad))
        error = float(logits[i]) - float(labels[i])
        where = self.region(error, delta)
        raise Incorrect(tr("{label}, element {i} (logits {logits}, labels {labels}, error {error}{weight}): "
                           "expected {expected}, got {got}. {where}", label=label, i=i, logits=_fmt(logits[i]),
                           labels=_fmt(labels[i]), error=_fmt(error), weight=self._weight_text(i),
                           expected=_fmt(expected[i]), got=_fmt(got[i]), where=where))

    def _weight_text(self, i):
        return tr(", weight {weight}", weight=_fmt(_WEIGHTS[i])) if self.extra_input else ""

    def region(self, error, delta) -> str:
        return ""

    def _check_reductions(self, cls, delta, logits, labels):
        per_element = self._expected_none(logits, labels, delta)
        n = per_element.size
        inputs = self._inputs_text(logits, labels)
        for reduction, expected in (("mean", per_element.mean()), ("sum", per_element.sum())):
            loss, label = self._make(cls, reduction, delta)
            got = to_numpy(self._run(loss, self._inputs(logits, labels), label)).astype(np.float64)
            if got.shape != ():
                raise Incorrect(tr("{label} on {inputs}: expected a scalar (shape ()), got shape {shape}.",
                                   label=label, inputs=inputs, shape=got.shape))
            if np.isclose(got, expected, rtol=1e-4, atol=1e-5):
                continue
            detail = ""
            if reduction == "mean" and np.isclose(got, per_element.sum(), rtol=1e-4):
                detail = tr(" That is the sum of the per-element losses, not their mean.")
            elif reduction == "sum" and np.isclose(got, per_element.mean(), rtol=1e-4):
                detail = tr(" That is the mean of the per-element losses, not their sum.")
            elif self.extra_input and reduction == "mean" and np.isclose(
                    got, per_element.sum() / self._weights().sum(), rtol=1e-4):
                detail = tr(" That is the sum of weight * loss divided by the sum of the weights; 'mean' here is "
                            "the mean of weight * loss over all {n} elements.", n=n)
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
        bad = ~np.isclose(got, expected, rtol=2e-3, atol=2e-3)
        if bad.any():
            i = int(np.argmax(bad))
            raise Incorrect(tr("{label} with float16 inputs, element {i} (error {error}): expected {expected}, got "
                               "{got}.", label=label, i=i, error=_fmt(float(logits[i]) - float(labels[i])),
                               expected=_fmt(expected[i]), got=_fmt(got[i])))

    def _check_gradient(self, cls, delta, logits, labels):
        import mindspore as ms

        loss, label = self._make(cls, "mean", delta)
        args = self._inputs(logits, labels)
        grad = ms.grad(loss, grad_position=0)(*args)
        got = to_numpy(grad).astype(np.float64)
        error = np.float64(logits) - np.float64(labels)
        expected = self.derivative(error, delta) * self._weights() / error.size
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

class WeightedHuber(_HuberMixin, _LossExercise):
    names = ("WeightedHuberLoss",)
    title = N_("weighted Huber")
    extra_input = True
    solution_imports = "from course_utils.losses import huber"
    hint_text = N_(
        "Start from your HuberLoss: the same __init__(self, reduction='mean', delta=1.0), and "
        "construct(self, logits, labels, weights). Compute the elementwise Huber loss (ops.where, or reuse "
        "huber(error, delta) from course_utils.losses), "
        "then let LossBase do the weighting and the reduction: return self.get_loss(loss, weights). "
        "For float16 inputs, compute in float32 and cast the loss back to logits.dtype before get_loss.")


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

    from course_utils.losses import huber

    class WeightedHuberLoss(nn.LossBase):
        def __init__(self, reduction="mean", delta=1.0):
            super().__init__(reduction)
            self.delta = delta

        def construct(self, logits, labels, weights):
            error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
            loss = huber(error, self.delta)   # the elementwise Huber of course_utils.losses (ops.where inside)
            # get_loss multiplies by the weights, reduces in float32 and casts back to the loss's dtype
            return self.get_loss(ops.cast(loss, logits.dtype), weights)

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
