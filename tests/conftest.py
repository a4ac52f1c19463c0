"""Shared test fixtures and the suite's rules.

MindSpore reads its environment once per process, when it is imported, and the test modules import it at
the top. So:

* ``pytest_configure`` sets what ``runtime.setup()`` would set before MindSpore loads (quiet logs, the CPU
  fixes), without importing MindSpore;
* the session fixture ``mindspore_runtime`` runs ``runtime.setup(device="CPU", mode="graph", seed=0)`` once,
  before the first test, only if a test module imported MindSpore: never at collection time;
* every test starts in GRAPH_MODE with seed 0, and the mode is put back afterwards, whatever the test did
  (``_execution_mode``, autouse), so the suite passes in any order (``make test-random``);
* every test starts in English (``_course_language``); ``zh`` switches a test to Chinese and ``lang`` runs it
  in both languages;
* ``ms_mode`` is the one fixture for running a test in a given mode:
  ``@pytest.mark.parametrize("ms_mode", ["graph", "pynative"], indirect=True)``.

Tests that need MindSpore with *other* settings run it in a child process: ``python`` (``run_python``)
runs a program file from ``tests/programs/`` (or a short source string) in a fresh interpreter.

Every test has a time limit (pytest-timeout): ``TIMEOUTS`` by marker, overridable per test with
``@pytest.mark.timeout(seconds)``; a hung MindSpore call fails that test instead of the whole run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
PROGRAMS = Path(__file__).resolve().parent / "programs"

#: Seconds a test may take, by its slowest marker (the machine may be loaded: generous, but minutes, not hours).
TIMEOUTS = {"browser": 1500, "integration": 900, "slow": 900, "notebook cell": 1200, None: 300}
#: The markers of tests that are not fast, in the order their TIMEOUTS take precedence.
SLOW_MARKERS = ("browser", "integration", "slow")

#: Variables of the pytest process that a child must not inherit (it decides them itself via runtime.setup).
_CHILD_DROPS = ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN", "COURSE_CPU_FIXES")


def lessons_in_readme() -> list:
    """The lesson notebooks the README's lesson table lists, in order (``NN_topic.ipynb`` names)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^\| \[(\d\d_\w+)\]\(notebooks/\1\.ipynb\)", text, flags=re.MULTILINE)


#: The lessons, as ``notebooks/NN_*.ipynb`` paths (a test checks this equals the README's table).
LESSONS = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))


# --------------------------------------------------------------------------------------------
# MindSpore: environment, one setup, the execution mode
# --------------------------------------------------------------------------------------------

def pytest_configure(config):
    if "mindspore" in sys.modules:   # imported by a plugin before us: nothing to prepare any more
        return
    from course_utils import runtime   # does not import MindSpore

    for name, value in {**runtime.quiet_env(), **runtime.cpu_fix_env("CPU")}.items():
        os.environ.setdefault(name, value)


#: The lessons whose runs take longest (``--durations`` in CI: 05 ~4 min, 06, 07 and 04 1-2 min each), longest first.
LONGEST_LESSONS = ("05", "06", "07", "04")


def _cost_rank(item) -> tuple:
    """Where a test goes in a parallel run: whole-lesson runs first (the longest first), then the other slow ones."""
    heavy = any(item.get_closest_marker(m) for m in SLOW_MARKERS)
    lesson = re.search(r"\[(\d\d)_", item.nodeid)
    if heavy and lesson and lesson.group(1) in LONGEST_LESSONS:
        return (0, LONGEST_LESSONS.index(lesson.group(1)))
    return (1, 0) if heavy else (2, 0)


def pytest_collection_modifyitems(config, items):
    # On several processes (pytest-xdist; every worker collects and sorts alike), the longest tests start first: a
    # lesson that starts last would leave the other workers idle at the end. In one process, file order stays.
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=_cost_rank)
    for item in items:
        if item.get_closest_marker("timeout") is None:
            marker = next((m for m in SLOW_MARKERS if item.get_closest_marker(m)), None)
            if marker is None and item.path.suffix == ".ipynb":   # one cell of a lesson under nbval
                marker = "notebook cell"
            item.add_marker(pytest.mark.timeout(TIMEOUTS[marker]))


