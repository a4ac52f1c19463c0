"""The training steps: notebook 02's functional step (``make_train_step``) and notebook 04's Cell-based one.

Notebooks 02 and 03 write the functional training step (and its clipping and accumulation) out cell by cell; this
module holds the reference version that later notebooks import and that the tests check::

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
  clip the accumulated mean, update, zero the buffers) for the k-th. Which one runs is decided in
  Python by a counter, so neither graph contains control flow and each call is one graph launch.
* Where the accumulation buffers live: in ``Parameter``s cloned from ``optimizer.parameters`` with
  the prefix ``grad_accum`` (``clone(prefix="accum")`` would collide with the buffers SGD already
  names ``accum.*``: "its name 'accum.fc1.weight' already exists"). Being Parameters, they are
  updated in place inside the compiled graphs (no host round trip), and they are not part of the
  network, so they never end up in the network's checkpoints.
* Gradients are divided by k before they are added, so k micro-batches of equal size give the same
  gradient - and the same update, for any optimizer - as one batch k times larger with a
  ``reduction="mean"`` loss. Clipping acts on that accumulated mean, i.e. the big-batch gradient.

The reload trap (see ``TrainStep``): a step that has already run keeps using the parameter storage
it saw first. ``load_param_into_net``, ``load_checkpoint(net=...)`` or ``Parameter.set_data`` give
the parameters *new* storage, and the old step would go on updating the old one while the visible
weights never change again. ``TrainStep`` notices the swap before its next call and recompiles;
copying values in place (``course_utils.callbacks.restore_weights``, ``course_utils.checkpoint.load``,
``Parameter.copy_``) avoids the recompilation. Inside a compiled step the buffers are written with
``ops.assign``/``ops.assign_add``: deprecated since 2.9, but ``Parameter.add_`` inside ``jit`` silently adds
nothing on MindSpore 2.7.1, which the course still supports.
"""

from __future__ import annotations

import numbers
from typing import Callable, Optional, Sequence

import mindspore as ms
from mindspore import nn, ops

from course_utils.i18n import tr
from course_utils.validate import positive_number

__all__ = ["ACCUM_PREFIX", "ClippedTrainOneStepCell", "TrainStep", "global_norm", "make_train_step", "tensor_norms"]

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
    * ``compiles`` - how many graphs ``jit`` compiled: one per graph (``full``, or ``micro`` and
      ``last``) and input signature (shapes and dtypes of ``data`` and ``label``), counted in Python
      before each call; a short last batch costs one more, a shape seen before costs nothing. A
      counter inside the jitted function cannot do this: MindSpore 2.10 evaluates a dict update once,
      when the graph compiles, and writes that stale value back on every call (lesson 03, section 6).
      ``None`` without jit, and with dynamic shapes (``jit_options`` with ``dynamic`` or
      ``input_signature``), where one graph serves many shapes.
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
        self._compiled: set = set()   # (build, graph, input signature): one entry per graph jit compiled
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
        clip_norm, buffers = self.clip_norm, self.buffers
        scale = 1.0 / self.accumulate

        def forward_fn(data, label):
            logits = net(data)
            return loss_fn(logits, label), logits

        grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

        def apply(grads):
            if clip_norm is not None:
                grads = ops.clip_by_global_norm(grads, clip_norm)
            return optimizer(grads)

        def full(data, label):
            (loss, logits), grads = grad_fn(data, label)
            loss = ops.depend(loss, apply(grads))
            return loss, logits

        def micro(data, label):
            (loss, logits), grads = grad_fn(data, label)
            for buf, grad in zip(buffers, grads):
                loss = ops.depend(loss, ops.assign_add(buf, grad * scale))
            return loss, logits

        def last(data, label):
            (loss, logits), grads = grad_fn(data, label)
            total = tuple(buf + grad * scale for buf, grad in zip(buffers, grads))
            done = apply(total)
            for buf in buffers:
                # the zeros depend on the update, so the buffers are cleared only after it ran
                loss = ops.depend(loss, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))
            return loss, logits

        wrap = (lambda fn: ms.jit(fn, **self.jit_options)) if self.jit else (lambda fn: fn)
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
    @staticmethod
    def _signature(value) -> tuple:
        """What ``jit`` specialises a graph on for one argument: a tensor's shape and dtype."""
        if hasattr(value, "shape") and hasattr(value, "dtype"):
            return tuple(value.shape), str(value.dtype)
        return type(value).__name__, repr(value)

    def _counted(self) -> bool:
        return self.jit and not (self.jit_options.get("dynamic") or self.jit_options.get("input_signature"))

    def _count(self, graph: str, data, label) -> None:
        if self._counted():
            self._compiled.add((self.rebuilds, graph, self._signature(data), self._signature(label)))

    def __call__(self, data, label):
        self._check_storage()
        if self.accumulate == 1:
            self._count("full", data, label)
            loss, logits = self._full(data, label)
            self.updates += 1
        elif self.pending + 1 < self.accumulate:
            self._count("micro", data, label)
            loss, logits = self._micro(data, label)
            self.pending += 1
        else:
            self._count("last", data, label)
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
        return len(self._compiled) if self._counted() else None

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


# ---- Cell-based step (notebook 04) ----
# Notebook 04 writes this class out cell by cell; this is the reference version it checks against.

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
