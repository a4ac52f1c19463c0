"""Exercises of notebook 06 (checkpoints, resume and inference).

q1 ``save_state`` / ``restore_state``: a checkpoint round trip of a training step, in the safetensors format, that
   restores the optimizer's state too and stores the position in training (epoch, step in it): what resuming needs.
q2 ``predict_batch``: labels and probabilities for N raw (28, 28) uint8 images, prepared as the pipeline prepares
   them, in evaluation mode, leaving the network (and every sub-cell) in the mode it was in.
q3 ``reload_from_file``: reload a checkpoint into a network whose training step has already run, so that the
   next step starts from the reloaded weights (the weight-reload trap of the lesson's section 4).

q1 trains a small LeNet-5 step a few steps, lets the learner save it with a position and restore it into a fresh
step with other weights, compares every parameter (weights and optimizer state) and the position returned, then
trains both one more step on the same batch.
q2 runs the learner's function on a fixed LeNet-5 with BatchNorm and Dropout, handed over once in training mode
and once in evaluation mode, on fixed images; while it runs, the course helpers that do the exercise
(``evaluate.predict_logits`` and ``evaluate.softmax``) are refused under any name (``refusing``).
q3 runs the lesson's trial (``reload_takes_effect``) in the current mode for three kinds of step: a few steps,
the learner's reload of the initial weights from a ckpt file, one more step; that step's loss and the weights
after it must be those of a fresh network's first step. The file's entry names carry the prefix ``backbone.``
(as a larger model that held the network as a sub-cell names them), so the lesson's ``with_copy_`` loop copied
as it stands does not pass: the learner matches the names. MindSpore is imported on first use, not with this module.
"""

from __future__ import annotations

import inspect
import tempfile
from pathlib import Path

import numpy as np

from course_utils import data, runtime
from course_utils.exercises import Exercise, Incorrect, describe, refusing, register, to_numpy
from course_utils.exercises.nb05 import fixed_eval_case
from course_utils.exercises.step_builders import fixed_batch, fixed_setup
from course_utils.i18n import N_, tr

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
        "format=\"safetensors\", append_dict={\"epoch\": epoch, \"step_in_epoch\": step_in_epoch}). The format "
        "comes from format=, not from the file name (without it MindSpore writes a ckpt file and appends .ckpt to "
        "the name). restore_state: params = ms.load_checkpoint(path, format=\"safetensors\"), then "
        "ms.load_param_into_net(train_step, params); the position comes back as entries of params: "
        "int(params[\"epoch\"].asnumpy()).")

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
            with refusing(_checkpoint_helpers(), tr(_CHECKPOINT_REFUSED)):
                self.call(save_state, trained, str(path), *_POSITION)
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
            if not any(name not in saved for name in stored):
                raise Incorrect(tr("state.safetensors holds only the training step's parameters: the position "
                                   "(epoch {epoch}, step_in_epoch {step}) is not in the file.",
                                   epoch=_POSITION[0], step=_POSITION[1]))
            fresh = _training_step(seed=1)
            with refusing(_checkpoint_helpers(), tr(_CHECKPOINT_REFUSED)):
                position = self.call(restore_state, fresh, str(path))
        differ = _differing(saved, _values(fresh))
        if differ:
            weights = [name for name in differ if "." in name and not name.startswith(("moment1.", "moment2."))]
            what = (tr("the weights, e.g. {examples}", examples=weights[:3]) if weights else
                    tr("the optimizer's state, e.g. {examples}", examples=differ[:3]))
            raise Incorrect(tr("after restore_state, {n} of the {total} parameters of the fresh training step still "
                               "differ from the saved ones: {what}.", n=len(differ), total=len(saved), what=what))
        if _as_position(position) != _POSITION:
            raise Incorrect(tr("save_state(train_step, path, {epoch}, {step}) then restore_state(fresh_step, path) "
                               "returned {got}; expected the position read from the file, ({epoch}, {step}).",
                               epoch=_POSITION[0], step=_POSITION[1], got=describe(position)))
        images, labels = batches[3]
        trained(images, labels)
        fresh(images, labels)
        differ = _differing(_values(trained), _values(fresh))
        if differ:
            raise Incorrect(tr("after one more training step on the same batch, {n} parameters of the restored step "
                               "differ from the original's, e.g. {examples}.", n=len(differ), examples=differ[:3]))


