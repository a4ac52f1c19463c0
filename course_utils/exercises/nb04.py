"""Exercises of notebook 04 (the Cell-based training step).

q1 ``TwoHeadWithLoss``: a ``WithLossCell`` subclass for a network with a main and an auxiliary head.
q2 ``ClipValueTrainStep``: a loss-scaled ``TrainOneStepCell`` subclass that unscales, then clips every gradient element.
q3 ``early_stopping_epochs``: patience-based early stopping on a recorded curve, a loss ("min") or an accuracy ("max").
q4 ``StopOnNaN``: a ``mindspore.train.Callback`` that stops ``Model.train`` at the first non-finite loss.

q1 and q2 run the learner's Cells in the current mode (GRAPH_MODE compiles a few small graphs) on
fixed weights and inputs and compare with values computed independently (NumPy, ``mindspore.grad``).
q3 compares with ``course_utils.callbacks.stopping_point`` on curves chosen to expose the usual
off-by-one, tie and ``min_delta`` slips. q4 runs ``Model.train`` with the learner's callback on small datasets
whose losses turn NaN or infinite at a known step. MindSpore is imported on first use, not with this module.

The end of the module is the lesson's one figure that needs more than a call (``plot_early_stopping``, section
7.2), kept here so the notebook shows the curves, not the matplotlib.

Why one module of ~580 lines: it is one lesson's exercises, like every ``nbNN.py``; each exercise keeps its
reference solution beside its check, which is what the module's length is made of.
"""

from __future__ import annotations

import functools
import inspect
import textwrap

import numpy as np

from course_utils.exercises import Exercise, Incorrect, describe, register, to_numpy
from course_utils.fmt import significant as _fmt
from course_utils.i18n import N_, tr
from course_utils.notebook import first_line

_DEFAULT_AUX_WEIGHT = 0.4   # the default the exercise asks for (the reference's signature says it too)


def _source(obj) -> str:
    """The source of a reference solution, as the learner would write it (what ``solution()`` shows)."""
    return textwrap.dedent(inspect.getsource(obj))


def _dense_init(rng, fan_in: int, fan_out: int):
    import mindspore as ms

    bound = 1.0 / np.sqrt(fan_in)
    weight = rng.uniform(-bound, bound, size=(fan_out, fan_in)).astype(np.float32)
    bias = rng.uniform(-bound, bound, size=(fan_out,)).astype(np.float32)
    return ms.Tensor(weight), ms.Tensor(bias)


@functools.lru_cache(maxsize=None)
def _two_head_net_class():
    from mindspore import nn

    class TwoHeadNet(nn.Cell):
        """Shared trunk (in_features -> hidden, ReLU), two heads: ``construct`` returns (main, aux).

        The auxiliary head predicts the same target; training it too helps the shared trunk learn
        (the idea of GoogLeNet's auxiliary classifiers). ``seed`` fixes the initial weights, without
        touching MindSpore's global seed.
        """

        def __init__(self, in_features: int = 10, hidden: int = 16, seed: int = 0):
            super().__init__()
            rng = np.random.default_rng(seed)
            w, b = _dense_init(rng, in_features, hidden)
            self.trunk = nn.SequentialCell(nn.Dense(in_features, hidden, weight_init=w, bias_init=b), nn.ReLU())
            w, b = _dense_init(rng, hidden, 1)
            self.main_head = nn.Dense(hidden, 1, weight_init=w, bias_init=b)
            w, b = _dense_init(rng, hidden, 1)
            self.aux_head = nn.Dense(hidden, 1, weight_init=w, bias_init=b)

        def construct(self, x):
            h = self.trunk(x)
            return self.main_head(h), self.aux_head(h)

    return TwoHeadNet


def __getattr__(name):
    # ``nb04.TwoHeadNet`` without importing MindSpore when the module is imported
    if name == "TwoHeadNet":
        return _two_head_net_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _inputs(n: int = 8, seed: int = 1, target_scale: float = 1.0):
    import mindspore as ms

    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 10)).astype(np.float32)
    y = (target_scale * rng.normal(size=(n, 1))).astype(np.float32)
    return ms.Tensor(x), ms.Tensor(y)


