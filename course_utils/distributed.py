"""Launch a MindSpore data-parallel job with ``msrun`` on this machine, safely.

``msrun`` (MindSpore's own launcher) starts one scheduler process and N worker processes, each
running the same training script. On its own it has three habits that hurt in a notebook:

* a worker that crashes makes ``msrun`` kill the other workers, but then it waits for the scheduler,
  which only notices the missing worker after its heartbeat timeout (tens of seconds or more);
* a busy scheduler port fails the scheduler at once, but the workers keep waiting for it for the
  whole ``--cluster_time_out`` (600 s by default);
* workers run in their own sessions (``setsid``): Ctrl-C reaches ``msrun``, which kills them, but
  a ``msrun`` stopped any other way (SIGTERM, a closed terminal, a killed kernel) leaves them running.

``launch()`` wraps it: master on 127.0.0.1 and a free port, logs in a folder the caller reads back,
a deadline, the first failure detected from the logs within a fraction of a second, and every process
of the job (found by a launch id in its environment, wherever it has been re-parented) stopped
before it returns or raises. A failure raises ``LaunchError`` with what went wrong, which rank and
the tail of that rank's log.

    from course_utils.distributed import launch, LaunchError
    result = launch("scripts/train_dp.py", ["--steps", "20"], workers=2, log_dir="runs/dp", timeout=120)
    print(result.log(0))

Why one module of ~560 lines: the command, the environment, the process tracking and the failure diagnosis are
the parts of one ``launch()`` and are read together when a launch misbehaves; apart, each would be a fragment.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Optional, Sequence

from course_utils import runtime
from course_utils.i18n import N_, tr
from course_utils.ports import LOOPBACK, free_port, port_in_use
from course_utils.validate import positive_int

#: Environment variable carrying a per-launch id; every process of the job inherits it.
LAUNCH_ID_VAR = "COURSE_LAUNCH_ID"
#: Name of the file (inside ``log_dir``) that receives msrun's own output.
MSRUN_LOG = "msrun.log"

# msrun's own report of a dead worker (mindspore/parallel/cluster/process_entity/_api.py).
_WORKER_EXIT = re.compile(r"Worker process (\d+) exit with exception\. Error code: (-?\d+)")
# MindSpore's log line prefix: "[WARNING] ME(1234:..." / "[INFO] DISTRIBUTED(..."
_MS_LOG_LINE = re.compile(r"^\[(DEBUG|INFO|WARNING|ERROR|CRITICAL)\] [A-Z_]+\(\d+[,:]")
_PORT_FAILURE = ("Failed to init the tcp server", "Failed to create the TCP server")


class LaunchError(RuntimeError):
    """A distributed job that did not finish cleanly. All of its processes have been stopped.

    Attributes: ``kind`` ("timeout", "worker_failed", "port_in_use", "scheduler_failed",
    "launcher_failed", "not_enough_devices"), ``rank`` (the failing worker, if known) and ``result`` (a ``LaunchResult``
    with the logs, for a closer look).
    """

    def __init__(self, message: str, kind: str, rank: Optional[int] = None,
                 result: Optional["LaunchResult"] = None):
        super().__init__(message)
        self.kind = kind
        self.rank = rank
        self.result = result


@dataclasses.dataclass
class LaunchResult:
    """What a finished launch left behind: the command, exit code, duration and the logs."""

    command: list
    log_dir: Path
    workers: int
    port: int
    returncode: Optional[int]
    seconds: float
    launch_id: str = ""  # in every job process's environment (COURSE_LAUNCH_ID)
    stopped: list = dataclasses.field(default_factory=list)  # pids the cleanup had to stop
    # who they were, in the same order and named as in ``exited``: a worker by its rank, "scheduler", "msrun"
    # (one the polls never saw start is named from its environment; msrun's log follower is "tail"; anything else
    # "pid <n> (<command>)")
    stopped_as: list = dataclasses.field(default_factory=list)
    # when (time.time()) the launcher first saw each process gone: a worker under its rank, the scheduler under
    # "scheduler", msrun under "msrun"; looked at every poll, so up to poll_interval late
    exited: dict = dataclasses.field(default_factory=dict)

    def log_path(self, rank: Optional[int] = None) -> Path:
        """``worker_<rank>.log``; ``rank=None`` is the scheduler's log."""
        return self.log_dir / ("scheduler.log" if rank is None else f"worker_{rank}.log")

    def log(self, rank: Optional[int] = None, clean: bool = True) -> str:
        """The text a worker (or, with ``rank=None``, the scheduler) printed.

        ``clean`` drops MindSpore's own INFO/WARNING log lines, keeping what the script printed
        and any error.
        """
        path = self.log_path(rank)
        text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
        return clean_log(text) if clean else text

    def tail(self, rank: Optional[int] = None, lines: int = 15) -> str:
        """The last ``lines`` lines of ``log(rank)``."""
        return "\n".join(self.log(rank).rstrip().splitlines()[-lines:])

    @property
    def msrun_output(self) -> str:
        path = self.log_dir / MSRUN_LOG
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


