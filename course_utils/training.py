"""Training steps shared by the notebooks.

Notebook 02 writes the functional training step out cell by cell; this module holds the reference
version that later notebooks import and that the tests check::

    from course_utils.training import make_train_step
    step = make_train_step(net, loss_fn, optimizer, clip_norm=1.0, accumulate=4)
    for data, label in dataset.create_tuple_iterator():
        loss = step(data, label)          # one micro-batch; every 4th call updates the weights

How the functional step is put together (``make_train_step``):

* ``forward_fn(data, label)`` returns ``(loss, logits)``. ``mindspore.value_and_grad(forward_fn,
  None, optimizer.parameters, has_aux=True)`` differentiates the loss only, with respect to the
  optimizer's parameters; ``has_aux=True`` is what keeps the logits out of the gradient (without it
  MindSpore differentiates ``loss + logits.sum()``). The builder therefore has no ``has_aux``
  switch: there is only one correct setting for a ``(loss, logits)`` forward function.
* ``ops.depend(loss, optimizer(grads))`` ties the update to the returned value, so the compiler
  keeps it and orders it (without it MindSpore 2.10 warns "Some side effect nodes were eliminated
  by mistake").
* What is compiled: with ``accumulate=1`` one graph does forward, backward, optional clipping and
  the update. With ``accumulate=k`` two graphs are compiled: ``micro`` (forward, backward, add the
  gradients / k into the buffers) for the first k - 1 micro-batches and ``last`` (the same, then
  clip the summed gradient, update, zero the buffers) for the k-th. Which one runs is decided in
  Python by a counter, so neither graph contains control flow and each call is one graph launch.
* Where the accumulation buffers live: in ``Parameter``s cloned from ``optimizer.parameters`` with
  the prefix ``grad_accum`` (``clone(prefix="accum")`` would collide with the buffers SGD already
  names ``accum.*``: "its name 'accum.fc1.weight' already exists"). Being Parameters, they are
  updated in place inside the compiled graphs (no host round trip), and they are not part of the
  network, so they never end up in the network's checkpoints.
* Gradients are divided by k before they are added, so k micro-batches of equal size give the same
  gradient - and the same update, for any optimizer - as one batch k times larger with a
  ``reduction="mean"`` loss. Clipping acts on that summed gradient, i.e. the big-batch gradient.

The reload trap (see ``TrainStep``): a step that has already run keeps using the parameter storage
it saw first. ``load_param_into_net``, ``load_checkpoint(net=...)`` or ``Parameter.set_data`` give
the parameters *new* storage, and the old step would go on updating the old one while the visible
weights never change again. ``TrainStep`` notices the swap before its next call and recompiles;
copying values in place (``course_utils.callbacks.restore_weights``, ``course_utils.checkpoint.load``,
``Parameter.copy_``, ``ops.assign``) avoids the recompilation.
"""

from __future__ import annotations

import dataclasses
import numbers
import time
from typing import Callable, Optional, Sequence

import mindspore as ms
from mindspore import nn, ops

from course_utils.i18n import N_, tr
from course_utils.validate import positive_int, positive_number

__all__ = ["ACCUM_PREFIX", "ClippedTrainOneStepCell", "FitResult", "TrainStep", "fit", "global_norm", "make_train_step",
           "tensor_norms", "warmup_cosine_lr"]

#: Name prefix of the gradient-accumulation buffers (not "accum": SGD uses that one).
ACCUM_PREFIX = "grad_accum"


def global_norm(grads: Sequence) -> ms.Tensor:
    """The L2 norm of all gradients taken together: ``sqrt(sum over tensors of sum(g ** 2))``.

    This is the norm ``ops.clip_by_global_norm`` bounds. Works eagerly and inside ``@jit``.
    """
    if isinstance(grads, ms.Tensor):
        grads = (grads,)
    grads = tuple(grads)
    if not grads:
        raise ValueError("global_norm needs at least one gradient tensor, got an empty sequence.")
    return ops.sqrt(ops.addn([ops.reduce_sum(ops.square(ops.cast(g, ms.float32))) for g in grads]))


