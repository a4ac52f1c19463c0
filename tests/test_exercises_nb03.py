"""Notebook 03's exercise checks accept the reference and reject typical wrong answers."""

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops

from course_utils.exercises import Outcome, ____, nb03


@pytest.fixture(autouse=True, scope="module")
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)


# ---- q1: WithLossCell for a two-output network -----------------------------------------------------

def test_two_head_net_is_deterministic_and_returns_two_outputs():
    x = ms.Tensor(np.ones((2, 10), np.float32))
    a, b = nb03.TwoHeadNet(seed=0), nb03.TwoHeadNet(seed=0)
    (ma, xa), (mb, xb) = a(x), b(x)
    assert ma.shape == (2, 1) and xa.shape == (2, 1)
    np.testing.assert_array_equal(ma.asnumpy(), mb.asnumpy())
    assert not np.allclose(ma.asnumpy(), xa.asnumpy())


def test_q1_accepts_the_reference():
    assert nb03.q1.check(*nb03.q1.reference()) == Outcome.CORRECT


def test_q1_not_attempted():
    assert nb03.q1.check(____) == Outcome.NOT_ATTEMPTED

    class TwoHeadWithLoss(nn.WithLossCell):
        def __init__(self, backbone, loss_fn, aux_weight=0.4):
            ____

        def construct(self, data, label):
            return ____

    assert nb03.q1.check(TwoHeadWithLoss) == Outcome.NOT_ATTEMPTED


class NoParentInit(nn.WithLossCell):
    def __init__(self, backbone, loss_fn, aux_weight=0.4):
        self._backbone = backbone
        self._loss_fn = loss_fn
        self.aux_weight = aux_weight

    def construct(self, data, label):
        main, aux = self._backbone(data)
        return self._loss_fn(main, label) + self.aux_weight * self._loss_fn(aux, label)


class SkipsWithLossCellInit(nn.WithLossCell):
    def __init__(self, backbone, loss_fn, aux_weight=0.4):
        super(nn.WithLossCell, self).__init__()
        self.net = backbone
        self.loss = loss_fn
        self.aux_weight = aux_weight

    def construct(self, data, label):
        main, aux = self.net(data)
        return self.loss(main, label) + self.aux_weight * self.loss(aux, label)


class MainOnly(nn.WithLossCell):
    def __init__(self, backbone, loss_fn, aux_weight=0.4):
        super().__init__(backbone, loss_fn)
        self.aux_weight = aux_weight

    def construct(self, data, label):
        main, _ = self._backbone(data)
        return self._loss_fn(main, label)


class WeightOnMain(MainOnly):
    def construct(self, data, label):
        main, aux = self._backbone(data)
        return self.aux_weight * self._loss_fn(main, label) + self._loss_fn(aux, label)


class IgnoresWeight(MainOnly):
    def construct(self, data, label):
        main, aux = self._backbone(data)
        return self._loss_fn(main, label) + self._loss_fn(aux, label)


class ReturnsTuple(MainOnly):
    def construct(self, data, label):
        main, aux = self._backbone(data)
        return self._loss_fn(main, label) + self.aux_weight * self._loss_fn(aux, label), main


class WrongDefault(MainOnly):
    def __init__(self, backbone, loss_fn, aux_weight=1.0):
        super().__init__(backbone, loss_fn, aux_weight)

    def construct(self, data, label):
        main, aux = self._backbone(data)
        return self._loss_fn(main, label) + self.aux_weight * self._loss_fn(aux, label)


class PlainCell(nn.Cell):
    def __init__(self, backbone, loss_fn, aux_weight=0.4):
        super().__init__()
        self.net, self.loss, self.aux_weight = backbone, loss_fn, aux_weight

    def construct(self, data, label):
        main, aux = self.net(data)
        return self.loss(main, label) + self.aux_weight * self.loss(aux, label)