_POSITION = (1, 37)     # the (epoch, step_in_epoch) the check saves


def _as_position(value):
    """``value`` as a pair of Python ints when it is two integral numbers (ints, 0-d arrays, Tensors), else None."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        return None
    pair = []
    for item in value:
        try:
            number = np.asarray(to_numpy(item))
        except (TypeError, ValueError):
            return None
        if number.size != 1 or not np.issubdtype(number.dtype, np.integer):
            return None
        pair.append(int(number.reshape(())))
    return tuple(pair)


def _save_state_solution(train_step, path, epoch, step_in_epoch):
    import mindspore as ms

    ms.save_checkpoint(train_step, path, format="safetensors",   # the step: weights and optimizer state
                       append_dict={"epoch": epoch, "step_in_epoch": step_in_epoch})   # and the position


def _restore_state_solution(train_step, path):
    import mindspore as ms

    params = ms.load_checkpoint(path, format="safetensors")      # the same format= as when saving
    ms.load_param_into_net(train_step, params)                   # safe: this fresh step has not run yet
    return int(params["epoch"].asnumpy()), int(params["step_in_epoch"].asnumpy())


# ----------------------------------------------------------------------------------------------
# q2: predicting a batch of raw images, leaving the network's mode as it was
# ----------------------------------------------------------------------------------------------

def _fixed_images(n: int = 4, seed: int = 6) -> np.ndarray:
    """``n`` fixed (28, 28) uint8 images, stacked to (n, 28, 28): a bright block on noise, like a crude digit."""
    rng = np.random.default_rng(seed)
    images = []
    for i in range(n):
        pixels = rng.integers(0, 60, size=(28, 28))
        pixels[6 + 2 * i:20, 8:18 + i] = rng.integers(180, 256, size=(14 - 2 * i, 10 + i))
        images.append(pixels.astype(np.uint8))
    return np.stack(images)


def _probabilities(network, x: np.ndarray) -> np.ndarray:
    """Softmax of ``network`` on the float32 batch ``x`` (N, 1, 28, 28) in evaluation mode: (N, 10), as NumPy."""
    import mindspore as ms

    network.set_train(False)
    logits = network(ms.Tensor(x.astype(np.float32))).asnumpy().astype(np.float64)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _listed(values: np.ndarray) -> str:
    return "[" + ", ".join(f"{v:.3f}" for v in values) + "]"


def _checkpoint_helpers():
    """``course_utils.checkpoint``'s save, load and read: exercise 06.1 asks for MindSpore's own calls."""
    from course_utils import checkpoint

    return [checkpoint.save, checkpoint.load, checkpoint.read]


_CHECKPOINT_REFUSED = N_("your function called course_utils.checkpoint (save, load or read), which does the exercise "
                         "for you: write it with MindSpore's own calls (save_checkpoint, load_checkpoint).")


def _predict_helpers():
    """``course_utils.evaluate.predict_logits`` and ``.softmax``, what section 5's show_prediction uses: exercise
    06.2 asks for MindSpore's own calls."""
    from course_utils import evaluate

    return [evaluate.predict_logits, evaluate.softmax]


_PREDICT_REFUSED = N_("predict_batch called course_utils.evaluate (predict_logits or softmax, under any name), which "
                      "does the exercise for you: write it with MindSpore's own calls.")


def _modes(network) -> dict:
    """``training`` of the network and of every sub-cell, by name ("" is the network itself)."""
    return {name: bool(cell.training) for name, cell in network.cells_and_names()}


