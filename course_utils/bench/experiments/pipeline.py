"""The input pipeline's own rate against the step's, and dataset sink mode."""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from course_utils import runtime
from course_utils.i18n import N_, tr

from ..harness import (compare, control_gap, cycle, faster_beyond, force, interval_side, noise_floor_pct, paired_ratio,
                       spans_rounds, verdict, widened)
from ..params import PipelineParams
from ..report import Result, format_verdicts, pick
from ..steps import Spec, build_step, lenet_setup, mnist_batches, timing_rows
from .common import (WITHIN_COPIES_SHORT, control_reading, control_said, copies_gap_pct, judged, setup_worker,
                     short_reading, verdict_table, within_gap)


MEMORY, AGAIN = "training step, in-memory batches", "training step, in-memory batches, again"   # row keys


def measure_data_pipeline(p: PipelineParams) -> list:
    """Batches/s of: the pipeline alone (1, 2, 4 workers, capped at the CPU count), the step on in-memory batches, the
    step fed by the pipeline, and Model.train with sink mode off and on; one pass of n batches (200 in QUICK runs,
    20 x steps otherwise) per repeat, the first (compiling) pass untimed. The in-memory pass is timed twice, as
    two configurations (A and A'), for this part's own noise floor: passes scatter differently from short repeats."""
    import mindspore as ms

    from course_utils.data import mnist_dataset

    setup_worker(p, Spec.parse(p.spec).mode)
    # passes of at least 200 batches: the pipeline's start-up (its threads, the first batch) is paid once per pass
    # and must not pass for its steady cost
    bs, n = p.batch_size, 200 if p.quick else max(20 * p.steps, 200)
    passes, labels = {}, {}   # configuration (the key rows are picked by) -> its pass; -> its label as shown
    for workers in sorted({1, min(2, runtime.cpu_count()), min(4, runtime.cpu_count())}):
        data = mnist_dataset("train", batch_size=bs, subset=bs * n, num_parallel_workers=workers)
        key = f"pipeline alone, {workers} worker(s)"
        passes[key] = lambda data=data: [None for _ in data.create_tuple_iterator(num_epochs=1)]
        labels[key] = tr("pipeline alone, 1 worker") if workers == 1 else tr("pipeline alone, {n} workers", n=workers)
    step = build_step(p.spec, *lenet_setup())
    in_memory = cycle(step, mnist_batches(bs, count=8))
    passes[MEMORY] = lambda: [force(in_memory()) for _ in range(n)][-1]
    labels[MEMORY] = tr("training step, in-memory batches (A)")
    data = mnist_dataset("train", batch_size=bs, subset=bs * n)
    passes["training step fed by the pipeline"] = (
        lambda: [force(step(x, y)) for x, y in data.create_tuple_iterator(num_epochs=1)][-1])
    labels["training step fed by the pipeline"] = tr("training step fed by the pipeline")
    for sink in (False, True):
        # a Model refuses a dataset another Model has trained on: one each
        net, loss_fn, opt = lenet_setup()
        model = ms.Model(net, loss_fn=loss_fn, optimizer=opt)
        sink_data = mnist_dataset("train", batch_size=bs, subset=bs * n)
        key = f"Model.train, sink mode {'on' if sink else 'off'}"
        passes[key] = lambda model=model, d=sink_data, sink=sink: model.train(1, d, dataset_sink_mode=sink)
        labels[key] = tr("Model.train, sink mode on") if sink else tr("Model.train, sink mode off")
    passes[AGAIN] = passes[MEMORY]   # A': the same pass again, last in the order (first in every other round)
    labels[AGAIN] = tr("training step, in-memory batches (A′, the control)")
    rows = timing_rows(compare(passes, steps=1, repeats=p.repeats, warmup=1), labels, device=p.device)
    for r in rows:   # one "step" of compare is a pass of n batches
        r.update(batches=n, batches_per_s=n * r["steps_per_s"], min_batches_per_s=n * r["min_steps_per_s"],
                 max_batches_per_s=n * r["max_steps_per_s"])
    return rows


