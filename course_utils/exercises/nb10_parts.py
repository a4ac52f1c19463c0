"""Exercise 10.0's checks: each function of the learner's capstone script on its own, as soon as its TODO is filled.

Exercises 10.1-10.4 run the whole script and so wait for all ten TODOs. ``check_parts(path)`` imports the script
as a module instead and checks every TODO whose blanks ``____`` are gone, cheaply and without the others: the
options it parses (1), the pipeline on 16-256 images (2, 3), a forward pass (4), a save and a restore in a
temporary folder with a tiny training step of its own (5, 6; the restore after that step has run, and one more step
must train the restored values), an export of a tiny network and ``mindspore.load`` (7), evaluation of a probe
network on 20 images (8), and the two pieces of ``main()`` cut out of it and run with stand-ins (9: the training
step on a tiny network, whose BatchNorm must be in training mode; 10: the inner loop over eight fake batches).

A TODO is "not attempted" while its code still holds a blank (TODO 2 also until TODO 3, in the same
function, is correct), "incorrect" with expected and got, or "correct". ``nb10.q0`` shows the list.
The helpers that read the file without running it (``blanks_left``, ``renames_a_file``) live here; nb10 uses them.

Why one module of ~580 lines: the ten checks share one way in (import the file, find a TODO's code, cut a piece
out of ``main()``) and one set of stand-ins (a tiny network and training step, fake batches, a probe network),
and exist for one exercise; apart from nb10, which runs the script whole, nothing else uses them.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import importlib.util
import inspect
import io
import json
import re
import sys
import tempfile
import tokenize
from pathlib import Path

import numpy as np

from course_utils import data
from course_utils.exercises.inspection import learner_line
from course_utils.exercises.placeholder import Incorrect, NotAttempted, Outcome
from course_utils.i18n import N_, tr
from course_utils.notebook import capture_native_stderr, first_line

__all__ = ["PARTS", "blanks_left", "check_parts", "renames_a_file"]

#: TODO number -> (function of the script it is in, what the check looks at)
PARTS = {
    1: ("parse_args", N_("options --resume and --stop-after")),
    2: ("build_dataset", N_("the augmentation")),
    3: ("build_dataset", N_("scaling, normalisation, channels first")),
    4: ("build_model", N_("the model")),
    5: ("save_checkpoint", N_("the atomic checkpoint")),
    6: ("restore_checkpoint", N_("the restore")),
    7: ("export_mindir", N_("the MindIR export")),
    8: ("evaluate", N_("evaluation")),
    9: ("main", N_("loss, optimizer, training step")),
    10: ("main", N_("the inner training loop")),
}
SETTINGS = {"batch_size": 32, "train_subset": 256, "seed": 42}
#: TODO 2: the least spread (standard deviation, pixels) of the augmented images' ink centres in each direction
SHIFT_SPREAD = 0.8
#: TODO 5, 6: a loss sum that float32 cannot hold exactly (float32 would store 2.0999999046325684)
LOSS_SUM = 2.1


# ---- looking at the file --------------------------------------------------------------------------------

def blanks_left(source: str) -> list:
    """The TODO numbers (as text, e.g. "3") whose code still holds the blank ``____``; "?" before any TODO."""
    todo, left = "?", []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return ["?"] if "____" in source else []
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            m = re.search(r"TODO\((\d+)\)", tok.string)
            if m:
                todo = m.group(1)
        elif tok.type == tokenize.NAME and tok.string == "____" and todo not in left:
            left.append(todo)
    return left


def renames_a_file(source: str) -> bool:
    """Whether the code calls os.replace / os.rename, or Path.replace / Path.rename (one argument, unlike
    str.replace): the last step of an atomic write. Comments and docstrings do not count."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("replace", "rename"):
            owner = node.func.value
            if (isinstance(owner, ast.Name) and owner.id == "os") or len(node.args) + len(node.keywords) == 1:
                return True
    return False


