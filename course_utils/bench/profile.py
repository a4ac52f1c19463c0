"""Reading MindSpore's profiler output back (``mindspore.profiler.profile`` on CPU).

On CPU, ``tensorboard_trace_handler(DIR)`` leaves one folder per run,
``DIR/<host>_<pid>_<time>_ascend_ms/``, holding:

* ``FRAMEWORK/cpu_op_type_info_0.csv``: per operator *type* (Conv2D, MatMul...): calls, total and mean ms;
* ``FRAMEWORK/cpu_op_detail_info_0.csv``: per operator *instance* (``Default/network-.../conv1-Conv2d/Conv2D-op0``);
* ``ASCEND_PROFILER_OUTPUT/trace_view.json``: a Chrome-trace timeline (chrome://tracing, Perfetto,
  or MindStudio Insight, which also opens the whole folder).
"""

from __future__ import annotations

import csv
import glob
import os
from typing import List

__all__ = ["latest_run", "ms_per_step", "op_type_times", "output_files", "share_pct"]


def latest_run(root: str) -> str:
    """The newest ``*_ascend_ms`` folder the profiler wrote under ``root``."""
    runs = sorted(glob.glob(os.path.join(root, "*_ascend_ms")), key=os.path.getmtime)
    if not runs:
        raise FileNotFoundError(f"no profiler output (*_ascend_ms folder) under {root!r}: did the profiled steps "
                                "run, and did the schedule reach its active steps?")
    return runs[-1]


def op_type_times(run_dir: str) -> List[dict]:
    """Rows ``{"op_type", "calls", "calls_per_step", "total_ms", "mean_ms", "share_pct"}`` from a run's
    ``cpu_op_type_info_*.csv``, largest total first."""
    files = sorted(glob.glob(os.path.join(run_dir, "FRAMEWORK", "cpu_op_type_info_*.csv")))
    if not files:
        raise FileNotFoundError(f"no FRAMEWORK/cpu_op_type_info_*.csv in {run_dir!r} (CPU profiling, analysed?)")
    rows = []
    for path in files:
        with open(path, newline="", encoding="utf-8") as fh:
            for rec in csv.DictReader(fh):
                rows.append({"op_type": rec["op_type"], "calls": int(rec["type_occurrences"]),
                             "calls_per_step": int(rec["execution_frequency(per-step)"]),
                             "total_ms": float(rec["total_compute_time"]), "mean_ms": float(rec["avg_time(ms)"])})
    total = sum(r["total_ms"] for r in rows) or 1.0
    for r in rows:
        r["share_pct"] = 100 * r["total_ms"] / total
    return sorted(rows, key=lambda r: -r["total_ms"])


def ms_per_step(rows: List[dict], op_types) -> float:
    """Milliseconds per step spent in the operator types ``op_types``, from ``op_type_times`` rows: each type's total
    over the steps recorded (its calls divided by its calls per step)."""
    return sum(r["total_ms"] / max(1, r["calls"] // r["calls_per_step"]) for r in rows if r["op_type"] in op_types)


def share_pct(rows: List[dict], op_types) -> float:
    """The share of operator time, in percent, spent in the operator types ``op_types``."""
    return sum(r["share_pct"] for r in rows if r["op_type"] in op_types)


def output_files(run_dir: str) -> List[str]:
    """The files of one profiler run, relative to it (to show where the profile landed)."""
    found = []
    for base, _, files in os.walk(run_dir):
        found += [os.path.relpath(os.path.join(base, f), run_dir) for f in files]
    return sorted(found)
