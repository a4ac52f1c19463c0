"""Which attendee names the classroom server accepts, and why a name is refused.

A hub user name becomes a folder (``HUB_HOMES/<name>``), a URL (``/user/<name>/``) and, with the isolating
spawners, a Unix account (``local``) or a systemd dynamic user (``systemd``). So a name is lower-case letters,
digits, ``-`` and ``_``, starting with a letter, at most 32 characters (what ``useradd`` accepts): never ``..``,
``/`` or a space. It is never a system account's (``daemon``, ``bin``: uid below 1000): an attendee's files would
go where that account's are, and their server would run as it. With ``systemd`` dynamic users no existing
account's name is accepted at all: systemd runs a dynamic user whose name exists in ``/etc/passwd`` *as that
account*. With ``local``, an attendee is an ordinary account (uid 1000 or more), so those names are the point.
"""

from __future__ import annotations

import pwd
import re
from typing import Optional

__all__ = ["ATTENDEE_COMMENT", "PATTERN", "RESERVED", "refusal"]

PATTERN = re.compile(r"[a-z][a-z0-9_-]{0,31}")
#: Never an attendee: the hub's own words in URLs, and accounts every system has.
RESERVED = frozenset({"root", "admin", "hub", "user", "users", "services", "api", "nobody", "jovyan", "instructor"})
#: The first uid of an ordinary account (``UID_MIN`` of login.defs on Debian, Ubuntu, Fedora).
UID_MIN = 1000
NOBODY_UIDS = (65534, 4294967294)
#: The comment (GECOS field) of every account the hub creates for an attendee (``useradd --comment``).
ATTENDEE_COMMENT = "course attendee"


def _account(name: str):
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def refusal(name: str, spawner: str, admins=(), existing_accounts: bool = False) -> Optional[str]:
    """Why ``name`` cannot be a hub user's (None when it can). ``spawner``: simple, local or systemd (dynamic
    users); ``admins``: the instructor's names, which may use the reserved words and, with ``local``, name an
    existing account; ``existing_accounts``: the logins are the machine's own accounts (PAM), so an ordinary
    account the hub did not create is allowed."""
    if not isinstance(name, str) or not PATTERN.fullmatch(name):
        return (f"{name!r} is not a course user name: lower-case letters, digits, '-' and '_', starting with a "
                "letter, at most 32 characters")
    if name in RESERVED and name not in admins:
        return f"{name!r} is reserved"
    account = _account(name)
    if account is None:
        return None
    if account.pw_uid < UID_MIN or account.pw_uid in NOBODY_UIDS:
        return f"{name!r} is the name of a system account on this machine (uid {account.pw_uid})"
    if spawner == "systemd":
        return (f"{name!r} is the name of an account on this machine (uid {account.pw_uid}): a systemd dynamic "
                "user of that name would run as it")
    if spawner == "local" and not existing_accounts and name not in admins \
            and not account.pw_gecos.startswith(ATTENDEE_COMMENT):
        return (f"{name!r} is the name of an account on this machine that the classroom server did not create "
                f"(uid {account.pw_uid}): an attendee's server would run as it")
    return None
