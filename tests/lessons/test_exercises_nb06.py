"""Notebook 06's exercise checks accept the reference and reject typical wrong answers."""

import numpy as np
import pytest

import mindspore as ms
from mindspore import ops

from support import PYNATIVE_FAST_GRAPH_SLOW
from course_utils import data
from course_utils.exercises import Outcome, ____, nb06


# ---- q1: a checkpoint round trip that restores the optimizer state ------------------------------------

def test_q1_accepts_the_reference():
    assert nb06.q1.check(*nb06.q1.reference()) == Outcome.CORRECT


def test_q1_refuses_the_course_wrapper_under_any_name_and_puts_it_back():
    """The statement asks for MindSpore's own calls: course_utils.checkpoint doing the round trip is refused, also
    imported under another name, and works again after the check."""
    from course_utils import checkpoint
    from course_utils.checkpoint import save as my_save

    def save_state(train_step, path, epoch, step_in_epoch):
        my_save(path, train_step, epoch=epoch, step_in_epoch=step_in_epoch)

    def restore_state(train_step, path):
        info = checkpoint.load(path, train_step)
        return info.epoch, info.step_in_epoch

    result = nb06.q1.check(save_state, restore_state)
    assert result == Outcome.INCORRECT and "course_utils.checkpoint" in result.message, result.message

    def save_by_hand(train_step, path, epoch, step_in_epoch):
        nb06.q1.reference()[0](train_step, path, epoch, step_in_epoch)

    assert nb06.q1.check(save_by_hand, restore_state) == Outcome.INCORRECT   # the restore half alone is refused too
    assert nb06.q1.check(*nb06.q1.reference()) == Outcome.CORRECT
    assert checkpoint.save.__code__.co_name == "save" and checkpoint.load.__code__.co_name == "load"


def test_q1_not_attempted():
    def save_state(train_step, path, epoch, step_in_epoch):
        ____

    assert nb06.q1.check(save_state, nb06.q1.reference()[1]) == Outcome.NOT_ATTEMPTED


def _save(network_only=False, fmt="safetensors", position=True):
    def save_state(train_step, path, epoch, step_in_epoch):
        cell = train_step.network._backbone if network_only else train_step
        extra = {"append_dict": {"epoch": epoch, "step_in_epoch": step_in_epoch}} if position else {}
        ms.save_checkpoint(cell, path, **({"format": fmt} if fmt else {}), **extra)

    return save_state


def _restore(fmt="safetensors", into_net=True, position=True):
    def restore_state(train_step, path):
        params = ms.load_checkpoint(path, **({"format": fmt} if fmt else {}))
        if into_net:
            ms.load_param_into_net(train_step, params)
        if position:
            return int(params["epoch"].asnumpy()), int(params["step_in_epoch"].asnumpy())
        return None

    return restore_state


# Messages state symptoms (what was written, which parameters differ), never the fix.
@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("save, restore, message", [
    (_save(fmt=None), _restore(fmt=None), "wrote ['state.safetensors.ckpt'], not state.safetensors"),
    (_save(network_only=True), _restore(), "the optimizer's state is not in the file"),
    (_save(), _restore(into_net=False), "still differ from the saved ones: the weights"),
    (lambda step, path, epoch, step_in_epoch: None, _restore(), "wrote no file"),
    (_save(position=False), _restore(position=False), "the position (epoch 1, step_in_epoch 37) is not in the file"),
    (_save(), _restore(position=False), "returned None; expected the position read from the file, (1, 37)"),
])
def test_q1_rejects_typical_mistakes(ms_mode, save, restore, message):
    result = nb06.q1.check(save, restore)
    assert result == Outcome.INCORRECT
    assert message in result.message, result.message


@PYNATIVE_FAST_GRAPH_SLOW
def test_q1_rejects_a_ckpt_file_under_the_safetensors_name(ms_mode):
    import os

    def save_state(train_step, path, epoch, step_in_epoch):
        ms.save_checkpoint(train_step, path)        # writes path + ".ckpt"
        os.replace(path + ".ckpt", path)

    result = nb06.q1.check(save_state, _restore())
    assert result == Outcome.INCORRECT and "is not a safetensors file" in result.message


@PYNATIVE_FAST_GRAPH_SLOW
def test_q1_rejects_a_restore_that_forgets_the_optimizer_state(ms_mode):
    def restore_state(train_step, path):
        params = ms.load_checkpoint(path, format="safetensors")
        weights = {name: p for name, p in params.items() if "." in name and not name.startswith("moment")}
        ms.load_param_into_net(train_step, weights)
        return int(params["epoch"].asnumpy()), int(params["step_in_epoch"].asnumpy())

    result = nb06.q1.check(_save(), restore_state)
    assert result == Outcome.INCORRECT and "the optimizer's state, e.g." in result.message


