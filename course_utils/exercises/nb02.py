"""Exercises of notebook 02 (the functional training step).

Each exercise asks for a *builder*: a function that takes a network, a loss and an optimizer and
returns ``step(data, label) -> loss``. The checks build a small ``SimpleNet`` with fixed weights,
an ``nn.SGD`` optimizer (plain SGD makes the update exactly ``-lr * gradient``, so a wrong gradient
shows up in the weights) and fixed data, run the learner's step and compare the weights with the
updates a correct step, and typical wrong steps, would make.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import numpy as np

from course_utils.exercises import Exercise, Incorrect, register
from course_utils.i18n import tr

LR = 0.1
ATOL = 1e-5


# Every solution starts the same way: the forward function and its gradient function.
_FORWARD_AND_GRAD = """
    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)
"""


def _solution(signature: str, body: str) -> str:
    """A builder's solution text: its signature, the shared forward/gradient part, then ``body``."""
    return f"def {signature}:{_FORWARD_AND_GRAD}{textwrap.indent(textwrap.dedent(body), '    ')}"


def _jit_step_solution(signature: str, before_update: str = "") -> str:
    """The solution of a builder whose compiled step updates at every call: gradients, ``before_update``
    (a line that changes them, if any), the update tied to the loss."""
    return _solution(signature, f'''
@ms.jit
def train_step(data, label):
    (loss, _), grads = grad_fn(data, label)
{before_update}    return ops.depend(loss, optimizer(grads))

return train_step
''')


# --------------------------------------------------------------------------------------------
# Fixtures of the checks
# --------------------------------------------------------------------------------------------

def _setup(seed: int = 0, lr: float = LR):
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


def _batch(n: int = 16, outliers: float = 0.0, seed: int = 3):
    import mindspore as ms

    from course_utils.data import synthetic_regression

    x, y = synthetic_regression(n_samples=n, outlier_fraction=outliers, seed=seed)
    return ms.Tensor(x), ms.Tensor(y)


def _weights(net) -> list:
    return [p.asnumpy().copy() for p in net.trainable_params()]


def _grads(net, loss_fn, x, y, has_aux: bool = True) -> list:
    """Gradients of the Huber loss w.r.t. the weights, as NumPy arrays (eagerly, for reference)."""
    import mindspore as ms

    def forward_fn(data, label):
        logits = net(data)
        return loss_fn(logits, label), logits

    _, grads = ms.value_and_grad(forward_fn, None, net.trainable_params(), has_aux=has_aux)(x, y)
    return [g.asnumpy() for g in grads]


def _max_diff(a: list, b: list) -> float:
    return max(float(np.max(np.abs(u - v))) for u, v in zip(a, b))


def _close(a: list, b: list) -> bool:
    return _max_diff(a, b) <= ATOL


def _global_clip(grads: list, max_norm: float) -> list:
    norm = float(np.sqrt(sum(float(np.sum(g.astype(np.float64) ** 2)) for g in grads)))
    factor = min(1.0, max_norm / norm) if norm > 0 else 1.0
    return [g * factor for g in grads]


def _per_tensor_clip(grads: list, max_norm: float) -> list:
    return [g * min(1.0, max_norm / n) if (n := float(np.linalg.norm(g))) > 0 else g for g in grads]


def _sgd(weights: list, grads: list, lr: float = LR) -> list:
    return [w - lr * g for w, g in zip(weights, grads)]


def _loss_value(result, what: str) -> float:
    """The loss a step returned, as a float; a clear message for tuples, None and the like."""
    import mindspore as ms

    if isinstance(result, (tuple, list)):
        raise Incorrect(tr("{what} returned a {kind} of {n} items; expected only the loss, a scalar Tensor.",
                           what=what, kind=type(result).__name__, n=len(result)))
    if isinstance(result, ms.Tensor) and result.size == 1:
        return float(result.asnumpy().reshape(()))
    raise Incorrect(tr("{what} returned {result}; expected the loss, a scalar Tensor.", what=what, result=repr(result)))


def _make_step(builder, *args):
    """Call the learner's builder; it must return a callable step."""
    step = Exercise.call(builder, *args)
    if not callable(step):
        raise Incorrect(tr("your builder returned a {kind}; expected a function step(data, label) (not a function).",
                           kind=type(step).__name__))
    return step


def _run(step, *args, what: str = "step(data, label)"):
    """Call the learner's step, turning the accumulation-buffer name clash into a clear message."""
    try:
        return Exercise.call(step, *args)
    except RuntimeError as exc:
        if "already exists" in str(exc):
            raise Incorrect(tr("calling step(data, label) raised RuntimeError: {message}",
                               message=str(exc).strip().splitlines()[0])) from None
        raise


