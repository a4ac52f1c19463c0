"""``make setup`` recovers from a venv whose creation was interrupted (``bin/python`` there, no pip).

Run on a copy of the Makefile with a stand-in for the base Python (``PYTHON=``): a small shell script that answers
the version check and, for ``-m venv [--clear] DIR``, writes a venv Python that logs what it is asked to do. So the
test shows which commands ``make setup`` runs, in a second, without installing anything.
"""

import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from support import ROOT

#: A venv's Python that can run pip: it logs every command and succeeds.
GOOD_VENV_PYTHON = """#!/bin/sh
echo "venv-python $*" >> "$LOG"
exit 0
"""
#: What an interrupted ``python -m venv`` leaves: a Python without pip.
BROKEN_VENV_PYTHON = """#!/bin/sh
echo "broken-python $*" >> "$LOG"
case "$*" in *"-m pip"*) echo "No module named pip" >&2; exit 1;; esac
exit 0
"""
BASE_PYTHON = """#!/bin/sh
echo "base-python $*" >> "$LOG"
if [ "$1" = "-c" ]; then exit 0; fi        # the Python version check
if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
  shift 2
  if [ "$1" = "--clear" ]; then shift; rm -rf "$1"; fi
  mkdir -p "$1/bin"
  cp "$GOOD_VENV_PYTHON" "$1/bin/python"
  exit 0
fi
exit 1
"""


def _executable(path: Path, text: str) -> Path:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


@pytest.fixture
def course(tmp_path):
    """A folder with the course's Makefile and the files its setup target depends on, and the stand-ins."""
    for name in ("Makefile", "requirements.txt", "pyproject.toml"):
        shutil.copy2(ROOT / name, tmp_path / name)
    tools = tmp_path / "tools"
    tools.mkdir()
    _executable(tools / "good-venv-python", GOOD_VENV_PYTHON)
    _executable(tools / "python3", BASE_PYTHON)
    return tmp_path


def _make_setup(course: Path):
    log = course / "log.txt"
    env = {"PATH": "/usr/bin:/bin", "LOG": str(log), "GOOD_VENV_PYTHON": str(course / "tools" / "good-venv-python")}
    done = subprocess.run(["make", "setup", f"PYTHON={course / 'tools' / 'python3'}"], cwd=course, env=env,
                          capture_output=True, text=True, timeout=60)
    return done, log.read_text().splitlines() if log.exists() else []


def _setup_over(course: Path, venv_python: str):
    """``make setup`` in ``course`` whose ``.venv/bin/python`` is ``venv_python``; it must succeed."""
    (course / ".venv" / "bin").mkdir(parents=True)
    _executable(course / ".venv" / "bin" / "python", venv_python)
    done, log = _make_setup(course)
    assert done.returncode == 0, done.stdout + done.stderr
    return done, log


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_setup_rebuilds_a_venv_left_without_pip(course):
    done, log = _setup_over(course, BROKEN_VENV_PYTHON)
    assert ".venv is incomplete (its Python cannot run pip" in done.stdout
    assert any(line.startswith("base-python -m venv --clear .venv") for line in log), log
    installs = [line for line in log if line.startswith("venv-python -m pip install")]
    assert len(installs) == 3 and (course / ".venv" / ".course-installed").exists()
    # and the next run finds the venv complete: nothing is rebuilt, nothing reinstalled
    (course / "log.txt").unlink()
    done, log = _make_setup(course)
    assert done.returncode == 0 and log == [], log


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_setup_keeps_a_complete_venv(course):
    _, log = _setup_over(course, GOOD_VENV_PYTHON)
    assert not any("-m venv" in line for line in log), log
