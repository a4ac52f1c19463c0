"""Run the course with papermill and collect a report (`make run`). Placeholder for issue 2's runner:
``record()`` is the part notebooks use."""

from __future__ import annotations

import json
import os

#: Set by the runner for each notebook it executes; ``record`` merges metrics into that JSON file.
METRICS_ENV = "COURSE_METRICS_FILE"

_recorded: dict = {}


def record(**metrics) -> dict:
    """Record a notebook's key metrics (numbers or short strings) for the run summary."""
    _recorded.update(metrics)
    path = os.environ.get(METRICS_ENV)
    if path:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(_recorded, fh, indent=1, default=float)
        os.replace(tmp, path)
    return dict(_recorded)
