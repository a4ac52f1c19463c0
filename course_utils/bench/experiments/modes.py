"""Step-rate experiments: execution modes and jit levels, step styles, batch sizes.

Each experiment is ``measure(params) -> rows`` (runs MindSpore) and ``summarise(rows, params) ->
Result`` (pure: the table and a conclusion computed from the rows, picked by name).
"""

from __future__ import annotations

import os
import time
from typing import Mapping, Tuple

from course_utils import runtime
from course_utils.i18n import N_, tr

from ..harness import compare, cycle, leaders, noise_floor_pct, paired_ratio, ranges_overlap, verdict
from ..isolation import TRAP_VARS
from ..params import BatchSizesParams, ModesParams, StepRatesParams, StylesParams
from ..report import Result, pick
from ..steps import TIMING_COLUMNS, Spec, build_step, lenet_setup, mnist_batches, step_configs, timing_rows
from .common import judged, setup_worker, spread_pct


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


# -- modes ------------------------------------------------------------------------------------------

def measure_modes(p: ModesParams) -> list:
    """Every configuration in ``p.specs``, timed in this process in alternation, with a second copy of ``p.copy``
    in the same alternation (one configuration timed twice: the noise floor of this grid)."""
    setup_worker(p)
    configs = step_configs(p.specs, p.batch_size)
    if p.copy:   # A and A': one configuration twice
        configs[p.copy + " copy"] = step_configs([p.copy], p.batch_size)[p.copy]
    timings = compare(configs, steps=p.steps, repeats=p.repeats)
    return timing_rows(timings, {p.copy + " copy": tr(COPY_LABEL, label=Spec.parse(p.copy).label)} if p.copy else None)


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


