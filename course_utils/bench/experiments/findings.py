"""Lesson 08's results read together, in words: the lines and the plot that set one experiment beside another.

Each experiment's ``summarise`` speaks for itself; what lesson 08 also needs is the sentences that compare two of
them (the two pooling measurements, part 2's rows seen from part 6) and the closing list of what this run found.
They live here, not in the lesson's cells, so that the cells show MindSpore code and not table plumbing; every
figure they print comes from the results they are given.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from course_utils import runtime
from course_utils.i18n import tr

from ..harness import Timing, interval_side, paired_ratio, spans_rounds, verdict
from ..report import PAIRED_CELLS, Result, format_verdicts, pick
from ..steps import NAIVE_SPEC, Spec
from .common import judged
from .pipeline import paired_words
from .traps import FIND_CASES, POOL_LAYERS, TIME_SIDE_CELLS, said_words, same_process_paired


def _per_layer(x: Mapping[str, float]) -> str:
    """"relu+pool 1 1.83x, relu+pool 2 1.43x" in the current language."""
    return runtime.listing([tr("{layer} {x:.2f}x", layer=tr(layer), x=x[layer]) for layer in POOL_LAYERS])


def pooling_measurements(found: Result, pool_cap: Result) -> str:
    """Part 3's two measurements of the pooling layers set side by side: the per-layer timing (eager PyNative, one
    process per case, oneDNN's log off) and ``pool_cap`` (compiled, processes alternated), each as the time with the
    cap over the time without; where they point the same way, how far the eager rows' extra cost reaches; where
    not, why the per-layer timing's rows are the weaker measurement."""
    a, b = FIND_CASES
    eager = {(r["case"], r["layer"]): r for r in found.rows}
    compiled = {(r["case"], r["config"]): r for r in pool_cap.rows}
    if not all((c, layer) in eager and (c, layer) in compiled for c in (a, b) for layer in POOL_LAYERS):
        return ""
    x_eager = {layer: eager[b, layer]["ms"] / eager[a, layer]["ms"] for layer in POOL_LAYERS}
    x_comp = {layer: compiled[b, layer]["ms"] / compiled[a, layer]["ms"] for layer in POOL_LAYERS}
    calls = sorted({eager[c, layer]["steps"] for c in (a, b) for layer in POOL_LAYERS})
    text = tr("Two measurements of pooling, the time with the cap over the time without: per-layer timing (eager "
              "PyNative, one process per case, {calls} calls per repeat) {eager}; pool_cap "
              "(compiled, {k} alternated processes per case, {calls_c} calls per repeat) {comp}.",
              calls=(tr("{lo}-{hi}", lo=calls[0], hi=calls[-1]) if len(calls) > 1 else calls[0]),
              k=pool_cap.rows[0].get("processes", 1), calls_c=pool_cap.rows[0]["steps"],
              eager=_per_layer(x_eager), comp=_per_layer(x_comp))
    split = [layer for layer in POOL_LAYERS if (x_eager[layer] > 1) != (x_comp[layer] > 1)]
    if not split:
        return text + _gap(text) + tr("They agree on the direction; read pool_cap's digits, which time the layers "
                                      "compiled, as the training step runs them (an eager call also pays its dispatch "
                                      "from Python).")
    return text + _gap(text) + tr(
        "They disagree on {layers}: the per-layer timing ran each case once, one process after the other, so a slow "
        "stretch of the machine lands in one case only; pool_cap alternates its processes, so its direction is the "
        "measurement.", layers=runtime.listing([tr(layer) for layer in split]))


def pynative_vs_graph(traps: Result, case: str = "no fixes") -> str:
    """Part 2's PyNative ``TrainOneStepCell`` against the GRAPH_MODE one in environment ``case``, round by round
    (both timed in alternation in the same processes): the paired ratio and its interval, and what it says."""
    graph = pick(traps.rows, case=case, config=NAIVE_SPEC)
    eager = pick(traps.rows, case=case, config="pynative/cell")
    med, lo, hi = paired_ratio(eager, graph)
    where = (tr("slower in this run") if hi < 1 else tr("faster in this run") if lo > 1 else
             tr("no difference detected (1.00 inside the interval)"))
    spread = (tr("{n} pairs, lowest-highest ratio {lo:.2f}-{hi:.2f}", n=len(eager["repeat_s"]), lo=lo, hi=hi)
              if spans_rounds(eager, graph, lo, hi) else
              tr("{n} pairs, 95% interval {lo:.2f}-{hi:.2f}", n=len(eager["repeat_s"]), lo=lo, hi=hi))
    return tr("In part 2 ({case}), PyNative's TrainOneStepCell, where MindSpore 2.x starts, ran at {med:.2f}x the rate "
              "of {graph} (paired repeat by repeat, both timed in alternation in the same processes: {spread}): "
              "{where}.", case=tr(case), med=med, graph=Spec.parse(NAIVE_SPEC).label, spread=spread, where=where)


