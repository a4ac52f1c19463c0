"""Reference losses. Notebook 01 builds ``HuberLoss`` step by step; later notebooks import it from here.

The Huber loss of an error ``e = logits - labels`` with threshold ``delta``::

    0.5 * e**2                    if |e| <= delta   (quadratic: like MSE, gentle near zero)
    delta * (|e| - 0.5 * delta)   otherwise         (linear: like L1, a bounded gradient for outliers)

Both pieces equal ``0.5 * delta**2`` at ``|e| == delta`` and both have slope ``delta * sign(e)`` there,
so whether the boundary goes to the quadratic or the linear piece changes neither value nor gradient.
It matches ``mindspore.nn.HuberLoss`` (same values, same output dtype); this version is written with
MindSpore 2.x functional ops so every step is visible.
"""

from __future__ import annotations

import math
import numbers

import mindspore as ms
from mindspore import nn, ops

REDUCTIONS = ("none", "mean", "sum")


def huber(error, delta: float = 1.0):
    """Elementwise Huber of an error tensor (no reduction), in ``error``'s dtype.

    ``ops.where`` evaluates both pieces for every element and keeps one, so the selection is
    elementwise and the function compiles in GRAPH_MODE (a Python ``if`` would pick one branch for
    the whole tensor).
    """
    abs_error = ops.abs(error)
    quadratic = 0.5 * ops.square(error)
    linear = delta * (abs_error - 0.5 * delta)
    return ops.where(abs_error <= delta, quadratic, linear)


def check_delta(delta) -> float:
    """``delta`` as a float, or a clear error: it must be a positive, finite number."""
    if isinstance(delta, bool) or not isinstance(delta, numbers.Real):
        raise TypeError(f"delta must be a positive number, got {delta!r} of type {type(delta).__name__}.")
    if not math.isfinite(delta) or delta <= 0:
        raise ValueError(f"delta must be a positive, finite number, got {delta!r}.")
    return float(delta)


def check_reduction(reduction) -> str:
    """``reduction`` itself, or a clear error naming the three choices."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {', '.join(map(repr, REDUCTIONS))}, got {reduction!r}.")
    return reduction


class HuberLoss(nn.LossBase):
    """Huber loss on ``nn.LossBase``: quadratic for ``|error| <= delta``, linear beyond.

    Args:
        reduction: ``"mean"`` (default), ``"sum"`` or ``"none"`` (one loss per element), applied by
            ``LossBase.get_loss``.
        delta: where the quadratic piece hands over to the linear one (positive). It is also the
            largest gradient any single element can produce.

    The arguments come in the order of ``mindspore.nn.HuberLoss(reduction, delta)`` (and PyTorch's
    ``HuberLoss``), so a positional call means the same thing with either class.

    Inputs ``logits`` and ``labels`` are float tensors of broadcastable shapes. The error is computed
    in float32 (a float16 difference of nearby values loses digits, and float16 overflows at 65504);
    the loss is returned in ``logits``' dtype, as ``mindspore.nn.HuberLoss`` does.
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0):
        super().__init__(check_reduction(reduction))
        self.delta = check_delta(delta)
        self.reduction = reduction

    def construct(self, logits, labels):
        if not ops.is_floating_point(logits):
            raise TypeError(f"HuberLoss needs floating-point logits (float16 or float32), got {logits.dtype}.")
        error = ops.cast(logits, ms.float32) - ops.cast(labels, ms.float32)
        loss = huber(error, self.delta)
        # get_loss reduces in float32 and casts the result back to the dtype it was given.
        return self.get_loss(ops.cast(loss, logits.dtype))

    def extend_repr(self) -> str:
        return f"reduction={self.reduction!r}, delta={self.delta}"


__all__ = ["HuberLoss", "REDUCTIONS", "check_delta", "check_reduction", "huber"]
