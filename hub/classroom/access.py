"""Opening the course to the attendees' accounts only: a group and one ACL entry per folder that is closed to others.

With the ``local`` spawner each attendee is a system account that must run the course's Python. Where that Python
lives under a private folder (``/root/.pyenv``, a home with mode 0700), the folders on the way can be opened to the
attendees' group alone (``setfacl -m g:GROUP:x``: enter, not list) instead of to everyone. The tests and the
capacity benchmark do exactly that for the accounts they create, and undo it afterwards; docs/classroom-server.md
shows the same two commands for a real class.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterable, List

__all__ = ["closed_folders", "grant", "revoke"]


def closed_folders(paths: Iterable[Path]) -> List[Path]:
    """The folders on the way to each path (links resolved) that other users cannot enter."""
    found = set()
    for path in paths:
        for p in {Path(path), Path(path).resolve()}:
            for folder in [p, *p.parents]:
                if folder.is_dir() and not os.stat(folder).st_mode & 0o001:
                    found.add(folder)
    return sorted(found)


def grant(group: str, paths: Iterable[Path]) -> List[Path]:
    """Create ``group`` and let it enter every closed folder on the way to ``paths``; returns those folders."""
    subprocess.run(["groupadd", group], check=True, capture_output=True)
    folders = closed_folders(paths)
    for folder in folders:
        subprocess.run(["setfacl", "-m", f"g:{group}:x", str(folder)], check=True, capture_output=True)
    return folders


def revoke(group: str, folders: Iterable[Path]) -> None:
    """Undo ``grant``: the ACL entries, then the group."""
    for folder in folders:
        subprocess.run(["setfacl", "-x", f"g:{group}", str(folder)], capture_output=True)
    subprocess.run(["groupdel", group], capture_output=True)


def python_and_course(venv: Path) -> List[Path]:
    """What an attendee's account must reach: the venv's interpreter (resolved) and the course folder."""
    python = Path(venv) / "bin" / "python"
    return [python.resolve().parent, Path(venv).resolve().parent, Path(sys.prefix)]
