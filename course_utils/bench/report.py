"""Results and their conditions: tables, the machine header, load measured around each experiment.

A figure measured on a shared machine means little without the conditions it was measured under,
so every ``Result`` carries the machine header and a ``Conditions`` record: the load average before
and after, and how many cores *other* processes used meanwhile (``/proc/stat`` minus this process
and its finished children). ``Result.__str__`` prints a warning when the machine was busy.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import math
import os
import re
import time
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from course_utils import runtime
from course_utils.fileio import atomic_write
from course_utils.fmt import display_width, table_cell, text_table
from course_utils.i18n import N_, tr

from .harness import Timing

__all__ = ["Conditions", "Measuring", "Result", "format_rows", "format_table", "header", "load_average",
           "pick", "save_json"]

#: Other processes using more than this many cores on average during an experiment make it "busy".
BUSY_CORES = 0.5


def load_average() -> Optional[tuple]:
    """(1, 5, 15)-minute load averages, or None where the OS has none."""
    try:
        return tuple(round(x, 2) for x in os.getloadavg())
    except (OSError, AttributeError):
        return None


def _cpu_busy_s(cpus: Optional[Iterable[int]] = None) -> Optional[float]:
    """Seconds of CPU time all processes used since boot on the CPUs ``cpus`` (Linux), or None. ``cpus=None``: the
    CPUs this process may use (its affinity set), so that a kernel pinned to CPU 0 does not count other processes'
    work on CPU 1 as competition."""
    if cpus is None:
        cpus = _affinity()
    try:
        with open("/proc/stat", encoding="ascii") as fh:
            lines = [line.split() for line in fh if line.startswith("cpu")]
    except OSError:
        return None
    return _busy_from_stat(lines, cpus)


def _affinity() -> Optional[frozenset]:
    try:
        return frozenset(os.sched_getaffinity(0))
    except AttributeError:   # not Linux
        return None


def _busy_from_stat(lines: Sequence[Sequence[str]], cpus: Optional[Iterable[int]]) -> Optional[float]:
    """Busy seconds from /proc/stat's split ``cpu`` lines: the aggregate line, or the sum over ``cpus``' lines."""
    wanted = None if cpus is None else {f"cpu{n}" for n in cpus}
    busy = 0
    try:
        for fields in lines:
            if (fields[0] == "cpu") if wanted is None else (fields[0] in wanted):
                values = [int(v) for v in fields[1:]]
                idle = values[3] + (values[4] if len(values) > 4 else 0)       # idle + iowait
                busy += sum(values[:8]) - idle
    except (ValueError, IndexError):
        return None
    return busy / os.sysconf("SC_CLK_TCK")


def _own_cpu_s() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def header(env: bool = True) -> str:
    """Machine, versions, CPU-fix variables, load average and time: printed with every table. ``env=False`` leaves
    out this process's CPU-fix variables (for rows measured in processes with environments of their own)."""
    text = runtime.machine_header(env)
    load = load_average()
    if load:
        text += " | " + tr(runtime.HEADER_LOAD, values=runtime.listing(f"{x:.1f}" for x in load))
    return text + f" | {_dt.datetime.now().strftime('%Y-%m-%d %H:%M')}"


#: An experiment's conditions: its time, the CPUs it may use, and the load average around it
FACTS = N_("{seconds:.0f} s on {cpus} CPUs, 1-min load average {before} before / {after} after")
FACTS_ONE_CPU = N_("{seconds:.0f} s on 1 CPU, 1-min load average {before} before / {after} after")   # pinned
#: Other processes' CPU use, counted on the CPUs this process may use only
OTHERS = N_(", other processes used {cores:.2f} cores meanwhile")
OTHERS_ONE_CPU = N_(", other processes used {cores:.2f} of that CPU meanwhile")
#: The warning of an experiment whose timings are single, unalternated calls (no alternated ratio to read instead)
WARNING_UNALTERNATED = N_("WARNING: the machine was busy ({facts}). Other processes competed for the CPU: these "
                          "timings are single, unalternated calls, so their times are too high and noisy to compare; "
                          "re-run on a quiet machine for the times.")


