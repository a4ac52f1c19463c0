"""Early stopping and training history, as plain classes plus a MindSpore callback.

Notebook 04 teaches these; later notebooks import them from here.

* ``EarlyStopper``: patience on a metric measured once per epoch (validation loss, accuracy...),
  with ``min_delta``, ``mode`` "min"/"max", the best epoch, and a snapshot of the best weights that
  ``restore()`` writes back. Plain Python: feed it numbers from any loop (hand-written, functional,
  ``Model``). Its decisions match ``mindspore.train.EarlyStopping`` for ``patience >= 1``.
* ``stopping_point(values, ...)``: the same rule applied to a recorded curve.
* ``History``: per-step losses and per-epoch metrics of one training run, for plots and records.
* ``HistoryCallback``: fills a ``History`` from ``mindspore.train.Model.train``/``fit``
  (per-step loss, per-epoch mean training loss, and ``eval_loss``/metrics when ``fit`` validates).

Restoring weights: ``EarlyStopper.restore`` (and ``restore_weights``) write values with ``Parameter.copy_`` (not
``ops.assign``, deprecated since 2.9). ``load_param_into_net``/``Parameter.set_data`` replace a parameter's storage;
a step that already ran (a ``@jit`` step in either mode, a PyNative ``TrainOneStepCell``, even a PyNative functional
step, whose optimizer is itself ``@jit``-compiled) keeps updating the old storage, so training silently stops
changing the visible weights; only a GRAPH_MODE ``TrainOneStepCell`` re-binds. Notebook 06 measures it ("the
weight-reload trap"). In-place assignment keeps both in sync.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from mindspore import Tensor
from mindspore.train import Callback

from course_utils.i18n import tr

_MODES = ("min", "max")


def _as_float(value) -> float:
    """A scalar loss/metric as a Python float (Tensor, NumPy scalar or 1-element array, number)."""
    if isinstance(value, (tuple, list)):
        # TrainOneStepWithLossScaleCell and friends return (loss, overflow, scale): loss first.
        if not value:
            raise ValueError(tr("Expected a loss value, got an empty sequence."))
        value = value[0]
    if isinstance(value, Tensor):
        value = value.asnumpy()
    arr = np.asarray(value, dtype=np.float64)
    if arr.size != 1:
        raise ValueError(tr("Expected a scalar loss or metric, got an array of shape {shape}.", shape=arr.shape))
    return float(arr.reshape(()))


# --------------------------------------------------------------------------------------------
# Weights: snapshot and in-place restore
# --------------------------------------------------------------------------------------------

def snapshot_weights(network) -> Dict[str, np.ndarray]:
    """Copies of every parameter of ``network`` (a Cell), keyed by parameter name."""
    if not hasattr(network, "parameters_and_names"):
        raise TypeError(tr("snapshot_weights needs a mindspore.nn.Cell, got {type}.", type=type(network).__name__))
    return {name: param.asnumpy().copy() for name, param in network.parameters_and_names()}


def restore_weights(network, snapshot: Dict[str, np.ndarray]) -> None:
    """Write ``snapshot`` (from ``snapshot_weights``) back into ``network``'s parameters, in place.

    Uses ``Parameter.copy_`` so that training steps already compiled for ``network`` (PyNative
    ``TrainOneStepCell``, ``@jit`` functions) keep updating the restored values (``ops.assign`` does the same
    but is deprecated since MindSpore 2.9; ``copy_`` behaves alike on 2.7.1 and 2.10).
    """
    params = dict(network.parameters_and_names())
    missing = sorted(set(snapshot) - set(params))
    if missing:
        raise KeyError(tr("The snapshot has parameters this network does not have: {names}. Restore into "
                          "the network the snapshot was taken from.",
                          names=f"{missing[:5]}{' ...' if len(missing) > 5 else ''}"))
    for name, value in snapshot.items():
        param = params[name]
        if tuple(param.shape) != tuple(value.shape):
            raise ValueError(tr("Parameter {name} has shape {shape} but the snapshot holds {stored}.",
                                name=repr(name), shape=tuple(param.shape), stored=tuple(value.shape)))
        param.copy_(Tensor(value, dtype=param.dtype))


# --------------------------------------------------------------------------------------------
# Early stopping
# --------------------------------------------------------------------------------------------

class EarlyStopper:
    """Stop when a per-epoch metric has not improved for ``patience`` epochs in a row.

    An epoch improves on the best so far when its value is lower than ``best - min_delta``
    (``mode="min"``, e.g. a loss) or higher than ``best + min_delta`` (``mode="max"``, e.g. an
    accuracy). A tie is not an improvement; neither is NaN. After ``patience`` epochs without
    improvement ``update()`` returns True (and keeps returning True).

    Usage in any loop::

        stopper = EarlyStopper(patience=3)
        for epoch in range(1, epochs + 1):
            train_one_epoch()
            if stopper.update(evaluate(), network=net):   # snapshots net on improvement
                break
        stopper.restore(net)                               # best weights back, in place
    """

    def __init__(self, patience: int = 3, min_delta: float = 0.0, mode: str = "min"):
        if isinstance(patience, bool) or not isinstance(patience, (int, np.integer)) or patience < 1:
            raise ValueError(tr("patience must be an integer >= 1 (epochs without improvement to wait), "
                                "got {value}.", value=repr(patience)))
        if not isinstance(min_delta, (int, float, np.floating, np.integer)) or not math.isfinite(min_delta) \
                or min_delta < 0:
            raise ValueError(tr("min_delta must be a finite number >= 0, got {value}.", value=repr(min_delta)))
        if mode not in _MODES:
            raise ValueError(tr("mode must be 'min' (lower is better, e.g. a loss) or 'max' (higher is better, "
                                "e.g. accuracy), got {value}.", value=repr(mode)))
        self.patience = int(patience)
        self.min_delta = float(min_delta)
        self.mode = mode
        self.reset()

    def reset(self) -> None:
        """Forget everything (start a new run)."""
        self.values: List[float] = []
        self.epochs: List[int] = []
        self.best: float = math.inf if self.mode == "min" else -math.inf
        self.best_epoch: Optional[int] = None
        self.wait = 0
        self.stopped_epoch: Optional[int] = None
        self.best_weights: Optional[Dict[str, np.ndarray]] = None

    @property
    def should_stop(self) -> bool:
        return self.stopped_epoch is not None

    def is_improvement(self, value: float) -> bool:
        """Would ``value`` count as a new best?"""
        if math.isnan(value):
            return False
        if self.mode == "min":
            return value < self.best - self.min_delta
        return value > self.best + self.min_delta

    def update(self, value, epoch: Optional[int] = None, network=None) -> bool:
        """Record one epoch's metric; return True when training should stop.

        ``epoch`` defaults to 1, 2, 3...; pass ``network`` (a Cell) to keep a copy of its weights
        whenever the metric improves (for ``restore``).
        """
        value = _as_float(value)
        if epoch is None:
            epoch = (self.epochs[-1] + 1) if self.epochs else 1
        if self.should_stop:
            return True
        self.values.append(value)
        self.epochs.append(int(epoch))
        if self.is_improvement(value):
            self.best = value
            self.best_epoch = int(epoch)
            self.wait = 0
            if network is not None:
                self.best_weights = snapshot_weights(network)
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = int(epoch)
        return self.should_stop

    def restore(self, network) -> bool:
        """Copy the best weights back into ``network`` (in place). False if there is no snapshot."""
        if self.best_weights is None:
            return False
        restore_weights(network, self.best_weights)
        return True

    def __repr__(self) -> str:
        state = (tr("stopped at epoch {epoch}", epoch=self.stopped_epoch) if self.should_stop
                 else tr("wait {wait}", wait=self.wait))
        # the closing parenthesis is part of the message: the Chinese closes it before its own prose
        return (f"EarlyStopper(patience={self.patience}, min_delta={self.min_delta}, mode={self.mode!r}"
                + tr("; best {best} at epoch {epoch}, {state})", best=f"{self.best:.6g}", epoch=self.best_epoch,
                     state=state))


def stopping_point(values: Sequence[float], patience: int = 3, min_delta: float = 0.0,
                   mode: str = "min") -> Tuple[Optional[int], Optional[int]]:
    """Apply ``EarlyStopper``'s rule to a recorded per-epoch curve (epoch 1 = ``values[0]``).

    Returns ``(best_epoch, stop_epoch)``: the epoch whose weights to keep, and the epoch after which
    training stops (None if it never stops within the curve).
    """
    stopper = EarlyStopper(patience=patience, min_delta=min_delta, mode=mode)
    for value in values:
        if stopper.update(value):
            break
    return stopper.best_epoch, stopper.stopped_epoch


# --------------------------------------------------------------------------------------------
# History
# --------------------------------------------------------------------------------------------

class History:
    """Losses and metrics of one training run.

    ``step_loss``: the loss of every training step, in order. ``epoch``: the epoch numbers.
    ``metrics``: per-epoch lists, e.g. ``{"loss": [...], "eval_loss": [...]}``, where "loss" is the
    mean training-step loss of the epoch. ``history["eval_loss"]`` reads one of them.
    """

    def __init__(self):
        self.step_loss: List[float] = []
        self.epoch: List[int] = []
        self.metrics: Dict[str, List[float]] = {}
        self._epoch_start = 0

    def record_step(self, loss) -> float:
        value = _as_float(loss)
        self.step_loss.append(value)
        return value

    def record_epoch(self, epoch: Optional[int] = None, **metrics) -> None:
        """Close an epoch. "loss" defaults to the mean of the steps recorded since the last epoch."""
        if epoch is None:
            epoch = (self.epoch[-1] + 1) if self.epoch else 1
        steps = self.step_loss[self._epoch_start:]
        self._epoch_start = len(self.step_loss)
        if "loss" not in metrics and steps:
            metrics["loss"] = float(np.mean(steps))
        # A metric that first appears now gets NaN for the epochs before it, so lists stay aligned.
        for key in metrics:
            self.metrics.setdefault(key, [math.nan] * len(self.epoch))
        self.epoch.append(int(epoch))
        for key, series in self.metrics.items():
            series.append(_as_float(metrics[key]) if key in metrics else math.nan)

    def __getitem__(self, key: str) -> List[float]:
        if key not in self.metrics:
            raise KeyError(tr("No metric {key} recorded; have: {have}.", key=repr(key), have=sorted(self.metrics)))
        return self.metrics[key]

    def __contains__(self, key: str) -> bool:
        return key in self.metrics

    def __len__(self) -> int:
        return len(self.epoch)

    def as_dict(self) -> dict:
        return {"step_loss": list(self.step_loss), "epoch": list(self.epoch),
                **{k: list(v) for k, v in self.metrics.items()}}

    def __repr__(self) -> str:
        from course_utils.runtime import listing   # "a, b" in English, "a、b" in Chinese

        return tr("History({steps} steps, {epochs} epochs, metrics: {metrics})", steps=len(self.step_loss),
                  epochs=len(self.epoch), metrics=listing(sorted(self.metrics)) or tr("none"))


class HistoryCallback(Callback):
    """Records a ``History`` during ``mindspore.train.Model.train`` / ``Model.fit``.

    Per step: the training loss (the first output of the train network). Per epoch: the mean
    training loss as "loss", plus everything ``Model.fit`` evaluated on ``valid_dataset`` that epoch
    ("eval_loss" and the Model's metrics). Unlike ``mindspore.train.History``, which keeps only the
    last step's output of each epoch, nothing is sampled away.
    """

    def __init__(self, history: Optional[History] = None):
        super().__init__()
        self.history = history if history is not None else History()

    # Only the on_train_* hooks: Model.fit also hands user callbacks to its evaluation loop, whose
    # steps must not count as training steps.
    def on_train_step_end(self, run_context):
        self.history.record_step(run_context.original_args().net_outputs)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        evaluated = cb_params.get("eval_results") or {}
        metrics = {k: v for k, v in evaluated.items() if _is_scalar(v)}
        self.history.record_epoch(cb_params.get("cur_epoch_num"), **metrics)


def _is_scalar(value) -> bool:
    try:
        _as_float(value)
    except (TypeError, ValueError):
        return False
    return True


__all__ = ["EarlyStopper", "History", "HistoryCallback", "restore_weights", "snapshot_weights",
           "stopping_point"]