def load_script(path: Path):
    """The learner's script as a module (its functions defined, ``main()`` not run), registered in
    ``sys.modules``: GRAPH_MODE looks a Cell's module up by name when it compiles."""
    name = "my_capstone_" + hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _main_pieces(path: Path, source: str) -> dict:
    """TODO 9 and TODO 10 cut out of ``main()``: {9: [statements], 10: the inner for loop} (ast nodes)."""
    tree = ast.parse(source, filename=str(path))
    main = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "main"), None)
    if main is None:
        raise Incorrect(tr("the script has no function main()."))
    pieces = {}
    body = main.body
    starts = [i for i, s in enumerate(body) if _assigns(s, "net")]
    ends = [i for i, s in enumerate(body) if _assigns(s, "test_set")]
    if starts and ends and starts[0] < ends[0]:
        pieces[9] = body[starts[0] + 1:ends[0]]
    outer = [s for s in body if isinstance(s, ast.For)]
    inner = [s for o in outer for s in o.body if isinstance(s, ast.For)]
    if inner:
        pieces[10] = inner[0]
    return pieces


def _assigns(statement, name: str) -> bool:
    return isinstance(statement, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                     for t in statement.targets)


def _as_function(path: Path, statements: list, params: tuple, returns: str, module):
    """``statements`` (ast, with the learner's line numbers) as the body of a function of ``params`` that
    ends with ``return <returns>``, compiled under the learner's file name so tracebacks show their lines."""
    template = ast.parse(f"def _piece({', '.join(params)}):\n    pass\n    return {returns}\n")
    function = template.body[0]
    function.body = list(statements) + [function.body[1]]
    ast.fix_missing_locations(template)
    import mindspore as ms
    from mindspore import nn

    namespace = {**vars(module), "ms": ms, "nn": nn}
    exec(compile(template, str(path), "exec"), namespace)  # noqa: S102 - the learner's own code, in their kernel
    return namespace["_piece"]


# ---- stand-ins ------------------------------------------------------------------------------------------

def _tiny_net():
    """A network the size of a test: one convolution with BatchNorm, 10 logits, for (N, 1, 28, 28) inputs."""
    from mindspore import nn

    return nn.SequentialCell(nn.Conv2d(1, 4, 3, stride=2, pad_mode="same", has_bias=False), nn.BatchNorm2d(4),
                             nn.ReLU(), nn.Flatten(), nn.Dense(4 * 14 * 14, 10))


def _tiny_state():
    from mindspore import nn

    net = _tiny_net()
    optimizer = nn.Adam(net.trainable_params(), learning_rate=1e-3)
    return nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)


def _values(state) -> dict:
    return {p.name: p.asnumpy().copy() for p in state.get_parameters()}


def _scramble(state, seed: int) -> None:
    """Give every parameter of ``state`` (weights, statistics, moments, global_step) new random values."""
    import mindspore as ms

    rng = np.random.default_rng(seed)
    for p in state.get_parameters():
        shape, dtype = p.shape, p.asnumpy().dtype
        value = rng.integers(1, 100, shape) if dtype.kind in "iu" else rng.uniform(0.1, 1.0, shape)
        p.set_data(ms.Tensor(np.asarray(value, dtype=dtype)))


def _images(n: int, seed: int = 0) -> np.ndarray:
    images, _ = data.load_mnist_arrays("test")
    return data.normalize_images(images[seed:seed + n])


def _shape_dtype(value) -> str:
    return f"{tuple(value.shape)} {value.dtype}"


def _first_batch(dataset) -> tuple:
    for images, labels in dataset.create_tuple_iterator(num_epochs=1):
        return images, labels
    raise Incorrect(tr("build_dataset returned an empty dataset."))


def _batches(dataset) -> tuple:
    images, labels = zip(*[(i.asnumpy(), lab.asnumpy()) for i, lab in dataset.create_tuple_iterator(num_epochs=1)])
    return np.concatenate(images), np.concatenate(labels)


