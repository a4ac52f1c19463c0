"""The command each attendee's server runs: bring their copy of the lessons up to date, then jupyterhub-singleuser.

It runs as the attendee (every spawner starts it with their user id), so the copy is theirs and made by them
(``lessons.py`` says why that matters). Files it creates are private to the attendee (umask 077). A failed update
never keeps the server from starting: the attendee's copy is what it was, and the reason is in the server's log.

Environment (set by hub/jupyterhub_config.py): ``COURSE_LESSONS`` the course's ``notebooks/``;
``COURSE_LESSONS_COPY`` the attendee's copy (default ``~/notebooks``).
"""

import os
import sys
from pathlib import Path

HUB_DIR = Path(__file__).resolve().parent.parent
if str(HUB_DIR) not in sys.path:
    sys.path.insert(0, str(HUB_DIR))

from classroom.lessons import sync  # noqa: E402 (the folder above is put on the path first)


def main() -> None:
    os.umask(0o077)
    source = Path(os.environ.get("COURSE_LESSONS", HUB_DIR.parent / "notebooks"))
    dest = Path(os.environ.get("COURSE_LESSONS_COPY") or Path.home() / "notebooks")
    try:
        report = sync(source, dest)
        print(f"course lessons in {dest}: {len(report.copied)} copied, {len(report.updated)} updated, "
              f"{len(report.kept)} edited by you and kept", file=sys.stderr, flush=True)
    except Exception as err:  # the server starts anyway, with the copy as it is
        print(f"course lessons: not updated ({type(err).__name__}: {err})", file=sys.stderr, flush=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(HUB_DIR), env.get("PYTHONPATH", "")) if p)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        p for p in (str(HUB_DIR / "classroom" / "jupyter-config"), env.get("JUPYTER_CONFIG_PATH", "")) if p)
    singleuser = Path(sys.executable).parent / "jupyterhub-singleuser"
    os.execve(singleuser, [str(singleuser), *sys.argv[1:]], env)


if __name__ == "__main__":
    main()
