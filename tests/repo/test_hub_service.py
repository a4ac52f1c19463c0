"""The live view's store and grid (hub/classroom/service.py), without a hub: what it keeps and what it shows.

Through a real hub (tokens, scopes, 403s, the page in Chromium): tests/repo/test_hub.py and
tests/browser/test_hub_live_view.py. Needs JupyterHub (``make hub-setup``), hence ``slow`` like the other hub tests.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def service():
    subprocess.run(["make", "hub-setup"], cwd=ROOT, check=True, timeout=1800, capture_output=True)
    sys.path.insert(0, str(ROOT / "hub"))
    from classroom import service

    return service


def record(exercise="01.1", outcome="correct", time="2026-12-01T10:00:00+00:00"):
    return {"v": 1, "exercise": exercise, "module": "course_utils.exercises.nb01", "outcome": outcome, "time": time}


def test_records_are_kept_in_order_and_survive_a_restart(service, tmp_path):
    path = tmp_path / "records.jsonl"
    store = service.Store(path)
    store.add("ana", [record(outcome="incorrect"), record(outcome="correct", time="2026-12-01T10:05:00+00:00")])
    store.add("ben", [record(outcome="incorrect")])
    with open(path, "a") as fh:
        fh.write('{"half a line\n')
    again = service.Store(path)
    assert again.by_user == store.by_user
    assert again.by_user["ana"]["01.1"] == {"outcome": "correct", "time": "2026-12-01T10:05:00+00:00", "checks": 2}
    assert again.last["ana"] == "2026-12-01T10:05:00+00:00"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert all(set(json.loads(line)) == {"user", "exercise", "module", "outcome", "time"}
               for line in path.read_text().splitlines()[:3])


@pytest.mark.parametrize("bad", [
    {"exercise": "01.1", "outcome": "correct"},                           # no time
    record(exercise="<img src=x onerror=alert(1)>"), record(exercise="1.1"), record(outcome="passed"),
    record(time="x" * 100), "not a dict", {**record(), "exercise": 11},
])
def test_only_well_formed_records_are_accepted(service, bad):
    assert not service.acceptable(bad)


def test_the_grid_lists_every_attendee_but_not_the_instructors_and_sums_each_exercise(service, tmp_path):
    classroom = service.Classroom(None, "http://127.0.0.1:1/hub/api", "token", "/services/classroom/")
    users = [{"name": "ana", "roles": ["user"], "last_activity": "2026-12-01T10:06:00Z"},
             {"name": "ben", "roles": ["user"], "last_activity": None},
             {"name": "cleo", "roles": ["user"], "last_activity": "2026-12-01T09:00:00Z"},
             {"name": "teacher", "roles": ["admin", "instructor", "user"], "last_activity": "2026-12-01T10:07:00Z"}]

    async def hub_users():
        return users
    classroom.hub_users = hub_users
    classroom.store.add("ana", [record(outcome="correct")])
    classroom.store.add("ben", [record(outcome="incorrect"), record("00.1", "not_attempted")])
    classroom.store.add("teacher", [record(outcome="correct")])
    grid = asyncio.run(classroom.grid())
    assert [a["name"] for a in grid["attendees"]] == ["ana", "ben", "cleo"]
    assert grid["summary"]["01.1"] == {"correct": 1, "incorrect": 1, "not_attempted": 1}
    assert grid["summary"]["00.1"] == {"correct": 0, "incorrect": 0, "not_attempted": 3}
    numbers = [e["number"] for e in grid["exercises"]]
    assert numbers[:2] == ["00.1", "00.2"] and "01.1" in numbers
    first = {e["number"]: e for e in grid["exercises"]}["01.1"]
    assert first["title"] == {"en": "weighted Huber", "zh": "加权 Huber"} and first["lesson_title"]["zh"]
    ana = grid["attendees"][0]
    assert ana["last_activity"] == "2026-12-01T10:06:00Z" and ana["outcomes"]["01.1"]["outcome"] == "correct"
