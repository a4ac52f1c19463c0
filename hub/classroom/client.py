"""An attendee, as the hub sees one: the login form, a token, a server, a kernel running cells over its websocket.

The one home of this client: ``tests/repo/test_hub*.py`` drive attendees with it, and so does the capacity benchmark
(``bench.py``). Everything goes through the hub's public port (the proxy), as a browser's requests would.
Needs ``requests`` and ``tornado`` (both in the course's environment).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import signal
import subprocess
import time
import uuid
from datetime import datetime, timezone
from typing import Iterable, List, Optional

import requests

__all__ = ["Attendee", "login", "run_cells", "stop_group", "xsrf"]


def xsrf(session: requests.Session, path_prefix: str = "/hub/") -> str:
    """The ``_xsrf`` cookie the hub set for ``path_prefix`` (what its forms and API calls must echo)."""
    for cookie in session.cookies:
        if cookie.name == "_xsrf" and path_prefix.startswith(cookie.path.rstrip("/") or "/"):
            return cookie.value
    raise AssertionError(f"no _xsrf cookie for {path_prefix}: {[(c.name, c.path) for c in session.cookies]}")


def login(base: str, name: str, password: str, timeout: float = 30):
    """The login form, as a browser submits it; returns (session, response). 302 means logged in. ``timeout``
    bounds each request (a hub busy hashing twenty first-use passwords at once answers late, not never)."""
    session = requests.Session()
    session.get(base + "/hub/login", timeout=timeout).raise_for_status()
    response = session.post(base + "/hub/login", data={"username": name, "password": password,
                                                      "_xsrf": xsrf(session)},
                            allow_redirects=False, timeout=timeout)
    return session, response


def _execute_request(code: str, session_id: str) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "username": "attendee", "session": session_id,
                       "msg_type": "execute_request", "version": "5.3",
                       "date": datetime.now(timezone.utc).isoformat()},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}


async def run_cells(ws_url: str, token: str, cells: Iterable[str], timeout: float = 600) -> dict:
    """Run the cells one by one over a kernel's websocket; returns ``{"errors": [...], "stdout": "..."}``."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    conn = await websocket_connect(HTTPRequest(ws_url, headers={"Authorization": f"token {token}"}),
                                   max_message_size=64 * 1024 * 1024)
    session_id, errors, stdout = uuid.uuid4().hex, [], []
    try:
        for code in cells:
            msg = _execute_request(code, session_id)
            await conn.write_message(json.dumps(msg))
            replied = idle = False
            while not (replied and idle):   # the reply (shell) and the end of its output (iopub) may come in any order
                raw = await asyncio.wait_for(conn.read_message(), timeout)
                if raw is None:
                    raise ConnectionError("the kernel websocket closed")
                if isinstance(raw, bytes):
                    continue
                reply = json.loads(raw)
                if reply.get("parent_header", {}).get("msg_id") != msg["header"]["msg_id"]:
                    continue
                kind = reply["msg_type"]
                if kind == "error":
                    errors.append(f"{reply['content']['ename']}: {reply['content']['evalue']}")
                elif kind == "stream" and reply["content"].get("name") == "stdout":
                    stdout.append(reply["content"]["text"])
                elif kind in ("display_data", "execute_result"):
                    stdout.append(reply["content"].get("data", {}).get("text/plain", "") + "\n")
                elif kind == "status" and reply["content"].get("execution_state") == "idle":
                    idle = True
                if reply["channel"] == "shell" and kind == "execute_reply":
                    replied = True
                    if reply["content"]["status"] != "ok" and not errors:
                        errors.append(str(reply["content"]))
            if errors:
                break
    finally:
        conn.close()
    return {"errors": errors, "stdout": "".join(stdout)}


class Attendee:
    """One attendee of the hub at ``base``: ``log_in``, ``start_server``, ``open_kernel``, ``run``."""

    def __init__(self, base: str, name: str, password: str):
        self.base, self.name, self.password = base, name, password
        self.session: Optional[requests.Session] = None
        self.token = ""
        self.kernel_id = ""

    @property
    def auth(self) -> dict:
        return {"Authorization": f"token {self.token}"}

    @property
    def server(self) -> str:
        return f"{self.base}/user/{self.name}"

    def log_in(self, timeout: float = 30) -> "Attendee":
        """The login form, then a token of their own (expiring in 30 min) for the API and the websocket; each
        request waits at most ``timeout`` seconds."""
        self.session, response = login(self.base, self.name, self.password, timeout)
        if response.status_code != 302:
            raise AssertionError(f"{self.name}: login answered {response.status_code}")
        response = self.session.post(f"{self.base}/hub/api/users/{self.name}/tokens",
                                     json={"note": "attendee", "expires_in": 1800},
                                     headers={"X-XSRFToken": xsrf(self.session)}, timeout=timeout)
        if response.status_code != 201:
            raise AssertionError(f"{self.name}: token answered {response.status_code}: {response.text[:200]}")
        self.token = response.json()["token"]
        return self

    def start_server(self, timeout: float = 300) -> float:
        """Ask the hub for their server and wait until it is ready; returns the seconds it took."""
        started = time.monotonic()
        response = requests.post(f"{self.base}/hub/api/users/{self.name}/server", headers=self.auth, timeout=60)
        if response.status_code not in (201, 202, 400):   # 400: already running
            raise AssertionError(f"{self.name}: spawn answered {response.status_code}: {response.text[:300]}")
        while True:
            user = requests.get(f"{self.base}/hub/api/users/{self.name}", headers=self.auth, timeout=30).json()
            server = user.get("servers", {}).get("", {})
            if server.get("ready"):
                return time.monotonic() - started
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"{self.name}'s server was not ready after {timeout:.0f} s")
            time.sleep(0.25)

    def notebook_cells(self, path: str) -> List[str]:
        response = requests.get(f"{self.server}/api/contents/{path}", headers=self.auth, timeout=60)
        response.raise_for_status()
        return [c["source"] for c in response.json()["content"]["cells"] if c["cell_type"] == "code"]

    def open_kernel(self, path: str) -> str:
        response = requests.post(f"{self.server}/api/sessions", headers=self.auth, timeout=120,
                                 json={"path": path, "type": "notebook", "name": path, "kernel": {"name": "python3"}})
        response.raise_for_status()
        self.kernel_id = response.json()["kernel"]["id"]
        return self.kernel_id

    def run(self, cells: Iterable[str], timeout: float = 600) -> dict:
        ws_url = f"{self.server.replace('http', 'ws', 1)}/api/kernels/{self.kernel_id}/channels"
        cells = list(cells)
        go = lambda: asyncio.run(run_cells(ws_url, self.token, cells, timeout))
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return go()
        # called where an event loop already runs (Playwright's sync API): run it on a thread of its own
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(go).result()

    def stop_server(self) -> None:
        requests.delete(f"{self.base}/hub/api/users/{self.name}/server", headers=self.auth, timeout=60)


def stop_group(proc: subprocess.Popen, grace: float = 60) -> None:
    """Stop a hub started with ``start_new_session`` (it, its proxy, its services, its servers), by its PID's group:
    SIGTERM, then SIGKILL after ``grace`` seconds."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
