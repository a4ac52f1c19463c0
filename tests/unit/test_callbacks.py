"""course_utils.callbacks: early stopping rule, weight snapshot/restore, History and its Model callback."""

import math

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn
import mindspore.dataset as ds

from course_utils.callbacks import (EarlyStopper, History, HistoryCallback, restore_weights, snapshot_weights,
                                    stopping_point)
from course_utils.models import SimpleNet


# ---- the stopping rule -----------------------------------------------------------------------

def test_stops_after_patience_epochs_without_improvement():
    stopper = EarlyStopper(patience=2)
    decisions = [stopper.update(v) for v in [1.0, 0.8, 0.9, 0.85]]
    assert decisions == [False, False, False, True]
    assert stopper.best == 0.8 and stopper.best_epoch == 2 and stopper.stopped_epoch == 4
    assert stopper.should_stop and stopper.update(0.1) is True      # stays stopped, ignores later values
    assert stopper.values == [1.0, 0.8, 0.9, 0.85]


def test_improvement_resets_the_wait():
    stopper = EarlyStopper(patience=2)
    for v in [1.0, 1.1, 0.9, 1.0, 0.8, 0.85]:
        assert not stopper.update(v)
    assert stopper.wait == 1 and stopper.best_epoch == 5


def test_tie_is_not_an_improvement_and_min_delta_counts():
    assert stopping_point([1.0, 1.0, 1.0], patience=2) == (1, 3)
    # 0.95 is better, but not by more than min_delta=0.1
    assert stopping_point([1.0, 0.95, 0.92], patience=2, min_delta=0.1) == (1, 3)
    assert stopping_point([1.0, 0.85, 0.92], patience=2, min_delta=0.1) == (2, None)


def test_max_mode_for_accuracy():
    assert stopping_point([0.5, 0.7, 0.69, 0.7, 0.6], patience=3, mode="max") == (2, 5)
    assert stopping_point([0.5, 0.7, 0.69, 0.7, 0.6], patience=3, mode="min") == (1, 4)


def test_nan_never_improves():
    stopper = EarlyStopper(patience=2)
    assert not stopper.update(float("nan"))
    assert stopper.best_epoch is None and stopper.wait == 1
    assert stopper.update(float("nan"))


def test_never_stopping_curve():
    assert stopping_point(np.linspace(1.0, 0.1, 10), patience=1) == (10, None)


def test_explicit_epoch_numbers_and_tensor_values():
    stopper = EarlyStopper(patience=1)
    stopper.update(ms.Tensor(0.5, ms.float32), epoch=10)
    stopper.update(np.float32(0.7), epoch=11)
    assert stopper.best_epoch == 10 and stopper.stopped_epoch == 11
    assert "stopped at epoch 11" in repr(stopper)


@pytest.mark.parametrize("kwargs, message", [
    ({"patience": 0}, "patience must be an integer >= 1"),
    ({"patience": 2.5}, "patience must be an integer >= 1"),
    ({"patience": True}, "patience must be an integer >= 1"),
    ({"min_delta": -0.1}, "min_delta must be a finite number >= 0"),
    ({"min_delta": float("inf")}, "min_delta must be a finite number >= 0"),
    ({"mode": "auto"}, "mode must be 'min'"),
])
def test_bad_arguments_are_explained(kwargs, message):
    with pytest.raises(ValueError, match=message):
        EarlyStopper(**kwargs)


def test_non_scalar_value_is_rejected():
    with pytest.raises(ValueError, match="scalar"):
        EarlyStopper().update(np.ones(3))


def test_agrees_with_mindspore_early_stopping_rule():
    """Same decisions as mindspore.train.EarlyStopping on random curves (its own update code)."""
    from mindspore.train import EarlyStopping

    class _Ctx:
        def __init__(self):
            self.stop = False
            self.params = {}

        def original_args(self):
            return self.params

        def request_stop(self):
            self.stop = True

    rng = np.random.default_rng(0)
    for trial in range(40):
        patience = int(rng.integers(1, 5))
        min_delta = float(rng.choice([0.0, 0.01, 0.05]))
        mode = str(rng.choice(["min", "max"]))
        curve = (1.0 + np.cumsum(rng.normal(0, 0.05, size=25))).round(2)   # rounding makes ties
        ms_cb = EarlyStopping(monitor="eval_loss", patience=patience, min_delta=min_delta, mode=mode)
        ctx = _Ctx()
        ms_cb.on_train_begin(ctx)
        ms_stop = None
        for epoch, value in enumerate(curve, start=1):
            ctx.params = {"cur_epoch_num": epoch, "eval_results": {"eval_loss": float(value)}}
            ms_cb.on_train_epoch_end(ctx)
            if ctx.stop:
                ms_stop = epoch
                break
        best_epoch, stop_epoch = stopping_point(curve, patience=patience, min_delta=min_delta, mode=mode)
        assert stop_epoch == ms_stop, (trial, curve, patience, min_delta, mode)


