"""The classroom server (`make hub`, hub/jupyterhub_config.py), on loopback only.

The slow test starts the real JupyterHub with its configurable-http-proxy through `make hub`, then two
attendees log in with the class password through the login form, start their servers through the hub's
REST API, and run every code cell of notebook 00 at the same time, each in their own copy, through their
single-user server's kernel websocket (everything goes through the proxy on HUB_PORT). Then each tries to
read the other's notebooks and must be refused. Finally the idle culler must stop both servers.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

import pytest

requests = pytest.importorskip("requests")

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "class-password-for-tests"
USERS = ("alice", "bob")
NOTEBOOK = "00_environment_setup.ipynb"
#: The culler's timeout in the test (30 s: checks every 10 s, the config's floor), short so that the culling test
#: waits ~45 s instead of ~80 s, long enough that the running attendees (notebook 00: no silent cell near
#: 30 s) are never idle that long before the culling test.
IDLE_TIMEOUT = 30


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_config_refuses_to_start_without_a_class_password(tmp_path):
    """Without HUB_PASSWORD the shared-password hub would let anyone in: the config exits with the fix."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUB_")}
    env.update(HUB_STATE=str(tmp_path), HUB_PASSWORD="")
    code = ("import runpy, traitlets.config as tc; cfg = tc.Config(); "
            "runpy.run_path('hub/jupyterhub_config.py', init_globals={'get_config': lambda: cfg})")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True)
    assert result.returncode != 0 and "set HUB_PASSWORD" in result.stderr