def _mse(pred, label) -> float:
    return float(np.mean((to_numpy(pred).astype(np.float64) - to_numpy(label).astype(np.float64)) ** 2))


def _require_subclass(cls, name: str, base, base_name: str, why: str) -> None:
    if not isinstance(cls, type):
        raise Incorrect(tr("`{name}` should be a class (class {name}({base_name}): ...), got {got}.",
                           name=name, base_name=base_name, got=describe(cls)))
    if not issubclass(cls, base):
        raise Incorrect(tr("{name} should derive from {base_name}: {why}.", name=name, base_name=base_name,
                           why=tr(why)))


def _as_loss(out, label: str):
    """The learner's Cell output as a float, or Incorrect explaining why it is not a scalar loss."""
    if isinstance(out, (tuple, list)):
        raise Incorrect(tr("{label} returned a {kind} of {n} values; expected one scalar tensor, the loss.",
                           label=label, kind=type(out).__name__, n=len(out)))
    try:
        arr = to_numpy(out)
    except Exception:
        raise Incorrect(tr("{label} returned {value} ({kind}); return a MindSpore tensor.", label=label,
                           value=repr(out), kind=type(out).__name__)) from None
    if arr.shape != ():
        raise Incorrect(tr("{label} returned shape {shape}; expected a scalar loss (shape ()).", label=label,
                           shape=arr.shape))
    return float(arr)


class _FromReference(Exercise):
    """An exercise whose ``solution()`` shows the reference's own source, so the two cannot drift apart."""

    def _solution(self):  # pragma: no cover - abstract
        raise NotImplementedError

    @property
    def solution_text(self):
        return _source(self._solution())

    def reference(self):
        return (self._solution(),)


# ----------------------------------------------------------------------------------------------
# q1: WithLossCell for a two-output network
# ----------------------------------------------------------------------------------------------