def _ink_centres(images: np.ndarray) -> np.ndarray:
    """(N, 2): the (column, row) of the centre of the ink of each normalised image (N, 1, 28, 28)."""
    ink = images[:, 0] - images.min()
    total = ink.sum(axis=(1, 2))
    cols = (ink.sum(axis=1) * np.arange(28)).sum(axis=1) / total
    rows = (ink.sum(axis=2) * np.arange(28)).sum(axis=1) / total
    return np.stack([cols, rows], axis=1)


def _ink_centre(images: np.ndarray) -> np.ndarray:
    """Mean (column, row) of the ink of normalised images (N, 1, 28, 28)."""
    return _ink_centres(images).mean(axis=0)


# ---- the ten checks -------------------------------------------------------------------------------------

def _todo1(mod, path, tmp):
    base = ["--data-dir", str(data.ensure_mnist()), "--out", str(tmp)]
    args = _parse(mod, base)
    for name in ("resume", "stop_after"):
        if not hasattr(args, name):
            raise Incorrect(tr("parse_args() returns no `{name}`: the options are --resume and --stop-after "
                               "(argparse turns - into _).", name=name))
    if args.resume is not False or args.stop_after != 0:
        raise Incorrect(tr("without the options, expected resume=False, stop_after=0; got resume={resume!r}, "
                           "stop_after={stop!r}.", resume=args.resume, stop=args.stop_after))
    got = _parse(mod, base + ["--stop-after", "7"]).stop_after
    if got != 7 or not isinstance(got, int):
        raise Incorrect(tr("--stop-after 7: expected stop_after=7 (an int), got {got!r}.", got=got))
    (tmp / "checkpoint.ckpt").write_bytes(b"")
    got = _parse(mod, base + ["--resume"]).resume
    if got is not True:
        raise Incorrect(tr("--resume: expected resume=True (a flag, no value), got {got!r}.", got=got))


def _parse(mod, argv):
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            return mod.parse_args(argv)
    except SystemExit:
        raise Incorrect(tr("parse_args({argv}) exited: {error}", argv=argv[4:],
                           error=(err.getvalue().strip().splitlines() or [""])[-1])) from None


def _todo3(mod, path, tmp):
    images, labels = _first_batch(mod.build_dataset(data.ensure_mnist(), "test", 16, subset=32))
    expected = _images(16)
    if tuple(images.shape) != (16, 1, 28, 28) or str(images.dtype) != "Float32":
        raise Incorrect(tr("a test batch of 16: expected images (16, 1, 28, 28) Float32, got {got}.",
                           got=_shape_dtype(images)))
    if tuple(labels.shape) != (16,) or str(labels.dtype) != "Int32":
        raise Incorrect(tr("a test batch of 16: expected labels (16,) Int32, got {got}.", got=_shape_dtype(labels)))
    got = images.asnumpy()
    if not np.allclose(got, expected, atol=1e-4):
        raise Incorrect(tr("the first test image should be scaled to [0, 1] and normalised with MNIST_MEAN and "
                           "MNIST_STD: expected values from {lo:.4f} to {hi:.4f} (mean {mean:.4f}), got from "
                           "{glo:.4f} to {ghi:.4f} (mean {gmean:.4f}).", lo=expected[0].min(), hi=expected[0].max(),
                           mean=expected[0].mean(), glo=got[0].min(), ghi=got[0].max(), gmean=got[0].mean()))