class PredictBatch(Exercise):
    names = ("predict_batch",)
    title = "predict a batch and restore the mode"
    hint_text = (
        "Remember the mode first: was_training = network.training. Prepare the images as the pipeline does, "
        "(images.astype(np.float32) / 255.0 - data.MNIST_MEAN) / data.MNIST_STD, with a channel axis: x[:, None] "
        "is (N, 1, 28, 28) (the lesson's normalise prepares one image). network.set_train(False), then "
        "ops.softmax(network(ms.Tensor(x)), axis=-1) and argmax(axis=1). Put the mode back with "
        "network.set_train(was_training): it sets every sub-cell (Dropout, BatchNorm), which assigning "
        "network.training does not; in a finally: block, an error cannot leave the mode changed either.")

    @property
    def solution_text(self) -> str:
        return inspect.getsource(_predict_batch_solution).replace("_predict_batch_solution", "predict_batch")

    def reference(self):
        return (_predict_batch_solution,)

    def _check(self, predict_batch):
        if not callable(predict_batch):
            raise Incorrect(tr("`predict_batch` should be a function, got {got}.", got=describe(predict_batch)))
        images = _fixed_images()
        reference_net = fixed_eval_case()[0]     # evaluation mode only, so its state never changes
        scaled = images.astype(np.float32)[:, None] / 255.0
        for training in (True, False):
            batch = images if training else images[:3]          # another N: nothing may assume the batch size
            n = len(batch)
            expected = _probabilities(reference_net, (scaled[:n] - data.MNIST_MEAN) / data.MNIST_STD)
            net = fixed_eval_case()[0]            # fresh: a training-mode call changes BatchNorm's statistics
            net.set_train(training)
            net.calls_in_training_mode = 0
            before = _modes(net)
            what = (tr("predict_batch(network, {n} images), network in training mode", n=n) if training else
                    tr("predict_batch(network, {n} images), network in evaluation mode", n=n))
            with refusing(_predict_helpers(), tr(_PREDICT_REFUSED)):
                got = self.call(predict_batch, net, batch.copy())
            if not isinstance(got, (tuple, list)) or len(got) != 2:
                raise Incorrect(tr("{what} returned {got}; return two values: (labels, probabilities).",
                                   what=what, got=describe(got)))
            labels, probabilities = got
            try:
                p = np.asarray(to_numpy(probabilities), dtype=np.float64)
            except (TypeError, ValueError):
                raise Incorrect(tr("{what}: the probabilities are {got}; expected an array of shape ({n}, 10).",
                                   what=what, got=describe(probabilities), n=n)) from None
            if p.shape != (n, 10):
                raise Incorrect(tr("{what}: the probabilities have shape {shape}; expected ({n}, 10), a row of 10 "
                                   "per image.", what=what, shape=p.shape, n=n))
            sums = p.sum(axis=1)
            if not np.allclose(sums, 1.0, atol=1e-4):
                raise Incorrect(tr("{what}: the rows of the probabilities sum to {sums}, not 1 (logits rather "
                                   "than probabilities, or a softmax over the wrong axis?).",
                                   what=what, sums=_listed(sums)))
            if not np.allclose(p, expected, atol=1e-5):
                worst = int(np.abs(p - expected).max(axis=1).argmax())
                hint = ""
                if net.calls_in_training_mode:
                    hint = tr(" The network was in training mode while it predicted (Dropout active, BatchNorm "
                              "on the batch's statistics).")
                elif np.allclose(p, _probabilities(reference_net, scaled[:n]), atol=1e-5):
                    hint = tr(" (These are the probabilities for the pixels scaled to [0, 1] but not normalised "
                              "with MNIST_MEAN and MNIST_STD.)")
                elif np.allclose(p, _probabilities(reference_net, 255.0 * scaled[:n]), atol=1e-5):
                    hint = tr(" (These are the probabilities for the raw 0-255 pixels.)")
                raise Incorrect(tr("{what}: the probabilities differ from the expected ones by up to {diff:.3g}; "
                                   "image {index}: expected {expected}, got {got}.{hint}", what=what,
                                   diff=float(np.abs(p - expected).max()), index=worst,
                                   expected=_listed(expected[worst]), got=_listed(p[worst]), hint=hint))
            try:
                predicted = to_numpy(labels)
            except (TypeError, ValueError):
                predicted = None
            if (predicted is None or not np.issubdtype(np.asarray(predicted).dtype, np.integer)
                    or np.asarray(predicted).shape != (n,)):
                raise Incorrect(tr("{what}: the labels are {got}; expected {n} integers, one per image.",
                                   what=what, got=describe(labels), n=n))
            if not np.array_equal(predicted, expected.argmax(axis=1)):
                raise Incorrect(tr("{what}: the labels are {got}, but the largest probabilities are those of "
                                   "{best}.", what=what, got=[int(v) for v in predicted],
                                   best=[int(v) for v in expected.argmax(axis=1)]))
            after = _modes(net)
            if after[""] != training:
                raise Incorrect(tr("{what}: afterwards network.training is {got}; it was {was} before the call.",
                                   what=what, got=after[""], was=training))
            kinds = {name: type(cell).__name__ for name, cell in net.cells_and_names()}
            changed = sorted((name for name in before if after.get(name) != before[name]),   # mode-dependent first
                             key=lambda name: not kinds.get(name, "").startswith(("Dropout", "BatchNorm")))
            if changed:
                raise Incorrect(tr("{what}: afterwards network.training is {was} again, but {n} of its sub-cells "
                                   "are not, e.g. {examples}.", what=what, was=training, n=len(changed),
                                   examples=changed[:3]))