# ---- q2: predicting a batch and restoring the mode ------------------------------------------------------

def test_q2_accepts_the_reference():
    assert nb06.q2.check(*nb06.q2.reference()) == Outcome.CORRECT


def test_q2_not_attempted():
    def predict_batch(network, images):
        return ____

    assert nb06.q2.check(predict_batch) == Outcome.NOT_ATTEMPTED


def test_q2_fixed_images_give_different_predictions():
    labels, probabilities = nb06.q2.reference()[0](nb06.fixed_eval_case()[0], nb06._fixed_images())
    assert len(set(labels.tolist())) >= 2, "the fixed images should not all give the same label"
    assert probabilities.shape == (4, 10)


def _normalise(pixels_uint8):     # as in the lesson
    x = (pixels_uint8.astype(np.float32) / 255.0 - data.MNIST_MEAN) / data.MNIST_STD
    return x[None, None]


def test_q2_refuses_the_course_helpers_copied_from_the_lesson_under_any_name():
    """Section 5's show_prediction (evaluate.predict_logits + evaluate.softmax) does the exercise: refused, also
    imported under another name, and both work again after the check."""
    from course_utils import evaluate
    from course_utils.evaluate import softmax as my_softmax

    helpers = evaluate.predict_logits, evaluate.softmax

    def predict_batch(network, images):
        logits, _ = evaluate.predict_logits(network, np.concatenate([_normalise(im) for im in images]))
        p = evaluate.softmax(logits)
        return p.argmax(axis=1), p

    result = nb06.q2.check(predict_batch)
    assert result == Outcome.INCORRECT
    assert "called course_utils.evaluate (predict_logits or softmax" in result.message, result.message

    def softmax_only(network, images):
        labels, _ = nb06.q2.reference()[0](network, images)
        was_training = network.training
        network.set_train(False)
        logits = network(ms.Tensor(np.concatenate([_normalise(im) for im in images]))).asnumpy()
        network.set_train(was_training)
        return labels, my_softmax(logits)

    result = nb06.q2.check(softmax_only)
    assert result == Outcome.INCORRECT
    assert "called course_utils.evaluate (predict_logits or softmax" in result.message, result.message
    assert (evaluate.predict_logits, evaluate.softmax) == helpers, "the helpers are put back after the check"
    assert [f.__code__.co_name for f in helpers] == ["predict_logits", "softmax"], "their code is put back too"
    assert nb06.q2.check(*nb06.q2.reference()) == Outcome.CORRECT


def test_q2_accepts_the_lessons_normalise_with_mindspore_calls():
    def predict_batch(network, images):
        was_training = network.training
        network.set_train(False)
        try:
            logits = network(ms.Tensor(np.concatenate([_normalise(im) for im in images])))
        finally:
            network.set_train(was_training)
        p = ops.softmax(logits, axis=1).asnumpy()
        return p.argmax(axis=1), p

    assert nb06.q2.check(predict_batch) == Outcome.CORRECT


def _predict(scale=True, normalise=True, eval_mode=True, restore="set_train", logits=False, axis=-1,
             labels_as_float=False, one_image=False):
    def predict_batch(network, images):
        was_training = network.training
        x = images.astype(np.float32)
        if scale:
            x = x / 255.0
        if normalise:
            x = (x - data.MNIST_MEAN) / data.MNIST_STD
        if eval_mode:
            network.set_train(False)
        out = network(ms.Tensor(x[:, None]))
        if restore == "set_train":
            network.set_train(was_training)
        elif restore == "attribute":
            network.training = was_training
        elif restore == "always_train":
            network.set_train(True)
        p = (out if logits else ops.softmax(out, axis=axis)).asnumpy()
        if one_image:
            p = p[0]
        labels = p.argmax(axis=-1)
        return (labels.astype(np.float32) if labels_as_float else labels), p

    return predict_batch


