"""Progress records (course_utils/progress.py): one line per check, never code or outputs, never a failed check."""

from __future__ import annotations

import http.server
import importlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from course_utils import lessons, progress
from course_utils.exercises import Exercise, Incorrect, Outcome, register
from course_utils.i18n import speaking

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def records(tmp_path, monkeypatch):
    """Recording on, into a temporary file, as if inside a kernel, never posting."""
    path = tmp_path / "home" / ".mindspore-course" / "progress.jsonl"
    monkeypatch.setenv(progress.ENV_FILE, str(path))
    monkeypatch.setenv(progress.ENV_OFF, "1")
    monkeypatch.delenv(progress.ENV_URL, raising=False)
    monkeypatch.setattr(progress, "_in_kernel", lambda: True)
    return path


class Double(Exercise):
    """A one-case exercise: ``double(3) == 6``."""

    names = ("double",)
    title = "double a number"

    def reference(self):
        return (lambda x: 2 * x,)

    def _check(self, double):
        got = double(3)
        if got != 6:
            raise Incorrect(f"double(3) should be 6, got {got!r}")


def _exercise(prefix="01"):
    q1 = Double()
    register({"q1": q1}, prefix)
    return q1


def test_a_check_records_one_line_without_code_answer_or_message(records):
    q1 = _exercise()
    secret = "def double(x): return 7  # SECRET-CODE"

    def double(x):
        return 7
    assert q1.check(double) == Outcome.INCORRECT
    assert q1.check(lambda x: 2 * x) == Outcome.CORRECT
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert set(first) == {"v", "exercise", "module", "outcome", "time"}
    assert (first["exercise"], first["outcome"], second["outcome"]) == ("01.1", "incorrect", "correct")
    text = records.read_text(encoding="utf-8")
    assert "SECRET" not in text and "7" not in text.replace(first["time"], "").replace(second["time"], "")
    assert secret  # (the answer's source is nowhere in the file)
    assert oct(records.stat().st_mode & 0o777) == "0o600"


def test_not_attempted_is_recorded_too(records):
    from course_utils.exercises import ____
    q1 = _exercise()
    assert q1.check(____) == Outcome.NOT_ATTEMPTED
    assert json.loads(records.read_text())["outcome"] == "not_attempted"


@pytest.mark.parametrize("value", ["0", "off", "false", "no"])
def test_the_setting_turns_recording_off(records, monkeypatch, value):
    monkeypatch.setenv(progress.ENV_OFF, value)
    assert _exercise().check(lambda x: 2 * x) == Outcome.CORRECT
    assert not records.exists()


def test_outside_a_kernel_nothing_is_recorded(records, monkeypatch):
    monkeypatch.setattr(progress, "_in_kernel", lambda: False)
    _exercise().check(lambda x: 2 * x)
    assert not records.exists()


