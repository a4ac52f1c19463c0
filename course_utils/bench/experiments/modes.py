"""Step-rate experiments: execution modes and jit levels, step styles, batch sizes.

Each experiment is ``measure(params) -> rows`` (runs MindSpore) and ``summarise(rows, params) ->
Result`` (pure: the table and a conclusion computed from the rows, picked by name).
"""

from __future__ import annotations

import dataclasses
import math
import os
import statistics
import time
from typing import Mapping, Optional, Sequence, Tuple

from course_utils import runtime
from course_utils.i18n import N_, tr

from ..harness import (Config, compare, control_gap, cycle, faster_beyond, force, interval_side, leaders,
                       noise_floor_pct, paired_ratio, ranges_overlap, verdict, widened)
from ..isolation import TRAP_VARS
from ..params import BatchSizesParams, ForcingParams, ModesParams, StepRatesParams, StylesParams
from ..report import Result, pick
from ..steps import (TIMING_COLUMNS, Spec, build_step, lenet_setup, mnist_batches, step_configs,
                     timing_rows)
from .common import (INCONCLUSIVE, control_reading, copies_factor, copies_gap_pct, judged, setup_worker,
                     short_reading, spread_pct, verdict_table, within_copies)


# -- labels: what the tables call a configuration key -----------------------------------------------

def label_of(config: str) -> str:
    """The shown name of a configuration key of these experiments, in the course's language: a spec's label
    (``Spec.label``), ``"<key> copy"`` as "<label>, second copy", ``"<spec> +pipeline"`` as the spec's label,
    ``"batch N"``, the forcing keys (``FORCING``); any other key as it is. The measuring code stays free of
    labels: each ``summarise_*`` names its rows with this."""
    forcing = dict(FORCING)
    if config in forcing:
        return tr(forcing[config])
    if config.endswith(" copy"):
        return tr(COPY_LABEL, label=label_of(config[:-len(" copy")]))
    if config.endswith(" +pipeline"):
        return label_of(config[:-len(" +pipeline")])
    if config.startswith("batch ") and config[6:].isdigit():
        return tr("batch {n}", n=int(config[6:]))
    try:
        return Spec.parse(config).label
    except ValueError:
        return config


def _labelled(rows: list) -> list:
    return [dict(r, label=label_of(r["config"])) for r in rows]


# -- the A/A' control: one configuration timed twice --------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Twin:
    """A configuration timed twice in one alternation: its second copy's row (key ``"<config> copy"``), the original's
    row, and the A/A' control, the copy's rate over the original's round by round (``median``, ``low``-``high``), with
    the ``gap`` a failed control widens every interval read with it by (``harness.control_gap``; None when the control
    holds 1.00). Found by ``find_twin``: the one place these experiments find a copy and decide the widening."""

    copy: dict
    original: dict
    median: float
    low: float
    high: float
    gap: Optional[tuple]

    @property
    def config(self) -> str:
        return self.original["config"]


def find_twin(rows: list, key: Optional[str] = None) -> Optional[Twin]:
    """The ``Twin`` of ``rows``: the copy ``key`` (by default the first row whose key ends in " copy"), its original
    (the key without " copy") and their control; None without a copy, or with one of fewer than two rounds to pair."""
    copy = next((r for r in rows if (r["config"] == key if key else r["config"].endswith(" copy"))), None)
    if copy is None or len(copy.get("repeat_s", ())) < 2:
        return None
    original = pick(rows, config=copy["config"][:-len(" copy")])
    med, lo, hi = paired_ratio(copy, original)
    return Twin(copy, original, med, lo, hi, control_gap(lo, hi))


def paired_with_twin(a: dict, b: dict, twin: Optional[Twin], scale: float = 1.0) -> Tuple[float, float, float, bool]:
    """``a``'s rate over ``b``'s round by round, times ``scale`` (a batch-size ratio turns steps/s into samples/s):
    ``(median, low, high, both)``. Where ``a`` or ``b`` is the twin's original, it is paired with both copies
    (``both``): the interval is the two intervals together (their union), the median the one against the first copy.
    Then the interval is widened by the twin's gap (``harness.widened``), if its control failed."""
    med, lo, hi = (scale * v for v in paired_ratio(a, b))
    both = twin is not None and twin.config in (a["config"], b["config"])
    if both:
        _, lo2, hi2 = (scale * v for v in (paired_ratio(twin.copy, b) if a["config"] == twin.config else
                                           paired_ratio(a, twin.copy)))
        lo, hi = min(lo, lo2), max(hi, hi2)
    return (med, *widened(lo, hi, twin.gap if twin is not None else None), both)


#: The one-line summary of a part, its pairs' sides in one word each.
SIDE_WORD = {"above": N_("faster than"), "below": N_("slower than"), "inside": N_("not separated from"),
             "within": N_("within the copies' gap of")}


def copies_of(twin: Optional[Twin]) -> Optional[tuple]:
    """The A/A' control's ``(low, high)`` for ``short_reading``'s ``copies``, where it holds 1.00; None without a
    control, or when it came apart (its gap already widened every interval: ``paired_with_twin``)."""
    return (twin.low, twin.high) if twin is not None and twin.gap is None else None


def side_of(lo: float, hi: float, copies: Optional[tuple] = None) -> str:
    """``interval_side``, or ``"within"`` where an interval beyond 1.00 lies within the copies' gap
    (``common.within_copies``)."""
    return "within" if within_copies(lo, hi, copies) else interval_side(lo, hi)


def control_row(label: str, twin: Twin) -> tuple:
    """A verdict table's row for an A/A' control: ``label``, its median and interval, and its line
    (``common.control_reading``: as it should be; holding 1.00 with the copies N% apart; or apart, the rows widened).
    Never a verdict on the rows: each is read by itself with the copies' gap rule."""
    return (label, twin.median, twin.low, twin.high, control_reading(twin.low, twin.high))


def found_line(items: Sequence[tuple]) -> str:
    """"This run found: A faster than B; C not separated from D." from ``(template, low, high[, copies])`` items, each
    template with a ``{side}`` ("faster than", "slower than", "not separated from", or with ``copies`` (the A/A'
    control's interval) "within the copies' gap of": ``side_of``): a part's verdicts in one computed line."""
    return tr("This run found: {items}.", items=tr("; ").join(
        tr(item[0], side=tr(SIDE_WORD[side_of(*item[1:])])) for item in items))


# -- step_rates: the worker behind cpu_traps (and notebooks/scripts/bench_step.py's twin) -----------

def measure_step_rates(p: StepRatesParams) -> list:
    """Steps/s of ``p.specs`` in this process, whose environment the parent chose: on in-memory batches, in
    alternation; or (``p.fed_batches``) each trained by ``fit`` on that many batches of the MNIST pipeline,
    with ``fit``'s rate (the calls after the first over their time, waiting for a batch not counted)."""
    setup_worker(p)
    env = {k: os.environ.get(k, "") for k in TRAP_VARS + ("MS_DEV_JIT_PIPELINE",)}
    if not p.fed_batches:
        timings = compare(step_configs(p.specs, p.batch_size), steps=p.steps, repeats=p.repeats)
        return timing_rows(timings, env=env)
    from course_utils.data import mnist_dataset
    from course_utils.training import fit

    rows = []
    for text in p.specs:
        spec = Spec.parse(text)
        step = build_step(spec, *lenet_setup())
        data = mnist_dataset("train", batch_size=p.batch_size, subset=p.batch_size * p.fed_batches, seed=p.seed)
        result = fit(step, data, epochs=1, progress=False)
        rows.append({"config": str(spec), "label": spec.label, "steps_per_s": result.steps_per_s,
                     "first_call_s": result.first_step_seconds, "steps": result.steps, "env": env})
    return rows


def summarise_step_rates(rows: list, p: StepRatesParams) -> Result:
    fastest = max(rows, key=lambda r: r["steps_per_s"])
    return Result("step_rates", rows, TIMING_COLUMNS, tr("Fastest: {label} at {rate:.1f} steps/s.",
                                                         label=fastest["label"], rate=fastest["steps_per_s"]))


# -- forcing: rule 2 in a fresh process, host blocking on or off -------------------------------------

#: The forcing experiment's configurations: (key, label).
FORCING = (("each", N_("forced every step")), ("each copy", N_("forced every step, second copy")),
           ("end", N_("forced at the end of each repeat")), ("none", N_("not forced")))