def summarise_modes(rows: list, p: ModesParams) -> Result:
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
    if len(tied) == 1 and runner is not None and ranges_overlap(best, runner):   # the lab's second rule
        text = tr("{best} ran fastest here at {rate:.1f} steps/s, {gap:.0f}% above the next ({runner}, "
                  "{runner_rate:.1f}): beyond the noise floor of {noise:.1f}%, but the two repeats' ranges overlap, "
                  "so this run does not name a winner (undecided). The slowest was {slow} at {slow_rate:.1f} steps/s.",
                  best=best["label"], rate=best["steps_per_s"],
                  gap=100 * (best["steps_per_s"] / runner["steps_per_s"] - 1),
                  runner=runner["label"], runner_rate=runner["steps_per_s"], noise=noise, slow=slow["label"],
                  slow_rate=slow["steps_per_s"])
    elif len(tied) == 1:
        text = tr("Fastest here, beyond the noise floor of {noise:.1f}%: {best} at {rate:.1f} steps/s, {ratio:.1f}x "
                  "the slowest ({slow}).", noise=noise, best=best["label"], rate=best["steps_per_s"],
                  ratio=best["steps_per_s"] / slow["steps_per_s"], slow=slow["label"])
    else:
        text = tr("A tie within the noise floor of {noise:.1f}%: {n} configurations, the grid's highest median "
                  "included, tie at {lo:.1f}-{hi:.1f} steps/s ({names}); this run does not say which of them is "
                  "fastest. The slowest was {slow} at {slow_rate:.1f} steps/s.",
                  n=len(tied), noise=noise, names=runtime.listing((r["label"] for r in tied), labels=True),
                  lo=min(r["steps_per_s"] for r in tied), hi=max(r["steps_per_s"] for r in tied),
                  slow=slow["label"], slow_rate=slow["steps_per_s"])
    # the overlap rule, named in the sentence: beyond the floor of the highest median, but repeats overlapping its
    said_runner = runner if len(tied) == 1 else None   # the first branch above already called it undecided
    unsure = [r for r in rows if r not in tied and r is not said_runner and ranges_overlap(tied[0], r)]
    if unsure:
        text += tr(" Beyond the noise floor but with repeats overlapping those of the highest median ({top}): {names}: "
                   "undecided (the overlap rule).", top=tied[0]["label"],
                   names=runtime.listing((r["label"] for r in unsure), labels=True))
    text += "\n" + tr(" The biggest first-call cost was {first_s:.1f} s ({first}), as long as {first_steps:.0f} "
               "steady-state steps.", first_s=worst_first["first_call_s"], first=worst_first["label"],
               first_steps=worst_first["first_call_s"] * worst_first["steps_per_s"])
    names = {r["config"] for r in rows}
    # the configuration lesson 08 goes on with where it cannot measure the CPU settings (the fastest, or of a tie
    # the first asked for)
    metrics = {"best_config": best["config"]}
    if {"graph/cell", "pynative/cell"} <= names:
        g, e = pick(rows, config="graph/cell"), pick(rows, config="pynative/cell")
        text += "\n" + tr(" GRAPH_MODE TrainOneStepCell ran {r:.2f}x as fast as PyNative's TrainOneStepCell: "
                          "{verdict}.",
                   r=g["steps_per_s"] / e["steps_per_s"], verdict=judged(g, e, noise))
        # the ratio of exactly the two rates shown beside it
        metrics["graph_steps_per_s"] = g["steps_per_s"]
        metrics["pynative_steps_per_s"] = e["steps_per_s"]
        metrics["graph_vs_pynative"] = g["steps_per_s"] / e["steps_per_s"]
        metrics["graph_vs_pynative_verdict"] = verdict(g, e, noise)
    jitted = [r for r in rows if r["config"] in ("pynative/jit:O0", "pynative/jit:O1")]
    if "pynative/functional" in names and jitted:   # the first article's claim: without @jit, much slower
        plain, jit = pick(rows, config="pynative/functional"), jitted[0]
        text += "\n" + tr(" In PyNative the functional step with @jit ({level}) ran {r:.2f}x as fast as without it "
                   "({jit_rate:.1f} vs {plain_rate:.1f} steps/s): {verdict}.", level=Spec.parse(jit["config"]).level,
                   r=jit["steps_per_s"] / plain["steps_per_s"], jit_rate=jit["steps_per_s"],
                   plain_rate=plain["steps_per_s"], verdict=judged(jit, plain, noise))
        metrics["jit_vs_no_jit"] = jit["steps_per_s"] / plain["steps_per_s"]
        metrics["jit_vs_no_jit_verdict"] = verdict(jit, plain, noise)
    if {"pynative/jit:O0", "pynative/jit:O1"} <= names:   # what O1's fusion passes do to this step here
        o0, o1 = pick(rows, config="pynative/jit:O0"), pick(rows, config="pynative/jit:O1")
        text += "\n" + tr(" jit_level O1 against O0 for the same step: {r:.2f}x ({o1:.1f} vs {o0:.1f} steps/s), "
                          "{verdict}.",
                   r=o1["steps_per_s"] / o0["steps_per_s"], o1=o1["steps_per_s"], o0=o0["steps_per_s"],
                   verdict=judged(o1, o0, noise))
    if twice:
        text = tr("The noise floor of this grid: {floor:.1f}%, from {label} timed twice in the same alternation "
                  "(noise_floor_pct on the two copies' repeats). The second copy measures the noise and is no "
                  "contestant: the verdicts below leave it out and judge the others against this floor.",
                  floor=noise, label=twice) + "\n" + text
        metrics["modes_noise_floor_pct"] = noise
    text = text.replace("\n ", "\n")   # one finding per line
    return Result("modes", everything, TIMING_COLUMNS + ["vs_baseline"], text, metrics)


# -- styles -----------------------------------------------------------------------------------------

STYLE_SPECS = ("graph/functional", "graph/cell")
#: The ``input`` of a styles row (a key; tables show it in the course's language).
IN_MEMORY, PIPELINE = N_("in-memory batches"), N_("data pipeline")
#: The second copy of the functional step in the claim's comparison (its label: ``COPY_LABEL``).
COPY, COPY_LABEL = "graph/functional copy", N_("{label}, second copy")