# --------------------------------------------------------------------------------------------
# Building the command
# --------------------------------------------------------------------------------------------

def find_msrun() -> list:
    """The command that starts msrun: the ``msrun`` beside this Python (the venv's), else the one
    on PATH, else ``python -m mindspore.parallel.cluster.run`` (the same entry point)."""
    beside = Path(sys.executable).parent / "msrun"
    if beside.exists():
        return [str(beside)]
    found = shutil.which("msrun")
    if found:
        return [found]
    return [sys.executable, "-m", "mindspore.parallel.cluster.run"]


def msrun_command(script, script_args: Sequence = (), *, workers: int = 2,
                  local_workers: Optional[int] = None, master_addr: str = LOOPBACK,
                  port: int = 8118, log_dir="msrun_log", node_rank: Optional[int] = None,
                  cluster_timeout: int = 600, join: bool = True, msrun: Optional[Sequence] = None,
                  tail_worker_log: Optional[int] = None) -> list:
    """The msrun command line as a list (``shlex.join`` it to print it).

    ``workers`` is the total number of processes in the job (``--worker_num``), ``local_workers``
    how many of them start on this node (``--local_worker_num``, default: all), ``node_rank`` which
    node this is in a multi-node job. ``tail_worker_log=r`` makes msrun copy only local worker r's
    log to its console (by default it copies every worker's, and their lines run together).
    """
    workers = positive_int("workers", workers)
    local_workers = workers if local_workers is None else positive_int("local_workers", local_workers)
    if local_workers > workers:
        raise ValueError(f"local_workers={local_workers} is more than workers={workers}: the job's total "
                         "number of processes (workers) includes those started on this node.")
    if not 1024 <= int(port) <= 65535:
        raise ValueError(f"port={port}: msrun needs a port between 1024 and 65535.")
    cmd = list(msrun or find_msrun()) + [
        f"--worker_num={workers}", f"--local_worker_num={local_workers}",
        f"--master_addr={master_addr}", f"--master_port={int(port)}",
    ]
    if node_rank is not None:
        cmd.append(f"--node_rank={int(node_rank)}")
    cmd += [f"--log_dir={log_dir}", f"--join={join}", f"--cluster_time_out={int(cluster_timeout)}"]
    if tail_worker_log is not None:
        cmd.append(f"--tail_worker_log={int(tail_worker_log)}")
    cmd += [str(script)] + [str(a) for a in script_args]
    return cmd


def _port_owner(port: int) -> str:
    """' (held by pid N: name)' when psutil can tell which local process listens on ``port``."""
    try:
        import psutil

        for conn in psutil.net_connections(kind="tcp"):
            if conn.laddr and conn.laddr.port == port and conn.status == psutil.CONN_LISTEN and conn.pid:
                if conn.pid == os.getpid():   # the caller itself, e.g. this notebook's kernel
                    return tr(" (held by pid {pid}: {name}, this process itself)", pid=conn.pid,
                              name=psutil.Process(conn.pid).name())
                return tr(" (held by pid {pid}: {name})", pid=conn.pid, name=psutil.Process(conn.pid).name())
    except Exception:  # permissions, platform: the message is complete without it
        pass
    return ""


# --------------------------------------------------------------------------------------------
# Environment and logs
# --------------------------------------------------------------------------------------------

def job_device(device: Optional[str] = None) -> str:
    """The device the job's workers run on: ``device``, else the one ``runtime.setup()`` chose in this
    process, else CPU."""
    if device is None or str(device).lower() == "auto":
        info = runtime.current()
        if info is not None:
            return info.device
        return runtime.available_devices()[0] if device is not None else "CPU"
    return runtime._normalise_device(device)