def _predict_batch_solution(network, images):
    import mindspore as ms
    from mindspore import ops

    was_training = network.training                                          # the mode to put back
    x = (images.astype(np.float32) / 255.0 - data.MNIST_MEAN) / data.MNIST_STD   # as the pipeline prepares them
    network.set_train(False)                                                  # evaluation mode
    try:
        logits = network(ms.Tensor(x[:, None]))                               # a batch (N, 1, 28, 28)
    finally:
        network.set_train(was_training)                                       # every sub-cell, even after an error
    probabilities = ops.softmax(logits, axis=-1).asnumpy()
    return probabilities.argmax(axis=1), probabilities


# ----------------------------------------------------------------------------------------------
# q3: reloading a checkpoint into a network whose training step has already run
# ----------------------------------------------------------------------------------------------

_STYLES = (N_("functional, @jit"), N_("functional, no jit"), "TrainOneStepCell")   # the lesson's kinds of step


def _step_of(style: str, net, loss_fn, optimizer):
    """A training step of one of the lesson's kinds, ``step(data, label) -> loss``."""
    import mindspore as ms
    from mindspore import nn, ops

    if style == "TrainOneStepCell":
        return nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer).set_train()

    def step(data, label):                 # the step of lessons 02 and 03, as section 4's trial writes it
        loss, grads = grad_of(data, label)
        return ops.depend(loss, optimizer(grads))

    def forward(data, label):
        return loss_fn(net(data), label)

    grad_of = ms.value_and_grad(forward, None, optimizer.parameters)
    return ms.jit(step) if style == "functional, @jit" else step


def _weights(net) -> dict:
    return {name: p.asnumpy().copy() for name, p in net.parameters_and_names()}