class TwoHeadLoss(_FromReference):
    names = ("TwoHeadWithLoss",)
    title = "WithLossCell for two outputs"
    hint_text = (
        "Subclass nn.WithLossCell. In __init__(self, backbone, loss_fn, aux_weight=0.4) call "
        "super().__init__(backbone, loss_fn) first (it sets up the Cell and stores self._backbone and "
        "self._loss_fn), then keep aux_weight. In construct(self, data, label): main, aux = "
        "self._backbone(data); return self._loss_fn(main, label) + self.aux_weight * self._loss_fn(aux, label).")

    def _solution(self):
        return _two_head_with_loss_solution()

    def _build(self, cls, net, loss_fn, **kwargs):
        args = "TwoHeadNet(), nn.MSELoss()" + "".join(f", {k}={v}" for k, v in kwargs.items())
        try:
            return self.call(cls, net, loss_fn, **kwargs)
        except AttributeError as exc:
            msg = first_line(exc)
            if "_auto_prefix" in msg or "_cells" in msg or "_params" in msg:
                raise Incorrect(tr("TwoHeadWithLoss({args}) failed: {msg} (the error of section 3's "
                                   "ForgotSuperInit).", args=args, msg=msg)) from None
            raise
        except TypeError as exc:
            raise Incorrect(tr("TwoHeadWithLoss({args}) failed with TypeError: {msg}.", args=args,
                               msg=first_line(exc))) from None

    def _check(self, cls):
        from mindspore import nn

        _require_subclass(cls, "TwoHeadWithLoss", nn.WithLossCell, "nn.WithLossCell",
                          N_("it stores the backbone and the loss, and Model/TrainOneStepCell know how to use it"))
        TwoHeadNet = _two_head_net_class()
        x, y = _inputs()
        net = TwoHeadNet(seed=0)
        main, aux = (to_numpy(t) for t in net(x))
        main_loss, aux_loss = _mse(main, y), _mse(aux, y)

        cell = self._build(cls, net, nn.MSELoss(), aux_weight=0.4)
        if getattr(cell, "_backbone", None) is not net or cell.backbone_network is not net:
            raise Incorrect(tr("TwoHeadWithLoss(net, ...).backbone_network is not the network passed in; "
                               "expected the same object."))
        expected_names = sorted(p.name for p in net.trainable_params())
        got_names = sorted(p.name for p in cell.trainable_params())
        if got_names != expected_names:
            raise Incorrect(tr("the loss cell's trainable parameters: expected exactly the network's "
                               "{expected}, got {got}.", expected=expected_names, got=got_names))

        for weight in (0.4, 0.0, 1.5):
            cell = self._build(cls, net, nn.MSELoss(), aux_weight=weight)
            label = f"TwoHeadWithLoss(net, nn.MSELoss(), aux_weight={weight})(x, y)"
            got = _as_loss(cell(x, y), label)
            expected = main_loss + weight * aux_loss
            if np.isclose(got, expected, rtol=1e-5, atol=1e-6):
                continue
            hint = ""
            if np.isclose(got, main_loss, rtol=1e-5):
                hint = tr(" (That is the main head's loss alone.)")
            elif np.isclose(got, main_loss + aux_loss, rtol=1e-5):
                hint = tr(" (That is main + aux with weight 1.)")
            elif np.isclose(got, weight * main_loss + aux_loss, rtol=1e-5):
                hint = tr(" (That is aux_weight times the main loss, plus the aux loss.)")
            raise Incorrect(tr("{label}: expected main loss {main} + {weight} * aux loss {aux} = {expected}, "
                               "got {got}.{hint}", label=label, main=_fmt(main_loss), weight=weight,
                               aux=_fmt(aux_loss), expected=_fmt(expected), got=_fmt(got), hint=hint))

        default = self._build(cls, net, nn.MSELoss())
        got = _as_loss(default(x, y), "TwoHeadWithLoss(net, nn.MSELoss())(x, y)")
        expected = main_loss + _DEFAULT_AUX_WEIGHT * aux_loss
        if not np.isclose(got, expected, rtol=1e-5, atol=1e-6):
            raise Incorrect(tr("without aux_weight the loss should use the default 0.4: expected {expected}, "
                               "got {got}.", expected=_fmt(expected), got=_fmt(got)))

        # It must train: one TrainOneStepCell step moves both heads and lowers the loss.
        train_net = TwoHeadNet(seed=0)
        step = nn.TrainOneStepCell(self._build(cls, train_net, nn.MSELoss(), aux_weight=0.4),
                                   nn.SGD(train_net.trainable_params(), learning_rate=0.1))
        step.set_train()
        before = {p.name: p.asnumpy().copy() for p in train_net.trainable_params()}
        first = _as_loss(step(x, y), "nn.TrainOneStepCell(TwoHeadWithLoss(...), optimizer)(x, y)")
        moved = {name for name, value in before.items()
                 if not np.allclose(value, train_net.parameters_dict()[name].asnumpy())}
        if not any(n.startswith("aux_head") for n in moved):
            raise Incorrect(tr("one training step left the auxiliary head unchanged: its output does not reach "
                               "the loss."))
        second = _as_loss(step(x, y), tr("the second training step"))
        if not second < first:
            raise Incorrect(tr("training with your loss cell did not lower the loss ({first} -> {second}).",
                               first=_fmt(first), second=_fmt(second)))


@functools.lru_cache(maxsize=None)
def _two_head_with_loss_solution():
    from mindspore import nn

    class TwoHeadWithLoss(nn.WithLossCell):
        def __init__(self, backbone, loss_fn, aux_weight=0.4):
            super().__init__(backbone, loss_fn)      # Cell set-up, self._backbone, self._loss_fn
            self.aux_weight = aux_weight

        def construct(self, data, label):
            main, aux = self._backbone(data)
            return self._loss_fn(main, label) + self.aux_weight * self._loss_fn(aux, label)

    return TwoHeadWithLoss


# ----------------------------------------------------------------------------------------------
# q2: clipping inside a TrainOneStepCell subclass
# ----------------------------------------------------------------------------------------------