@dataclasses.dataclass
class Conditions:
    """The machine's state around one experiment."""

    cpus: int
    load_before: Optional[Sequence[float]]
    load_after: Optional[Sequence[float]]
    seconds: float
    others_cores: Optional[float]   # cores used on average by other processes (None: unknown)

    @property
    def busy(self) -> bool:
        if self.others_cores is not None:
            return self.others_cores > BUSY_CORES
        # No /proc/stat: the 1-minute load average, which includes this experiment's own work.
        loads = [load[0] for load in (self.load_before, self.load_after) if load]
        return bool(loads) and max(loads) > self.cpus + 1

    def _facts(self) -> str:
        def one(load):
            return "?" if not load else f"{load[0]:.2f}"

        text = tr(FACTS_ONE_CPU if self.cpus == 1 else FACTS, seconds=self.seconds, cpus=self.cpus,
                  before=one(self.load_before), after=one(self.load_after))
        if self.others_cores is not None:   # measured on the CPUs this process may use (_cpu_busy_s)
            text += tr(OTHERS_ONE_CPU if self.cpus == 1 else OTHERS, cores=self.others_cores)
        return text

    def describe(self) -> str:
        return tr("conditions: {facts}", facts=self._facts())

    def facts(self) -> str:
        """The conditions without the "conditions:" label, for a sentence that names them itself."""
        return self._facts()

    def warning(self, alternated: bool = True) -> str:
        """An empty string on a quiet machine; otherwise what the figures are worth (``alternated=False``: an
        experiment of single, unalternated timings, which has no alternated ratios to fall back on)."""
        if not self.busy:
            return ""
        if not alternated:
            return tr(WARNING_UNALTERNATED, facts=self._facts())
        return tr("WARNING: the machine was busy ({facts}). Other processes competed for the cores: absolute rates "
                  "are too low and noisy; only ratios between configurations measured in alternation in this run "
                  "mean something. Re-run on a quiet machine for the figures.", facts=self._facts())


class Measuring:
    """``with Measuring() as m: ...`` then ``m.conditions``: load and other processes' CPU use around a block."""

    def __enter__(self):
        self._cpus = _affinity()   # the CPUs counted at both ends, even if the block changes the affinity
        self._load, self._busy, self._own = load_average(), _cpu_busy_s(self._cpus), _own_cpu_s()
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        seconds = time.perf_counter() - self._start
        busy = _cpu_busy_s(self._cpus)
        others = None
        if busy is not None and self._busy is not None and seconds > 0:
            others = max(0.0, ((busy - self._busy) - (_own_cpu_s() - self._own)) / seconds)
        self.conditions = Conditions(runtime.cpu_count(), self._load, load_average(), seconds, others)
        return False


#: The columns of the lab's tables: a column is headed by its key (English), which ``format_rows`` shows in the
#: course's language.
COLUMN_TITLES = (
    N_("label"), N_("config"), N_("case"), N_("input"), N_("layer"), N_("output"), N_("wrapper"), N_("accuracy"),
    N_("first_call_s"), N_("steps_per_s"), N_("min_steps_per_s"), N_("max_steps_per_s"), N_("samples_per_s"),
    N_("min_samples_per_s"), N_("max_samples_per_s"), N_("steps_per_round"), N_("middle_half"), N_("vs_reference"),
    N_("batches_per_s"), N_("min_batches_per_s"), N_("max_batches_per_s"), N_("epoch_s"), N_("share_pct"),
    N_("vs_baseline"), N_("vs_naive"), N_("vs_O0"), N_("final_loss"), N_("calls"),
    N_("shapes"), N_("compiles"), N_("compile_s"), N_("total_s"), N_("mean_batch"), N_("steady_ms"),
    N_("us_per_sample"), N_("target_pct"), N_("best_steps"), N_("best_s"), N_("naive_steps"), N_("naive_s"),
    N_("naive_how"), N_("speedup"), N_("naive_s_high"), N_("speedup_high"), N_("naive_s_range"),
    N_("speedup_range"), N_("figure"), N_("value"), N_("verdict"),
    N_("op_type"), N_("calls_per_step"), N_("mean_ms"), N_("total_ms"), N_("implementation"), N_("propagation"),
    N_("primitive"),
    N_("ms"), N_("accuracy_pct"), N_("min_ms"), N_("max_ms"), N_("processes"),
)


