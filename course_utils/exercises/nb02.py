"""Exercises of notebook 02 (the functional training step).

The exercise asks for a *builder*: a function that takes a network, a loss and an optimizer and returns
``step(data, label) -> loss``; how the check judges it (fixed weights, plain SGD, the update compared with what a
correct step and typical wrong steps would make) is ``course_utils.exercises.step_builders``, which lesson 03's
exercises share. ``q2`` asks for the gradient of the loss with respect to the input (``grad_position=0``).
"""

from __future__ import annotations

import inspect

from course_utils.exercises import Exercise, Incorrect, register
from course_utils.exercises.step_builders import (StepBuilder, diagnose_update, fixed_batch, fixed_setup, grads_of,
                                                  jit_step_solution, loss_value, make_step, run_step, sgd_update,
                                                  weights_of)
from course_utils.i18n import N_, tr


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


def input_gradient(net, loss_fn, data, label):
    import mindspore as ms

    def forward(data, label):
        return loss_fn(net(data), label)

    _, grad = ms.value_and_grad(forward, 0, None)(data, label)
    return grad


class InputGradient(Exercise):
    names = ("input_gradient",)
    title = N_("the gradient with respect to the input")
    hint_text = N_("Write a function of (data, label) that returns only the loss, then ms.value_and_grad with "
                   "grad_position=0 (data is input 0) and weights=None; it returns (loss, gradient).")
    solution_text = inspect.getsource(input_gradient)

    def reference(self):
        return (input_gradient,)

    def _check(self, input_gradient):
        import mindspore as ms
        import numpy as np

        net, loss_fn, _ = fixed_setup()
        x, y = fixed_batch()
        got = self.call(input_gradient, net, loss_fn, x, y)
        if not isinstance(got, ms.Tensor):
            raise Incorrect(tr("input_gradient(net, loss_fn, data, label) returned {got}; expected one Tensor of "
                               "data's shape {shape}.", got=type(got).__name__, shape=tuple(x.shape)))
        if tuple(got.shape) != tuple(x.shape):
            raise Incorrect(tr("the gradient has shape {got}, expected data's shape {shape} (label's shape is "
                               "{label}).", got=tuple(got.shape), shape=tuple(x.shape), label=tuple(y.shape)))
        want = input_gradient_reference(net, loss_fn, x, y)

        def loss_plus_logit_sum(data, label):
            logits = net(data)
            return loss_fn(logits, label) + logits.sum()

        both = ms.value_and_grad(loss_plus_logit_sum, 0, None)(x, y)[1].asnumpy()
        if np.allclose(got.asnumpy(), both, atol=1e-5):
            raise Incorrect(tr("these are the gradients of loss + logits.sum(): the function you differentiated "
                               "returns two outputs, and MindSpore differentiates their sum (section 2)."))
        if not np.allclose(got.asnumpy(), want, atol=1e-5):
            raise Incorrect(tr("the gradient differs from d loss / d data by up to {gap:.3g}.",
                               gap=float(np.abs(got.asnumpy() - want).max())))


def input_gradient_reference(net, loss_fn, data, label):
    return input_gradient(net, loss_fn, data, label).asnumpy()


q1 = HasAuxStep()
q2 = InputGradient()
register(globals(), "02")