_Q2_LOSS_SCALE = 1024.0   # a power of two, as loss scales are: dividing by it is exact


class ClipValue(_FromReference):
    names = ("ClipValueTrainStep",)
    title = "clip gradient values in a TrainOneStepCell"
    hint_text = (
        "Subclass nn.TrainOneStepCell: __init__ calls super().__init__(network, optimizer, sens=loss_scale) and keeps "
        "clip_value and loss_scale. construct(self, *inputs) starts like the parent's (loss, sens = ops.fill(...), "
        "grads = self.grad(self.network, self.weights)(*inputs, sens)); those gradients are loss_scale times the real "
        "ones: divide each by self.loss_scale first, then grads = ops.clip_by_value(grads, -self.clip_value, "
        "self.clip_value); finally loss = ops.depend(loss, self.optimizer(grads)); return loss.")

    def _solution(self):
        return _clip_value_solution()

    @staticmethod
    def _net(seed: int):
        from mindspore import nn

        from course_utils.models import SimpleNet

        net = SimpleNet()
        rng = np.random.default_rng(seed)
        for cell, (fan_in, fan_out) in ((net.fc1, (10, 32)), (net.fc2, (32, 1))):
            w, b = _dense_init(rng, fan_in, fan_out)
            cell.weight.set_data(w)   # fresh net, no step compiled yet: set_data is safe here
            cell.bias.set_data(b)
        return net, nn.WithLossCell(net, nn.MSELoss())

    def _one_step(self, cls, clip_value, lr=0.1, loss_scale=None):
        """Run one step of the learner's cell; return (args, loss, loss before, update per parameter, raw gradients,
        parameter names). ``None`` leaves an argument out (its default applies)."""
        import mindspore as ms
        from mindspore import nn

        x, y = _inputs(n=16, seed=2, target_scale=6.0)   # large targets -> gradient entries above 1
        ref_net, ref_loss_net = self._net(seed=5)
        grads = ms.grad(ref_loss_net, grad_position=None, weights=ref_net.trainable_params())(x, y)
        grads = [to_numpy(g).astype(np.float64) for g in grads]
        loss_before = float(to_numpy(ref_loss_net(x, y)))

        net, loss_net = self._net(seed=5)
        opt = nn.SGD(net.trainable_params(), learning_rate=lr)
        kwargs = {k: v for k, v in (("clip_value", clip_value), ("loss_scale", loss_scale)) if v is not None}
        args = "(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1)" + "".join(
            f", {k}={v:g}" for k, v in kwargs.items()) + ")"
        try:
            step = self.call(cls, loss_net, opt, **kwargs)
        except TypeError as exc:
            raise Incorrect(tr("ClipValueTrainStep{args} failed with TypeError: {msg}. The class takes "
                               "(network, optimizer, clip_value=1.0, loss_scale=1.0).", args=args,
                               msg=first_line(exc))) from None
        if loss_scale is not None and not np.isclose(float(getattr(step, "sens", 1.0)), loss_scale):
            raise Incorrect(tr("ClipValueTrainStep{args}.sens is {got}; expected {scale}: pass sens=loss_scale to "
                               "nn.TrainOneStepCell.__init__, so that backpropagation starts from the loss scale.",
                               args=args, got=getattr(step, "sens", None), scale=f"{loss_scale:g}"))
        step.set_train()
        before = [p.asnumpy().astype(np.float64) for p in net.trainable_params()]
        loss = _as_loss(step(x, y), f"ClipValueTrainStep{args}(x, y)")
        after = [p.asnumpy().astype(np.float64) for p in net.trainable_params()]
        updates = [a - b for a, b in zip(after, before)]
        return args, loss, loss_before, updates, grads, [p.name for p in net.trainable_params()]

    def _check(self, cls):
        from mindspore import nn

        _require_subclass(cls, "ClipValueTrainStep", nn.TrainOneStepCell, "nn.TrainOneStepCell",
                          N_("reuse its self.network, self.weights, self.optimizer and gradient operations"))
        lr = 0.1
        for clip_value, loss_scale in ((0.05, None), (None, None), (0.05, _Q2_LOSS_SCALE)):
            c = 1.0 if clip_value is None else clip_value
            args, loss, loss_before, updates, grads, names = self._one_step(cls, clip_value, lr, loss_scale)
            if not np.isclose(loss, loss_before, rtol=1e-5, atol=1e-6):
                raise Incorrect(tr("ClipValueTrainStep{args}(x, y) returned {got}; expected the loss before the "
                                   "update, {expected}, as TrainOneStepCell does.", args=args, got=_fmt(loss),
                                   expected=_fmt(loss_before)))
            if all(np.allclose(u, 0.0) for u in updates):
                raise Incorrect(tr("after ClipValueTrainStep{args}(x, y) the weights did not change; expected "
                                   "an SGD update with the clipped gradients.", args=args))
            expected = [-lr * np.clip(g, -c, c) for g in grads]
            if all(np.allclose(u, e, rtol=1e-4, atol=1e-7) for u, e in zip(updates, expected)):
                continue
            hint = ""
            s = loss_scale or 1.0
            if s != 1.0 and all(np.allclose(u, -lr * np.clip(s * g, -c, c) / s, rtol=1e-4, atol=1e-7)
                                for u, g in zip(updates, grads)):
                hint = tr(" (That is the update with gradients clipped while still scaled, then divided by the "
                          "scale: divide first, then clip.)")
            elif s != 1.0 and all(np.allclose(u, -lr * np.clip(s * g, -c, c), rtol=1e-4, atol=1e-7)
                                  for u, g in zip(updates, grads)):
                hint = tr(" (That is the update with the scaled gradients: divide them by loss_scale before "
                          "clipping.)")
            elif all(np.allclose(u, -lr * g, rtol=1e-4, atol=1e-7) for u, g in zip(updates, grads)):
                hint = tr(" (That is the update with the unclipped gradients.)")
            else:
                total = np.sqrt(sum(np.sum(g ** 2) for g in grads))
                scaled = [-lr * g * min(1.0, c / total) for g in grads]
                if all(np.allclose(u, s, rtol=1e-4, atol=1e-7) for u, s in zip(updates, scaled)):
                    hint = tr(" (That is the update with the gradients clipped by their global norm.)")
                elif clip_value is None:
                    hint = tr(" (Without a clip_value argument the clipping bound should be 1.0.)")
            worst = int(np.argmax([np.max(np.abs(u - e)) for u, e in zip(updates, expected)]))
            raise Incorrect(tr("after ClipValueTrainStep{args}(x, y), parameter {name} moved by {got}; expected "
                               "-lr * clip(gradient, {low}, {high}) = {expected}.{hint}", args=args,
                               name=names[worst], got=describe(updates[worst].astype(np.float32)), low=-c, high=c,
                               expected=describe(expected[worst].astype(np.float32)), hint=hint))


