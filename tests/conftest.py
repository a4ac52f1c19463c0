"""Shared test fixtures. Tests that import MindSpore with particular settings run it in a subprocess,
because MindSpore reads its environment once per process."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"


def run_python(code, env: dict | None = None, timeout: int = 300, cwd: Path | None = None):
    """Run ``code`` in a fresh interpreter of this environment; returns the CompletedProcess.

    ``code`` is a program's source, or a list ``[script, *args]`` (a path relative to the repository, e.g.
    ``tests/programs/x.py``): child programs live in real files, so they are linted like the rest."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN",
                                                                "COURSE_CPU_FIXES")}
    full_env.update(env or {})
    argv = ["-c", textwrap.dedent(code)] if isinstance(code, str) else [str(a) for a in code]
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=cwd or ROOT)


@pytest.fixture
def python():
    return run_python