#: The same columns as an English reader reads them (the key itself where it reads well already); the Chinese
#: edition's titles are the catalogue's translations of the keys.
ENGLISH_COLUMN_TITLES = {
    "label": "configuration", "config": "configuration", "first_call_s": "first call s", "steps_per_s": "steps/s",
    "min_steps_per_s": "min steps/s", "max_steps_per_s": "max steps/s", "samples_per_s": "samples/s",
    "batches_per_s": "batches/s", "min_batches_per_s": "min batches/s", "max_batches_per_s": "max batches/s",
    "share_pct": "% of time", "vs_naive": "medians' ratio", "vs_O0": "x O0", "min_ms": "min ms", "max_ms": "max ms",
    "accuracy_pct": "test accuracy %", "target_pct": "target %", "best_steps": "steps, course settings",
    "best_s": "s, course settings", "naive_steps": "steps, naive", "naive_s": "s, naive",
    "naive_s_high": "s, naive (high end)", "naive_how": "naive time from", "speedup": "speed-up (x)",
    "speedup_high": "speed-up, high end (x)", "naive_s_range": "s, naive", "speedup_range": "speed-up (x)",
    "op_type": "operator type", "calls_per_step": "calls/step",
    "mean_ms": "ms/call", "total_ms": "total ms", "min_samples_per_s": "min samples/s",
    "max_samples_per_s": "max samples/s", "steps_per_round": "steps a round", "epoch_s": "s per epoch",
    "vs_baseline": "x first row",
    "middle_half": "samples/s, middle half of rounds", "vs_reference": "x reference, paired",
}


def column_title(column: str) -> str:
    """A column's title: the catalogue's translation of its key, or in English its readable title."""
    said = tr(column)
    return ENGLISH_COLUMN_TITLES.get(column, said) if said == column else said


#: The lab's headline figures: metric name (as ``record()`` stores it) -> its label in the lessons' summary tables.
METRIC_TITLES = {
    "best_steps_per_s": N_("highest step rate of the experiments named below (steps/s)"),
    "graph_steps_per_s": N_("GRAPH_MODE TrainOneStepCell (steps/s)"),
    "graph_vs_pynative": N_("GRAPH_MODE / PyNative TrainOneStepCell, paired round by round (x)"),
    "jit_vs_no_jit": N_("PyNative functional step, with @jit / without, paired round by round (x)"),
    "pynative_steps_per_s": N_("PyNative TrainOneStepCell (steps/s)"),
    "cell_vs_functional": N_("TrainOneStepCell / functional step without @jit (GRAPH_MODE), paired round by round (x)"),
    "o1_vs_o0": N_("@jit functional step, O1 / O0, paired round by round (x)"),
    "graph_cell_vs_jit": N_("GRAPH_MODE TrainOneStepCell / @jit functional step O0, paired round by round (x)"),
    "jit_cell_vs_jit": N_("jit(TrainOneStepCell) / @jit functional step, both O1, paired round by round (x)"),
    "cell_vs_jit": N_("TrainOneStepCell / @jit functional step (part 3), paired round by round (x)"),
    "model_train_steps_per_s": N_("Model.train fed by the pipeline (steps/s)"),
    "naive_steps_per_s": N_("naive defaults (steps/s)"),
    "fixes_steps_per_s": N_("naive configuration with the two CPU settings (steps/s)"),
    "fixes_vs_naive_speedup":
        N_("two CPU settings / naive defaults, same configuration (x, median of paired ratios)"),
    "time_to_98_5_s": N_("course settings to 98.5% (training s)"),
    "naive_time_to_98_5_s": N_("naive defaults to 98.5% (training s)"),
    "time_to_99_0_s": N_("course settings to 99.0% (training s)"),
    "naive_time_to_99_0_s": N_("naive defaults to 99.0% (training s)"),
    "naive_time_to_98_5_s_range": N_("naive defaults to 98.5%, estimated range (training s)"),
    "naive_time_to_99_0_s_range": N_("naive defaults to 99.0%, estimated range (training s)"),
    "naive_time_to_98_5_s_low": N_("naive defaults to 98.5%, estimated low end (training s)"),
    "naive_time_to_98_5_s_high": N_("naive defaults to 98.5%, estimated high end (training s)"),
    "naive_time_to_99_0_s_low": N_("naive defaults to 99.0%, estimated low end (training s)"),
    "naive_time_to_99_0_s_high": N_("naive defaults to 99.0%, estimated high end (training s)"),
    "naive_time_to_98_5_s_estimate": N_("naive defaults to 98.5%, estimated (training s)"),
    "naive_time_to_99_0_s_estimate": N_("naive defaults to 99.0%, estimated (training s)"),
    "naive_time_to_98_5_s_wide_range": N_("naive defaults to 98.5%, step count's uncertainty included (training s)"),
    "naive_time_to_99_0_s_wide_range": N_("naive defaults to 99.0%, step count's uncertainty included (training s)"),
    "speedup_to_98_5_wide_range":
        N_("course settings' speed-up to 98.5%, step count's uncertainty included (x, range)"),
    "speedup_to_99_0_wide_range":
        N_("course settings' speed-up to 99.0%, step count's uncertainty included (x, range)"),
    "naive_time_to_98_5_s_noise_range":
        N_("naive defaults to 98.5%, widened by the noise floor (training s, two figures)"),
    "naive_time_to_99_0_s_noise_range":
        N_("naive defaults to 99.0%, widened by the noise floor (training s, two figures)"),
    "speedup_to_98_5_noise_range":
        N_("course settings' speed-up to 98.5%, widened by the noise floor (x, two figures)"),
    "speedup_to_99_0_noise_range":
        N_("course settings' speed-up to 99.0%, widened by the noise floor (x, two figures)"),
    "claim_noise_floor_pct": N_("noise floor of the 15% test (%)"),
    "modes_noise_floor_pct": N_("noise floor of the modes grid (%)"),
    "batch_sizes_noise_floor_pct": N_("noise floor of the batch-size sweep (%)"),
    "noise_floor_pct": N_("noise floor of part 1 (%)"),
    "lab_seconds": N_("lesson run time (s)"),
}