@functools.lru_cache(maxsize=None)
def _clip_value_solution():
    from mindspore import nn, ops

    class ClipValueTrainStep(nn.TrainOneStepCell):
        def __init__(self, network, optimizer, clip_value=1.0, loss_scale=1.0):
            super().__init__(network, optimizer, sens=loss_scale)   # backprop starts from the loss scale
            self.clip_value = clip_value
            self.loss_scale = loss_scale

        def construct(self, *inputs):
            loss = self.network(*inputs)
            sens = ops.fill(loss.dtype, loss.shape, self.sens)
            grads = self.grad(self.network, self.weights)(*inputs, sens)   # gradients * loss_scale
            grads = self.grad_reducer(grads)      # identity unless data parallel
            grads = tuple(g / self.loss_scale for g in grads)            # unscale first ...
            grads = ops.clip_by_value(grads, -self.clip_value, self.clip_value)   # ... then clip the real gradients
            loss = ops.depend(loss, self.optimizer(grads))
            return loss

    return ClipValueTrainStep


# ----------------------------------------------------------------------------------------------
# q3: early stopping on a recorded curve
# ----------------------------------------------------------------------------------------------

#: (curve, patience, min_delta, mode, what the case is about)
_CURVES = [
    ([1.0, 0.8, 0.7, 0.72, 0.75, 0.71, 0.9], 3, 0.0, "min", N_("a typical U-shaped validation curve")),
    ([1.0, 0.8, 0.7, 0.72, 0.69, 0.71, 0.73, 0.74], 2, 0.0, "min", N_("an improvement resets the count")),
    ([1.0, 0.9, 0.9, 0.9, 0.8], 2, 0.0, "min", N_("a tie (equal value) is not an improvement")),
    ([1.0, 0.8, 0.6, 0.5, 0.45, 0.44], 2, 0.0, "min", N_("a curve that keeps improving: never stops")),
    ([1.0, 0.95, 0.93, 0.5], 2, 0.1, "min", N_("min_delta: 0.95 and 0.93 are not better than 1.0 by more than 0.1")),
    ([0.5, 0.6, 0.7], 1, 0.0, "min", N_("patience=1: stop at the first epoch without improvement")),
    ([0.6, 0.72, 0.8, 0.79, 0.81, 0.8, 0.78, 0.77], 2, 0.0, "max",
     N_("an accuracy curve, mode='max': higher is better")),
    ([0.5, 0.55, 0.56, 0.7, 0.7, 0.69], 2, 0.02, "max",
     N_("mode='max' with min_delta: an epoch improves when it is above best + min_delta; a tie does not")),
]


