"""How many attendees does one machine hold? ``make hub-bench`` (``python hub/classroom/bench.py --sizes 1 5 10 20``).

For each class size N it starts a fresh hub on loopback (free ports, a temporary state folder, the spawner
``make hub`` would choose here: ``simple`` as an ordinary user, ``local`` as root, with temporary accounts that are
removed afterwards), then N simulated attendees at once, each in a thread: log in through the form, start a server,
open a kernel on notebook 00 and run its first code cells (the runtime setup, MindSpore's import, ``run_check``).
It prints, per N: the spawn time (request to ready) p50/p95, the cells' time p50/p95, the memory per attendee
after their cells ran (PSS of the attendee's server and kernel processes: shared pages counted once) and the drop
of the machine's MemAvailable divided by N, the errors, and the load average. Everything it sends goes to
127.0.0.1; every wait is bounded (``--timeout``); the hub and every server are stopped at the end, also on errors.

A benchmark, not a test: it prints figures (docs/classroom-server.md quotes them with the machine they came from).
"""

from __future__ import annotations

import argparse
import os
import platform
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Dict, List

import psutil
import requests

HUB_DIR = Path(__file__).resolve().parent.parent
if str(HUB_DIR) not in sys.path:
    sys.path.insert(0, str(HUB_DIR))

from classroom import access  # noqa: E402
from classroom.client import Attendee, stop_group  # noqa: E402
from course_utils.ports import free_port  # noqa: E402

NOTEBOOK = "00_environment_setup.ipynb"
GIB = 1024 ** 3


def _mem_available() -> int:
    return psutil.virtual_memory().available


def _pss(proc: psutil.Process) -> int:
    try:
        info = proc.memory_full_info()
        return getattr(info, "pss", info.rss)
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return 0


def _attendee_memory(hub: psutil.Process) -> Dict[str, int]:
    """Attendee name -> PSS of their server and everything it started (kernels, their children)."""
    found: Dict[str, int] = {}
    for proc in hub.children(recursive=True):
        try:
            env = proc.environ()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        name = env.get("JUPYTERHUB_USER")
        if name and "jupyterhub-singleuser" in " ".join(proc.cmdline()):
            found[name] = _pss(proc) + sum(_pss(p) for p in proc.children(recursive=True))
    return found


def _quantile(values: List[float], q: float) -> float:
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


class Hub:
    """A hub started for one measurement, stopped (with every server) by ``stop``."""

    def __init__(self, workdir: Path, admin_password: str, **extra):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "hub.log"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("HUB_", "JUPYTERHUB_"))}
        env.update(HUB_IP="127.0.0.1", HUB_PORT=str(self.port), HUB_API_PORT=str(free_port()),
                   HUB_PROXY_API_PORT=str(free_port()), HUB_SERVICE_PORT=str(free_port()),
                   HUB_DATA=str(workdir), HUB_ADMIN_PASSWORD=admin_password, HUB_CPU_LIMIT="1",
                   HUB_MEM_LIMIT="4G", HUB_IDLE_TIMEOUT="3600", COURSE_PROGRESS="0", **extra)
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", "jupyterhub_config.py"],
                                     cwd=HUB_DIR, env=env, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True)
        deadline = time.monotonic() + 120
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError("the hub exited:\n" + self.log_path.read_text()[-3000:])
            try:
                if requests.get(self.base + "/hub/health", timeout=5).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError("the hub did not come up:\n" + self.log_path.read_text()[-3000:])
            time.sleep(0.5)

    def stop(self) -> None:
        stop_group(self.proc, grace=90)
        self.log.close()


