"""Fresh processes for measurements that need one.

Some settings are read only when MindSpore loads (``ONEDNN_MAX_CPU_ISA``,
``MS_DEV_HOST_BLOCKING_RUN``, ``ONEDNN_VERBOSE``, ``MS_DEV_JIT_PIPELINE``): to compare them, each
configuration runs in its own ``python -m course_utils.bench worker NAME`` process whose environment
is exactly this one's *without* those variables, plus what the caller asks for.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
from typing import Mapping, Optional, Tuple

from course_utils import runtime

__all__ = ["LOAD_TIME_VARS", "TRAP_VARS", "WorkerError", "env_without_cpu_fixes", "run_worker", "temp_cwd"]

#: The two variables behind the CPU speed traps (read once, when MindSpore loads).
TRAP_VARS = runtime.CPU_FIX_VARS
#: Every variable a worker must not inherit by accident (``runtime.child_env`` drops them).
LOAD_TIME_VARS = runtime.LOAD_TIME_VARS


def env_without_cpu_fixes(env: Optional[Mapping[str, str]] = None) -> dict:
    """A worker's environment: the course's child-process environment *without* the CPU fixes
    (``runtime.child_env("CPU", cpu_fixes=False)``: no load-time variable inherited by accident, MindSpore kept
    quiet, the worker's ``runtime.setup()`` told not to add the fixes itself); then ``env`` on top (e.g.
    ``runtime.cpu_fix_env()`` to put them back, one at a time).
    """
    return runtime.child_env("CPU", cpu_fixes=False, env=env)


class WorkerError(RuntimeError):
    """A worker process failed; the message carries the end of its error output."""


def run_worker(name: str, params, env: Optional[Mapping[str, str]] = None, timeout: float = 1800,
               cwd_temp: bool = False) -> Tuple[dict, str]:
    """Run experiment ``name``'s ``measure(params)`` in a fresh process with the environment
    ``env_without_cpu_fixes(env)``. Returns (its output ``{"rows", "header"}``, its standard output)."""
    with tempfile.TemporaryDirectory(prefix=f"bench_{name}_") as tmp:
        out = os.path.join(tmp, "result.json")
        cmd = [sys.executable, "-m", "course_utils.bench", "worker", name, "--params", params.as_json(),
               "--out", out]
        cwd = os.path.join(tmp, "cwd") if cwd_temp else None
        if cwd:
            os.mkdir(cwd)
        proc = subprocess.run(cmd, env=env_without_cpu_fixes(env), cwd=cwd, capture_output=True, text=True,
                              timeout=timeout)
        if proc.returncode != 0 or not os.path.exists(out):
            tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-15:])
            raise WorkerError(f"experiment {name!r} failed in its worker process (exit code {proc.returncode}, "
                              f"env {dict(env or {})}):\n{tail}")
        with open(out, encoding="utf-8") as fh:
            return json.load(fh), proc.stdout


@contextlib.contextmanager
def temp_cwd():
    """Run a block in a temporary working directory (for code that writes files into it)."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="bench_cwd_") as tmp:
        os.chdir(tmp)
        try:
            yield tmp
        finally:
            os.chdir(old)
