"""course_utils.distributed: the msrun launcher of notebook 09.

Tiny worker scripts that do not import MindSpore (msrun runs any script) let the launcher's paths -
success, a crashing worker, a hanging worker (timeout), Ctrl-C, a busy port - be exercised for real in a
few seconds each, and every such test checks that no process of the job is left. The rest run
MindSpore's own cluster: a 2-worker training run whose ranks end with identical weights, a scheduler
that finds its port taken, notebook 09 under papermill. Every test that launches processes with msrun
is marked ``integration`` (``make test-full`` runs them, ``make test`` does not: its run of lesson 09 launches msrun).
"""

import json
import os
import shutil
import signal
import socket
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from support import NOTEBOOKS, PROGRAMS, run_python
from course_utils import distributed as dist
from course_utils.distributed import LaunchError, launch

TRAIN_SCRIPT = NOTEBOOKS / "scripts" / "train_dp.py"

@pytest.fixture
def worker():
    """A tiny worker that does what it is told through environment variables (tests/programs/msrun_worker.py)."""
    return PROGRAMS / "msrun_worker.py"


@pytest.fixture
def busy_port():
    """A port on 127.0.0.1 that something (this test) listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def env(**extra):
    return dist.msrun_env("CPU", extra={k: str(v) for k, v in extra.items()})


def assert_no_leftovers(result):
    assert result.launch_id
    assert dist.job_processes(result.launch_id) == [], "processes of the job survived the launcher"


# ---------------------------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------------------------

def test_msrun_command_single_node():
    cmd = dist.msrun_command("train.py", ["--steps", 3], workers=2, port=12345, log_dir="logs",
                             cluster_timeout=30, msrun=["msrun"])
    assert cmd == ["msrun", "--worker_num=2", "--local_worker_num=2", "--master_addr=127.0.0.1",
                   "--master_port=12345", "--log_dir=logs", "--join=True", "--cluster_time_out=30",
                   "train.py", "--steps", "3"]


def test_msrun_command_tails_one_worker_log():
    cmd = dist.msrun_command("train.py", workers=2, port=12345, tail_worker_log=0, msrun=["msrun"])
    assert cmd[-2:] == ["--tail_worker_log=0", "train.py"]
    assert not any(part.startswith("--tail_worker_log") for part in dist.msrun_command("train.py", msrun=["msrun"]))


def test_msrun_command_multi_node():
    cmd = dist.msrun_command("train.py", workers=16, local_workers=8, master_addr="MASTER_IP",
                             node_rank=1, msrun=["msrun"])
    assert "--worker_num=16" in cmd and "--local_worker_num=8" in cmd
    assert "--node_rank=1" in cmd and "--master_addr=MASTER_IP" in cmd


@pytest.mark.parametrize("kwargs, words", [
    ({"workers": 0}, "workers must be a positive integer"),
    ({"workers": 2, "local_workers": 3}, "more than workers"),
    ({"port": 80}, "between 1024 and 65535"),
])
def test_msrun_command_rejects_bad_values(kwargs, words):
    with pytest.raises(ValueError, match=words):
        dist.msrun_command("train.py", **kwargs)


def test_find_msrun_is_this_environments():
    cmd = dist.find_msrun()
    assert cmd[0].startswith(str(Path(sys.executable).parent)) or cmd[:2] == [sys.executable, "-m"]


def test_free_port_and_port_in_use(busy_port):
    port = dist.free_port()
    assert 1024 <= port <= 65535
    assert not dist.port_in_use(port)
    assert dist.port_in_use(busy_port)


def test_msrun_env_puts_this_python_first_and_applies_runtime_settings():
    e = dist.msrun_env("CPU", threads=1, extra={"X": "1"})
    assert e["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent)
    assert e["GLOG_v"] == "3" and e["OMP_NUM_THREADS"] == "1" and e["X"] == "1"
    from course_utils import runtime
    for k, v in runtime.cpu_fix_env().items():
        assert e[k] == v


@pytest.fixture(scope="module")
def cpu_kernel():
    """A CPU kernel with the CPU fixes on a machine without NPUs: msrun_env's fixes, require_devices' error."""
    return run_python(["tests/programs/distributed_cpu_kernel.py"], env={"COURSE_LANG": "en"})


def test_msrun_env_has_no_cpu_fixes_for_ascend_workers(cpu_kernel):
    """Even in a kernel that runs on CPU with the fixes applied, Ascend workers get none of them (but a
    variable the user set stays: it is theirs)."""
    out = cpu_kernel
    assert out.returncode == 0, out.stderr
    envs = json.loads(out.stdout.strip().splitlines()[0])
    assert all(v is not None for v in envs["cpu"].values()), envs
    assert all(v is None for v in envs["ascend"].values()), envs


def test_msrun_env_follows_the_fake_ascend_kernel(python):
    """With the kernel on (fake) Ascend, the default job device is Ascend: no CPU fixes."""
    out = python(["tests/programs/distributed_fake_ascend_env.py"], env={"COURSE_FAKE_DEVICE": "Ascend:2"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "Ascend []"


def test_require_devices_stops_with_how_to_run_the_lesson(python, tmp_path):
    out = python(["tests/programs/distributed_require_devices.py", TRAIN_SCRIPT, tmp_path / "logs"],
                 env={"COURSE_FAKE_DEVICE": "Ascend:1"})
    assert out.returncode == 0, out.stderr
    first, second = out.stdout.strip().splitlines()[-2:]
    assert first.startswith("not_enough_devices | This job starts 2 workers on Ascend")
    assert "this machine has 1 NPU." in first and 'DEVICE_TARGET = "CPU"' in first
    assert second == "not_enough_devices"


def test_require_devices_without_an_npu_says_zero(cpu_kernel):
    out = cpu_kernel
    assert out.returncode == 0, out.stderr
    assert "this machine has 0 NPUs" in out.stdout


def test_clean_log_drops_mindspore_info_and_warning_lines():
    text = ("[INFO] DISTRIBUTED(7635,7fc4,python):2026-11-29 [tcp_server.cc:314] Start] ok\n"
            "[WARNING] ME(9514:1403,MainProcess):2026-11-29 [x.py:1] careful\n"
            "step 1 loss 2.3\n"
            "[ERROR] ME(9514:1403,MainProcess):2026-11-29 [x.py:2] broken\n")
    assert dist.clean_log(text) == ("step 1 loss 2.3\n"
                                    "[ERROR] ME(9514:1403,MainProcess):2026-11-29 [x.py:2] broken\n")


def test_error_summary_condenses_a_traceback():
    log = textwrap.dedent("""\
        rank 1 of 2: connected
        step 0 loss 2.3
        Traceback (most recent call last):
          File "/somewhere/deep/train_dp.py", line 119, in main
            raise RuntimeError("boom")
        RuntimeError: boom

        ----------------------------------------------------
        - C++ Call Stack: (For framework developers)
        ----------------------------------------------------
        mindspore/ccsrc/x.cc:1 F
        """)
    summary = dist.error_summary(log)
    assert "RuntimeError: boom" in summary
    assert "train_dp.py, line 119, in main" in summary and "/somewhere" not in summary
    assert "step 0 loss 2.3" in summary
    assert "Traceback" not in summary and "C++" not in summary


def test_launch_checks_its_arguments(tmp_path, worker):
    with pytest.raises(FileNotFoundError, match="does not exist"):
        launch(tmp_path / "missing.py", log_dir=tmp_path / "logs")
    with pytest.raises(ValueError, match="timeout"):
        launch(worker, log_dir=tmp_path / "logs", timeout=0)


# ---------------------------------------------------------------------------------------------
# Real launches of tiny workers
# ---------------------------------------------------------------------------------------------

@pytest.mark.integration
def test_successful_launch_returns_each_ranks_log(tmp_path, worker):
    result = launch(worker, workers=2, log_dir=tmp_path / "logs", timeout=60, env=env())
    assert result.returncode == 0
    for rank in (0, 1):
        assert result.log(rank) == f"rank {rank} of 2 started\nrank {rank} done\n"
    assert result.command[-1] == str(worker) and "--master_addr=127.0.0.1" in result.command
    assert (tmp_path / "logs" / "msrun.log").exists()
    assert_no_leftovers(result)
    # when each process was seen gone (notebook 09 splits the shut-down with it); these workers live too briefly
    # for every one to be seen at a poll, so only what was seen is checked: all before msrun
    assert "msrun" in result.exited and set(result.exited) <= {0, 1, "scheduler", "msrun"}, result.exited
    assert all(t <= result.exited["msrun"] for t in result.exited.values())


def test_a_process_the_polls_never_tracked_is_named_from_its_environment():
    # a rank still starting when another failed is stopped by the cleanup before any poll saw it: it is named by
    # its rank, not as "pid <n>" (CI once printed ['msrun', 'pid 15827'])
    import subprocess

    import psutil

    base = {k: v for k, v in os.environ.items() if k not in ("MS_ROLE", "RANK_ID")}
    cases = [({"MS_ROLE": "MS_WORKER", "RANK_ID": "3"}, [sys.executable, "-c", "import time; time.sleep(30)"], 3),
             ({"MS_ROLE": "MS_SCHED"}, [sys.executable, "-c", "import time; time.sleep(30)"], "scheduler"),
             ({}, ["sleep", "30"], "sleep")]
    for extra, cmd, expected in cases:
        proc = subprocess.Popen(cmd, env={**base, **extra})
        try:
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:  # until exec has given it its own environment and name
                named = dist._name_of(psutil.Process(proc.pid))
                if named == expected or (isinstance(named, str) and named.endswith(f"({expected})")):
                    break
                time.sleep(0.05)
            if expected == "sleep":
                assert named == f"pid {proc.pid} (sleep)"
            else:
                assert named == expected
        finally:
            proc.kill()
            proc.wait()


@pytest.mark.integration
def test_crashing_worker_is_reported_and_the_others_are_stopped(tmp_path, worker):
    start = time.monotonic()
    with pytest.raises(LaunchError) as info:
        launch(worker, workers=2, log_dir=tmp_path / "logs", timeout=60, env=env(FAIL_RANK=1, HANG_RANK=0))
    err = info.value
    assert err.kind == "worker_failed" and err.rank == 1
    msg = str(err)
    assert "Rank 1 failed with exit code 1" in msg
    assert "RuntimeError: rank 1 gives up" in msg and "worker.py, line" in msg
    assert "rank 1 of 2 started" in msg  # what it printed before the error
    assert "worker_1.log" in msg
    # rank 0 would have slept for 10 minutes: it was stopped right away (by msrun or by the launcher, whichever was
    # first), and the result names what the launcher had to stop
    assert time.monotonic() - start < 30
    assert len(err.result.stopped_as) == len(err.result.stopped)
    assert set(err.result.stopped_as) <= {0, "scheduler", "msrun", "tail"}, err.result.stopped_as
    assert_no_leftovers(err.result)


@pytest.mark.integration
def test_worker_killed_by_a_signal_is_named_by_rank(tmp_path, worker):
    with pytest.raises(LaunchError) as info:
        launch(worker, workers=2, log_dir=tmp_path / "logs", timeout=60, env=env(KILL_RANK=0, HANG_RANK=1))
    err = info.value
    assert err.kind == "worker_failed" and err.rank == 0
    assert "killed by signal SIGKILL" in str(err)
    assert_no_leftovers(err.result)


@pytest.mark.integration
def test_timeout_stops_every_process(tmp_path, worker):
    start = time.monotonic()
    with pytest.raises(LaunchError) as info:
        launch(worker, workers=2, log_dir=tmp_path / "logs", timeout=8, env=env(HANG_ALL=1))
    err = info.value
    assert err.kind == "timeout"
    assert "did not finish within timeout=8 s" in str(err)
    # the last lines of every log (on a very busy machine the workers may not have started yet)
    assert "--- worker_0.log ---" in str(err) and "--- scheduler.log ---" in str(err)
    assert err.result.stopped, "msrun and the hanging workers should have been stopped by the launcher"
    assert time.monotonic() - start < 30
    assert_no_leftovers(err.result)


@pytest.mark.integration
def test_keyboard_interrupt_stops_every_process(tmp_path, worker):
    seen = {}

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.alarm(4)
    try:
        with pytest.raises(KeyboardInterrupt):
            launch(worker, workers=2, log_dir=tmp_path / "logs", timeout=60, env=env(HANG_ALL=1, MARK="ctrl-c"))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    # The launch id is not returned on an interrupt: look for the job by its marker instead.
    import psutil
    for proc in psutil.process_iter():
        try:
            if proc.environ().get("MARK") == "ctrl-c" and proc.pid != os.getpid():
                seen[proc.pid] = proc.cmdline()
        except (psutil.Error, OSError):
            continue
    assert not seen, f"processes survived the interrupt: {seen}"


def test_port_in_use_fails_at_once_and_starts_nothing(tmp_path, worker, busy_port):
    port = busy_port
    start = time.monotonic()
    with pytest.raises(LaunchError) as info:
        launch(worker, workers=2, log_dir=tmp_path / "logs", port=port, timeout=60, env=env())
    assert info.value.kind == "port_in_use"
    assert f"Port {port} on 127.0.0.1 is already in use" in str(info.value)
    assert "Nothing was started" in str(info.value)
    assert time.monotonic() - start < 5
    assert not (tmp_path / "logs" / "msrun.log").exists()


# ---------------------------------------------------------------------------------------------
# MindSpore's own cluster (slow: every process imports MindSpore)
# ---------------------------------------------------------------------------------------------



@pytest.mark.integration
def test_scheduler_port_taken_after_the_check_is_reported_quickly(tmp_path, monkeypatch, busy_port):
    """The port is free when checked but taken when the scheduler starts: msrun's workers would wait
    for the whole cluster timeout; the launcher reports it as soon as the scheduler fails."""
    script = PROGRAMS / "msrun_init_only.py"
    monkeypatch.setattr(dist, "port_in_use", lambda port, host=dist.LOOPBACK: False)
    port = busy_port
    start = time.monotonic()
    with pytest.raises(LaunchError) as info:
        launch(script, workers=2, log_dir=tmp_path / "logs", port=port, timeout=240, cluster_timeout=240)
    err = info.value
    assert err.kind == "port_in_use", str(err)
    assert f"127.0.0.1:{port}" in str(err)
    assert time.monotonic() - start < 120  # far less than the 240 s the workers would wait
    assert_no_leftovers(err.result)


@pytest.mark.integration
def test_two_worker_training_ends_with_identical_weights(tmp_path):
    out = tmp_path / "run"
    result = launch(TRAIN_SCRIPT, ["--out", out, "--steps", 3, "--batch-size", 16, "--styles", "cell,no_reducer"],
                    workers=2, log_dir=out / "logs", timeout=300)
    assert_no_leftovers(result)
    for rank in (0, 1):
        assert f"rank {rank} of 2: connected" in result.log(rank)
    t0, t1 = (np.load(out / f"rank_{r}" / "trace.npz") for r in (0, 1))
    # different data on each rank (disjoint shards) ...
    assert not np.array_equal(t0["labels"], t1["labels"]) or not np.array_equal(t0["images"], t1["images"])
    # ... the same starting point, identical weights after every step with the all-reduce ...
    np.testing.assert_array_equal(t0["weights_cell"], t1["weights_cell"])
    assert np.array_equal(t0["weights_cell"][0], t1["weights_cell"][0])
    # ... and replicas that drift apart without it
    assert np.abs(t0["weights_no_reducer"][-1] - t1["weights_no_reducer"][-1]).max() > 1e-4
    for rank in (0, 1):
        assert (out / f"rank_{rank}" / "cell.ckpt").is_file()


# The cell the lead inserts into notebook 09 right after the set-up cell that defines WORKERS (see the report).
PREFLIGHT_CELL = """\
# msrun gives every worker its own card (DEVICE_ID = its local rank): check that there are enough before starting.
distributed.require_devices(WORKERS, info.device)
"""


def _insert_preflight(src, dest):
    import nbformat

    nb = nbformat.read(src, as_version=4)
    at = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "WORKERS < 2" in c.source)
    cell = nbformat.v4.new_code_cell(PREFLIGHT_CELL)
    if nb.nbformat_minor < 5:  # the stored notebooks are nbformat 4.4: no cell ids
        del cell["id"]
    nb.cells.insert(at + 1, cell)
    nbformat.write(nb, dest)
    return at + 1


@pytest.mark.integration
def test_notebook_08_stops_on_a_one_npu_machine_under_papermill(tmp_path, monkeypatch):
    """Notebook 09 with the preflight cell, on a (fake) one-NPU Ascend notebook: papermill stops at that cell with
    the message saying how to run the lesson, before any process is started."""
    import nbformat
    import papermill as pm

    copy = tmp_path / "09_data_parallel.ipynb"
    _insert_preflight(NOTEBOOKS / "09_data_parallel.ipynb", copy)
    shutil.copytree(NOTEBOOKS / "scripts", tmp_path / "scripts")
    monkeypatch.setenv("COURSE_FAKE_DEVICE", "Ascend:1")
    with pytest.raises(pm.PapermillExecutionError) as info:
        pm.execute_notebook(str(copy), str(tmp_path / "out.ipynb"), cwd=str(tmp_path), kernel_name="python3",
                            progress_bar=False, execution_timeout=600)
    assert info.value.ename == "LaunchError"
    assert "This job starts 2 workers on Ascend" in info.value.evalue
    assert "this machine has 1 NPU" in info.value.evalue and 'DEVICE_TARGET = "CPU"' in info.value.evalue
    out = nbformat.read(tmp_path / "out.ipynb", as_version=4)
    code = [c for c in out.cells if c.cell_type == "code"]
    failed = [c for c in code if any(o.get("output_type") == "error" for o in c.outputs)]
    assert len(failed) == 1 and failed[0].source == PREFLIGHT_CELL
    assert "device Ascend" in "".join(o.get("text", "") for c in code for o in c.outputs), "setup ran on fake Ascend"
    assert not (tmp_path / "runs").exists(), "nothing was launched"


@pytest.mark.integration
def test_notebook_08_preflight_passes_on_cpu(tmp_path):
    """The same cell on CPU workers (this machine) lets the lesson go on."""
    import papermill as pm

    copy = tmp_path / "09_data_parallel.ipynb"
    at = _insert_preflight(NOTEBOOKS / "09_data_parallel.ipynb", copy)
    import nbformat

    nb = nbformat.read(copy, as_version=4)
    nb.cells = nb.cells[:at + 1]  # stop after the preflight
    nbformat.write(nb, copy)
    pm.execute_notebook(str(copy), str(tmp_path / "out.ipynb"), cwd=str(tmp_path), kernel_name="python3",
                        progress_bar=False, execution_timeout=600, parameters={"DEVICE_TARGET": "CPU"})
