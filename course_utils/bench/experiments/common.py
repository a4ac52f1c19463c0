"""Small pieces the experiments share: worker-side setup and comparing two measured rows."""

from __future__ import annotations

from typing import Mapping

from course_utils import runtime
from course_utils.i18n import tr

from ..harness import ranges_overlap, verdict


def setup_worker(params, mode: str = "graph") -> None:
    """Worker-side runtime setup: the environment was prepared by the parent, so no fixes are added."""
    runtime.setup(device=params.device, mode=mode, seed=params.seed, cpu_fixes=False, verbose=False)


def compared(a: Mapping, b: Mapping, key: str = "steps_per_s") -> str:
    """ "1.8x faster than" / "0.6x, slower than" / "within the spread of", for a sentence about ``a`` vs ``b``."""
    r = a[key] / b[key]
    if ranges_overlap(a, b, key):
        return tr("{r:.2f}x, within the repeat-to-repeat spread of", r=r)
    return tr("{r:.1f}x, faster than", r=r) if r > 1 else tr("{r:.2f}x, slower than", r=r)


def judged(a: Mapping, b: Mapping, noise_pct: float, key: str = "steps_per_s") -> str:
    """``verdict`` (the lab's two rules) on row ``a`` against row ``b``, as words for a sentence in the lesson's
    language: "a tie within the noise floor of N%", "undecided: the repeats' ranges overlap", "faster", "slower"."""
    return {"tie": tr("a tie within the noise floor of {noise:.0f}%", noise=noise_pct),
            "undecided": tr("undecided: the repeats' ranges overlap"),
            "faster": tr("faster"), "slower": tr("slower")}[verdict(a, b, noise_pct, key)]


def spread_pct(row: Mapping, key: str = "steps_per_s") -> float:
    """Half a row's min-max range in percent of its median (its repeat-to-repeat spread)."""
    return 50.0 * (row.get(f"max_{key}", row[key]) - row.get(f"min_{key}", row[key])) / row[key]
