"""course_utils.checkpoint: atomic save, strict in-place restore, training that continues after a restore in both
modes, and a writer killed mid-save (fit's exact resume is in test_training_loop.py)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import mindspore as ms

from support import PROGRAMS, ROOT
from support.lenet_training import lenet_batches, lenet_training
from course_utils import checkpoint
from course_utils.models import LeNet5

FORMATS = pytest.mark.parametrize("suffix", [".ckpt", ".safetensors"])
MODES = pytest.mark.parametrize("ms_mode", ["graph", "pynative"], indirect=True)


def _values(cell):
    return {p.name: p.asnumpy().copy() for p in cell.get_parameters()}


# ---- formats and names ---------------------------------------------------------------------------

def test_format_follows_the_suffix():
    assert checkpoint.checkpoint_format("a/b.ckpt") == "ckpt"
    assert checkpoint.checkpoint_format("b.SAFETENSORS") == "safetensors"
    with pytest.raises(ValueError, match="must end in .ckpt or .safetensors"):
        checkpoint.checkpoint_format("model.pt")
    with pytest.raises(ValueError, match="does not match the file name"):
        checkpoint.checkpoint_format("model.ckpt", "safetensors")


# ---- save / load round trips (in PyNative: a file format does not depend on the mode) ------------------

@FORMATS
def test_weights_round_trip_into_a_fresh_network(tmp_path, suffix, pynative):
    net = LeNet5()
    x = lenet_batches(1)[0][0]
    path = checkpoint.save(tmp_path / f"w{suffix}", net)
    assert path == tmp_path / f"w{suffix}" and path.is_file()
    assert sorted(os.listdir(tmp_path)) == [f"w{suffix}"]          # no temporary file left
    assert (path.stat().st_mode & 0o777) == 0o644
    fresh = LeNet5()
    assert not np.array_equal(fresh(x).asnumpy(), net(x).asnumpy())
    info = checkpoint.load(path, fresh)
    assert sorted(info.restored) == sorted(p.name for p in net.get_parameters())
    assert info.unused == [] and info.format == suffix[1:]
    np.testing.assert_array_equal(fresh(x).asnumpy(), net(x).asnumpy())


@FORMATS
def test_counters_extra_and_optimizer_state_round_trip(tmp_path, suffix, pynative):
    net, opt, step = lenet_training()
    for x, y in lenet_batches(3):
        step(x, y)
    path = checkpoint.save(tmp_path / f"run{suffix}", step, epoch=2, step_in_epoch=17,
                           extra={"global_step": 1891, "best_accuracy": 0.9912})
    info = checkpoint.load(path, lenet_training(seed=5)[2])
    assert (info.epoch, info.step_in_epoch) == (2, 17)
    assert info.extra["global_step"] == 1891 and info.extra["best_accuracy"] == pytest.approx(0.9912)
    assert "moment1.fc1.weight" in info.arrays and int(info.arrays["global_step"][0]) == 3
    arrays, counters = checkpoint.read(path)
    assert int(counters["course.epoch"]) == 2 and "course.epoch" not in arrays
    assert "saved at epoch 3, after its step 17" in info.summary()   # counted from 1 where a learner reads it


def test_positions_are_described_counting_from_one():
    assert checkpoint.describe_position(0, 0) == "the start of training"
    assert checkpoint.describe_position(3, 0) == "the end of epoch 3"
    assert checkpoint.describe_position(3, 189) == "epoch 4, after its step 189"


def test_weights_only_file_into_a_network_lists_the_unused_optimizer_state(tmp_path):
    net, opt, step = lenet_training()
    path = checkpoint.save(tmp_path / "run.ckpt", step)
    info = checkpoint.load(path, LeNet5())
    assert len(info.restored) == 8 and "global_step" in info.unused
    assert "not used" in info.summary()


def test_saving_again_replaces_the_file_and_leaves_no_temporary_files(tmp_path):
    net = LeNet5()
    target = tmp_path / "sub" / "w.ckpt"
    checkpoint.save(target, net)
    for p in net.get_parameters():
        p.copy_(ms.Tensor(np.full(p.shape, 0.5, dtype=np.float32)))
    checkpoint.save(target, net)
    assert sorted(os.listdir(target.parent)) == ["w.ckpt"]
    assert all(np.all(v == 0.5) for v in checkpoint.read(target)[0].values())


# ---- errors ----------------------------------------------------------------------------------------

def test_bad_arguments_are_rejected(tmp_path):
    net = LeNet5()
    with pytest.raises(ValueError, match="non-negative integer"):
        checkpoint.save(tmp_path / "a.ckpt", net, epoch=-1)
    with pytest.raises(TypeError, match="only numbers"):
        checkpoint.save(tmp_path / "a.ckpt", net, extra={"note": "text"})
    with pytest.raises(TypeError, match="MindSpore Cells"):
        checkpoint.save(tmp_path / "a.ckpt", {"w": 1})
    assert not list(tmp_path.iterdir())


def test_missing_truncated_and_mislabelled_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="No checkpoint"):
        checkpoint.load(tmp_path / "nothing.ckpt", LeNet5())
    good = checkpoint.save(tmp_path / "w.ckpt", LeNet5())
    raw = good.read_bytes()
    (tmp_path / "half.ckpt").write_bytes(raw[: len(raw) // 2])
    with pytest.raises(checkpoint.CheckpointError, match="not a readable ckpt checkpoint"):
        checkpoint.load(tmp_path / "half.ckpt", LeNet5())
    (tmp_path / "wrong.safetensors").write_bytes(raw)
    with pytest.raises(checkpoint.CheckpointError, match="not a readable safetensors checkpoint"):
        checkpoint.load(tmp_path / "wrong.safetensors", LeNet5())


def test_strict_load_refuses_a_half_restore(tmp_path):
    weights = checkpoint.save(tmp_path / "w.ckpt", LeNet5())
    net, opt, step = lenet_training()
    before = _values(step)
    with pytest.raises(checkpoint.CheckpointError, match="no optimizer state"):
        checkpoint.load(weights, step)
    after = _values(step)
    assert all(np.array_equal(before[k], after[k]) for k in before)     # nothing was changed
    info = checkpoint.load(weights, step, strict=False)
    assert len(info.restored) == 8


def test_another_architecture_is_refused(tmp_path):
    path = checkpoint.save(tmp_path / "w.ckpt", LeNet5(image_size=32))
    with pytest.raises(checkpoint.CheckpointError, match=r"fc1.weight: checkpoint \(120, 400\), network \(120, 256\)"):
        checkpoint.load(path, LeNet5())


# ---- training continues after a restore (the reload trap) -----------------------------------------

@MODES
def test_training_continues_after_restoring_into_a_compiled_step(tmp_path, ms_mode):
    batches = lenet_batches(4)
    net, opt, step = lenet_training(seed=1)
    for x, y in batches[:2]:
        step(x, y)
    path = checkpoint.save(tmp_path / "mid.ckpt", step, epoch=0, step_in_epoch=2)
    expected = [float(step(x, y).asnumpy()) for x, y in batches[2:]]

    net2, opt2, step2 = lenet_training(seed=2)
    step2(*batches[0])                     # compiled (and run) before the restore
    checkpoint.load(path, step2)
    w0 = net2.fc3.weight.asnumpy().copy()
    got = [float(step2(x, y).asnumpy()) for x, y in batches[2:]]
    assert not np.array_equal(w0, net2.fc3.weight.asnumpy()), "the weights stopped changing after the restore"
    np.testing.assert_allclose(got, expected, rtol=1e-6)
    assert int(opt2.global_step.asnumpy()[0]) == 4


# ---- a writer killed in the middle of a save -------------------------------------------------------



def _start_writer(target: Path, how: str, size: int = 0):
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.Popen([sys.executable, str(PROGRAMS / "checkpoint_writer.py"), str(target), how, str(size)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _wait_for(predicate, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False


def _previous(tmp_path: Path) -> tuple:
    net = LeNet5()
    target = checkpoint.save(tmp_path / "model.ckpt", net, epoch=3)
    return target, _values(net)


def _assert_previous_intact(target: Path, values: dict) -> None:
    info = checkpoint.load(target, LeNet5())
    assert info.epoch == 3
    for name, value in values.items():
        np.testing.assert_array_equal(info.arrays[name], value)


def test_writer_killed_before_the_rename_leaves_the_previous_checkpoint(tmp_path):
    target, values = _previous(tmp_path)
    proc = _start_writer(target, "before_rename")
    try:
        assert _wait_for(lambda: Path(str(target) + ".ready").exists()), proc.stderr.read1().decode()
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    leftovers = checkpoint.stale_temp_files(target)
    assert leftovers, "the killed writer's complete but unrenamed temporary file should be there"
    assert all(p.name.startswith(".model.ckpt.") for p in leftovers)
    _assert_previous_intact(target, values)
    checkpoint.save(target, LeNet5())            # the next save clears what the dead writer left
    assert checkpoint.stale_temp_files(target) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.ckpt", "model.ckpt.ready"]


@pytest.mark.slow
def test_writer_killed_in_the_middle_of_writing_leaves_the_previous_checkpoint(tmp_path):
    target, values = _previous(tmp_path)
    size = 24_000_000                            # ~96 MB per save: long enough to catch it half-way
    for _attempt in range(5):
        proc = _start_writer(target, "loop", size)
        ready = Path(str(target) + ".ready")
        try:
            assert _wait_for(ready.exists)

            def partial():
                files = [p for p in tmp_path.iterdir() if ".partial" in p.name]
                return files and any(0 < p.stat().st_size < 4 * size for p in files if p.exists())

            caught = _wait_for(partial, timeout=60)
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        half = [p for p in tmp_path.iterdir() if ".partial" in p.name]
        # the writer may have finished a save before the kill: then the target holds *its* data, complete
        if caught and half and checkpoint.read(target)[1]["course.epoch"] == 3:
            break
        target, values = _previous(tmp_path)
    else:
        pytest.skip("could not catch the writer in the middle of a save on this machine")
    assert any(p.stat().st_size < 4 * size for p in half)
    _assert_previous_intact(target, values)
    checkpoint.save(target, LeNet5())
    assert not [p for p in tmp_path.iterdir() if ".partial" in p.name]
