"""Exercises of notebook 03 (step techniques and traps): a clipping bound read off a log of gradient norms, an
accumulating step, a loss-scaled step that also clips, and an optimizer's parameter groups.

q1 asks for ``choose_clip_norm(norms)``, the bound for the next step from the log so far: its check replays three
logs of very different levels, whose ordinary norm drifts down and whose spikes come in bursts. q2 and q3 ask for a
step *builder*, as exercise 02.1 does; the checks (fixed weights, plain SGD, the update compared with what a correct
step and typical wrong steps would make) are ``course_utils.exercises.step_builders``.
q4 asks for ``build_param_groups(net, backbone, weight_decay, backbone_lr)``: its check builds ``nn.Adam`` from the
groups and runs one call with gradients of ones (each parameter moves by its learning rate), then ``nn.Momentum``
with zero gradients (only weight decay moves a parameter).
The tables and figures the lesson's cells print are in ``course_utils.step_tables``.
"""

from __future__ import annotations

import inspect

import numpy as np

from course_utils.exercises import Exercise, Incorrect, register
from course_utils.exercises.step_builders import (LR, StepBuilder, close, diagnose_update,
                                                  fixed_batch, fixed_setup, global_clip, grads_of, loss_value,
                                                  make_step, per_tensor_clip, run_step, sgd_update, weights_of)
from course_utils.i18n import tr


def choose_clip_norm(norms):
    recent = norms[-20:]                     # the norm drifts as the loss falls: only recent steps say what is typical
    return 1.5 * float(np.median(recent))    # the median ignores a burst of spikes; a margin above it


def _norm_log(level: float, seed: int, steps: int = 300, drift: float = 10.0):
    """A log of global gradient norms as a run would write it. Ordinary steps: a spread of about 10 % around a
    typical norm that falls from ``level`` to ``level / drift`` as the loss falls. Four bursts of three spikes, at
    about 8-12, 4-8 and 2-2.6 times the typical norm of their steps. Returns the log (a list of floats),
    the indices of the spikes and the typical norm of every step."""
    rng = np.random.default_rng(seed)
    typical = level * drift ** (-np.arange(steps) / (steps - 1))
    norms = typical * np.exp(0.1 * np.clip(rng.standard_normal(steps), -3, 3))
    spikes, factors = [], []
    for where in (0.25, 0.5, 0.7, 0.9):
        first = int(where * steps) + int(rng.integers(-10, 10))
        spikes += [first, first + 1, first + 2]
        factors += [rng.uniform(8.0, 12.0), rng.uniform(4.0, 8.0), rng.uniform(2.0, 2.6)]
    norms[spikes] = typical[spikes] * np.array(factors)
    return [float(n) for n in norms], spikes, [float(t) for t in typical]