def metric_title(name: str) -> str:
    """The label of a headline figure in the course's language (the name itself if it has none)."""
    return tr(METRIC_TITLES[name]) if name in METRIC_TITLES else name


def shown(value):
    """A table cell's value as shown: a text the catalogue has (a case or input name the lab marks ``N_``) in the
    course's language; anything else unchanged."""
    return tr(value) if isinstance(value, str) else value


def _small_float(v) -> bool:
    return isinstance(v, float) and math.isfinite(v) and abs(v) < 1000


def _ratio(column: str) -> bool:
    """A column of ratios ("vs_baseline", "x forced"): two decimals, like the ratios in the sentences under it."""
    return column.startswith(("vs_", "x "))


def _mixed(values) -> bool:
    """A column with numbers below 1 (0.0877 s beside 0.665 s or 1.1 s): shown with two decimals throughout, rather
    than three significant digits below 1 and one decimal above. A column of tiny numbers only (all below 0.1) keeps
    its significant digits."""
    nums = [abs(v) for v in values if _small_float(v)]
    return any(0 < v < 1 for v in nums) and max(nums) >= 0.1


def format_rows(rows: Sequence[Mapping], columns: Sequence[str], titles: Optional[Mapping[str, str]] = None,
                left: Sequence[str] = ()) -> str:
    """A plain-text table of ``rows`` (dicts) showing ``columns``, headed by ``titles[column]`` or the column's
    key; keys and text cells are shown in the course's language where the catalogue has them (``shown``). The first
    column and the ``left`` ones are aligned left, the others right."""
    titles = dict(titles or {})
    head = [titles[c] if c in titles else column_title(c) for c in columns]
    body = [[shown(r.get(c)) for c in columns] for r in rows]
    two = [_ratio(c) or _mixed([b[i] for b in body]) for i, c in enumerate(columns)]
    body = [[f"{v:.2f}" if two[i] and _small_float(v) else table_cell(v) for i, v in enumerate(b)] for b in body]
    widths = [max(display_width(h), *(display_width(b[i]) for b in body)) if body else display_width(h)
              for i, h in enumerate(head)]
    # padded to the width a terminal shows (a Chinese character takes two columns)
    right = [i for i, c in enumerate(columns) if i and c not in left]
    return text_table([head, ["-" * w for w in widths]] + body, right=right)