def tensor_norms(grads: Sequence) -> list:
    """The L2 norm of each gradient tensor, as Python floats (for tables and plots)."""
    return [float(ops.norm(ops.cast(g, ms.float32))) for g in grads]


def _check_parts(net, loss_fn, optimizer) -> None:
    if not isinstance(net, nn.Cell):
        raise TypeError(tr("net must be a mindspore.nn.Cell, got {type}.", type=type(net).__name__))
    if not callable(loss_fn):
        raise TypeError(tr("loss_fn must be callable (e.g. an nn.LossBase), got {type}.", type=type(loss_fn).__name__))
    if not isinstance(optimizer, nn.Optimizer):
        raise TypeError(tr("optimizer must be a mindspore.nn.Optimizer (nn.SGD, nn.Adam, ...), got {type}.",
                           type=type(optimizer).__name__))
    own = {id(p) for p in net.get_parameters()}
    foreign = [p.name for p in optimizer.parameters if id(p) not in own]
    if foreign:
        raise ValueError(tr(
            "The optimizer updates parameters that are not in this network ({names}). It was probably "
            "created for an earlier instance of the network (e.g. the model cell was re-run but not the "
            "optimizer cell): create the optimizer from net.trainable_params() of this network.",
            names=", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")))


class TrainStep:
    """A compiled training step: ``step(data, label)`` runs one (micro-)batch and returns its loss.

    Built by ``make_train_step``; see the module docstring for what runs where. Counters:

    * ``calls`` - micro-batches seen; ``updates`` - optimizer updates applied;
      ``pending`` - micro-batches accumulated since the last update (0 when ``accumulate == 1``).
    * ``compiles`` - how often the step's Python body was traced under ``jit``: one per graph and
      per new input shape (a short last batch costs one more). A Python side effect in a jitted
      function runs at trace time only, which is what makes this counter exact. ``None`` without jit.
    * ``rebuilds`` - how often the step recompiled because a parameter's storage was replaced.

    The reload trap: if ``load_param_into_net`` / ``set_data`` replaced a parameter's storage since
    the last call, the step rebuilds its graphs (counted in ``rebuilds``) before running, so training
    continues on the loaded values. Without jit in PyNative mode a rebuild does not help (MindSpore
    keeps the old storage in its own caches); there the step raises instead of silently not training.
    """

    def __init__(self, net, loss_fn, optimizer, clip_norm: Optional[float], accumulate: int, jit: bool,
                 return_logits: bool, jit_options: Optional[dict]):
        self.net, self.loss_fn, self.optimizer = net, loss_fn, optimizer
        self.clip_norm, self.accumulate, self.jit = clip_norm, accumulate, jit
        self.return_logits = return_logits
        self.jit_options = dict(jit_options or {})
        self.calls = self.updates = self.pending = self.rebuilds = 0
        self._traces = {"count": 0}
        self.buffers = None
        if accumulate > 1:
            self.buffers = optimizer.parameters.clone(prefix=ACCUM_PREFIX, init="zeros")
        self._watched = self._collect_watched()
        self._build()

    # ---- construction ----
    def _collect_watched(self) -> list:
        seen, out = set(), []
        sources = [self.net.get_parameters(), self.optimizer.get_parameters(), self.buffers or ()]
        for source in sources:
            for p in source:
                if id(p) not in seen:
                    seen.add(id(p))
                    out.append(p)
        return out

    def _fingerprint(self) -> tuple:
        return tuple(p.data_ptr() for p in self._watched)

    def _build(self) -> None:
        net, loss_fn, optimizer = self.net, self.loss_fn, self.optimizer
        clip_norm, buffers, traces = self.clip_norm, self.buffers, self._traces
        scale = 1.0 / self.accumulate
        jit = self.jit

        def forward_fn(data, label):
            logits = net(data)
            return loss_fn(logits, label), logits

        grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

        def apply(grads):
            if clip_norm is not None:
                grads = ops.clip_by_global_norm(grads, clip_norm)
            return optimizer(grads)

        def full(data, label):
            if jit:
                traces["count"] += 1  # runs once per compilation (trace time), not per call
            (loss, logits), grads = grad_fn(data, label)
            loss = ops.depend(loss, apply(grads))
            return loss, logits

        def micro(data, label):
            if jit:
                traces["count"] += 1
            (loss, logits), grads = grad_fn(data, label)
            for buf, grad in zip(buffers, grads):
                loss = ops.depend(loss, ops.assign_add(buf, grad * scale))
            return loss, logits

        def last(data, label):
            if jit:
                traces["count"] += 1
            (loss, logits), grads = grad_fn(data, label)
            total = tuple(buf + grad * scale for buf, grad in zip(buffers, grads))
            done = apply(total)
            for buf in buffers:
                # the zeros depend on the update, so the buffers are cleared only after it ran
                loss = ops.depend(loss, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))
            return loss, logits

        wrap = (lambda fn: ms.jit(fn, **self.jit_options)) if jit else (lambda fn: fn)
        if self.accumulate == 1:
            self._full, self._micro, self._last = wrap(full), None, None
        else:
            self._full, self._micro, self._last = None, wrap(micro), wrap(last)
        self._fp = self._fingerprint()

    # ---- the reload trap ----
    def _check_storage(self) -> None:
        if self._fingerprint() == self._fp:
            return
        if not self.jit and ms.get_context("mode") == ms.PYNATIVE_MODE and self.calls:
            raise RuntimeError(tr(
                "A parameter of this network or optimizer got new storage (load_param_into_net, "
                "load_checkpoint(net=...) or Parameter.set_data) after the step had run. In PyNative mode "
                "without jit MindSpore keeps using the old storage, so training would silently stop. Load "
                "weights in place instead (course_utils.callbacks.restore_weights, "
                "course_utils.checkpoint.load, Parameter.copy_), or build a new network, optimizer and step."))
        self.rebuilds += 1
        self._build()

    # ---- running ----
    def __call__(self, data, label):
        self._check_storage()
        if self.accumulate == 1:
            loss, logits = self._full(data, label)
            self.updates += 1
        elif self.pending + 1 < self.accumulate:
            loss, logits = self._micro(data, label)
            self.pending += 1
        else:
            loss, logits = self._last(data, label)
            self.pending = 0
            self.updates += 1
        self.calls += 1
        return (loss, logits) if self.return_logits else loss

    def reset(self) -> None:
        """Drop accumulated gradients (e.g. at the end of an epoch that was not a multiple of k)."""
        if self.buffers is not None:
            for buf in self.buffers:
                ops.assign(buf, ops.zeros_like(buf))
        self.pending = 0

    @property
    def compiles(self) -> Optional[int]:
        return self._traces["count"] if self.jit else None

    def __repr__(self) -> str:
        opts = [f"clip_norm={self.clip_norm}", f"accumulate={self.accumulate}", f"jit={self.jit}"]
        return (f"TrainStep({type(self.net).__name__}, {type(self.loss_fn).__name__}, "
                f"{type(self.optimizer).__name__}, {', '.join(opts)}; calls={self.calls}, "
                f"updates={self.updates}, compiles={self.compiles})")