class ClipBound(Exercise):
    """The learner's rule reads the log of global gradient norms so far and returns the bound for the next step.
    The check replays three logs step by step, as training would call the rule, from step ``FIRST`` on. The logs'
    levels differ by orders of magnitude (so no constant works), their ordinary norm falls tenfold (so a median of
    the whole log lags behind) and their spikes come in bursts (so a mean of recent steps jumps with them). Every
    spike must be cut and at most ``ORDINARY_CLIPPED`` of the ordinary steps clipped."""

    names = ("choose_clip_norm",)
    title = "choose a clipping bound"
    hint_text = ("Section 1 read the bound off one epoch. Here the log keeps growing and the norm drifts, so which "
                 "steps of the log still describe a typical step now? Which single number describes them, whatever "
                 "a burst of spikes does (a mean and a maximum both jump with it)? The bound then sits a margin "
                 "above that number: below it, clipping shrinks ordinary steps like a smaller learning rate; too far "
                 "above, the smaller spikes get through.")
    solution_text = inspect.getsource(choose_clip_norm)

    LEVELS = (0.02, 3.0, 400.0)   # the starting typical norm of each log: a constant bound cannot suit all three
    FIRST = 20                     # the first step the check asks a bound for: the rule always sees 20 steps or more
    ORDINARY_CLIPPED = 0.02        # at most this share of the ordinary steps may be clipped

    def reference(self):
        return (choose_clip_norm,)

    def _bound(self, choose_clip_norm, history: list, what: str) -> float:
        result = self.call(choose_clip_norm, list(history))
        try:
            bound = float(np.asarray(result.asnumpy() if hasattr(result, "asnumpy") else result).reshape(()))
        except (TypeError, ValueError):
            raise Incorrect(tr("{what}: choose_clip_norm returned {result}; expected one positive number.",
                               what=what, result=repr(result))) from None
        if not np.isfinite(bound) or bound <= 0:
            raise Incorrect(tr("{what}: choose_clip_norm returned {bound:.4g}; expected a positive, finite bound.",
                               what=what, bound=bound))
        return bound

    def _check(self, choose_clip_norm):
        for n, level in enumerate(self.LEVELS, start=1):
            norms, spikes, typical = _norm_log(level, seed=n)
            log = tr("log {n} ({steps} steps; ordinary norms fall from about {start:.3g} to {end:.3g}; {s} spikes in "
                     "bursts, 2 to 12 times the ordinary norm)", n=n, steps=len(norms), start=typical[0],
                     end=typical[-1], s=len(spikes))
            clipped, ordinary = 0, 0
            for i in range(self.FIRST, len(norms)):
                what = tr("{log}, step {i} (your rule given steps 0 to {last})", log=log, i=i, last=i - 1)
                bound = self._bound(choose_clip_norm, norms[:i], what)
                if i in spikes and norms[i] <= bound:
                    raise Incorrect(tr("{what}: the bound {bound:.4g} lets a spike of {norm:.4g} through unclipped "
                                       "(the ordinary norm there is about {typical:.3g}); expected every spike cut.",
                                       what=what, bound=bound, norm=norms[i], typical=typical[i]))
                if i not in spikes:
                    ordinary += 1
                    clipped += norms[i] > bound
            if clipped > self.ORDINARY_CLIPPED * ordinary:
                raise Incorrect(tr("{log}: the bounds clip {k} of the {m} ordinary steps ({share:.1%}), which then "
                                   "act as steps with a smaller learning rate; expected at most {limit:.0%} of them "
                                   "clipped.", log=log, k=clipped, m=ordinary, share=clipped / ordinary,
                                   limit=self.ORDINARY_CLIPPED))


def build_accumulating_step(net, loss_fn, optimizer, k):
    import mindspore as ms
    from mindspore import ops

    def forward_fn(data, label):
        return loss_fn(net(data), label)

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    accum = optimizer.parameters.clone(prefix="grad_accum", init="zeros")   # not "accum": SGD uses that name

    @ms.jit
    def accumulate(data, label):
        loss, grads = grad_fn(data, label)
        for buf, grad in zip(accum, grads):
            loss = ops.depend(loss, ops.assign_add(buf, grad / k))          # the mean, not the sum
        return loss

    @ms.jit
    def apply_and_zero():
        done = optimizer(tuple(accum))
        for buf in accum:
            done = ops.depend(done, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))   # after the update
        return done

    calls = {"n": 0}

    def train_step(data, label):                    # plain Python: counts the calls, runs the update every k-th
        loss = accumulate(data, label)
        calls["n"] += 1
        if calls["n"] % k == 0:
            apply_and_zero()
        return loss

    return train_step


