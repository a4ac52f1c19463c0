"""Small pieces the experiments share: worker-side setup and comparing two measured rows."""

from __future__ import annotations

from typing import Mapping

from course_utils import runtime
from course_utils.i18n import tr

from ..harness import faster_beyond


def setup_worker(params, mode: str = "graph") -> None:
    """Worker-side runtime setup: the environment was prepared by the parent, so no fixes are added."""
    runtime.setup(device=params.device, mode=mode, seed=params.seed, cpu_fixes=False, verbose=False)


def beyond_spread(a: Mapping, b: Mapping, key: str = "steps_per_s") -> bool:
    """True when rows ``a`` and ``b`` differ by more than their repeat-to-repeat spread: their
    min-max ranges (``min_<key>``..``max_<key>``) do not overlap."""
    lo_a, hi_a = a.get(f"min_{key}", a[key]), a.get(f"max_{key}", a[key])
    lo_b, hi_b = b.get(f"min_{key}", b[key]), b.get(f"max_{key}", b[key])
    return hi_a < lo_b or hi_b < lo_a


def compared(a: Mapping, b: Mapping, key: str = "steps_per_s") -> str:
    """ "1.8x faster than" / "0.6x, slower than" / "within the spread of", for a sentence about ``a`` vs ``b``."""
    r = a[key] / b[key]
    if not beyond_spread(a, b, key):
        return tr("{r:.2f}x, within the repeat-to-repeat spread of", r=r)
    return tr("{r:.1f}x, faster than", r=r) if r > 1 else tr("{r:.2f}x, slower than", r=r)


def judged(a: Mapping, b: Mapping, noise_pct: float, key: str = "steps_per_s") -> str:
    """The lab's verdict on row ``a`` against row ``b``: "a tie within the noise floor of N%" when neither is faster
    by more than ``noise_pct`` (``faster_beyond``); "undecided" when one is, but their repeats' min-max ranges
    overlap; otherwise "faster" or "slower"."""
    if not faster_beyond(max(a[key], b[key]), min(a[key], b[key]), noise_pct):
        return tr("a tie within the noise floor of {noise:.0f}%", noise=noise_pct)
    if not beyond_spread(a, b, key):
        return tr("undecided: the repeats' ranges overlap")
    return tr("faster") if a[key] > b[key] else tr("slower")


def spread_pct(row: Mapping, key: str = "steps_per_s") -> float:
    """Half a row's min-max range in percent of its median (its repeat-to-repeat spread)."""
    return 50.0 * (row.get(f"max_{key}", row[key]) - row.get(f"min_{key}", row[key])) / row[key]
