"""course_utils.fileio.atomic_write: the target is always the complete old or the complete new file."""

import os

import pytest

from course_utils.fileio import atomic_write, temporary_sibling


def test_atomic_write_bytes_and_text(tmp_path):
    atomic_write(tmp_path / "sub" / "a.bin", b"\x00\x01")
    atomic_write(tmp_path / "b.json", '{"ü": 1}')
    assert (tmp_path / "sub" / "a.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "b.json").read_text(encoding="utf-8") == '{"ü": 1}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.json", "sub"]


def test_atomic_write_leaves_old_file_when_interrupted(tmp_path, monkeypatch):
    target = tmp_path / "f"
    target.write_bytes(b"old")

    def boom(fd):
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError, match="disk full"):
        atomic_write(target, b"new contents")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f"]   # no temp file left behind


def test_temporary_names_never_collide(tmp_path):
    names = {temporary_sibling(tmp_path / "summary.json") for _ in range(200)}
    assert len(names) == 200
    assert all(n.parent == tmp_path and n.name.startswith(".summary.json.") for n in names)