# Messages state symptoms (what came back, which mode the network is left in), never the fix.
@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("answer, message", [
    (_predict(normalise=False), "scaled to [0, 1] but not normalised"),
    (_predict(scale=False, normalise=False), "raw 0-255 pixels"),
    (_predict(eval_mode=False), "in training mode while it predicted"),
    (_predict(restore=None), "network in training mode: afterwards network.training is False"),
    (_predict(restore="attribute"), "is True again, but 11 of its sub-cells are not, e.g. ['bn1'"),
    (_predict(restore="always_train"), "network in evaluation mode: afterwards network.training is True"),
    (_predict(logits=True), "logits rather than probabilities"),
    (_predict(axis=0), "softmax over the wrong axis"),
    (_predict(one_image=True), "expected (4, 10), a row of 10 per image"),
    (_predict(labels_as_float=True), "expected 4 integers, one per image"),
    (lambda network, images: 3, "return two values"),
])
def test_q2_rejects_typical_mistakes(ms_mode, answer, message):
    result = nb06.q2.check(answer)
    assert result == Outcome.INCORRECT
    assert message in result.message, result.message


def test_q1_accepts_the_position_as_numpy_or_tensor_integers():
    def restore_state(train_step, path):
        params = ms.load_checkpoint(path, format="safetensors")
        ms.load_param_into_net(train_step, params)
        return params["epoch"].asnumpy(), params["step_in_epoch"]

    assert nb06.q1.check(_save(), restore_state) == Outcome.CORRECT


# ---- q3: reloading a checkpoint into a step that has already run ---------------------------------------

def test_q3_accepts_the_reference(ms_mode):
    assert nb06.q3.check(*nb06.q3.reference()) == Outcome.CORRECT


def _renamed(path):
    """The file's entries under the network's names (the check writes them with the prefix ``backbone.``)."""
    return {name.split(".", 1)[1]: p for name, p in ms.load_checkpoint(path).items()}


def test_q3_accepts_the_course_helper_with_the_names_matched():
    from course_utils.callbacks import restore_weights

    def with_restore_weights(network, path):
        restore_weights(network, {name: p.asnumpy() for name, p in _renamed(path).items()})

    assert nb06.q3.check(with_restore_weights) == Outcome.CORRECT


def test_q3_refuses_the_lessons_copy_loop_copied_as_it_stands():
    """Section 4's with_copy_ after an ms.load_checkpoint: the file's names carry a prefix, so it fails."""
    def reload_from_file(network, path):
        weights = ms.load_checkpoint(path)
        for name, param in network.parameters_and_names():
            param.copy_(ms.Tensor(weights[name]))

    result = nb06.q3.check(reload_from_file)
    assert result == Outcome.INCORRECT
    assert "raised KeyError: 'fc1.weight'. The file's entries are named ['backbone.fc1.weight'" in result.message, \
        result.message
    assert nb06.q3.check(*nb06.q3.reference()) == Outcome.CORRECT


def test_q3_the_files_names_carry_the_prefix():
    from course_utils import checkpoint

    def with_checkpoint_load(network, path):   # strict: the network's names are not in the file
        checkpoint.load(path, network)

    result = nb06.q3.check(with_checkpoint_load)
    assert result == Outcome.INCORRECT


def test_q3_not_attempted():
    def reload_from_file(network, path):
        ____

    assert nb06.q3.check(reload_from_file) == Outcome.NOT_ATTEMPTED


def _load_param_into_net(network, path):
    ms.load_param_into_net(network, _renamed(path))


def _load_checkpoint_into_net(network, path):
    ms.load_checkpoint(path, net=network)      # MindSpore matches the prefixed names by itself


def _set_data(network, path):
    stored = _renamed(path)
    for name, param in network.parameters_and_names():
        param.set_data(stored[name])


def _weights_only(network, path):
    stored = _renamed(path)
    for name, param in network.parameters_and_names():
        if name.endswith("weight"):
            param.copy_(stored[name])


# Messages state symptoms (which step, what loss, where the weights ended), never the fix.
@PYNATIVE_FAST_GRAPH_SLOW
@pytest.mark.parametrize("answer, message", [
    (_load_param_into_net, "step in {mode}: the step after the reload gave the loss"),
    (_load_checkpoint_into_net, "still the file's values: the step's update did not reach them"),
    (_set_data, "functional, @jit step in {mode}: the step after the reload gave the loss"),
    (_weights_only, "2 of the network's 4 parameters do not hold the file's values, e.g. ['fc1.bias', 'fc2.bias']"),
])
def test_q3_rejects_typical_mistakes(ms_mode, answer, message):
    result = nb06.q3.check(answer)
    assert result == Outcome.INCORRECT
    mode = "GRAPH_MODE" if ms.get_context("mode") == ms.GRAPH_MODE else "PYNATIVE_MODE"
    assert message.format(mode=mode) in result.message, result.message