def paired_reading(row: Mapping, refs: Sequence[Optional[Mapping]]) -> Optional[dict]:
    """``row``'s rate over the rate of each of ``refs`` (copies of one configuration, timed in the same ``compare``),
    round by round: a slow minute slows both of a round, so the ratio scatters less than either rate. Returns
    ``median`` (against the first copy), ``low``-``high`` (the copies' 95% bootstrap intervals of the median taken
    together, as lesson 07 reads two copies), ``rounds``, ``span`` and ``reading`` ("below", "inside" or "above"
    1.00, judged as printed). ``span``: the interval is just the lowest to the highest per-round ratio, as it is with
    five rounds (a median resampled from five values reaches them ~6% of the time each way). None with fewer than
    3 rounds."""
    refs = [r for r in refs if r is not None]
    rounds = len(row.get("repeat_s", ()))
    if rounds < 3 or not refs or any(len(r.get("repeat_s", ())) != rounds for r in refs):
        return None
    low, high, ratios = [], [], []
    for ref in refs:
        _, lo, hi = paired_ratio(row, ref)
        low.append(lo)
        high.append(hi)
        ratios += [ref_s / row_s for row_s, ref_s in zip(row["repeat_s"], ref["repeat_s"])]   # rate over rate
    lo, hi = round(min(low), 2), round(max(high), 2)   # judged as printed: an end shown as 1.00 is 1
    span = (lo, hi) == (round(min(ratios), 2), round(max(ratios), 2))
    control = None
    if len(refs) == 2:   # two copies of one configuration: the A/A' control, read as lesson 07 reads it
        _, c_lo, c_hi = paired_ratio(refs[1], refs[0])   # _: the control's median ratio
        control = {"median": _, "low": round(c_lo, 2), "high": round(c_hi, 2),
                   "span": spans_rounds(refs[1], refs[0], c_lo, c_hi)}
        gap = control_gap(c_lo, c_hi)   # a failed control widens the interval read with it
        if gap is not None:
            lo, hi = (round(x, 2) for x in widened(lo, hi, gap))
            span = False
        control["widened"] = gap is not None
    return {"median": paired_ratio(row, refs[0])[0], "low": lo, "high": hi, "rounds": rounds, "span": span,
            "reading": interval_side(lo, hi), "control": control,
            "widened": bool(control and control["widened"])}


def _spread(rounds: int, lo: float, hi: float, span: bool) -> str:
    """An interval as printed: "5 rounds: lowest-highest ratio lo-hi" where it is just that range, else "95% interval
    lo-hi, n rounds"."""
    return (tr("{n} rounds: lowest-highest ratio {lo:.2f}-{hi:.2f}", n=rounds, lo=lo, hi=hi) if span else
            tr("95% interval {lo:.2f}-{hi:.2f}, {n} rounds", n=rounds, lo=lo, hi=hi))


def control_text(pr: Optional[Mapping], a: str, b: str) -> str:
    """The A/A' control of a ``paired_reading`` against two copies (``b`` over ``a``) as a sentence; empty without
    one. Lesson 07's rule: 1.00 inside, as it should be; otherwise every interval read with it is widened."""
    c = (pr or {}).get("control")
    if not c:
        return ""
    spread = _spread(pr["rounds"], c["low"], c["high"], c["span"])
    return tr("Control, {b} over {a} (one configuration timed twice), paired round by round ({spread}): {said}.",
              a=a, b=b, spread=spread, said=control_said(c["low"], c["high"]))