def msrun_env(device: Optional[str] = None, threads: Optional[int] = None, extra: Optional[dict] = None) -> dict:
    """The environment for the job's processes: the course's child-process environment (``runtime.child_env``:
    this one without load-time variables, MindSpore's quiet log settings, this Python's folder first on PATH, as
    msrun starts every process as plain ``python script.py``) with the CPU fixes of the workers' device (``device``,
    default ``job_device()``: none for Ascend or GPU workers, where they would slow the host side down).
    ``threads`` sets OMP_NUM_THREADS; ``extra`` goes on top.
    """
    extra = dict(extra or {})
    if threads is not None:
        extra.setdefault("OMP_NUM_THREADS", str(positive_int("threads", threads)))
    return runtime.child_env(job_device(device), cpu_fixes=True, env=extra)


def require_devices(workers: int, device: Optional[str] = None) -> int:
    """Stop before anything starts when this machine has fewer cards than the job has workers.

    msrun gives each worker on a node its own card (``DEVICE_ID`` = local rank), so ``workers`` Ascend (or GPU)
    workers need that many NPUs (GPUs); CPU workers need nothing. Returns the number of cards found (for CPU:
    ``workers``); raises ``LaunchError(kind="not_enough_devices")`` saying how to run the lesson instead.
    """
    workers = positive_int("workers", workers)
    device = job_device(device)
    if device == "CPU":
        return workers
    found = runtime.device_count(device)
    if found >= workers:
        return found
    card = "NPU" if device == "Ascend" else "GPU"
    raise LaunchError(tr(
        "This job starts {workers} workers on {device}, and msrun gives every worker its own {card} "
        "(DEVICE_ID = its local rank), but this machine has {found} {cards}. "
        "Nothing was started. Run the lesson with CPU workers instead: set DEVICE_TARGET = \"CPU\" in the "
        "parameters cell (papermill: -p DEVICE_TARGET CPU; make run ARGS=\"--notebooks 09 -p "
        "DEVICE_TARGET=CPU\"), or use a machine with {workers} {card}s.", workers=workers, device=device,
        card=card, found=found, cards=card if found == 1 else tr(N_("NPUs") if card == "NPU" else N_("GPUs"))),
        kind="not_enough_devices")


def clean_log(text: str) -> str:
    """``text`` without MindSpore's DEBUG/INFO/WARNING log lines (errors and the script's own output
    stay)."""
    keep = []
    for line in text.splitlines():
        m = _MS_LOG_LINE.match(line)
        if m and m.group(1) in ("DEBUG", "INFO", "WARNING"):
            continue
        keep.append(line)
    return "\n".join(keep) + ("\n" if keep else "")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _has_python_error(text: str) -> bool:
    return "Traceback (most recent call last)" in text


# --------------------------------------------------------------------------------------------
# Processes
# --------------------------------------------------------------------------------------------

def job_processes(launch_id: str) -> list:
    """Every live process on this machine whose environment carries ``launch_id`` (psutil
    ``Process`` objects), wherever it has been re-parented."""
    import psutil

    found = []
    for proc in psutil.process_iter(["pid"]):
        try:
            if proc.pid == os.getpid():
                continue
            if proc.environ().get(LAUNCH_ID_VAR) == launch_id:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError):
            continue
    return found


def _stop(procs: list, grace: float = 2.0) -> list:
    """SIGTERM the processes (and their process groups, never ours), SIGKILL what is left after
    ``grace`` seconds. Returns the pids that had to be stopped."""
    import psutil

    own_group = os.getpgrp()
    alive = []
    for proc in procs:
        try:
            if proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE:
                alive.append(proc)
        except psutil.NoSuchProcess:
            continue
    stopped = [p.pid for p in alive]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for proc in alive:
            try:
                pgid = os.getpgid(proc.pid)
                if pgid != own_group and pgid == proc.pid:  # a group leader: take its children too
                    os.killpg(pgid, sig)
                else:
                    proc.send_signal(sig)
            except (ProcessLookupError, psutil.NoSuchProcess, PermissionError):
                pass
        _, alive = psutil.wait_procs(alive, timeout=grace if sig == signal.SIGTERM else 5.0)
        if not alive:
            break
    return stopped


