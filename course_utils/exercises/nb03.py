"""Exercises of notebook 03 (step techniques and traps): a clipped step, an accumulating step and a loss-scaled step.

Each asks for a step *builder*, as exercise 02.1 does; the checks (fixed weights, plain SGD, the update compared
with what a correct step and typical wrong steps would make) are ``course_utils.exercises.step_builders``.
"""

from __future__ import annotations

import inspect

import numpy as np

from course_utils.exercises import Incorrect, register
from course_utils.exercises.step_builders import (StepBuilder, builder_solution, close, diagnose_update, fixed_batch,
                                                  fixed_setup, global_clip, grads_of, jit_step_solution, loss_value,
                                                  make_step, per_tensor_clip, run_step, sgd_update, weights_of)
from course_utils.i18n import tr


class ClippedStep(StepBuilder):
    names = ("build_clipped_step",)
    title = "clip by the global norm"
    hint_text = ("Start from your step of exercise 02.1 and insert one line between the gradients and the update: "
                 "grads = ops.clip_by_global_norm(grads, max_norm). It rescales all gradients by the same factor "
                 "min(1, max_norm / global_norm), so their direction is kept.")
    solution_text = jit_step_solution("build_clipped_step(net, loss_fn, optimizer, max_norm)",
                                      "    grads = ops.clip_by_global_norm(grads, max_norm)\n")

    option = "clip_norm"

    def _one_update(self, builder, max_norm: float, outliers: float):
        net, loss_fn, opt = fixed_setup()
        x, y = fixed_batch(outliers=outliers)
        start = weights_of(net)
        grads = grads_of(net, loss_fn, x, y)
        step = make_step(builder, net, loss_fn, opt, max_norm)
        loss_value(run_step(step, x, y), "step(data, label)")
        return start, grads, weights_of(net)

    def _check_updates(self, build_clipped_step):
        # A batch with outliers: the global norm is far above max_norm, so clipping must shrink it.
        max_norm = 0.05
        start, grads, got = self._one_update(build_clipped_step, max_norm, outliers=0.25)
        norm = float(np.sqrt(sum(float(np.sum(g ** 2)) for g in grads)))
        diagnose_update(got, start, sgd_update(start, global_clip(grads, max_norm)), {
            tr("the update with the gradients not clipped (their global norm is {norm:.3g} > max_norm {max_norm}).",
               norm=norm, max_norm=max_norm): sgd_update(start, grads),
            tr("the update with each gradient tensor clipped on its own to max_norm (its direction differs from the "
               "global-norm clipped one)."): sgd_update(start, per_tensor_clip(grads, max_norm)),
        }, tr("with max_norm={max_norm}", max_norm=max_norm))
        # Below the threshold clipping must not change anything.
        max_norm = 1e3
        start, grads, got = self._one_update(build_clipped_step, max_norm, outliers=0.0)
        diagnose_update(got, start, sgd_update(start, grads), {}, tr("with max_norm={max_norm} (far above the gradient "
                         "norm, so the update must be the unclipped one)", max_norm=max_norm))


class AccumulatingStep(StepBuilder):
    names = ("build_accumulating_step",)
    title = "gradient accumulation"
    hint_text = ("Clone zero buffers: accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros') "
                 "(not 'accum': SGD uses that name). Compile two functions: one adds grad / k to every buffer "
                 "(ops.assign_add), one applies optimizer(accum) and then zeroes the buffers (ops.assign). Count "
                 "the calls in Python and run the second one every k-th call.")
    solution_text = builder_solution("build_accumulating_step(net, loss_fn, optimizer, k)", '''
accum = optimizer.parameters.clone(prefix="grad_accum", init="zeros")

@ms.jit
def accumulate(data, label):
    (loss, _), grads = grad_fn(data, label)
    for buf, grad in zip(accum, grads):
        loss = ops.depend(loss, ops.assign_add(buf, grad / k))
    return loss

@ms.jit
def apply_and_zero():
    done = optimizer(tuple(accum))
    for buf in accum:
        done = ops.depend(done, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))
    return done

calls = {"n": 0}

def train_step(data, label):
    loss = accumulate(data, label)
    calls["n"] += 1
    if calls["n"] % k == 0:
        apply_and_zero()
    return loss

return train_step
''')

    option = "accumulate"

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
            tr("an update that also contains the first round's gradients."): sgd_update(once, [a + b for a, b in
                                                                                        zip(big, big2)]),
        }, tr("after {n} micro-batches (the second update)", n=2 * k))


def build_scaled_step(net, loss_fn, optimizer, scaler):
    import mindspore as ms
    from mindspore import ops

    def forward_fn(data, label):
        loss = loss_fn(net(data), label)
        return scaler.scale(loss), loss

    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    @ms.jit
    def train_step(data, label):
        (_, loss), grads = grad_fn(data, label)
        grads = scaler.unscale(grads)
        finite = ms.amp.all_finite(grads)
        if finite:
            loss = ops.depend(loss, optimizer(grads))
        loss = ops.depend(loss, scaler.adjust(finite))
        return loss

    return train_step


class ScaledStep(StepBuilder):
    names = ("build_scaled_step",)
    title = "a loss-scaled step"
    hint_text = ("Section 5's scaled_step is the pattern: differentiate scaler.scale(loss) (with has_aux=True the "
                 "true loss rides along), undo the scale on the gradients before anything looks at them, let "
                 "ms.amp.all_finite decide whether the optimizer runs, and tell the scaler what happened (tied to the "
                 "returned loss with ops.depend, like every update).")
    solution_text = inspect.getsource(build_scaled_step)

    SCALE = 1024.0

    def reference(self):
        return (build_scaled_step,)

    def _setup(self, builder):
        import mindspore as ms

        net, loss_fn, opt = fixed_setup()
        scaler = ms.amp.DynamicLossScaler(scale_value=self.SCALE, scale_factor=2, scale_window=1000)
        return net, loss_fn, make_step(builder, net, loss_fn, opt, scaler), scaler

    def _check_updates(self, build_scaled_step):
        import mindspore as ms

        net, loss_fn, step, scaler = self._setup(build_scaled_step)
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


q1 = ClippedStep()
q2 = AccumulatingStep()
q3 = ScaledStep()
register(globals(), "03")
