"""A real classroom server for the tests: ``make hub`` on loopback, free ports, its own state, stopped by PID.

As root (CI) the hub chooses the ``local`` spawner, as a classroom would: each attendee's first login creates a
system account (``useradd``, a private home in /home), and their server runs as that account. ``stop()`` ends the
hub with every server and removes the accounts it made. As an ordinary user it is the ``simple`` spawner, every
server as you, in the state folder's ``homes/``.

Names: ``new_name("alice")`` gives ``alice`` plus a random tag, so parallel test processes, and a test run after an
interrupted one, never meet each other's accounts.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import List, Optional

import psutil
import requests

from course_utils.ports import free_port

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hub"))
from classroom import access  # noqa: E402
from classroom.client import stop_group  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def node_missing() -> Optional[str]:
    if not shutil.which("npm") or not shutil.which("node"):
        return "the hub's proxy needs Node.js >= 20 and npm (Debian: apt-get install nodejs npm)"
    return None


def skip_or_fail(reason: str) -> None:
    """In CI a hub test that cannot run fails (the suite must not pass without it); elsewhere it is skipped."""
    import pytest

    if os.environ.get("CI", "").strip().lower() in ("true", "1", "yes"):
        pytest.fail(f"CI=true and the classroom server's tests cannot run: {reason}", pytrace=False)
    pytest.skip(reason)


def readable_lessons() -> Path:
    """A copy of ``notebooks/`` that every account can read (pytest's own temporary folders are private to root),
    for tests that change the course's lessons mid-workshop. The caller removes it."""
    folder = Path(tempfile.mkdtemp(prefix="hub-lessons-"))
    os.chmod(folder, 0o755)
    shutil.copytree(ROOT / "notebooks", folder / "notebooks", symlinks=True,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "checkpoints", "runs", "my_capstone.py"))
    for path in [folder / "notebooks", *(folder / "notebooks").rglob("*")]:
        if not path.is_symlink():
            os.chmod(path, 0o755 if path.is_dir() else 0o644)
    return folder / "notebooks"


class HubServer:
    def __init__(self, workdir: Path, *, idle_timeout: int = 3600, lessons: Optional[Path] = None, **env):
        self.workdir = Path(workdir)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.admin_password = secrets.token_urlsafe(16)
        self.root = os.getuid() == 0
        self.spawner = "local" if self.root else "simple"
        self.tag = secrets.token_hex(2)
        self.names: List[str] = []
        self.admin = self.new_name("teacher")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("HUB_", "JUPYTERHUB_"))}
        self.env.update(HUB_IP="127.0.0.1", HUB_PORT=str(self.port), HUB_API_PORT=str(free_port()),
                        HUB_PROXY_API_PORT=str(free_port()), HUB_SERVICE_PORT=str(free_port()),
                        HUB_DATA=str(self.workdir), HUB_ADMINS=self.admin, HUB_ADMIN_PASSWORD=self.admin_password,
                        HUB_IDLE_TIMEOUT=str(idle_timeout), HUB_CPU_LIMIT="1", HUB_MEM_LIMIT="4G", **env)
        if lessons is not None:
            self.env["HUB_LESSONS"] = str(lessons)
        self.state = self.workdir / "state"
        self.log_path = self.workdir / "hub.log"
        self.proc: Optional[subprocess.Popen] = None
        self.group, self.opened = "", []

    def new_name(self, stem: str) -> str:
        name = f"{stem}{self.tag}"
        self.names.append(name)
        return name

    def home(self, name: str) -> Path:
        if self.spawner == "simple":
            return self.workdir / "homes" / name
        return Path(pwd.getpwnam(name).pw_dir)

    def start(self, timeout: float = 180) -> "HubServer":
        subprocess.run(["make", "hub-setup"], cwd=ROOT, check=True, timeout=1800, capture_output=True)
        if self.root:   # the accounts the hub makes join a group that may enter the course's (private) folders
            self.group = f"hubt{self.tag}"
            self.opened = access.grant(self.group, access.python_and_course(ROOT / ".venv")
                                       + ([Path(self.env["HUB_LESSONS"])] if "HUB_LESSONS" in self.env else []))
            self.env["HUB_GROUP"] = self.group
        self.workdir.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_path, "w+")
        self.proc = subprocess.Popen(["make", "hub"], cwd=ROOT, env=self.env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise AssertionError("the hub exited:\n" + self.log()[-4000:])
            try:
                if requests.get(self.base + "/hub/health", timeout=5).status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("the hub did not come up:\n" + self.log()[-4000:])
            time.sleep(0.5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None:
            stop_group(self.proc)
            self._log.close()
        if self.root:
            for name in self.names:
                self._remove_account(name)
            if self.group:
                access.revoke(self.group, self.opened)

    @staticmethod
    def _remove_account(name: str) -> None:
        """The account the hub made for ``name`` (its comment says so), after ending its processes by PID."""
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            return
        if entry.pw_gecos != "course attendee":
            return
        for proc in psutil.process_iter(["uids"]):
            if proc.info["uids"] and proc.info["uids"].real == entry.pw_uid:
                with contextlib.suppress(psutil.Error):
                    proc.kill()
        subprocess.run(["userdel", "--remove", name], capture_output=True)
