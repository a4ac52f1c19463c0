"""Checkpoints that survive interruptions: atomic save, strict restore, resume counters.

    from course_utils import checkpoint
    checkpoint.save("checkpoints/lenet.ckpt", train_step, epoch=2, step_in_epoch=300)
    info = checkpoint.load("checkpoints/lenet.ckpt", fresh_train_step)   # weights + optimizer state
    info.epoch, info.step_in_epoch                                       # where to continue

What this adds to ``mindspore.save_checkpoint`` / ``load_checkpoint``:

* **Atomic save.** MindSpore deletes the old file before it writes the new one, so a process killed
  in between (a kernel restart, an out-of-memory kill, Ctrl-C at the wrong moment) leaves no
  checkpoint at all, or one of its half-written temporary files. ``save`` writes to a temporary file
  in the same folder, flushes it to disk (``fsync``) and only then renames it over the target with
  ``os.replace``, which is atomic on POSIX and Windows: the target is always either the complete old
  checkpoint or the complete new one.
* **Resume counters.** ``epoch``, ``step_in_epoch`` and numeric ``extra`` values are stored in the
  same file as the weights, so the weights and the position in training can never disagree.
* **Restore that keeps training alive.** Values are copied into the existing ``Parameter`` objects
  (``Parameter.copy_``). ``mindspore.load_param_into_net`` swaps the parameters' data instead, and a
  training step that was already compiled in PyNative mode (``TrainOneStepCell``) or under ``@jit``
  then keeps updating the old buffers: training silently stops. Copying in place works in every mode.
* **Clear errors.** Missing parameters, wrong shapes, a truncated or mislabelled file: each says what
  is wrong and what to do.

Both of MindSpore's formats work: ``.ckpt`` (its protobuf format) and ``.safetensors`` (the
Hugging Face format, readable without MindSpore). In MindSpore 2.10 the ``format=`` argument of
``save_checkpoint``/``load_checkpoint`` chooses the format (default ``"ckpt"``), not the file name: a
name that does not end in the format's suffix gets it appended (``save_checkpoint(net,
"w.safetensors")`` writes ``w.safetensors.ckpt``), and loading a ``.safetensors`` file needs
``format="safetensors"``. This module derives ``format=`` from the suffix, so the name you pass is the
file you get and its content matches its name.

Positions: ``epoch`` in a file and in ``CheckpointInfo`` is the number of *completed* epochs and
``step_in_epoch`` the number of batches done in the next one (both count what is done, so 0 means
"nothing yet"). ``describe_position`` turns them into the 1-based words a learner reads ("epoch 4,
after its step 189"; "end of epoch 3").
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from pathlib import Path
from typing import Dict, Iterable, Optional, Union

import numpy as np

from course_utils.fileio import fsync_path
from course_utils.i18n import tr

FORMATS = {".ckpt": "ckpt", ".safetensors": "safetensors"}

#: Names under which the resume counters are stored next to the parameters. The dots keep them
#: apart from MindSpore's parameter names, which never start with "course.".
_PREFIX = "course."
_EPOCH = _PREFIX + "epoch"
_STEP = _PREFIX + "step_in_epoch"
_EXTRA = _PREFIX + "extra."

PathLike = Union[str, os.PathLike]


class CheckpointError(ValueError):
    """A checkpoint cannot be read, or does not fit the network it is loaded into."""


@dataclasses.dataclass
class CheckpointInfo:
    """What ``load`` found: where training stood, and which parameters it restored."""

    path: Path
    format: str
    epoch: int
    step_in_epoch: int
    extra: Dict[str, float]
    restored: list
    unused: list
    #: Every stored parameter as a NumPy array (the counters excluded).
    arrays: Dict[str, np.ndarray] = dataclasses.field(repr=False, default_factory=dict)

    def summary(self) -> str:
        text = tr("{name}: restored {n} parameters", name=self.path.name, n=len(self.restored))
        if self.epoch or self.step_in_epoch:
            text += tr("; saved at {position}", position=describe_position(self.epoch, self.step_in_epoch))
        if self.unused:
            text += tr("; {n} stored values not used (e.g. {example})", n=len(self.unused), example=self.unused[0])
        return text


def describe_position(epochs_done: int, step_in_epoch: int) -> str:
    """A training position in the words a learner reads, epochs and steps counted from 1.

    ``epochs_done`` completed epochs plus ``step_in_epoch`` batches of the next one:
    ``(0, 0)`` -> "the start of training", ``(3, 0)`` -> "the end of epoch 3",
    ``(3, 189)`` -> "epoch 4, after its step 189".
    """
    epochs_done, step_in_epoch = int(epochs_done), int(step_in_epoch)
    if step_in_epoch == 0:
        return tr("the start of training") if epochs_done == 0 else tr("the end of epoch {epoch}", epoch=epochs_done)
    return tr("epoch {epoch}, after its step {step}", epoch=epochs_done + 1, step=step_in_epoch)


# --------------------------------------------------------------------------------------------
# Paths and formats
# --------------------------------------------------------------------------------------------

def checkpoint_format(path: PathLike, format: Optional[str] = None) -> str:
    """The format of ``path`` from its suffix; ``format``, if given, must agree with it.

    MindSpore chooses the format by its ``format=`` argument (default "ckpt") and appends that
    format's suffix to a name without it ("w.safetensors" -> "w.safetensors.ckpt"); loading refuses a
    file whose suffix disagrees with ``format=``. Deriving ``format=`` from the suffix here keeps the
    name and the content in agreement.
    """
    suffix = Path(path).suffix.lower()
    found = FORMATS.get(suffix)
    if found is None:
        raise ValueError(tr("Checkpoint file name {path} must end in .ckpt or .safetensors "
                            "(the suffix chooses the format).", path=repr(str(path))))
    if format is not None and format != found:
        raise ValueError(tr("format={format} does not match the file name {path}: "
                            "name the file *.{suffix} or pass format={found}.", format=repr(format),
                            path=repr(str(path)), suffix=format, found=repr(found)))
    return found


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def _is_temp_of(name: str, target: Path) -> Optional[int]:
    """The writer's process id if ``name`` is one of ``save``'s temporary files for ``target``."""
    prefix = _temp_prefix(target)
    if not name.startswith(prefix) or ".partial" not in name:
        return None
    pid = name[len(prefix):].split("-", 1)[0]
    return int(pid) if pid.isdigit() else None


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, belongs to someone else
        return True
    return True


def stale_temp_files(target: PathLike) -> list:
    """Temporary files that a killed ``save`` of ``target`` left behind (their writer is gone)."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        return []
    found = []
    for entry in folder.iterdir():
        pid = _is_temp_of(entry.name, target)
        if pid is not None and not _pid_alive(pid):
            found.append(entry)
    return sorted(found)