def measure_forcing(p: ForcingParams) -> list:
    """One compiled step in this process (whose environment the parent chose), timed four ways in alternation:
    forced every step (twice: A and A', the floor), forced only at the end of each repeat, and not forced; whatever a
    repeat left queued finishes before the next one, untimed."""
    setup_worker(p, Spec.parse(p.spec).mode)
    step = cycle(build_step(p.spec, *lenet_setup()), mnist_batches(p.batch_size, count=8))
    state = {"calls": 0, "last": None}

    def drain():   # before each repeat, untimed: let the work a repeat left queued finish
        if state["last"] is not None:
            force(state["last"])
        state.update(calls=0, last=None)

    def not_forced():   # returns None: compare's force() has nothing to wait for
        state["last"] = step()

    def forced_at_end():   # the repeat's last step waits inside the timed region: the whole repeat's work counted
        state["last"], state["calls"] = step(), state["calls"] + 1
        if state["calls"] == p.steps:
            force(state["last"])

    configs = {"each": Config(step, drain), "each copy": Config(step, drain), "end": Config(forced_at_end, drain),
               "none": Config(not_forced, drain)}
    timings = compare(configs, steps=p.steps, repeats=p.repeats)
    return timing_rows(timings, host_blocking=os.environ.get("MS_DEV_HOST_BLOCKING_RUN", ""))


def summarise_forcing(rows: list, p: ForcingParams) -> Result:
    """One verdict table, each pair read round by round (check 2's rule): the control (A' over A), then
    forced at the end of each repeat and not forced, each over both copies of forced every step."""
    rows = _labelled(rows)
    each, copy, end, none = (pick(rows, config=k) for k, _ in FORCING)
    twin = find_twin(rows, "each copy")   # a failed control widens every interval of this grid
    copies = copies_of(twin)   # an interval beyond 1.00 within the copies' gap: not read as a difference
    table, paired = [control_row(tr("control: forced every step, A′ / A"), twin)], {}
    for key, row, said in (("end", end, tr("forced at the end of each repeat / every step")),
                           ("none", none, tr("not forced / forced every step"))):
        med, lo, hi, _ = paired_with_twin(row, each, twin)   # against both copies of forced every step
        paired[key] = med, lo, hi
        # not forced below forced, beyond the copies' gap: a broken premise, not "slower" (``forcing_words``)
        table.append((said, med, lo, hi, tr(INCONCLUSIVE) if key == "none" and side_of(lo, hi, copies) == "below"
                      else short_reading(lo, hi, copies)))
    lines = [verdict_table(table)]
    metrics = {"forced_each_steps_per_s": each["steps_per_s"]}
    for key, (med, lo, hi) in paired.items():
        metrics.update({f"{key}_vs_each": med, f"{key}_vs_each_low": round(lo, 2), f"{key}_vs_each_high": round(hi, 2),
                        f"{key}_vs_each_side": interval_side(lo, hi)})
    return Result("forcing", rows, ["label", "steps_per_s", "min_steps_per_s", "max_steps_per_s"], "\n".join(lines),
                  metrics)


# -- modes ------------------------------------------------------------------------------------------

def measure_modes(p: ModesParams) -> list:
    """Every configuration in ``p.specs``, timed in this process in alternation, with a second copy of ``p.copy``
    in the same alternation (one configuration timed twice: the noise floor of this grid)."""
    setup_worker(p)
    configs = step_configs(p.specs, p.batch_size)
    if p.copy:   # A and A': one configuration twice
        configs[p.copy + " copy"] = step_configs([p.copy], p.batch_size)[p.copy]
    return timing_rows(compare(configs, steps=p.steps, repeats=p.repeats))


def _own_floor(rows: list, default: float) -> Tuple[list, str, float]:
    """Split a grid's rows into (the grid, the label of the configuration timed twice or "", the noise floor): with
    an A' copy (the row ``<config> copy``), the floor is ``noise_floor_pct`` on the two copies' repeats; without one,
    ``default``."""
    grid = [r for r in rows if not r["config"].endswith(" copy")]
    copy = next((r for r in rows if r["config"].endswith(" copy")), None)
    if copy is None:
        return grid, "", default
    original = pick(grid, config=copy["config"][:-len(" copy")])
    return grid, original["label"], noise_floor_pct(original, copy)


#: The pairs part 2 judges, each ``(a, b, metric)``: a's rate over b's, round by round, where the grid ran both; the
#: headline keeps the ratio of those with a metric name (and its interval, ``<metric>_low``/``_high``).
PAIRS = (("graph/cell", "pynative/cell", "graph_vs_pynative"),
         ("pynative/jit:O0", "pynative/functional", "jit_vs_no_jit"),
         ("pynative/jit:O1", "pynative/jit:O0", "o1_vs_o0"), ("graph/cell", "pynative/jit:O0", "graph_cell_vs_jit"),
         ("pynative/jit_cell:O1", "pynative/jit:O1", "jit_cell_vs_jit"),
         ("graph/cell", "pynative/jit_cell:O0", "graph_cell_vs_jit_cell"),
         ("graph/cell", "graph/functional", "graph_cell_vs_functional"))
#: Each pair's name in part 2's verdict table (short: the table fits a notebook's width), and in its found line.
PAIR_LABELS = {"graph_vs_pynative": N_("GRAPH_MODE / PyNative, TrainOneStepCell"),
               "jit_vs_no_jit": N_("@jit O0 / no jit, functional step"),
               "o1_vs_o0": N_("O1 / O0, @jit functional step"),
               "graph_cell_vs_jit": N_("TrainOneStepCell (GRAPH_MODE) / @jit O0"),
               "jit_cell_vs_jit": N_("jit(TrainOneStepCell) / @jit, both O1"),
               "graph_cell_vs_jit_cell": N_("TrainOneStepCell (GRAPH_MODE) / jit(TrainOneStepCell) O0"),
               "graph_cell_vs_functional": N_("TrainOneStepCell / functional step, no @jit (GRAPH_MODE)")}
PAIR_FOUND = {"graph_vs_pynative": N_("GRAPH_MODE {side} PyNative"), "jit_vs_no_jit": N_("@jit {side} no jit"),
              "o1_vs_o0": N_("O1 {side} O0"), "graph_cell_vs_jit": N_("TrainOneStepCell {side} @jit"),
              "jit_cell_vs_jit": N_("jit(TrainOneStepCell) {side} @jit"),
              "graph_cell_vs_jit_cell": N_("TrainOneStepCell {side} jit(TrainOneStepCell)"),
              "graph_cell_vs_functional": N_("TrainOneStepCell {side} the functional step without @jit")}