def paired_words(pr: Mapping, verdict: bool = True, pairs: bool = False) -> str:
    """A ``paired_reading`` in words: "0.91x (5 rounds: lowest-highest ratio 0.74-0.93), below 1.00 in every round:
    slower" (``verdict=False``: without ": slower"; ``pairs``: its ``rounds`` count pairs of repeats, as part 2's
    processes give several per round)."""
    spread = (tr("{n} rounds, widened by the control: {lo:.2f}-{hi:.2f}", n=pr["rounds"], lo=pr["low"], hi=pr["high"])
              if pr.get("widened") and not pr["span"] else
              (tr("{n} pairs, lowest-highest ratio {lo:.2f}-{hi:.2f}", n=pr["rounds"], lo=pr["low"], hi=pr["high"])
               if pr["span"] else
               tr("{n} pairs, 95% interval {lo:.2f}-{hi:.2f}", n=pr["rounds"], lo=pr["low"], hi=pr["high"]))
              if pairs else _spread(pr["rounds"], pr["low"], pr["high"], pr["span"]))
    where = {"below": tr("below 1.00 in every round") if pr["span"] else tr("the interval below 1.00"),
             "above": tr("above 1.00 in every round") if pr["span"] else tr("the interval above 1.00"),
             "inside": tr("1.00 inside")}[pr["reading"]]
    if verdict:
        where = {"below": tr("{where}: slower", where=where), "above": tr("{where}: faster", where=where),
                 "inside": tr("{where}: no difference detected", where=where)}[pr["reading"]]
    return tr("{med:.2f}x ({spread}), {where}", med=pr["median"], spread=spread, where=where)


def paired_text(pr: Optional[Mapping], copies: int = 2) -> str:
    """The pipeline's verdict (lesson 07's rule): its paired reading against the copies of the in-memory pass
    (``copies``: 2, A and A', or 1), as a sentence; empty without one."""
    if pr is None:
        return ""
    text = tr("Paired round by round with {refs} (the passes of a round ran back to back), the fed step ran at {said}",
              said=paired_words(pr, verdict=False),
              refs=tr("both copies of the in-memory pass, A and A'") if copies == 2 else tr("the in-memory pass"))
    if pr["reading"] == "below":
        text += tr(": the pipeline costs the step. ")
    elif pr["reading"] == "inside":
        text += tr(": no cost detected. ")
    else:
        text += tr(", which feeding cannot cause: the machine changed under the measurement; no cost detected. ")
    return text


def fed_words(fed: Mapping, bound: float = 0.0) -> str:
    """Part 4's verdict on the fed step in the words of its table's row (and of the lesson's summary): "above 1.00:
    feeding cannot do that, ..." (exercise 2's 'recheck'); beyond 1.00 with the near end within the controls'
    ``bound`` (percent, ``controls_bound_pct``), "within the copies' gap"; else ``short_reading``."""
    if fed["reading"] == "above":
        return tr("above 1.00: feeding cannot do that, the machine changed (time again)")
    return bounded_words(fed, bound)


def bounded_words(pr: Mapping, bound: float = 0.0) -> str:
    """A part-4 row read against the controls' ``bound`` (percent, ``controls_bound_pct``), as every row of the part
    is: beyond 1.00 with the near end within it, "within the copies' gap"; holding 1.00, "not ruled out" up to at
    least the bound; else ``short_reading``."""
    if bound and within_bound(pr, bound):
        return tr(WITHIN_COPIES_SHORT, pct=bound)
    factor = 1 + bound / 100
    return short_reading(pr["low"], pr["high"], (1 / factor, factor) if bound else None)


#: Part 4's control lines where a control leaves out 1.00 (``control_reading``'s ``apart``): A'/A widens the rows read
#: against A and A' (``paired_reading``), not sink mode's; sink mode on / off widens nothing, its gap only sets the
#: smallest difference part 4 reads (``controls_bound_pct``).
AGAINST_A_APART = N_("apart: the rows against A and A' widened by its gap")
SINK_APART = N_("apart: a failed control")


