"""Small pieces the experiments share: worker-side setup, comparing two measured rows, and the words lesson 07's
plain-MindSpore cells print (part 1's readings, the forcing test)."""

from __future__ import annotations

import statistics
from typing import Mapping, Optional, Sequence

from course_utils import runtime
from course_utils.fmt import display_width, text_table
from course_utils.i18n import N_, tr

from ..harness import control_gap, interval_side, paired_ratio, ranges_overlap, verdict


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


#: The reading of a paired interval (``interval_side``) in words: the one rule the lab judges a difference by.
SIDE_WORDS = {"above": N_("above 1.00: faster"), "below": N_("below 1.00: slower")}   # inside: ``paired_reading``


#: Not forced against forced: skipping a wait cannot make the same work slower, so an interval below 1.00 is no
#: verdict but a broken premise (pairing assumes a steady load within a round): "inconclusive", never "slower".
INCONCLUSIVE = N_("below 1.00: inconclusive. Skipping a wait cannot make the same work slower, so something else "
                  "differed between the two (the load within a round, or the code around the step)")


def not_ruled_out_pct(lo: float, hi: float) -> float:
    """The largest difference a paired interval that holds 1.00 cannot rule out, in percent, on the ratio scale the
    lab decides on (``copies_factor`` minus 1): its farther end from 1.00, a low end counted by its reciprocal, the
    ends as printed (0.80-1.44: 44; 0.58-1.20: 72, as 1/0.58 = 1.72)."""
    return 100 * (copies_factor(lo, hi) - 1)


#: Lesson 07's reading of an interval that holds 1.00: no difference detected, and how large one it still allows.
NOT_SEPARATED = N_("1.00 inside: not separated; differences up to {pct:.0f}% not ruled out")


def paired_reading(lo: float, hi: float) -> str:
    """Lesson 07's reading of a paired interval ``lo``-``hi`` (check 2's rule): "above 1.00: faster", "below 1.00:
    slower", or "1.00 inside: not separated; differences up to N% not ruled out" (``not_ruled_out_pct``): an interval
    that holds 1.00 says nothing is detected, never that the two are equal."""
    side = interval_side(lo, hi)
    if side == "inside":
        return tr(NOT_SEPARATED, pct=not_ruled_out_pct(lo, hi))
    return tr(SIDE_WORDS[side])


#: A verdict table's last column: the reading of an interval, short. One word for "1.00 inside" across the lab.
NOT_SEPARATED_SHORT = N_("not separated (up to {pct:.0f}% not ruled out)")
#: ... where even a twofold difference is not ruled out ("up to 1548%" reads as a figure; it is none)
NOT_SEPARATED_WIDE = N_("not separated (too wide to rule out even a twofold difference)")
#: A verdict table's column titles.
VERDICT_COLUMNS = (N_("comparison"), N_("ratio"), N_("95% interval"), N_("verdict"))
#: The interval column's title when every interval is just its rounds' lowest to highest ratio.
SPAN_COLUMN = N_("range (lowest-highest round)")


#: A verdict table's reading of an interval beyond 1.00 whose near end lies within the A/A' control's own spread.
WITHIN_COPIES_SHORT = N_("within the copies' gap (copies up to {pct:.0f}% apart)")


def copies_gap_pct(c_lo: float, c_hi: float) -> float:
    """How far two copies of one configuration came apart in this run, in percent, on the ratio scale that
    ``within_copies`` decides on: ``copies_factor`` minus 1 (0.97-1.02: 3.1; 0.72-1.11: 39)."""
    return 100 * (copies_factor(c_lo, c_hi) - 1)


def copies_factor(c_lo: float, c_hi: float) -> float:
    """How far two copies of one configuration came apart in this run, as a factor on the ratio scale: the A/A'
    control interval's farther end from 1.00, a low end counted by its reciprocal (0.97-1.02: 1/0.97 = 1.031;
    0.42-2.38: 2.38), the ends as printed. On this scale 0.50 is as far from 1.00 as 2.00."""
    return max(round(c_hi, 2), 1 / max(round(c_lo, 2), 0.01), 1.0)