def _gap(text: str) -> str:
    """The space between two sentences: none after a Chinese full stop."""
    return "" if text.endswith("。") else " "


def part2_standing(traps: Result, case: str, spec: str, noise_pct: float) -> str:
    """Where part 2's row (``case``, ``spec``) stands against part 2's fastest row: paired round by round where the two
    differ in host blocking only (part 2's own verdict), paired repeat by repeat where they share the environment (the
    same processes), otherwise by the medians against the noise floor."""
    row = pick(traps.rows, case=case, config=spec)
    top = max(traps.rows, key=lambda r: r["steps_per_s"])
    if row["steps_per_s"] == top["steps_per_s"]:
        return tr("In part 2 this configuration ran at {rate:.1f} steps/s, the fastest row", rate=row["steps_per_s"])
    where = tr("{label}, {case}", label=top["label"], case=tr(top["case"]))
    hb = traps.metrics.get("host_blocking", {}).get(spec, {}).get("paired")
    if hb and case == "both fixes" and top["config"] == spec and top["case"] == "ONEDNN_MAX_CPU_ISA=AVX2":
        # the two differ in host blocking only: part 2 paired them round by round, and that is its verdict
        return tr("In part 2 this configuration ran at {rate:.1f} steps/s; the fastest row, {where}: {top:.1f}; "
                  "the two differ in host blocking "
                  "only, and part 2 paired them round by round: {said}", rate=row["steps_per_s"],
                  top=top["steps_per_s"], where=where, said=paired_words(hb, pairs=True))
    if top["case"] == case and len(top.get("repeat_s", ())) == len(row.get("repeat_s", ())) >= 3:
        # the same environment: both timed in alternation in the same processes, so part 2 paired them
        return tr("In part 2 this configuration ran at {rate:.1f} steps/s; the fastest row, {where}: {top:.1f}; "
                  "the two ran in alternation in the "
                  "same processes: paired repeat by repeat, the fastest row's rate over this one's, {said}",
                  rate=row["steps_per_s"], top=top["steps_per_s"], where=where, said=same_process_paired(top, row))
    return tr("In part 2 this configuration ran at {rate:.1f} steps/s; the fastest row, {where}: {top:.1f}; "
              "part 2 did not pair these two, so "
              "only the medians against the noise floor compare them: {said}", rate=row["steps_per_s"],
              top=top["steps_per_s"], said=judged(row, top, noise_pct), where=where)


def plot_time_to_accuracy(ax, tta: Result, best: str) -> None:
    """Part 6's curves: test accuracy against training seconds, the targets as dotted lines, and the naive time as
    a line where measured, a band from its low to its high end where estimated.
    ``best``: the course-settings run's legend."""
    for key, curve in tta.extra["curves"].items():
        if curve:
            ax.plot([p["train_s"] for p in curve], [100 * p["accuracy"] for p in curve], "o-", ms=3,
                    label=best if key == "best" else tr("naive defaults"))
    for row in tta.rows:
        ax.axhline(row["target_pct"], color="gray", ls=":", lw=1)
        ax.text(0.01, row["target_pct"], tr("target {t:.1f}%", t=row["target_pct"]), transform=ax.get_yaxis_transform(),
                fontsize=8, color="gray", va="bottom")   # x in axes fractions, y in data: the line's own label
        if row["naive_s"]:
            ax.axvspan(row["naive_s"], row["naive_s_high"], color="tab:red", alpha=0.15)
            ax.axvline(row["naive_s"], color="tab:red", ls="--", lw=1)
            one = row["naive_s_high"] <= 1.01 * row["naive_s"]   # two ends less than 1% apart: one figure
            label = (tr("naive: {s:.0f} s (measured)", s=row["naive_s"]) if row["how"] != "estimated" else
                     tr("naive: {s:.0f} s (estimated)", s=(row["naive_s"] + row["naive_s_high"]) / 2) if one else
                     tr("naive: {lo:.0f}-{hi:.0f} s (estimated)", lo=row["naive_s"], hi=row["naive_s_high"]))
            ax.annotate(label, (row["naive_s"], 95.2), fontsize=8, rotation=90, ha="right",
                        va="bottom")   # from the bottom up: inside the axes
    ax.set(xlabel=tr("training seconds"), ylabel=tr("test accuracy %"), ylim=(95, 100),
           title=tr("Test accuracy vs training time"))
    ax.legend(fontsize=8)


