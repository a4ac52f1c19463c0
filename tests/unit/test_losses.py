"""course_utils.losses.HuberLoss: agrees with mindspore.nn.HuberLoss, has the right gradient, rejects bad input."""

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn

from course_utils.losses import HuberLoss, check_delta, huber

DELTAS = (0.5, 1.0, 2.0)
REDUCTIONS = ("none", "mean", "sum")


def inputs(delta_values=DELTAS, seed=0):
    """Random errors plus hand-picked ones: zero, tiny, huge and exactly +-delta."""
    rng = np.random.default_rng(seed)
    hand = [0.0, 1e-4, -1e-4, 60.0, -75.0] + [s * d for d in delta_values for s in (1.0, -1.0)]
    error = np.concatenate([rng.normal(0, 2, 40), hand]).astype(np.float32)
    labels = rng.normal(0, 1, error.size).astype(np.float32)
    return labels + error, labels


@pytest.mark.parametrize("ms_mode", ["pynative"], indirect=True)
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_matches_builtin_every_delta_and_reduction(ms_mode, dtype):
    logits, labels = inputs()
    x, y = ms.Tensor(logits, getattr(ms, dtype)), ms.Tensor(labels, getattr(ms, dtype))
    tol = 1e-6 if dtype == "float32" else 1e-3
    for delta in DELTAS:
        for reduction in REDUCTIONS:
            ours = HuberLoss(delta=delta, reduction=reduction)(x, y)
            builtin = nn.HuberLoss(reduction=reduction, delta=delta)(x, y)
            assert ours.dtype == builtin.dtype == getattr(ms, dtype)
            assert ours.shape == builtin.shape
            np.testing.assert_allclose(ours.asnumpy().astype(np.float64), builtin.asnumpy().astype(np.float64),
                                       rtol=tol, atol=tol, err_msg=f"delta={delta} reduction={reduction}")


@pytest.mark.parametrize("ms_mode", ["graph"], indirect=True)
def test_matches_builtin_compiled(ms_mode):
    logits, labels = inputs()
    x, y = ms.Tensor(logits), ms.Tensor(labels)
    for reduction in ("none", "mean"):
        np.testing.assert_allclose(HuberLoss(reduction, 1.0)(x, y).asnumpy(),
                                   nn.HuberLoss(reduction, 1.0)(x, y).asnumpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("ms_mode", ["pynative"], indirect=True)
@pytest.mark.parametrize("delta", DELTAS)
def test_exact_at_the_boundary(ms_mode, delta):
    error = np.array([delta, -delta], np.float32)
    zero = np.zeros(2, np.float32)
    loss = HuberLoss("none", delta)(ms.Tensor(error), ms.Tensor(zero)).asnumpy()
    assert np.array_equal(loss, np.full(2, 0.5 * delta * delta, np.float32))
    assert np.array_equal(loss, nn.HuberLoss("none", delta)(ms.Tensor(error), ms.Tensor(zero)).asnumpy())


@pytest.mark.parametrize("ms_mode", ["pynative", "graph"], indirect=True)
def test_gradient_is_clipped_error(ms_mode):
    error = np.linspace(-4, 4, 33).astype(np.float32)
    zero = np.zeros_like(error)
    grad = ms.grad(HuberLoss("sum", 1.5), grad_position=0)(ms.Tensor(error), ms.Tensor(zero)).asnumpy()
    np.testing.assert_allclose(grad, np.clip(error, -1.5, 1.5), atol=1e-6)


@pytest.mark.parametrize("ms_mode", ["pynative"], indirect=True)
def test_functional_huber_and_broadcasting(ms_mode):
    e = ms.Tensor([-3.0, -1.0, 0.0, 0.5, 2.0], ms.float32)
    np.testing.assert_allclose(huber(e, 1.0).asnumpy(), [2.5, 0.5, 0.0, 0.125, 1.5])
    # labels broadcast against logits, as with nn.HuberLoss
    logits = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32))
    labels = ms.Tensor(np.array([[1.0, 1.0, 1.0], [1.0, 2.0, 2.0]], np.float32))
    np.testing.assert_allclose(HuberLoss(reduction="none")(logits, labels).asnumpy(),
                               [[0.0, 0.5, 1.5], [0.0, 0.0, 0.5]])


@pytest.mark.parametrize("ms_mode", ["pynative"], indirect=True)
def test_integer_logits_are_rejected(ms_mode):
    with pytest.raises(TypeError, match="floating-point logits"):
        HuberLoss()(ms.Tensor([1, 2]), ms.Tensor([0, 0]))


@pytest.mark.parametrize("bad, error, match", [
    (0.0, ValueError, "positive"), (-1.0, ValueError, "positive"), (float("inf"), ValueError, "finite"),
    (float("nan"), ValueError, "finite"), ("1.0", TypeError, "positive number"), (True, TypeError, "bool"),
])
def test_bad_delta(bad, error, match):
    with pytest.raises(error, match=match):
        HuberLoss(delta=bad)


def test_bad_reduction():
    with pytest.raises(ValueError, match="reduction must be one of 'none', 'mean', 'sum', got 'average'"):
        HuberLoss(reduction="average")


def test_check_delta_and_repr():
    assert check_delta(2) == 2.0 and isinstance(check_delta(2), float)
    assert "reduction='sum', delta=0.5" in repr(HuberLoss("sum", 0.5))