def measure(n: int, cells: int, timeout: float, workdir: Path) -> dict:
    tag = secrets.token_hex(2)
    names = [f"hb{tag}n{i:02d}" for i in range(1, n + 1)]
    admin = f"hb{tag}admin"
    group, opened = "", []
    if os.getuid() == 0:   # the temporary accounts may enter the course's folders (access.py), nobody else
        group = f"hb{tag}"
        opened = access.grant(group, access.python_and_course(Path(sys.prefix)))
    results: Dict[str, dict] = {}
    try:
        hub = Hub(workdir, secrets.token_urlsafe(16), HUB_ADMINS=admin, **({"HUB_GROUP": group} if group else {}))
    except BaseException:
        if group:
            access.revoke(group, opened)
        raise
    try:
        time.sleep(2)
        before = _mem_available()

        def one(name: str) -> None:
            try:
                attendee = Attendee(hub.base, name, secrets.token_urlsafe(9)).log_in(timeout=timeout)
                spawn = attendee.start_server(timeout=timeout)
                attendee.open_kernel(NOTEBOOK)
                code = attendee.notebook_cells(NOTEBOOK)[:cells]
                started = time.monotonic()
                outcome = attendee.run(code, timeout=timeout)
                results[name] = {"spawn": spawn, "cells": time.monotonic() - started, "errors": outcome["errors"]}
            except Exception as err:   # counted and printed, the others go on
                results[name] = {"errors": [f"{type(err).__name__}: {err}"]}

        threads = [threading.Thread(target=one, args=(name,), daemon=True) for name in names]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=timeout * 3)
        time.sleep(2)
        memory = _attendee_memory(psutil.Process(hub.proc.pid))
        after = _mem_available()
        load = os.getloadavg()
    finally:
        hub.stop()
        if os.getuid() == 0:
            for name in [*names, admin]:
                subprocess.run(["userdel", "--remove", name], capture_output=True)
            access.revoke(group, opened)
    ok = [r for r in results.values() if not r.get("errors")]
    return {"n": n, "ok": len(ok), "errors": sorted({e for r in results.values() for e in r.get("errors", [])}),
            "spawn": [r["spawn"] for r in ok], "cells": [r["cells"] for r in ok],
            "pss": statistics.mean(memory.values()) if memory else float("nan"),
            "drop": (before - after) / n, "load": load}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="make hub-bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 5, 10, 20], help="class sizes N to measure")
    parser.add_argument("--cells", type=int, default=6, help="how many of notebook 00's code cells each runs")
    parser.add_argument("--timeout", type=float, default=600, help="seconds any one wait may take")
    args = parser.parse_args(argv)
    if any(not 1 <= n <= 40 for n in args.sizes):
        parser.error("each size must be between 1 and 40 (a loopback benchmark, bounded)")
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
               platform.processor())
    print(f"machine: {cpu}, {os.cpu_count()} cores, {psutil.virtual_memory().total / GIB:.1f} GiB; "
          f"spawner: {'local (one account each)' if os.getuid() == 0 else 'simple'}; "
          f"each attendee runs the first {args.cells} code cells of {NOTEBOOK}")
    print(f"{'N':>3} {'ok':>3} {'spawn p50':>10} {'spawn p95':>10} {'cells p50':>10} {'cells p95':>10} "
          f"{'PSS/attendee':>13} {'MemAvail drop/att.':>19}  load avg (1, 5, 15 min)")
    rows = []
    for n in args.sizes:
        with tempfile.TemporaryDirectory(prefix="hub-bench-") as tmp:
            row = measure(n, args.cells, args.timeout, Path(tmp))
        rows.append(row)
        fmt = lambda xs, q: f"{_quantile(xs, q):.1f} s" if xs else "-"
        print(f"{n:>3} {row['ok']:>3} {fmt(row['spawn'], .5):>10} {fmt(row['spawn'], .95):>10} "
              f"{fmt(row['cells'], .5):>10} {fmt(row['cells'], .95):>10} {row['pss'] / GIB * 1024:>10.0f} MiB "
              f"{row['drop'] / GIB * 1024:>15.0f} MiB  " + ", ".join(f"{x:.2f}" for x in row["load"]), flush=True)
        for error in row["errors"][:5]:
            print(f"      error: {error}")
    largest = max((r for r in rows if r["ok"] == r["n"]), key=lambda r: r["n"], default=None)   # every attendee ran
    if largest:
        per = max(largest["pss"], largest["drop"])
        print(f"\nAt N = {largest['n']}: about {8 * GIB / per:.0f} attendees per 8 GiB (by the larger of PSS and the "
              f"MemAvailable drop, {per / GIB * 1024:.0f} MiB each after notebook 00's first cells); "
              f"spawn p95 {_quantile(largest['spawn'], .95):.1f} s, "
              f"cells p95 {_quantile(largest['cells'], .95):.1f} s.")
    return 0 if all(not r["errors"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