def format_table(timings: Union[Mapping[str, Timing], Sequence[Timing]], baseline: Optional[str] = None,
                 first_call: bool = True, medians: bool = False) -> str:
    """Table of ``Timing`` results: first call (``first_call=False``: left out, e.g. for steps compiled before),
    median steps/s with its min-max, ratio to ``baseline``. ``medians``: that last column is titled "medians'
    ratio" (for a table printed beside a paired verdict, so the ratio of medians is not read as the paired one)."""
    items = list(timings.values()) if isinstance(timings, Mapping) else list(timings)
    base = next((t for t in items if t.name == baseline), None)
    rows = []
    for t in items:
        lo, hi = t.spread
        rows.append({"configuration": t.name, "first call s": t.first_call_s, "steps/s": t.steps_per_s,
                     "min-max": tr("{lo:.1f}-{hi:.1f}", lo=lo, hi=hi), "samples/s": t.samples_per_s,
                     f"x {baseline}" if base else "x": t.steps_per_s / base.steps_per_s if base else None})
    cols = ["configuration"] + (["first call s"] if first_call else []) + ["steps/s", "min-max"]
    if any(t.batch_size for t in items):
        cols.append("samples/s")
    if base:
        cols.append(f"x {baseline}")
    titles = {"configuration": tr("configuration"), "first call s": tr("first call s"), "steps/s": tr("steps/s"),
              "min-max": tr("min-max"), "samples/s": tr("samples/s"), f"x {baseline}": tr("medians' ratio") if medians
              else no_space_between_cjk(tr("x {baseline}", baseline=baseline))}
    return format_rows(rows, cols, titles)


#: A verdict in a table cell: the lab's one-word answers (``verdict``, the pipeline's ``costs``/``bottleneck``)
VERDICT_CELLS = {"tie": N_("tie"), "undecided": N_("undecided"), "faster": N_("faster (repeats apart)"),
                 "slower": N_("slower (repeats apart)"), "costs": N_("costs"), "bottleneck": N_("bottleneck"),
                 None: "-"}
#: Where 1.00 lies against a paired interval, in a table cell
PAIRED_CELLS = {"below": N_("below 1.00: slower"), "above": N_("above 1.00: faster"),
                "inside": N_("1.00 inside: not separated")}


def format_verdicts(entries: Sequence[Mapping], baseline: str, copy: Optional[str] = None,
                    titles: Optional[Mapping[str, str]] = None) -> str:
    """A small table of configurations judged against ``baseline`` (A) and, where one was timed, its ``copy`` (A'):
    one row per entry, with ``config``, ``x`` (its rate over A's; with ``x_copy``, over A''s too), and either
    ``paired`` (a ``paired_reading``: its median ratio, the lowest-highest range and where 1.00 lies), the verdict
    (lesson 07's rule), or, where no entry pairs, ``vs_a`` and ``vs_copy`` (the medians' one-word verdicts, or a
    cell's own message). A paired table leaves the medians' floor readings out: the
    lines under it give them, where they add anything. ``titles``: a column's own title instead."""
    def paired(pr):
        return "-" if not pr else tr("{med:.2f}x ({lo:.2f}-{hi:.2f}), {where}", med=pr["median"], lo=pr["low"],
                                     hi=pr["high"], where=tr(PAIRED_CELLS[pr["reading"]]))
    both = copy and all(e.get("x_copy") is not None for e in entries)   # the ratio over A and over A'
    rows = [{"config": e["config"], "x": f"{e['x']:.2f} / {e['x_copy']:.2f}" if both else f"{e['x']:.2f}",
             "vs_a": tr(VERDICT_CELLS.get(e.get("vs_a"), e.get("vs_a"))),
             "vs_copy": tr(VERDICT_CELLS[e.get("vs_copy")]), "paired": paired(e.get("paired"))} for e in entries]
    pairs = any(e.get("paired") for e in entries)   # then the paired interval is the verdict, the medians left out
    cols = ["config", "x"] + (["paired"] if pairs else ["vs_a"] + (["vs_copy"] if copy else []))
    against = N_("verdict vs {a}")
    x_head = (tr("x {a} / {b}", a=baseline, b=copy) if both else tr("x {baseline}", baseline=baseline))
    heads = {"config": tr("configuration"), "x": no_space_between_cjk(x_head),
             "vs_a": no_space_between_cjk(tr(against, a=baseline)),
             "vs_copy": no_space_between_cjk(tr(against, a=copy or "")),
             "paired": tr("verdict: paired ratio (lowest-highest)")
             if all(e["paired"].get("span", True) for e in entries if e.get("paired")) else
             tr("verdict: paired ratio (widened by the control)")
             if any(e["paired"].get("widened") for e in entries if e.get("paired")) else
             tr("verdict: paired ratio (95% interval)"), **(titles or {})}
    return format_rows(rows, cols, heads, left=["vs_a", "vs_copy", "paired"])


