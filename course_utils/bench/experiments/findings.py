"""Lesson 08's results read together, in words: the lines and the plot that set one experiment beside another.

Each experiment's ``summarise`` speaks for itself; what lesson 08 also needs is the sentences that compare two of
them (part 1's resolution before parts 4 and 5, part 2's rows seen from part 6) and the closing list of what this run
found. They live here, not in the lesson's cells, so that the cells show MindSpore code and not table plumbing; every
figure they print comes from the results they are given.
"""

from __future__ import annotations

from typing import Mapping, Optional, Sequence

from course_utils.fmt import plain_figures
from course_utils.i18n import tr

from ..harness import Timing, paired_ratio, spans_rounds
from ..report import Result, pick
from ..steps import NAIVE_SPEC, Spec
from .accuracy import printed
from .common import judged, not_ruled_out_pct, short_reading, verdict_table
from .pipeline import paired_words
from .traps import POOL_LAYERS, pool_copies, said_words, same_process_paired


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


def resolution(noise_pct: float, copies: Sequence[Sequence]) -> str:
    """What this run can resolve, said before parts 4 and 5 run: part 1's noise floor (``noise_pct``, two medians of
    one step) and the largest difference part 1's paired copies (``copies``: ``(label, median, low, high)`` rows, one
    step timed as several) left not ruled out, the sharper reading's own limit here."""
    widest = max((not_ruled_out_pct(lo, hi) for _, _, lo, hi in copies), default=0.0)
    return tr("What this run can resolve: by part 1, two medians of one step can land up to {noise:.0f}% apart by "
              "chance, so read by their medians, differences below {noise:.0f}% cannot be resolved in this run; paired "
              "round by round, part 1's copies of one step still left up to {widest:.0f}% not ruled out.",
              noise=noise_pct, widest=widest)


def part2_standing(traps: Result, case: str, spec: str, noise_pct: float) -> str:
    """Where part 2's row (``case``, ``spec``) stands against part 2's fastest row: paired round by round where the two
    differ in host blocking only (part 2's own verdict), paired repeat by repeat where they share the environment (the
    same processes), otherwise by the medians against the noise floor."""
    row = pick(traps.rows, case=case, config=spec)
    top = max(traps.rows, key=lambda r: r["steps_per_s"])
    if row["steps_per_s"] == top["steps_per_s"]:
        return tr("In part 2 this configuration ran at {rate:.1f} steps/s, the fastest row.", rate=row["steps_per_s"])
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


def naive_rates(tta: Result, traps: Optional[Result], noise_pct: Optional[float] = None) -> str:
    """Part 6's step rates (fed by the MNIST pipeline, a fresh process) beside part 2's (in-memory batches, the same
    configurations): how much slower each ran in part 6, and so how part 6's gain relates to part 2's; every ratio from
    the rates as printed (``accuracy.printed``). The cause is not measured: a sentence, not a verdict. With
    ``noise_pct``, part 1's floor, a rate that moved by more than it is said to have (the estimate's last row widens
    by that floor). Empty without both parts' rates."""
    naive6, best6 = tta.extra.get("naive_steps_per_s"), tta.extra.get("best_steps_per_s")
    m = traps.metrics if traps is not None else {}
    naive2, best2 = m.get("naive_steps_per_s"), m.get("fixes_steps_per_s")
    if not (naive6 and best6 and naive2 and best2):
        return ""
    n6, b6, n2, b2 = (printed(x) for x in (naive6, best6, naive2, best2))   # as the sentence prints them
    text = tr("Against part 2: part 6's step-rate ratio is {g6:.1f}x, part 2's ratio of medians {g2:.1f}x. Fed by the "
              "pipeline in a fresh process, the naive step ran at {xn:.2f}x its part 2 rate ({n2:.1f} -> {n6:.1f} "
              "steps/s), the step with the two CPU settings at {xb:.2f}x ({b2:.1f} -> {b6:.1f}). Why the two changed "
              "by different factors is not measured (the pipeline's threads, the fresh process and the machine's "
              "load are candidates).", n6=n6, n2=n2, xn=n6 / n2, b6=b6, b2=b2, xb=b6 / b2, g6=b6 / n6, g2=b2 / n2)
    if noise_pct and max(max(x, 1 / x) for x in (n6 / n2, b6 / b2)) > 1 + noise_pct / 100:
        text += tr(" At least one rate moved by more than the {noise:.0f}% noise floor the estimate's last row "
                   "widens by: the conditions differ, so this measures no noise, but it shows how far a single "
                   "unpaired rate can move; read part 6's range as the size of the gain, not as firm bounds.",
                   noise=noise_pct)
    return text


