"""Where the classroom server keeps its state and (simple spawner) the attendees' homes: outside the course folder.

Inside it, ``git clean -xdf`` (or a fresh checkout) would delete every attendee's work and the hub's passwords.
As root: ``/var/lib/mindspore-course-hub``; as an ordinary user: ``$XDG_DATA_HOME/mindspore-course-hub``
(``~/.local/share/...``). ``HUB_DATA`` moves both; ``HUB_STATE`` and ``HUB_HOMES`` move each.
"""

from __future__ import annotations

import os
from pathlib import Path


def _env(name: str):
    return os.environ.get(name) or None


def data_dir() -> Path:
    if _env("HUB_DATA"):
        return Path(_env("HUB_DATA"))
    if os.getuid() == 0:
        return Path("/var/lib/mindspore-course-hub")
    return Path(_env("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "mindspore-course-hub"


def state_dir() -> Path:
    return Path(_env("HUB_STATE") or data_dir() / "state").resolve()


def homes_dir(spawner: str) -> Path:
    """simple: one folder per attendee under the hub's data; local: the base folder of the accounts' homes."""
    return Path(_env("HUB_HOMES") or (data_dir() / "homes" if spawner == "simple" else "/home")).resolve()
