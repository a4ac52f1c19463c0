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


def run_python(code: str, env: dict | None = None, timeout: int = 300, cwd: Path | None = None):
    """Run ``code`` in a fresh interpreter of this environment; returns the CompletedProcess."""
    full_env = {k: v for k, v in os.environ.items() if k not in ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN",
                                                                "COURSE_CPU_FIXES")}
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=cwd or ROOT)


@pytest.fixture
def python():
    return run_python
