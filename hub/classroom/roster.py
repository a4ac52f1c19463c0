"""``make hub-roster``: one name and one random password per seat, for a class where nobody signs up.

``python hub/classroom/roster.py --seats 20`` (or ``--names ana,ben,...``) stores a bcrypt hash of each password in
the hub's password file (the one ``HUB_AUTH=firstuse`` uses) and the names in ``roster.json``, both in the hub's
state folder, and prints the slips to hand out: the passwords are shown once and stored nowhere. With
``HUB_AUTH=roster`` only these names log in. Run it again with the same names to issue new passwords
(``--names ben`` re-issues Ben's alone); attendees can change theirs at ``/hub/auth/change-password``.
Run it while the hub is stopped (the password file is not shared between processes).
"""

from __future__ import annotations

import argparse
import dbm
import json
import os
import secrets
import sys
from pathlib import Path
from typing import List

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from classroom import names as naming  # noqa: E402
from classroom import paths  # noqa: E402

ROSTER = "roster.json"
#: Easy to read aloud and type: no 0/O, 1/l/I.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def roster_names(state: Path) -> List[str]:
    try:
        return sorted(json.loads((Path(state) / ROSTER).read_text(encoding="utf-8"))["names"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def new_password(length: int = 12) -> str:
    """``length`` characters of ALPHABET (about 59 bits for 12), grouped by 4 for reading: ``abcd-efgh-jkmn``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(length))
    return "-".join(raw[i:i + 4] for i in range(0, length, 4))


def issue(state: Path, seat_names: List[str], spawner: str = "simple", admins=()) -> List[tuple]:
    """Store a new password for each name; returns ``[(name, password), ...]``."""
    import bcrypt   # (jupyterhub-firstuseauthenticator's dependency: the config reads roster_names without it)

    state = Path(state)
    state.mkdir(parents=True, exist_ok=True, mode=0o700)
    for name in seat_names:
        why = naming.refusal(name, spawner)
        if why or name in admins:
            raise SystemExit(f"make hub-roster: {why or f'{name!r} is an instructor name (HUB_ADMINS)'}")
    slips = [(name, new_password()) for name in seat_names]
    with dbm.open(str(state / "passwords.dbm"), "c", 0o600) as db:
        for name, password in slips:
            db[name.encode("utf-8")] = bcrypt.hashpw(password.encode("utf-8"), bcrypt.gensalt())
    everyone = sorted(set(roster_names(state)) | set(seat_names))
    tmp = state / f".{ROSTER}.{os.getpid()}"
    tmp.write_text(json.dumps({"names": everyone}, indent=1), encoding="utf-8")
    os.chmod(tmp, 0o600)
    os.replace(tmp, state / ROSTER)
    return slips


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make hub-roster", description=__doc__.split("\n\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--seats", type=int, help="how many seats: names PREFIX01, PREFIX02, ...")
    group.add_argument("--names", help="comma-separated names instead")
    parser.add_argument("--prefix", default="seat", help="the seat names' prefix (default: seat)")
    parser.add_argument("--state", type=Path, default=paths.state_dir(),
                        help="the hub's state folder (default: HUB_STATE, else %(default)s)")
    parser.add_argument("--spawner", default="simple", choices=("simple", "local", "systemd"))
    parser.add_argument("--admins", default="", help="the instructor's names (HUB_ADMINS): never a seat")
    args = parser.parse_args(argv)
    if args.seats is not None:
        if not 1 <= args.seats <= 500:
            parser.error(f"--seats must be between 1 and 500, not {args.seats}")
        width = max(2, len(str(args.seats)))
        seat_names = [f"{args.prefix}{i:0{width}d}" for i in range(1, args.seats + 1)]
    else:
        seat_names = [n.strip() for n in args.names.split(",") if n.strip()]
    slips = issue(args.state, seat_names, args.spawner, {n.strip() for n in args.admins.split(",") if n.strip()})
    width = max(len(name) for name, _ in slips)
    print(f"{'name':<{width}}  password")
    for name, password in slips:
        print(f"{name:<{width}}  {password}")
    print(f"\n{len(slips)} seats stored in {args.state} (passwords: bcrypt hashes only). "
          f"Start the hub with HUB_AUTH=roster.", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
