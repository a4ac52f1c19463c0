"""Each attendee's copy of the lessons (hub/classroom/lessons.py): made on first start, updated without clobbering.

The copy is made by the attendee's own server process, so these tests call ``sync`` directly, as that process
does; the slow hub tests (tests/repo/test_hub.py) check the same through a real hub and the update link.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hub"))

from classroom.lessons import IGNORED, MANIFEST, main, sync  # noqa: E402


@pytest.fixture
def course(tmp_path):
    """A small course: two lessons, a script, a zh folder whose scripts is a link, and what must not be copied."""
    src = tmp_path / "course" / "notebooks"
    (src / "scripts").mkdir(parents=True)
    (src / "zh").mkdir()
    (src / "00_a.ipynb").write_text("lesson 0 v1")
    (src / "01_b.ipynb").write_text("lesson 1 v1")
    (src / "scripts" / "run.py").write_text("print('hi')")
    (src / "zh" / "00_a.ipynb").write_text("第 0 课")
    (src / "zh" / "scripts").symlink_to("../scripts")
    (src / "my_capstone.py").write_text("the instructor's own capstone")
    for ignored in ("checkpoints", ".ipynb_checkpoints", "__pycache__", "runs"):
        (src / ignored).mkdir()
        (src / ignored / "x").write_text("run output")
    (tmp_path / "secret.txt").write_text("outside the course")
    (src / "outside").symlink_to(tmp_path / "secret.txt")
    return src


def test_the_first_start_copies_the_lessons_but_not_outputs_nor_the_instructors_capstone(course, tmp_path):
    dest = tmp_path / "home" / "notebooks"
    report = sync(course, dest)
    copied = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert copied == [MANIFEST, "00_a.ipynb", "01_b.ipynb", "scripts/run.py", "zh/00_a.ipynb", "zh/scripts/run.py"]
    assert sorted(report.copied) == [c for c in copied if c != MANIFEST]
    assert not any(p.is_symlink() for p in dest.rglob("*"))          # links become files of the copy
    assert "my_capstone.py" in IGNORED


def test_an_update_keeps_edits_updates_the_rest_and_adds_new_lessons(course, tmp_path):
    dest = tmp_path / "home" / "notebooks"
    sync(course, dest)
    (dest / "00_a.ipynb").write_text("lesson 0 with my answers")       # the attendee's work
    (course / "00_a.ipynb").write_text("lesson 0 v2 (a fix)")          # the instructor fixes both lessons
    (course / "01_b.ipynb").write_text("lesson 1 v2 (a fix)")
    (course / "02_c.ipynb").write_text("lesson 2, new")                # and adds one
    report = sync(course, dest)
    assert (dest / "00_a.ipynb").read_text() == "lesson 0 with my answers"        # kept
    assert (dest / "00_a.updated.ipynb").read_text() == "lesson 0 v2 (a fix)"     # the fix beside it
    assert (dest / "01_b.ipynb").read_text() == "lesson 1 v2 (a fix)"             # unedited: updated
    assert (dest / "02_c.ipynb").read_text() == "lesson 2, new"                   # new: appears
    assert (report.kept, report.updated, report.copied) == (["00_a.ipynb"], ["01_b.ipynb"], ["02_c.ipynb"])
    # a second update changes nothing, and still keeps the edit
    again = sync(course, dest)
    assert (again.kept, again.updated, again.copied) == (["00_a.ipynb"], [], [])
    assert (dest / "00_a.ipynb").read_text() == "lesson 0 with my answers"


def test_an_edit_the_course_did_not_change_is_simply_kept(course, tmp_path):
    dest = tmp_path / "notebooks"
    sync(course, dest)
    (dest / "01_b.ipynb").write_text("my notes")
    report = sync(course, dest)
    assert (dest / "01_b.ipynb").read_text() == "my notes" and not (dest / "01_b.updated.ipynb").exists()
    assert report.kept == [] and report.updated == []


def test_a_deleted_lesson_comes_back_and_an_attendees_link_is_never_written_through(course, tmp_path):
    dest = tmp_path / "notebooks"
    sync(course, dest)
    (dest / "00_a.ipynb").unlink()
    target = tmp_path / "not-theirs.txt"
    target.write_text("untouched")
    (dest / "01_b.ipynb").unlink()
    (dest / "01_b.ipynb").symlink_to(target)
    (course / "01_b.ipynb").write_text("lesson 1 v2")
    report = sync(course, dest)
    assert (dest / "00_a.ipynb").read_text() == "lesson 0 v1" and "00_a.ipynb" in report.copied
    assert target.read_text() == "untouched" and "01_b.ipynb" in report.kept


def test_a_damaged_manifest_never_loses_an_edit(course, tmp_path):
    dest = tmp_path / "notebooks"
    sync(course, dest)
    (dest / "00_a.ipynb").write_text("my answers")
    (dest / MANIFEST).write_text("{not json")
    (course / "00_a.ipynb").write_text("v2")
    sync(course, dest)
    assert (dest / "00_a.ipynb").read_text() == "my answers"
    assert json.loads((dest / MANIFEST).read_text())["files"]


def test_no_half_written_file_is_left_behind(course, tmp_path, monkeypatch):
    dest = tmp_path / "notebooks"
    import classroom.lessons as lessons

    def fail(src, dst, follow_symlinks=True):
        Path(dst).write_text("half")
        raise OSError("disk full")
    monkeypatch.setattr(lessons.shutil, "copyfile", fail)
    with pytest.raises(OSError, match="disk full"):
        sync(course, dest)
    assert not [p for p in dest.rglob("*") if p.is_file()]


def test_a_missing_course_says_where_it_looked(tmp_path):
    with pytest.raises(FileNotFoundError, match="COURSE_LESSONS"):
        sync(tmp_path / "nowhere", tmp_path / "dest")


def test_make_hub_update_prints_the_link(capsys):
    assert main(["--link", "http://10.0.0.5:8000/"]) == 0
    out = capsys.readouterr().out
    assert "http://10.0.0.5:8000/hub/user-redirect/course/update" in out and "NAME.updated.ipynb" in out


def test_files_the_server_writes_are_private(course, tmp_path):
    dest = tmp_path / "notebooks"
    old = os.umask(0o077)    # what start.py sets before syncing
    try:
        sync(course, dest)
    finally:
        os.umask(old)
    assert (dest / "00_a.ipynb").stat().st_mode & 0o077 == 0