def make_train_step(net: nn.Cell, loss_fn: Callable, optimizer: nn.Optimizer, *,
                    clip_norm: Optional[float] = None, accumulate: int = 1, jit: bool = True,
                    return_logits: bool = False, jit_options: Optional[dict] = None) -> TrainStep:
    """Build the functional training step taught in notebook 02.

    Args:
        net: the network (``nn.Cell``) mapping ``data`` to logits.
        loss_fn: ``loss_fn(logits, label)`` returning a scalar (use ``reduction="mean"`` when
            accumulating, so that k micro-batches average like one big batch).
        optimizer: an ``nn.Optimizer`` built from ``net``'s parameters.
        clip_norm: if set, gradients are scaled so that their global norm is at most this
            (``ops.clip_by_global_norm``), right before each update.
        accumulate: apply the optimizer every ``accumulate`` calls, with the mean gradient of those
            micro-batches.
        jit: compile the step with ``mindspore.jit`` (``jit_options`` are passed on, e.g.
            ``{"jit_level": "O1"}``). Without jit the step runs in the context's mode.
        return_logits: return ``(loss, logits)`` instead of the loss.

    Returns a ``TrainStep``: ``step(data, label) -> loss`` (a scalar Tensor of the micro-batch).
    """
    _check_parts(net, loss_fn, optimizer)
    clip_norm = positive_number("clip_norm", clip_norm, allow_none=True)
    if isinstance(accumulate, bool) or not isinstance(accumulate, numbers.Integral) or accumulate < 1:
        raise ValueError(tr("accumulate must be an integer >= 1 (micro-batches per update), got {value}.",
                            value=repr(accumulate)))
    if jit_options and not jit:
        raise ValueError(tr("jit_options were given but jit=False: pass jit=True or drop jit_options."))
    return TrainStep(net, loss_fn, optimizer, clip_norm, int(accumulate), bool(jit), bool(return_logits),
                     jit_options)


