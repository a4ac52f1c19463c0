"""Small pieces the experiments share: worker-side setup and comparing two measured rows."""

from __future__ import annotations

from typing import Mapping

from course_utils import runtime
from course_utils.i18n import tr

from ..harness import ranges_overlap, rate_range, verdict


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
    return {"tie": tr("a tie within the noise floor of {noise:.1f}%", noise=noise_pct),
            "undecided": tr("undecided: the repeats' ranges overlap"),
            "faster": tr("faster"), "slower": tr("slower")}[verdict(a, b, noise_pct, key)]


def spread_pct(row: Mapping, key: str = "steps_per_s") -> float:
    """Half a row's min-max range in percent of its median (its repeat-to-repeat spread)."""
    return 50.0 * (row.get(f"max_{key}", row[key]) - row.get(f"min_{key}", row[key])) / row[key]


def forcing_conclusion(forced, unforced, noise_pct: float, blocking: bool) -> str:
    """Lesson 07's forced-vs-not-forced comparison (two ``Timing`` objects or rows) in words: how far skipping
    ``.asnumpy()`` moved the reading, and what the lab's two rules (``verdict``) make of it. ``blocking``: whether
    MS_DEV_HOST_BLOCKING_RUN=1 was set (then operators run blocking and ``.asnumpy()`` has little to wait for)."""
    rate_f, rate_u = rate_range(forced)[0], rate_range(unforced)[0]
    gap = 100 * (rate_u / rate_f - 1)
    said = verdict(unforced, forced, noise_pct)
    meaning = {"faster": tr("faster beyond the noise floor, repeats apart: the step returned before its work was "
                            "done."),
               "slower": tr("slower beyond the noise floor, repeats apart: not forcing cannot slow a step, so the "
                            "floor was too low."),
               "undecided": tr("beyond the noise floor, but the repeats overlap: undecided."),
               "tie": tr("within the noise floor, a tie.") if gap >= 0 else
               tr("within the noise floor, a tie, and only noise, since not waiting cannot make a step slower.")}[said]
    text = tr("Skipping .asnumpy() {moved} the reading by {gap:.1f}%: {meaning}",
              moved=tr("raised") if gap >= 0 else tr("lowered"), gap=abs(gap), meaning=meaning)
    if blocking and said != "faster":
        text += "\n" + tr("This kernel runs with MS_DEV_HOST_BLOCKING_RUN=1: the next cell says what it does and "
                          "measures without it.")
    return text