class AccumulatingStep(StepBuilder):
    names = ("build_accumulating_step",)
    title = "gradient accumulation"
    hint_text = ("Clone zero buffers: accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros') "
                 "(not 'accum': SGD uses that name). Compile two functions: one adds grad / k to every buffer "
                 "(ops.assign_add), one applies optimizer(accum) and then zeroes the buffers (ops.assign). Count "
                 "the calls in Python and run the second one every k-th call.")
    solution_text = inspect.getsource(build_accumulating_step)
    section = "2"

    def reference(self):
        return (build_accumulating_step,)

    def _check_updates(self, build_accumulating_step):
        k, micro = 4, 4
        net, loss_fn, opt = fixed_setup()
        x, y = fixed_batch(n=k * micro)
        parts = [(x[i * micro:(i + 1) * micro], y[i * micro:(i + 1) * micro]) for i in range(k)]
        start = weights_of(net)
        big = grads_of(net, loss_fn, x, y)
        last_only = grads_of(net, loss_fn, *parts[-1])

        step = make_step(build_accumulating_step, net, loss_fn, opt, k)
        for i, (xb, yb) in enumerate(parts[:-1]):
            expected = float(loss_fn(net(xb), yb).asnumpy())
            loss = loss_value(run_step(step, xb, yb), tr("call {n}", n=i + 1))
            if abs(loss - expected) > 1e-4:
                raise Incorrect(tr("call {n} returned loss {loss:.6f}, expected the micro-batch's loss "
                                   "{expected:.6f}.", n=i + 1, loss=loss, expected=expected))
            if not close(weights_of(net), start):
                raise Incorrect(tr("with k={k}: expected the weights unchanged until call {k}, got changed weights "
                                   "after call {n}.", k=k, n=i + 1))
        loss_value(run_step(step, *parts[-1]), tr("call {n}", n=k))
        once = sgd_update(start, big)
        diagnose_update(weights_of(net), start, once, {
            tr("an update {k} times too large.", k=k): sgd_update(start, [g * k for g in big]),
            tr("the update of only the last micro-batch's gradient."): sgd_update(start, last_only),
        }, tr("after {k} micro-batches (one batch of {size} split in {k})", k=k, size=k * micro))

        big2 = grads_of(net, loss_fn, x, y)
        for xb, yb in parts:
            run_step(step, xb, yb)
        twice = sgd_update(once, big2)
        diagnose_update(weights_of(net), once, twice, {
            tr("an update that also contains the first window's gradients."): sgd_update(once, [a + b for a, b in
                                                                                        zip(big, big2)]),
        }, tr("after {n} micro-batches (the second update)", n=2 * k))
        return step


def build_scaled_step(net, loss_fn, optimizer, scaler, clip_norm):
    import mindspore as ms
    from mindspore import ops

    def forward_fn(data, label):
        loss = loss_fn(net(data), label)
        return scaler.scale(loss), loss

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (_, loss), grads = grad_fn(data, label)
        grads = scaler.unscale(grads)                        # the true gradients, before anything looks at them
        finite = ms.amp.all_finite(grads)
        if finite:                                           # check, then clip and update
            norm = sum([ops.square(g).sum() for g in grads]) ** 0.5
            factor = clip_norm / ops.maximum(norm, clip_norm)
            grads = tuple(g * factor for g in grads)         # the bound is meant for the true gradients
            loss = ops.depend(loss, optimizer(grads))
        loss = ops.depend(loss, scaler.adjust(finite))
        return loss

    return train_step