def early_stopping_epochs(values, patience, min_delta=0.0, mode="min"):
    sign = 1.0 if mode == "min" else -1.0      # "max": compare -accuracy the way a loss is compared
    best, best_epoch, wait = float("inf"), None, 0
    for epoch, value in enumerate(values, start=1):
        if sign * value < best - min_delta:
            best, best_epoch, wait = sign * value, epoch, 0
        else:
            wait += 1
            if wait >= patience:
                return best_epoch, epoch
    return best_epoch, None


class EarlyStoppingCurve(_FromReference):
    names = ("early_stopping_epochs",)
    title = "early stopping on a recorded curve"
    hint_text = (
        "Walk through the curve with a best value and a counter. Epoch numbers start at 1. With mode='min' an "
        "epoch improves when value < best - min_delta, with mode='max' when value > best + min_delta (or: "
        "multiply the values by -1 and treat them like a loss). On an improvement best = value, best_epoch = "
        "epoch and the counter goes back to 0; otherwise the counter grows by one, and when it reaches "
        "patience, that epoch is where training stops. If the curve ends first, stop_epoch is None.")

    def _solution(self):
        return early_stopping_epochs

    def _check(self, fn):
        from course_utils.callbacks import stopping_point

        if not callable(fn):
            raise Incorrect(tr("`early_stopping_epochs` should be a function, got {got}.", got=describe(fn)))
        for curve, patience, min_delta, mode, about in _CURVES:
            expected = stopping_point(curve, patience=patience, min_delta=min_delta, mode=mode)
            kwargs = {k: v for k, v in (("min_delta", min_delta), ("mode", mode if mode == "max" else None)) if v}
            call = f"early_stopping_epochs({curve}, patience={patience}" + "".join(
                f", {k}={v!r}" for k, v in kwargs.items()) + ")"
            try:
                got = self.call(fn, list(curve), patience, **kwargs)
            except TypeError as exc:
                if "mode" not in kwargs:
                    raise
                raise Incorrect(tr("{call} failed with TypeError: {msg}. The function takes (values, patience, "
                                   "min_delta=0.0, mode=\"min\").", call=call, msg=first_line(exc))) from None
            if not (isinstance(got, (tuple, list)) and len(got) == 2):
                raise Incorrect(tr("{call} returned {got}; return a pair (best_epoch, stop_epoch).", call=call,
                                   got=repr(got)))
            got = tuple(got)
            if got == expected:
                continue
            if all(isinstance(v, (int, np.integer)) for v in got) and None not in expected and \
                    tuple(v + 1 for v in got) == expected:
                hint = tr(" (Each epoch number is one less than expected.)")
            elif mode == "max" and got == stopping_point(curve, patience=patience, min_delta=min_delta, mode="min"):
                hint = tr(" (That is the answer for mode='min': with mode='max' a higher value is better.)")
            else:
                hint = tr(" This case: {about}.", about=tr(about))
            raise Incorrect(tr("{call}: expected (best_epoch, stop_epoch) = {expected}, got {got}.{hint}",
                               call=call, expected=expected, got=got, hint=hint))