# --------------------------------------------------------------------------------------------
# launch()
# --------------------------------------------------------------------------------------------

def launch(script, script_args: Sequence = (), *, workers: int = 2, log_dir="runs/msrun",
           port: Optional[int] = None, timeout: float = 120.0, env: Optional[dict] = None,
           device: Optional[str] = None,
           cluster_timeout: Optional[int] = None, poll_interval: float = 0.2,
           verbose: bool = False) -> LaunchResult:
    """Run ``script`` on ``workers`` processes with msrun on 127.0.0.1 and wait for it.

    Parameters
    ----------
    script, script_args: the training script and its arguments (every worker gets the same).
    workers: number of worker processes (ranks).
    log_dir: folder for ``worker_<rank>.log``, ``scheduler.log`` and ``msrun.log``; emptied of old
        logs first.
    port: the scheduler port; ``None`` picks a free one. A busy port fails at once.
    timeout: seconds for the whole job, start-up included; then everything is stopped.
    env: environment for the job (default ``msrun_env(device)``).
    device: what the workers run on (default ``job_device()``: the device ``runtime.setup()`` chose here, else
        CPU); checked first with ``require_devices`` (one card per worker).
    cluster_timeout: msrun's ``--cluster_time_out`` (how long processes wait for each other to
        join); default: the job's timeout.

    Returns a ``LaunchResult``; raises ``LaunchError`` (after stopping every process of the job) on
    a timeout, a crashed worker, a failed scheduler or a busy port.
    """
    script = Path(script)
    if not script.is_file():
        raise FileNotFoundError(tr("Training script {script} does not exist (working directory {cwd}).",
                                   script=script, cwd=os.getcwd()))
    workers = positive_int("workers", workers)
    device = job_device(device)
    require_devices(workers, device)
    if not timeout or timeout <= 0:
        raise ValueError(tr("timeout must be a positive number of seconds, got {value}.", value=repr(timeout)))
    log_dir = Path(log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    for old in [*log_dir.glob("worker_*.log"), log_dir / "scheduler.log", log_dir / MSRUN_LOG]:
        old.unlink(missing_ok=True)

    if port is None:
        port = free_port()
    elif port_in_use(port):
        raise LaunchError(tr(
            "Port {port} on {host} is already in use{owner}, so msrun's scheduler "
            "could not listen there. Nothing was started. Pass another port, or port=None to let the "
            "launcher pick a free one.", port=port, host=LOOPBACK, owner=_port_owner(int(port))), kind="port_in_use")

    if cluster_timeout is None:
        cluster_timeout = max(10, int(timeout))
    cmd = msrun_command(script, script_args, workers=workers, port=port, log_dir=str(log_dir),
                        cluster_timeout=cluster_timeout)
    launch_id = uuid.uuid4().hex
    run_env = dict(msrun_env(device) if env is None else env)
    run_env[LAUNCH_ID_VAR] = launch_id
    if verbose:
        print("$", shlex.join(cmd), flush=True)

    result = LaunchResult(command=cmd, log_dir=log_dir, workers=workers, port=int(port),
                          returncode=None, seconds=0.0, launch_id=launch_id)
    failure: Optional[LaunchError] = None
    roles: dict = {}  # pid -> (MS_ROLE, rank, psutil.Process)
    msrun_log = _Follower(log_dir / MSRUN_LOG)
    start = time.monotonic()
    with open(log_dir / MSRUN_LOG, "w", encoding="utf-8") as out:
        # A session of its own: msrun and the scheduler form one process group we can signal
        # without touching the caller (the Jupyter kernel).
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                env=run_env, start_new_session=True)
        try:
            while True:
                try:
                    result.returncode = proc.wait(timeout=poll_interval)
                    result.exited["msrun"] = time.time()
                    break
                except subprocess.TimeoutExpired:
                    pass
                _track(proc.pid, roles)
                _note_exits(roles, result.exited)
                failure = _early_failure(result, roles, msrun_log)
                if failure is not None:
                    break
                if time.monotonic() - start > timeout:
                    failure = LaunchError(tr(
                        "The job did not finish within timeout={timeout:g} s, so all its processes were "
                        "stopped. Last lines of each log:\n{tails}\n"
                        "Raise the timeout for a longer run. If a log stops at start-up, that worker was still "
                        "starting or waiting for the others to join.", timeout=timeout, tails=_all_tails(result)),
                        kind="timeout", result=result)
                    break
            _note_exits(roles, result.exited)
        finally:
            # Whatever happened (success, failure, timeout, KeyboardInterrupt): nothing survives.
            left = job_processes(launch_id)
            # named before they are stopped: a process that started after the last poll (a rank still starting
            # when another one failed) is named from its own environment
            names = {proc.pid: "msrun"}
            names.update({pid: _role_name(role, rank) for pid, (role, rank, _) in roles.items()})
            names.update({p.pid: _name_of(p) for p in left if p.pid not in names})
            result.stopped = _stop(left)
            result.stopped_as = [names.get(pid, f"pid {pid}") for pid in result.stopped]
            if proc.poll() is None:  # msrun itself, should it have escaped the scan
                proc.kill()
            result.returncode = proc.wait()
            result.seconds = time.monotonic() - start

    if failure is None and result.returncode != 0:
        failure = _diagnose(result, roles)
    if failure is not None:
        failure.result = result
        raise failure
    return result


