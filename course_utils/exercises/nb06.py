"""Exercises of notebook 06 (checkpoints, resume and inference).

q1 ``save_state`` / ``restore_state``: a checkpoint round trip of a training step, in the safetensors format, that
   restores the optimizer's state too (what resuming needs).
q2 ``predict_digit``: the prediction for one (28, 28) uint8 image, prepared as the pipeline prepares it.

q1 trains a small LeNet-5 step a few steps, lets the learner save it and restore it into a fresh step with other
weights, compares every parameter (weights and optimizer state), then trains both one more step on the same batch.
q2 runs the learner's function on a fixed LeNet-5 with BatchNorm and Dropout, handed over in training mode, and on
fixed images. MindSpore is imported on first use, not with this module.
"""

from __future__ import annotations

import inspect
import tempfile
from pathlib import Path

import numpy as np

from course_utils import data
from course_utils.exercises import Exercise, Incorrect, describe, register, to_numpy
from course_utils.exercises.nb05 import fixed_eval_case
from course_utils.i18n import tr

# ----------------------------------------------------------------------------------------------
# q1: a checkpoint round trip that restores the optimizer state
# ----------------------------------------------------------------------------------------------


def _training_step(seed: int):
    """A LeNet-5 training step with Adam (its state: moments, beta powers, global_step), in training mode."""
    import mindspore as ms
    from mindspore import nn

    from course_utils.models import LeNet5

    ms.set_seed(seed)
    net = LeNet5()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=1e-3)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)
    step.set_train(True)
    return step


def _batches(n: int = 4, seed: int = 0):
    import mindspore as ms

    rng = np.random.default_rng(seed)
    return [(ms.Tensor(rng.normal(size=(8, 1, 28, 28)).astype(np.float32)),
             ms.Tensor(rng.integers(0, 10, size=8).astype(np.int32))) for _ in range(n)]


def _values(step) -> dict:
    return {p.name: p.asnumpy().copy() for p in step.get_parameters()}


def _differing(first: dict, second: dict) -> list:
    return [name for name in first if name not in second or not np.array_equal(first[name], second[name])]


class CheckpointRoundTrip(Exercise):
    names = ("save_state", "restore_state")
    title = "a checkpoint round trip for resuming"
    hint_text = (
        "Save the training step, not the network: its parameters are the weights and the optimizer's state "
        "(moment1.*, moment2.*, beta1_power, global_step ...). save_state: ms.save_checkpoint(train_step, path, "
        "format=\"safetensors\"). The format comes from format=, not from the file name (without it MindSpore "
        "writes a ckpt file and appends .ckpt to the name). restore_state: params = ms.load_checkpoint(path, "
        "format=\"safetensors\"), then ms.load_param_into_net(train_step, params).")

    @property
    def solution_text(self) -> str:
        return "\n\n".join(inspect.getsource(f).replace(f.__name__, f.__name__[1:-len("_solution")])
                           for f in (_save_state_solution, _restore_state_solution))

    def reference(self):
        return (_save_state_solution, _restore_state_solution)

    def _check(self, save_state, restore_state):
        for name, fn in (("save_state", save_state), ("restore_state", restore_state)):
            if not callable(fn):
                raise Incorrect(tr("`{name}` should be a function, got {got}.", name=name, got=describe(fn)))
        import mindspore as ms

        batches = _batches()
        trained = _training_step(seed=0)
        for images, labels in batches[:3]:
            trained(images, labels)
        saved = _values(trained)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "state.safetensors"
            self.call(save_state, trained, str(path))
            if not path.is_file():
                written = sorted(p.name for p in Path(folder).iterdir())
                raise Incorrect(tr("save_state(train_step, '.../state.safetensors') wrote {written}, not "
                                   "state.safetensors.", written=written or tr("no file")))
            try:
                stored = ms.load_checkpoint(str(path), format="safetensors")
            except (ValueError, RuntimeError):
                raise Incorrect(tr("state.safetensors is not a safetensors file: MindSpore cannot read it with "
                                   "format='safetensors' (was it written in the ckpt format?).")) from None
            missing = [name for name in saved if name not in stored]
            if missing:
                raise Incorrect(tr("state.safetensors lacks {n} of the training step's {total} parameters, e.g. "
                                   "{examples}: the optimizer's state is not in the file.",
                                   n=len(missing), total=len(saved), examples=missing[:3]))
            fresh = _training_step(seed=1)
            self.call(restore_state, fresh, str(path))
        differ = _differing(saved, _values(fresh))
        if differ:
            weights = [name for name in differ if "." in name and not name.startswith(("moment1.", "moment2."))]
            what = (tr("the weights, e.g. {examples}", examples=weights[:3]) if weights else
                    tr("the optimizer's state, e.g. {examples}", examples=differ[:3]))
            raise Incorrect(tr("after restore_state, {n} of the {total} parameters of the fresh training step still "
                               "differ from the saved ones: {what}.", n=len(differ), total=len(saved), what=what))
        images, labels = batches[3]
        trained(images, labels)
        fresh(images, labels)
        differ = _differing(_values(trained), _values(fresh))
        if differ:
            raise Incorrect(tr("after one more training step on the same batch, {n} parameters of the restored step "
                               "differ from the original's, e.g. {examples}.", n=len(differ), examples=differ[:3]))


def _save_state_solution(train_step, path):
    import mindspore as ms

    ms.save_checkpoint(train_step, path, format="safetensors")   # the step: weights and optimizer state


def _restore_state_solution(train_step, path):
    import mindspore as ms

    params = ms.load_checkpoint(path, format="safetensors")      # the same format= as when saving
    ms.load_param_into_net(train_step, params)