def _todo2(mod, path, tmp):
    n = 256
    dataset = mod.build_dataset(data.ensure_mnist(), "train", n, subset=n, augment=True, seed=0)
    images, _ = _first_batch(dataset)
    if tuple(images.shape) != (n, 1, 28, 28) or str(images.dtype) != "Float32":
        raise Incorrect(tr("an augmented training batch of {n}: expected images ({n}, 1, 28, 28) Float32, got {got}.",
                           n=n, got=_shape_dtype(images)))
    augmented = images.asnumpy()
    train, _ = data.load_mnist_arrays("train")
    original = data.normalize_images(train[:n])
    seen = {np.round(x, 4).tobytes() for x in original}
    unchanged = sum(np.round(x, 4).tobytes() in seen for x in augmented)
    if unchanged > n // 10:
        raise Incorrect(tr("{unchanged} of {n} augmented training images are exactly an original image: the "
                           "augmentation does not change them.", unchanged=unchanged, n=n))
    shift = _ink_centre(augmented) - _ink_centre(original)
    if np.abs(shift).max() > 1.0:
        raise Incorrect(tr("on average the augmentation moves the digits by {dx:+.1f} pixels to the right and "
                           "{dy:+.1f} down; expected about 0 (shifts in both directions). In MindSpore, translate's "
                           "numbers are the ranges of the shift, not its largest size: read the docs of "
                           "RandomAffine.", dx=shift[0], dy=shift[1]))
    # A random shift both ways spreads the ink centres: measured on these 256 images, a standard deviation of about
    # 1.6 pixels in a direction shifted by up to 10% (2.8 pixels), about 0.3 in a direction not shifted at all.
    spread = _ink_centres(augmented).std(axis=0)
    if spread.min() < SHIFT_SPREAD:
        raise Incorrect(tr("the ink centres of the augmented images spread {sx:.2f} pixels horizontally and {sy:.2f} "
                           "vertically (standard deviation; about 0.3 for images that are not shifted): expected "
                           "random shifts in both directions, left-right and up-down, so at least {least} in each. "
                           "Read what each number of RandomAffine's translate means.", sx=spread[0], sy=spread[1],
                           least=SHIFT_SPREAD))


def _todo4(mod, path, tmp):
    import mindspore as ms
    from mindspore import nn

    net = mod.build_model()
    if not isinstance(net, nn.Cell):
        raise Incorrect(tr("build_model() returned {type}, expected an nn.Cell.", type=type(net).__name__))
    if not any("BatchNorm" in type(cell).__name__ for _, cell in net.cells_and_names()):
        raise Incorrect(tr("the model has no BatchNorm layer (nn.BatchNorm2d or nn.BatchNorm1d)."))
    out = net(ms.Tensor(_images(2)))
    if tuple(out.shape) != (2, 10) or str(out.dtype) != "Float32":
        raise Incorrect(tr("for a batch of 2 images (2, 1, 28, 28): expected logits (2, 10) Float32, got {got}.",
                           got=_shape_dtype(out)))


def _todo5(mod, path, tmp):
    import mindspore as ms

    source = inspect.getsource(mod.save_checkpoint)
    if not renames_a_file(source):
        raise Incorrect(tr("save_checkpoint never renames a file (os.replace): a checkpoint written in place is "
                           "lost when the process dies in the middle of writing it."))
    state = _tiny_state()
    _scramble(state, 1)
    expected = _values(state)
    target = tmp / "checkpoint.ckpt"
    for epoch, step, loss_sum in ((1, 3, LOSS_SUM), (2, 0, 0.0)):      # the second call replaces the first file
        mod.save_checkpoint(state, target, epoch, step, loss_sum, dict(SETTINGS))
        files = sorted(p.name for p in tmp.iterdir())
        if files != [target.name]:
            raise Incorrect(tr("after save_checkpoint(state, <folder>/checkpoint.ckpt, ...) the folder holds {files}, "
                               "expected ['checkpoint.ckpt'] alone.", files=files))
        stored = ms.load_checkpoint(str(target))
        for name, value in {"epoch": epoch, "step_in_epoch": step, **SETTINGS}.items():
            got = int(stored[name].asnumpy().reshape(-1)[0]) if name in stored else None
            if got != value:
                raise Incorrect(tr("save_checkpoint(..., epoch={epoch}, step_in_epoch={step}, settings): expected "
                                   "{name}={value} in the file, got {got}.", epoch=epoch, step=step, name=name,
                                   value=value, got=got if got is not None else tr("no such entry")))
        got = float(stored["loss_sum"].asnumpy().reshape(-1)[0]) if "loss_sum" in stored else None
        if got != loss_sum:
            raise Incorrect(tr("save_checkpoint(..., loss_sum={expected!r}, ...): expected loss_sum={expected!r} in "
                               "the file, got {got}. A Python float in append_dict is stored as float32: store "
                               "loss_sum as a float64 Tensor, so that the resumed epoch's mean is exact.",
                               expected=loss_sum, got=repr(got) if got is not None else tr("no such entry")))
    missing = [k for k in expected if k not in stored]
    if missing:
        raise Incorrect(tr("the checkpoint lacks {n} of the state's {total} parameters, e.g. {names}: save the "
                           "whole training step (network and optimizer).", n=len(missing), total=len(expected),
                           names=missing[:3]))
    wrong = [k for k in expected if not np.array_equal(stored[k].asnumpy(), expected[k])]
    if wrong:
        raise Incorrect(tr("the checkpoint's {name} differs from the state's.", name=wrong[0]))


