"""course_utils.training, Cell-based part: ClippedTrainOneStepCell against nn.TrainOneStepCell and
notebook 02's functional step (make_train_step)."""

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn

from course_utils.callbacks import restore_weights, snapshot_weights
from course_utils.data import synthetic_regression
from course_utils.models import SimpleNet
from course_utils.training import ClippedTrainOneStepCell, global_norm, make_train_step

MODES = pytest.mark.parametrize("ms_mode", ["graph", "pynative"], indirect=True)


@pytest.fixture(scope="module")
def batches():
    # outliers make some gradients large, so clipping really acts
    x, y = synthetic_regression(n_samples=64, noise=0.5, outlier_fraction=0.1, seed=3)
    return [(ms.Tensor(x[i:i + 16]), ms.Tensor(y[i:i + 16])) for i in range(0, 64, 16)]


def _twin_nets(seed=0):
    ms.set_seed(seed)
    a, b = SimpleNet(), SimpleNet()
    restore_weights(b, snapshot_weights(a))
    return a, b


def _run(step, batches, epochs=2):
    out = []
    for _ in range(epochs):
        for x, y in batches:
            loss = step(x, y)
            out.append(float((loss[0] if isinstance(loss, tuple) else loss).asnumpy()))
    return np.array(out)


@MODES
def test_without_clipping_it_is_train_one_step_cell(ms_mode, batches):
    a, b = _twin_nets()
    ours = ClippedTrainOneStepCell(nn.WithLossCell(a, nn.MSELoss()), nn.SGD(a.trainable_params(), 0.01),
                                   max_norm=None)
    theirs = nn.TrainOneStepCell(nn.WithLossCell(b, nn.MSELoss()), nn.SGD(b.trainable_params(), 0.01))
    ours.set_train()
    theirs.set_train()
    np.testing.assert_allclose(_run(ours, batches), _run(theirs, batches), rtol=1e-6)
    np.testing.assert_allclose(a.fc1.weight.asnumpy(), b.fc1.weight.asnumpy(), rtol=1e-6, atol=1e-7)


@MODES
def test_same_trajectory_as_functional_step_with_clip_norm(ms_mode, batches):
    a, b = _twin_nets(1)
    cell = ClippedTrainOneStepCell(nn.WithLossCell(a, nn.MSELoss()), nn.Momentum(a.trainable_params(), 0.01, 0.9),
                                   max_norm=0.5)
    cell.set_train()
    functional = make_train_step(b, nn.MSELoss(), nn.Momentum(b.trainable_params(), 0.01, 0.9), clip_norm=0.5,
                                 jit=ms_mode == ms.GRAPH_MODE)
    np.testing.assert_allclose(_run(cell, batches, epochs=3), _run(functional, batches, epochs=3), rtol=1e-5)


def test_static_loss_scale_does_not_change_float32_training(batches):
    a, b = _twin_nets(2)
    plain = ClippedTrainOneStepCell(nn.WithLossCell(a, nn.MSELoss()), nn.SGD(a.trainable_params(), 0.01), max_norm=1.0)
    scaled = ClippedTrainOneStepCell(nn.WithLossCell(b, nn.MSELoss()), nn.SGD(b.trainable_params(), 0.01),
                                     max_norm=1.0, loss_scale=1024.0)
    assert scaled.sens == 1024.0 and plain.sens == 1.0     # backprop is seeded with the scale
    plain.set_train()
    scaled.set_train()
    np.testing.assert_allclose(_run(plain, batches), _run(scaled, batches), rtol=1e-5)


def test_return_norm_reports_the_norm_before_clipping_and_clipping_bounds_the_update(batches):
    a, b = _twin_nets(3)
    x, y = batches[0]
    loss_net = nn.WithLossCell(b, nn.MSELoss())
    grads = ms.grad(loss_net, grad_position=None, weights=b.trainable_params())(x, y)
    expected_norm = float(global_norm(grads).asnumpy())
    assert expected_norm > 1.0, "test data should give a gradient larger than max_norm"

    lr, max_norm = 0.1, 1.0
    before = snapshot_weights(a)
    step = ClippedTrainOneStepCell(nn.WithLossCell(a, nn.MSELoss()), nn.SGD(a.trainable_params(), lr),
                                   max_norm=max_norm, return_norm=True)
    step.set_train()
    loss, norm = step(x, y)
    assert loss.shape == () and norm.shape == ()
    np.testing.assert_allclose(float(norm.asnumpy()), expected_norm, rtol=1e-5)
    after = snapshot_weights(a)
    update_norm = np.sqrt(sum(np.sum((after[k] - before[k]) ** 2) for k in before))
    np.testing.assert_allclose(update_norm, lr * max_norm, rtol=1e-4)   # SGD step = lr * clipped gradient


@pytest.mark.parametrize("kwargs, message", [
    ({"max_norm": 0}, "max_norm must be a positive number or None"),
    ({"max_norm": -1.0}, "max_norm must be a positive number or None"),
    ({"loss_scale": 0}, "loss_scale must be a positive number"),
    ({"loss_scale": float("nan")}, "loss_scale must be a positive number"),
])
def test_bad_arguments_are_explained(kwargs, message):
    net = SimpleNet()
    with pytest.raises(ValueError, match=message):
        ClippedTrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01), **kwargs)


@pytest.mark.slow
def test_notebook_03_runs_in_pynative_with_too_few_epochs_to_stop(tmp_path):
    """papermill run of notebook 04 with non-default parameters: PyNative, and EPOCHS below the stopping
    point (every early-stopping cell must handle "did not stop")."""
    import nbformat

    from course_utils import run

    nb = run.find_notebooks(["04"])
    plan = run.plan_parameters(nb, {"MODE": "pynative", "EPOCHS": 4}, {})
    rows = run.run_notebooks(nb, plan, tmp_path, timeout=900, log=lambda *_: None)
    assert rows[0]["status"] == "ok", rows[0]["error"]
    metrics = rows[0]["metrics"]
    assert metrics["mode"] == "PYNATIVE_MODE"
    assert metrics["stopped_epoch"] == 0 and 1 <= metrics["best_epoch"] <= 4
    assert metrics["equivalence_max_rel_diff"] < 1e-5
    executed = nbformat.read(tmp_path / nb[0].name, as_version=4)
    text = "".join(o.get("text", "") for c in executed.cells if c.cell_type == "code" for o in c.outputs)
    assert "the plain loop None, mindspore.train.EarlyStopping None" in text
