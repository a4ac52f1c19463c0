"""Timing one process alongside a distributed job, in turns (notebook 09 and ``scripts/train_dp.py``).

A speed-up is a ratio of two speeds. On a shared machine the load changes from second to second, so
the two sides are timed in one window, taking turns: the workers time their blocks, then all of them
pause while the process that started the job times its own blocks, and so on. The handshake is two
kinds of file in a folder:

* the workers (``worker_pause``): at each of their pauses all ranks meet at a barrier, rank 0 drops
  ``go_<k>``, and every rank waits, idle, for ``done_<k>``;
* the process that started the job (``time_alongside``): it runs the job in a background thread and,
  on each ``go_<k>``, times one block of each of its configurations, then answers ``done_<k>``.

Turn 0 is the warm-up (the compile is not a step); every later turn times one block per
configuration, in an order that reverses every turn. The workers' own alternation
(``harness.compare`` with the pause as one more configuration) reverses too, so a slow drift in load
is shared out evenly.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional

from .. import runtime
from ..i18n import tr
from .harness import Config, Timing, force
from .report import Conditions, Measuring

__all__ = ["Alongside", "PIN_ENV", "cpu_pinned", "kernel_threads", "pin_choice", "pin_threads", "time_alongside",
           "worker_pause"]

#: ``COURSE_PIN_CPU=0`` turns the lab lessons' automatic pinning off (``pin_choice``): what a harness that executes
#: lessons side by side sets (tests/conftest.py), so that two lessons are not pinned onto one CPU.
PIN_ENV = "COURSE_PIN_CPU"

#: Name prefixes of the threads in which MindSpore's CPU runtime runs the kernels of a step.
KERNEL_THREAD_PREFIXES = ("ActorThread", "KernelThread")


def _threads() -> List[int]:
    try:
        return [int(tid) for tid in os.listdir("/proc/self/task")]
    except OSError:   # no /proc (not Linux)
        return []


def kernel_threads() -> Optional[int]:
    """How many threads of this process are MindSpore's CPU runtime threads (by their names,
    ``ActorThread_*`` and ``KernelThread_*``), or None where /proc cannot tell."""
    names = []
    for tid in _threads():
        try:
            names.append(Path(f"/proc/self/task/{tid}/comm").read_text().strip())
        except OSError:
            continue
    if not names:
        return None
    return sum(name.startswith(KERNEL_THREAD_PREFIXES) for name in names)


def pin_threads(cpus: set) -> Dict[int, set]:
    """Let every thread of this process run only on ``cpus``, and return what each was allowed before
    (``{thread id: cpus}``). Threads and processes started afterwards inherit it from the thread that starts them.
    A no-op returning ``{}`` where threads cannot be pinned (not Linux).

    Why the lab offers it (lesson 07, check 2): on a 2-vCPU machine a compiled step whose threads may use both CPUs
    can jump between speed levels within a round of an alternation; pinned to one CPU it holds steady."""
    if not hasattr(os, "sched_setaffinity"):
        return {}
    if not cpus:
        raise ValueError(f"pin_threads needs a non-empty set of CPUs, got {cpus!r}")
    before = {}
    for tid in _threads():
        with contextlib.suppress(OSError):   # a thread that ended meanwhile
            before[tid] = os.sched_getaffinity(tid)
            os.sched_setaffinity(tid, cpus)
    return before


def pin_choice(pin, device: str, environ: Optional[Mapping[str, str]] = None,
               cpus: Optional[set] = None) -> tuple:
    """Whether a lab lesson pins its kernel (and every process it starts) to one CPU: ``(pin it, why)``, the reason a
    short clause in the course's language. ``pin``: the lesson's ``PIN_CPU``, True, False or ``"auto"``; ``device``:
    the device in use. ``environ`` (default ``os.environ``) and ``cpus`` (default this process's affinity set; None
    where the platform cannot pin threads, i.e. not Linux) are parameters for the tests.

    ``"auto"`` pins only where it helps and harms nobody: the CPU device, Linux, more than one CPU allowed, not under
    the classroom JupyterHub (its single-user servers have ``JUPYTERHUB_API_TOKEN``: every kernel pinned the same way
    would share one CPU) and not with ``COURSE_PIN_CPU=0`` (a harness running lessons side by side). True pins wherever
    it can; False never does. Why the lab pins at all: lesson 07, check 2's optional section."""
    environ = os.environ if environ is None else environ
    if cpus is None and hasattr(os, "sched_getaffinity"):
        cpus = os.sched_getaffinity(0)
    if isinstance(pin, str) and pin.strip().lower() in ("true", "false"):   # as a command line may pass it
        pin = pin.strip().lower() == "true"
    if pin not in (True, False, "auto"):
        raise ValueError(f"PIN_CPU must be True, False or \"auto\", got {pin!r}")
    if pin is False:
        return False, tr("not pinned (PIN_CPU = False)")
    if device != "CPU":
        return False, tr("not pinned: the device is {device}, not the CPU", device=device)
    if cpus is None:
        return False, tr("not pinned: this system cannot pin threads (Linux only)")
    if len(cpus) < 2:
        return False, tr("not pinned: this process may use one CPU only already")
    if pin is True:
        return True, tr("pinned to CPU {cpu} of {n} (PIN_CPU = True)", cpu=min(cpus), n=len(cpus))
    if environ.get(PIN_ENV) == "0":
        return False, tr("not pinned: {env}=0 (lessons executed side by side)", env=PIN_ENV)
    if environ.get("JUPYTERHUB_API_TOKEN"):
        return False, tr("not pinned: a shared JupyterHub server, where every pinned kernel would share one CPU")
    return True, tr("pinned to CPU {cpu} of {n} (PIN_CPU = \"auto\": CPU device, Linux, not a shared server)",
                    cpu=min(cpus), n=len(cpus))