def _todo6(mod, path, tmp):
    import mindspore as ms

    first, second = (ms.Tensor(_images(4, seed)) for seed in (0, 4))
    labels = ms.Tensor(np.arange(4, dtype=np.int32))
    saved = _tiny_state()
    _scramble(saved, 2)
    target = tmp / "checkpoint.ckpt"
    ms.save_checkpoint(saved, str(target), append_dict={"epoch": 1, "step_in_epoch": 5,
                                                        "loss_sum": ms.Tensor(np.float64(LOSS_SUM)), **SETTINGS})
    expected = _values(saved)
    saved.set_train()
    saved(second, labels)                # one step from the stored values: what the restored state must repeat
    expected_next = _values(saved)
    state = _tiny_state()
    state.set_train()
    state(first, labels)                 # a step has run (and, in GRAPH_MODE, compiled) before the restore
    before = {p.name: id(p) for p in state.get_parameters()}
    got = mod.restore_checkpoint(state, target)
    if not isinstance(got, (tuple, list)) or len(got) != 3 or \
            not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in got[:2]) or \
            not isinstance(got[2], float) or tuple(got) != (1, 5, LOSS_SUM):
        raise Incorrect(tr("for a checkpoint with epoch=1, step_in_epoch=5, loss_sum={loss_sum!r}: expected the "
                           "return value (1, 5, {loss_sum!r}), two ints and a float; got {got!r}.", loss_sum=LOSS_SUM,
                           got=got))
    after = {p.name: id(p) for p in state.get_parameters()}
    if after != before:
        raise Incorrect(tr("restore_checkpoint replaced parameters of the state by new objects: copy the values "
                           "into the existing ones (Parameter.copy_)."))
    values = _values(state)
    wrong = [k for k in expected if not np.array_equal(values[k], expected[k])]
    if wrong:
        k = wrong[0]
        raise Incorrect(tr("after the restore {n} of {total} parameters do not hold the checkpoint's values, e.g. "
                           "{name}: expected {expected}, got {got}.", n=len(wrong), total=len(expected), name=k,
                           expected=np.round(expected[k].reshape(-1)[:3], 4).tolist(),
                           got=np.round(values[k].reshape(-1)[:3], 4).tolist()))
    state(second, labels)
    values = _values(state)
    wrong = [k for k in expected_next if not np.allclose(values[k], expected_next[k], rtol=1e-5, atol=1e-6)]
    if wrong:
        raise Incorrect(tr("the parameters hold the checkpoint's values, but the training step that had run before "
                           "the restore did not train them: after one more step {n} of {total} values differ from "
                           "a step on the checkpoint's values (e.g. {name}). Copy each value into the existing "
                           "parameter in place (Parameter.copy_).", n=len(wrong), total=len(expected_next),
                           name=wrong[0]))