@pytest.mark.parametrize("answer, message", [
    (NoParentInit, "call super().__init__(backbone, loss_fn) as the first line"),
    (SkipsWithLossCellInit, "backbone_network of your cell is not the network passed in"),
    (MainOnly, "main head's loss alone"),
    (WeightOnMain, "aux_weight multiplies the main loss"),
    (IgnoresWeight, "main + aux with weight 1"),
    (ReturnsTuple, "returned a tuple of 2 values"),
    (WrongDefault, "default 0.4"),
    (PlainCell, "should derive from nn.WithLossCell"),
    (lambda backbone, loss_fn, aux_weight=0.4: None, "should be a class"),
])
def test_q1_rejects_typical_mistakes(answer, message):
    result = nb03.q1.check(answer)
    assert result == Outcome.INCORRECT, result
    assert message in result.message, result.message


# ---- q2: clipping in a TrainOneStepCell -------------------------------------------------------------

def test_q2_accepts_the_reference():
    assert nb03.q2.check(*nb03.q2.reference()) == Outcome.CORRECT


def test_q2_inputs_make_both_clip_values_matter():
    ref = nb03.q2.reference()[0]
    for clip in (0.05, None):
        *_, grads, _ = nb03.q2._one_step(ref, clip)
        c = 1.0 if clip is None else clip
        flat = np.concatenate([g.ravel() for g in grads])
        assert np.any(np.abs(flat) > c) and np.any(np.abs(flat) < c)


class _Base(nn.TrainOneStepCell):
    def __init__(self, network, optimizer, clip_value=1.0):
        super().__init__(network, optimizer)
        self.clip_value = clip_value


class NoClip(_Base):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        return ops.depend(loss, self.optimizer(grads))


class ClipAfterUpdate(_Base):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        loss = ops.depend(loss, self.optimizer(grads))
        grads = ops.clip_by_value(grads, -self.clip_value, self.clip_value)
        return loss


class GlobalNorm(_Base):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        grads = ops.clip_by_global_norm(grads, self.clip_value)
        return ops.depend(loss, self.optimizer(grads))


class NoUpdate(_Base):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        grads = ops.clip_by_value(grads, -self.clip_value, self.clip_value)
        return loss


class ReturnsGrads(_Base):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        grads = ops.clip_by_value(grads, -self.clip_value, self.clip_value)
        return ops.depend(loss, self.optimizer(grads)), grads


class HalfDefault(_Base):
    def __init__(self, network, optimizer, clip_value=0.5):
        super().__init__(network, optimizer, clip_value)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        grads = ops.clip_by_value(grads, -self.clip_value, self.clip_value)
        return ops.depend(loss, self.optimizer(grads))


class NoClipValueArgument(nn.TrainOneStepCell):
    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = self.grad_no_sens(self.network, self.weights)(*inputs)
        grads = ops.clip_by_value(grads, -1.0, 1.0)
        return ops.depend(loss, self.optimizer(grads))


@pytest.mark.parametrize("answer, message", [
    (NoClip, "unclipped gradients"),
    (ClipAfterUpdate, "unclipped gradients"),
    (GlobalNorm, "clipping by the global norm"),
    (NoUpdate, "the weights did not change"),
    (ReturnsGrads, "returned a tuple of 2 values"),
    (HalfDefault, "Check the default: clip_value=1.0"),
    (NoClipValueArgument, "takes (network, optimizer, clip_value=1.0)"),
    (NoParentInit, "should derive from nn.TrainOneStepCell"),
])
def test_q2_rejects_typical_mistakes(answer, message):
    result = nb03.q2.check(answer)
    assert result == Outcome.INCORRECT, result
    assert message in result.message, result.message


def test_q2_not_attempted():
    class ClipValueTrainStep(nn.TrainOneStepCell):
        def __init__(self, network, optimizer, clip_value=1.0):
            super().__init__(network, optimizer)
            self.clip_value = clip_value

        def construct(self, *inputs):
            loss = self.network(*inputs)
            grads = ____
            return loss

    assert nb03.q2.check(ClipValueTrainStep) == Outcome.NOT_ATTEMPTED