# ---- weights ---------------------------------------------------------------------------------

def _batch(seed=0):
    rng = np.random.default_rng(seed)
    return (ms.Tensor(rng.normal(size=(16, 10)).astype(np.float32)),
            ms.Tensor(rng.normal(size=(16, 1)).astype(np.float32)))


def test_snapshot_is_a_copy_and_restore_is_in_place():
    ms.set_seed(0)
    net = SimpleNet()
    snap = snapshot_weights(net)
    assert set(snap) == {"fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"}
    param = net.fc1.weight
    ms.ops.assign(param, ms.ops.zeros_like(param))
    assert not np.allclose(snap["fc1.weight"], 0)
    restore_weights(net, snap)
    assert net.fc1.weight is param                      # the same Parameter object, new values
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), snap["fc1.weight"])


def test_restore_rejects_a_foreign_snapshot():
    net = SimpleNet()
    with pytest.raises(KeyError, match="does not have"):
        restore_weights(net, {"conv1.weight": np.zeros((6, 1, 5, 5), np.float32)})
    with pytest.raises(ValueError, match="shape"):
        restore_weights(net, {"fc1.weight": np.zeros((3, 3), np.float32)})
    with pytest.raises(TypeError, match="Cell"):
        snapshot_weights(object())


@pytest.mark.parametrize("ms_mode", ["pynative", "graph"], indirect=True)
def test_training_continues_after_restore(ms_mode):
    """The trap: load_param_into_net into a net whose PyNative TrainOneStepCell already ran freezes
    training. restore() must leave the compiled step updating the visible weights."""
    ms.set_seed(1)
    x, y = _batch()
    net = SimpleNet()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.05))
    step.set_train()
    stopper = EarlyStopper(patience=1)
    for _ in range(2):
        step(x, y)
    stopper.update(0.5, network=net)
    best = {k: v.copy() for k, v in stopper.best_weights.items()}
    for _ in range(2):
        step(x, y)
    assert stopper.restore(net)
    np.testing.assert_array_equal(net.fc1.weight.asnumpy(), best["fc1.weight"])
    losses = [float(step(x, y).asnumpy()) for _ in range(3)]
    assert not np.allclose(net.fc1.weight.asnumpy(), best["fc1.weight"]), "training froze after restore"
    assert losses[2] < losses[0]


def test_restore_without_snapshot_is_a_no_op():
    stopper = EarlyStopper()
    stopper.update(1.0)           # no network given: nothing to restore
    assert stopper.restore(SimpleNet()) is False


# ---- History ---------------------------------------------------------------------------------

def test_history_epoch_loss_is_the_mean_of_its_steps():
    h = History()
    for v in [1.0, 3.0]:
        h.record_step(v)
    h.record_epoch()
    h.record_step(ms.Tensor(2.0))
    h.record_epoch(eval_loss=np.float32(1.5))
    assert h.epoch == [1, 2]
    assert h["loss"] == [2.0, 2.0]
    assert math.isnan(h["eval_loss"][0]) and h["eval_loss"][1] == 1.5    # aligned with epochs
    assert h.as_dict()["step_loss"] == [1.0, 3.0, 2.0]
    assert len(h) == 2 and "eval_loss" in h
    with pytest.raises(KeyError, match="have: \\['eval_loss', 'loss'\\]"):
        h["accuracy"]


def test_history_takes_the_loss_out_of_a_loss_scale_tuple():
    h = History()
    h.record_step((ms.Tensor(0.25), ms.Tensor(False), ms.Tensor(1024.0)))
    assert h.step_loss == [0.25]


def _dataset(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 10)).astype(np.float32)
    y = (x[:, :1] * 0.5).astype(np.float32)
    return ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(8)


def test_history_callback_in_model_fit_records_steps_epochs_and_eval_loss():
    from mindspore.train import MAE, Model

    ms.set_seed(2)
    net = SimpleNet()
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.05), metrics={"mae": MAE()})
    cb = HistoryCallback()
    model.fit(3, _dataset(32, 0), valid_dataset=_dataset(16, 1), callbacks=[cb])
    h = cb.history
    assert len(h.step_loss) == 3 * 4          # 32 samples / batch 8, eval steps not counted
    assert h.epoch == [1, 2, 3]
    np.testing.assert_allclose(h["loss"], np.mean(np.reshape(h.step_loss, (3, 4)), axis=1), rtol=1e-6)
    assert len(h["eval_loss"]) == 3 and all(np.isfinite(h["eval_loss"]))
    assert len(h["mae"]) == 3                   # the Model's metrics come along
    assert h["eval_loss"][-1] < h["eval_loss"][0]
    # Model.train (no validation) records the training loss only
    cb2 = HistoryCallback()
    model.train(1, _dataset(32, 0), callbacks=[cb2])
    assert sorted(cb2.history.metrics) == ["loss"] and len(cb2.history.step_loss) == 4