def measure_styles(p: StylesParams) -> list:
    """The functional step and TrainOneStepCell on in-memory batches, with a second copy of the functional
    step (one configuration timed twice: the noise floor of exactly these settings), ``p.claim_repeats``
    rounds; then both and Model.train fed by the same MNIST pipeline, one pass of ``p.steps`` batches per repeat."""
    import mindspore as ms

    from course_utils.data import mnist_dataset

    setup_worker(p)
    configs = step_configs(STYLE_SPECS, p.batch_size)
    # A and A': one configuration twice
    configs[COPY] = step_configs(["graph/functional"], p.batch_size)["graph/functional"]
    start = time.perf_counter()
    timings = compare(configs, steps=p.steps, repeats=p.claim_repeats)
    claim_s = time.perf_counter() - start
    rows = timing_rows(timings, {COPY: tr(COPY_LABEL, label=Spec.parse("graph/functional").label)},
                       input=IN_MEMORY, claim_s=claim_s)
    data = mnist_dataset("train", batch_size=p.batch_size, subset=p.batch_size * p.steps, shuffle=False)
    passes = {}
    for text in STYLE_SPECS:
        step = build_step(text, *lenet_setup())

        def one_pass(step=step):
            loss = None
            for images, labels in data.create_tuple_iterator(num_epochs=1):
                loss = step(images, labels)
            return loss

        passes[text + " +pipeline"] = one_pass
    net, loss_fn, opt = lenet_setup()
    model = ms.Model(net, loss_fn=loss_fn, optimizer=opt)
    passes["Model.train"] = lambda: model.train(1, data, dataset_sink_mode=False)
    for row in timing_rows(compare(passes, steps=1, repeats=p.repeats, warmup=2), input=PIPELINE):
        n = p.steps   # one "step" of compare is a pass of n batches
        row.update(label=Spec.parse(row["config"].split()[0]).label if "/" in row["config"] else "Model.train",
                   steps_per_s=n * row["steps_per_s"], min_steps_per_s=n * row["min_steps_per_s"],
                   max_steps_per_s=n * row["max_steps_per_s"])
        rows.append(row)
    return rows


CLAIMED_RATIO = 1.15   # the first article: TrainOneStepCell "about 15% faster" than a hand-written loop (on Ascend)


def _claim_side(floor: float) -> str:
    """How the claim's own floor compares with the 15% under test, in words that match the two numbers."""
    claim = 100 * (CLAIMED_RATIO - 1)
    if floor >= claim:
        return tr("no narrower than the 15% under test, so the medians alone cannot confirm it")
    if claim >= 2 * floor:
        return tr("well below the 15% under test: a 15% gap between the medians would be {x:.1f} times the floor",
                  x=claim / floor)
    return tr("below the 15% under test, but not by much: a 15% gap between the medians would exceed it by only "
              "{d:.1f} percentage points, so the medians are a weak test of the claim (the paired interval below is "
              "the sharper one)", d=claim - floor)