@contextlib.contextmanager
def cpu_pinned(cpus: Optional[set]) -> Iterator[None]:
    """Inside the block, every thread of this process may run only on ``cpus`` (None: no change).

    Affinity is per thread on Linux, so each thread is pinned (``pin_threads``), and put back afterwards."""
    if not cpus:
        yield
        return
    before = pin_threads(cpus)
    try:
        yield
    finally:
        for tid, allowed in before.items():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(tid, allowed)


def worker_pause(turns: Path, rank: int, barrier: Callable[[], Any], poll: float = 0.005) -> Config:
    """The workers' side: a configuration for ``harness.compare`` that times nothing. Before it
    "runs", all ranks meet at ``barrier``, rank 0 hands over (``go_<k>``), and every rank waits,
    idle, until the other side answers (``done_<k>``). Drop its timing afterwards."""
    turns = Path(turns)
    count = iter(range(1_000_000))

    def pause():
        barrier()
        k = next(count)
        if rank == 0:
            (turns / f"go_{k}").touch()
        while not (turns / f"done_{k}").exists():
            time.sleep(poll)

    return Config(step=lambda: None, before=pause)


@dataclasses.dataclass
class Alongside:
    """What ``time_alongside`` measured: the job's return value, one ``Timing`` per configuration
    (median over the turns), the machine's conditions during the turns (the workers idle then, so
    "other processes" are processes outside the job), and this process's kernel threads."""

    job: Any
    timings: Dict[str, Timing]
    conditions: Conditions
    threads: Optional[int]
    turns: int


def time_alongside(start_job: Callable[[], Any], configs: Mapping[str, Config], *, turns: Path, steps: int,
                   cpus: Optional[Mapping[str, set]] = None, poll: float = 0.005) -> Alongside:
    """Run ``start_job()`` (a distributed job whose workers pause with ``worker_pause(turns, ...)``)
    in a background thread and time ``configs`` in this process during the workers' pauses: one
    block of ``steps`` steps per configuration per turn (turn 0 warms up). ``cpus`` pins a
    configuration's blocks to some CPUs (``{"name": {0}}``: one core). Raises what ``start_job``
    raises, e.g. the job's ``LaunchError``."""
    turns = Path(turns)
    turns.mkdir(parents=True, exist_ok=True)
    for old in turns.iterdir():
        old.unlink()
    cpus = dict(cpus or {})
    blocks: Dict[str, List[float]] = {name: [] for name in configs}
    conditions: List[Conditions] = []

    def take_turn(k: int) -> None:
        names = list(configs) if k % 2 else list(configs)[::-1]   # the order reverses every turn
        with Measuring() as measured:
            for name in names:
                config = configs[name]
                if config.before:
                    config.before()
                with cpu_pinned(cpus.get(name)):
                    if k == 0:
                        force(config.step())
                        force(config.step())
                        continue
                    start = time.perf_counter()
                    for _ in range(steps):
                        force(config.step())
                    blocks[name].append(time.perf_counter() - start)
        if k:
            conditions.append(measured.conditions)

    with ThreadPoolExecutor(1) as pool:
        job = pool.submit(start_job)
        k = 0
        while not job.done():
            if (turns / f"go_{k}").exists():
                take_turn(k)
                (turns / f"done_{k}").touch()
                k += 1
            time.sleep(poll)
        result = job.result()
    if not conditions:
        raise RuntimeError(f"the job never paused for a timed turn (see {turns}): did its workers use worker_pause?")
    seconds = sum(c.seconds for c in conditions)
    others = None
    if all(c.others_cores is not None for c in conditions):
        others = sum(c.others_cores * c.seconds for c in conditions) / seconds
    total = Conditions(runtime.cpu_count(), conditions[0].load_before, conditions[-1].load_after, seconds, others)
    timings = {name: Timing(name, 0.0, [], blocks[name], steps, configs[name].batch_size) for name in configs}
    return Alongside(result, timings, total, kernel_threads(), len(conditions))
