"""Notebook 04's exercise checks accept the reference and reject typical wrong answers."""

import itertools

import numpy as np
import pytest

import mindspore as ms
from mindspore import nn, ops
from mindspore.train import Callback

from support import PYNATIVE_FAST_GRAPH_SLOW
from course_utils.exercises import Outcome, ____, nb04


# ---- q1: WithLossCell for a two-output network -----------------------------------------------------

def test_two_head_net_is_deterministic_and_returns_two_outputs():
    x = ms.Tensor(np.ones((2, 10), np.float32))
    a, b = nb04.TwoHeadNet(seed=0), nb04.TwoHeadNet(seed=0)
    (ma, xa), (mb, _) = a(x), b(x)
    assert ma.shape == (2, 1) and xa.shape == (2, 1)
    np.testing.assert_array_equal(ma.asnumpy(), mb.asnumpy())
    assert not np.allclose(ma.asnumpy(), xa.asnumpy())


def test_q1_accepts_the_reference():
    assert nb04.q1.check(*nb04.q1.reference()) == Outcome.CORRECT


def test_q1_not_attempted():
    assert nb04.q1.check(____) == Outcome.NOT_ATTEMPTED

    class TwoHeadWithLoss(nn.WithLossCell):
        def __init__(self, backbone, loss_fn, aux_weight=0.4):
            ____

        def construct(self, data, label):
            return ____

    assert nb04.q1.check(TwoHeadWithLoss) == Outcome.NOT_ATTEMPTED


_SERIAL = itertools.count()


def _own_name(cls):
    """Give a class the factories made a name of its own. Seen twice in GRAPH_MODE (full fast runs, never alone):
    a check failed with "NameError: The name 'clip' (or 'nn') is not defined, or not supported in graph mode",
    'clip' being an attribute of clip_answer's instances: MindSpore's graph parser labels an instance's namespace
    by module, class name and id(), so an instance of another class named Answer at a reused address could stand
    in for it. A hypothesis: it did not reproduce on demand."""
    cls.__name__ = cls.__qualname__ = f"{cls.__name__}{next(_SERIAL)}"
    return cls


def two_head_answer(combine="right", init="parent", base=nn.WithLossCell, default=0.4):
    """A TwoHeadWithLoss with one typical slip: how __init__ starts, how the two losses combine, the default."""

    class Answer(base):
        def __init__(self, backbone, loss_fn, aux_weight=default):
            if init == "parent":
                super().__init__(backbone, loss_fn)
            elif init == "cell_only":
                nn.Cell.__init__(self)            # skips WithLossCell.__init__: no self._backbone
            if init != "parent":
                self.net = backbone               # without any Cell.__init__ this line fails
            self.aux_weight = aux_weight
            self.combine = combine

        def construct(self, data, label):
            main, aux = self._backbone(data)
            main_loss, aux_loss = self._loss_fn(main, label), self._loss_fn(aux, label)
            if self.combine == "main_only":
                return main_loss
            if self.combine == "weight_on_main":
                return self.aux_weight * main_loss + aux_loss
            if self.combine == "unweighted":
                return main_loss + aux_loss
            if self.combine == "tuple":
                return main_loss + self.aux_weight * aux_loss, main
            return main_loss + self.aux_weight * aux_loss

    return _own_name(Answer)


@PYNATIVE_FAST_GRAPH_SLOW   # the mode test_rejects_typical_mistakes runs the variants in
def test_q1_variant_factory_builds_a_correct_answer_by_default(ms_mode):
    assert nb04.q1.check(two_head_answer()) == Outcome.CORRECT


# ---- q2: clipping in a TrainOneStepCell -------------------------------------------------------------

def test_q2_accepts_the_reference():
    assert nb04.q2.check(*nb04.q2.reference()) == Outcome.CORRECT


def test_q2_inputs_make_both_clip_values_matter(pynative):
    ref = nb04.q2.reference()[0]
    for clip in (0.05, None):
        *_, grads, _ = nb04.q2._one_step(ref, clip)
        c = 1.0 if clip is None else clip
        flat = np.concatenate([g.ravel() for g in grads])
        assert np.any(np.abs(flat) > c) and np.any(np.abs(flat) < c)


