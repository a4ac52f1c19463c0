"""Exercises of notebook 02 (the functional training step).

The exercise asks for a *builder*: a function that takes a network, a loss and an optimizer and returns
``step(data, label) -> loss``; how the check judges it (fixed weights, plain SGD, the update compared with what a
correct step and typical wrong steps would make) is ``course_utils.exercises.step_builders``, which lesson 03's
exercises share.
"""

from __future__ import annotations

from course_utils.exercises import Incorrect, register
from course_utils.exercises.step_builders import (StepBuilder, diagnose_update, fixed_batch, fixed_setup, grads_of,
                                                  jit_step_solution, loss_value, make_step, run_step, sgd_update,
                                                  weights_of)
from course_utils.i18n import tr


class HasAuxStep(StepBuilder):
    names = ("build_train_step",)
    title = "a training step with has_aux"
    hint_text = ("Inside build_train_step: define forward_fn(data, label) returning (loss, logits); "
                 "grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True); then a "
                 "@ms.jit train_step(data, label) that unpacks (loss, _), grads = grad_fn(data, label), applies "
                 "the optimizer with ops.depend and returns the loss. Return train_step.")
    solution_text = jit_step_solution("build_train_step(net, loss_fn, optimizer)")

    def _check_updates(self, build_train_step):
        net, loss_fn, opt = fixed_setup()
        x, y = fixed_batch()
        start = weights_of(net)
        expected_loss = float(loss_fn(net(x), y).asnumpy())
        grads = grads_of(net, loss_fn, x, y)
        no_aux = grads_of(net, loss_fn, x, y, has_aux=False)

        step = make_step(build_train_step, net, loss_fn, opt)
        loss = loss_value(run_step(step, x, y), "step(data, label)")
        if abs(loss - expected_loss) > 1e-4:
            raise Incorrect(tr("the first call returned loss {loss:.6f}, expected {expected:.6f} (the Huber loss of "
                               "the batch before the update).", loss=loss, expected=expected_loss))
        diagnose_update(weights_of(net), start, sgd_update(start, grads), {
            tr("the update with the gradients of loss + logits.sum() instead of the loss's."):
                sgd_update(start, no_aux),
        }, tr("after one step"))
        second_expected = float(loss_fn(net(x), y).asnumpy())
        second = loss_value(run_step(step, x, y), tr("the second step(data, label)"))
        if abs(second - second_expected) > 1e-4:
            raise Incorrect(tr("the second call returned loss {loss:.6f}, expected {expected:.6f} (the loss with the "
                               "weights after the first update).", loss=second, expected=second_expected))


q1 = HasAuxStep()
register(globals(), "02")