def _todo7(mod, path, tmp):
    import mindspore as ms
    from mindspore import nn

    net = _tiny_net()
    net.set_train(True)
    target = tmp / "model.mindir"
    mod.export_mindir(net, target)
    if not target.is_file():
        raise Incorrect(tr("export_mindir(net, <folder>/model.mindir) wrote {files}, not model.mindir.",
                           files=sorted(p.name for p in tmp.iterdir())))
    try:
        graph = nn.GraphCell(ms.load(str(target)))
    except Exception as exc:
        raise Incorrect(tr("model.mindir does not load with mindspore.load + nn.GraphCell: {error}",
                           error=first_line(exc))) from None
    net.set_train(False)
    for n in (1, 5):
        x = ms.Tensor(_images(n))
        try:
            out = graph(x).asnumpy()
        except Exception as exc:
            raise Incorrect(tr("the exported model fails on a batch of {n}: {error} (export with a batch dimension "
                               "None).", n=n, error=first_line(exc))) from None
        expected = net(x).asnumpy()
        if out.shape != expected.shape:
            raise Incorrect(tr("for a batch of {n} the exported model returns shape {got}, expected {expected}.",
                               n=n, got=out.shape, expected=expected.shape))
        if not np.allclose(out, expected, rtol=1e-4, atol=1e-5):
            raise Incorrect(tr("the exported model's outputs differ from the network's in eval mode (largest "
                               "difference {difference:.3g}): export in eval mode.",
                               difference=np.abs(out - expected).max()))


class _Probe:
    """Stands in for a network in evaluate(): logits that predict, for each image, its pixel [0, 0, 0]; records
    the mode it was called in."""

    def __init__(self):
        self.training, self.calls = True, []

    def set_train(self, mode=True):
        self.training = bool(mode)
        return self

    def __call__(self, images):
        import mindspore as ms

        self.calls.append(self.training)
        predicted = images.asnumpy()[:, 0, 0, 0].astype(np.int64)
        return ms.Tensor(np.eye(10, dtype=np.float32)[predicted])


def _todo8(mod, path, tmp):
    import mindspore.dataset as ds

    n, right = 20, 13
    predicted = np.arange(n) % 10
    labels = np.where(np.arange(n) < right, predicted, (predicted + 1) % 10).astype(np.int32)
    images = np.zeros((n, 1, 28, 28), np.float32)
    images[:, 0, 0, 0] = predicted
    dataset = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=False).batch(8)
    probe = _Probe()
    got = mod.evaluate(probe, dataset)
    if probe.calls and any(probe.calls):
        raise Incorrect(tr("evaluate called the network in training mode: set_train(False) first."))
    if probe.training is not True:
        raise Incorrect(tr("after evaluate the network is still in eval mode: set_train(True) before returning."))
    try:
        json.dumps(got)
        value = float(got)
    except (TypeError, ValueError):
        raise Incorrect(tr("evaluate returned {type}; the log needs a number: return a Python float.",
                           type=type(got).__name__)) from None
    if abs(value - right / n) > 1e-6:
        raise Incorrect(tr("{right} of {n} images right, in batches of 8 (the last one of 4): expected {expected}, "
                           "got {got!r}.", right=right, n=n, expected=right / n, got=got))