def _verdict_rows(fed: Mapping, sink: Optional[Mapping], model: Optional[Mapping] = None,
                  same_loop: bool = False, bound: float = 0.0) -> list:
    """Part 4's rows for ``verdict_table``: the A/A' control, the fed step over the in-memory pass (A and A'),
    ``Model.train`` with sink mode off over the in-memory pass (``model``, if given), sink mode on over off; each a
    paired reading (``paired_reading``). ``same_loop``: sink mode runs the normal loop (CPU), so its row is a second
    control, read as one. ``bound``: the controls' larger gap (``fed_words``)."""
    rows = []
    c = fed.get("control")
    if c:   # lesson 07's control: one pass timed twice should not separate from itself
        rows.append((tr("in-memory pass A' / A (control)"), c["median"], c["low"], c["high"],
                     control_reading(c["low"], c["high"], apart=AGAINST_A_APART)))
    label = tr("fed by the pipeline / in-memory (A and A')") if c else tr("fed by the pipeline / in-memory")
    rows.append((label, fed["median"], fed["low"], fed["high"], fed_words(fed, bound)))
    if model is not None:   # Model.train's own loop, fed by the same pipeline, against the same in-memory passes
        rows.append((tr("Model.train, sink mode off / in-memory (A and A')") if c else
                     tr("Model.train, sink mode off / in-memory"), model["median"], model["low"], model["high"],
                     bounded_words(model, bound)))   # read against the same controls as the fed step
    if sink is not None and same_loop:   # one loop timed twice: a control, which holds 1.00 or fails
        rows.append((tr("Model.train, sink mode on / off (one loop on CPU: a control)"), sink["median"], sink["low"],
                     sink["high"], control_reading(sink["low"], sink["high"], apart=SINK_APART)))
    elif sink is not None:
        rows.append((tr("Model.train, sink mode on / off"), sink["median"], sink["low"], sink["high"]))
    return rows


def controls_bound_pct(fed: Mapping, sink: Optional[Mapping]) -> float:
    """The smallest difference part 4 reads, in percent: the larger of its two same-configuration controls' distances
    from 1.00 (``copies_gap_pct``: the A/A' control of the in-memory pass and, on CPU, sink mode on / off, one loop
    timed twice), each interval's farther end as printed."""
    gaps = [copies_gap_pct(c["low"], c["high"]) for c in (fed.get("control"), sink) if c]
    return max(gaps, default=0.0)


def within_bound(pr: Mapping, bound_pct: float) -> bool:
    """Whether a paired interval beyond 1.00 has its near end within ``bound_pct`` of 1.00, on the ratio scale that
    ``copies_gap_pct`` measures the controls on (``within_gap``): a difference the controls show too, so not read.
    False for an interval that holds 1.00."""
    return within_gap(pr["low"], pr["high"], 1 + bound_pct / 100)


#: How the pipeline's one-word verdict against one in-memory pass reads inside a sentence
WORDS = {"tie": N_("a tie"), "undecided": N_("undecided (the repeats overlap)"), "costs": N_("a cost beyond the floor"),
         "bottleneck": N_("a cost beyond the floor")}


def _workers(n: str) -> str:
    """"1 worker", "2 workers" in the current language."""
    return tr("1 worker") if n == "1" else tr("{n} workers", n=n)


#: The one-word verdicts exercise 2 asks for, by the side of 1.00 the paired interval lies on.
EXERCISE_WORDS = {"inside": "not separated", "above": "recheck"}


def exercise_word(reading: str, alone: float, in_memory: float, within: bool = False) -> str:
    """Part 4's verdict in exercise 2's words: "not separated" (the paired interval holds 1.00, or ``within``: its
    near end lies within the controls' gap, ``within_bound``), "recheck" (fed faster than in memory: the machine
    changed), else "bottleneck" (the pipeline alone is slower than the step consumes) or "costs" (it keeps up, yet
    the fed step is slower). ``reading``: "below", "inside" or "above"."""
    if within:
        return EXERCISE_WORDS["inside"]
    if reading in EXERCISE_WORDS:
        return EXERCISE_WORDS[reading]
    return "bottleneck" if alone < in_memory else "costs"