# ----------------------------------------------------------------------------------------------
# q2: predicting one image
# ----------------------------------------------------------------------------------------------

def _fixed_images(n: int = 3, seed: int = 6) -> list:
    """``n`` fixed (28, 28) uint8 images: a bright square and noise, like a crude digit."""
    rng = np.random.default_rng(seed)
    images = []
    for i in range(n):
        pixels = rng.integers(0, 60, size=(28, 28))
        pixels[6 + 2 * i:20, 8:18 + i] = rng.integers(180, 256, size=(14 - 2 * i, 10 + i))
        images.append(pixels.astype(np.uint8))
    return images


def _probabilities(network, x: np.ndarray) -> np.ndarray:
    """Softmax of ``network`` on the float32 batch ``x`` in evaluation mode, as NumPy."""
    import mindspore as ms

    network.set_train(False)
    logits = network(ms.Tensor(x.astype(np.float32))).asnumpy()[0]
    e = np.exp(logits - logits.max())
    return e / e.sum()


def _listed(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{v:.3f}" for v in values) + "]"


class PredictDigit(Exercise):
    names = ("predict_digit",)
    title = "predict one image"
    hint_text = (
        "Prepare the pixels as the pipeline does: x = (pixels.astype(np.float32) / 255.0 - data.MNIST_MEAN) / "
        "data.MNIST_STD. The network takes a batch (N, 1, 28, 28): x[None, None]. Call network.set_train(False) "
        "before predicting. ops.softmax(logits, axis=-1) turns the logits into probabilities; take row 0 as a "
        "NumPy array, and the digit is int(probabilities.argmax()).")

    @property
    def solution_text(self) -> str:
        return inspect.getsource(_predict_digit_solution).replace("_predict_digit_solution", "predict_digit")

    def reference(self):
        return (_predict_digit_solution,)

    def _check(self, predict_digit):
        if not callable(predict_digit):
            raise Incorrect(tr("`predict_digit` should be a function, got {got}.", got=describe(predict_digit)))
        reference_net = fixed_eval_case()[0]     # evaluation mode only, so its state never changes
        for index, pixels in enumerate(_fixed_images()):
            scaled = pixels.astype(np.float32) / 255.0
            expected = _probabilities(reference_net, ((scaled - data.MNIST_MEAN) / data.MNIST_STD)[None, None])
            net = fixed_eval_case()[0]                # a fresh one each time: a training-mode call changes BatchNorm
            what = tr("predict_digit(network, image {index})", index=index)
            got = self.call(predict_digit, net, pixels.copy())
            if not isinstance(got, (tuple, list)) or len(got) != 2:
                raise Incorrect(tr("{what} returned {got}; return two values: (digit, probabilities).",
                                   what=what, got=describe(got)))
            digit, probabilities = got
            if isinstance(digit, (bool, np.bool_)) or not isinstance(digit, (int, np.integer)):
                raise Incorrect(tr("{what}: the digit is {got}; expected an int.", what=what, got=describe(digit)))
            try:
                p = np.asarray(to_numpy(probabilities), dtype=np.float64)
            except (TypeError, ValueError):
                raise Incorrect(tr("{what}: the probabilities are {got}; expected 10 numbers.",
                                   what=what, got=describe(probabilities))) from None
            if p.shape != (10,):
                hint = tr(" (Row 0 of the batch's result is the image's.)") if p.size == 10 else ""
                raise Incorrect(tr("{what}: the probabilities have shape {shape}; expected (10,).{hint}",
                                   what=what, shape=p.shape, hint=hint))
            if not np.isclose(p.sum(), 1.0, atol=1e-4):
                raise Incorrect(tr("{what}: the probabilities sum to {total:.4g}, not 1 (logits rather than "
                                   "probabilities?).", what=what, total=p.sum()))
            if not np.allclose(p, expected, atol=1e-5):
                hint = ""
                if net.calls_in_training_mode:
                    hint = tr(" The network was in training mode while it predicted (the network was handed over "
                              "in training mode).")
                elif np.allclose(p, _probabilities(reference_net, scaled[None, None]), atol=1e-5):
                    hint = tr(" (These are the probabilities for the pixels scaled to [0, 1] but not normalised "
                              "with MNIST_MEAN and MNIST_STD.)")
                elif np.allclose(p, _probabilities(reference_net, pixels.astype(np.float32)[None, None]),
                                 atol=1e-5):
                    hint = tr(" (These are the probabilities for the raw 0-255 pixels.)")
                raise Incorrect(tr("{what}: the probabilities differ from the expected ones by up to {diff:.3g} "
                                   "(expected {expected}, got {got}).{hint}", what=what,
                                   diff=float(np.abs(p - expected).max()), expected=_listed(expected),
                                   got=_listed(p), hint=hint))
            if int(digit) != int(expected.argmax()):
                raise Incorrect(tr("{what}: the digit is {digit}, but the largest probability is that of {best}.",
                                   what=what, digit=int(digit), best=int(expected.argmax())))


def _predict_digit_solution(network, pixels):
    import mindspore as ms
    from mindspore import ops

    x = (pixels.astype(np.float32) / 255.0 - data.MNIST_MEAN) / data.MNIST_STD   # as the pipeline prepares it
    network.set_train(False)                                                     # evaluation mode
    logits = network(ms.Tensor(x[None, None]))                                  # a batch of one: (1, 1, 28, 28)
    probabilities = ops.softmax(logits, axis=-1).asnumpy()[0]
    return int(probabilities.argmax()), probabilities


q1 = CheckpointRoundTrip()
q2 = PredictDigit()
__all__ = ["q1", "q2"]
register(globals(), "06")