def clip_answer(clip="value", update=True, returns="loss", default=1.0, unscale="first", sens=True):
    """A ClipValueTrainStep with one typical slip: which clipping, whether and when it unscales (``unscale``:
    "first", "after" the clipping, or "never"), whether it passes the scale as ``sens``, whether it updates, what it
    returns."""

    class Answer(nn.TrainOneStepCell):
        def __init__(self, network, optimizer, clip_value=default, loss_scale=1.0):
            super().__init__(network, optimizer, sens=loss_scale if sens else None)
            self.clip_value, self.loss_scale = clip_value, loss_scale
            self.clip, self.update, self.returns, self.unscale = clip, update, returns, unscale

        def construct(self, *inputs):
            loss = self.network(*inputs)
            grads = self.grad(self.network, self.weights)(*inputs, ops.fill(loss.dtype, loss.shape, self.sens))
            if self.unscale == "first":
                grads = tuple(g / self.loss_scale for g in grads)
            if self.clip == "value":
                grads = ops.clip_by_value(grads, -self.clip_value, self.clip_value)
            elif self.clip == "global":
                grads = ops.clip_by_global_norm(grads, self.clip_value)
            if self.unscale == "after":
                grads = tuple(g / self.loss_scale for g in grads)
            if self.update:
                loss = ops.depend(loss, self.optimizer(grads))
            if self.returns == "grads":
                return loss, grads
            return loss

    return _own_name(Answer)


class NoClipValueArgument(nn.TrainOneStepCell):
    """Inherits __init__(network, optimizer, sens=None, return_grad=False): no clip_value."""


class NoLossScaleArgument(nn.TrainOneStepCell):
    """The exercise's first version: clip_value, but no loss_scale."""

    def __init__(self, network, optimizer, clip_value=1.0):
        super().__init__(network, optimizer)
        self.clip_value = clip_value

    def construct(self, *inputs):
        loss = self.network(*inputs)
        grads = ops.clip_by_value(self.grad_no_sens(self.network, self.weights)(*inputs), -self.clip_value,
                                  self.clip_value)
        return ops.depend(loss, self.optimizer(grads))


@PYNATIVE_FAST_GRAPH_SLOW   # the mode test_rejects_typical_mistakes runs the variants in
def test_q2_variant_factory_builds_a_correct_answer_by_default(ms_mode):
    assert nb04.q2.check(clip_answer()) == Outcome.CORRECT


def test_q2_not_attempted():
    class ClipValueTrainStep(nn.TrainOneStepCell):      # the notebook's skeleton
        def __init__(self, network, optimizer, clip_value=1.0, loss_scale=1.0):
            ____

        def construct(self, *inputs):
            return ____

    assert nb04.q2.check(ClipValueTrainStep) == Outcome.NOT_ATTEMPTED


# ---- q3: early stopping on a recorded curve ---------------------------------------------------------

def test_q3_accepts_the_reference_and_agrees_with_course_utils():
    from course_utils.callbacks import stopping_point

    assert nb04.q3.check(*nb04.q3.reference()) == Outcome.CORRECT
    fn = nb04.q3.reference()[0]
    rng = np.random.default_rng(0)
    for _ in range(50):
        curve = list((1 + np.cumsum(rng.normal(0, 0.05, 20))).round(2))
        patience, min_delta = int(rng.integers(1, 5)), float(rng.choice([0.0, 0.02]))
        assert fn(curve, patience, min_delta) == stopping_point(curve, patience, min_delta)
        assert fn(curve, patience, min_delta, mode="max") == stopping_point(curve, patience, min_delta, mode="max")


def early_stop_answer(start=1, ties_improve=False, use_min_delta=True, wait_more=False, reset=True, use_mode=True):
    """An early_stopping_epochs with one typical slip."""

    def answer(values, patience, min_delta=0.0, mode="min"):
        best, best_epoch, wait = float("inf"), None, 0
        sign = -1.0 if (mode == "max" and use_mode) else 1.0
        for epoch, value in enumerate((sign * v for v in values), start=start):
            threshold = best - (min_delta if use_min_delta else 0.0)
            if (value <= threshold) if ties_improve else (value < threshold):
                best, best_epoch = value, epoch
                wait = 0 if reset else wait
                continue
            wait += 1
            if (wait > patience) if wait_more else (wait >= patience):
                return best_epoch, epoch
        return best_epoch, None

    return answer