def plot_time_to_accuracy(ax, tta: Result, best: str) -> None:
    """Part 6's curves: test accuracy against training seconds, the targets as dotted lines, and the naive time as
    a line where measured; where estimated, a pale band over the range the text quotes (widened by the noise floor)
    and a darker one over the estimate's two ends before widening.
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
            tag = f"{row['target_pct']:.1f}".replace(".", "_")
            low, high = (tta.metrics.get(f"naive_time_to_{tag}_s_noise_{end}") for end in ("low", "high"))
            wide = row["how"] == "estimated" and low is not None and high is not None
            if wide:   # the range the text and the summary quote: the estimate widened by the noise floor
                ax.axvspan(low, high, color="tab:red", alpha=0.12, label=tr(
                    "naive defaults to {t:.1f}%, estimated: {lo}-{hi} s (widened by the noise floor)",
                    t=row["target_pct"], lo=plain_figures(low), hi=plain_figures(high)))
                one = row["naive_s_high"] <= 1.01 * row["naive_s"]   # two ends less than 1% apart: one figure
                ax.axvspan(row["naive_s"], row["naive_s_high"], color="tab:red", alpha=0.3, label=tr(
                    "the estimate before widening: about {s:.0f} s", s=(row["naive_s"] + row["naive_s_high"]) / 2)
                    if one else tr("the estimate before widening: {lo:.0f}-{hi:.0f} s", lo=row["naive_s"],
                                   hi=row["naive_s_high"]))
                continue   # both bands named in the legend
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
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.3),   # under the x label: clear of the curves,
              frameon=False)                                               # the bands and the targets' labels


def _interval(lo: float, hi: float, span: bool) -> str:
    """A paired interval named as it is: the lowest-highest ratio of its pairs (five or fewer), or a 95% interval."""
    return (tr("lowest-highest ratio {lo:.2f}-{hi:.2f}", lo=lo, hi=hi) if span else
            tr("95% interval {lo:.2f}-{hi:.2f}", lo=lo, hi=hi))


def _one(name: str, med: float, lo: float, hi: float, span: bool, reading=short_reading) -> str:
    """"reshape + max 1.55x (lowest-highest ratio 1.41-1.64), above 1.00: faster": one paired reading, its interval
    read by ``reading`` (``short_reading`` unless given)."""
    return _unnamed(tr("{name} {med:.2f}x ({spread}), {where}", name=name, med=med, spread=_interval(lo, hi, span),
                       where=reading(lo, hi)), name)


def _unnamed(text: str, name: str) -> str:
    """``text`` without the separator its template puts after an empty ``name`` (" " in English, "：" in Chinese)."""
    return text if name else text.lstrip(" ：:")


def _reading(name: str, pr: Optional[Mapping], x: float = 0.0, word: str = "") -> str:
    """A ``paired_reading`` as ``_one``'s words; without one (too few rounds), the medians' ratio ``x`` and the floor's
    ``word`` (``bench.verdict``'s answer)."""
    if pr:
        return _one(name, pr["median"], pr["low"], pr["high"], pr["span"])
    if word:
        said = said_words().get(word, word)   # the floor's word
        return _unnamed(tr("{name} {x:.2f}x, {said}", name=name, x=x, said=said), name)
    return tr("{name}: -", name=name)


#: A row of the closing table: (label, median or None, low, high, verdict), as ``verdict_table`` takes it.
Row = tuple


def _row(label: str, pr: Mapping, words: str) -> Row:
    """One closing-table row from a paired reading; its label marked when its interval is just the rounds'
    lowest-highest ratio (the note under the table says so)."""
    return (label + (" ‡" if pr.get("span") else ""), pr.get("median"), pr["low"], pr["high"], words)


def part3_rows(pools: Mapping[str, Timing]) -> list:
    """Part 3's rewrites as closing-table rows, each read as part 3's table reads it (``traps.explain_pool_rewrites``):
    against the A/A' control, so that the two say the same words."""
    base = pools["nn.MaxPool2d"]
    copy = next((name for name in pools if name.startswith("nn.MaxPool2d") and name != "nn.MaxPool2d"), None)
    copies = pool_copies(pools, "nn.MaxPool2d", copy)   # the A/A' control, read as part 3's table reads it
    rows = []
    for name, t in pools.items():
        if not name.startswith("nn.MaxPool2d"):   # the baseline and its copy (A′, the control) are no rewrites
            med, lo, hi = paired_ratio(t, base)
            rows.append(_row(tr("part 3: {name} / nn.MaxPool2d", name=name),
                             {"median": med, "low": lo, "high": hi, "span": spans_rounds(t, base, lo, hi)},
                             short_reading(lo, hi, copies)))
    return rows


def part4_said(metrics: Mapping) -> str:
    """Part 4's verdict on the fed step in the words of part 4's table: a fed step faster than in memory is no gain
    but 'recheck' (feeding cannot make a step faster: the machine changed), not the generic "faster"; without a
    paired reading, the medians' sentence."""
    pr = metrics.get("paired")
    if not pr:
        return metrics["said"]
    if pr["reading"] == "above":
        return tr("above 1.00: feeding cannot do that, the machine changed (time again); part 4's verdict: 'recheck'")
    return metrics.get("fed_said") or short_reading(pr["low"], pr["high"])   # the table's verdict, word for word


def part5_rows(amp: Result) -> list:
    """Part 5's levels as closing-table rows, in the words of part 5's table (``amp.summarise_amp`` keeps them on each
    row); O2 and O3, one network that part 5 read together, as that one reading."""
    twins = amp.metrics.get("amp_twins")   # O2 and O3 one network: part 5 read them together, so one row
    rows = []
    for r in amp.rows:
        pr = r.get("paired")
        if "verdict" not in r or not pr or (twins and r["config"] == "O3"):
            continue
        if twins and r["config"] == "O2":
            rows.append(_row(tr("part 5: O2 and O3 / O0 (one network)"), dict(twins, median=None), twins["said"]))
        else:
            rows.append(_row(tr("part 5: {level} / O0", level=r["config"]), pr,
                             r.get("said") or short_reading(pr["low"], pr["high"])))
    return rows


def this_run_found(*, traps: Optional[Result], pool_cap: Optional[Result], pools: Mapping[str, Timing],
                   pipe: Result, amp: Result, tta: Result, device: str) -> str:
    """Lesson 08's closing table: one row per paired reading (experiment | ratio | interval | verdict), each in the
    words of its part's own table; readings without pairs as sentences under it, then part 6's estimate. ``traps``
    and ``pool_cap``: None off the CPU; ``pools``: part 3's rewrites timed in the kernel."""
    rows, parts = [], []
    if traps is not None:
        m = traps.metrics
        pr = m.get("fixes_vs_naive_paired")
        if pr:
            rows.append(_row(tr("part 2: both CPU settings / neither (naive configuration)"), pr,
                             short_reading(pr["low"], pr["high"])))
        else:
            parts.append(tr("Part 2, both CPU settings against neither, the naive configuration's step rate: {said}.",
                            said=_reading("", None, m["fixes_vs_naive_speedup"],
                                          m["fixes_vs_naive_speedup_verdict"]).strip()))
        for e in m["host_blocking"].values():
            if e.get("paired"):
                rows.append(_row(tr("part 2: + host blocking, {label}", label=e["label"]), e["paired"],
                                 short_reading(e["paired"]["low"], e["paired"]["high"])))
            else:
                parts.append(tr("Part 2, host blocking on top of the ISA cap, step rate: {said}.",
                                said=_reading(e["label"], None, e["x"], e["verdict"])))
    if pool_cap is not None and pool_cap.rows:
        paired, span = pool_cap.metrics["pool_cap_paired"], pool_cap.metrics.get("pool_cap_span", False)
        rows += [_row(tr("part 3: {layer}, with the cap / without", layer=tr(layer)),
                      {"median": paired[layer][0], "low": paired[layer][1], "high": paired[layer][2], "span": span},
                      short_reading(*paired[layer][1:])) for layer in POOL_LAYERS if layer in paired]
    rows += part3_rows(pools)
    pr = pipe.metrics.get("paired")
    if pr:
        rows.append(_row(tr("part 4: fed by the pipeline / in-memory"), pr, part4_said(pipe.metrics)))
    else:
        parts.append(tr("Part 4, the step fed by the pipeline against the in-memory step: {said}",
                        said=part4_said(pipe.metrics)))
    rows += part5_rows(amp)
    if not any(r.get("paired") for r in amp.rows):
        parts.append(tr("Part 5, float16 on {device}, step rate over O0's: {said}.", device=device,
                        said=tr("; ").join(_reading(r["label"], None, r["vs_O0"], r["verdict"])
                                           for r in amp.rows if "verdict" in r)))
    if any(label.endswith(" ‡") for label, *_ in rows):
        parts.insert(0, tr("‡ five rounds or fewer: the interval is their lowest to highest ratio."))
    if rows:
        parts.insert(0, verdict_table(rows))
    row = max(tta.rows, key=lambda r: r["target_pct"])
    tag = f"{row['target_pct']:.1f}".replace(".", "_")
    if row["speedup"] and row["how"] == "estimated":
        one = row["speedup_high"] <= 1.01 * row["speedup"]   # two ends less than 1% apart: one figure
        x = (tr("{lo}-{hi}x", lo=plain_figures(tta.metrics[f"speedup_to_{tag}_noise_low"]),
                hi=plain_figures(tta.metrics[f"speedup_to_{tag}_noise_high"]))
             if f"speedup_to_{tag}_noise_low" in tta.metrics else   # the widest range, to two figures
             tr("{x:.1f}x", x=(row["speedup"] + row["speedup_high"]) / 2) if one
             else tr("{lo:.1f}-{hi:.1f}x", lo=row["speedup"], hi=row["speedup_high"]))
        wide = (tr(", with the step count's own uncertainty and part 1's noise floor, to two figures")
                if f"speedup_to_{tag}_noise_low" in tta.metrics else
                tr("; {lo:.1f}-{hi:.1f}x with the step count's own uncertainty",
                   lo=tta.metrics[f"speedup_to_{tag}_wide_low"], hi=tta.metrics[f"speedup_to_{tag}_wide_high"])
                if f"speedup_to_{tag}_wide_low" in tta.metrics else "")
        parts.append(tr("Part 6: to {target:.1f}% the naive defaults needed about {x} the course settings' training "
                        "time (estimated{wide}).", target=row["target_pct"], x=x, wide=wide))
    elif row["speedup"]:
        parts.append(tr("Part 6: to {target:.1f}% the naive defaults needed {x:.1f}x the course settings' training "
                        "time (measured).", target=row["target_pct"], x=row["speedup"]))
    return "\n".join(parts)


def part6_setting(traps: Optional[Result], spec: str = NAIVE_SPEC) -> str:
    """Part 6 trains ``spec`` with both CPU settings, ``runtime.setup()``'s defaults, as a learner's script would.
    Where part 2's paired verdict read host blocking (on top of the ISA cap) as slower on that step, one sentence sets
    part 2's medians side by side: the cap alone and both settings. Empty otherwise (or without part 2's rows)."""
    if traps is None:
        return ""
    effect = traps.metrics.get("host_blocking", {}).get(spec)
    pr = (effect or {}).get("paired")
    if not pr or pr["reading"] != "below":
        return ""
    cap = pick(traps.rows, case="ONEDNN_MAX_CPU_ISA=AVX2", config=spec)
    both = pick(traps.rows, case="both fixes", config=spec)
    return tr("Part 2 read host blocking on this step as slower ({med:.2f}x, {lo:.2f}-{hi:.2f}): there the ISA cap "
              "alone ran {cap:.1f} steps/s and both settings {both:.1f} (medians). Part 6 still trains with both, "
              "runtime.setup()'s defaults, as a learner's script would; its time to accuracy is that setting's.",
              med=pr["median"], lo=pr["low"], hi=pr["high"], cap=cap["steps_per_s"], both=both["steps_per_s"])


__all__ = ["naive_rates", "resolution", "pynative_vs_graph", "part2_standing", "plot_time_to_accuracy",
           "this_run_found", "part6_setting"]