def _track(msrun_pid: int, roles: dict) -> None:
    """Note each process msrun started: ``roles[pid] = (role, rank, Process)``."""
    import psutil

    try:
        children = psutil.Process(msrun_pid).children()
    except psutil.NoSuchProcess:
        return
    for child in children:
        if child.pid in roles:
            continue
        try:
            if child.name() == "tail":  # msrun's log follower inherits MS_ROLE too
                continue
            environ = child.environ()
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError):
            continue
        role = environ.get("MS_ROLE")
        if role is None:  # between fork and exec, or a tail helper: look again next time
            continue
        rank = environ.get("RANK_ID") if role == "MS_WORKER" else None
        roles[child.pid] = (role, None if rank is None else int(rank), child)


def _role_name(role: str, rank):
    """A job process's name in ``exited`` and ``stopped_as``: a worker's rank, "scheduler", or the role."""
    return rank if role == "MS_WORKER" else "scheduler" if role == "MS_SCHED" else role


def _name_of(proc):
    """The name of a job process the polls never tracked, from its environment: a worker's rank, "scheduler",
    "tail" (msrun's log follower), else "pid <n> (<command>)"."""
    import psutil

    try:
        command = proc.name()
        environ = {} if command == "tail" else proc.environ()
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess, OSError):
        return f"pid {proc.pid}"
    if command == "tail":
        return "tail"
    role, rank = environ.get("MS_ROLE"), environ.get("RANK_ID", "")
    if role == "MS_SCHED" or (role == "MS_WORKER" and rank.isdigit()):
        return _role_name(role, int(rank) if role == "MS_WORKER" else None)
    return f"pid {proc.pid} ({command})"


def _note_exits(roles: dict, exited: dict) -> None:
    """Record the time each tracked process is first seen gone (``LaunchResult.exited``)."""
    for role, rank, child in roles.values():
        key = _role_name(role, rank)
        if key not in exited and _gone(child):
            exited[key] = time.time()


def _gone(proc) -> bool:
    import psutil

    try:
        return not proc.is_running() or proc.status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return True


class _Follower:
    """Reads what a growing log file gained since the last call (msrun's output also copies every
    worker's log, so it is not re-read whole on every poll)."""

    def __init__(self, path: Path, keep: int = 200):
        self.path, self.offset, self.carry, self.keep = path, 0, "", keep

    def new_text(self) -> str:
        try:
            with open(self.path, "rb") as fh:
                fh.seek(self.offset)
                data = fh.read()
        except OSError:
            return self.carry
        self.offset += len(data)
        # a few characters of the previous read, so a line split between two reads still matches
        text = self.carry + data.decode("utf-8", errors="replace")
        self.carry = text[-self.keep:]
        return text


def _early_failure(result: LaunchResult, roles: dict, msrun_log: _Follower) -> Optional[LaunchError]:
    """A failure visible while msrun is still running (msrun itself would wait much longer)."""
    if _WORKER_EXIT.search(msrun_log.new_text()):
        return _diagnose(result, roles)
    for role, _, proc in roles.values():
        if role == "MS_SCHED" and _gone(proc):
            sched = result.log(None)
            if _has_python_error(sched) or any(s in sched for s in _PORT_FAILURE):
                return _diagnose(result, roles)
    return None