#: The widest A/A' control whose line reads "1.00 inside, as it should be", on the ratio scale (``copies_factor``):
#: copies up to 10% apart. Wider, the line says how far they came apart, since every row within that gap reads "within
#: the copies' gap" (10%, not 20%: lesson 07 tests a 15% claim, which copies 15% apart could not separate).
CONTROL_LIMIT = 1.10
#: An A/A' control's line (``control_reading``): holds 1.00 within ``CONTROL_LIMIT``; holds 1.00, copies farther apart;
#: leaves out 1.00.
CONTROL_INSIDE = N_("1.00 inside, as it should be")
CONTROL_WIDE = N_("1.00 inside, but the copies came up to {pct:.0f}% apart: only a row beyond that gap is read")
CONTROL_APART = N_("apart: the rows below widened by its gap")


def control_reading(c_lo: float, c_hi: float, apart: str = CONTROL_APART) -> str:
    """An A/A' control's line in a verdict table, from its interval ``c_lo``-``c_hi`` (A' over A): "1.00 inside, as it
    should be" where it holds 1.00 and the copies came no more than ``CONTROL_LIMIT`` apart (0.95-1.08); "1.00 inside,
    but the copies came up to N% apart: only a row beyond that gap is read" where it holds 1.00 wider (0.60-1.31: 67%,
    ``copies_gap_pct``), every row then read with the copies' gap rule (``short_reading`` with ``copies``); ``apart``
    where it leaves out 1.00: what the table does with such a control, an ``N_`` text translated here, by default
    "apart: the rows below widened by its gap" (``harness.widened``). The one place a control's line is decided."""
    if interval_side(c_lo, c_hi) != "inside":
        return tr(apart)
    if copies_factor(c_lo, c_hi) > CONTROL_LIMIT + 1e-9:
        return tr(CONTROL_WIDE, pct=copies_gap_pct(c_lo, c_hi))
    return tr(CONTROL_INSIDE)


def within_gap(lo: float, hi: float, factor: float) -> bool:
    """Whether an interval ``lo``-``hi`` that lies beyond 1.00 has its near end no farther from 1.00 than ``factor``
    on the ratio scale (a near end below 1.00 counts by its reciprocal: 0.50 is as far as 2.00). False when the
    interval holds 1.00. The ends as printed (two decimals)."""
    side = interval_side(lo, hi)
    if side == "inside":
        return False
    near = round(lo, 2) if side == "above" else 1 / max(round(hi, 2), 0.01)
    return round(near, 6) <= round(factor, 6)


def within_copies(lo: float, hi: float, copies: Optional[tuple]) -> bool:
    """Whether an interval ``lo``-``hi`` that lies beyond 1.00 has its near end within the gap two copies of one
    configuration showed (``copies``: the A/A' control's ``(low, high)``): a difference that small is one the copies
    show too, so it is not read as faster or slower. Compared on the ratio scale (``within_gap`` with
    ``copies_factor``): a control that strayed to 2.38 does not swallow a slowdown to 0.33 (1/0.33 = 3.0). False
    without ``copies`` or when the interval holds 1.00."""
    return copies is not None and within_gap(lo, hi, copies_factor(*copies))


def short_reading(lo: float, hi: float, copies: Optional[tuple] = None) -> str:
    """``paired_reading`` for a table cell: "above 1.00: faster", "below 1.00: slower" or "not separated (up to N% not
    ruled out)"; with ``copies`` (an A/A' control's ``(low, high)``), an interval beyond 1.00 whose near end is within
    the copies' gap (``within_copies``) reads "within the copies' gap (copies up to N% apart)", and an interval that
    holds 1.00 rules out no difference smaller than that gap either: N is the larger of its own far end and the
    copies' gap."""
    side = interval_side(lo, hi)
    if side == "inside":
        pct = not_ruled_out_pct(lo, hi)
        pct = max(pct, copies_gap_pct(*copies)) if copies else pct
        return tr(NOT_SEPARATED_WIDE) if pct >= 100 else tr(NOT_SEPARATED_SHORT, pct=pct)
    if within_copies(lo, hi, copies):
        return tr(WITHIN_COPIES_SHORT, pct=copies_gap_pct(*copies))
    return tr(SIDE_WORDS[side])