# ----------------------------------------------------------------------------------------------
# q4: a callback that stops Model.train on a NaN or infinite loss
# ----------------------------------------------------------------------------------------------

_Q4_BATCH, _Q4_BATCHES, _Q4_EPOCHS = 4, 4, 2


def _q4_dataset(bad_batch=None, kind="nan"):
    """Four batches of four samples; batch ``bad_batch`` (1-based) gets NaN targets (loss NaN) or huge ones (loss inf).

    NaN goes into the targets, not the inputs: ReLU maps a NaN input to 0 on CPU, and the loss stays finite."""
    import mindspore.dataset as ds

    rng = np.random.default_rng(3)
    x = rng.normal(size=(_Q4_BATCH * _Q4_BATCHES, 10)).astype(np.float32)
    y = rng.normal(size=(_Q4_BATCH * _Q4_BATCHES, 1)).astype(np.float32)
    if bad_batch is not None:
        rows = slice((bad_batch - 1) * _Q4_BATCH, bad_batch * _Q4_BATCH)
        if kind == "nan":
            y[rows] = np.nan
        else:
            y[rows] = 1e30          # (prediction - 1e30)^2 overflows float32: the loss is inf
    return ds.NumpySlicesDataset((x, y), column_names=["x", "y"], shuffle=False).batch(_Q4_BATCH)


class StopOnNaNCallback(_FromReference):
    names = ("StopOnNaN",)
    title = "a callback that stops on a NaN loss"
    hint_text = (
        "Subclass mindspore.train.Callback and define on_train_step_end(self, run_context). The step's loss is "
        "run_context.original_args().net_outputs (a tensor); when not np.isfinite(loss.asnumpy()).all() (NaN or "
        "inf), call run_context.request_stop(). Model.train checks the request right after every step, so do not "
        "raise: an exception escapes Model.train.")

    def _solution(self):
        return _stop_on_nan_solution()

    def _steps_run(self, cls, bad_batch, kind):
        """Model.train(2 epochs) with the learner's callback; return the losses of the steps that ran."""
        from mindspore import nn
        from mindspore.train import Callback, Model

        class _Recorder(Callback):
            def __init__(self):
                super().__init__()
                self.losses = []

            def on_train_step_end(self, run_context):
                self.losses.append(float(np.asarray(run_context.original_args().net_outputs.asnumpy())))

        net, _ = ClipValue._net(seed=7)
        recorder = _Recorder()
        callback = self.call(cls)
        model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), learning_rate=0.01))
        try:
            model.train(_Q4_EPOCHS, _q4_dataset(bad_batch, kind), callbacks=[callback, recorder],
                        dataset_sink_mode=False)
        except Exception as exc:   # the learner's callback raised: it escapes Model.train
            raise Incorrect(tr("Model.train raised {kind}: {msg}. An exception escapes Model.train, like section "
                               "7.1's StopIteration; call run_context.request_stop() instead.",
                               kind=type(exc).__name__, msg=first_line(exc))) from None
        return recorder.losses

    def _check(self, cls):
        from mindspore.train import Callback

        _require_subclass(cls, "StopOnNaN", Callback, "mindspore.train.Callback",
                          N_("Model.train calls the hooks of Callback objects"))
        total = _Q4_EPOCHS * _Q4_BATCHES
        losses = self._steps_run(cls, None, "nan")
        if len(losses) != total:
            raise Incorrect(tr("on a run whose losses are all finite, training stopped after step {got} of {total}; "
                               "stop only on a NaN or infinite loss.", got=len(losses), total=total))
        for bad, kind, what in ((3, "nan", N_("a NaN loss")), (2, "inf", N_("an infinite loss"))):
            losses = self._steps_run(cls, bad, kind)
            if len(losses) == bad:
                continue
            what = tr(what)
            if len(losses) < bad:
                hint = tr(" (It stopped on a finite loss.)")
            elif kind == "inf":        # the NaN case passed: only the inf loss slipped through
                hint = tr(" (The inf loss itself did not stop it: test np.isfinite, which is False for NaN and "
                          "for inf, not only np.isnan.)")
            elif len(losses) == total:
                hint = tr(" (It never stopped: call run_context.request_stop() when the loss is not finite.)")
            elif len(losses) == _Q4_BATCHES:
                hint = tr(" (That is the end of the epoch: check the loss in on_train_step_end, not in "
                          "on_train_epoch_end.)")
            else:
                hint = ""
            raise Incorrect(tr("step {bad} has {what}; expected training to stop right after it (steps run: {bad}), "
                               "but {got} of {total} steps ran.{hint}", bad=bad, what=what, got=len(losses),
                               total=total, hint=hint))