def _failing_rank(result: LaunchResult) -> Optional[int]:
    """The first rank whose log shows a Python error (the cause, not the victims)."""
    for rank in range(result.workers):
        if _has_python_error(result.log(rank)):
            return rank
    return None


def error_summary(log_text: str, context_lines: int = 3) -> str:
    """A Python error in a log, condensed: the exception line, where it was raised, and the last
    lines the process printed before it. Without a traceback: the last lines of the log."""
    lines = clean_log(log_text).rstrip().splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")]
    if not starts:
        return "\n".join("  " + line for line in lines[-(context_lines + 5):]) or tr("  (the log is empty)")
    start = starts[-1]
    before = [line for line in lines[:start] if line.strip() and not _MS_LOG_LINE.match(line)]
    before = before[-context_lines:]
    frames, error = [], []
    for line in lines[start + 1:]:
        if line.startswith("  File "):
            frames.append(line.strip())
        elif line.startswith(" ") and not error:
            continue  # the source line of a frame
        elif line.startswith("---") or line.startswith("- C++ Call Stack"):
            break  # MindSpore appends its C++ call stack for framework developers
        elif line.strip():
            error.append(line.strip())
    where = ""
    if frames:  # 'File "/long/path/train_dp.py", line 9, in main' -> 'train_dp.py, line 9, in main'
        m = re.match(r'File "([^"]+)", line (\d+), in (.+)', frames[-1])
        where = ("\n" + tr("  raised in {file}, line {line}, in {function}", file=os.path.basename(m.group(1)),
                            line=m.group(2), function=m.group(3)) if m
                 else "\n" + tr("  raised at {frame}", frame=frames[-1]))
    text = "  " + "\n  ".join(error[:4]) + where
    if before:
        text += "\n" + tr("  last output before it:") + "\n" + "\n".join("    " + line for line in before)
    return text


def _diagnose(result: LaunchResult, roles: dict) -> LaunchError:
    sched = result.log(None)
    if any(s in sched for s in _PORT_FAILURE):
        return LaunchError(tr(
            "msrun's scheduler could not listen on {host}:{port}: the port is in use"
            "{owner}. All processes of the job were stopped. Launch again with "
            "port=None to pick a free port.", host=LOOPBACK, port=result.port, owner=_port_owner(result.port)),
            kind="port_in_use", result=result)
    rank = _failing_rank(result)
    code = _WORKER_EXIT.search(result.msrun_output)
    if rank is None and code:  # died without a traceback, e.g. killed by a signal: name it by its pid
        # (unknown only for a worker that died before the launcher's first look at it)
        rank = roles.get(int(code.group(1)), (None, None, None))[1]
    if rank is not None or code:
        how = tr(" with exit code {code}", code=code.group(2)) if code else ""
        if code and int(code.group(2)) < 0:
            how = tr(", killed by signal {signal}", signal=signal.Signals(-int(code.group(2))).name)
        if rank is None:
            return LaunchError(tr("A worker failed{how}; all processes of the job were stopped. Last lines of "
                                  "each log:\n{tails}", how=how, tails=_all_tails(result)),
                               kind="worker_failed", result=result)
        return LaunchError(tr(
            "Rank {rank} failed{how}; all processes of the job were stopped.\n{summary}\nFull log: {log}",
            rank=rank, how=how, summary=error_summary(result.log(rank, clean=False)), log=result.log_path(rank)),
            kind="worker_failed", rank=rank, result=result)
    if _has_python_error(sched):
        return LaunchError(tr("msrun's scheduler failed; all processes of the job were stopped.\n"
                              "{summary}\nFull log: {log}", summary=error_summary(result.log(None, clean=False)),
                              log=result.log_path(None)),
                           kind="scheduler_failed", result=result)
    return LaunchError(tr("msrun exited with code {code}; all processes of the job were stopped.\n"
                          "{summary}\nFull output: {log}", code=result.returncode,
                          summary=error_summary(result.msrun_output), log=result.log_dir / MSRUN_LOG),
                       kind="launcher_failed", result=result)


def _all_tails(result: LaunchResult, lines: int = 5) -> str:
    parts = []
    for rank in [*range(result.workers), None]:
        name = result.log_path(rank).name
        parts.append(f"--- {name} ---\n{result.tail(rank, lines) or tr('(empty)')}")
    return "\n".join(parts)