def verdict_table(rows: Sequence[Sequence], copies: Optional[tuple] = None, spans: bool = False) -> str:
    """The lab's verdicts as one small table a person reads: a row per comparison, ``(label, median, low, high)`` or
    ``(label, median, low, high, verdict)``; the median may be ``None`` (not printed), the verdict defaults to
    ``short_reading(low, high, copies)`` (``copies``: the experiment's A/A' control, or None). Columns: comparison |
    ratio | 95% interval | verdict; ``spans``: every interval is its rounds' lowest to highest ratio
    (``harness.spans_rounds``, five rounds or fewer), and the column says so."""
    lines = [[tr(c) for c in VERDICT_COLUMNS]]
    if spans:
        lines[0][2] = tr(SPAN_COLUMN)
    for row in rows:
        label, med, lo, hi = row[:4]
        words = row[4] if len(row) > 4 else short_reading(lo, hi, copies)
        lines.append([label, "" if med is None else tr("{med:.2f}x", med=med), tr("{lo:.2f}-{hi:.2f}", lo=lo, hi=hi),
                      words])
    widths = [max(display_width(line[i]) for line in lines) for i in range(4)]
    lines.insert(1, ["-" * w for w in widths])
    return text_table(lines, right=(1, 2))


def forcing_words(lo: float, hi: float) -> str:
    """``paired_reading`` for a not-forced-over-forced interval: "below" reads "inconclusive" (``INCONCLUSIVE``)."""
    return tr(INCONCLUSIVE) if interval_side(lo, hi) == "below" else paired_reading(lo, hi)


def forcing_conclusion(forced, unforced, blocking: bool) -> str:
    """Lesson 07's forced-vs-not-forced comparison (two ``Timing`` objects or rows from one ``compare``) in words:
    not forced's steps/s over forced's, round by round, with its paired 95% interval (``interval_side``).
    ``blocking``: whether MS_DEV_HOST_BLOCKING_RUN=1 was set (then operators run blocking and ``.asnumpy()`` has
    little to wait for)."""
    med, lo, hi = paired_ratio(unforced, forced)
    side = interval_side(lo, hi)
    text = tr("Not forced over forced, steps/s over steps/s round by round: {med:.2f}x (95% interval "
              "{lo:.2f}-{hi:.2f}), {side}.", med=med, lo=lo, hi=hi, side=forcing_words(lo, hi))
    if side == "above":
        text += tr(" The calls returned before their work was done.")   # a second sentence: its space translated too
    if blocking and side != "above":
        text += "\n" + tr("This kernel runs with MS_DEV_HOST_BLOCKING_RUN=1: the next cell says what it does and "
                          "measures without it.")
    return text


def control_said(c_lo: float, c_hi: float) -> str:
    """What an A/A' control's interval (A' over A) means for the intervals read with it, in words: "1.00 inside, as it
    should be", or, when the copies came apart, that every interval compared with them is widened by their gap
    (``harness.widened``) before it is read. The one treatment of a failed control in the lab."""
    gap = control_gap(c_lo, c_hi)
    if gap is None:
        return control_reading(c_lo, c_hi)
    return tr("without 1.00 although they are one configuration, so every interval read with this control is widened "
              "by the copies' gap, x{lo:.2f} at its low end and x{hi:.2f} at its high end, before it is read",
              lo=gap[0], hi=gap[1])