def _pool_cell(layer: str, words: Mapping[str, str], paired: Mapping[str, tuple]) -> str:
    """A pooling layer's verdict cell: where its paired interval of times lies, or the medians' verdict unpaired."""
    return TIME_SIDE_CELLS[interval_side(*paired[layer][1:])] if layer in paired else words[layer]


def _pooling_sentence(words: Mapping[str, str], paired: Mapping[str, tuple], span: bool = False) -> str:
    """The closing line of part 3's pooling: which layers the cap made slower, by the paired interval of their
    times (the lab's one rule; ``summarise_pool_cap`` falls back to the medians only where rounds do not pair).
    ``span``: the intervals are the lowest-highest ratios (few pairs), and the sentence names them so."""
    slower = [layer for layer, word in words.items() if word == "slower"]
    if not slower:
        return tr("The cap made no pooling layer measurably slower here.")
    listing = runtime.listing([tr("{layer} {lo:.2f}-{hi:.2f}x", layer=tr(layer), lo=paired[layer][1],
                                  hi=paired[layer][2]) for layer in slower if layer in paired])
    if listing and span:
        return tr("The cap made {layers} slower: paired repeat by repeat, the time with the cap over the time without "
                  "lies above 1.00 ({listing}, lowest-highest ratio).", layers=runtime.listing([tr(x) for x in slower]),
                  listing=listing)
    return (tr("The cap made {layers} slower: paired repeat by repeat, the time with the cap over the time without "
               "lies above 1.00 ({listing}, 95% interval).", layers=runtime.listing([tr(x) for x in slower]),
               listing=listing) if listing else
            tr("The cap made {layers} slower, beyond the noise floor with repeats apart.",
               layers=runtime.listing([tr(x) for x in slower])))


def _spread(pr: Mapping) -> str:
    """A ``paired_reading``'s interval, one decimal, named as it is: the lowest-highest ratio of its pairs, or a 95%
    interval."""
    return (tr("{n} pairs, lowest-highest ratio {lo:.1f}-{hi:.1f}", n=pr["rounds"], lo=pr["low"], hi=pr["high"])
            if pr.get("span") else tr("95% interval {lo:.1f}-{hi:.1f}", lo=pr["low"], hi=pr["high"]))


def _finding(title: str, entries: Sequence[Mapping], baseline: str, sentence: str, copy: Optional[str] = None,
             titles: Optional[Mapping[str, str]] = None) -> str:
    return f"{title}\n{format_verdicts(entries, baseline, copy, titles)}\n{sentence}\n"