def summarise_modes(rows: list, p: ModesParams) -> Result:
    rows = _labelled(rows)
    base = p.specs[0]   # the first configuration asked for is the baseline
    rows = [dict(r, vs_baseline=r["steps_per_s"] / pick(rows, config=base)["steps_per_s"]) for r in rows]
    everything = rows
    fastest = max(rows, key=lambda r: r["steps_per_s"])
    rows, twice, noise = _own_floor(
        rows, p.noise_pct or 50.0 * (fastest["max_steps_per_s"] - fastest["min_steps_per_s"]) / fastest["steps_per_s"])
    tied = leaders(rows, noise)
    order = {spec: i for i, spec in enumerate(p.specs)}
    best = min(tied, key=lambda r: order.get(r["config"], len(order)))   # of a tie, the first in the order asked for
    slow = min(rows, key=lambda r: r["steps_per_s"])
    worst_first = max(rows, key=lambda r: r["first_call_s"])
    runner = max((r for r in rows if r is not best), key=lambda r: r["steps_per_s"], default=None)
    if len(tied) == 1 and runner is not None and ranges_overlap(best, runner):   # the overlap rule (optional box)
        lines = [tr("{best} has the highest median, {rate:.1f} steps/s, {gap:.0f}% above {runner}, but their repeats "
                    "overlap: undecided.", best=best["label"], rate=best["steps_per_s"],
                    gap=100 * (best["steps_per_s"] / runner["steps_per_s"] - 1), runner=runner["label"])]
    elif len(tied) == 1:
        lines = [tr("Fastest beyond the noise floor: {best}, {rate:.1f} steps/s, {ratio:.1f}x the slowest.",
                    best=best["label"], rate=best["steps_per_s"], ratio=best["steps_per_s"] / slow["steps_per_s"])]
    else:
        lines = [tr("Tied at the top, within the noise floor ({lo:.1f}-{hi:.1f} steps/s): {names}.",
                    names=runtime.listing((r["label"] for r in tied), labels=True),
                    lo=min(r["steps_per_s"] for r in tied), hi=max(r["steps_per_s"] for r in tied))]
    # the overlap rule: beyond the floor of the highest median, but repeats overlapping its
    said_runner = runner if len(tied) == 1 else None   # the first branch above already called it undecided
    unsure = [r for r in rows if r not in tied and r is not said_runner and ranges_overlap(tied[0], r)]
    if unsure:
        lines.append(tr("Undecided against the highest median (beyond the floor, repeats overlapping): {names}.",
                        names=runtime.listing((r["label"] for r in unsure), labels=True)))
    # the tie rule at the bottom too: every configuration within the floor of the lowest median shares "slowest"
    bottom = [slow] + [r for r in rows if r is not slow and not faster_beyond(r["steps_per_s"], slow["steps_per_s"],
                                                                               noise)]
    if len(bottom) == 1:
        lines.append(tr("Slowest: {slow}, {slow_rate:.1f} steps/s.", slow=slow["label"],
                        slow_rate=slow["steps_per_s"]))
    else:
        lines.append(tr("Tied at the bottom, within the noise floor ({lo:.1f}-{hi:.1f} steps/s): {names}.",
                        names=runtime.listing((r["label"] for r in bottom), labels=True),
                        lo=slow["steps_per_s"], hi=max(r["steps_per_s"] for r in bottom)))
    lines.append(tr("Biggest first call: {first_s:.2f} s ({first}), as long as {first_steps:.0f} steady-state steps "
                    "(second copies left out).",
                    first_s=worst_first["first_call_s"], first=worst_first["label"],
                    first_steps=worst_first["first_call_s"] * worst_first["steps_per_s"]))
    names = {r["config"] for r in rows}
    # the configuration lesson 08 goes on with where it cannot measure the CPU settings (the fastest, or of a tie
    # the first asked for)
    metrics = {"best_config": best["config"]}
    if {"graph/cell", "pynative/cell"} <= names:
        g, e = pick(rows, config="graph/cell"), pick(rows, config="pynative/cell")
        metrics["graph_steps_per_s"] = g["steps_per_s"]
        metrics["pynative_steps_per_s"] = e["steps_per_s"]
    if twice:
        metrics["modes_noise_floor_pct"] = noise
    if all(len(r.get("repeat_s", ())) >= 2 for r in rows):
        # the verdicts: check 2's rule, one rate over another round by round, where the grid ran both. The medians'
        # reading (the A/A' floor) is not printed: it only picks ``best_config``, lesson 08's step off the CPU.
        # First the A/A' control (one configuration timed twice, paired the same way): when its interval leaves out
        # 1.00, pairing did not cancel what differs between two instances, and every interval is widened by the gap
        table, found = [], []
        twin = find_twin(everything)
        gap = twin.gap if twin is not None else None
        if twin is not None:
            table.append(control_row(tr("control: {label}, A′ / A", label=twin.original["label"]), twin))
        for a, b, key in PAIRS:
            if {a, b} <= names:
                ra, rb = pick(rows, config=a), pick(rows, config=b)
                # a pair with the copied configuration: paired with both copies; widened by a failed control
                med, lo, hi, both = paired_with_twin(ra, rb, twin)
                table.append((tr(PAIR_LABELS[key]), med, lo, hi))   # read with the copies' gap rule
                found.append((PAIR_FOUND[key], lo, hi, copies_of(twin)))
                metrics.update({key: med, f"{key}_low": round(lo, 2), f"{key}_high": round(hi, 2),
                                f"{key}_verdict": interval_side(lo, hi), f"{key}_together": both})
                if gap is not None:   # the headline says so beside the verdict, as part 3's does
                    metrics.update({f"{key}_control_low": round(twin.low, 2),
                                    f"{key}_control_high": round(twin.high, 2)})
                elif twin is not None:   # the headline reads the verdict against the copies' gap too
                    metrics.update({f"{key}_copies_low": round(twin.low, 2), f"{key}_copies_high": round(twin.high, 2)})
        paired = [verdict_table(table, copies_of(twin))] if table else []
        if found:
            lines.append(found_line(found))
        text = "\n".join(paired + lines[-2:] if found else paired + lines[-1:])
        return Result("modes", everything, TIMING_COLUMNS, text, metrics)   # paired verdicts: no medians' ratio
    # no rounds to pair (rows without their repeats): the medians against the floor are all there is
    if "graph_steps_per_s" in metrics:
        lines.append(tr("GRAPH_MODE against PyNative, TrainOneStepCell: {r:.2f}x, {verdict}.",
                        r=g["steps_per_s"] / e["steps_per_s"], verdict=judged(g, e, noise)))
        metrics["graph_vs_pynative"] = g["steps_per_s"] / e["steps_per_s"]
        metrics["graph_vs_pynative_verdict"] = verdict(g, e, noise)
    jitted = [r for r in rows if r["config"] in ("pynative/jit:O0", "pynative/jit:O1")]
    if "pynative/functional" in names and jitted:   # the first article's claim: without @jit, much slower
        plain, jit = pick(rows, config="pynative/functional"), jitted[0]
        lines.append(tr("@jit ({level}) on the PyNative functional step: {r:.2f}x ({jit_rate:.1f} vs {plain_rate:.1f} "
                        "steps/s), {verdict}.", level=Spec.parse(jit["config"]).level,
                        r=jit["steps_per_s"] / plain["steps_per_s"], jit_rate=jit["steps_per_s"],
                        plain_rate=plain["steps_per_s"], verdict=judged(jit, plain, noise)))
        metrics["jit_vs_no_jit"] = jit["steps_per_s"] / plain["steps_per_s"]
        metrics["jit_vs_no_jit_verdict"] = verdict(jit, plain, noise)
    if {"pynative/jit:O0", "pynative/jit:O1"} <= names:   # what O1's fusion passes do to this step here
        o0, o1 = pick(rows, config="pynative/jit:O0"), pick(rows, config="pynative/jit:O1")
        lines.append(tr("jit_level O1 against O0, same step: {r:.2f}x ({o1:.1f} vs {o0:.1f} steps/s), {verdict}.",
                        r=o1["steps_per_s"] / o0["steps_per_s"], o1=o1["steps_per_s"], o0=o0["steps_per_s"],
                        verdict=judged(o1, o0, noise)))
    if twice:
        lines.insert(0, tr("Noise floor of this grid: {floor:.1f}%, from {label} timed twice (the second copy is no "
                           "contestant).", floor=noise, label=twice))
    text = "\n".join(lines)   # one finding, one sentence, per line
    return Result("modes", everything, TIMING_COLUMNS + ["vs_baseline"], text, metrics)


# -- styles -----------------------------------------------------------------------------------------

STYLE_SPECS = ("graph/functional", "graph/cell")
#: The functional step compiled too, on in-memory batches only: TrainOneStepCell's like-for-like rival.
JIT_SPEC = "pynative/jit:O0"
#: The ``input`` of a styles row (a key; tables show it in the course's language).
IN_MEMORY, PIPELINE = N_("in-memory batches"), N_("data pipeline")
#: The second copy of the functional step in the claim's comparison (its label: ``COPY_LABEL``).
COPY, COPY_LABEL = "graph/functional copy", N_("{label}, second copy")


def measure_styles(p: StylesParams) -> list:
    """The functional step, TrainOneStepCell and the functional step under @jit on in-memory batches, with a second
    copy of the functional step (one configuration timed twice: the noise floor of exactly these settings),
    ``p.claim_repeats`` rounds; then the first two and Model.train fed by the same MNIST pipeline, one pass of
    ``p.steps`` batches per repeat, with a second copy of the functional loop (the floor of the pipeline passes)."""
    import mindspore as ms

    from course_utils.data import mnist_dataset

    setup_worker(p)
    configs = step_configs(STYLE_SPECS + (JIT_SPEC,), p.batch_size)
    # A and A': one configuration twice
    configs[COPY] = step_configs(["graph/functional"], p.batch_size)["graph/functional"]
    start = time.perf_counter()
    timings = compare(configs, steps=p.steps, repeats=p.claim_repeats)
    claim_s = time.perf_counter() - start
    rows = timing_rows(timings, input=IN_MEMORY, claim_s=claim_s)
    data = mnist_dataset("train", batch_size=p.batch_size, subset=p.batch_size * p.steps, shuffle=False)
    passes = {}
    for text in STYLE_SPECS + (STYLE_SPECS[0],):   # the functional loop twice: A and A' of the pipeline passes
        step = build_step(text, *lenet_setup())

        def one_pass(step=step):
            loss = None
            for images, labels in data.create_tuple_iterator(num_epochs=1):
                loss = step(images, labels)
            return loss

        passes[text + " +pipeline" + (" copy" if text + " +pipeline" in passes else "")] = one_pass
    net, loss_fn, opt = lenet_setup()
    model = ms.Model(net, loss_fn=loss_fn, optimizer=opt)
    passes["Model.train"] = lambda: model.train(1, data, dataset_sink_mode=False)
    for row in timing_rows(compare(passes, steps=1, repeats=p.repeats, warmup=2), input=PIPELINE):
        n = p.steps   # one "step" of compare is a pass of n batches
        row.update(steps_per_s=n * row["steps_per_s"], min_steps_per_s=n * row["min_steps_per_s"],
                   max_steps_per_s=n * row["max_steps_per_s"])
        rows.append(row)
    return rows