def warmup_reading(per_call_s: Sequence[float], settled_from: int = 10) -> str:
    """Lesson 07 part 1's reading of a fresh step's calls after the first, each timed on its own (``per_call_s``, in
    seconds, call 0 the compiling one): their median and range, the calls more than twice that median (a busy moment),
    and how many calls from call 1 on ran more than 20% above the level the step settled at (the median of the calls
    from ``settled_from`` on): the warm-up beyond the compiling call."""
    ms = [1e3 * t for t in per_call_s]
    single = ms[1:]
    median = statistics.median(single)
    spikes = [i for i, t in enumerate(ms) if i > 0 and t > 2 * median]   # call indices
    settled = statistics.median(ms[settled_from:])
    warming = 0   # calls from call 1 on, one after another, more than 20% above the settled level
    while warming < settled_from - 1 and ms[warming + 1] > 1.2 * settled:
        warming += 1
    text = tr("calls 1-{last}: median {median:.1f} ms, range {lo:.1f}-{hi:.1f} ms; more than twice that median: "
              "{spikes}; ", last=len(ms) - 1, median=median, lo=min(single), hi=max(single),
              spikes=", ".join(map(str, spikes)) if spikes else tr("none"))
    if not warming:
        return text + tr("call 1 no more than 20% above the level of calls {n}-{last} ({settled:.1f} ms): the warm-up "
                         "was the compiling call alone.", n=settled_from, last=len(ms) - 1, settled=settled)
    if warming == 1:
        return text + tr("call 1 ran more than 20% above the level of calls {n}-{last} ({settled:.1f} ms): here the "
                         "warm-up took one call beyond the compiling one.", n=settled_from, last=len(ms) - 1,
                         settled=settled)
    return text + tr("calls 1-{k} in a row ran more than 20% above the level of calls {n}-{last} ({settled:.1f} ms): "
                     "here the warm-up took {k} call(s) beyond the compiling one.", k=warming, n=settled_from,
                     last=len(ms) - 1, settled=settled)


def two_readings(repeat_ms: float, single_ms: Sequence[float], fastest_ms: Optional[float] = None,
                 pinned: bool = False) -> str:
    """Lesson 07 part 1's last line: one unchanged step read two ways a few seconds apart, the median repeat's time per
    step (``repeat_ms``) against the median of single calls each timed on its own (``single_ms``), and why the two may
    differ: within 10%; the median repeat slower than even the slowest single call (with ``fastest_ms``, the fastest
    repeat's time per step: where that one kept the single calls' pace, the repeats spanned a slow stretch the single
    calls missed); slower; faster. ``pinned``: this kernel is pinned to one CPU, so check 2's pinning study, which
    looks at an unpinned step's shifting levels, is not the explanation offered."""
    gap = repeat_ms / statistics.median(single_ms)
    levels = "" if pinned else tr(" A step's speed can also shift between levels for a second or more (check 2's "
                                  "optional section).")
    if 1 / 1.1 <= gap <= 1.1:
        why = tr("Within 10% of each other.")
    elif gap > 1.1 and repeat_ms > max(single_ms):   # slower than even the slowest single call
        why = tr("The median repeat was slower than even the slowest single call.")
        if fastest_ms is not None and fastest_ms <= max(single_ms):
            why += tr(" The fastest repeat ({fast:.1f} ms a step) kept the single calls' pace: the other repeats ran "
                      "in a slow stretch of the machine that the single calls missed.", fast=fastest_ms)
        else:
            why += tr(" Every repeat was: the machine ran slower for the seconds the repeats took.") + levels
    elif gap > 1.1:
        why = tr("The repeats were slower. A repeat counts every step in it, slow moments included, which the median "
                 "of single calls leaves out.") + levels
    else:   # the repeats faster, although they count their slow moments too
        why = tr("The repeats were faster, although a repeat counts its slow moments too. The single calls ran just "
                 "before them, right after the compiling call: a slower moment of the machine, or a step not yet at "
                 "its steady pace.")
    return tr("one step, two readings: the median repeat's time per step is {gap:.2f}x the single calls' median. "
              "{why}", gap=gap, why=why)
