"""The instructor's live view in Chromium, on a real classroom server (tests/support/hubserver.py).

Two attendees log in through the hub's login form in their own browser profiles; their servers start and
JupyterLab opens. One solves exercise 00.3 in her kernel, the other fails it. The instructor logs in and opens
/services/classroom/: the grid shows both outcomes and the per-exercise summary, by itself (the page refreshes).
An attendee who opens the page gets 403. Marked ``slow`` (with the other hub tests, in ``make test-full``, where
the hub is installed), not ``browser``: it needs no JupyterLab of the browser suite.
"""

from __future__ import annotations

import shutil
import sys

import pytest

from .settings import CHROMIUM, CHROMIUM_ARGS, ROOT, SCREENSHOTS, VIEWPORT

sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "hub"))

from classroom.client import Attendee  # noqa: E402
from support.hubserver import HubServer, node_missing  # noqa: E402

PASSWORD = "attendee-password-1"
SETUP = 'from course_utils import runtime\ninfo = runtime.setup(device="CPU", mode="pynative", seed=0, lang="en")'
SOLVE = ("from course_utils.exercises import nb00\nfrom mindspore import nn\n"
         "batchnorm_like_torch = lambda c, m: nn.BatchNorm2d(c, momentum=1 - m)\nnb00.q3.check()")
FAIL = ("from course_utils.exercises import nb00\n"
        "def batchnorm_like_torch(channels, momentum):\n    raise ValueError('not yet')\nnb00.q3.check()")


@pytest.fixture(scope="module")
def chromium(request):
    import os

    reason = node_missing() or (None if shutil.which(CHROMIUM) else f"Chromium not found at {CHROMIUM}")
    if reason:
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(f"CI=true and the live-view test cannot run: {reason}", pytrace=False)
        pytest.skip(reason)
    playwright = request.getfixturevalue("playwright_driver")   # conftest: one driver per test process
    browser = playwright.chromium.launch(executable_path=shutil.which(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture
def hub(tmp_path):
    server = HubServer(tmp_path / "hub")
    try:
        yield server.start()
    finally:
        server.stop()


def log_in(browser, hub, name: str, password: str, next_url: str = ""):
    """A new browser profile, logged in through the hub's form; returns (context, page)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(240_000)
    page.goto(f"{hub.base}/hub/login" + (f"?next={next_url}" if next_url else ""))
    page.fill("#username_input", name)
    page.fill("#password_input", password)
    page.click("#login_submit")
    return context, page


def check_in_kernel(hub, context, name: str, code: str) -> str:
    """Run ``code`` in the attendee's kernel, with a token the attendee's browser asks the hub for."""
    xsrf = next(c["value"] for c in context.cookies() if c["name"] == "_xsrf" and c["path"].startswith("/hub"))
    response = context.request.post(f"{hub.base}/hub/api/users/{name}/tokens", headers={"X-XSRFToken": xsrf},
                                    data={"note": "test", "expires_in": 900})
    assert response.status == 201, response.text()
    person = Attendee(hub.base, name, PASSWORD)
    person.token = response.json()["token"]
    person.open_kernel("01_custom_huber_loss.ipynb")
    out = person.run([SETUP, code])
    assert out["errors"] == [], out
    return out["stdout"]


@pytest.mark.slow
def test_the_instructor_sees_each_outcome_live_and_an_attendee_cannot_open_the_view(chromium, hub):
    mia, noah = hub.new_name("mia"), hub.new_name("noah")
    attendees = {}
    for name in (mia, noah):
        context, page = log_in(chromium, hub, name, PASSWORD)
        page.wait_for_url(f"**/user/{name}/lab/**")             # the hub started the server, JupyterLab opened
        attendees[name] = (context, page)
    # the instructor's page is open before anyone checks: it must update by itself
    teacher, view = log_in(chromium, hub, hub.admin, hub.admin_password, next_url="/services/classroom/")
    view.wait_for_url("**/services/classroom/**")
    view.wait_for_selector(f'tr[data-attendee="{mia}"]')
    assert "Correct" in check_in_kernel(hub, attendees[mia][0], mia, SOLVE)
    assert "Incorrect" in check_in_kernel(hub, attendees[noah][0], noah, FAIL)
    view.wait_for_selector(f'tr[data-attendee="{mia}"] td[data-exercise="00.3"][data-outcome="correct"]',
                           timeout=60_000)
    view.wait_for_selector(f'tr[data-attendee="{noah}"] td[data-exercise="00.3"][data-outcome="incorrect"]',
                           timeout=60_000)
    summary = view.inner_text('#summary tr[data-exercise="00.3"]')
    assert "1 correct, 1 incorrect, 0 not attempted" in summary
    assert "00.3" in view.inner_text("#stuck")
    assert hub.admin not in view.inner_text("#grid")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    view.screenshot(path=str(SCREENSHOTS / "hub_live_view.png"), full_page=True)
    # an attendee gets 403, in the browser as through the API
    page = attendees[mia][1]
    response = page.goto(f"{hub.base}/services/classroom/")
    assert response.status == 403
    assert page.goto(f"{hub.base}/services/classroom/api/grid").status == 403
    for context, _ in [*attendees.values(), (teacher, view)]:
        context.close()
