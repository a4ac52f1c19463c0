"""The classroom server for real (`make hub`, hub/jupyterhub_config.py, hub/classroom/), on loopback only.

One hub per test process (``HubServer``): as root, as in CI, with the isolating ``local`` spawner, each attendee a
system account made at their first login; otherwise the ``simple`` spawner. Each test uses its own attendees.
What is proved here:

* two attendees run every code cell of notebook 00 at the same time, each in their own copy;
* logins: a claimed name refuses another password; the instructor's name needs the instructor's password, also
  before anyone used it; names like ``..`` or ``daemon`` never log in;
* an attendee gets 403 on the hub's user list and on another attendee's server, with cookies and with tokens;
* (root) each server runs as its own user, who cannot read the other's home nor the hub's state;
* every exercise check reaches the instructor's live view through the hub, and only the instructor can read it;
* the update link brings a fix to unedited lessons, adds a new lesson and keeps an edited one;
* the idle culler stops unused servers.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest

requests = pytest.importorskip("requests")

from support.hubserver import HubServer, node_missing, readable_lessons, skip_or_fail  # noqa: E402

NOTEBOOK = "00_environment_setup.ipynb"
PASSWORD = "attendee-password-1"
#: The culler's timeout in its test (30 s: checks every 10 s, the config's floor).
IDLE_TIMEOUT = 30
SETUP = 'from course_utils import runtime\ninfo = runtime.setup(device="CPU", mode="pynative", seed=0, lang="en")'
SOLVE_00_3 = ("from course_utils.exercises import nb00\nfrom mindspore import nn\n"
             "batchnorm_like_torch = lambda c, m: nn.BatchNorm2d(c, momentum=1 - m)\nr = nb00.q3.check()")
#: Run in one attendee's kernel: who am I, and can I read the other's home, their notebook, the hub's state?
PROBE = """
import json, os

def attempt(read):
    try:
        read()
        return "READ"
    except PermissionError:
        return "denied"

print(json.dumps({"uid": os.getuid(), "home": attempt(lambda: os.listdir(OTHER_HOME)),
                  "notebook": attempt(lambda: open(OTHER_NOTEBOOK).read()),
                  "secret": attempt(lambda: open(SECRET).read()), "state": attempt(lambda: os.listdir(STATE))}))
