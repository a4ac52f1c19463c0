"""The step builders of lessons 02 and 03: what their exercises share.

Each exercise of lesson 02 (``nb02``) and lesson 03 (``nb03``) asks for a *builder*: a function that takes a network,
a loss and an optimizer and returns ``step(data, label) -> loss``. The checks build a small ``SimpleNet`` with fixed
weights, an ``nn.SGD`` optimizer (plain SGD makes the update exactly ``-lr * gradient``, so a wrong gradient shows up
in the weights) and fixed data, run the learner's step and compare the weights with the updates a correct step, and
typical wrong steps, would make. This module holds those fixtures, the comparison that names a known mistake, the
refusal of the course's own ``make_train_step`` and ``StepBuilder``, the base class of the exercises.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import numpy as np

from course_utils.exercises import Exercise, Incorrect
from course_utils.i18n import tr

__all__ = ["LR", "StepBuilder", "check_depend", "close", "diagnose_update", "fixed_batch",
           "fixed_setup", "global_clip", "grads_of", "loss_value", "make_step", "max_diff", "per_tensor_clip",
           "refuse_course_step", "run_step", "sgd_update", "weights_of"]

LR = 0.1
ATOL = 1e-5


# --------------------------------------------------------------------------------------------
# Fixtures of the checks
# --------------------------------------------------------------------------------------------

def fixed_setup(seed: int = 0, lr: float = LR):
    """A SimpleNet with fixed weights (whatever the global seed), its Huber loss and SGD."""
    from mindspore import nn

    from course_utils.callbacks import restore_weights
    from course_utils.losses import HuberLoss
    from course_utils.models import SimpleNet

    net = SimpleNet()
    rng = np.random.default_rng(seed)
    restore_weights(net, {name: (0.3 * rng.standard_normal(p.shape)).astype(np.float32)
                          for name, p in net.parameters_and_names()})
    return net, HuberLoss(), nn.SGD(net.trainable_params(), learning_rate=lr)


def fixed_batch(n: int = 16, outliers: float = 0.0, seed: int = 3):
    import mindspore as ms

    from course_utils.data import synthetic_regression

    x, y = synthetic_regression(n_samples=n, outlier_fraction=outliers, seed=seed)
    return ms.Tensor(x), ms.Tensor(y)


def weights_of(net) -> list:
    return [p.asnumpy().copy() for p in net.trainable_params()]


def grads_of(net, loss_fn, x, y, has_aux: bool = True) -> list:
    """Gradients of the Huber loss w.r.t. the weights, as NumPy arrays (eagerly, for reference)."""
    import mindspore as ms

    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    _, grads = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=has_aux)(x, y)
    return [g.asnumpy() for g in grads]


def max_diff(a: list, b: list) -> float:
    return max(float(np.max(np.abs(u - v))) for u, v in zip(a, b))


def close(a: list, b: list) -> bool:
    return max_diff(a, b) <= ATOL


def global_clip(grads: list, max_norm: float) -> list:
    norm = float(np.sqrt(sum(float(np.sum(g.astype(np.float64) ** 2)) for g in grads)))
    factor = min(1.0, max_norm / norm) if norm > 0 else 1.0
    return [g * factor for g in grads]


def per_tensor_clip(grads: list, max_norm: float) -> list:
    return [g * min(1.0, max_norm / n) if (n := float(np.linalg.norm(g))) > 0 else g for g in grads]


def sgd_update(weights: list, grads: list, lr: float = LR) -> list:
    return [w - lr * g for w, g in zip(weights, grads)]


def loss_value(result, what: str) -> float:
    """The loss a step returned, as a float; a clear message for tuples, None and the like."""
    import mindspore as ms

    if isinstance(result, (tuple, list)):
        raise Incorrect(tr("{what} returned a {kind} of {n} items; expected only the loss, a scalar Tensor.",
                           what=what, kind=type(result).__name__, n=len(result)))
    if isinstance(result, ms.Tensor) and result.size == 1:
        return float(result.asnumpy().reshape(()))
    raise Incorrect(tr("{what} returned {result}; expected the loss, a scalar Tensor.", what=what, result=repr(result)))


def make_step(builder, *args):
    """Call the learner's builder; it must return a callable step."""
    step = Exercise.call(builder, *args)
    if not callable(step):
        raise Incorrect(tr("your builder returned a {kind}; expected a function step(data, label) (not a function).",
                           kind=type(step).__name__))
    return step