class ReloadIntoARunStep(Exercise):
    names = ("reload_from_file",)
    title = "reload a checkpoint into a step that has already run"
    hint_text = (
        "The step keeps using the storage its parameters had when it ran: a reload must write the values into "
        "that storage, not give the parameters new storage as ms.load_param_into_net (and set_data) does. "
        "Read the file with ms.load_checkpoint(path) and print its names: they carry a prefix that the network's "
        "names lack. Then, for every name, param in network.parameters_and_names(), copy the matching stored "
        "value into param with Parameter.copy_.")

    @property
    def solution_text(self) -> str:
        return inspect.getsource(_reload_from_file_solution).replace("_reload_from_file_solution",
                                                                     "reload_from_file")

    def reference(self):
        return (_reload_from_file_solution,)

    def _check(self, reload_from_file):
        if not callable(reload_from_file):
            raise Incorrect(tr("`reload_from_file` should be a function, got {got}.", got=describe(reload_from_file)))
        import mindspore as ms

        batches = [fixed_batch(n=16, seed=10 + i) for i in range(4)]
        initial_net, loss_fn, sgd = fixed_setup(seed=6)
        initial = _weights(initial_net)
        expected_loss = float(_step_of("functional, no jit", initial_net, loss_fn, sgd)(*batches[-1]).asnumpy())
        expected = _weights(initial_net)                       # a fresh network's first step from the file's weights
        mode = runtime.mode_name(ms.get_context("mode"))
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "initial.ckpt")
            ms.save_checkpoint([{"name": _PREFIX + name, "data": param}          # as a larger model names them
                                for name, param in fixed_setup(seed=6)[0].parameters_and_names()], path)
            for style in _STYLES:
                what = tr("{style} step in {mode}", style=tr(style), mode=mode)
                net, loss_fn, sgd = fixed_setup(seed=7)        # other weights: the steps below move them further
                step = _step_of(style, net, loss_fn, sgd)
                for data, label in batches[:-1]:
                    step(data, label)
                try:
                    self.call(reload_from_file, net, path)
                except KeyError as exc:
                    raise Incorrect(tr("{what}: reload_from_file(network, path) raised KeyError: {key}. The file's "
                                       "entries are named {stored}, the network's parameters {names}.", what=what,
                                       key=repr(exc.args[0]) if exc.args else "?",
                                       stored=[_PREFIX + k for k in list(initial)[:2]],
                                       names=list(initial)[:2])) from None
                held = _differing(initial, _weights(net))
                if held:
                    raise Incorrect(tr("{what}: after reload_from_file(network, path), {n} of the network's {total} "
                                       "parameters do not hold the file's values, e.g. {examples}.", what=what,
                                       n=len(held), total=len(initial), examples=held[:3]))
                loss = float(step(*batches[-1]).asnumpy())
                now = _weights(net)
                right_loss = bool(np.isclose(loss, expected_loss, rtol=1e-5))
                right_weights = all(np.allclose(now[k], expected[k], atol=1e-6) for k in now)
                if right_loss and right_weights:
                    continue
                loss_part = (tr("the loss a fresh network's first step gives, {got:.6f}", got=loss) if right_loss else
                             tr("the loss {got:.6f} instead of {expected:.6f}", got=loss, expected=expected_loss))
                if right_weights:
                    weights_part = tr("the ones a fresh network's first step leaves")
                elif not _differing(initial, now):
                    weights_part = tr("still the file's values: the step's update did not reach them")
                else:
                    diff = max(float(np.abs(now[k] - expected[k]).max()) for k in now)
                    weights_part = tr("changed, but not as a fresh network's first step changes them (by up to "
                                      "{diff:.2g} off)", diff=diff)
                raise Incorrect(tr("{what}: the step after the reload gave {loss}, and the network's parameters "
                                   "after it were {weights}.", what=what, loss=loss_part, weights=weights_part))


_PREFIX = "backbone."     # the file comes from a model that held the network as its sub-cell `backbone`


def _reload_from_file_solution(network, path):
    import mindspore as ms

    stored = ms.load_checkpoint(path)                           # a dict: name -> Parameter
    by_name = {key.removeprefix("backbone."): value for key, value in stored.items()}   # the network's names
    for name, param in network.parameters_and_names():
        param.copy_(by_name[name])                              # into the storage the step already uses


q1 = CheckpointRoundTrip()
q2 = PredictBatch()
q3 = ReloadIntoARunStep()
__all__ = ["q1", "q2", "q3"]
register(globals(), "06")