class ScaledStep(StepBuilder):
    """Three runs with a fresh ``DynamicLossScaler`` at 1024: a clean batch with a bound far above the gradient norm
    (the update must be plain SGD's, the loss the true one), a batch with a NaN feature (no update, the scale halved),
    and, on a new network, a batch whose true gradient norm is far above ``clip_norm`` (the update must be SGD with the
    true gradients clipped by their global norm). Clipping the gradients while they still carry the scale passes the
    first run and fails the third: the bound then cuts ``scale`` times too much."""

    names = ("build_scaled_step",)
    title = "a loss-scaled, clipped step"
    hint_text = ("Section 5's scaled_step is the pattern, and the \"Putting them together\" cell gives the order: "
                 "differentiate scaler.scale(loss) (with has_aux=True the true loss rides along), undo the scale on "
                 "the gradients before anything looks at them, ask ms.amp.all_finite, clip, and only then let the "
                 "optimizer run. Tell the scaler what happened (tied to the returned loss with ops.depend, like every "
                 "update).")
    solution_text = inspect.getsource(build_scaled_step)
    section = "5"

    SCALE = 1024.0
    FAR_ABOVE = 1e6   # a bound no gradient of the check reaches, even times the scale
    TIGHT = 0.05      # far below the true gradient norm of the batch with outliers (about 1.1)

    def reference(self):
        return (build_scaled_step,)

    def _setup(self, builder, clip_norm):
        import mindspore as ms

        net, loss_fn, opt = fixed_setup()
        scaler = ms.amp.DynamicLossScaler(scale_value=self.SCALE, scale_factor=2, scale_window=1000)
        return net, loss_fn, make_step(builder, net, loss_fn, opt, scaler, clip_norm), scaler

    def _check_updates(self, build_scaled_step):
        import mindspore as ms

        net, loss_fn, step, scaler = self._setup(build_scaled_step, self.FAR_ABOVE)
        x, y = fixed_batch()
        start, grads = weights_of(net), grads_of(net, loss_fn, x, y)
        expected_loss = float(loss_fn(net(x), y).asnumpy())
        what = tr("a finite step with the scale {scale:.0f}", scale=self.SCALE)
        loss = loss_value(run_step(step, x, y), "step(data, label)")
        if abs(loss - expected_loss) > 1e-4 * max(1.0, abs(expected_loss)):
            raise Incorrect(tr("{what}: step(data, label) returned {loss:.6g}; expected the true (unscaled) loss "
                               "{expected:.6g}.", what=what, loss=loss, expected=expected_loss))
        diagnose_update(weights_of(net), start, sgd_update(start, grads), {
            tr("an update {scale:.0f} times too large (the gradients still carry the scale).", scale=self.SCALE):
                sgd_update(start, [g * self.SCALE for g in grads]),
        }, what)

        before = weights_of(net)
        x_bad = x.asnumpy().copy()
        x_bad[0, 2] = np.nan
        run_step(step, ms.Tensor(x_bad), y)
        after = weights_of(net)
        if not close(after, before) or any(np.isnan(w).any() for w in after):
            raise Incorrect(tr("a batch with a NaN feature (its gradients are not finite): expected the update "
                               "skipped and the weights unchanged; got weights that changed ({n} of them NaN).",
                               n=int(sum(np.isnan(w).sum() for w in after))))
        scale = float(scaler.scale_value.asnumpy())
        if scale != self.SCALE / 2:
            raise Incorrect(tr("after the step with non-finite gradients the scale is {got:.0f}; expected "
                               "{expected:.0f} (halved).", got=scale, expected=self.SCALE / 2))

        net, loss_fn, step, scaler = self._setup(build_scaled_step, self.TIGHT)
        x, y = fixed_batch(outliers=0.25)
        start, grads = weights_of(net), grads_of(net, loss_fn, x, y)
        run_step(step, x, y)
        norm = float(np.sqrt(sum(float(np.sum(g.astype(np.float64) ** 2)) for g in grads)))
        what = tr("with clip_norm={clip_norm} and the scale {scale:.0f}", clip_norm=self.TIGHT, scale=self.SCALE)
        expected = sgd_update(start, global_clip(grads, self.TIGHT))
        # clipped while scaled: the update is 1024 times shorter, within diagnose_update's tolerance of no update at
        # all, so this mistake is named before diagnose_update runs
        short = sgd_update(start, [g / self.SCALE for g in global_clip([g * self.SCALE for g in grads], self.TIGHT)])
        if close(weights_of(net), short) and not close(weights_of(net), expected):
            raise Incorrect(tr("{what}: expected the SGD update (lr={lr}); got {message}", what=what, lr=LR, message=tr(
                "an update {scale:.0f} times too short: the gradients were clipped while they still carried the "
                "scale.", scale=self.SCALE)))
        diagnose_update(weights_of(net), start, expected, {
            tr("the update with the gradients not clipped (their global norm is {norm:.3g} > clip_norm {clip_norm}).",
               norm=norm, clip_norm=self.TIGHT): sgd_update(start, grads),
            tr("the update with each gradient tensor clipped on its own to clip_norm (its direction differs from the "
               "global-norm clipped one)."): sgd_update(start, per_tensor_clip(grads, self.TIGHT)),
        }, what)
        return step