def test_config_sets_kernel_copy_limits_and_culler(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUB_")}
    env.update(HUB_STATE=str(tmp_path), HUB_PASSWORD=PASSWORD, HUB_CPU_LIMIT="2", HUB_MEM_LIMIT="3G")
    code = ("import json, runpy, traitlets.config as tc; cfg = tc.Config(); "
            "runpy.run_path('hub/jupyterhub_config.py', init_globals={'get_config': lambda: cfg}); "
            "s = cfg.Spawner; print(json.dumps({'cmd': s.cmd, 'cpu': s.cpu_limit, 'mem': s.mem_limit, "
            "'env': s.environment, 'hook': s.pre_spawn_hook.__name__, 'ip': cfg.JupyterHub.ip, "
            "'services': cfg.JupyterHub.services}))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=True)
    cfg = json.loads(result.stdout)
    assert cfg["cmd"] == [str(ROOT / ".venv" / "bin" / "jupyterhub-singleuser")]
    assert cfg["cpu"] == 2.0 and cfg["mem"] == "3G" and cfg["env"]["OMP_NUM_THREADS"] == "2"
    assert cfg["env"]["JUPYTER_PATH"] == str(ROOT / ".venv" / "share" / "jupyter")
    assert cfg["hook"] == "copy_lessons" and cfg["ip"] == "127.0.0.1"
    assert "jupyterhub_idle_culler" in cfg["services"][0]["command"]


@pytest.mark.parametrize("spawner, auth, expected", [
    ("simple", "shared-password", "simple"),
    ("local", "pam", "localprocess"),
    ("systemd", "pam", "systemdspawner.SystemdSpawner"),
])
def test_config_spawner_choices(tmp_path, spawner, auth, expected):
    """The isolating spawners of docs/classroom-server.md load (they are not started here: they need real
    accounts or systemd)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HUB_")}
    env.update(HUB_STATE=str(tmp_path), HUB_PASSWORD=PASSWORD, HUB_SPAWNER=spawner, HUB_AUTH=auth)
    code = ("import runpy, traitlets.config as tc; cfg = tc.Config(); "
            "runpy.run_path('hub/jupyterhub_config.py', init_globals={'get_config': lambda: cfg}); "
            "print(cfg.JupyterHub.spawner_class, cfg.JupyterHub.authenticator_class)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            check=True)
    assert result.stdout.split() == [expected, "dummy" if auth == "shared-password" else "pam"]
    if spawner == "systemd":
        assert "jupyterhub-systemdspawner==" in (ROOT / "requirements-hub.txt").read_text()


# ------------------------------------------------------------------------------------------------
# The real hub
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    if not shutil.which("npm") or not shutil.which("node"):
        pytest.skip("the hub's proxy needs Node.js >= 20 and npm (Debian: apt-get install nodejs npm)")
    subprocess.run(["make", "hub-setup"], cwd=ROOT, check=True, timeout=1800)
    tmp = tmp_path_factory.mktemp("hub")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HUB_", "JUPYTERHUB_"))}
    env.update(HUB_IP="127.0.0.1", HUB_PORT=str(port), HUB_API_PORT=str(_free_port()),
               HUB_PROXY_API_PORT=str(_free_port()), HUB_STATE=str(tmp / "state"), HUB_HOMES=str(tmp / "homes"),
               HUB_PASSWORD=PASSWORD, HUB_IDLE_TIMEOUT=str(IDLE_TIMEOUT), HUB_CPU_LIMIT="1", HUB_MEM_LIMIT="4G")
    log = open(tmp / "hub.log", "w+")
    proc = subprocess.Popen(["make", "hub"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    try:
        while True:
            assert proc.poll() is None, "the hub exited:\n" + (tmp / "hub.log").read_text()[-4000:]
            try:
                if requests.get(base + "/hub/health", timeout=5).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            assert time.monotonic() < deadline, "the hub did not come up:\n" + (tmp / "hub.log").read_text()[-4000:]
            time.sleep(1)
        yield {"base": base, "homes": tmp / "homes", "log": tmp / "hub.log", "proc": proc}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def _xsrf(session, path_prefix: str) -> str:
    for cookie in session.cookies:
        if cookie.name == "_xsrf" and path_prefix.startswith(cookie.path.rstrip("/") or "/"):
            return cookie.value
    raise AssertionError(f"no _xsrf cookie for {path_prefix}: {[(c.name, c.path) for c in session.cookies]}")


def login(base: str, name: str, password: str):
    """The login form, as a browser submits it; returns (session, response)."""
    session = requests.Session()
    session.get(base + "/hub/login", timeout=30).raise_for_status()
    response = session.post(base + "/hub/login", data={"username": name, "password": password,
                                                      "_xsrf": _xsrf(session, "/hub/")},
                            allow_redirects=False, timeout=30)
    return session, response


def _execute_request(code: str, session_id: str) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "username": "test", "session": session_id,
                       "msg_type": "execute_request", "version": "5.3",
                       "date": datetime.now(timezone.utc).isoformat()},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}


async def run_cells(ws_url: str, token: str, cells, timeout: float = 600) -> list:
    """Run the cells one by one over the kernel's websocket; returns the errors (ename: evalue) seen."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect
    conn = await websocket_connect(HTTPRequest(ws_url, headers={"Authorization": f"token {token}"}),
                                   max_message_size=64 * 1024 * 1024)
    session_id, errors = uuid.uuid4().hex, []
    try:
        for code in cells:
            msg = _execute_request(code, session_id)
            await conn.write_message(json.dumps(msg))
            while True:
                raw = await asyncio.wait_for(conn.read_message(), timeout)
                assert raw is not None, "the kernel websocket closed"
                if isinstance(raw, bytes):
                    continue
                reply = json.loads(raw)
                if reply.get("parent_header", {}).get("msg_id") != msg["header"]["msg_id"]:
                    continue
                if reply["msg_type"] == "error":
                    errors.append(f"{reply['content']['ename']}: {reply['content']['evalue']}")
                if reply["channel"] == "shell" and reply["msg_type"] == "execute_reply":
                    if reply["content"]["status"] != "ok" and not errors:
                        errors.append(str(reply["content"]))
                    break
            if errors:
                break
    finally:
        conn.close()
    return errors


def attendee(hub, name: str, barrier: threading.Barrier, results: dict) -> None:
    base = hub["base"]
    session, response = login(base, name, PASSWORD)
    assert response.status_code == 302, (name, response.status_code)
    # A token of their own (the browser would use its cookies; a token is simpler for the websocket).
    response = session.post(f"{base}/hub/api/users/{name}/tokens", json={"note": "test", "expires_in": 900},
                            headers={"X-XSRFToken": _xsrf(session, "/hub/")}, timeout=30)
    assert response.status_code == 201, response.text
    token = response.json()["token"]
    auth = {"Authorization": f"token {token}"}
    response = requests.post(f"{base}/hub/api/users/{name}/server", headers=auth, timeout=60)
    assert response.status_code in (201, 202), response.text
    deadline = time.monotonic() + 300
    while not requests.get(f"{base}/hub/api/users/{name}", headers=auth, timeout=30).json()[
            "servers"].get("", {}).get("ready"):
        assert time.monotonic() < deadline, f"{name}'s server did not start"
        time.sleep(1)
    server = f"{base}/user/{name}"
    listing = requests.get(f"{server}/api/contents/", headers=auth, timeout=30)
    assert listing.status_code == 200 and NOTEBOOK in {c["name"] for c in listing.json()["content"]}
    notebook = requests.get(f"{server}/api/contents/{NOTEBOOK}", headers=auth, timeout=30).json()["content"]
    cells = [c["source"] for c in notebook["cells"] if c["cell_type"] == "code"]
    requests.put(f"{server}/api/contents/{name}_was_here.txt", headers=auth, timeout=30,
                 json={"type": "file", "format": "text", "content": name}).raise_for_status()
    kernel = requests.post(f"{server}/api/sessions", headers=auth, timeout=120,
                           json={"path": NOTEBOOK, "type": "notebook", "name": NOTEBOOK,
                                 "kernel": {"name": "python3"}}).json()["kernel"]
    barrier.wait(timeout=600)                 # both kernels are up: run the lesson at the same time
    start = time.monotonic()
    ws_url = f"{server.replace('http', 'ws', 1)}/api/kernels/{kernel['id']}/channels"
    errors = asyncio.run(run_cells(ws_url, token, cells))
    results[name] = {"session": session, "auth": auth, "errors": errors, "cells": len(cells),
                     "start": start, "end": time.monotonic()}


@pytest.mark.slow
def test_two_attendees_run_notebook_00_concurrently_in_their_own_copies(hub):
    started = time.monotonic()
    barrier, results, failures = threading.Barrier(len(USERS)), {}, {}

    def run(name):
        try:
            attendee(hub, name, barrier, results)
        except BaseException as err:   # (reported below with the hub's log)
            failures[name] = repr(err)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(name,)) for name in USERS]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=1800)
    assert not failures, f"{failures}\n{hub['log'].read_text()[-4000:]}"
    for name in USERS:
        assert results[name]["errors"] == [], (name, results[name]["errors"])
        assert results[name]["cells"] > 5
    # they really ran at the same time
    alice, bob = results["alice"], results["bob"]
    assert alice["start"] < bob["end"] and bob["start"] < alice["end"]
    # each ran their own copy, made on first start
    for name in USERS:
        copy = hub["homes"] / name / "notebooks"
        assert (copy / NOTEBOOK).is_file() and (copy / f"{name}_was_here.txt").is_file()
        other = [u for u in USERS if u != name][0]
        assert not (copy / f"{other}_was_here.txt").exists()
    hub["results"] = results
    print(f"\nhub: two attendees logged in and ran notebook 00 concurrently in {time.monotonic() - started:.0f} s "
          f"(notebook: alice {alice['end'] - alice['start']:.0f} s, bob {bob['end'] - bob['start']:.0f} s)")