# ---- Cell-based step (notebook 03) ----
# Notebook 03 writes this class out cell by cell; this is the reference version it checks against.

class ClippedTrainOneStepCell(nn.TrainOneStepCell):
    """``nn.TrainOneStepCell`` with global-norm gradient clipping and an optional static loss scale.

    ``construct`` does what the parent's does, plus two steps between backward and update::

        loss  = network(*inputs)                           # WithLossCell: forward + loss
        grads = grad(network, weights)(*inputs, sens)       # backward, seeded with sens = loss_scale
        grads = grad_reducer(grads)                         # identity unless data parallel
        grads = grads / loss_scale                          # undo the scale  (new)
        grads = clip_by_global_norm(grads, max_norm)        # clip            (new)
        optimizer(grads)                                    # update, tied to the loss by ops.depend

    With the same data, weights and optimizer it makes the same updates as
    ``make_train_step(net, loss_fn, optimizer, clip_norm=max_norm)`` (notebook 02's functional step).

    Args:
        network: a Cell returning the scalar loss, usually ``nn.WithLossCell(net, loss_fn)``.
        optimizer: an ``nn.Optimizer`` over the network's parameters.
        max_norm: bound on the global L2 norm of the gradients; ``None`` turns clipping off.
        loss_scale: backpropagation starts from ``loss_scale`` instead of 1, so small float16
            gradients do not underflow; the gradients are divided by it again before clipping.
            A static scale: ``nn.TrainOneStepWithLossScaleCell`` adds overflow checks and a
            dynamic scale when float16 training needs them.
        return_norm: return ``(loss, global norm of the gradients before clipping)``.
    """

    def __init__(self, network, optimizer, max_norm: Optional[float] = 1.0, loss_scale: float = 1.0,
                 return_norm: bool = False):
        max_norm = positive_number("max_norm", max_norm, allow_none=True)
        loss_scale = positive_number("loss_scale", loss_scale)
        super().__init__(network, optimizer, sens=loss_scale)
        self.max_norm = max_norm
        self.loss_scale = loss_scale
        self.return_norm = bool(return_norm)

    def construct(self, *inputs):
        loss = self.network(*inputs)
        sens = ops.fill(loss.dtype, loss.shape, self.sens)
        grads = self.grad(self.network, self.weights)(*inputs, sens)
        grads = self.grad_reducer(grads)
        if self.loss_scale != 1.0:  # a constant: decided when the graph is compiled
            grads = tuple([g / self.loss_scale for g in grads])
        norm = global_norm(grads) if self.return_norm else None
        if self.max_norm is not None:
            grads = ops.clip_by_global_norm(grads, self.max_norm)
        loss = ops.depend(loss, self.optimizer(grads))
        if self.return_norm:
            return loss, norm
        return loss


# ---- fit/evaluate loop (notebook 04) ----
# Notebook 04 writes the epoch loop and the test loop by hand (a ``for`` over the batches calling
# the training step; evaluation mode, arg-max, count), checks that one epoch of it leaves the same
# weights as ``fit``, and then trains with ``fit``; scripts/bench_lenet.py and the checkpoint tests
# use it too. ``fit`` adds what a real run needs around the loop: a progress bar (and a plain
# summary line for stored notebooks), evaluation every few steps, a live plot hook, checkpoints,
# resuming, and honest timing.

