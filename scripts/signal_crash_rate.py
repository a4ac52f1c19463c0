"""How often a Ctrl-C in mid-step crashes a MindSpore process, with and without ``signals_held``.

    python scripts/signal_crash_rate.py                      # 40 runs each way, alternated; ~7 min on a 2-core CPU
    python scripts/signal_crash_rate.py --signal SIGTERM     # a plain `kill` instead of Kernel > Interrupt
    python scripts/signal_crash_rate.py --host-blocking off  # without MS_DEV_HOST_BLOCKING_RUN
    python scripts/signal_crash_rate.py --runs 10            # a quick try

Each run starts tests/programs/signal_during_step.py (GRAPH_MODE ``TrainOneStepCell`` steps back to back, handlers
for SIGINT and SIGTERM) in a fresh process with the course's CPU settings (``runtime.cpu_fix_env``: host blocking
on unless ``--host-blocking off``), waits 2 s into the steps and sends it a SIGINT, as Kernel > Interrupt does (or
``--signal``). A run ends well when the loop
stops after its step and the process exits 0; otherwise the script counts the signal that killed it and keeps the
last line of its stderr (glibc's "corrupted size vs. prev_size while consolidating" is heap corruption). Held and
unheld runs alternate, so both see the same machine; the course's header line (machine, versions, load) comes
first and the load average after: more load, more crashes.
"""

from __future__ import annotations

import argparse
import collections
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from course_utils import runtime
from course_utils.bench.report import header, load_average

CHILD = Path(__file__).resolve().parent.parent / "tests" / "programs" / "signal_during_step.py"


def one_run(held: bool, env: dict, sig: signal.Signals = signal.SIGINT) -> str:
    """One child, one ``sig`` 2 s into its steps: "stopped after its step", or how it died."""
    args = [sys.executable, str(CHILD), "SIGINT", "SIGTERM"] + ([] if held else ["--unheld"])
    child = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        if child.stdout.readline().strip() != "READY":
            return "never ready"
        time.sleep(2)
        child.send_signal(sig)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    if child.returncode == 0 and out.startswith("STOPPED"):
        return "stopped after its step"
    if child.returncode < 0:
        last = (err.strip().splitlines() or [""])[-1]
        return f"killed by {signal.Signals(-child.returncode).name}" + (f": {last}" if last else "")
    return f"exit {child.returncode}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40, help="runs each way (default 40)")
    parser.add_argument("--signal", choices=("SIGINT", "SIGTERM"), default="SIGINT", help="the signal sent")
    parser.add_argument("--host-blocking", choices=("on", "off"), default="on",
                        help="MS_DEV_HOST_BLOCKING_RUN=1 in the children or not (default on)")
    args = parser.parse_args(argv)
    fixes = runtime.cpu_fix_env("CPU")
    if args.host_blocking == "off":
        fixes.pop("MS_DEV_HOST_BLOCKING_RUN", None)
    env = {k: v for k, v in os.environ.items() if k != "MS_DEV_HOST_BLOCKING_RUN"}
    env.update(runtime.quiet_env(), **fixes)
    sig = signal.Signals[args.signal]
    print(header(env=False))   # this machine, the versions, the load average before
    print(f"signal {sig.name} | the children's env: "
          f"{' '.join(f'{k}={v}' for k, v in sorted(fixes.items())) or '(no CPU settings)'}", flush=True)
    outcomes = {True: collections.Counter(), False: collections.Counter()}
    for _ in range(args.runs):
        for held in (False, True):
            outcomes[held][one_run(held, env, sig)] += 1
    print(f"load average after: {load_average()}")
    for held, counts in outcomes.items():
        print(f"\n{'with signals_held' if held else 'without (unheld)'}: {args.runs} runs")
        for outcome, n in counts.most_common():
            print(f"  {n:3d}  {outcome}")


if __name__ == "__main__":
    main()