def _todo9(mod, path, tmp, pieces):
    import mindspore as ms
    from mindspore import nn

    piece = _as_function(path, pieces[9], ("net", "args"), "optimizer, train_step, state", mod)
    net, lr = _tiny_net(), 0.0125
    optimizer, train_step, state = piece(net, argparse.Namespace(lr=lr, seed=0))
    if not isinstance(optimizer, nn.Optimizer):
        raise Incorrect(tr("`optimizer` is {type}, expected a MindSpore optimizer (nn.Adam, nn.SGD, ...).",
                           type=type(optimizer).__name__))
    got_lr = float(np.asarray(optimizer.get_lr().asnumpy()).reshape(-1)[0])
    if abs(got_lr - lr) > 1e-7:
        raise Incorrect(tr("with --lr {lr} the optimizer's learning rate is {got}.", lr=lr, got=got_lr))
    if not isinstance(state, nn.Cell):
        raise Incorrect(tr("`state` is {type}, expected a Cell that holds the network and the optimizer.",
                           type=type(state).__name__))
    names = {p.name for p in state.get_parameters()}
    missing = [p.name for p in net.get_parameters() if p.name not in names] + \
        [optimizer.global_step.name] * (optimizer.global_step.name not in names)
    if missing:
        raise Incorrect(tr("`state` lacks {names}: it must hold the network and the optimizer (a checkpoint of it "
                           "restores both).", names=missing[:3]))
    in_eval = [name for name, cell in net.cells_and_names() if isinstance(cell, nn.BatchNorm2d) and not cell.training]
    if in_eval:
        raise Incorrect(tr("after TODO(9) the network's BatchNorm layers are in eval mode, the mode every Cell starts "
                           "in: call train_step.set_train() (net.set_train() for a functional step), or they train "
                           "with their stored statistics instead of each batch's."))
    step_before = int(optimizer.global_step.asnumpy().reshape(-1)[0])
    weights = {p.name: p.asnumpy().copy() for p in net.trainable_params()}
    labels = ms.Tensor(np.arange(4, dtype=np.int32))
    loss = train_step(ms.Tensor(_images(4)), labels)
    loss = np.asarray(loss.asnumpy() if hasattr(loss, "asnumpy") else loss)
    if loss.size != 1 or not np.isfinite(loss).all():
        raise Incorrect(tr("train_step(images, labels) should return the loss, one finite number; got {got}.",
                           got=f"{loss.shape} {loss.dtype}"))
    if int(optimizer.global_step.asnumpy().reshape(-1)[0]) != step_before + 1:
        raise Incorrect(tr("one call of train_step did not advance the optimizer's global_step by 1."))
    if all(np.array_equal(p.asnumpy(), weights[p.name]) for p in net.trainable_params()):
        raise Incorrect(tr("one call of train_step left the network's weights unchanged."))


class _Batches:
    """Eight fake batches: images full of the batch's number, for the inner loop of main()."""

    def __init__(self, n=8):
        import mindspore as ms

        self.batches = [(ms.Tensor(np.full((2, 1, 28, 28), i, np.float32)), ms.Tensor(np.zeros(2, np.int32)))
                        for i in range(n)]

    def create_tuple_iterator(self, *args, **kwargs):
        return iter(self.batches)


def _todo10(mod, path, tmp, pieces):
    import signal

    import mindspore as ms

    params = ("train_set", "skip", "train_step", "args", "save_checkpoint", "state", "ckpt_path", "epoch",
              "settings", "global_step", "loss_sum", "stop", "signal")
    piece = _as_function(path, [pieces[10]], params, "'finished', global_step, loss_sum", mod)

    def run(skip, stop_after, start=10):
        trained, saved = [], []

        def train_step(images, labels):
            trained.append(int(images.asnumpy()[0, 0, 0, 0]))
            return ms.Tensor(np.float32(0.5))

        def save_checkpoint(state, path, epoch, step_in_epoch, loss_sum, settings):
            saved.append((epoch, step_in_epoch, loss_sum, settings))

        with contextlib.redirect_stdout(io.StringIO()):
            result = piece(_Batches(), skip, train_step, argparse.Namespace(stop_after=stop_after), save_checkpoint,
                           object(), tmp / "checkpoint.ckpt", 1, dict(SETTINGS), start, 1.25, [], signal)
        return result, trained, saved

    result, trained, saved = run(skip=3, stop_after=0)
    if trained != [3, 4, 5, 6, 7]:
        raise Incorrect(tr("8 batches, skip=3: expected train_step on batches [3, 4, 5, 6, 7], got {got}.",
                           got=trained))
    if saved:
        raise Incorrect(tr("without --stop-after (0) the loop saved a checkpoint: {got}.", got=saved))
    if not (isinstance(result, tuple) and result[0] == "finished"):
        raise Incorrect(tr("without --stop-after (0) the loop returned {got!r} before the epoch ended.", got=result))
    if result[1] != 15 or result[2] != 3.75:
        raise Incorrect(tr("5 steps of loss 0.5 trained from global_step=10 and loss_sum=1.25: expected "
                           "global_step=15 and loss_sum=3.75, got global_step={step} and loss_sum={loss_sum!r}.",
                           step=result[1], loss_sum=result[2]))
    result, trained, saved = run(skip=0, stop_after=13)
    if trained != [0, 1, 2]:
        raise Incorrect(tr("from global_step=10 with --stop-after 13: expected train_step on batches [0, 1, 2], "
                           "then stop; got {got}.", got=trained))
    if len(saved) != 1 or saved[0][:3] != (1, 3, 2.75) or saved[0][3] != SETTINGS:
        raise Incorrect(tr("stopping after 3 steps of loss 0.5 in epoch 1, from loss_sum=1.25: expected one "
                           "save_checkpoint(state, ckpt_path, 1, 3, 2.75, settings), got {got}.",
                           got=[s[:3] for s in saved] if saved else tr("no call")))
    if result != 0:
        raise Incorrect(tr("after --stop-after the loop should return 0; it returned {got!r}.",
                           got=None if isinstance(result, tuple) else result))