def warmup_cosine_lr(peak_lr: float, total_steps: int, warmup_steps: int = 0, min_lr: float = 0.0) -> list:
    """A per-step learning rate: linear warm-up from 0 to ``peak_lr``, then a cosine down to ``min_lr``.

    Built from MindSpore's own ``nn.warmup_lr`` and ``nn.cosine_decay_lr`` (one "epoch" per step,
    so the cosine is smooth rather than a staircase). Pass the list as an optimizer's
    ``learning_rate``: the optimizer indexes it with its ``global_step``, which a checkpoint of the
    training step stores, so a resumed run continues the schedule where it stopped.
    """
    peak_lr = positive_number("peak_lr", peak_lr)
    total_steps = positive_int("total_steps", total_steps)
    if not 0 <= warmup_steps < total_steps:
        raise ValueError(tr("warmup_steps must be in 0..{last}, got {value}.", last=total_steps - 1,
                            value=repr(warmup_steps)))
    if not 0 <= min_lr <= peak_lr:
        raise ValueError(tr("min_lr must be in [0, peak_lr], got {value}.", value=repr(min_lr)))
    warm = nn.warmup_lr(peak_lr, warmup_steps, 1, warmup_steps) if warmup_steps else []
    decay = total_steps - warmup_steps
    return list(warm) + list(nn.cosine_decay_lr(min_lr, peak_lr, decay, 1, decay))


@dataclasses.dataclass
class FitResult:
    """What one call of ``fit`` did. Steps are counted from the start of training (a resumed run
    continues the count), so curves of an interrupted and a resumed call join up."""

    step_loss: list = dataclasses.field(default_factory=list)   # (global step, loss) per step
    evals: list = dataclasses.field(default_factory=list)       # {"step", "epoch", "accuracy", "train_seconds"}
    checkpoints: list = dataclasses.field(default_factory=list)  # paths written, in order
    steps: int = 0                 # steps trained by this call
    global_step: int = 0           # steps trained since the start, after this call
    epoch: int = 0                 # resume point: epochs completed ...
    step_in_epoch: int = 0         # ... and how many batches of the next one are done
    train_seconds: float = 0.0     # time inside the training step (evaluation and saving excluded)
    first_step_seconds: float = 0.0  # the first call alone: in GRAPH_MODE mostly compilation
    interrupted: bool = False      # stopped early (stop_at_step or Ctrl-C / kernel interrupt)

    @property
    def steps_per_s(self) -> float:
        """Steady-state rate: the first (compiling) call is left out."""
        rest = self.train_seconds - self.first_step_seconds
        return (self.steps - 1) / rest if self.steps > 1 and rest > 0 else float("nan")

    @property
    def final_accuracy(self) -> float:
        return self.evals[-1]["accuracy"] if self.evals else float("nan")

    def __repr__(self) -> str:
        acc = f", last accuracy {self.final_accuracy:.4f}" if self.evals else ""
        stop = ", interrupted" if self.interrupted else ""
        from course_utils.checkpoint import describe_position

        return (f"FitResult({self.steps} steps in {self.train_seconds:.1f} s, {self.steps_per_s:.1f} steps/s"
                f"{acc}; stopped at {describe_position(self.epoch, self.step_in_epoch)}{stop})")

    def summary(self, description: str = N_("training")) -> str:
        """One plain line for logs and stored notebooks (a progress bar widget shows no text there)."""
        from course_utils.checkpoint import describe_position

        acc = tr(", test accuracy {accuracy:.2%}", accuracy=self.final_accuracy) if self.evals else ""
        stop = tr(" (interrupted)") if self.interrupted else ""
        return tr("{description}: {steps:,} steps trained in {seconds:.1f} s "
                  "({rate:.0f} steps/s after the first), now at {position}{stop}{acc}",
                  description=tr(description), steps=self.steps, seconds=self.train_seconds,
                  rate=self.steps_per_s, position=describe_position(self.epoch, self.step_in_epoch),
                  stop=stop, acc=acc)


def _steps_per_epoch(data) -> Optional[int]:
    if hasattr(data, "get_dataset_size"):
        return int(data.get_dataset_size())
    try:
        return len(data)
    except TypeError:
        return None