CLAIMED_RATIO = 1.15   # the first article: TrainOneStepCell "about 15% faster" than a hand-written loop (on Ascend)
PIPELINE_COPY = "graph/functional +pipeline copy"


def claim_reading(lo: float, hi: float, claim: float = CLAIMED_RATIO, edge: float = 0.02,
                  with_zero: bool = True, copies: Optional[tuple] = None) -> str:
    """Where the claimed ratio and 1.00 lie against a paired interval ``lo``-``hi``, in one clause each. Within
    ``edge`` of an end the claim is "at the edge": the article says "about 15%", no exact figure, while 1.00 (no
    difference at all) is exact, so 1.00 gets no such margin. ``with_zero=False``: the claim's clause only (the
    headline's verdict says where 1.00 lies already). ``copies``: as ``claim_words``."""
    in_copies = _claim_in_copies(lo, hi, claim, copies)
    lo, hi = round(lo, 2), round(hi, 2)   # judged as printed: an interval shown as 1.00-1.16 does not exclude 1.00
    if in_copies:
        said = tr("the article's {claim:.2f}x lies outside the interval, but the copies came up to {pct:.0f}% apart: "
                  "not decided", claim=claim, pct=copies_gap_pct(*copies))
    elif claim > hi + edge:
        said = tr("the article's {claim:.2f}x lies above the interval, ruled out here", claim=claim)
    elif claim > hi:
        said = tr("the article's {claim:.2f}x lies at the interval's upper edge, not firmly ruled out", claim=claim)
    elif claim < lo - edge:
        said = tr("the article's {claim:.2f}x lies below the interval: TrainOneStepCell was even faster", claim=claim)
    elif claim < lo:
        said = tr("the article's {claim:.2f}x lies at the interval's lower edge: about as fast as claimed", claim=claim)
    else:
        said = tr("the article's {claim:.2f}x lies inside the interval, not ruled out", claim=claim)
    zero = {"above": tr("1.00 (no difference) lies below it, ruled out"),
            "below": tr("1.00 lies above it: TrainOneStepCell was slower"),
            "inside": tr("1.00 (no difference) lies inside it, not ruled out")}[interval_side(lo, hi)]
    if not with_zero:
        return tr("{said}.", said=said[:1].upper() + said[1:])
    return tr("{said}; {zero}.", said=said[:1].upper() + said[1:], zero=zero)


#: Where the claimed ratio lies against a paired interval, in a few words (``claim_words``).
CLAIM_WORDS = {"above": N_("ruled out (above the interval)"), "edge": N_("at the interval's edge"),
               "inside": N_("not ruled out (inside)"), "below": N_("below the interval: even faster"),
               "copies": N_("not decided (the copies came up to {pct:.0f}% apart)")}


def _claim_in_copies(lo: float, hi: float, claim: float, copies: Optional[tuple]) -> bool:
    """True when the claim lies outside ``lo``-``hi`` but the control's copies (``copies``, its interval) came as
    far apart as the claim itself (1.24 against 1.15): by the copies' gap rule the run cannot tell the claim from the
    difference between two copies of one configuration, so it does not rule on it."""
    return copies is not None and copies_factor(*copies) >= claim and not round(lo, 2) <= claim <= round(hi, 2)


def claim_words(lo: float, hi: float, claim: float = CLAIMED_RATIO, edge: float = 0.02,
                copies: Optional[tuple] = None) -> str:
    """``claim_reading``'s verdict on the claim in a few words: ruled out above the interval, at an edge (within
    ``edge``), not ruled out inside it, or below it (TrainOneStepCell even faster); the ends as printed. ``copies``:
    the control's interval; where its copies came as far apart as the claim, "not decided" (``_claim_in_copies``)."""
    if _claim_in_copies(lo, hi, claim, copies):
        return tr(CLAIM_WORDS["copies"], pct=copies_gap_pct(*copies))
    lo, hi = round(lo, 2), round(hi, 2)
    key = ("above" if claim > hi + edge else "edge" if claim > hi else "below" if claim < lo - edge else
           "edge" if claim < lo else "inside")
    return tr(CLAIM_WORDS[key])


def style_intervals(rows: list) -> dict:
    """The paired readings of the styles experiment, ``{key: (median, low, high)}``, a's steps/s over b's round by
    round: ``cell`` TrainOneStepCell over the functional step (in-memory batches), ``control`` the functional step's
    second copy over it (when it ran), ``cell_fed`` and ``model`` TrainOneStepCell and Model.train over the functional
    loop fed by the pipeline, ``control_fed`` the fed loop's second copy over it. Where a second copy ran, a reading
    against it counts too: the interval is the two paired intervals together (their union), the median the one
    against the first copy; where a copy came apart from its original, the interval is also widened by their gap
    (``paired_with_twin``)."""
    return _style_readings(rows)[0]


def _style_readings(rows: list) -> Tuple[dict, Optional[Twin], Optional[Twin]]:
    """``style_intervals`` and the two twins they were read with: (intervals, in-memory twin, pipeline twin)."""
    func, cell = pick(rows, config="graph/functional"), pick(rows, config="graph/cell")
    fed = pick(rows, config="graph/functional +pipeline")
    twin, fed_twin = find_twin(rows, COPY), find_twin(rows, PIPELINE_COPY)
    out = {"cell": paired_with_twin(cell, func, twin)[:3]}
    jit = next((r for r in rows if r["config"] == JIT_SPEC), None)
    if jit is not None:   # the like-for-like pair: both compiled; widened by a control that came apart, as every row
        med, lo, hi = paired_ratio(cell, jit)
        out["cell_jit"] = (med, *widened(lo, hi, twin.gap if twin is not None else None))
    if twin is not None:
        out["control"] = (twin.median, twin.low, twin.high)
    out["cell_fed"] = paired_with_twin(pick(rows, config="graph/cell +pipeline"), fed, fed_twin)[:3]
    out["model"] = paired_with_twin(pick(rows, config="Model.train"), fed, fed_twin)[:3]
    if fed_twin is not None:
        out["control_fed"] = (fed_twin.median, fed_twin.low, fed_twin.high)
    return out, twin, fed_twin