def test_q3_variant_factory_builds_a_correct_answer_by_default():
    assert nb04.q3.check(early_stop_answer()) == Outcome.CORRECT


def test_q3_not_attempted():
    assert nb04.q3.check(____) == Outcome.NOT_ATTEMPTED

    def early_stopping_epochs(values, patience, min_delta=0.0, mode="min"):
        return ____

    assert nb04.q3.check(early_stopping_epochs) == Outcome.NOT_ATTEMPTED


# ---- q4: a callback that stops on a NaN or infinite loss -------------------------------------------

def test_q4_accepts_the_reference():
    assert nb04.q4.check(*nb04.q4.reference()) == Outcome.CORRECT


def test_q4_datasets_give_the_losses_the_check_expects(pynative):
    for bad, kind, test in ((3, "nan", np.isnan), (2, "inf", np.isinf)):
        net, loss_net = nb04.ClipValue._net(seed=7)
        losses = [float(loss_net(x, y).asnumpy()) for x, y in nb04._q4_dataset(bad, kind).create_tuple_iterator()]
        assert [i + 1 for i, v in enumerate(losses) if not np.isfinite(v)] == [bad] and test(losses[bad - 1])


def test_q4_not_attempted():
    assert nb04.q4.check(____) == Outcome.NOT_ATTEMPTED

    class StopOnNaN(Callback):                          # the notebook's skeleton
        def on_train_step_end(self, run_context):
            if ____:
                ____

    assert nb04.q4.check(StopOnNaN) == Outcome.NOT_ATTEMPTED


def stop_answer(test="finite", hook="step", action="request"):
    """A StopOnNaN with one typical slip: which test, which hook, how it stops."""

    class Answer(Callback):
        def _look(self, run_context):
            value = run_context.original_args().net_outputs.asnumpy()
            bad = np.isnan(value).any() if test == "nan" else (not np.isfinite(value).all())
            if bad or test == "always":
                if action == "raise":
                    raise StopIteration("non-finite loss")
                run_context.request_stop()

        def on_train_step_end(self, run_context):
            if hook == "step":
                self._look(run_context)

        def on_train_epoch_end(self, run_context):
            if hook == "epoch":
                self._look(run_context)

    return Answer


def test_q4_variant_factory_builds_a_correct_answer_by_default():
    assert nb04.q4.check(stop_answer()) == Outcome.CORRECT


def test_solutions_show_the_reference_code():
    assert nb04.q1.solution_text.startswith("class TwoHeadWithLoss(nn.WithLossCell):")
    assert "ops.clip_by_value" in nb04.q2.solution_text
    assert nb04.q3.solution_text.startswith('def early_stopping_epochs(values, patience, min_delta=0.0, mode="min"):')
    assert nb04.q4.solution_text.startswith("class StopOnNaN(Callback):") and "request_stop()" in nb04.q4.solution_text