def summarise_data_pipeline(rows: list, p: PipelineParams) -> Result:
    """The pipeline is judged by what it does to the step: the step fed by it against the same step on in-memory
    batches, a tie within the noise floor. Its rate alone only says whether it could keep up on idle cores."""
    pipe = max((r for r in rows if r["config"].startswith("pipeline alone")), key=lambda r: r["batches_per_s"])
    mem_row = pick(rows, config=MEMORY)
    fed_row = pick(rows, config="training step fed by the pipeline")
    mem, fed = mem_row["batches_per_s"], fed_row["batches_per_s"]
    on = pick(rows, config="Model.train, sink mode on")["batches_per_s"]
    off = pick(rows, config="Model.train, sink mode off")["batches_per_s"]
    # the floor: p.noise_pct if given, else how far apart the same pass timed twice (A, A') can land by chance
    again = None if p.noise_pct else pick(rows, config=AGAIN)   # A', timed for the floor when none is given
    noise = p.noise_pct or noise_floor_pct(mem_row, again)
    cost = 100 * (1 - fed / mem)
    gap = 100 * (mem / fed - 1)                   # what the tie rule compares with the noise floor
    # the lab's two rules (a pass over a pipeline scatters differently from the repeats the floor was measured on);
    # a fed step faster beyond the floor is taken first below, so "undecided" there means in-memory ahead

    def word_against(ref: dict) -> str:
        """The whole verdict in one word against one in-memory row: "tie", "undecided" (lesson 07's second rule),
        "costs" or "bottleneck"."""
        said = verdict(ref, fed_row, noise, "batches_per_s")
        if faster_beyond(fed, ref["batches_per_s"], noise) or said == "tie":
            return "tie"      # (a fed step faster beyond the floor: the machine changed under the measurement)
        if said == "undecided":
            return "undecided"
        return "bottleneck" if pipe["batches_per_s"] < ref["batches_per_s"] else "costs"

    # A and A' are the same pass: the fed step is judged against both, and when they disagree, nothing is decided
    word_a = word_against(mem_row)
    word_b = word_against(again) if again is not None else word_a
    both_cost = {word_a, word_b} <= {"costs", "bottleneck"}   # both say it costs (which kind: A's call)
    disagree = word_a != word_b and not both_cost
    word = "undecided" if disagree else word_a
    costs = word in ("costs", "bottleneck")
    fed_faster = faster_beyond(fed, mem, noise)
    workers = pipe["config"].split(", ")[1].split()[0]   # "pipeline alone, 2 worker(s)"
    # whether the pipeline alone could feed the in-memory step: what "bottleneck" rests on, from the printed rates
    keeps_up = (tr("The pipeline alone delivered {rate:.0f} batches/s ({how}), {x:.1f}x the in-memory step's rate: it "
                   "keeps up, so it is not the bottleneck. ", rate=pipe["batches_per_s"], x=pipe["batches_per_s"] / mem,
                   how=_workers(workers)) if pipe["batches_per_s"] >= mem else
                tr("The pipeline alone delivered only {rate:.0f} batches/s ({how}), {x:.2f}x the in-memory step's "
                   "rate: alone it could not keep up. ", rate=pipe["batches_per_s"], x=pipe["batches_per_s"] / mem,
                   how=_workers(workers)))
    sink = paired_reading(pick(rows, config="Model.train, sink mode on"),
                          [pick(rows, config="Model.train, sink mode off")])   # the same alternation: paired
    paired = paired_reading(fed_row, [mem_row, again])   # against A and A': two copies of one pass
    model_off = paired_reading(pick(rows, config="Model.train, sink mode off"), [mem_row, again])   # the same rounds
    if paired is not None:   # the verdicts as one table (lesson 07's rule), one sentence under it
        same_loop = sink is not None and p.device == "CPU"   # sink mode on CPU runs the normal loop
        bound = controls_bound_pct(paired, sink if same_loop else None)
        shown = [pr for pr in (paired, paired.get("control"), model_off, sink) if pr]
        text = (verdict_table(_verdict_rows(paired, sink, model_off, same_loop, bound),
                              spans=all(pr["span"] for pr in shown)) + "\n" + keeps_up.strip())
        if same_loop:
            held = interval_side(sink["low"], sink["high"]) == "inside"
            text += "\n" + (tr("On CPU sink mode runs the normal loop, so 'sink mode on / off' is a second control, "
                               "one loop timed twice: it held 1.00.") if held else
                            tr("On CPU sink mode runs the normal loop, so 'sink mode on / off' is a second control, "
                               "one loop timed twice, and it left out 1.00 (copies up to {pct:.0f}% apart): noise or "
                               "drift, since nothing differs between the two.",
                               pct=copies_gap_pct(sink["low"], sink["high"])))
        if same_loop and bound:
            text += " " + tr("Part 4 reads no difference smaller than its controls' larger distance from 1.00: "
                             "{pct:.0f}%.", pct=bound)
        within = bool(bound) and paired["reading"] != "inside" and within_bound(paired, bound)
        one_word = exercise_word(paired["reading"], pipe["batches_per_s"], mem, within)
        if within:   # the table's row reads "within the copies' gap": the one word agrees
            text += "\n" + tr("The verdict in one word (exercise 2's): 'not separated'. The interval's near end lies "
                              "within the controls' {pct:.0f}%: this run cannot tell that difference from the gap "
                              "between two runs of one configuration.", pct=bound)
        else:
            text += "\n" + (tr("The verdict in one word (exercise 2's): 'costs'. The pipeline keeps up, yet the step "
                               "it feeds ran {pct:.0f}% slower than on in-memory batches (the paired median). A "
                               "likely cause, not measured here: the pipeline's worker threads run on the {cpus} "
                               "cores the step computes on.", pct=100 * (1 - paired["median"]),
                               cpus=runtime.cpu_count())
                            if one_word == "costs" else
                            tr("The verdict in one word (exercise 2's): '{word}'.", word=one_word))
            if bound and paired["reading"] != "inside":   # the verdict against the controls' bound
                text += " " + tr("The interval's near end lies beyond the controls' {pct:.0f}%.", pct=bound)
        fed_entry = {"config": tr("training step fed by the pipeline"), "x": fed / mem, "paired": paired,
                     "x_copy": fed / again["batches_per_s"] if again is not None else None}
        return Result("data_pipeline", rows, ["label", "batches_per_s", "min_batches_per_s", "max_batches_per_s"],
                      text, {"pipeline_batches_per_s": pipe["batches_per_s"], "pipeline_cost_pct": cost,
                             "pipeline_costs_step": costs, "pipeline_is_bottleneck": word == "bottleneck",
                             "sink_speedup": on / off, "noise_pct": noise, "pipeline_verdict": word,
                             "pipeline_word": one_word, "model_paired": model_off, "paired": paired,
                             "sink_paired": sink, "fed_entry": fed_entry, "controls_bound_pct": bound,
                             "fed_within_bound": within_bound(paired, bound) if bound else False,
                             "said": fed_words(paired, bound),   # the table's words: the summary repeats them
                             "fed_said": fed_words(paired, bound)})
    text = "" if again is None else tr(
        "The noise floor for passes of {n} batches, from the same in-memory pass timed twice in the alternation "
        "({a:.1f} and {b:.1f} batches/s), the larger of the chance gap between two such medians and their actual "
        "gap, as in part 1: {noise:.1f}%. ", n=mem_row["batches"], a=mem, noise=noise,
        b=again["batches_per_s"]).rstrip() + "\n"
    def cell(ref: dict, word: str) -> str:   # in the table, a fed step faster beyond the floor shows as such
        return "faster" if faster_beyond(fed, ref["batches_per_s"], noise) else word

    fed_entry = {"config": tr("training step fed by the pipeline"), "x": fed / mem,
                 "x_copy": fed / again["batches_per_s"] if again is not None else None, "vs_a": cell(mem_row, word_a),
                 "vs_copy": cell(again, word_b) if again is not None else None,
                 "paired": paired_reading(fed_row, [mem_row, again])}   # against A and A': two copies of one pass
    text += format_verdicts([fed_entry],
                            "A", tr("A'") if again is not None else None) + "\n"
    paired = fed_entry["paired"]
    if paired is not None and paired.get("control"):   # first the A/A' control, as lesson 07 reads it
        text += control_text(paired, "A", tr("A'")) + "\n"
    said_from = len(text)   # the verdict in words: kept for the lesson's summary
    if paired is not None:   # the verdict: the paired interval, the only reading printed (part 1's rule)
        text += ((tr("Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} and {again:.0f} on the "
                     "in-memory passes A and A'. ", fed=fed, mem=mem, again=again["batches_per_s"])
                  if again is not None else
                  tr("Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} on in-memory "
                     "batches. ", fed=fed, mem=mem))
                 + paired_text(paired, copies=1 if again is None else 2).rstrip())
    elif again is not None:
        text += tr("Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} and {again:.0f} on the "
                   "in-memory passes A and A' ({x:.2f}x A, {y:.2f}x A'): ", fed=fed, mem=mem,
                   again=again["batches_per_s"], x=fed / mem, y=fed / again["batches_per_s"])
    else:
        text += tr("Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} on in-memory batches "
                   "({x:.2f}x): ", fed=fed, mem=mem, x=fed / mem)
    if paired is not None:
        pass              # the medians against the floor: not printed beside a paired verdict
    elif disagree:
        text += tr("against A, {a}; against A' ({again:.0f} batches/s), {b}; the two disagree: undecided. ",
                   a=tr(WORDS[word_a]), b=tr(WORDS[word_b]), again=again["batches_per_s"])
    elif fed_faster:
        text += tr("faster fed by the pipeline, beyond the noise floor of {noise:.1f}%. Feeding a step cannot make it "
                   "faster, so the machine changed under the measurement; this run detects no cost of the pipeline. ",
                   noise=noise) + keeps_up
    elif word == "undecided":
        text += tr("on in-memory batches it ran {gap:.1f}% faster, beyond the noise floor of {noise:.1f}%, but the "
                   "repeats' ranges overlap: undecided, this run does not say whether the pipeline costs the step "
                   "anything. ", gap=gap, noise=noise)
    elif word == "tie":
        text += tr("a tie within the noise floor of {noise:.1f}%: by the medians this run cannot tell the difference "
                   "from noise, so it says neither that the pipeline costs the step nothing nor that any cost is "
                   "smaller than {noise:.1f}%. ", noise=noise) + keeps_up
    elif word == "bottleneck":
        text += tr("on in-memory batches it ran {gap:.1f}% faster, beyond the noise floor of {noise:.1f}%, and the "
                   "pipeline alone delivers only {rate:.0f} batches/s ({how}), fewer than the step consumes: the "
                   "pipeline IS the bottleneck. ", gap=gap, noise=noise, rate=pipe["batches_per_s"],
                   how=_workers(workers))
    else:
        text += tr("on in-memory batches it ran {gap:.1f}% faster, beyond the noise floor of {noise:.1f}%, although "
                   "the pipeline alone delivers {rate:.0f} batches/s ({how}), {x:.1f}x what the step consumes: it "
                   "keeps up, but feeding the step costs it {cost:.0f}% of its rate. ", gap=gap, cost=cost, noise=noise,
                   rate=pipe["batches_per_s"], how=_workers(workers), x=pipe["batches_per_s"] / mem)
    said = text[said_from:].strip()
    text = text.rstrip() + "\n"   # the sink-mode comparison: a line of its own
    on_row, off_row = pick(rows, config="Model.train, sink mode on"), pick(rows, config="Model.train, sink mode off")
    sink = paired_reading(on_row, [off_row])   # the same alternation: paired round by round, the verdict
    if sink is not None:
        text += tr("Sink mode on against off, on {device}, paired round by round: {said}", device=p.device,
                   said=paired_words(sink))
        differs = sink["reading"] != "inside"
    else:
        text += tr("Sink mode on {device} ran at {r:.2f}x the rate of sink mode off ({verdict})", device=p.device,
                   r=on / off, verdict=judged(on_row, off_row, noise, "batches_per_s"))
        differs = verdict(on_row, off_row, noise, "batches_per_s") != "tie"
    text += ((tr("; on CPU MindSpore falls back to the normal loop with only an INFO-level log, so the two rows run "
                 "one loop: this gap is not sink mode's (it may come from the two Model instances or from their "
                 "places in the alternation).")
              if differs else tr("; on CPU MindSpore falls back to the normal loop with only an INFO-level log."))
             if p.device == "CPU" else tr("."))
    metrics = {"pipeline_batches_per_s": pipe["batches_per_s"], "pipeline_cost_pct": cost,
               "pipeline_costs_step": costs, "pipeline_is_bottleneck": word == "bottleneck",
               "sink_speedup": on / off, "noise_pct": noise,   # the floor the verdicts used
               "pipeline_verdict": word, "paired": paired,   # word: by the medians' rules; paired: the verdict
               "fed_entry": fed_entry, "said": said}   # the table's row (format_verdicts); the verdict, the medians
    return Result("data_pipeline", rows, ["label", "batches_per_s", "min_batches_per_s", "max_batches_per_s"], text,
                  metrics)