@functools.lru_cache(maxsize=None)
def _stop_on_nan_solution():
    from mindspore.train import Callback

    class StopOnNaN(Callback):
        def on_train_step_end(self, run_context):
            loss = run_context.original_args().net_outputs       # this step's loss (a tensor)
            if not np.isfinite(loss.asnumpy()).all():              # NaN or inf
                run_context.request_stop()                         # Model.train stops after this step

    return StopOnNaN



# ----------------------------------------------------------------------------------------------
# The lesson's figure (section 7.2)
# ----------------------------------------------------------------------------------------------

def plot_early_stopping(article_losses, article_stop_step, history, full_val, stopper) -> None:
    """Section 7.2's two panels. Left: the batch losses of the article's early-stopping step, with the step that
    raised ``StopIteration`` (``article_stop_step``; None if it never did). Right: the plain loop's per-epoch
    training and validation losses (``history``), the never-stopped run's validation losses (``full_val``, epoch 1
    first), and the ``EarlyStopper``'s best epoch and stopping epoch."""
    import matplotlib.pyplot as plt

    from course_utils.plots import figure_text, plot_curves

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 3.6))
    plot_curves({figure_text(N_("batch loss")): (np.arange(1, len(article_losses) + 1), article_losses)}, ax=ax1,
                logy=True, xlabel=figure_text(N_("step")), ylabel=figure_text(N_("training loss (batch)")),
                title=figure_text(N_("The article's rule stops here")))
    if article_stop_step is not None:
        ax1.axvline(article_stop_step, color="C3", linestyle="--",
                    label=figure_text(N_("StopIteration (step {step})"), step=article_stop_step))
        ax1.legend(fontsize="small")
    never = figure_text(N_("validation loss, never stopped"))
    epochs = history.epoch
    plot_curves({figure_text(N_("training loss (epoch mean)")): (epochs, history["loss"]),
                 figure_text(N_("validation loss")): (epochs, history["eval_loss"]),
                 never: (np.arange(1, len(full_val) + 1), full_val)},
                styles={never: {"color": "0.6", "linestyle": "--", "zorder": 1}}, ax=ax2, logy=True,
                xlabel=figure_text(N_("epoch")), ylabel="MSE",
                title=figure_text(N_("Patience {patience} on the validation loss"), patience=stopper.patience))
    ax2.axvline(stopper.best_epoch, color="C2", linestyle="--", linewidth=1,
                label=figure_text(N_("best epoch {epoch}"), epoch=stopper.best_epoch))
    if stopper.should_stop:
        ax2.axvline(stopper.stopped_epoch, color="C3", linestyle=":", linewidth=1,
                    label=figure_text(N_("stopped after {epoch}"), epoch=stopper.stopped_epoch))
    ax2.legend(fontsize="small")
    fig.tight_layout()
    plt.show()

q1 = TwoHeadLoss()
q2 = ClipValue()
q3 = EarlyStoppingCurve()
q4 = StopOnNaNCallback()
register(globals(), "04")