@pytest.mark.slow
def test_attendees_cannot_open_each_others_notebooks(hub):
    base = hub["base"]
    results = hub.get("results")
    if not results:
        pytest.skip("needs the servers of the concurrent-run test")
    for name, other in (("alice", "bob"), ("bob", "alice")):
        mine = results[name]
        # with their token ...
        for url in (f"{base}/user/{other}/api/contents/", f"{base}/user/{other}/api/contents/{NOTEBOOK}",
                    f"{base}/hub/api/users/{other}"):
            response = requests.get(url, headers=mine["auth"], timeout=30)
            assert response.status_code in (403, 404), (name, url, response.status_code, response.text[:300])
        # ... and with their browser cookies (which follow the hub's OAuth redirects)
        response = mine["session"].get(f"{base}/user/{other}/api/contents/{NOTEBOOK}", timeout=30)
        assert response.status_code in (403, 404), (name, response.status_code, response.url)
        assert '"cells"' not in response.text
    # a wrong password does not log in
    _, response = login(base, "mallory", "wrong-password")
    assert response.status_code != 302


@pytest.mark.slow
def test_idle_culler_stops_unused_servers(hub):
    if not hub.get("results"):
        pytest.skip("needs the servers of the concurrent-run test")
    # shut the kernels down so that nothing counts as activity any more
    for name in USERS:
        auth = hub["results"][name]["auth"]
        for kernel in requests.get(f"{hub['base']}/user/{name}/api/kernels", headers=auth, timeout=30).json():
            requests.delete(f"{hub['base']}/user/{name}/api/kernels/{kernel['id']}", headers=auth, timeout=60)
    deadline = time.monotonic() + IDLE_TIMEOUT * 4
    remaining = set(USERS)
    while remaining and time.monotonic() < deadline:
        time.sleep(10)
        for name in list(remaining):
            user = requests.get(f"{hub['base']}/hub/api/users/{name}", headers=hub["results"][name]["auth"],
                                timeout=30).json()
            if not user["servers"]:
                remaining.discard(name)
    assert not remaining, f"still running after {IDLE_TIMEOUT * 4} s: {remaining}\n{hub['log'].read_text()[-3000:]}"
    assert "idle-culler" in hub["log"].read_text()