# ---- q3: early stopping on a recorded curve ---------------------------------------------------------

def test_q3_accepts_the_reference_and_agrees_with_course_utils():
    from course_utils.callbacks import stopping_point

    assert nb03.q3.check(*nb03.q3.reference()) == Outcome.CORRECT
    fn = nb03.q3.reference()[0]
    rng = np.random.default_rng(0)
    for _ in range(50):
        curve = list((1 + np.cumsum(rng.normal(0, 0.05, 20))).round(2))
        patience, min_delta = int(rng.integers(1, 5)), float(rng.choice([0.0, 0.02]))
        assert fn(curve, patience, min_delta) == stopping_point(curve, patience, min_delta)


def _zero_based(val_losses, patience, min_delta=0.0):
    best, best_epoch, wait = float("inf"), None, 0
    for epoch, value in enumerate(val_losses):
        if value < best - min_delta:
            best, best_epoch, wait = value, epoch, 0
        else:
            wait += 1
            if wait >= patience:
                return best_epoch, epoch
    return best_epoch, None


def _ties_improve(val_losses, patience, min_delta=0.0):
    best, best_epoch, wait = float("inf"), None, 0
    for epoch, value in enumerate(val_losses, start=1):
        if value <= best - min_delta:
            best, best_epoch, wait = value, epoch, 0
        else:
            wait += 1
            if wait >= patience:
                return best_epoch, epoch
    return best_epoch, None


def _ignores_min_delta(val_losses, patience, min_delta=0.0):
    best, best_epoch, wait = float("inf"), None, 0
    for epoch, value in enumerate(val_losses, start=1):
        if value < best:
            best, best_epoch, wait = value, epoch, 0
        else:
            wait += 1
            if wait >= patience:
                return best_epoch, epoch
    return best_epoch, None


def _waits_one_too_many(val_losses, patience, min_delta=0.0):
    best, best_epoch, wait = float("inf"), None, 0
    for epoch, value in enumerate(val_losses, start=1):
        if value < best - min_delta:
            best, best_epoch, wait = value, epoch, 0
        else:
            wait += 1
            if wait > patience:
                return best_epoch, epoch
    return best_epoch, None


def _never_resets(val_losses, patience, min_delta=0.0):
    best, best_epoch, bad = float("inf"), None, 0
    for epoch, value in enumerate(val_losses, start=1):
        if value < best - min_delta:
            best, best_epoch = value, epoch
        else:
            bad += 1
            if bad >= patience:
                return best_epoch, epoch
    return best_epoch, None


def _compares_with_previous_epoch(val_losses, patience, min_delta=0.0):
    prev, best, best_epoch, wait = float("inf"), float("inf"), None, 0
    for epoch, value in enumerate(val_losses, start=1):
        if value < best:
            best, best_epoch = value, epoch
        if value < prev - min_delta:
            wait = 0
        else:
            wait += 1
            if wait >= patience:
                return best_epoch, epoch
        prev = value
    return best_epoch, None


@pytest.mark.parametrize("answer, message", [
    (_zero_based, "0-based"),
    (_ties_improve, "a tie (equal value) is not an improvement"),
    (_ignores_min_delta, "min_delta"),
    (_waits_one_too_many, "expected (best_epoch, stop_epoch) = (3, 6)"),
    (_never_resets, "an improvement resets the count"),
    (_compares_with_previous_epoch, "expected (best_epoch, stop_epoch)"),
    (lambda val_losses, patience, min_delta=0.0: 5, "return a pair (best_epoch, stop_epoch)"),
])
def test_q3_rejects_typical_mistakes(answer, message):
    result = nb03.q3.check(answer)
    assert result == Outcome.INCORRECT, result
    assert message in result.message, result.message


def test_q3_not_attempted():
    assert nb03.q3.check(____) == Outcome.NOT_ATTEMPTED

    def early_stopping_epochs(val_losses, patience, min_delta=0.0):
        return ____

    assert nb03.q3.check(early_stopping_epochs) == Outcome.NOT_ATTEMPTED