CHECKS = {1: _todo1, 2: _todo2, 3: _todo3, 4: _todo4, 5: _todo5, 6: _todo6, 7: _todo7, 8: _todo8, 9: _todo9,
          10: _todo10}


# ---- all of them ----------------------------------------------------------------------------------------

def check_parts(path: Path, source: str) -> list:
    """[(todo, Outcome, message)] for TODO 1 to 10 of the learner's script at ``path`` (already read)."""
    left = set(blanks_left(source))
    results = {}
    try:
        module = load_script(path)
    except BaseException as exc:  # noqa: BLE001 - the learner's file, whatever it raises
        if isinstance(exc, KeyboardInterrupt):
            raise
        message = tr("importing the script raised {error}: {message}", error=type(exc).__name__,
                     message=first_line(exc)) + learner_line(exc)
        return [(todo, Outcome.NOT_ATTEMPTED if str(todo) in left else Outcome.INCORRECT, message)
                for todo in PARTS]
    pieces = None
    for todo in sorted(PARTS, key=lambda t: (t != 3, t)):   # 3 first: TODO 2's check needs its function whole
        if str(todo) in left:
            results[todo] = (Outcome.NOT_ATTEMPTED, tr("blanks ____ left"))
            continue
        if todo == 2 and results[3][0] is not Outcome.CORRECT:
            results[todo] = (Outcome.NOT_ATTEMPTED, tr("checked once TODO 3, in the same function, is correct"))
            continue
        try:
            args = ()
            if todo in (9, 10):
                pieces = pieces if pieces is not None else _main_pieces(path, source)
                if todo not in pieces:
                    raise Incorrect(tr("cannot find TODO {todo}'s code in main() (the skeleton's layout around "
                                       "it was changed).", todo=todo))
                args = (pieces,)
            with tempfile.TemporaryDirectory(prefix=f"capstone-todo{todo}-") as tmp, capture_native_stderr():
                CHECKS[todo](module, path, Path(tmp), *args)
            results[todo] = (Outcome.CORRECT, tr("correct"))
        except NotAttempted as exc:
            results[todo] = (Outcome.NOT_ATTEMPTED, str(exc))
        except Incorrect as exc:
            results[todo] = (Outcome.INCORRECT, str(exc))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - the learner's code raised (SystemExit included)
            results[todo] = (Outcome.INCORRECT, tr("your code raised {error}: {message}", error=type(exc).__name__,
                                                   message=first_line(exc)) + learner_line(exc))
    return [(todo, *results[todo]) for todo in PARTS]