def test_a_failing_record_never_fails_the_check(records, monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(progress.ENV_FILE, str(blocker / "progress.jsonl"))   # its folder is a file
    assert _exercise().check(lambda x: 2 * x) == Outcome.CORRECT

    def boom(*args, **kwargs):
        raise RuntimeError("disk on fire")
    monkeypatch.setattr(progress, "_append", boom)
    assert _exercise().check(lambda x: 3 * x) == Outcome.INCORRECT


def test_damaged_lines_are_skipped_and_the_last_outcome_wins(tmp_path):
    path = tmp_path / "p.jsonl"
    good = {"v": 1, "exercise": "02.1", "module": "course_utils.exercises.nb02", "time": "2026-12-01T10:00:00+00:00"}
    path.write_text("\n".join([json.dumps({**good, "outcome": "incorrect"}), "{half a line",
                               json.dumps({**good, "outcome": "weird"}), json.dumps({"exercise": 3}),
                               json.dumps({**good, "outcome": "correct", "time": "2026-12-01T10:05:00+00:00"})]))
    state = progress.latest(progress.read_records(path))
    assert state == {"02.1": {"outcome": "correct", "time": "2026-12-01T10:05:00+00:00", "checks": 2,
                              "module": "course_utils.exercises.nb02"}}
    assert progress.read_records(tmp_path / "missing.jsonl") == []


def test_the_catalogue_is_every_registered_exercise_in_course_order():
    """Read from the modules' source (no import); the same as what the modules register when imported."""
    found = [info.number for info in progress.catalogue()]
    expected = []
    for lesson in lessons.LESSONS:
        if lesson.exercises:
            module = importlib.import_module(lesson.exercises)
            expected += [obj.number for name, obj in sorted(vars(module).items())
                         if name[:1] == "q" and name[1:].isdigit()]
    assert sorted(found) == sorted(expected) and len(found) == len(set(found)) > 10
    assert found == sorted(found, key=lambda n: (n.split(".")[0], int(n.split(".")[1])))
    titles = {info.number: info.title for info in progress.catalogue()}
    assert titles["01.1"] == importlib.import_module("course_utils.exercises.nb01").q1.title


def test_a_record_finds_its_lesson_by_module_when_lessons_are_renumbered(monkeypatch):
    """Records name the exercise module: after a renumbering the manifest decides the lesson, not the label."""
    renumbered = tuple(lessons.Lesson(f"{int(one.number) + 1:02d}", one.slug, one.title, one.summary,
                                      exercises=one.exercises) for one in lessons.LESSONS)
    monkeypatch.setattr(lessons, "LESSONS", renumbered)
    assert progress.lesson_of("01.1", "course_utils.exercises.nb01").slug == "custom_huber_loss"
    assert progress.lesson_of("01.1").slug == "environment_setup"    # (no module: the label's number)


def test_the_table_in_english_and_chinese(tmp_path):
    entry = {"v": 1, "exercise": "01.1", "module": "course_utils.exercises.nb01", "outcome": "correct",
             "time": "2026-12-01T10:05:00+00:00"}
    with speaking("en"):
        text = progress.table([entry])
        assert "01.1 weighted Huber" in text and "Correct" in text and "Not attempted yet" in text
        assert "A custom Huber loss" in text
        assert progress.summary_line([entry]) == f"1 of {len(progress.catalogue())} exercises correct so far."
    with speaking("zh"):
        text = progress.table([entry])
        assert "正确" in text and "尚未作答" in text and "自定义 Huber 损失" in text and "加权 Huber" in text
        assert "Correct" not in text


def test_the_command_prints_the_learners_table_in_their_language(tmp_path):
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"v": 1, "exercise": "00.1", "module": "course_utils.exercises.nb00",
                                "outcome": "incorrect", "time": "2026-12-01T10:05:00+00:00"}) + "\n")
    env = {**os.environ, "COURSE_LANG": "zh", "COURSE_PROGRESS": "1"}
    out = subprocess.run([sys.executable, "-m", "course_utils.progress", "--file", str(path)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    assert "你的学习进度" in out and "不正确" in out and "已答对 0 道" in out
    out = subprocess.run([sys.executable, "-m", "course_utils.progress", "--file", str(path), "--json"],
                         env={**env, "COURSE_LANG": "en"}, cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert json.loads(out)["00.1"]["outcome"] == "incorrect"


class _Collector(http.server.BaseHTTPRequestHandler):
    received: list = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        type(self).received.append((self.headers.get("Authorization"), json.loads(body)))
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


def test_on_the_classroom_server_each_record_is_posted_with_the_servers_token(records, monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv(progress.ENV_URL, f"http://127.0.0.1:{server.server_address[1]}/records")
        monkeypatch.setenv("JUPYTERHUB_API_TOKEN", "the-servers-token")
        _exercise().check(lambda x: 2 * x)
        deadline = time.monotonic() + 10
        while not _Collector.received and time.monotonic() < deadline:
            time.sleep(0.05)
        ((auth, body),) = _Collector.received
        assert auth == "token the-servers-token"
        assert [r["outcome"] for r in body["records"]] == ["correct"] and body["records"][0]["exercise"] == "01.1"
    finally:
        server.shutdown()