def summarise_styles(rows: list, p: StylesParams) -> Result:
    rows = _labelled(rows)
    rows = [dict(r, label_input=tr("{label}, {input}", label=r["label"], input=tr(r["input"]))) for r in rows]
    lines = []
    pairs, twin, fed_twin = _style_readings(rows)   # the widening is decided there, once
    med, lo, hi = pairs["cell"]
    table = []
    if twin is not None:
        table.append(control_row(tr("control: functional step, A′ / A"), twin))
    # two compiled pieces run from Python, not a whole step: the label says so
    table.append((tr("TrainOneStepCell / functional step, no @jit (GRAPH_MODE)"), med, lo, hi))
    if "cell_jit" in pairs:
        table.append((tr("TrainOneStepCell / @jit functional step"), *pairs["cell_jit"]))
    if fed_twin is not None:
        table.append(control_row(tr("control, pipeline: functional loop, A′ / A"), fed_twin))
    mem, fed = copies_of(twin), copies_of(fed_twin)   # each pair read against its own control's gap
    table = [row if len(row) > 4 else (*row, short_reading(*row[2:4], mem)) for row in table]
    table += [(tr("pipeline: TrainOneStepCell / functional loop"), *pairs["cell_fed"],
               short_reading(*pairs["cell_fed"][1:], fed)),
              (tr("pipeline: Model.train / functional loop"), *pairs["model"], short_reading(*pairs["model"][1:], fed))]
    lines.append(verdict_table(table))
    lines.append(tr("The article's {claim:.2f}x: in memory, {mem}; fed by the pipeline, {fed}.", claim=CLAIMED_RATIO,
                    mem=claim_words(lo, hi, copies=mem), fed=claim_words(*pairs["cell_fed"][1:], copies=fed)))
    found = [(N_("TrainOneStepCell {side} the functional step without @jit"), lo, hi, mem)]
    if "cell_jit" in pairs:
        found.append((N_("TrainOneStepCell {side} the @jit functional step"), *pairs["cell_jit"][1:], mem))
    lines.append(found_line(found))
    lo, hi = round(lo, 2), round(hi, 2)
    # the headline's verdict comes from the paired intervals (both together, their union, when the copy ran), not
    # from the medians: pairing cancels the load of a round, which the medians' floor has to include
    metrics = {"cell_vs_functional": med, "cell_vs_functional_low": lo, "cell_vs_functional_high": hi,
               "cell_vs_functional_verdict": interval_side(lo, hi),
               "cell_vs_functional_together": twin is not None,
               # the headline's verdict: the "15%" ruling too (where 1.00 lies, the verdict itself says)
               "cell_vs_functional_note": claim_reading(lo, hi, with_zero=False, copies=mem)}
    if "cell_jit" in pairs:   # the like-for-like pair, both compiled
        j_med, j_lo, j_hi = pairs["cell_jit"]
        metrics.update(cell_vs_jit=j_med, cell_vs_jit_low=round(j_lo, 2), cell_vs_jit_high=round(j_hi, 2),
                       cell_vs_jit_verdict=interval_side(j_lo, j_hi))
    if twin is not None and twin.gap is not None:   # the A/A' control left out 1.00: the headline says so
        for key in ("cell_vs_functional", "cell_vs_jit") if "cell_jit" in pairs else ("cell_vs_functional",):
            metrics.update({f"{key}_control_low": round(twin.low, 2), f"{key}_control_high": round(twin.high, 2)})
    elif mem is not None:   # the headline reads these verdicts against the copies' gap too
        for key in ("cell_vs_functional", "cell_vs_jit") if "cell_jit" in pairs else ("cell_vs_functional",):
            metrics.update({f"{key}_copies_low": round(mem[0], 2), f"{key}_copies_high": round(mem[1], 2)})
    # no ratio of medians: the verdict table pairs the rounds, and a ratio of medians beside it would disagree
    cols = ["label", "input", "first_call_s", "steps_per_s", "min_steps_per_s", "max_steps_per_s"]
    return Result("styles", rows, cols, "\n".join(lines), metrics)


def compiled_pair(modes: Result, noise_pct: float = 0.0) -> str:
    """What part 2 measured for the compiled pairs that part 3 does not time, each in one alternation, judged against
    that grid's own floor (its A/A' copy; without one, ``noise_pct``): TrainOneStepCell in GRAPH_MODE against the
    functional step under @jit (O0), and, when the grid ran both, jit(TrainOneStepCell) against @jit functional at the
    same jit_level. One line per pair; "" without any pair."""
    names = {r["config"] for r in modes.rows}
    rows, _, noise = _own_floor(modes.rows, noise_pct)
    lines = []
    pairs = [("graph/cell", "pynative/jit:O0")] + [(f"pynative/jit_cell:{lv}", f"pynative/jit:{lv}")
                                                   for lv in ("O0", "O1")]
    for a, b in pairs:
        if {a, b} <= names:
            cell, jit = pick(rows, config=a), pick(rows, config=b)
            lines.append(tr("Part 2, same alternation: {cell_label} {cell:.1f} vs {jit_label} {jit:.1f} steps/s, "
                            "{r:.2f}x, {judged}.", cell_label=cell["label"], jit_label=jit["label"],
                            cell=cell["steps_per_s"], jit=jit["steps_per_s"],
                            r=cell["steps_per_s"] / jit["steps_per_s"], judged=judged(cell, jit, noise)))
    return "\n".join(lines)


# -- batch sizes ------------------------------------------------------------------------------------

#: The sweep's in-memory batches, cycled, and its warm-up calls per size (each size is compiled before the timing).
SWEEP_BATCHES, SWEEP_WARMUP = 4, 1

def measure_batch_sizes(p: BatchSizesParams) -> list:
    """``p.spec`` at every batch size in ``p.batch_sizes``, in alternation, with a second copy of batch
    ``p.copy_size`` in the same alternation (one configuration timed twice: the noise floor of this sweep). Every
    size runs enough steps a round to last about ``p.round_s`` seconds (at least ``p.steps``), so that no size's
    repeat is a few milliseconds that one busy moment decides."""
    setup_worker(p, Spec.parse(p.spec).mode)
    sizes = {f"batch {bs}": bs for bs in p.batch_sizes}
    if p.copy_size:   # A and A': one size twice
        sizes[f"batch {p.copy_size} copy"] = p.copy_size
    configs, first = {}, {}
    for name, bs in sizes.items():
        step = cycle(build_step(p.spec, *lenet_setup()), mnist_batches(bs, count=SWEEP_BATCHES))
        start = time.perf_counter()
        force(step())                              # the first call compiles: reported apart
        first[name] = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(p.steps):                   # a first estimate of this size's step time
            force(step())
        step_s = (time.perf_counter() - start) / p.steps
        steps = max(p.steps, math.ceil(p.round_s / step_s))
        if name.endswith(" copy"):   # the same configuration as its original: its step count too
            steps = configs[name[:-len(" copy")]].steps
        configs[name] = Config(step, batch_size=bs, steps=steps)
    # already compiled: one warm-up call
    timings = compare(configs, steps=p.steps, repeats=p.repeats, warmup=SWEEP_WARMUP)
    rows = timing_rows(timings)
    for row in rows:
        bs = sizes[row["config"]]
        row.update(batch_size=bs, samples_per_s=bs * row["steps_per_s"], first_call_s=first[row["config"]])
    return rows


def copies_band(rows: list, key: Optional[str] = None) -> Optional[Tuple[float, float]]:
    """The band around 1.00 that a plot of paired intervals shades for the A/A' control of ``rows`` (the copy ``key``,
    ``find_twin``'s default without one): 1.00 divided and multiplied by the copies' factor (``copies_factor``, the
    control interval's farther end from 1.00 on the ratio scale). An interval beyond 1.00 whose near end lies in the
    band reads "within the copies' gap" (``within_copies``). None without a control."""
    twin = find_twin(rows, key)
    if twin is None:
        return None
    factor = copies_factor(twin.low, twin.high)
    return 1 / factor, factor


#: The size every other size of the sweep is paired with for the ranking: parts 1-3's batch (the smallest size
#: when the sweep has no batch 64)
SWEEP_REFERENCE = 64
#: A round of the sweep is "slow" when the sizes ran below this share of their medians in it (``slow_rounds``)
SLOW_ROUND = 0.8


def sweep_reference(rows: Sequence[Mapping]) -> Mapping:
    """The sweep's reference row: batch ``SWEEP_REFERENCE``, or the smallest size without one (second copies left
    out)."""
    sizes = [r for r in rows if not r["config"].endswith(" copy")]
    return next((r for r in sizes if r["batch_size"] == SWEEP_REFERENCE), min(sizes, key=lambda r: r["batch_size"]))


def sweep_relative(rows: list) -> dict:
    """Each row's samples/s over the reference's (``sweep_reference``), paired round by round, ``{config: (median,
    low, high)}``, second copies included, the reference itself left out: the ranking the sweep goes by. A slow round
    slows every size it runs, so it cancels in that round's ratio, where it moves a size's median (and its quartiles)
    with however many slow rounds that size happened to have. Widened by the control's gap where the copies came
    apart (``harness.widened``)."""
    ref, twin = sweep_reference(rows), find_twin(rows)
    out = {}
    for r in rows:
        if r["config"] != ref["config"]:
            med, lo, hi = (r["batch_size"] / ref["batch_size"] * v for v in paired_ratio(r, ref))
            out[r["config"]] = (med, *widened(lo, hi, twin.gap if twin is not None else None))
    return out


def sweep_top(rows: list) -> Mapping:
    """The size with the highest throughput by the paired ranking (``sweep_relative``; the reference counts 1.00),
    second copies left out."""
    relative = sweep_relative(rows)
    sizes = [r for r in rows if not r["config"].endswith(" copy")]
    return max(sizes, key=lambda r: relative.get(r["config"], (1.0,))[0])