#: The typical wrong answers, by name: (question, answer); their messages in English are in ``ENGLISH`` here, in
#: Chinese in tests/lessons/test_i18n_nb04.py.
MISTAKES = {
    "q1-no-init": ("q1", two_head_answer(init="none")),
    "q1-cell-init-only": ("q1", two_head_answer(init="cell_only")),
    "q1-main-only": ("q1", two_head_answer(combine="main_only")),
    "q1-weight-on-main": ("q1", two_head_answer(combine="weight_on_main")),
    "q1-unweighted": ("q1", two_head_answer(combine="unweighted")),
    "q1-tuple": ("q1", two_head_answer(combine="tuple")),
    "q1-default-1.0": ("q1", two_head_answer(default=1.0)),
    "q1-cell-base": ("q1", two_head_answer(base=nn.Cell, init="cell_only")),
    "q1-not-a-class": ("q1", lambda backbone, loss_fn, aux_weight=0.4: None),
    "q2-unclipped": ("q2", clip_answer(clip="none")),
    "q2-global-norm": ("q2", clip_answer(clip="global")),
    "q2-no-update": ("q2", clip_answer(update=False)),
    "q2-returns-grads": ("q2", clip_answer(returns="grads")),
    "q2-default-0.5": ("q2", clip_answer(default=0.5)),
    "q2-no-clip-value-argument": ("q2", NoClipValueArgument),
    "q2-no-loss-scale-argument": ("q2", NoLossScaleArgument),
    "q2-clips-before-unscaling": ("q2", clip_answer(unscale="after")),
    "q2-never-unscales": ("q2", clip_answer(unscale="never")),
    "q2-no-sens": ("q2", clip_answer(sens=False)),
    "q2-two-head-class": ("q2", two_head_answer()),
    "q3-from-0": ("q3", early_stop_answer(start=0)),
    "q3-tie-improves": ("q3", early_stop_answer(ties_improve=True)),
    "q3-no-min-delta": ("q3", early_stop_answer(use_min_delta=False)),
    "q3-waits-more": ("q3", early_stop_answer(wait_more=True)),
    "q3-no-reset": ("q3", early_stop_answer(reset=False)),
    "q3-not-a-pair": ("q3", lambda values, patience, min_delta=0.0, mode="min": 5),
    "q3-ignores-mode": ("q3", early_stop_answer(use_mode=False)),
    "q3-no-mode-argument": ("q3", lambda values, patience, min_delta=0.0: early_stop_answer()(values, patience,
                                                                                            min_delta)),
    "q4-nan-only": ("q4", stop_answer(test="nan")),
    "q4-epoch-end": ("q4", stop_answer(hook="epoch")),
    "q4-raises": ("q4", stop_answer(action="raise")),
    "q4-always": ("q4", stop_answer(test="always")),
    "q4-never": ("q4", Callback),
    "q4-not-a-callback": ("q4", two_head_answer()),
}

#: A fragment of each wrong answer's message.
ENGLISH = {
    "q1-no-init": "ForgotSuperInit",
    "q1-cell-init-only": "is not the network passed in",
    "q1-main-only": "main head's loss alone",
    "q1-weight-on-main": "aux_weight times the main loss",
    "q1-unweighted": "main + aux with weight 1",
    "q1-tuple": "returned a tuple of 2 values",
    "q1-default-1.0": "default 0.4",
    "q1-cell-base": "should derive from nn.WithLossCell",
    "q1-not-a-class": "should be a class",
    "q2-unclipped": "the unclipped gradients",
    "q2-global-norm": "clipped by their global norm",
    "q2-no-update": "the weights did not change",
    "q2-returns-grads": "returned a tuple of 2 values",
    "q2-default-0.5": "the clipping bound should be 1.0",
    "q2-no-clip-value-argument": "failed with TypeError",
    "q2-no-loss-scale-argument": "failed with TypeError",
    "q2-clips-before-unscaling": "divide first, then clip",
    "q2-never-unscales": "divide them by loss_scale before clipping",
    "q2-no-sens": "pass sens=loss_scale",
    "q2-two-head-class": "should derive from nn.TrainOneStepCell",
    "q3-from-0": "one less than expected",
    "q3-tie-improves": "a tie (equal value) is not an improvement",
    "q3-no-min-delta": "min_delta",
    "q3-waits-more": "expected (best_epoch, stop_epoch) = (3, 6)",
    "q3-no-reset": "an improvement resets the count",
    "q3-not-a-pair": "return a pair (best_epoch, stop_epoch)",
    "q3-ignores-mode": "That is the answer for mode='min'",
    "q3-no-mode-argument": "min_delta=0.0, mode=\"min\")",
    "q4-nan-only": "test np.isfinite",
    "q4-epoch-end": "not in on_train_epoch_end",
    "q4-raises": "call run_context.request_stop() instead",
    "q4-always": "stop only on a NaN or infinite loss",
    "q4-never": "It never stopped",
    "q4-not-a-callback": "should derive from mindspore.train.Callback",
}


@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("name", MISTAKES)
def test_rejects_typical_mistakes(ms_mode, name):
    q, answer = MISTAKES[name]
    result = getattr(nb04, q).check(answer)
    assert result == Outcome.INCORRECT, result
    assert ENGLISH[name] in result.message, result.message
