"""The timing harness: honest steady-state rates of any zero-argument step (no MindSpore import).

* the first call is timed on its own and reported as first-call (compile) time, never mixed into
  the steady state; a few more warm-up calls follow before anything is timed;
* every timed call's result is forced (``.asnumpy()``) inside the timed region, so asynchronous
  execution cannot make a step look faster than it is;
* each configuration is timed ``repeats`` times and quoted as a median with its spread;
* configurations being compared are timed in alternation (ABC CBA ABC ...), so a slow minute on a
  shared machine hurts all of them, not just the one that happened to run then.
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics
import time
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union

__all__ = ["Config", "Timing", "compare", "cycle", "force", "naive_time", "noise_floor_pct", "rate_range",
           "time_steps"]


def force(result: Any) -> Any:
    """Wait until ``result`` is really computed: ``.asnumpy()`` on every tensor in it.

    MindSpore may return a tensor before the kernels producing it have finished; reading its
    value is what waits for them. Tuples, lists and dict values are forced recursively; anything
    without ``asnumpy`` is returned unchanged.
    """
    if hasattr(result, "asnumpy"):
        return result.asnumpy()
    if isinstance(result, (tuple, list)):
        return type(result)(force(r) for r in result)
    if isinstance(result, dict):
        return {k: force(v) for k, v in result.items()}
    return result


@dataclasses.dataclass
class Timing:
    """The measurements of one configuration.

    ``first_call_s`` is the first call (compilation included); ``warmup_s`` the further untimed
    warm-up calls; ``repeat_s`` the wall time of each timed repeat of ``steps`` calls.
    """

    name: str
    first_call_s: float
    warmup_s: List[float]
    repeat_s: List[float]
    steps: int
    batch_size: Optional[int] = None

    @property
    def step_s(self) -> List[float]:
        """Seconds per step of each repeat."""
        return [r / self.steps for r in self.repeat_s]

    @property
    def median_step_s(self) -> float:
        return statistics.median(self.step_s)

    @property
    def steps_per_s(self) -> float:
        """Median steady-state steps per second (warm-up excluded)."""
        return 1.0 / self.median_step_s

    @property
    def spread(self) -> tuple:
        """(slowest, fastest) steps/s over the repeats."""
        rates = [1.0 / s for s in self.step_s]
        return min(rates), max(rates)

    @property
    def spread_pct(self) -> float:
        """Half the min-max range of steps/s, in percent of the median."""
        lo, hi = self.spread
        return 50.0 * (hi - lo) / self.steps_per_s

    @property
    def samples_per_s(self) -> Optional[float]:
        return None if self.batch_size is None else self.steps_per_s * self.batch_size

    @classmethod
    def from_row(cls, row: Mapping, repeat_s: Optional[Sequence[float]] = None) -> "Timing":
        """The ``Timing`` behind a result row (``as_dict`` plus fields): its name, first call, repeats (``repeat_s``,
        or the row's own) and steps; warm-up calls are not kept."""
        return cls(row.get("name", row.get("config", "")), row["first_call_s"], [],
                   list(row["repeat_s"] if repeat_s is None else repeat_s), row["steps"], row.get("batch_size"))

    def as_dict(self) -> dict:
        lo, hi = self.spread
        return {"name": self.name, "first_call_s": self.first_call_s, "steps_per_s": self.steps_per_s,
                "min_steps_per_s": lo, "max_steps_per_s": hi, "spread_pct": self.spread_pct,
                "median_step_ms": 1e3 * self.median_step_s, "samples_per_s": self.samples_per_s,
                "batch_size": self.batch_size, "steps": self.steps, "repeats": len(self.repeat_s),
                "repeat_s": list(self.repeat_s), "warmup_s": list(self.warmup_s)}


@dataclasses.dataclass
class Config:
    """A configuration to time: a zero-argument ``step`` and an optional ``before`` hook that is
    called (untimed) before each of its repeats, e.g. to switch the execution mode. ``steps``, when set, is this
    configuration's steps per repeat in place of ``compare``'s (so that every repeat lasts about as long)."""

    step: Callable[[], Any]
    before: Optional[Callable[[], None]] = None
    batch_size: Optional[int] = None
    steps: Optional[int] = None


def _check_counts(steps: int, repeats: int, warmup: int) -> None:
    if steps < 1 or repeats < 1:
        raise ValueError(f"steps and repeats must be >= 1 (got steps={steps}, repeats={repeats})")
    if warmup < 1:
        raise ValueError(f"warmup must be >= 1 (got {warmup}): the first call compiles and must not be timed "
                         "as a step")


def _timed_block(step: Callable, steps: int, sync: Callable, sync_each: bool, clock: Callable) -> float:
    start = clock()
    out = None
    for _ in range(steps):
        out = step()
        if sync_each:
            sync(out)
    if not sync_each:
        sync(out)  # the last result still completes inside the timed region
    return clock() - start


#: untimed calls per configuration before the timed repeats (the first one compiles)
WARMUP = 3


def _warm_up(step: Callable, warmup: int, sync: Callable, clock: Callable) -> tuple:
    times = []
    for _ in range(warmup):
        start = clock()
        sync(step())
        times.append(clock() - start)
    return times[0], times[1:]


def compare(configs: Mapping[str, Union[Callable, Config]], steps: int = 20, repeats: int = 5,
            warmup: int = WARMUP, sync: Callable = force, sync_each: bool = True,
            clock: Callable[[], float] = time.perf_counter) -> Dict[str, Timing]:
    """Time several configurations fairly; returns ``{name: Timing}`` in the given order.

    Each configuration is warmed up first (its first call timed separately), then the timed
    repeats alternate between configurations, reversing the order every round (A B C, C B A,
    ...) so that drift in machine load is shared out evenly. ``sync`` forces completion of each
    step's result inside the timed region (``sync_each=False``: only the last step of a repeat).
    """
    _check_counts(steps, repeats, warmup)
    if not configs:
        raise ValueError("compare() needs at least one configuration")
    cfgs = {name: c if isinstance(c, Config) else Config(step=c) for name, c in configs.items()}
    for name, cfg in cfgs.items():
        if not callable(cfg.step):
            raise TypeError(f"configuration {name!r}: step must be a callable taking no arguments, "
                            f"got {type(cfg.step).__name__}")
    first, warm, reps = {}, {}, {name: [] for name in cfgs}
    for name, cfg in cfgs.items():
        if cfg.before:
            cfg.before()
        first[name], warm[name] = _warm_up(cfg.step, warmup, sync, clock)
    names = list(cfgs)
    for r in range(repeats):
        for name in (names if r % 2 == 0 else names[::-1]):
            cfg = cfgs[name]
            if cfg.before:
                cfg.before()
            reps[name].append(_timed_block(cfg.step, cfg.steps or steps, sync, sync_each, clock))
    return {name: Timing(name, first[name], warm[name], reps[name], cfgs[name].steps or steps, cfgs[name].batch_size)
            for name in names}


def time_steps(step: Callable[[], Any], steps: int = 20, repeats: int = 5, warmup: int = WARMUP,
               batch_size: Optional[int] = None, name: str = "step", **kwargs) -> Timing:
    """Time one zero-argument step function (see ``compare`` for the method)."""
    return compare({name: Config(step=step, batch_size=batch_size)}, steps=steps, repeats=repeats,
                   warmup=warmup, **kwargs)[name]


def cycle(fn: Callable, batches: Sequence[tuple]) -> Callable[[], Any]:
    """A zero-argument step that calls ``fn(*batch)`` on the batches in turn, round and round."""
    if not batches:
        raise ValueError("cycle() needs at least one batch")
    it = itertools.cycle(batches)
    return lambda: fn(*next(it))


def naive_time(step: Callable[[], Any], steps: int = 20,
               clock: Callable[[], float] = time.perf_counter) -> float:
    """What a naive benchmark reports: steps/s of the first ``steps`` calls, compile included and
    nothing forced. Shown in the lab next to the honest number; do not use it for anything else."""
    start = clock()
    for _ in range(steps):
        step()
    return steps / (clock() - start)


def _repeat_rates(x: Union[Timing, Mapping]) -> list:
    """Steps/s of each timed repeat of a ``Timing`` or of a result row (``repeat_s`` and ``steps``)."""
    reps, steps = (x.repeat_s, x.steps) if isinstance(x, Timing) else (x["repeat_s"], x["steps"])
    return [steps / r for r in reps]


def noise_floor_pct(*copies: Union[Timing, Mapping], draws: int = 2000, level: float = 0.95, seed: int = 0) -> float:
    """The noise floor, in percent, from timing the *same* configuration as several configurations in alternation
    (``Timing`` objects, or result rows with ``repeat_s`` and ``steps``): how far apart two medians of that many
    repeats can land by chance. Draw two sets of repeats at random from all the copies' repeats (each relative to its
    own copy's median), ``draws`` times; the floor is the gap between the two medians that ``level`` of the draws
    stay within, or the largest gap the copies' own medians showed, whichever is larger. The tie rule
    (``faster_beyond``) compares medians, so this is the difference it must not take for a result."""
    if len(copies) < 2:
        raise ValueError(f"noise_floor_pct() needs at least two timings of the same step, got {len(copies)}")
    import numpy as np

    per_copy = [np.array(_repeat_rates(t)) for t in copies]
    rates = [1 / np.median(1 / r) for r in per_copy]   # each copy's median rate, as Timing.steps_per_s has it
    pooled = np.concatenate([r / rate for r, rate in zip(per_copy, rates)])
    n = min(len(r) for r in per_copy)
    medians = np.median(np.random.default_rng(seed).choice(pooled, (2, draws, n)), axis=2)
    chance = 100 * np.quantile(medians.max(axis=0) / medians.min(axis=0) - 1, level)
    return float(max(chance, 100 * (max(rates) / min(rates) - 1)))


def faster_beyond(fast: float, slow: float, noise_pct: float) -> bool:
    """The lab's tie rule: a rate ``fast`` beats ``slow`` only when it is faster by more than
    ``noise_pct`` percent (the noise floor); otherwise the two are a tie."""
    return 100 * (fast / slow - 1) > noise_pct


def rate_range(x: Union[Timing, Mapping], key: str = "steps_per_s") -> tuple:
    """(median, slowest, fastest) of a ``Timing`` (steps/s) or of a result row (``key`` and its ``min_``/``max_``;
    a row without them gives its median three times). What the verdicts read, whichever of the two they get."""
    if isinstance(x, Timing):
        if key != "steps_per_s":
            raise ValueError(f"a Timing has steps_per_s only, not {key!r}: pass result rows to compare {key}")
        return (x.steps_per_s, *x.spread)
    return x[key], x.get(f"min_{key}", x[key]), x.get(f"max_{key}", x[key])


def ranges_overlap(a: Union[Timing, Mapping], b: Union[Timing, Mapping], key: str = "steps_per_s") -> bool:
    """True when the repeats of ``a`` and ``b`` overlap: each one's slowest repeat is no faster than the other's
    fastest (their min-max ranges share some values)."""
    _, lo_a, hi_a = rate_range(a, key)
    _, lo_b, hi_b = rate_range(b, key)
    return lo_a <= hi_b and lo_b <= hi_a


def verdict(a: Union[Timing, Mapping], b: Union[Timing, Mapping], noise_pct: float, key: str = "steps_per_s") -> str:
    """The lab's two rules, on ``a`` against ``b`` (two ``Timing`` objects, or two result rows with ``key`` and its
    ``min_``/``max_`` range): ``"tie"`` when neither median is faster by more than ``noise_pct`` percent
    (``faster_beyond``); ``"undecided"`` when one is, but the repeats' ranges overlap (``ranges_overlap``);
    otherwise ``"faster"`` or ``"slower"`` (what ``a`` is)."""
    rate_a, rate_b = rate_range(a, key)[0], rate_range(b, key)[0]
    if not faster_beyond(max(rate_a, rate_b), min(rate_a, rate_b), noise_pct):
        return "tie"
    if ranges_overlap(a, b, key):
        return "undecided"
    return "faster" if rate_a > rate_b else "slower"


def paired_ratio(a: Union[Timing, Mapping], b: Union[Timing, Mapping], draws: int = 2000, level: float = 0.95,
                 seed: int = 0) -> tuple:
    """``a``'s rate over ``b``'s, round by round: ``compare`` alternates the configurations, so repeat ``i`` of each
    ran back to back and a slow minute slows both. Returns (median of the per-round ratios, low, high), low-high being
    the central ``level`` interval of that median over ``draws`` bootstrap resamples of the rounds. Takes two
    ``Timing`` objects or two result rows (``repeat_s`` and ``steps``) from the same ``compare``."""
    import numpy as np

    ra, rb = np.array(_repeat_rates(a)), np.array(_repeat_rates(b))
    if len(ra) != len(rb) or len(ra) < 2:
        raise ValueError(f"paired_ratio needs the same number (>= 2) of repeats from one compare, got {len(ra)} and "
                         f"{len(rb)}")
    ratios = ra / rb
    picks = np.random.default_rng(seed).integers(0, len(ratios), size=(draws, len(ratios)))
    meds = np.median(ratios[picks], axis=1)
    tail = 100 * (1 - level) / 2
    return float(np.median(ratios)), float(np.percentile(meds, tail)), float(np.percentile(meds, 100 - tail))


def spans_rounds(a: Union[Timing, Mapping], b: Union[Timing, Mapping], lo: float, hi: float, digits: int = 2) -> bool:
    """True when ``paired_ratio(a, b)``'s interval ``lo``-``hi``, as printed (``digits``), is just the lowest to the
    highest per-round ratio: with five rounds or fewer a median resampled from the rounds lands on either end often
    enough (~6% each way with five) that its 95% interval is that range, and the lab then names it so."""
    ratios = [x / y for x, y in zip(_repeat_rates(a), _repeat_rates(b))]
    return (round(lo, digits), round(hi, digits)) == (round(min(ratios), digits), round(max(ratios), digits))


def control_gap(c_lo: float, c_hi: float) -> Optional[tuple]:
    """How far apart two copies of one configuration came in this run, from the A/A' control's paired interval
    (A' over A): ``(low, high)`` factors, the interval and its mirror (A over A') with 1.00, or None when the interval
    holds 1.00 (read as printed, ``interval_side``): the copies agree and nothing needs widening."""
    if interval_side(c_lo, c_hi) == "inside":
        return None
    return min(c_lo, 1 / c_hi, 1.0), max(c_hi, 1 / c_lo, 1.0)


def widened(lo: float, hi: float, gap: Optional[tuple]) -> tuple:
    """A paired interval ``lo``-``hi`` widened by a failed control's ``gap`` (``control_gap``): two instances of one
    configuration differed by that much in this run, so a ratio between two configurations is known only to within
    it. ``gap`` None: unchanged. The widened interval is read like any other (``interval_side``)."""
    if gap is None:
        return lo, hi
    return lo * gap[0], hi * gap[1]


def interval_side(lo: float, hi: float, digits: Optional[int] = 2) -> str:
    """Where 1.00 lies against a paired interval ``lo``-``hi`` (from ``paired_ratio``): ``"above"`` when the whole
    interval is above 1 (a faster), ``"below"`` when it is below 1 (a slower), ``"inside"`` when it holds 1 (no
    difference detected: a tie). The one reading of a paired interval in the course. The ends are rounded to
    ``digits`` decimals first, so the verdict is the one a reader gets from the printed bounds: an interval shown as
    1.00-1.16 holds 1 even if its low end was 1.004 (``digits=None``: no rounding)."""
    if digits is not None:
        lo, hi = round(lo, digits), round(hi, digits)
    return "above" if lo > 1 else "below" if hi < 1 else "inside"


def leaders(rows: Sequence[Mapping], noise_pct: float, key: str = "steps_per_s") -> list:
    """The rows that tie with the fastest under ``faster_beyond`` (the fastest first, then in the
    order given): one row is a clear winner, more than one a tie."""
    top = max(rows, key=lambda r: r[key])
    return [top] + [r for r in rows if r is not top and not faster_beyond(top[key], r[key], noise_pct)]