def _calls_depend(fn) -> bool | None:
    """Whether the source of ``fn`` calls ``depend(...)`` (or the course's ``make_train_step``, which does);
    None when the source is not available."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name in ("depend", "make_train_step"):
                return True
    return False


def _check_depend(builder) -> None:
    if _calls_depend(builder) is False:
        raise Incorrect(tr(
            "the weights are right, but the step's code has no ops.depend, which this exercise asks for: compiled "
            "that way, MindSpore 2.10 warns 'Some side effect nodes were eliminated by mistake' (section 4)."))


def _diagnose_update(got: list, start: list, expected: list, alternatives: dict, what: str) -> None:
    """Compare weights after an update with the expected ones; name the mistake if it is a known one."""
    if _close(got, expected):
        return
    if _close(got, start):
        raise Incorrect(tr("{what}: expected the SGD update (lr={lr}, weights moving by up to {moved:.3g}), got "
                           "weights that did not change.", what=what, lr=LR, moved=_max_diff(expected, start)))
    for message, weights in alternatives.items():
        if _close(got, weights):
            raise Incorrect(tr("{what}: expected the SGD update (lr={lr}); got {message}", what=what, lr=LR,
                               message=message))
    raise Incorrect(tr("{what}: the weights differ from the expected SGD update (lr={lr}) by up to {diff:.3g}.",
                       what=what, lr=LR, diff=_max_diff(got, expected)))


# --------------------------------------------------------------------------------------------
# The exercises
# --------------------------------------------------------------------------------------------

class _StepBuilder(Exercise):
    """An exercise whose answer is a step builder ``names[0](net, loss_fn, optimizer[, extra])``.

    Its reference is the course's ``make_train_step``, with the builder's extra argument passed as
    the keyword ``option``. Its check is ``_check_updates`` (what the step does to the weights), then
    the ``ops.depend`` every step of the notebook needs (section 4).
    """

    option = ""   # make_train_step's keyword for the builder's extra argument; "" when there is none

    def reference(self):
        from course_utils.training import make_train_step

        option = self.option

        def builder(net, loss_fn, optimizer, *extra):
            return make_train_step(net, loss_fn, optimizer, **({option: extra[0]} if option else {}))

        builder.__name__ = builder.__qualname__ = self.names[0]
        return (builder,)

    def _check(self, builder):
        self._check_updates(builder)
        _check_depend(builder)

    def _check_updates(self, builder) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class HasAuxStep(_StepBuilder):
    names = ("build_train_step",)
    title = "a training step with has_aux"
    hint_text = ("Inside build_train_step: define forward_fn(data, label) returning (loss, logits); "
                 "grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True); then a "
                 "@ms.jit train_step(data, label) that unpacks (loss, _), grads = grad_fn(data, label), applies "
                 "the optimizer with ops.depend and returns the loss. Return train_step.")
    solution_text = _jit_step_solution("build_train_step(net, loss_fn, optimizer)")

    def _check_updates(self, build_train_step):
        net, loss_fn, opt = _setup()
        x, y = _batch()
        start = _weights(net)
        expected_loss = float(loss_fn(net(x), y).asnumpy())
        grads = _grads(net, loss_fn, x, y)
        no_aux = _grads(net, loss_fn, x, y, has_aux=False)

        step = _make_step(build_train_step, net, loss_fn, opt)
        loss = _loss_value(_run(step, x, y), "step(data, label)")
        if abs(loss - expected_loss) > 1e-4:
            raise Incorrect(tr("the first call returned loss {loss:.6f}, expected {expected:.6f} (the Huber loss of "
                               "the batch before the update).", loss=loss, expected=expected_loss))
        _diagnose_update(_weights(net), start, _sgd(start, grads), {
            tr("the update with the gradients of loss + logits.sum() instead of the loss's."): _sgd(start, no_aux),
        }, tr("after one step"))
        second_expected = float(loss_fn(net(x), y).asnumpy())
        second = _loss_value(_run(step, x, y), tr("the second step(data, label)"))
        if abs(second - second_expected) > 1e-4:
            raise Incorrect(tr("the second call returned loss {loss:.6f}, expected {expected:.6f} (the loss with the "
                               "weights after the first update).", loss=second, expected=second_expected))


class ClippedStep(_StepBuilder):
    names = ("build_clipped_step",)
    title = "clip by the global norm"
    hint_text = ("Start from your step of exercise 1 and insert one line between the gradients and the update: "
                 "grads = ops.clip_by_global_norm(grads, max_norm). It rescales all gradients by the same factor "
                 "min(1, max_norm / global_norm), so their direction is kept.")
    solution_text = _jit_step_solution("build_clipped_step(net, loss_fn, optimizer, max_norm)",
                                       "    grads = ops.clip_by_global_norm(grads, max_norm)\n")

    option = "clip_norm"

    def _one_update(self, builder, max_norm: float, outliers: float):
        net, loss_fn, opt = _setup()
        x, y = _batch(outliers=outliers)
        start = _weights(net)
        grads = _grads(net, loss_fn, x, y)
        step = _make_step(builder, net, loss_fn, opt, max_norm)
        _loss_value(_run(step, x, y), "step(data, label)")
        return start, grads, _weights(net)

    def _check_updates(self, build_clipped_step):
        # A batch with outliers: the global norm is far above max_norm, so clipping must shrink it.
        max_norm = 0.05
        start, grads, got = self._one_update(build_clipped_step, max_norm, outliers=0.25)
        norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
        _diagnose_update(got, start, _sgd(start, _global_clip(grads, max_norm)), {
            tr("the update with the gradients not clipped (their global norm is {norm:.3g} > max_norm {max_norm}).",
               norm=norm, max_norm=max_norm): _sgd(start, grads),
            tr("the update with each gradient tensor clipped on its own to max_norm (its direction differs from the "
               "global-norm clipped one)."): _sgd(start, _per_tensor_clip(grads, max_norm)),
        }, tr("with max_norm={max_norm}", max_norm=max_norm))
        # Below the threshold clipping must not change anything.
        max_norm = 1e3
        start, grads, got = self._one_update(build_clipped_step, max_norm, outliers=0.0)
        _diagnose_update(got, start, _sgd(start, grads), {}, tr("with max_norm={max_norm} (far above the gradient "
                         "norm, so the update must be the unclipped one)", max_norm=max_norm))


class AccumulatingStep(_StepBuilder):
    names = ("build_accumulating_step",)
    title = "gradient accumulation"
    hint_text = ("Clone zero buffers: accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros') "
                 "(not 'accum': SGD uses that name). Compile two functions: one adds grad / k to every buffer "
                 "(ops.assign_add), one applies optimizer(accum) and then zeroes the buffers (ops.assign). Count "
                 "the calls in Python and run the second one every k-th call.")
    solution_text = _solution("build_accumulating_step(net, loss_fn, optimizer, k)", '''
accum = optimizer.parameters.clone(prefix="grad_accum", init="zeros")

@ms.jit
def accumulate(data, label):
    (loss, _), grads = grad_fn(data, label)
    for buf, grad in zip(accum, grads):
        loss = ops.depend(loss, ops.assign_add(buf, grad / k))
    return loss

@ms.jit
def apply_and_zero():
    done = optimizer(tuple(accum))
    for buf in accum:
        done = ops.depend(done, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))
    return done

calls = {"n": 0}

def train_step(data, label):
    loss = accumulate(data, label)
    calls["n"] += 1
    if calls["n"] % k == 0:
        apply_and_zero()
    return loss

return train_step
''')

    option = "accumulate"

    def _check_updates(self, build_accumulating_step):
        k, micro = 4, 4
        net, loss_fn, opt = _setup()
        x, y = _batch(n=k * micro)
        parts = [(x[i * micro:(i + 1) * micro], y[i * micro:(i + 1) * micro]) for i in range(k)]
        start = _weights(net)
        big = _grads(net, loss_fn, x, y)
        last_only = _grads(net, loss_fn, *parts[-1])

        step = _make_step(build_accumulating_step, net, loss_fn, opt, k)
        for i, (xb, yb) in enumerate(parts[:-1]):
            expected = float(loss_fn(net(xb), yb).asnumpy())
            loss = _loss_value(_run(step, xb, yb), tr("call {n}", n=i + 1))
            if abs(loss - expected) > 1e-4:
                raise Incorrect(tr("call {n} returned loss {loss:.6f}, expected the micro-batch's loss "
                                   "{expected:.6f}.", n=i + 1, loss=loss, expected=expected))
            if not _close(_weights(net), start):
                raise Incorrect(tr("with k={k}: expected the weights unchanged until call {k}, got changed weights "
                                   "after call {n}.", k=k, n=i + 1))
        _loss_value(_run(step, *parts[-1]), tr("call {n}", n=k))
        once = _sgd(start, big)
        _diagnose_update(_weights(net), start, once, {
            tr("an update {k} times too large.", k=k): _sgd(start, [g * k for g in big]),
            tr("the update of only the last micro-batch's gradient."): _sgd(start, last_only),
        }, tr("after {k} micro-batches (one batch of {size} split in {k})", k=k, size=k * micro))

        big2 = _grads(net, loss_fn, x, y)
        for xb, yb in parts:
            _run(step, xb, yb)
        twice = _sgd(once, big2)
        _diagnose_update(_weights(net), once, twice, {
            tr("an update that also contains the first round's gradients."): _sgd(once, [a + b for a, b in
                                                                                        zip(big, big2)]),
        }, tr("after {n} micro-batches (the second update)", n=2 * k))


q1 = HasAuxStep()
q2 = ClippedStep()
q3 = AccumulatingStep()
register(globals(), "02")