def run_step(step, *args, what: str = "step(data, label)"):
    """Call the learner's step, turning the accumulation-buffer name clash into a clear message."""
    try:
        return Exercise.call(step, *args)
    except RuntimeError as exc:
        if "already exists" in str(exc):
            raise Incorrect(tr("calling step(data, label) raised RuntimeError: {message}",
                               message=str(exc).strip().splitlines()[0])) from None
        raise


def _source_names(fn) -> set | None:
    """The names the source of ``fn`` calls or refers to (``f(...)``, ``mod.f``, ``f``); None when the source is
    not available."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[-1])
    return names


def calls_depend(fn) -> bool | None:
    """Whether the source of ``fn`` calls ``depend(...)``; None when the source is not available."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name == "depend":
                return True
    return False


def refuse_course_step(builder, step, section: str) -> None:
    """Refuse the course's reference step in place of the step the exercise asks the learner to write: a
    ``TrainStep`` returned, or a builder whose source uses ``make_train_step`` or ``TrainStep``."""
    from course_utils.training import TrainStep

    if isinstance(step, TrainStep) or (_source_names(builder) or set()) & {"make_train_step", "TrainStep"}:
        raise Incorrect(tr("the weights are right, but the step is the course's make_train_step (a TrainStep); "
                           "this exercise asks for the step written out, as in section {section}.", section=section))


def check_depend(builder) -> None:
    if calls_depend(builder) is False:
        raise Incorrect(tr(
            "the weights are right, but the step's code has no ops.depend, which this exercise asks for: compiled "
            "that way, MindSpore 2.10 warns 'Some side effect nodes were eliminated by mistake' "
            "(lesson 02, section 4)."))


def diagnose_update(got: list, start: list, expected: list, alternatives: dict, what: str) -> None:
    """Compare weights after an update with the expected ones; name the mistake if it is a known one."""
    if close(got, expected):
        return
    if close(got, start):
        raise Incorrect(tr("{what}: expected the SGD update (lr={lr}, weights moving by up to {moved:.3g}), got "
                           "weights that did not change.", what=what, lr=LR, moved=max_diff(expected, start)))
    for message, weights in alternatives.items():
        if close(got, weights):
            raise Incorrect(tr("{what}: expected the SGD update (lr={lr}); got {message}", what=what, lr=LR,
                               message=message))
    raise Incorrect(tr("{what}: the weights differ from the expected SGD update (lr={lr}) by up to {diff:.3g}.",
                       what=what, lr=LR, diff=max_diff(got, expected)))


# --------------------------------------------------------------------------------------------
# The base class of the exercises
# --------------------------------------------------------------------------------------------


class StepBuilder(Exercise):
    """An exercise whose answer is a step builder ``names[0](net, loss_fn, optimizer[, extra])``.

    Its check is ``_check_updates`` (what the step does to the weights; it returns the learner's step), then a
    refusal of the course's own ``make_train_step`` (the exercise asks for the step written out, as lesson section
    ``section`` does), then the ``ops.depend`` every step of the notebook needs (lesson 02, section 4). Subclasses
    give a written-out ``reference``.
    """

    section = ""   # the lesson section whose step the exercise asks for, named when make_train_step is refused

    def _check(self, builder):
        step = self._check_updates(builder)
        refuse_course_step(builder, step, self.section)
        check_depend(builder)

    def _check_updates(self, builder):  # pragma: no cover - abstract
        raise NotImplementedError
