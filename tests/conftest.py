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

Tests that need MindSpore with *other* settings run it in a child process: ``python`` (``support.run_python``)
runs a program file from ``tests/programs/`` (or a short source string) in a fresh interpreter.

Every test has a time limit (pytest-timeout): ``support.TIMEOUTS`` by marker, overridable per test with
``@pytest.mark.timeout(seconds)``; a hung MindSpore call fails that test instead of the whole run. On several
processes the longest tests start first (``support.cost_rank``).

What test modules share is in ``tests/support/`` and imported from there; nothing is imported from this file.
"""

from __future__ import annotations

import faulthandler
import os
import signal
import sys

import pytest

from support import SLOW_MARKERS, TIMEOUTS, cost_rank, run_python, set_ms_mode

#: Fixtures other test modules share, kept in a module of their own (fake MNIST files, a local HTTP server).
pytest_plugins = ["support.mnist_fakes"]

# --------------------------------------------------------------------------------------------
# MindSpore: environment, one setup, the execution mode
# --------------------------------------------------------------------------------------------

def pytest_configure(config):
    # Kernels the tests start check exercises: their outcomes are not the developer's progress (course_utils.progress).
    os.environ.setdefault("COURSE_PROGRESS", "0")
    # Lessons the tests execute run side by side (-n 2, the browser and hub suites): none pins itself to one CPU, or
    # two would share it (the lab lessons' PIN_CPU = "auto", course_utils.bench.pin_choice).
    os.environ.setdefault("COURSE_PIN_CPU", "0")
    if os.environ.get("PYTEST_XDIST_WORKER") and hasattr(signal, "SIGTERM"):
        # A worker killed by SIGTERM prints where every thread was (a segfault already does: pytest's faulthandler);
        # then it dies as before and its test is re-run once (Makefile XDIST).
        faulthandler.register(signal.SIGTERM, all_threads=True, chain=True)
    if "mindspore" in sys.modules:   # imported by a plugin before us: nothing to prepare any more
        return
    from course_utils import runtime   # does not import MindSpore

    for name, value in {**runtime.quiet_env(), **runtime.cpu_fix_env("CPU")}.items():
        os.environ.setdefault(name, value)


def pytest_collection_modifyitems(config, items):
    # On several processes (pytest-xdist; every worker collects and sorts alike), the longest tests start first: a
    # lesson that starts last would leave the other workers idle at the end. In one process, file order stays.
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=cost_rank)
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


@pytest.fixture
def python():
    return run_python