def sweep_intervals(rows: list) -> dict:
    """The sweep's verdicts' readings, ``{batch_size: (median, low, high)}``: the top size's samples/s
    (``sweep_top``, second copies left out) over each other size's, round by round. Where the copied size is one of
    the two, it is paired with both of its copies: the interval is the two intervals together (their union), the
    median the one against the first copy. Where the copy came apart from its original, every interval is widened by
    their gap (``harness.widened``)."""
    sizes = [r for r in rows if not r["config"].endswith(" copy")]
    twin = find_twin(rows)   # a control that came apart widens every interval
    top = sweep_top(rows)
    # steps/s ratio x batch-size ratio: samples/s
    return {r["batch_size"]: paired_with_twin(top, r, twin, scale=top["batch_size"] / r["batch_size"])[:3]
            for r in sizes if r["config"] != top["config"]}


def epoch_seconds(batch_size: int, samples_per_s: float) -> float:
    """Seconds the training steps of one MNIST epoch (60,000 images, whole batches) take at ``samples_per_s``."""
    return (60000 // batch_size) * batch_size / samples_per_s


def copies_medians(rows: list) -> str:
    """A line when the two copies' medians lie farther apart than their paired rounds allow (their ratio outside the
    copies' band, ``copies_band``): the machine's speed changed between rounds, so the run's medians are not
    usable, its paired ratios are. "" otherwise, or without a control."""
    twin, band = find_twin(rows), copies_band(rows)
    if twin is None or band is None:
        return ""
    ratio = twin.copy["samples_per_s"] / twin.original["samples_per_s"]
    if band[0] <= ratio <= band[1]:
        return ""
    return tr("The two copies of batch {n} have medians of {a:,.0f} and {b:,.0f} samples/s ({ratio:.2f}x), but round "
              "by round they read {lo:.2f}-{hi:.2f}: the machine's speed changed between rounds, so this run's "
              "medians are not usable; its paired ratios are.", n=twin.original["batch_size"],
              a=twin.original["samples_per_s"], b=twin.copy["samples_per_s"], ratio=ratio, lo=twin.low, hi=twin.high)


def summarise_batch_sizes(rows: list, p: BatchSizesParams) -> Result:
    rows = _labelled(rows)
    def per_epoch(r, rate):   # seconds per MNIST epoch (60,000 images, whole batches) at ``rate`` steps/s
        return (60000 // r["batch_size"]) / rate

    rows = sorted((dict(r, epoch_s=per_epoch(r, r["steps_per_s"]), min_epoch_s=per_epoch(r, r["max_steps_per_s"]),
                        max_epoch_s=per_epoch(r, r["min_steps_per_s"]),
                        min_samples_per_s=r["batch_size"] * r["min_steps_per_s"],
                        max_samples_per_s=r["batch_size"] * r["max_steps_per_s"], steps_per_round=r.get("steps"))
                   for r in rows),
                  key=lambda r: (r["batch_size"], r["config"]))   # a copy right after its original
    sizes = runtime.listing   # "64, 128 and 256"

    def named(groups):   # one sentence per non-empty group of rows, naming their batch sizes
        return [tr(text, sizes=sizes(r["batch_size"] for r in group)) for text, group in groups if group]

    if all(len(r.get("repeat_s", ())) >= 2 for r in rows):
        return _paired_sweep(rows)
    # no rounds to pair (rows without their repeats): the medians against the noise floor are all there is
    everything = rows
    top = max((r for r in rows if not r["config"].endswith(" copy")), key=lambda r: r["samples_per_s"])
    rows, twice, noise = _own_floor(rows, p.noise_pct or spread_pct(top, "samples_per_s"))
    lines = [tr("Batch {top} has the highest median throughput: {rate:,.0f} samples/s; at that rate the training "
                "steps of one MNIST epoch take {epoch:.1f} s (in-memory batches, no data pipeline).",
                top=top["batch_size"], rate=top["samples_per_s"], epoch=top["epoch_s"])]
    # the overlap rule: every size against the top one, within the floor a tie; beyond it, undecided while the
    # slowest and fastest of all the rounds overlap; otherwise slower
    said = {r["config"]: verdict(top, r, noise, "samples_per_s") for r in rows if r is not top}
    slower = [r for r in rows if said.get(r["config"]) == "faster"]   # the top size is faster than these
    tied = [r for r in rows if said.get(r["config"]) == "tie"]
    undecided = [r for r in rows if said.get(r["config"]) == "undecided"]
    lines += named([(N_("Slower than it, beyond the noise floor with repeats apart: batch {sizes}."), slower),
                    (N_("Within the noise floor of it, a tie: batch {sizes}."), tied),
                    (N_("Undecided against it (beyond the floor, repeats overlapping): batch {sizes}."), undecided)])
    if not slower:
        lines.append(tr("This run cannot rank the sizes: each is within the noise floor of batch {top} or "
                        "undecided against it.", top=top["batch_size"]))
    metrics = {"top_batch_size": top["batch_size"], "top_samples_per_s": top["samples_per_s"],
               "batch_sizes_slower": len(slower)}
    if twice:   # the overlap rule decided: its floor is part of the verdict
        lines.insert(0, tr("Noise floor of this sweep: {floor:.1f}%, from {label} timed twice (the second copy is "
                           "no contestant).", floor=noise, label=twice))
        metrics["batch_sizes_noise_floor_pct"] = noise
    cols = ["label", "first_call_s", "steps_per_round", "steps_per_s", "samples_per_s", "min_samples_per_s",
            "max_samples_per_s", "epoch_s"]
    return Result("batch_sizes", everything, cols, "\n".join(lines), metrics)


def _paired_sweep(rows: list) -> Result:
    """``summarise_batch_sizes`` where every size has its rounds: ranked by ``sweep_relative`` (each size against
    the reference, round by round), the top size then paired with every other size (check 2's rule, the control
    first, the copies' gap rule), the medians shown but read by nobody."""
    ref, relative, top = sweep_reference(rows), sweep_relative(rows), sweep_top(rows)
    quartiles = dict(zip((r["config"] for r in rows), sweep_quartiles(rows)))
    rows = [dict(r, vs_reference=relative.get(r["config"], (1.0,))[0],
                 middle_half=tr("{q1:,.0f}-{q3:,.0f}", q1=quartiles[r["config"]][0], q3=quartiles[r["config"]][2]))
            for r in rows]
    top = next(r for r in rows if r["config"] == top["config"])
    q1, _, q3 = quartiles[top["config"]]
    lines = [slow_rounds(rows), copies_medians(rows)]
    if top["config"] == ref["config"]:
        lines.append(tr("Batch {top}, the reference, ranks first: no other size's paired ratio to it is above 1.00.",
                        top=top["batch_size"]))
    else:
        med, lo, hi = relative[top["config"]]
        lines.append(tr("Batch {top} ranks first by the paired ratios: {med:.2f}x batch {ref} ({lo:.2f}-{hi:.2f}); the "
                        "verdict table below says which sizes it is separated from.", top=top["batch_size"], med=med,
                        ref=ref["batch_size"], lo=lo, hi=hi))
    lines.append(tr("In the middle half of its rounds it ran {q1:,.0f}-{q3:,.0f} samples/s, for scale only: the "
                    "training steps of one MNIST epoch in {fast:.1f}-{slow:.1f} s (in-memory batches, no data "
                    "pipeline).", q1=q1, q3=q3,
                    fast=epoch_seconds(top["batch_size"], q3), slow=epoch_seconds(top["batch_size"], q1)))
    # the verdict: the top size against every other, round by round, as part 3 reads its pair; first the control
    # (A/A'), then the pairs, a pair with the copied size paired with both of its copies
    twin = find_twin(rows)
    table = [control_row(tr("control: batch {n}, A′ / A", n=twin.copy["batch_size"]), twin)] if twin is not None else []
    pairs, groups = _sweep_groups(rows, top)
    if pairs:
        lines.append(verdict_table(table + pairs, copies_of(twin)))
        lines.append(tr("Verdict, from the paired intervals: batch {top} is {parts}.", top=top["batch_size"],
                        parts=_group_words(groups)))
    metrics = {"top_batch_size": top["batch_size"], "top_vs_reference": top["vs_reference"],
               "reference_batch_size": ref["batch_size"], "batch_sizes_slower": len(groups["above"])}
    cols = ["label", "first_call_s", "steps_per_round", "samples_per_s", "middle_half", "vs_reference"]
    return Result("batch_sizes", rows, cols, "\n".join(line for line in lines if line), metrics)


def _sweep_groups(rows: list, top: Mapping) -> Tuple[list, dict]:
    """The top size against every other (second copies left out), round by round (``sweep_intervals``): the verdict
    table's rows ``(label, median, low, high)``, and the other sizes grouped by where their interval lies
    (``side_of``: "above", "inside", "within", "below")."""
    twin, intervals = find_twin(rows), sweep_intervals(rows)
    table, groups = [], {"above": [], "below": [], "inside": [], "within": []}
    for r in rows:
        if r["config"] != top["config"] and not r["config"].endswith(" copy"):
            med, lo, hi = intervals[r["batch_size"]]
            table.append((tr("batch {top} / batch {n}", top=top["batch_size"], n=r["batch_size"]), med, lo, hi))
            groups[side_of(lo, hi, copies_of(twin))].append(r)
    return table, groups


def _group_words(groups: Mapping[str, list]) -> str:
    """What the top size is against the others, group by group: "faster than batch 32 and 64 (...); it is not
    separated from batch 128 (...)"."""
    words = [(N_("faster than batch {sizes} (intervals above 1.00)"), groups["above"]),
             (N_("not separated from batch {sizes} (intervals containing 1.00)"), groups["inside"]),
             (N_("within the copies' gap of batch {sizes} (beyond 1.00 by no more than the control's own spread)"),
              groups["within"]),
             (N_("slower than batch {sizes} round by round (intervals below 1.00)"), groups["below"])]
    return tr("; it is ").join(tr(text if len(group) > 1 else _ONE_INTERVAL.get(text, text),
                                  sizes=runtime.listing(r["batch_size"] for r in group))
                               for text, group in words if group)


#: ``_group_words``' phrases that change when their group holds one size (one interval)
_ONE_INTERVAL = {
    "faster than batch {sizes} (intervals above 1.00)": N_("faster than batch {sizes} (interval above 1.00)"),
    "not separated from batch {sizes} (intervals containing 1.00)":
        N_("not separated from batch {sizes} (interval containing 1.00)"),
    "slower than batch {sizes} round by round (intervals below 1.00)":
        N_("slower than batch {sizes} round by round (interval below 1.00)"),
}


def sweep_finding(sweep: Optional[Result]) -> str:
    """Part 4's finding in one line, for a summary: the size the paired ranking puts first, its ratio to the
    reference, and what it is against the other sizes (the verdict's words). "" without a sweep, or for a sweep
    without rounds to pair (its medians decide nothing a summary should repeat)."""
    if sweep is None or sweep.skipped or not sweep.rows or any(len(r.get("repeat_s", ())) < 2 for r in sweep.rows):
        return ""
    rows, ref, top = sweep.rows, sweep_reference(sweep.rows), sweep_top(sweep.rows)
    _, groups = _sweep_groups(rows, top)
    if top["config"] == ref["config"]:
        head = tr("batch {top}, the reference, ranked first", top=top["batch_size"])
    else:
        med, lo, hi = sweep_relative(rows)[top["config"]]
        head = tr("batch {top} ranked first, at {med:.2f}x batch {ref}'s samples/s ({lo:.2f}-{hi:.2f}, paired)",
                  top=top["batch_size"], med=med, ref=ref["batch_size"], lo=lo, hi=hi)
    return tr("Batch size (part 4): {head}; it is {parts}.", head=head, parts=_group_words(groups))


def round_samples(row: Mapping) -> list:
    """A sweep row's samples/s in each of its rounds (``steps`` a round of ``batch_size`` samples, ``repeat_s``)."""
    return [row["steps"] * row["batch_size"] / t for t in row["repeat_s"]]


def _size_shares(rows: Sequence[Mapping]) -> list:
    """Per round, each size's samples/s that round over its own median (second copies left out): ``[round][size]``."""
    sizes = [r for r in rows if not r["config"].endswith(" copy")]
    rounds = [round_samples(r) for r in sizes]
    medians = [statistics.median(samples) for samples in rounds]
    n = min(len(samples) for samples in rounds)
    return [[samples[i] / m for samples, m in zip(rounds, medians)] for i in range(n)]


def round_shares(rows: Sequence[Mapping]) -> list:
    """Each round's speed as a share of the sizes' medians: per round, the median over the sizes (second copies left
    out) of the size's samples/s that round over its median; 1.00 a typical round, 0.5 one at half speed."""
    return [statistics.median(shares) for shares in _size_shares(rows)]


def sweep_quartiles(rows: Sequence[Mapping]) -> list:
    """``(low quartile, median, high quartile)`` of each row's samples/s over its rounds, in the order of ``rows``:
    the middle half of the rounds, which one slow round does not stretch as it stretches a min-max bar."""
    out = []
    for r in rows:
        q1, q2, q3 = statistics.quantiles(round_samples(r), n=4, method="inclusive")
        out.append((q1, q2, q3))
    return out


def slow_rounds(rows: Sequence[Mapping]) -> str:
    """One line on how steady the machine ran during the sweep: how many rounds ran below ``SLOW_ROUND`` of the
    sizes' medians (``round_shares``: a slowdown over the whole round), the slowest of them, and in how many other
    rounds only some sizes fell that low (a slowdown within a round); then what pairing does with each. "" with
    fewer than two rounds."""
    own = _size_shares(rows)
    shares = [statistics.median(row) for row in own]
    if len(shares) < 2:
        return ""
    slow = sum(share < SLOW_ROUND for share in shares)
    some = sum(share >= SLOW_ROUND and min(own[i]) < SLOW_ROUND for i, share in enumerate(shares))
    i = min(range(len(shares)), key=shares.__getitem__)
    line = tr("Rounds: {slow} of {n} ran more than {pct:.0f}% below the sizes' medians (the slowest, round {i}, at "
              "{share:.0f}%); in {some} more, only some sizes did.", slow=slow, n=len(shares),
              pct=100 * (1 - SLOW_ROUND), i=i + 1, share=100 * shares[i], some=some)
    if slow or some:
        line += " " + tr("A slowdown that lasts a whole round slows every size in it and cancels in that round's "
                         "paired ratios; one that hits only some sizes of a round does not, and widens their "
                         "intervals.")
    return line


def sweep_against_parts(sweep: Result, parts: Sequence[Tuple[Optional[Result], str]], batch: int = 64,
                        spec: str = "graph/cell") -> str:
    """One line: the sweep's rate at ``batch`` beside the rates other experiments of the run measured for the same
    step (``spec`` at ``batch``, in-memory batches), ``parts`` being ``(experiment's Result, what to call it)`` pairs,
    and a reminder that the sweep's rounds are timed differently (steps a round, in-memory batches cycled, warm-up
    calls), so its rates are compared only within the sweep. "" when the sweep has no such size or no other
    experiment timed it."""
    mine = next((r for r in sweep.rows if r["config"] == f"batch {batch}"), None)
    seen = []
    for res, called in parts:
        if res is None or res.skipped:
            continue
        row = next((r for r in res.rows if r["config"] == spec and r.get("batch_size", batch) == batch
                    and r.get("input", IN_MEMORY) == IN_MEMORY), None)
        if row is not None:
            seen.append((called, row))
    if mine is None or not seen:
        return ""
    others = tr(", ").join(tr("{rate:.1f} in {part}", rate=r["steps_per_s"], part=called) for called, r in seen)
    return tr("The same step, {label} at batch {batch}: {rate:.1f} steps/s in the sweep, {others}. The sweep's rounds "
              "are timed differently from those of {parts} (steps a round, batches cycled, warm-up): compare rates "
              "only within the sweep.", label=Spec.parse(spec).label, batch=batch, rate=mine["steps_per_s"],
              others=others, parts=runtime.listing(called for called, _ in seen))


# -- the best of everything measured ------------------------------------------------------------------

def best_measured(results: Mapping[str, Result], names: Optional[Mapping[str, str]] = None) -> Tuple[dict, str]:
    """The highest step rate of LeNet-5 (batch 64, in-memory batches) over every experiment of a run that timed one:
    all of ``modes``, the in-memory rows of ``styles``, every case of ``cpu_traps`` (fresh processes). Returns
    ``(metrics, sentence)``. A figure, not a winner: a configuration is called fastest only inside one alternated
    comparison (each experiment's own conclusion), because separate experiments ran minutes apart, under whatever
    load came and went; so no tie rule and no ratio across experiments here. ``names``: how the sentence calls each
    experiment (a lesson's "part 2"; without one, ``[modes]``).

    Lesson 08's pooling variants are never among them (they are not an experiment's rows): they rewrite the
    network's code, checked equal on one batch of LeNet-5 only, while this compares ways of running the network as
    written (mode, step style, CPU settings)."""
    names = dict(names or {})
    rows = []
    for name, res in results.items():
        if res is None or res.skipped:
            continue
        for r in res.rows:
            if name == "cpu_traps":
                rows.append(dict(r, exp=name, shown=tr("{label}, {case} (fresh process)", label=r["label"],
                                                       case=tr(r["case"]))))
            elif r["config"].endswith(" copy"):   # a second copy measures the noise: never a contestant
                continue
            elif name == "modes" or (name == "styles" and r.get("input") == IN_MEMORY):
                rows.append(dict(r, exp=name, shown=tr("{label} (this kernel, CPU settings on)", label=r["label"])))
    if not rows:
        return {}, ""
    best = max(rows, key=lambda r: r["steps_per_s"])
    exps = list(dict.fromkeys(r["exp"] for r in rows))
    called = {e: names.get(e) or f"[{e}]" for e in exps}
    if len(exps) > 1 and all(e in names for e in exps):   # the lesson names its parts (and its table lists them)
        text = tr("The highest step rate: {rate:.1f} steps/s, {best}, in {exp}.", rate=best["steps_per_s"],
                  best=best["shown"], exp=called[best["exp"]])
    elif len(exps) > 1:
        text = tr("The highest step rate of the experiments {exps}: {rate:.1f} steps/s, {best}, in {exp}.",
                  rate=best["steps_per_s"], best=best["shown"], exp=called[best["exp"]],
                  exps=runtime.listing(called[e] for e in exps))
    else:   # one experiment (lesson 08 passes one): name it once
        text = tr("The highest step rate of experiment {exp}: {rate:.1f} steps/s, {best}.",
                  rate=best["steps_per_s"], best=best["shown"], exp=called[best["exp"]])
    text += tr(" It is the highest of {n} rates on in-memory batches; second copies, pipeline passes and timings "
               "outside these experiments are not counted.", n=len(rows))
    again = next((r for r in rows if r is not best and r["exp"] != best["exp"] and r["config"] == best["config"]
                  and "case" not in r), None)
    if again is not None:   # the same configuration in another experiment: another alternation, not compared
        text += "\n" + tr("{label} also ran at {other:.1f} steps/s in {other_exp}, {gap:.1f}% apart: two separate "
                          "alternations, so the two figures are not compared (the machine's speed moves between "
                          "them).", label=best["label"], other=again["steps_per_s"], other_exp=called[again["exp"]],
                          gap=100 * (best["steps_per_s"] / again["steps_per_s"] - 1))
    text += "\n" + tr("A figure, not a winner: a configuration is called the fastest only within one alternated "
                      "comparison (the lines under each experiment).")
    return {"best_steps_per_s": best["steps_per_s"]}, text


# -- the summary's advice: which compiled form, with host blocking on and off --------------------------

#: The pairs the advice reads, in order: the GRAPH_MODE Cell against each jit form, and the two jit forms.
ADVICE_PAIRS = ("graph_cell_vs_jit", "graph_cell_vs_jit_cell", "jit_cell_vs_jit")
#: The advice, by what the pairs decided (``advice_of``).
ADVICE = {"cell": N_("prefer a GRAPH_MODE Cell such as TrainOneStepCell"),
          "cells": N_("prefer a Cell (GRAPH_MODE, or jit on the Cell) to a @jit function"),
          "cell_over_jit": N_("prefer a GRAPH_MODE Cell such as TrainOneStepCell to a @jit function"),
          "jit": N_("prefer a jit form to a GRAPH_MODE Cell"), "any": N_("any form that compiles the whole step"),
          "undecided": N_("undecided in this run"),
          "disagree": N_("undecided in this run: its runs point different ways")}


def pair_side(metrics: Mapping, key: str) -> str:
    """The side of a part-2 pair ``key`` as its verdict table read it: "above", "below", "inside" or "within" (beyond
    1.00 within the copies' gap)."""
    copies = ((metrics[f"{key}_copies_low"], metrics[f"{key}_copies_high"]) if f"{key}_copies_low" in metrics
              else None)
    return side_of(metrics[f"{key}_low"], metrics[f"{key}_high"], copies)


def pair_reading(metrics: Mapping, key: str) -> str:
    """A part-2 pair's verdict words as its own table printed them (for a table built from stored metrics)."""
    copies = ((metrics[f"{key}_copies_low"], metrics[f"{key}_copies_high"]) if f"{key}_copies_low" in metrics
              else None)
    words = short_reading(metrics[f"{key}_low"], metrics[f"{key}_high"], copies)
    return words + (tr(", widened") if f"{key}_control_low" in metrics else "")


def advice_of(metrics: Mapping) -> str:
    """What one part-2 grid says about which compiled form to use (an ``ADVICE`` key): the GRAPH_MODE Cell against
    the @jit function (and jit on the Cell, where timed), and the two jit forms. "cell": the Cell faster than every
    jit form timed; "cells": faster than the @jit function, not separated from jit on the Cell (or within the copies'
    gap of it), jit on the Cell faster than the @jit function too (timed); "cell_over_jit": the same without that
    last pair timed, so only the GRAPH_MODE Cell is advised; "jit": slower than every jit form timed; "any":
    every pair not separated; otherwise (a pair the advice turns on within the copies' gap: this run could not tell),
    or without the pair against @jit, "undecided"."""
    sides = {k: pair_side(metrics, k) for k in ADVICE_PAIRS if f"{k}_low" in metrics}
    if "graph_cell_vs_jit" not in sides:
        return "undecided"
    cell = [sides[k] for k in ("graph_cell_vs_jit", "graph_cell_vs_jit_cell") if k in sides]
    tied = {"inside", "within"}
    if set(sides.values()) == {"inside"}:
        return "any"
    if set(cell) == {"above"}:
        return "cell"
    if cell[0] == "above" and set(cell[1:]) <= tied:   # jit on the Cell: "cells" only where it beat @jit, timed
        return "cells" if sides.get("jit_cell_vs_jit") == "above" else "cell_over_jit"
    if set(cell) == {"below"}:
        return "jit"
    return "undecided"


def loop_advice(on: Optional[Result], off: Sequence[Tuple[str, Optional[Result]]]) -> str:
    """The summary's advice for a learner's own loop, built from this run's part-2 verdicts: with host blocking on
    (``on``, part 2's grid) and off (``off``: ``(where, Result)`` of the fresh processes without it, MindSpore's
    default), which compiled form to prefer (``advice_of``), one short line each; then one verdict table of the pairs
    the advice rests on, each run's rows read as its own table read them (``pair_reading``). Runs that decide
    nothing (a pair within its copies' gap included) give "undecided in this run"; runs that decide different ways,
    "undecided in this run: its runs point different ways"."""
    rows = []

    def line(title, runs, called):
        runs = [(where, res.metrics) for where, res in runs if res is not None and not res.skipped]
        if not runs:
            return tr("{title}: not measured in this run.", title=title)
        said = [advice_of(m) for _, m in runs]
        decided = {a for a in said if a != "undecided"}
        if len(decided) > 1 and decided <= {"cell", "cells", "cell_over_jit"}:   # all put the GRAPH_MODE Cell
            decided = {"cell_over_jit"}                                            # before @jit: what they share
        advice = decided.pop() if len(decided) == 1 else "disagree" if decided else "undecided"
        for where, m in runs:   # the pairs the advice rests on, in the table below
            rows.extend((tr("{where}: {body}", where=called(where), body=tr(PAIR_LABELS[k])), m[k], m[f"{k}_low"],
                         m[f"{k}_high"], pair_reading(m, k)) for k in ADVICE_PAIRS if f"{k}_low" in m)
        return tr("{title}: {advice}.", title=title, advice=tr(ADVICE[advice]))

    lines = [tr("What this run's verdicts say for your loop, among the compiled forms:"),
             line(tr("host blocking on"), [("", on)], lambda where: tr("on")),
             line(tr("host blocking off (MindSpore's default)"), off, lambda where: tr("off, {where}", where=where))]
    return "\n".join(lines + ([verdict_table(rows)] if rows else []))
