"""A private JupyterLab server for the browser tests, started from the course's own environment.

The server serves a *copy* of the course (``notebooks/`` copied, the rest of the repository linked), so
nothing a test does can change a committed notebook. It listens on 127.0.0.1 on a free port with a random
token, and every Jupyter directory it reads or writes (config, user settings, workspaces, runtime files)
is a fresh temporary folder: a learner's own JupyterLab settings cannot change what the tests see, and
the tests' settings (autosave off, no virtual scrolling, no news) cannot leak into the learner's.

``stop()`` ends the server and every kernel it started by PID. Kernels run in their own sessions
(jupyter_client starts them with ``start_new_session``), so killing the server's process group is not
enough: the PIDs of its descendants are collected while it runs and each one's group is signalled.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

from course_utils.ports import free_port

#: Repository entries the copy links to instead of copying (read-only use by notebooks: data, helpers).
_NOT_LINKED = {"notebooks", "screenshots", "runs", "logs", "kernel_meta", "rewritten_network"}

#: JupyterLab's UI in Simplified Chinese (needs the pinned jupyterlab-language-pack-zh-CN), for notebooks/zh/.
CHINESE_UI = {"@jupyterlab/translation-extension:plugin": {"locale": "zh_CN"}}

#: JupyterLab user settings for the tests, ``{plugin id: {setting: value}}``.
LAB_SETTINGS = {
    # Nothing is ever written back to the notebook files, even in the copy.
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
    # Every cell stays in the page (JupyterLab 4 otherwise renders only what is on screen), so outputs
    # can be read and the full-page screenshot shows the whole notebook.
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none", "scrollPastEnd": False},
    # No "news" toast over the notebook and no update check (no internet in tests).
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}

SERVER_CONFIG = {
    "ServerApp": {"ip": "127.0.0.1", "open_browser": False, "port_retries": 0, "allow_root": True},
    "LabApp": {"news_url": None, "extension_manager": "readonly",
               "check_for_updates_class": "jupyterlab.NeverCheckForUpdate"},
}


class LabServerError(RuntimeError):
    """The JupyterLab server could not be started or answered unexpectedly."""


def make_course_copy(repo: Path, dest: Path) -> Path:
    """Copy ``repo/notebooks`` to ``dest/notebooks`` and link the other top-level entries.

    The layout stays the repository's, so a notebook sees ``../data`` or ``../course_utils`` exactly as
    it does when a learner runs ``make lab``. Returns the copied notebooks folder.
    """
    dest.mkdir(parents=True, exist_ok=True)
    notebooks = dest / "notebooks"
    shutil.copytree(repo / "notebooks", notebooks,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "checkpoints", "runs", "__pycache__"))
    for entry in repo.iterdir():
        if entry.name.startswith(".") or entry.name in _NOT_LINKED:
            continue
        (dest / entry.name).symlink_to(entry)
    return notebooks


def _write_settings(settings_dir: Path, settings: dict = LAB_SETTINGS) -> None:
    for plugin_id, values in settings.items():
        package, plugin = plugin_id.split(":")
        path = settings_dir / package / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), encoding="utf-8")


def _signal(proc: psutil.Process, sig: int) -> None:
    try:
        proc.send_signal(sig)
    except psutil.NoSuchProcess:
        pass


class LabServer:
    """One JupyterLab process; use as a context manager or call ``start()`` / ``stop()``."""

    def __init__(self, root_dir: Path, state_dir: Path, python: str = sys.executable,
                 start_timeout: float = 180.0, settings: dict | None = None):
        self.root_dir = Path(root_dir)
        #: user settings on top of LAB_SETTINGS, e.g. the UI language
        self.settings = {**LAB_SETTINGS, **(settings or {})}
        self.state_dir = Path(state_dir)
        self.python = python
        self.start_timeout = start_timeout
        self.port = free_port()
        self.token = secrets.token_hex(24)
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.log_path = self.state_dir / "jupyterlab.log"
        self.proc: subprocess.Popen | None = None
        self._seen_pids: dict[int, float] = {}  # pid -> create_time of every descendant seen

    # ---- lifecycle -------------------------------------------------------------------------

    def environment(self) -> dict:
        dirs = {name: self.state_dir / name for name in ("config", "settings", "workspaces", "runtime", "ipython")}
        for path in dirs.values():
            path.mkdir(parents=True, exist_ok=True)
        (dirs["config"] / "jupyter_server_config.json").write_text(json.dumps(SERVER_CONFIG), encoding="utf-8")
        _write_settings(dirs["settings"], self.settings)
        env = dict(os.environ)
        # The CPU speed fixes are runtime.setup()'s job inside each kernel, as for a learner.
        for name in ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN", "JUPYTER_PATH", "PYTHONPATH"):
            env.pop(name, None)
        env.update({
            "JUPYTER_CONFIG_DIR": str(dirs["config"]),
            "JUPYTERLAB_SETTINGS_DIR": str(dirs["settings"]),
            "JUPYTERLAB_WORKSPACES_DIR": str(dirs["workspaces"]),
            "JUPYTER_RUNTIME_DIR": str(dirs["runtime"]),
            "IPYTHONDIR": str(dirs["ipython"]),
            "JUPYTER_PLATFORM_DIRS": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        })
        return env

    def start(self) -> "LabServer":
        cmd = [self.python, "-m", "jupyter", "lab", f"--ServerApp.root_dir={self.root_dir}",
               f"--ServerApp.port={self.port}", f"--IdentityProvider.token={self.token}"]
        self.state_dir.mkdir(parents=True, exist_ok=True)
        log = open(self.log_path, "wb")
        try:
            self.proc = subprocess.Popen(cmd, cwd=self.root_dir, env=self.environment(), stdin=subprocess.DEVNULL,
                                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        finally:
            log.close()
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise LabServerError(f"JupyterLab exited with code {self.proc.returncode} while starting:\n"
                                     f"{self.log_tail()}")
            try:
                self.api("GET", "/api/status", timeout=5)
                self.api("GET", "/lab/api/settings", timeout=10)  # the lab extension is loaded too
                return
            except (OSError, LabServerError):
                time.sleep(0.5)
        self.stop()
        raise LabServerError(f"JupyterLab did not answer on {self.base_url} within {self.start_timeout:.0f} s:\n"
                             f"{self.log_tail()}")

    def __enter__(self) -> "LabServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    # ---- REST API --------------------------------------------------------------------------

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base_url}{path}{sep}token={self.token}"

    def api(self, method: str, path: str, body: dict | None = None, timeout: float = 30):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base_url}{path}", data=data, method=method, headers={
            "Authorization": f"token {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                payload = response.read()
        except urllib.error.HTTPError as err:
            raise LabServerError(f"{method} {path}: HTTP {err.code} {err.read()[:300]!r}") from None
        return json.loads(payload) if payload else None

    def workspace_url(self, relpath: str, workspace: str) -> str:
        """The URL opening ``relpath`` in its own, empty workspace (no tabs restored from earlier tests)."""
        return self.url(f"/lab/workspaces/{workspace}/tree/{relpath}")

    def kernels(self) -> list:
        return self.api("GET", "/api/kernels")

    def shutdown_all_kernels(self, timeout: float = 60) -> list[int]:
        """Shut down every session and kernel through the server and wait until their processes are gone.

        Returns the PIDs of kernel processes still alive afterwards (none when all went well).
        """
        pids = self.kernel_pids()
        for session in self.api("GET", "/api/sessions"):
            try:
                self.api("DELETE", f"/api/sessions/{session['id']}", timeout=timeout)
            except LabServerError:
                pass  # already gone
        for kernel in self.kernels():
            try:
                self.api("DELETE", f"/api/kernels/{kernel['id']}", timeout=timeout)
            except LabServerError:
                pass
        procs = []
        for pid in pids:
            try:
                procs.append(psutil.Process(pid))
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(procs, timeout=timeout)
        return [p.pid for p in alive]

    # ---- processes ---------------------------------------------------------------------------

    def remember_descendants(self) -> list[int]:
        """Record the PIDs of the server's current descendants (kernels and their children)."""
        if self.proc is None:
            return []
        try:
            children = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return []
        for child in children:
            try:
                self._seen_pids.setdefault(child.pid, child.create_time())
            except psutil.NoSuchProcess:
                pass
        return [c.pid for c in children]

    def kernel_pids(self) -> list[int]:
        """PIDs of the running kernel processes this server started."""
        pids = []
        for pid in self.remember_descendants():
            try:
                if "ipykernel_launcher" in " ".join(psutil.Process(pid).cmdline()):
                    pids.append(pid)
            except psutil.NoSuchProcess:
                pass
        return pids

    def _alive(self) -> list[psutil.Process]:
        alive = []
        for pid, created in self._seen_pids.items():
            try:
                proc = psutil.Process(pid)
                if proc.create_time() == created and proc.status() != psutil.STATUS_ZOMBIE:
                    alive.append(proc)
            except psutil.NoSuchProcess:
                pass
        return alive

    def stop(self, timeout: float = 20) -> list[str]:
        """Stop the kernels and the server; returns descriptions of processes that survived (none)."""
        if self.proc is None:
            return []
        self._seen_pids.setdefault(self.proc.pid, psutil.Process(self.proc.pid).create_time()
                                   if self.proc.poll() is None else 0.0)
        if self.proc.poll() is None:
            try:
                self.shutdown_all_kernels(timeout=15)
            except (OSError, LabServerError):
                pass  # the server no longer answers: the signals below end everything
        self.remember_descendants()
        for sig in (signal.SIGTERM, signal.SIGKILL):
            groups = {self.proc.pid}
            for proc in self._alive():
                try:
                    pgid = os.getpgid(proc.pid)
                except ProcessLookupError:
                    continue
                if pgid == os.getpgid(0):  # never signal the test run's own group
                    _signal(proc, sig)
                else:
                    groups.add(pgid)
            for pgid in groups:
                try:
                    os.killpg(pgid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                self.proc.wait(timeout=timeout if sig == signal.SIGTERM else 5)
            except subprocess.TimeoutExpired:
                continue
            _, still = psutil.wait_procs(self._alive(), timeout=5)
            if not still:
                break
        survivors = [f"{p.pid} {' '.join(p.cmdline())[:120]}" for p in self._alive()]
        self.proc = None
        return survivors
