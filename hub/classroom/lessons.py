"""Each attendee's own copy of the lessons: made on the first start, updated without clobbering what they typed.

The copy is made by the attendee's own server process (``start.py`` runs ``sync`` before JupyterLab), so it is
written with the attendee's own user id, whatever the spawner: no root process walks a folder the attendee owns
(where a file swapped for a symlink would make root write or ``chown`` somewhere else), and a dynamic systemd user
that has no passwd entry needs none.

``sync(source, dest)`` compares three versions of every file: the course's now (``source``), the attendee's
(``dest``), and the one last copied to them (its SHA-256, in ``dest/.course-lessons.json``):

* missing in ``dest``: copied (a new lesson appears; a file the attendee deleted comes back);
* unchanged since it was copied: replaced by the course's new version, if there is one ("updated");
* changed by the attendee: kept as it is; if the course changed it too, the new version is written beside it as
  ``NAME.updated.EXT`` ("kept", the attendee compares and takes what they want).

Every write is a temporary file renamed into place: a copy interrupted at any point is never half a notebook.
The same function serves the first start, every later start, and the update link an instructor shares
mid-workshop (``serverext``); ``make hub-update`` prints that link. Standard library and ``course_utils`` only.
"""

from __future__ import annotations

import fnmatch
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List

from course_utils.fileio import sha256_file

__all__ = ["IGNORED", "MANIFEST", "Report", "sync"]

MANIFEST = ".course-lessons.json"
#: What is never copied: run outputs, caches, and the instructor's own capstone (git-ignored in the course).
IGNORED = (".ipynb_checkpoints", "checkpoints", "runs", "__pycache__", "kernel_meta", "rank_*", "*.pyc", "*.ckpt",
           "my_capstone.py", ".*")


@dataclass
class Report:
    """What one ``sync`` did, by relative path."""

    copied: List[str] = field(default_factory=list)    #: new to the attendee (first start, a new lesson)
    updated: List[str] = field(default_factory=list)   #: unedited, replaced by the course's new version
    kept: List[str] = field(default_factory=list)      #: edited by the attendee and changed in the course
    unchanged: int = 0

    def as_dict(self) -> dict:
        return {"copied": self.copied, "updated": self.updated, "kept": self.kept, "unchanged": self.unchanged}


def _ignored(name: str) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in IGNORED)


def _files(source: Path) -> Dict[str, Path]:
    """Relative path -> file of the course's lessons (links inside the folder are followed)."""
    root = source.resolve()
    found: Dict[str, Path] = {}
    for folder, dirs, files in os.walk(root, followlinks=True):
        here = Path(folder)
        if not here.resolve().is_relative_to(root):   # a link out of the course is not the course
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not _ignored(d))
        for name in sorted(files):
            path = here / name
            if not _ignored(name) and path.resolve().is_relative_to(root) and path.is_file():
                found[(here / name).relative_to(root).as_posix()] = path
    return found


_digest = sha256_file


def _write_copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.parent / f".{dst.name}.{os.getpid()}.course-copy"
    try:
        shutil.copyfile(src, tmp, follow_symlinks=True)
        if os.access(src, os.X_OK):
            os.chmod(tmp, 0o755)
        os.replace(tmp, dst)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _beside(path: Path) -> Path:
    """``01_x.ipynb`` -> ``01_x.updated.ipynb``."""
    return path.with_name(f"{path.stem}.updated{path.suffix}")


def _load_manifest(dest: Path) -> Dict[str, str]:
    try:
        files = json.loads((dest / MANIFEST).read_text(encoding="utf-8")).get("files", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def sync(source: Path, dest: Path) -> Report:
    """Bring ``dest`` (the attendee's copy) up to date with ``source`` (the course's ``notebooks/``)."""
    source, dest = Path(source), Path(dest)
    if not source.is_dir():
        raise FileNotFoundError(f"the course's lessons are not at {source} (COURSE_LESSONS)")
    dest.mkdir(parents=True, exist_ok=True)
    base = _load_manifest(dest)
    report, manifest = Report(), dict(base)
    for rel, src in _files(source).items():
        dst = dest / rel
        new = _digest(src)
        if dst.is_symlink() or not dst.exists():
            if dst.is_symlink():     # the attendee's own link: theirs to keep, never written through
                report.kept.append(rel)
                continue
            _write_copy(src, dst)
            manifest[rel] = new
            report.copied.append(rel)
            continue
        if not dst.is_file():
            report.kept.append(rel)
            continue
        mine = _digest(dst)
        if mine == new:
            manifest[rel] = new
            report.unchanged += 1
        elif base.get(rel) == mine:          # untouched since we copied it: take the course's new version
            _write_copy(src, dst)
            manifest[rel] = new
            report.updated.append(rel)
        elif base.get(rel) != new:           # edited by the attendee, and the course changed: both kept
            if not _beside(dst).exists() or _digest(_beside(dst)) != new:
                _write_copy(src, _beside(dst))
            report.kept.append(rel)
        else:                                # edited by the attendee, the course unchanged
            report.unchanged += 1
    tmp = dest / f".{MANIFEST}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps({"files": manifest}, indent=0, sort_keys=True), encoding="utf-8")
    os.replace(tmp, dest / MANIFEST)
    return report


def main(argv=None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="make hub-update", description="The link that updates each attendee's "
                                     "copy of the lessons from the course on the hub's machine.")
    parser.add_argument("--link", required=True, help="the hub's address as the class types it")
    args = parser.parse_args(argv)
    base = args.link.rstrip("/")
    print(f"Share this link with the class:\n\n    {base}/hub/user-redirect/course/update\n")
    print("Each attendee who opens it gets the course's current notebooks/ in their own copy: lessons they have not "
          "edited are replaced, new ones appear, and the ones they edited are kept, with the new version beside "
          "each as NAME.updated.ipynb. A server that starts later updates itself the same way.")
    if "://0.0.0.0" in base:
        print("(HUB_IP is 0.0.0.0: put the machine's address in the link, or run make hub-update HUB_URL=...)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
