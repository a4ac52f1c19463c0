"""The options ``make test`` gives pytest-xdist re-run a test whose worker process died, once, and never a test
whose assert failed (Makefile ``XDIST``; CONTRIBUTING.md).

The options are read from the Makefile (``make -n``), then used on a small test file in a child pytest: one test
kills its worker the first time it runs, one kills it every time, one fails an assert.
"""

import os
import shlex
import subprocess
import sys

from support import ROOT

TESTS = '''
import os, pathlib, signal

def test_passes():
    pass

def test_dies_once(tmp_path_factory):
    flag = pathlib.Path(os.environ["CRASH_FLAG"])
    if not flag.exists():
        flag.write_text("died once")
        os.kill(os.getpid(), signal.SIGKILL)

def test_dies_every_time():
    os.kill(os.getpid(), signal.SIGKILL)

def test_fails_an_assert():
    assert 1 == 2
'''


def _xdist_options() -> list[str]:
    """The pytest options ``make test-unit`` passes for two processes, as ``make -n`` prints them."""
    dry = subprocess.run(["make", "-n", "--no-print-directory", "-f", str(ROOT / "Makefile"), "test-unit",
                          "JOBS=2", "ARGS=", "STAMP=/dev/null", "DATA_STAMP=/dev/null"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    line = next(line for line in dry.splitlines() if " -m pytest " in line)
    words = shlex.split(line)
    return words[words.index("-n"):]


def test_a_dead_worker_reruns_its_test_once_and_a_failed_assert_never(tmp_path):
    options = _xdist_options()
    assert "--reruns" in options and "--only-rerun" in options, options
    (tmp_path / "test_crashes.py").write_text(TESTS)
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly",
                             "-q", "test_crashes.py", *options],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            env={**os.environ, "CRASH_FLAG": str(tmp_path / "flag")})
    out = result.stdout
    assert "RERUN test_crashes.py::test_dies_once" in out and "PASSED test_crashes.py::test_dies_once" in out, out
    assert "RERUN test_crashes.py::test_dies_every_time" in out and "FAILED test_crashes.py::test_dies_every_time" \
        in out, out
    assert "RERUN test_crashes.py::test_fails_an_assert" not in out, out
    assert "2 failed, 2 passed, 2 rerun" in out, out