"""
FAIL_00_3 = ("from course_utils.exercises import nb00\n"
             "def batchnorm_like_torch(channels, momentum):\n    raise ValueError('not yet')\n"
             "r = nb00.q3.check()")


def _client():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "hub"))
    from classroom import client

    return client


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    reason = node_missing()
    if reason:
        skip_or_fail(reason)
    lessons = readable_lessons()
    server = HubServer(tmp_path_factory.mktemp("hub"), lessons=lessons)
    try:
        yield server.start()
    finally:
        server.stop()
        shutil.rmtree(lessons.parent, ignore_errors=True)


def attendee(hub, stem: str, password: str = PASSWORD):
    return _client().Attendee(hub.base, hub.new_name(stem), password)


def ready(hub, stem: str, password: str = PASSWORD):
    """An attendee logged in, with a running server and a kernel on notebook 00 that ran the runtime setup."""
    person = attendee(hub, stem, password).log_in()
    person.start_server()
    person.open_kernel(NOTEBOOK)
    assert person.run([SETUP])["errors"] == []
    return person


def instructor_token(hub) -> str:
    client = _client()
    session, response = client.login(hub.base, hub.admin, hub.admin_password)
    assert response.status_code == 302, hub.log()[-2000:]
    response = session.post(f"{hub.base}/hub/api/users/{hub.admin}/tokens", json={"note": "view", "expires_in": 600},
                            headers={"X-XSRFToken": client.xsrf(session)}, timeout=30)
    assert response.status_code == 201, response.text
    return response.json()["token"]


@pytest.mark.slow
def test_two_attendees_run_notebook_00_concurrently_in_their_own_copies(hub):
    started = time.monotonic()
    people = [attendee(hub, "alice"), attendee(hub, "bob")]
    barrier, results, failures = threading.Barrier(2), {}, {}

    def run(person):
        try:
            person.log_in()
            person.start_server()
            cells = person.notebook_cells(NOTEBOOK)
            requests.put(f"{person.server}/api/contents/{person.name}_was_here.txt", headers=person.auth, timeout=30,
                         json={"type": "file", "format": "text", "content": person.name}).raise_for_status()
            person.open_kernel(NOTEBOOK)
            barrier.wait(timeout=600)                 # both kernels are up: run the lesson at the same time
            start = time.monotonic()
            outcome = person.run(cells)
            results[person.name] = {"errors": outcome["errors"], "cells": len(cells), "start": start,
                                    "end": time.monotonic()}
        except BaseException as err:   # (reported below with the hub's log)
            failures[person.name] = repr(err)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(p,)) for p in people]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=1800)
    assert not failures, f"{failures}\n{hub.log()[-4000:]}"
    a, b = (results[p.name] for p in people)
    for person in people:
        assert results[person.name]["errors"] == [], (person.name, results[person.name]["errors"])
        assert results[person.name]["cells"] > 5
    assert a["start"] < b["end"] and b["start"] < a["end"]       # they really ran at the same time
    for person, other in (people, people[::-1]):
        copy = hub.home(person.name) / "notebooks"
        assert (copy / NOTEBOOK).is_file() and (copy / f"{person.name}_was_here.txt").is_file()
        assert not (copy / f"{other.name}_was_here.txt").exists()
    print(f"\nhub ({hub.spawner} spawner): two attendees ran notebook 00 concurrently in "
          f"{time.monotonic() - started:.0f} s (notebook: {a['end'] - a['start']:.0f} s and "
          f"{b['end'] - b['start']:.0f} s)")


@pytest.mark.slow
def test_a_claimed_name_refuses_another_password(hub):
    client = _client()
    name = hub.new_name("carol")
    _, first = client.login(hub.base, name, "carols-own-password")
    assert first.status_code == 302
    _, other = client.login(hub.base, name, "someone-elses-password")
    assert other.status_code != 302
    _, again = client.login(hub.base, name, "carols-own-password")
    assert again.status_code == 302
    _, short = client.login(hub.base, hub.new_name("dave"), "short")        # a claim needs 8+ characters
    assert short.status_code != 302


@pytest.mark.slow
def test_the_instructors_name_needs_the_instructors_password_even_before_first_use(hub):
    client = _client()
    for guess in ("a-password-an-attendee-chose", hub.admin_password[:-1], ""):
        _, response = client.login(hub.base, hub.admin, guess)
        assert response.status_code != 302, guess
    _, response = client.login(hub.base, hub.admin, hub.admin_password)
    assert response.status_code == 302
    passwords = hub.state / "passwords.dbm"
    if any(passwords.parent.glob("passwords.dbm*")):
        import dbm
        with dbm.open(str(passwords), "r") as db:
            assert hub.admin.encode() not in db.keys()      # nothing was claimed for it


@pytest.mark.slow
@pytest.mark.parametrize("name", ["..", "daemon", "root", "bin", "eve!", "a/b", "x" * 40])
def test_names_that_are_paths_or_system_accounts_never_log_in(hub, name):
    _, response = _client().login(hub.base, name, "a-long-enough-password")
    assert response.status_code != 302


@pytest.mark.slow
def test_an_attendee_gets_403_on_the_user_list_and_on_another_attendees_server(hub):
    erin, frank = ready(hub, "erin"), attendee(hub, "frank").log_in()
    frank.start_server()
    for url in (f"{hub.base}/hub/api/users", f"{hub.base}/hub/api/users/{frank.name}",
                f"{hub.base}/user/{frank.name}/api/contents/", f"{hub.base}/user/{frank.name}/api/contents/{NOTEBOOK}",
                f"{hub.base}/hub/api/users/{frank.name}/tokens"):
        response = requests.get(url, headers=erin.auth, timeout=30)         # with her token
        assert response.status_code in (403, 404), (url, response.status_code, response.text[:300])
        assert '"cells"' not in response.text
    assert requests.get(f"{hub.base}/hub/api/users", headers=erin.auth, timeout=30).status_code == 403
    for url in (f"{hub.base}/user/{frank.name}/api/contents/{NOTEBOOK}", f"{hub.base}/user/{frank.name}/lab",
                f"{hub.base}/hub/api/users"):
        response = erin.session.get(url, timeout=30)                        # with her browser's cookies
        assert response.status_code == 403, (url, response.status_code, response.url)
        assert '"cells"' not in response.text
    # the admin API is closed to her too
    response = requests.post(f"{hub.base}/hub/api/users/{frank.name}/tokens", headers=erin.auth, timeout=30, json={})
    assert response.status_code in (403, 404)


@pytest.mark.slow
def test_each_server_runs_as_its_own_user_who_cannot_read_the_other_nor_the_hub(hub):
    if not hub.root:
        pytest.skip("one system user per attendee needs the hub started as root (CI does)")
    import pwd

    gina, hank = ready(hub, "gina"), ready(hub, "hank")
    for person, other in ((gina, hank), (hank, gina)):
        places = {"OTHER_HOME": str(hub.home(other.name)), "STATE": str(hub.state),
                  "OTHER_NOTEBOOK": str(hub.home(other.name) / "notebooks" / NOTEBOOK),
                  "SECRET": str(hub.state / "jupyterhub_cookie_secret")}
        code = "".join(f"{k} = {v!r}\n" for k, v in places.items()) + PROBE
        out = person.run([code])
        assert out["errors"] == [], out
        facts = json.loads(out["stdout"].strip().splitlines()[-1])
        assert facts["uid"] == pwd.getpwnam(person.name).pw_uid != 0
        assert {k: facts[k] for k in ("home", "notebook", "secret", "state")} == dict.fromkeys(
            ("home", "notebook", "secret", "state"), "denied"), facts
        assert os.stat(hub.home(person.name)).st_mode & 0o077 == 0


@pytest.mark.slow
def test_every_check_reaches_the_live_view_and_only_the_instructor_reads_it(hub):
    ivy, jack = ready(hub, "ivy"), ready(hub, "jack")
    assert ivy.run([SOLVE_00_3, "print(r.outcome.name)"])["stdout"].strip().endswith("CORRECT")
    assert jack.run([FAIL_00_3, "print(r.outcome.name)"])["stdout"].strip().endswith("INCORRECT")
    view = f"{hub.base}/services/classroom/api/grid"
    token = instructor_token(hub)
    deadline, grid = time.monotonic() + 60, {}
    while time.monotonic() < deadline:
        grid = requests.get(view, headers={"Authorization": f"token {token}"}, timeout=30).json()
        people = {a["name"]: a for a in grid["attendees"]}
        if all(n in people and "00.3" in people[n]["outcomes"] for n in (ivy.name, jack.name)):
            break
        time.sleep(1)
    people = {a["name"]: a for a in grid["attendees"]}
    assert people[ivy.name]["outcomes"]["00.3"]["outcome"] == "correct", grid
    assert people[jack.name]["outcomes"]["00.3"]["outcome"] == "incorrect", grid
    assert hub.admin not in people and people[ivy.name]["last_activity"]
    summary = grid["summary"]["00.3"]
    assert summary["correct"] >= 1 and summary["incorrect"] >= 1
    assert sum(summary.values()) == len(grid["attendees"])
    assert "batchnorm_like_torch" not in json.dumps(grid) and "not yet" not in json.dumps(grid)  # never code, messages
    # the attendee's own record, in their home
    record = ivy.run(["from course_utils import progress\nprint(open(progress.record_file()).read())"])["stdout"]
    assert '"exercise":"00.3"' in record and '"outcome":"correct"' in record
    # attendees: 403 on the view, with their token and with their cookies; a post only ever files under the poster
    for response in (requests.get(view, headers=ivy.auth, timeout=30), ivy.session.get(view, timeout=30),
                     ivy.session.get(f"{hub.base}/services/classroom/", timeout=30)):
        assert response.status_code == 403, (response.status_code, response.url)
    forged = {"records": [{"v": 1, "exercise": "01.2", "module": "course_utils.exercises.nb01",
                           "outcome": "correct", "time": "2026-12-01T10:00:00+00:00", "user": jack.name}]}
    posted = requests.post(f"{hub.base}/services/classroom/api/records", headers=ivy.auth, json=forged, timeout=30)
    assert posted.status_code == 200 and posted.json()["accepted"] == 1
    grid = requests.get(view, headers={"Authorization": f"token {token}"}, timeout=30).json()
    people = {a["name"]: a for a in grid["attendees"]}
    assert "01.2" in people[ivy.name]["outcomes"] and "01.2" not in people[jack.name]["outcomes"]
    assert requests.post(f"{hub.base}/services/classroom/api/records", json=forged, timeout=30).status_code == 403
    assert ivy.session.post(f"{hub.base}/services/classroom/api/records", json=forged,
                            timeout=30).status_code == 403          # cookies never post
    bad = requests.post(f"{hub.base}/services/classroom/api/records", headers=ivy.auth, timeout=30,
                        json={"records": [{"exercise": "<script>", "outcome": "correct", "time": "x"}]})
    assert bad.json() == {"accepted": 0, "refused": 1}


@pytest.mark.slow
def test_the_update_link_brings_fixes_and_new_lessons_and_keeps_edits(hub):
    kate = attendee(hub, "kate").log_in()
    kate.start_server()
    lessons = Path(hub.env["HUB_LESSONS"])
    edited, fixed, new = "01_custom_huber_loss.ipynb", "02_functional_training_step.ipynb", "99_added_lesson.ipynb"
    mine = requests.get(f"{kate.server}/api/contents/{edited}", headers=kate.auth, timeout=30).json()
    mine["content"]["cells"][0]["source"] = "# Kate's notes"
    requests.put(f"{kate.server}/api/contents/{edited}", headers=kate.auth, timeout=30,
                 json={"type": "notebook", "format": "json", "content": mine["content"]}).raise_for_status()
    # the instructor pushes a fix to both lessons and adds one (the lessons of this hub are a copy)
    for name in (edited, fixed):
        notebook = json.loads((lessons / name).read_text())
        notebook["cells"][0]["source"] = "# fixed by the instructor"
        (lessons / name).write_text(json.dumps(notebook))
    shutil.copy(lessons / NOTEBOOK, lessons / new)
    os.chmod(lessons / new, 0o644)
    page = kate.session.get(f"{hub.base}/hub/user-redirect/course/update", timeout=60,
                            headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    assert page.status_code == 200 and "课程更新" in page.text, page.text[:500]
    assert edited in page.text and fixed in page.text and new in page.text
    read = lambda name: requests.get(f"{kate.server}/api/contents/{name}", headers=kate.auth, timeout=30).json()
    assert read(edited)["content"]["cells"][0]["source"] == "# Kate's notes"                 # kept
    assert read("01_custom_huber_loss.updated.ipynb")["content"]["cells"][0]["source"] == "# fixed by the instructor"
    assert read(fixed)["content"]["cells"][0]["source"] == "# fixed by the instructor"        # updated
    assert read(new)["type"] == "notebook"                                                     # appeared
    # and it is private to her
    assert os.stat(hub.home(kate.name) / "notebooks" / new).st_mode & 0o077 == 0


@pytest.mark.slow
def test_idle_culler_stops_unused_servers(tmp_path):
    reason = node_missing()
    if reason:
        skip_or_fail(reason)
    server = HubServer(tmp_path / "culling", idle_timeout=IDLE_TIMEOUT)
    try:
        server.start()
        person = _client().Attendee(server.base, server.new_name("liam"), PASSWORD).log_in()
        person.start_server()
        deadline = time.monotonic() + IDLE_TIMEOUT * 4
        while time.monotonic() < deadline:
            time.sleep(5)
            if not requests.get(f"{server.base}/hub/api/users/{person.name}", headers=person.auth,
                                timeout=30).json()["servers"]:
                break
        else:
            pytest.fail(f"still running after {IDLE_TIMEOUT * 4} s\n{server.log()[-3000:]}")
        assert "idle-culler" in server.log()
    finally:
        server.stop()