def build_param_groups(net, backbone, weight_decay, backbone_lr):
    params = net.trainable_params()                                 # frozen parameters are not in it
    in_backbone = {id(p) for p in backbone.trainable_params()}
    parts = (([p for p in params if id(p) in in_backbone], {"lr": backbone_lr}),   # pretrained: a smaller lr
             ([p for p in params if id(p) not in in_backbone], {}))               # the head: the optimizer's lr
    groups = []
    for part, own_lr in parts:   # weight matrices and kernels decay; biases, gamma and beta (one per unit) do not
        groups.append({"params": [p for p in part if p.ndim > 1], "weight_decay": weight_decay, **own_lr})
        groups.append({"params": [p for p in part if p.ndim <= 1], "weight_decay": 0.0, **own_lr})
    return groups + [{"order_params": params}]                      # the order of the gradients


def _names(items) -> str:
    return ", ".join(items) if items else "-"


def _fine_tuned():
    """A pretrained ``backbone`` (Dense, frozen -> BatchNorm1d -> ReLU -> Dense -> LayerNorm) and a new ``head``
    (Dense); its trainable parameters are backbone.1.gamma, backbone.1.beta, backbone.3.weight, backbone.3.bias,
    backbone.4.gamma, backbone.4.beta, head.weight, head.bias."""
    from mindspore import nn

    class FineTuned(nn.Cell):
        def __init__(self):
            super().__init__()
            self.backbone = nn.SequentialCell([nn.Dense(6, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Dense(8, 4),
                                               nn.LayerNorm((4,))])
            self.head = nn.Dense(4, 1)
            for param in self.backbone[0].trainable_params():
                param.requires_grad = False

        def construct(self, x):
            return self.head(self.backbone(x))

    return FineTuned()


class ParamGroups(Exercise):
    """The check's network is a pretrained backbone with a frozen first layer (section 3), BatchNorm and LayerNorm,
    and a new head, so that a rule by name ("bias" not in the name), a parameter list taken from
    ``get_parameters()``, a missing ``order_params`` and a learning rate on the wrong group all show. It runs the
    optimizer once on parameters set to ones: ``nn.Adam`` with gradients of ones, where every parameter moves by its
    group's learning rate, and ``nn.Momentum`` with zero gradients, where only weight decay moves a parameter, by
    exactly its group's ``lr * weight_decay``."""

    names = ("build_param_groups",)
    title = "parameter groups"
    hint_text = ("Section 4 built such a list by hand for bn_net; a group dict may also carry its own \"lr\". Four "
                 "questions decide it. Which parameters may the optimizer hold at all (section 3: what does a frozen "
                 "parameter leave)? What tells a weight matrix from a bias, gamma or beta without reading its name? "
                 "How do you tell the backbone's parameters from the head's? In which order does value_and_grad "
                 "return the gradients, and how does a group list keep it?")
    solution_text = inspect.getsource(build_param_groups)

    WEIGHT_DECAY = 0.05
    LR = 0.1             # the optimizer's learning rate: the head's
    BACKBONE_LR = 0.01   # the pretrained backbone learns ten times slower

    def reference(self):
        return (build_param_groups,)

    @staticmethod
    def network():
        return _fine_tuned()

    def _groups(self, build_param_groups, net) -> list:
        """The learner's groups for ``net``, checked for shape: a list of dicts holding every trainable parameter
        exactly once, and nothing else."""
        import mindspore as ms

        groups = self.call(build_param_groups, net, net.backbone, self.WEIGHT_DECAY, self.BACKBONE_LR)
        if not isinstance(groups, (list, tuple)) or not all(isinstance(g, dict) for g in groups):
            raise Incorrect(tr("build_param_groups(net, net.backbone, {wd}, {lr}) returned {result}; expected a list "
                               "of dicts (each with \"params\", or one with \"order_params\").", wd=self.WEIGHT_DECAY,
                               lr=self.BACKBONE_LR, result=type(groups).__name__))
        listed = [p for g in groups for p in g.get("params", [])]
        if not all(isinstance(p, ms.Parameter) for p in listed):
            raise Incorrect(tr("a group's \"params\" holds something that is not a Parameter; expected the "
                               "network's Parameters."))
        trainable = [p.name for p in net.trainable_params()]
        names = [p.name for p in listed]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise Incorrect(tr("these parameters are in more than one group: {names}; expected each in exactly "
                               "one.", names=_names(twice)))
        extra = [n for n in names if n not in trainable]
        if extra:
            raise Incorrect(tr("the groups hold {names}, which are not trainable (a frozen layer, BatchNorm's moving "
                               "statistics); expected only net.trainable_params(): {trainable}.",
                               names=_names(extra), trainable=_names(trainable)))
        missing = [n for n in trainable if n not in names]
        if missing:
            raise Incorrect(tr("these trainable parameters are in no group, so the optimizer would never update "
                               "them: {names}.", names=_names(missing)))
        return groups

    def _moves(self, build_param_groups, optimizer_class, gradient, **kwargs) -> dict:
        """How far one call of ``optimizer_class`` built from the learner's groups moves each parameter (all set
        to ones; ``gradient`` is ``ops.zeros_like`` or ``ops.ones_like``), by name, in the optimizer's order."""
        from mindspore import ops

        net = self.network()
        groups = self._groups(build_param_groups, net)
        optimizer = optimizer_class(groups, learning_rate=self.LR, **kwargs)
        held = [p.name for p in optimizer.parameters]
        gradient_order = [p.name for p in net.trainable_params()]
        if held != gradient_order:
            raise Incorrect(tr("{optimizer} built from your groups holds the parameters in the order {held}; "
                               "value_and_grad(forward_fn, None, net.trainable_params()) returns the gradients in "
                               "the order {grads}, so a gradient would update another parameter.",
                               optimizer=f"nn.{optimizer_class.__name__}", held=_names(held),
                               grads=_names(gradient_order)))
        for p in optimizer.parameters:
            p.copy_(ops.ones_like(p))
        optimizer(tuple(gradient(p) for p in optimizer.parameters))
        return {p.name: float(np.max(np.abs(1 - p.asnumpy()))) for p in optimizer.parameters}

    def _check(self, build_param_groups):
        from mindspore import nn, ops

        net = self.network()
        backbone = {p.name for p in net.backbone.trainable_params()}
        lr_of = {p.name: self.BACKBONE_LR if p.name in backbone else self.LR for p in net.trainable_params()}
        intended = [p.name for p in net.trainable_params() if p.ndim > 1]
        spared = [p.name for p in net.trainable_params() if p.ndim <= 1]

        moves = self._moves(build_param_groups, nn.Adam, ops.ones_like)
        wrong = {n: m for n, m in moves.items() if abs(m - lr_of[n]) > 1e-4 * lr_of[n]}
        if wrong:
            got = ", ".join(f"{n} {m:.4g}" for n, m in wrong.items())
            raise Incorrect(tr("nn.Adam (lr={lr}) built from your groups, one call with gradients of ones: each "
                               "parameter moves by its learning rate. Expected {backbone_lr} for the backbone's "
                               "parameters ({backbone}) and {lr} for the head's ({head}); got {got}.", lr=self.LR,
                               backbone_lr=self.BACKBONE_LR, backbone=_names([n for n in lr_of if n in backbone]),
                               head=_names([n for n in lr_of if n not in backbone]), got=got))

        moves = self._moves(build_param_groups, nn.Momentum, ops.zeros_like, momentum=0.9)
        what = tr("nn.Momentum (lr={lr}) built from your groups, one call with zero gradients", lr=self.LR)
        decayed = [n for n in spared if moves[n] > 1e-7]
        if decayed:
            raise Incorrect(tr("{what}: weight decay reached {names}; expected it to spare the biases, gamma and "
                               "beta ({spared}).", what=what, names=_names(decayed), spared=_names(spared)))
        wrong = {n: moves[n] for n in intended if abs(moves[n] - lr_of[n] * self.WEIGHT_DECAY) > 1e-6}
        if wrong:
            got = ", ".join(f"{n} {m:.4g}" for n, m in wrong.items())
            expected = ", ".join(f"{n} {lr_of[n] * self.WEIGHT_DECAY:.4g}" for n in intended)
            raise Incorrect(tr("{what}: expected each weight matrix to shrink by its lr * weight_decay ({expected}); "
                               "got {got}.", what=what, expected=expected, got=got))


q1 = ClipBound()
q2 = AccumulatingStep()
q3 = ScaledStep()
q4 = ParamGroups()
register(globals(), "03")