def summarise_styles(rows: list, p: StylesParams) -> Result:
    func, cell = pick(rows, config="graph/functional"), pick(rows, config="graph/cell")
    func_fed, model = pick(rows, config="graph/functional +pipeline"), pick(rows, config="Model.train")
    copy = next((r for r in rows if r["config"] == COPY), None)
    rows = [dict(r, vs_functional=r["steps_per_s"] / (func if r["input"] == IN_MEMORY else func_fed)["steps_per_s"],
                 label_input=tr("{label}, {input}", label=r["label"], input=tr(r["input"]))) for r in rows]
    text = ""
    floor = p.noise_pct   # the in-memory pair's own floor when the copy was timed: same step twice, same settings
    if copy is not None:
        floor = noise_floor_pct(func, copy)
        text += tr("The pair that tests the claim ran {n} rounds of {steps} steps, with a second copy of the "
                   "functional step alongside ({secs:.0f} s). The two copies, one configuration timed twice, set "
                   "the noise floor of exactly these settings: {floor:.1f}% (noise_floor_pct on their repeats), "
                   "{side}.",
                   n=len(func["repeat_s"]), steps=func["steps"], secs=func.get("claim_s", 0.0), floor=floor,
                   side=_claim_side(floor)) + "\n"
    gain = 100 * (cell["steps_per_s"] / func["steps_per_s"] - 1)
    said = verdict(cell, func, floor)   # the lab's two rules
    # "does not reproduce" only if even the most favourable repeats (TrainOneStepCell's fastest against the
    # functional step's slowest) fall short of the claim; overlapping repeats short of that decide nothing
    best_case = cell["max_steps_per_s"] / func["min_steps_per_s"]
    if said == "tie":
        claim = (tr("is not shown by the medians (the paired interval below is the sharper test)") if floor < 15
                 else tr("cannot be told from a tie"))
    elif said == "faster" and gain >= 10:
        claim = (tr("holds in direction (the paired interval below tests its size)") if floor < 15 else
                 tr("holds in direction (a noise floor this size cannot check the 15% figure itself)"))
    else:
        claim = tr("does not reproduce") if best_case < 1.10 else tr("is not decided by the medians")
    text += tr("Medians: TrainOneStepCell ran at {cell:.0f} steps/s vs {func:.0f} for the functional step "
               "({gain:+.0f}%, {r:.2f}x as fast: {judged}), so the article's \"15% faster\" {verdict} here.",
               cell=cell["steps_per_s"], func=func["steps_per_s"], gain=gain,
               r=cell["steps_per_s"] / func["steps_per_s"], judged=judged(cell, func, floor), verdict=claim)
    if copy is None and floor >= 15:
        text += tr(" A noise floor of {noise:.1f}% is wider than the 15% under test, so the two medians alone could "
                   "not have confirmed the figure.", noise=floor)
    # a sharper test: compare alternated the pair, so each round's two repeats ran back to back under the same load
    med, lo, hi = paired_ratio(cell, func)
    if copy is None:
        text += "\n" + tr("Paired round by round (in each of the {n} rounds the two ran back to back), "
                          "TrainOneStepCell ran {med:.2f}x the functional step's rate, 95% interval {lo:.2f}-{hi:.2f} "
                          "(bootstrap over the rounds).", n=len(cell["repeat_s"]), med=med, lo=lo, hi=hi)
    else:   # pairing cancels the load of a round, not what differs between two instances of one step: both copies
        med2, lo2, hi2 = paired_ratio(cell, copy)
        c_med, c_lo, c_hi = paired_ratio(copy, func)
        text += "\n" + tr("Paired round by round (in each of the {n} rounds the three ran back to back), "
                          "TrainOneStepCell ran {med:.2f}x the functional step's rate (95% interval {lo:.2f}-{hi:.2f}, "
                          "bootstrap over the rounds) and {med2:.2f}x its copy's ({lo2:.2f}-{hi2:.2f}). The copy "
                          "against the functional step, paired the same way: {c_med:.2f}x ({c_lo:.2f}-{c_hi:.2f}), ",
                          n=len(cell["repeat_s"]), med=med, lo=lo, hi=hi, med2=med2, lo2=lo2, hi2=hi2, c_med=c_med,
                          c_lo=c_lo, c_hi=c_hi)
        lo, hi = min(lo, lo2), max(hi, hi2)
        text += (tr("1.00 inside, as for one configuration timed twice.") if c_lo <= 1 <= c_hi else
                 tr("1.00 outside although it is one configuration timed twice: two instances of one step can differ "
                    "by more than the noise of a round, which pairing does not cancel."))
        # one rule, every run: the verdict reads both paired intervals together (their union), never one alone
        text += " " + tr("The verdict always reads both paired intervals together (their union): {lo:.2f}-{hi:.2f}.",
                         lo=lo, hi=hi)
    lo, hi = round(lo, 2), round(hi, 2)   # judged as printed: an interval shown as 1.00-1.16 does not exclude 1.00
    edge = 0.02   # the claim this close to the interval is at its edge: a 95% interval's end is no sharp line
    if CLAIMED_RATIO > hi + edge:
        claim_part = tr("It rules out the article's {claim:.2f}x, above the interval: a gain that large is not seen "
                        "on this machine, though the article's 'about 15%' may describe a smaller gain inside the "
                        "interval", claim=CLAIMED_RATIO)
    elif CLAIMED_RATIO > hi:
        claim_part = tr("The article's {claim:.2f}x lies at the edge of the interval, just above {hi:.2f}: this run "
                        "neither confirms nor firmly rules it out", claim=CLAIMED_RATIO, hi=hi)
    elif CLAIMED_RATIO < lo - edge:
        claim_part = tr("The article's {claim:.2f}x lies below the interval: TrainOneStepCell ran even faster than "
                        "claimed", claim=CLAIMED_RATIO)
    elif CLAIMED_RATIO < lo:
        claim_part = tr("The article's {claim:.2f}x lies at the edge of the interval, just below {lo:.2f}: "
                        "TrainOneStepCell ran at least about as fast as claimed", claim=CLAIMED_RATIO, lo=lo)
    else:
        claim_part = tr("It cannot rule out the article's {claim:.2f}x, inside the interval", claim=CLAIMED_RATIO)
    zero_part = (tr("; a difference of zero is ruled out (1.00 lies below the interval)") if lo > 1 else
                 tr("; 1.00 lies above it: TrainOneStepCell was slower here") if hi < 1 else
                 tr("; a difference of zero (1.00) lies inside it and is not ruled out"))
    text += "\n" + claim_part + zero_part + tr(". Any ratio from {lo:.2f} to {hi:.2f} stays possible on this "
                                               "machine; about Ascend, where the article measured, a CPU run says "
                                               "nothing.", lo=lo, hi=hi)
    cell_fed = pick(rows, config="graph/cell +pipeline")
    text += "\n" + tr("Fed by the same pipeline ({n} passes each, against the noise floor of {noise:.1f}%), "
                      "TrainOneStepCell ran {r_fed:.2f}x as fast as the functional loop ({judged_fed}) and "
                      "Model.train reached {model:.0f} steps/s ({vs_loop:.2f}x the functional loop; {judged_model}).",
                      n=len(func_fed["repeat_s"]), noise=p.noise_pct,
                      r_fed=cell_fed["steps_per_s"] / func_fed["steps_per_s"],
                      judged_fed=judged(cell_fed, func_fed, p.noise_pct),
                      model=model["steps_per_s"], vs_loop=model["steps_per_s"] / func_fed["steps_per_s"],
                      judged_model=judged(model, func_fed, p.noise_pct))
    # the headline's verdict comes from the paired intervals (both together, their union, when the copy ran), not
    # from the medians: pairing cancels the load of a round, which the medians' floor has to include
    metrics = {"cell_vs_functional": med, "cell_vs_functional_low": lo, "cell_vs_functional_high": hi,
               "cell_vs_functional_verdict": "above" if lo > 1 else "below" if hi < 1 else "inside",
               "model_train_steps_per_s": model["steps_per_s"]}
    if copy is not None:
        metrics["claim_noise_floor_pct"] = floor
    cols = ["label", "input", "first_call_s", "steps_per_s", "min_steps_per_s", "max_steps_per_s", "vs_functional"]
    return Result("styles", rows, cols, text, metrics)