def fit(train_step, train_data, epochs: int, *, network=None, eval_data=None, eval_every: int = 0,
        checkpoint_path=None, checkpoint_every: int = 0, resume=None, stop_at_step: Optional[int] = None,
        progress: bool = True, on_update: Optional[Callable] = None, update_every: int = 100,
        stop_when: Optional[Callable] = None, description: str = N_("training")) -> FitResult:
    """Train ``train_step`` (a ``TrainOneStepCell`` or any ``step(images, labels) -> loss``) for ``epochs``.

    train_data: ``epoch -> dataset`` (e.g. ``lambda e: mnist_dataset("train", seed=SEED + e)``), or a
        dataset/iterable. With the callable every epoch's order is a function of its number, which
        is what makes a resumed run see exactly the batches the uninterrupted one would have seen.
        (A *new iterator* on the same dataset replays the same order each time; a given dataset is
        therefore read through one iterator across epochs, which reshuffles.)
    network, eval_data, eval_every: test accuracy of ``network`` on ``eval_data`` every
        ``eval_every`` steps and at the end (the clock is stopped meanwhile).
    checkpoint_path, checkpoint_every: ``course_utils.checkpoint.save`` of the training step (weights
        and optimizer state) every ``checkpoint_every`` steps, at the end of every epoch, and when
        training is interrupted. "{step}" in the path gives one file per save, e.g.
        "checkpoints/lenet_{step:05d}.ckpt"; without it each save atomically replaces the last.
    resume: a ``CheckpointInfo`` from ``checkpoint.load(path, train_step)``: continue from its epoch
        and step (the batches of that epoch already trained are read and skipped).
    stop_at_step: stop once this many steps (counted from the start of training) are done, as if
        the run had been interrupted there. Ctrl-C (Kernel > Interrupt) does the same: the loop
        saves a checkpoint, if configured, and returns instead of raising.
    on_update: called as ``on_update(result)`` every ``update_every`` steps, after each evaluation
        and at the end (e.g. ``course_utils.plots.LiveTrainingPlot``).
    stop_when: called as ``stop_when(result)`` at the same moments (not at the end); when it returns
        True training stops there, as with ``stop_at_step`` (e.g. "once the test accuracy reaches
        99%": ``stop_when=lambda r: r.evals and r.evals[-1]["accuracy"] >= 0.99``).
    progress: show a ``tqdm`` progress bar and, at the end, print ``result.summary()`` as plain text
        (what a stored notebook shows, where the bar widget cannot render).
    """
    from course_utils import checkpoint as _checkpoint
    from course_utils import evaluate as _evaluate

    epochs = positive_int("epochs", epochs)
    if eval_every and (network is None or eval_data is None):
        raise ValueError(tr("eval_every needs both network= (the model to evaluate) and eval_data=."))
    if checkpoint_every and checkpoint_path is None:
        raise ValueError(tr("checkpoint_every needs checkpoint_path= (where to save)."))
    if checkpoint_path is not None and not isinstance(train_step, nn.Cell):
        raise TypeError(tr("Checkpoints need a Cell training step (its parameters include the optimizer "
                           "state); got {type}.", type=type(train_step).__name__))

    result = FitResult()
    start_epoch, skip = (resume.epoch, resume.step_in_epoch) if resume is not None else (0, 0)
    if start_epoch >= epochs and resume is not None:
        raise ValueError(tr("The checkpoint was saved at {position}: nothing left of {epochs} epoch(s). "
                            "Pass a larger epochs= to train further.",
                            position=_checkpoint.describe_position(start_epoch, skip), epochs=epochs))
    factory = callable(train_data) and not hasattr(train_data, "create_tuple_iterator")
    first_data = train_data(start_epoch) if factory else train_data
    # A new iterator on the same dataset replays the same shuffled order, so a dataset is read
    # through one iterator for all epochs (MindSpore reshuffles at each epoch boundary).
    shared = (train_data.create_tuple_iterator(num_epochs=epochs - start_epoch)
              if not factory and hasattr(train_data, "create_tuple_iterator") else None)

    def epoch_batches(epoch: int):
        if shared is not None:
            return shared
        data = (first_data if epoch == start_epoch else train_data(epoch)) if factory else train_data
        return data.create_tuple_iterator(num_epochs=1) if hasattr(data, "create_tuple_iterator") else iter(data)

    per_epoch = _steps_per_epoch(first_data)
    if resume is not None and "global_step" in resume.extra:
        global_step = int(resume.extra["global_step"])
    else:
        global_step = start_epoch * (per_epoch or 0) + skip
    result.global_step, result.epoch, result.step_in_epoch = global_step, start_epoch, skip

    bar = None
    if progress:
        from tqdm.auto import tqdm

        # smoothing=0: the rate shown is the average of the whole run, evaluation pauses included
        bar = tqdm(total=epochs * per_epoch if per_epoch else None, initial=global_step, desc=tr(description),
                   unit="step", dynamic_ncols=True, smoothing=0)

    def save(epoch: int, step_in_epoch: int) -> None:
        path = str(checkpoint_path).format(step=result.global_step, epoch=epoch)
        result.checkpoints.append(_checkpoint.save(path, train_step, epoch=epoch, step_in_epoch=step_in_epoch,
                                                   extra={"global_step": result.global_step}))

    def run_eval(epoch: int) -> None:
        acc = _evaluate.evaluate(network, eval_data).accuracy
        result.evals.append({"step": result.global_step, "epoch": epoch, "accuracy": acc,
                             "train_seconds": result.train_seconds})
        if bar is not None:
            bar.set_postfix(loss=f"{result.step_loss[-1][1]:.4f}", test_acc=f"{acc:.4f}", refresh=False)
        if on_update is not None:
            on_update(result)
        if stop_when is not None and stop_when(result):
            raise KeyboardInterrupt   # handled below, exactly like a real interrupt

    if network is not None:
        network.set_train(True)
    if hasattr(train_step, "set_train"):
        train_step.set_train(True)
    try:
        for epoch in range(start_epoch, epochs):
            batches = epoch_batches(epoch)
            done_in_epoch = skip if epoch == start_epoch else 0
            for index, (images, labels) in enumerate(batches):
                if index < done_in_epoch:
                    continue  # trained before the interruption: same batches, skipped
                start = time.perf_counter()
                loss = train_step(images, labels)
                value = float((loss[0] if isinstance(loss, tuple) else loss).asnumpy())
                elapsed = time.perf_counter() - start
                if result.steps == 0:
                    result.first_step_seconds = elapsed
                result.train_seconds += elapsed
                result.steps += 1
                result.global_step += 1
                result.epoch, result.step_in_epoch = epoch, index + 1
                result.step_loss.append((result.global_step, value))
                if bar is not None:
                    bar.update(1)
                    if result.steps % 20 == 0:
                        bar.set_postfix(loss=f"{value:.4f}", **({"test_acc": f"{result.final_accuracy:.4f}"}
                                                                 if result.evals else {}), refresh=False)
                if eval_every and result.global_step % eval_every == 0:
                    run_eval(epoch)
                elif result.steps % update_every == 0:
                    if on_update is not None:
                        on_update(result)
                    if stop_when is not None and stop_when(result):
                        raise KeyboardInterrupt
                if checkpoint_every and result.global_step % checkpoint_every == 0 and index + 1 != per_epoch:
                    save(epoch, index + 1)  # (the end of an epoch is saved below, as the next one's start)
                if stop_at_step is not None and result.global_step >= stop_at_step:
                    raise KeyboardInterrupt  # handled below, exactly like a real interrupt
            result.epoch, result.step_in_epoch = epoch + 1, 0
            if checkpoint_path is not None:
                save(epoch + 1, 0)
    except KeyboardInterrupt:
        result.interrupted = True
        if per_epoch and result.step_in_epoch == per_epoch:   # stopped on an epoch's last batch
            result.epoch, result.step_in_epoch = result.epoch + 1, 0
        if checkpoint_path is not None and result.steps:
            save(result.epoch, result.step_in_epoch)
    finally:
        if bar is not None:
            bar.close()
    if network is not None and eval_data is not None and not result.interrupted \
            and (not result.evals or result.evals[-1]["step"] != result.global_step):
        run_eval(result.epoch)
    elif on_update is not None:
        on_update(result)
    if progress:
        # The bar is a widget in a notebook: a stored notebook (GitHub, nbviewer) shows it as "0%".
        print(result.summary(description))
    return result
