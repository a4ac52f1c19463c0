"""Fixtures of the browser tests: one JupyterLab server and one Chromium for the whole session.

* ``course_copy``: the course copied to a temporary folder (notebooks copied, the rest linked), the lessons
  of ``QUICK_PARAMETERS`` given their quick parameters, the Chinese lessons of ``ZH_NOTEBOOK_FILES`` replaced by
  their instructor edition (every exercise solved, ``course_utils.solutions``); the copied notebooks are hashed
  before and compared after the session.
* ``lab``: JupyterLab from this environment serving the copy (see ``labserver.py``), stopped by PID
  at the end of the session, also after failures; leftover processes fail the session.
* ``browser``: Debian's Chromium driven by Playwright, with a fresh profile.
* ``lab_page``: a new tab per test; afterwards the tab is closed without saving and every kernel is
  shut down, so notebooks run one at a time.

Settings: see ``settings.py``.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from course_utils import lessons, solutions
from course_utils.execute import with_parameters

from .labserver import CHINESE_UI, LabServer, make_course_copy
from .settings import CHROMIUM, CHROMIUM_ARGS, QUICK_PARAMETERS, ROOT, VIEWPORT, ZH_NOTEBOOK_FILES


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def _chromium_missing_reason() -> str | None:
    path = shutil.which(CHROMIUM)
    if path is None:
        return (f"Chromium not found at {CHROMIUM}: the browser tests need Debian's chromium "
                f"(apt-get install chromium; .ci/run does this) or COURSE_CHROMIUM=/path/to/chromium")
    try:
        importlib.import_module("playwright.sync_api")
    except ImportError as err:
        return f"Playwright is not importable ({err}): run make setup"
    return None


def _unavailable(reason: str):
    """In CI a missing browser is a failure (the suite must not pass without running); locally a skip."""
    if _in_ci():
        pytest.fail(f"CI=true and the browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(reason)


def _hashes(folder: Path) -> dict:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*.ipynb")) if ".ipynb_checkpoints" not in p.parts}


@pytest.fixture(scope="session")
def course_copy(tmp_path_factory):
    """The notebooks folder of a private copy of the course (the server never sees the repository's).

    At the end the copied lesson notebooks must be byte for byte what was copied: JupyterLab saved
    nothing (autosave is off and tabs are closed without saving).
    """
    notebooks = make_course_copy(ROOT, tmp_path_factory.mktemp("course") / "course")
    for number, params in QUICK_PARAMETERS.items():
        path = lessons.get(number).path("en", notebooks.parent)
        nbformat.write(with_parameters(nbformat.read(path, as_version=4), params), path)
    for path in ZH_NOTEBOOK_FILES:   # served as the instructor edition: the one execution of these zh lessons in CI
        served = notebooks / "zh" / path.name
        _, filled = solutions.build_notebook(served, served.parent, QUICK_PARAMETERS.get(path.name[:2], {}), "zh")
        for learner, reference in filled.files.items():
            shutil.copy2(served.parent / reference, served.parent / learner)
    copied = _hashes(notebooks)
    yield notebooks
    now = _hashes(notebooks)
    changed = sorted(name for name, digest in copied.items() if now.get(name) != digest)
    assert not changed, f"JupyterLab saved notebooks during the browser tests: {changed}"


@pytest.fixture(scope="session")
def playwright_driver():
    """The one Playwright driver of this test process. Playwright's sync API runs an event loop while it is started,
    so a second ``sync_playwright().start()`` in the same process fails ("using Playwright Sync API inside the
    asyncio loop"): every browser fixture launches its Chromium from this driver (under pytest-xdist, which tests
    share a process depends on the scheduling)."""
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    yield playwright
    playwright.stop()


@pytest.fixture(scope="session")
def browser(tmp_path_factory, request):
    reason = _chromium_missing_reason()
    if reason:
        _unavailable(reason)
    from playwright.sync_api import Error as PlaywrightError

    playwright = request.getfixturevalue("playwright_driver")   # started only once Chromium is known to exist
    try:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=shutil.which(CHROMIUM),
            headless=True, args=CHROMIUM_ARGS, viewport=VIEWPORT)
    except PlaywrightError as err:
        _unavailable(f"Chromium at {CHROMIUM} did not start under Playwright: {str(err).splitlines()[0]}")
    yield context
    context.close()


def _serving(server: LabServer):
    """Start ``server``, yield it, stop it (server and kernels, by PID) and check nothing survived."""
    server.start()
    try:
        yield server
    finally:
        survivors = server.stop()
    assert not survivors, f"processes left running after stopping JupyterLab: {survivors}"


def _tab(browser, server: LabServer):
    """A fresh tab; closed afterwards without saving, and every kernel shut down (checked by PID)."""
    page = browser.new_page()
    page.set_default_timeout(60_000)
    try:
        yield page
    finally:
        page.close(run_before_unload=False)
        alive = server.shutdown_all_kernels()
        assert not alive, f"kernels still running after shutdown: PIDs {alive}"


@pytest.fixture(scope="session")
def lab(browser, course_copy, tmp_path_factory):
    """JupyterLab serving the course copy."""
    yield from _serving(LabServer(course_copy, tmp_path_factory.mktemp("jupyterlab"), python=sys.executable))


@pytest.fixture(scope="session")
def lab_zh(browser, course_copy, tmp_path_factory):
    """A second JupyterLab on the same copy, its UI in Chinese, for the Chinese edition (notebooks/zh/)."""
    yield from _serving(LabServer(course_copy, tmp_path_factory.mktemp("jupyterlab-zh"), python=sys.executable,
                                  settings=CHINESE_UI))


@pytest.fixture
def lab_page(browser, lab):
    yield from _tab(browser, lab)


@pytest.fixture
def lab_zh_page(browser, lab_zh):
    yield from _tab(browser, lab_zh)