# -- batch sizes ------------------------------------------------------------------------------------

def measure_batch_sizes(p: BatchSizesParams) -> list:
    """``p.spec`` at every batch size in ``p.batch_sizes``, in alternation, with a second copy of batch
    ``p.copy_size`` in the same alternation (one configuration timed twice: the noise floor of this sweep)."""
    setup_worker(p, Spec.parse(p.spec).mode)
    sizes = {f"batch {bs}": bs for bs in p.batch_sizes}
    if p.copy_size:   # A and A': one size twice
        sizes[f"batch {p.copy_size} copy"] = p.copy_size
    configs = {name: cycle(build_step(p.spec, *lenet_setup()), mnist_batches(bs, count=4))
               for name, bs in sizes.items()}
    timings = compare(configs, steps=p.steps, repeats=p.repeats)
    rows = timing_rows(timings)
    for row in rows:
        bs = sizes[row["config"]]
        label = tr("batch {n}", n=bs)
        row.update(batch_size=bs, samples_per_s=bs * row["steps_per_s"],
                   label=tr(COPY_LABEL, label=label) if row["config"].endswith(" copy") else label)
    return rows


def summarise_batch_sizes(rows: list, p: BatchSizesParams) -> Result:
    rows = sorted((dict(r, epoch_s=(60000 // r["batch_size"]) / r["steps_per_s"]) for r in rows),
                  key=lambda r: (r["batch_size"], r["config"]))   # a copy right after its original
    rows = [dict(r, min_samples_per_s=r["batch_size"] * r["min_steps_per_s"],
                 max_samples_per_s=r["batch_size"] * r["max_steps_per_s"]) for r in rows]
    everything = rows
    top = max((r for r in rows if not r["config"].endswith(" copy")), key=lambda r: r["samples_per_s"])
    rows, twice, noise = _own_floor(rows, p.noise_pct or spread_pct(top, "samples_per_s"))
    small = rows[0]   # (sorted by batch size above)
    # the lab's two rules: within the noise floor of the top size a tie; beyond it, undecided while the repeats'
    # ranges overlap the top size's
    tied = sorted(leaders(rows, noise, key="samples_per_s"), key=lambda r: r["batch_size"])
    undecided = [r for r in rows if r not in tied and ranges_overlap(top, r, "samples_per_s")]
    best = tied[0]   # the smallest batch size that ties with the most throughput
    gain = best["samples_per_s"] / small["samples_per_s"]
    if len(tied) == 1:
        text = tr("With {spec}, batch {best} has the highest median throughput, more than the noise floor of "
                  "{noise:.1f}% above every other size: {rate:,.0f} samples/s",
                  spec=Spec.parse(p.spec).label, best=best["batch_size"], noise=noise, rate=best["samples_per_s"])
    elif best is small:
        text = tr("With {spec}, batches {sizes} tie within the noise floor of {noise:.1f}% ({lo:,.0f}-{hi:,.0f} "
                  "samples/s): no size above the smallest measured, batch "
                  "{best}, is measurably better here "
                  "({best_epoch:.1f} s per MNIST epoch)",
                  spec=Spec.parse(p.spec).label, sizes=runtime.listing(r["batch_size"] for r in tied), noise=noise,
                  lo=min(r["samples_per_s"] for r in tied), hi=top["samples_per_s"], best=best["batch_size"],
                  best_epoch=best["epoch_s"])
    else:
        text = tr("With {spec}, batches {sizes} tie within the noise floor of {noise:.1f}% ({lo:,.0f}-{hi:,.0f} "
                  "samples/s): no size above batch {best} is measurably better here",
                  spec=Spec.parse(p.spec).label, sizes=runtime.listing(r["batch_size"] for r in tied), noise=noise,
                  lo=min(r["samples_per_s"] for r in tied), hi=top["samples_per_s"], best=best["batch_size"])
    if best is not small:   # what the chosen size gives over the smallest, by the lab's two rules
        sizes_said = dict(best=best["batch_size"], gain=gain, small=small["batch_size"], best_epoch=best["epoch_s"],
                          small_epoch=small["epoch_s"])
        said = verdict(best, small, noise, "samples_per_s")
        if said == "tie":
            text += tr("; on the medians batch {best} gives {gain:.1f}x the throughput of batch {small}, within the "
                       "noise floor: a tie", **sizes_said)
        elif said == "faster":
            text += tr("; batch {best} gives {gain:.1f}x the throughput of batch {small}, i.e. {best_epoch:.1f} s per "
                       "MNIST epoch instead of {small_epoch:.1f} s", **sizes_said)
        else:
            text += tr("; on the medians batch {best} gives {gain:.1f}x the throughput of batch {small} "
                       "({best_epoch:.1f} s per MNIST epoch instead of {small_epoch:.1f} s), but the repeats overlap: "
                       "undecided", **sizes_said)
    if best is top and best is not small:   # the clause above already judged the smallest size against the top
        undecided = [r for r in undecided if r is not small]
    if len(undecided) == 1:
        text += tr("; batch {sizes} differs from batch {top} by more than the noise floor, but its repeats' range "
                   "overlaps that one's: undecided", sizes=undecided[0]["batch_size"], top=top["batch_size"])
    elif undecided:
        text += tr("; batches {sizes} differ from batch {top} by more than the noise floor, but their repeats' ranges "
                   "overlap its: undecided", sizes=runtime.listing(r["batch_size"] for r in undecided),
                   top=top["batch_size"])
    # beyond the floor, repeats apart: decided (the smallest size only if the clause above did not judge it)
    slower = [r for r in rows if r not in tied and r not in undecided
              and not (r is small and best is top and best is not small)]
    if len(slower) == 1:
        text += tr("; batch {sizes} is slower than batch {top} beyond the noise floor, its repeats apart from that "
                   "one's: slower", sizes=slower[0]["batch_size"], top=top["batch_size"])
    elif slower:
        text += tr("; batches {sizes} are slower than batch {top} beyond the noise floor, their repeats apart from "
                   "its: slower", sizes=runtime.listing(r["batch_size"] for r in slower), top=top["batch_size"])
    text += tr("; more samples per second is not fewer epochs to a given accuracy.")
    metrics = {"best_batch_size": best["batch_size"], "best_samples_per_s": best["samples_per_s"],
               "batch_sizes_tied": len(tied)}
    if twice:
        text = tr("The noise floor of this sweep: {floor:.1f}%, from {label} timed twice in the same "
                  "alternation (noise_floor_pct on the two copies' repeats). The second copy measures the noise "
                  "and is no contestant: the sizes below are judged against this floor without it.",
                  floor=noise, label=twice) + "\n" + text
        metrics["batch_sizes_noise_floor_pct"] = noise
    return Result("batch_sizes", everything, ["label", "first_call_s", "steps_per_s", "samples_per_s",
                                              "min_samples_per_s", "max_samples_per_s", "epoch_s"], text, metrics)


# -- the best of everything measured ------------------------------------------------------------------

def best_measured(results: Mapping[str, Result]) -> Tuple[dict, str]:
    """The highest step rate of LeNet-5 (batch 64, in-memory batches) over every experiment of a run that timed one:
    all of ``modes``, the in-memory rows of ``styles``, every case of ``cpu_traps`` (fresh processes). Returns
    ``(metrics, sentence)``. A figure, not a winner: a configuration is called fastest only inside one alternated
    comparison (each experiment's own conclusion), because separate experiments ran minutes apart, under whatever
    load came and went; so no tie rule and no ratio across experiments here.

    Lesson 08's pooling variants are never among them (they are not an experiment's rows): they rewrite the
    network's code, proven equal on one batch of LeNet-5 only, while this compares ways of running the network as
    written (mode, step style, CPU settings)."""
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
    exps = list(dict.fromkeys(r["exp"] for r in rows))   # one experiment: name it once (lesson 08 passes one)
    text = tr("The highest step rate of the experiments {exps}: {rate:.1f} steps/s, {best}{where} (the highest "
              "of the {n} rates of LeNet-5's batch-64 step on in-memory batches they measured; their second copies, "
              "which measure the noise, and any timing made outside these experiments are not counted). "
              "A figure, not a winner: a configuration is called the fastest only within one "
              "alternated comparison "
              "(the line under each experiment), "
              "because separate experiments ran minutes apart under whatever load came and went.",
              rate=best["steps_per_s"], best=best["shown"], n=len(rows), exps=runtime.listing(f"[{e}]" for e in exps),
              where=tr(", in [{exp}]", exp=best["exp"]) if len(exps) > 1 else "")
    return {"best_steps_per_s": best["steps_per_s"]}, text