def pick(rows: Sequence[Mapping], **match) -> dict:
    """The row whose fields equal ``match``; KeyError naming the rows that exist otherwise.
    Conclusions pick rows this way, by name, never by position."""
    for r in rows:
        if all(r.get(k) == v for k, v in match.items()):
            return dict(r)
    names = [r.get("config", r.get("label", "?")) for r in rows]
    raise KeyError(f"no row with {match}; rows: {names}")


@dataclasses.dataclass
class Result:
    """What ``summarise`` returns: rows for a table, the columns to show, one conclusion sentence
    computed from the numbers, headline metrics; the runner adds the header and the conditions."""

    name: str
    rows: List[dict]
    columns: List[str]
    conclusion: str
    metrics: Dict[str, Any] = dataclasses.field(default_factory=dict)
    header: str = ""
    seconds: float = 0.0
    skipped: Optional[str] = None
    extra: Dict[str, Any] = dataclasses.field(default_factory=dict)
    conditions: Optional[Conditions] = None
    alternated: bool = True   # False: single, unalternated timings (the busy-machine warning says so)

    def table(self, max_rows: Optional[int] = None, key: Optional[str] = None, saved: Optional[str] = None) -> str:
        """The rows as a table; with ``max_rows``, only that many (the largest ``key`` first, if given),
        and a line saying how many rows there are in all and where (``saved``)."""
        if not max_rows or len(self.rows) <= max_rows:
            return format_rows(self.rows, self.columns)
        rows = sorted(self.rows, key=lambda r: -r[key]) if key else self.rows
        more = (tr("{shown} of {total} rows shown (largest {key} first); all of them in {path}", shown=max_rows,
                   total=len(self.rows), key=tr(key), path=saved) if key else
                tr("{shown} of {total} rows shown; all of them in {path}", shown=max_rows, total=len(self.rows),
                   path=saved))
        return format_rows(rows[:max_rows], self.columns) + "\n" + more

    def report(self, max_rows: Optional[int] = None, key: Optional[str] = None, saved: Optional[str] = None,
               table: bool = True) -> str:
        """What a person reads: the conditions, the table (see ``table``; ``table=False``: left out, where a later
        cell shows the rows), the conclusion, any warning."""
        if self.skipped:
            return tr("[{name}] skipped: {reason}", name=self.name, reason=self.skipped)
        parts = [f"[{self.name}] {self.header}".rstrip()]
        if self.conditions is not None:
            parts.append(self.conditions.describe())
        # labels end in ）; a table inside the conclusion (its columns padded with two spaces or more) keeps its padding
        conclusion = "\n".join(line if "  " in line else no_space_between_cjk(line)
                                for line in self.conclusion.split("\n"))
        parts += [self.table(max_rows, key, saved) if table else "", conclusion]
        if self.conditions is not None and self.conditions.warning(self.alternated):
            parts.append(self.conditions.warning(self.alternated))
        return "\n".join(p for p in parts if p)

    def __str__(self) -> str:
        return self.report()

    def row(self, **match) -> dict:
        return pick(self.rows, **match)

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "Result":
        data = dict(data)
        if data.get("conditions"):
            data["conditions"] = Conditions(**data["conditions"])
        return cls(**data)


def skipped(name: str, reason: str) -> Result:
    return Result(name, [], [], "", skipped=reason)


def jsonable(value):
    """``value`` with NaN/inf as None and tuples as lists (JSON has neither)."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return None
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def save_json(results: Iterable[Result], path: str) -> None:
    """Write results (with the header) to ``path`` as JSON, atomically."""
    data = {"header": header(), "results": {r.name: jsonable(r.as_dict()) for r in results}}
    atomic_write(path, json.dumps(data, indent=1, default=float))


def ratio(a: Optional[float], b: Optional[float]) -> float:
    return a / b if a is not None and b else float("nan")


_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"


def no_space_between_cjk(text: str) -> str:
    """A Chinese template filled with a Chinese name ("相对 {baseline} 的倍数" with "强制完成") leaves spaces
    between two Chinese characters; Chinese text has none there (a space stays next to Latin letters and digits)."""
    return re.sub(f"(?<=[{_CJK}]) +(?=[{_CJK}])", "", text)