def _remove_quietly(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


# --------------------------------------------------------------------------------------------
# Save
# --------------------------------------------------------------------------------------------

def _collect_parameters(cells: Iterable) -> dict:
    from mindspore import nn

    params: dict = {}
    for cell in cells:
        if not isinstance(cell, nn.Cell):
            raise TypeError(tr("save/load take MindSpore Cells (network, optimizer, training step), "
                               "got {type}.", type=type(cell).__name__))
        for p in cell.get_parameters():
            other = params.get(p.name)
            if other is not None and other is not p:
                raise CheckpointError(tr(
                    "Two different parameters are both named {name}. Pass the training step "
                    "alone (it contains the network and the optimizer), or give the networks "
                    "distinct names.", name=repr(p.name)))
            if p.name.startswith(_PREFIX):
                raise CheckpointError(tr("Parameter name {name} collides with the checkpoint's "
                                         "own entries ({prefix}*); rename the parameter.",
                                         name=repr(p.name), prefix=_PREFIX))
            params[p.name] = p
    if not params:
        raise CheckpointError(tr("Nothing to save or load: the cells given have no parameters."))
    return params


def _check_number(key: str, value) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(tr("extra[{key}] = {value}: only numbers can be stored in a checkpoint "
                           "(both formats); keep strings elsewhere.", key=repr(key), value=repr(value)))
    return value


def save(path: PathLike, *cells, epoch: int = 0, step_in_epoch: int = 0,
         extra: Optional[Dict[str, float]] = None, format: Optional[str] = None) -> Path:
    """Save the parameters of ``cells`` and the resume counters to ``path``, atomically.

    Pass the training step (``TrainOneStepCell``) to store weights *and* optimizer state (moments,
    ``global_step``, learning-rate schedule position): what resuming needs. Pass just the network
    for a weights-only file (inference). ``epoch`` is the number of completed epochs and
    ``step_in_epoch`` how many batches of the next one are already trained; after the 3rd epoch
    that is ``epoch=3, step_in_epoch=0`` (``describe_position`` says it in words).

    Returns the path written. The previous file at ``path`` stays complete until the new one is.
    """
    import mindspore as ms

    target = Path(path)
    fmt = checkpoint_format(target, format)
    for name, value in (("epoch", epoch), ("step_in_epoch", step_in_epoch)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise ValueError(tr("{name} must be a non-negative integer, got {value}.", name=name, value=repr(value)))
    params = _collect_parameters(cells)
    counters = {_EPOCH: int(epoch), _STEP: int(step_in_epoch)}
    for key, value in (extra or {}).items():
        counters[_EXTRA + str(key)] = _check_number(key, value)

    folder = target.parent if str(target.parent) else Path(".")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in stale_temp_files(target):
        _remove_quietly(stale)
    # MindSpore writes "<tmp without suffix>.tmp" and renames it to ``tmp``: both names start with
    # the same prefix, so ``stale_temp_files`` finds either if this process is killed.
    token = f"{os.getpid()}-{secrets.token_hex(4)}"
    tmp = folder / f"{_temp_prefix(target)}{token}.partial.{fmt}"
    try:
        ms.save_checkpoint([{"name": n, "data": p} for n, p in params.items()], str(tmp),
                           append_dict=counters, format=fmt)
        fsync_path(tmp)
        # MindSpore marks its files read-only; a normal mode lets learners delete them without
        # a prompt. The rename below is what protects the file.
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
        fsync_path(folder, directory=True)
    except BaseException:
        _remove_quietly(tmp)
        _remove_quietly(tmp.with_suffix(".tmp"))
        raise
    return target


# --------------------------------------------------------------------------------------------
# Load
# --------------------------------------------------------------------------------------------

def read(path: PathLike, format: Optional[str] = None) -> tuple:
    """Read a checkpoint without a network: ``(arrays, counters)``, both dicts of NumPy values."""
    import mindspore as ms

    path = Path(path)
    fmt = checkpoint_format(path, format)
    if not path.is_file():
        raise FileNotFoundError(tr("No checkpoint at {path} (working directory {cwd}).",
                                   path=repr(str(path)), cwd=os.getcwd()))
    try:
        stored = ms.load_checkpoint(str(path), format=fmt)
    except ValueError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CheckpointError(tr(
            "{path} is not a readable {format} checkpoint (truncated, empty or written in "
            "another format?). MindSpore said: {first}", path=repr(str(path)), format=fmt, first=first)) from None
    arrays, counters = {}, {}
    for name, value in stored.items():
        if isinstance(value, str):  # a string entry (only .ckpt can hold them); not ours
            arrays[name] = np.array(value)
            continue
        array = value.asnumpy()
        (counters if name.startswith(_PREFIX) else arrays)[name] = array
    return arrays, counters


def load(path: PathLike, *cells, strict: bool = True, format: Optional[str] = None) -> CheckpointInfo:
    """Restore ``path`` into the parameters of ``cells`` (in place) and return the resume point.

    With ``strict=True`` (default) every parameter of ``cells`` must be in the file with the same
    shape: loading a weights-only file into a training step (no optimizer state) is an error rather
    than a silent half-restore. Stored values the cells do not have (the optimizer state when
    you load into a bare network for inference) are listed in ``unused``. Without ``cells`` the file
    is only read (``info.arrays``).
    """
    import mindspore as ms

    path = Path(path)
    arrays, counters = read(path, format)
    targets = _collect_parameters(cells) if cells else {}

    missing = [n for n in targets if n not in arrays]
    wrong_shape = [tr("{name}: checkpoint {stored}, network {wanted}", name=n, stored=arrays[n].shape,
                      wanted=tuple(p.shape))
                   for n, p in targets.items() if n in arrays and arrays[n].shape != tuple(p.shape)]
    if wrong_shape:
        raise CheckpointError(tr("{name} does not fit this network (different architecture?): {details}",
                                 name=path.name,
                                 details="; ".join(wrong_shape[:5]) + (" ..." if len(wrong_shape) > 5 else "")))
    if missing and strict:
        hint = (tr(" The file has no optimizer state: was it saved from the network instead of the "
                   "training step?") if any(n in arrays for n in targets) else
                tr(" None of the names match: is this a checkpoint of another model?"))
        raise CheckpointError(tr("{name} lacks {n} parameter(s) of the cells given, "
                                 "e.g. {examples}.{hint} Use strict=False to restore what is there.",
                                 name=path.name, n=len(missing), examples=missing[:3], hint=hint))

    restored = []
    for name, param in targets.items():
        if name not in arrays:
            continue
        value = arrays[name].astype(ms.dtype_to_nptype(param.dtype), copy=False)
        param.copy_(ms.Tensor(value))
        restored.append(name)

    extra = {k[len(_EXTRA):]: v.item() for k, v in counters.items() if k.startswith(_EXTRA)}
    return CheckpointInfo(
        path=path, format=checkpoint_format(path, format),
        epoch=int(counters[_EPOCH]) if _EPOCH in counters else 0,
        step_in_epoch=int(counters[_STEP]) if _STEP in counters else 0,
        extra=extra, restored=restored,
        unused=[n for n in arrays if n not in targets] if cells else [],
        arrays=arrays)


__all__ = ["CheckpointError", "CheckpointInfo", "FORMATS", "checkpoint_format", "describe_position", "load", "read",
           "save", "stale_temp_files"]