def this_run_found(*, traps: Optional[Result], pool_cap: Optional[Result], pools: Mapping[str, Timing],
                   pipe: Result, amp: Result, tta: Result, noise_pct: float, device: str,
                   said: Optional[Mapping[str, str]] = None) -> str:
    """Lesson 08's closing list: per experiment a small table of verdicts (the paired interval where rounds pair;
    otherwise the medians against the floor, the lab's two rules) and one sentence.
    ``traps`` and ``pool_cap``: None off the CPU; ``pools``: part 3's rewrites timed in the kernel; ``said``: how the
    lesson words each verdict."""
    parts, said = [], said_words(said)
    if traps is not None:
        m = traps.metrics
        parts.append(_finding(
            tr("Part 2, host blocking on top of the ISA cap:"),
            [{"config": e["label"], "x": e["x"], "vs_a": e["verdict"], "paired": e.get("paired")}
             for e in m["host_blocking"].values()],
            tr("the cap alone"),
            tr("With both settings the naive configuration ran {x:.1f}x as fast as with neither: {said}.",
               x=m["fixes_vs_naive_speedup"], said=said[m["fixes_vs_naive_speedup_verdict"]])
            if not m.get("fixes_vs_naive_paired") else
            tr("With both settings the naive configuration ran {x:.1f}x as fast as with neither (paired round by "
               "round: {med:.1f}x, {spread}, {where}).", x=m["fixes_vs_naive_speedup"],
               med=m["fixes_vs_naive_paired"]["median"], spread=_spread(m["fixes_vs_naive_paired"]),
               where=tr(PAIRED_CELLS[m["fixes_vs_naive_paired"]["reading"]]))))
    if pool_cap is not None and pool_cap.rows:
        a, b = FIND_CASES
        words, paired = pool_cap.metrics["pool_cap_verdicts"], pool_cap.metrics["pool_cap_paired"]
        parts.append(_finding(
            tr("Part 3, pooling with the cap against without (forward and backward, each layer alone; the time with "
               "the cap over the time without):"),
            [{"config": tr(r["config"]), "x": r["ms"] / pick(pool_cap.rows, case=a, config=r["config"])["ms"],
              "vs_a": _pool_cell(r["config"], words, paired)} for r in pool_cap.rows if r["case"] == b],
            tr("the time without the cap"),
            _pooling_sentence(words, paired, span=pool_cap.metrics.get("pool_cap_span", False)),
            titles={"x": tr("time, cap / no cap (x)"), "vs_a": tr("verdict")}))
    base = pools["nn.MaxPool2d"]
    rewrites = {name: verdict(t, base, noise_pct) for name, t in pools.items() if name != "nn.MaxPool2d"}
    paired_rw = {}   # the verdict: each rewrite's rate over nn.MaxPool2d's, round by round (one alternation)
    for name in rewrites:
        med, lo, hi = paired_ratio(pools[name], base)
        paired_rw[name] = {"median": med, "low": lo, "high": hi, "reading": interval_side(lo, hi)}
    faster = [n for n, pr in paired_rw.items() if pr["reading"] == "above"]
    parts.append(_finding(
        tr("Part 3, pooling rewrites (the whole training step):"),
        [{"config": name, "x": pools[name].steps_per_s / base.steps_per_s, "vs_a": word, "paired": paired_rw[name]}
         for name, word in rewrites.items()], "nn.MaxPool2d",
        tr("Faster, paired interval above 1.00: {names}.", names=runtime.listing(faster)) if faster else
        tr("Neither rewrite was measurably faster: keep nn.MaxPool2d.")))
    parts.append(_finding(tr("Part 4, the data pipeline (its own floor, {noise:.1f}%):",
                             noise=pipe.metrics["noise_pct"]),
                          [pipe.metrics["fed_entry"]], "A", pipe.metrics["said"], copy=tr("A'")))
    parts.append(_finding(
        tr("Part 5, float16 on {device}:", device=device),
        [{"config": r["label"], "x": r["vs_O0"], "vs_a": r["verdict_O0"], "vs_copy": r["verdict_copy"],
          "paired": r["paired"]} for r in amp.rows if "verdict" in r],
        "O0", amp.metrics.get("said", amp.conclusion.splitlines()[-1]),
        copy=tr("O0's copy") if "amp_copy_vs_O0" in amp.metrics else None))
    row = max(tta.rows, key=lambda r: r["target_pct"])
    tag = f"{row['target_pct']:.1f}".replace(".", "_")
    if row["speedup"] and row["how"] == "estimated":
        one = row["speedup_high"] <= 1.01 * row["speedup"]   # two ends less than 1% apart: one figure
        x = (tr("{x:.1f}x", x=(row["speedup"] + row["speedup_high"]) / 2) if one
             else tr("{lo:.1f}-{hi:.1f}x", lo=row["speedup"], hi=row["speedup_high"]))
        wide = (tr("; {lo:.1f}-{hi:.1f}x with the step count's own uncertainty",
                   lo=tta.metrics[f"speedup_to_{tag}_wide_low"], hi=tta.metrics[f"speedup_to_{tag}_wide_high"])
                if f"speedup_to_{tag}_wide_low" in tta.metrics else "")
        parts.append(tr("Part 6: to {target:.1f}% the naive defaults needed about {x} the course settings' training "
                        "time (estimated{wide}).", target=row["target_pct"], x=x, wide=wide))
    elif row["speedup"]:
        parts.append(tr("Part 6: to {target:.1f}% the naive defaults needed {x:.1f}x the course settings' training "
                        "time (measured).", target=row["target_pct"], x=row["speedup"]))
    return "\n".join(parts)


__all__ = ["pooling_measurements", "pynative_vs_graph", "part2_standing", "plot_time_to_accuracy", "this_run_found"]