@pytest.fixture(scope="session", autouse=True)
def mindspore_runtime():
    """``runtime.setup`` once for the session, if the collected tests use MindSpore at all."""
    if "mindspore" not in sys.modules:
        yield None
        return
    from course_utils import runtime

    yield runtime.setup(device="CPU", mode="graph", seed=0, verbose=False)


_MODES = {"graph": "GRAPH_MODE", "pynative": "PYNATIVE_MODE"}


def set_ms_mode(mode) -> None:
    """Switch MindSpore to ``mode`` ("graph", "pynative" or a constant); ``_execution_mode`` puts GRAPH_MODE
    back after the test."""
    import mindspore as ms

    ms.set_context(mode=getattr(ms, _MODES[mode]) if isinstance(mode, str) else mode)


@pytest.fixture(autouse=True)
def _execution_mode():
    """Each test starts in GRAPH_MODE with MindSpore's seed 0 and leaves GRAPH_MODE behind."""
    if "mindspore" not in sys.modules:
        yield
        return
    import mindspore as ms

    set_ms_mode("graph")
    ms.set_seed(0)
    yield
    set_ms_mode("graph")


@pytest.fixture
def pynative(_execution_mode):
    """Run a test in PYNATIVE_MODE (no compile per Cell: fast): ``pytestmark = pytest.mark.usefixtures("pynative")``
    runs a whole module so, where what it checks (a message, its language) does not depend on the mode."""
    set_ms_mode("pynative")


#: For exercise-checker tests of wrong answers: PyNative in the fast tier (no compile per Cell), compiled in GRAPH_MODE
#: (as the lessons run) in ``make test-full`` (slow).
PYNATIVE_FAST_GRAPH_SLOW = pytest.mark.parametrize(
    "ms_mode", ["pynative", pytest.param("graph", marks=pytest.mark.slow)], indirect=True)


@pytest.fixture
def ms_mode(request):
    """The test's MindSpore mode: "graph" (default) or "pynative", or a constant such as ms.PYNATIVE_MODE,
    given by indirect parametrisation. Returns the mode constant; restored after the test by
    ``_execution_mode``."""
    import mindspore as ms

    mode = getattr(request, "param", "graph")
    set_ms_mode(mode)
    return ms.get_context("mode")


# --------------------------------------------------------------------------------------------
# Child processes
# --------------------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def _course_language(monkeypatch):
    """Every test starts in English, and a test that switches the language cannot leak it."""
    from course_utils import i18n

    monkeypatch.setattr(i18n, "_current", None)
    # not monkeypatch.delenv: when the variable is absent it records nothing, and set_language() during the test
    # would leave COURSE_LANG=zh behind for every later (module-scoped) fixture
    saved = os.environ.pop(i18n.ENV_VAR, None)
    yield
    os.environ.pop(i18n.ENV_VAR, None)
    if saved is not None:
        os.environ[i18n.ENV_VAR] = saved


@pytest.fixture(params=["en", "zh"])
def lang(request):
    """Run a test in each language: ``def test_x(lang): ...`` (the messages are then in ``lang``)."""
    from course_utils import i18n

    i18n.set_language(request.param)
    return request.param


@pytest.fixture
def zh():
    """Run a test in Chinese (messages, hints, labels)."""
    from course_utils import i18n

    return i18n.set_language("zh")


def run_python(code, env: dict | None = None, timeout: int = 300, cwd: Path | None = None):
    """Run ``code`` in a fresh interpreter of this environment; returns the CompletedProcess.

    ``code`` is a list ``[script, *args]`` (a path relative to the repository, e.g.
    ``tests/programs/x.py``: child programs live in real files, so they are linted like the rest), or,
    for one or two lines, a source string."""
    full_env = {k: v for k, v in os.environ.items() if k not in _CHILD_DROPS}
    full_env.update(env or {})
    argv = ["-c", textwrap.dedent(code)] if isinstance(code, str) else [str(a) for a in code]
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=cwd or ROOT)


@pytest.fixture
def python():
    return run_python
