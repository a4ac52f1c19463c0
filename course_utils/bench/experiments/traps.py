"""The two CPU traps (oneDNN's AVX-512 convolutions, host blocking) and how to find them.

``cpu_traps`` and ``find_trap`` spawn one worker process per environment: the variables involved
are read when MindSpore loads.
"""

from __future__ import annotations

import math
import os
import re
import statistics
import time
from typing import Dict, List, Mapping, Optional, Sequence, Tuple

from course_utils import runtime
from course_utils.i18n import N_, tr

from ..harness import (Timing, force, interval_side, leaders, paired_ratio, ranges_overlap, spans_rounds, time_steps,
                       verdict)
from ..isolation import TRAP_VARS, run_worker
from ..params import FindTrapParams, LayerTimesParams, PoolCapParams, StepRatesParams, TrapsParams
from ..report import PAIRED_CELLS, VERDICT_CELLS, Result, format_rows, pick, ratio, skipped
from ..steps import NAIVE_SPEC, Spec, mnist_batches
from .common import control_reading, setup_worker, short_reading, verdict_table, within_copies

AVX2 = {"ONEDNN_MAX_CPU_ISA": "AVX2"}
BLOCKING = {"MS_DEV_HOST_BLOCKING_RUN": "1"}
#: Case name -> the environment it sets. The names are keys (rows are picked by them) and are shown through
#: ``tr()`` (tables do it themselves: ``report.shown``).
TRAP_CASES = {N_("no fixes"): {}, "ONEDNN_MAX_CPU_ISA=AVX2": AVX2, "MS_DEV_HOST_BLOCKING_RUN=1": BLOCKING,
              N_("both fixes"): {**AVX2, **BLOCKING}}
#: Another host-pipeline switch; the issue's quick check found it changes nothing for GRAPH TrainOneStepCell.
JIT_PIPELINE_CASE = {N_("both + MS_DEV_JIT_PIPELINE=0"): {**AVX2, **BLOCKING, "MS_DEV_JIT_PIPELINE": "0"}}


def alternating(items: Sequence, rounds: int) -> list:
    """``rounds`` passes over ``items``, every other one reversed (A B C, C B A, A B C, ...): rule 4 of lesson
    07 for configurations that each need a process of their own."""
    return [item for r in range(rounds) for item in (items if r % 2 == 0 else list(reversed(items)))]


def round_repeats(repeats: int, rounds: int) -> int:
    """Timed repeats per process, so that ``rounds`` processes give at least ``repeats`` in all."""
    return max(1, math.ceil(repeats / rounds))


def merge_rounds(rows: Sequence[dict]) -> list:
    """One row per (case, config) from the rows of several processes: the median over all their repeats, the
    min-max over them, the median first call; in the order the pairs first appear."""
    groups: Dict[tuple, list] = {}
    for r in rows:
        groups.setdefault((r["case"], r["config"]), []).append(r)
    merged = []
    for group in groups.values():
        t = Timing.from_row(dict(group[0], first_call_s=statistics.median(r["first_call_s"] for r in group)),
                            [s for r in group for s in r["repeat_s"]])
        merged.append(dict(group[0], **t.as_dict(), processes=len(group)))
    return merged


def measure_cpu_traps(p: TrapsParams) -> list:
    """``p.specs`` in fresh processes for every combination of the two fixes: ``p.rounds`` processes per case,
    the cases in alternating order, their repeats merged (``merge_rounds``)."""
    if p.device != "CPU":
        return []
    rows = []
    cases = {**TRAP_CASES, **(JIT_PIPELINE_CASE if p.jit_pipeline_case else {})}
    for process, case in enumerate(alternating(list(cases), p.rounds)):
        env = cases[case]
        # without the ISA cap a step is ~10x slower: fewer steps per repeat keep the time per case similar
        steps = p.steps if "ONEDNN_MAX_CPU_ISA" in env else max(3, p.steps // 5)
        sub = StepRatesParams(**{**p.common(), "steps": steps, "repeats": round_repeats(p.repeats, p.rounds)},
                              specs=p.specs)
        out, _ = run_worker("step_rates", sub, env=env)
        rows += [dict(r, case=case, process=process) for r in out["rows"]]
    return rows   # one row per process and configuration: summarise_cpu_traps merges and pairs them


def summarise_cpu_traps(rows: list, p: TrapsParams) -> Result:
    if not rows:
        return skipped("cpu_traps", tr("the oneDNN and host-blocking traps concern MindSpore's CPU backend, "
                                       "not {device}", device=p.device))
    # rows of single processes (numbered by ``process``, as ``alternating`` ran them): pair them round by round
    raw = rows if rows and "process" in rows[0] else []
    rows = merge_rounds(raw) if raw else rows

    def paired(cfg: str, on_case: str, off_case: str) -> Optional[dict]:
        """The rate of ``on_case`` over ``off_case`` for ``cfg``, repeat i of round r against repeat i of round r:
        the two processes of a round ran one after the other, so load that lasts across both cancels."""
        from .pipeline import paired_reading
        pair = round_pairs([r for r in raw if r["config"] == cfg], off_case, on_case)
        return paired_reading(pair[1], [pair[0]]) if pair else None

    naive = pick(rows, case="no fixes", config=NAIVE_SPEC)
    rows = [dict(r, vs_naive=r["steps_per_s"] / naive["steps_per_s"]) for r in rows]
    course = [r for r in rows if r["case"] == "both fixes"]   # what runtime.setup() applies
    fixed = pick(rows, case="both fixes", config=NAIVE_SPEC)  # the naive configuration, fixed: like for like
    tied = leaders(course, p.noise_pct)                        # the lab's first rule among the fixed rows
    best = tied[0]
    runner = max((r for r in course if r is not best), key=lambda r: r["steps_per_s"], default=None)
    best_no = max((r for r in rows if r["case"] == "no fixes"), key=lambda r: r["steps_per_s"])
    best_any = max(rows, key=lambda r: r["steps_per_s"])
    speedup = fixed["vs_naive"]
    both = paired(NAIVE_SPEC, "both fixes", "no fixes") if raw else None
    text = (tr("The naive baseline ({naive} without the CPU settings) ran at {naive_rate:.1f} steps/s; with the "
               "course's two fixes the same configuration ran at {fixed_rate:.1f}, {speedup:.2f}x the naive rate.",
               naive=Spec.parse(NAIVE_SPEC).label, naive_rate=naive["steps_per_s"], fixed_rate=fixed["steps_per_s"],
               speedup=speedup) if not both else   # paired: the paired median is the one figure (part 1's rule)
            tr("The naive baseline ({naive} without the CPU settings) ran at {naive_rate:.1f} steps/s; with the "
               "course's two fixes the same configuration ran at {fixed_rate:.1f}.", naive=Spec.parse(NAIVE_SPEC).label,
               naive_rate=naive["steps_per_s"], fixed_rate=fixed["steps_per_s"]))
    # the second sentence on a line of its own
    second = ""
    if len(tied) > 1:
        second += tr(" With both fixes the highest median was {best}'s ({best_rate:.1f} steps/s), a tie within the "
                     "noise floor of {noise:.1f}% with {others}", best=best["label"], best_rate=best["steps_per_s"],
                     noise=p.noise_pct, others=runtime.listing((r["label"] for r in tied[1:]), labels=True))
    elif runner is not None and ranges_overlap(best, runner):
        second += tr(" With both fixes the highest median was {best}'s ({best_rate:.1f} steps/s), beyond the noise "
                     "floor of {noise:.1f}% above {runner}'s but with overlapping repeats: undecided",
                     best=best["label"], best_rate=best["steps_per_s"], noise=p.noise_pct, runner=runner["label"])
    else:
        second += tr(" With both fixes {best} ran fastest ({best_rate:.1f} steps/s)", best=best["label"],
                     best_rate=best["steps_per_s"])
    second += tr(". With neither fix, no configuration ran faster than {best_no:.1f} steps/s.",
                 best_no=best_no["steps_per_s"])
    if best_any["case"] != "both fixes":   # the table's highest median came from one fix alone: say so, and judge it
        second += tr(" The highest median in the whole table, {rate:.1f} steps/s, is {label} with {case} alone: "
                     "against {best} with both fixes, {verdict}.", label=best_any["label"], case=tr(best_any["case"]),
                     rate=best_any["steps_per_s"], best=best["label"],
                     verdict=tr(FIX_VERDICT[verdict(best_any, best, p.noise_pct)]))
    if both:   # the verdict: the paired interval, the only reading printed (part 1's rule)
        spread = (tr("{n} pairs: lowest-highest ratio {lo:.2f}-{hi:.2f}", n=both["rounds"], lo=both["low"],
                     hi=both["high"]) if both["span"] else
                  tr("95% interval {lo:.2f}-{hi:.2f}", lo=both["low"], hi=both["high"]))   # named as it is
        text += tr(" Paired round by round, the fixes made it {med:.2f}x as fast ({spread}), {where}.",
                   med=both["median"], spread=spread, where=tr(PAIRED_CELLS[both["reading"]]))
        second = ""   # the medians against the floor: not printed beside a paired verdict
    if raw and runner is not None:   # the two fastest rows with both fixes ran in the same processes: paired
        text += "\n" + tr("With both fixes, {best} against {runner} (timed in alternation in the same processes), "
                           "paired repeat by repeat: {said}.", best=best["label"], runner=runner["label"],
                           said=same_process_paired(best, runner))
    text += "\n" + second.lstrip() if second.strip() else ""
    # what each fix adds on top of the other, per configuration, by the lab's two rules: one line each
    lines = []
    effects = {"isa_cap": {}, "host_blocking": {}}   # fix -> configuration -> {"x", "verdict"}: on top of the other
    for cfg in dict.fromkeys(r["config"] for r in course):
        on = pick(rows, case="both fixes", config=cfg)
        said = []
        for name, without, key in ((N_("the ISA cap"), "MS_DEV_HOST_BLOCKING_RUN=1", "isa_cap"),
                                   (N_("host blocking"), "ONEDNN_MAX_CPU_ISA=AVX2", "host_blocking")):
            off = next((r for r in rows if r["case"] == without and r["config"] == cfg), None)
            if off is not None:
                pr = paired(cfg, "both fixes", without)
                effects[key][cfg] = {"label": on["label"], "x": on["steps_per_s"] / off["steps_per_s"],
                                     "verdict": verdict(on, off, p.noise_pct), "paired": pr}
                if pr:   # the verdict: the paired interval; the medians against the floor follow
                    said.append(tr("{fix} {a:.1f} -> {b:.1f} steps/s, paired {med:.2f}x ({lo:.2f}-{hi:.2f}), {where}",
                                   fix=tr(name), a=off["steps_per_s"], b=on["steps_per_s"], med=pr["median"],
                                   lo=pr["low"], hi=pr["high"], where=tr(PAIRED_CELLS[pr["reading"]])))
                else:
                    said.append(tr("{fix} {a:.1f} -> {b:.1f} steps/s ({x:.2f}x), {verdict}", fix=tr(name),
                                   a=off["steps_per_s"], b=on["steps_per_s"], x=on["steps_per_s"] / off["steps_per_s"],
                                   verdict=tr(FIX_VERDICT[verdict(on, off, p.noise_pct)])))
        if said:
            lines.append(tr("- {label}: {said}", label=on["label"], said=tr("; ").join(said)))
    readings = [e["paired"] for fix in effects.values() for e in fix.values() if e["paired"]]
    if lines and raw and readings and all(pr["span"] for pr in readings):   # each interval: the lowest-highest ratio
        text += "\n" + tr("Each fix on top of the other, paired round by round (repeat i of a case's process against "
                          "repeat i of the other case's process in the same round; {n} pairs, lowest-highest ratio):",
                          n=readings[0]["rounds"])
    elif lines:
        text += "\n" + (tr("Each fix on top of the other, paired round by round (repeat i of a case's process "
                           "against repeat i of the other case's process in the same round; 95% interval):") if raw else
                        tr("Each fix on top of the other (noise floor {noise:.1f}%):", noise=p.noise_pct))
    if lines:
        text += "\n" + "\n".join(lines)
    if both:   # paired round by round: the verdicts as one table (lesson 07's rule), one sentence under it
        table = [(tr("both fixes / no fixes: {label}", label=naive["label"]), both["median"], both["low"],
                  both["high"])]
        for key, name in (("isa_cap", N_("+ ISA cap")), ("host_blocking", N_("+ host blocking"))):
            table += [(tr("{fix}: {label}", fix=tr(name), label=e["label"]), e["paired"]["median"],
                       e["paired"]["low"], e["paired"]["high"]) for e in effects[key].values() if e["paired"]]
        if runner is not None:   # the two fastest rows with both fixes: the same processes, repeat by repeat
            med, lo, hi = paired_ratio(best, runner)
            table.append((tr("{best} / {runner}, both fixes", best=best["label"], runner=runner["label"]), med, lo,
                          hi))
        text = verdict_table(table) + "\n" + tr(
            "Each ratio is a step rate over a step rate, paired round by round: '+ ISA cap' adds the cap to host "
            "blocking, '+ host blocking' the reverse; the last row pairs two configurations timed in the same "
            "processes.") + " " + tr(
            "These are medians of the ratios paired round by round; the lines below are ratios of medians, each "
            "configuration over itself with no fixes: on a noisy machine the two can differ a lot.")
    alone = fixes_alone_and_both(rows)
    if alone:
        text += "\n" + alone
    metrics = {"naive_steps_per_s": naive["steps_per_s"], "fixes_steps_per_s": fixed["steps_per_s"],
               "fixes_vs_naive_speedup": speedup, "fixes_vs_naive_speedup_verdict": verdict(fixed, naive, p.noise_pct),
               "fixes_vs_naive_paired": both, **effects}   # each fix's effect per configuration, the other fix on
    if both:   # the headline's figure and verdict: the paired median and interval, not the medians' ratio
        metrics.update(fixes_vs_naive_speedup=both["median"], fixes_vs_naive_speedup_verdict=both["reading"],
                       fixes_vs_naive_speedup_low=both["low"],
                       fixes_vs_naive_speedup_high=both["high"], fixes_vs_naive_speedup_span=both["span"])
    # no ratio column: a row over the naive row would divide across configurations; the lines under the verdict
    # table give each configuration over itself with no fixes
    return Result("cpu_traps", rows, ["case", "label", "first_call_s", "steps_per_s", "min_steps_per_s",
                                      "max_steps_per_s"], text, metrics)


def fixes_alone_and_both(rows: Sequence[Mapping]) -> str:
    """Each fix alone and both against neither, per configuration, as ratios of medians (part 2's table read
    across its four cases): "- PyNative, TrainOneStepCell: the ISA cap alone 2.93x, host blocking alone 2.93x, both
    20.59x". Empty when a configuration lacks one of the four cases."""
    (none, cap, blocking, both) = TRAP_CASES
    lines = []
    for cfg in dict.fromkeys(r["config"] for r in rows):
        got = {case: next((r for r in rows if r["case"] == case and r["config"] == cfg), None)
               for case in (none, cap, blocking, both)}
        if any(r is None for r in got.values()):
            continue
        base = got[none]["steps_per_s"]
        lines.append(tr("- {label}: the ISA cap alone {cap:.2f}x, host blocking alone {blocking:.2f}x, "
                        "both {both:.2f}x",
                        label=got[none]["label"], cap=got[cap]["steps_per_s"] / base,
                        blocking=got[blocking]["steps_per_s"] / base, both=got[both]["steps_per_s"] / base))
    if not lines:
        return ""
    return "\n".join([tr("Each fix alone and both, step rate over the same configuration's with no fixes "
                         "(ratios of medians):"), *lines])


def same_process_paired(a: Mapping, b: Mapping) -> str:
    """``a``'s rate over ``b``'s, two rows of part 2 from the same case (so timed in alternation in the same
    processes), repeat by repeat, in words: "1.27x (6 pairs, 95% interval 1.00-1.62), 1.00 inside: a tie"."""
    med, lo, hi = paired_ratio(a, b)
    n = len(a["repeat_s"])
    spread = (tr("{n} pairs, lowest-highest ratio {lo:.2f}-{hi:.2f}", n=n, lo=lo, hi=hi) if spans_rounds(a, b, lo, hi)
              else tr("{n} pairs, 95% interval {lo:.2f}-{hi:.2f}", n=n, lo=lo, hi=hi))
    return tr("{med:.2f}x ({spread}), {where}", med=med, spread=spread, where=short_reading(lo, hi))


def eager(spec) -> bool:
    """True for an eager PyNative step (operations launched one by one from the host: a PyNative Cell or function
    without ``jit``), False for a compiled one (GRAPH_MODE, or ``jit`` called from PyNative, which is still called
    through PyNative's host pipeline)."""
    spec = Spec.parse(spec)
    return spec.mode == "pynative" and spec.style not in ("jit", "jit_cell")


def fastest_run(traps: Result, noise_pct: float) -> Tuple[str, str, dict]:
    """``(spec, case, env)``: the fastest way ``cpu_traps`` ran LeNet-5's step, a configuration and an environment:
    one of the rows (configuration, environment) within ``noise_pct`` of the fastest row; of such a tie, the
    configuration asked for first (``TrapsParams.specs``' order), then the environment that sets the fewest
    variables, then the faster. Every row picked ties with the fastest itself (ties are not chained)."""
    order = list(dict.fromkeys(r["config"] for r in traps.rows))
    cases = {**TRAP_CASES, **JIT_PIPELINE_CASE}
    pick = min(leaders(traps.rows, noise_pct),
               key=lambda r: (order.index(r["config"]), len(cases[r["case"]]), -r["steps_per_s"]))
    return pick["config"], pick["case"], dict(cases[pick["case"]])


# -- finding the trap -------------------------------------------------------------------------------

#: One executed primitive in oneDNN's log: ``onednn_verbose,v1,primitive,exec,...`` (oneDNN 3, MindSpore 2.10) or
#: ``dnnl_verbose,exec,...`` (oneDNN 2.2, MindSpore 2.7.1).
_ONEDNN_LINE = re.compile(r"^(?:onednn|dnnl)_verbose,(?:[^,]*,)*?exec,cpu,(?P<prim>[a-z_]+),(?P<impl>[^,]+),"
                          r"(?P<kind>[^,]*),.*,(?P<ms>[0-9.]+)\s*$")


def parse_onednn_verbose(text: str) -> List[dict]:
    """Summarise ``ONEDNN_VERBOSE=1`` output (either oneDNN version's lines): one row per (primitive, implementation,
    propagation) with the number of calls and the total and mean milliseconds, largest total first."""
    stats: Dict[tuple, list] = {}
    for line in text.splitlines():
        m = _ONEDNN_LINE.match(line.strip())
        if not m:
            continue
        entry = stats.setdefault((m["prim"], m["impl"], m["kind"]), [0, 0.0])
        entry[0] += 1
        entry[1] += float(m["ms"])
    rows = [{"primitive": p, "implementation": i, "propagation": k, "calls": c, "total_ms": t, "mean_ms": t / c}
            for (p, i, k), (c, t) in stats.items()]
    return sorted(rows, key=lambda r: -r["total_ms"])


def layer_functions(net) -> list:
    """``[(name, function)]``: LeNet-5's forward pass cut into layers, in order."""
    def relu_pool(t):
        return net.pool(net.relu(t))

    return [("conv1", net.conv1), (N_("relu+pool 1"), relu_pool), ("conv2", net.conv2), (N_("relu+pool 2"), relu_pool),
            (N_("flatten"), net.flatten), ("fc1", net.fc1), (N_("relu 1"), net.relu), ("fc2", net.fc2),
            (N_("relu 2"), net.relu), ("fc3", net.fc3)]


def layer_macs(layer, output_shape: Sequence[int], first: bool) -> int:
    """Multiply-accumulates of one layer's forward pass, its weights' gradient and its input's gradient (the first
    layer: no input gradient, as ``layer_grad`` times it); 0 for a layer without weights (ReLU, pooling and flatten
    only compare or copy)."""
    import mindspore as ms

    out = math.prod(int(d) for d in output_shape)
    if isinstance(layer, ms.nn.Conv2d):
        fwd = out * layer.in_channels * math.prod(layer.kernel_size)
    elif isinstance(layer, ms.nn.Dense):
        fwd = out * layer.in_channels
    else:
        fwd = 0
    return fwd * (2 if first else 3)


def layer_cost_rows(rows: Sequence[Mapping], cases: Sequence[str], net) -> List[dict]:
    """One row per layer of ``net`` (``layer_functions``): its MMACs, and for each of the two ``cases`` its time
    (``rows`` as ``find_trap`` returns them: ``case``, ``layer``, ``ms``, ``output`` "64x6x24x24"), the time's
    share and ns per MAC; ``kind`` is the layer's class."""
    a, b = cases
    timed = {(r["case"], r["layer"]): r for r in rows if r.get("kind", "layer") == "layer"}
    out = []
    for i, (name, layer) in enumerate(layer_functions(net)):
        macs = layer_macs(layer, timed[a, name]["output"].split("x"), first=i == 0)
        ms_a, ms_b = timed[a, name]["ms"], timed[b, name]["ms"]
        out.append({"layer": name, "kind": type(layer).__name__, "mmacs": macs / 1e6, "ms_a": ms_a, "ms_b": ms_b,
                    "ns_a": 1e6 * ms_a / macs if macs else None, "ns_b": 1e6 * ms_b / macs if macs else None})
    total = {k: sum(r[k] for r in out) for k in ("mmacs", "ms_a", "ms_b")}
    for r in out:   # one decimal each
        r.update({k: f"{100 * r[m] / total[m]:.1f}" for k, m in (("macs_pct", "mmacs"), ("pct_a", "ms_a"),
                                                                   ("pct_b", "ms_b"))})
    return out


def ns_per_mac(layer_rows: Sequence[Mapping], kind: str) -> Tuple[float, float]:
    """ns per MAC of the layers of one ``kind`` ("Conv2d", "Dense") taken together, without and with the cap."""
    mine = [r for r in layer_rows if r["kind"] == kind]
    macs = sum(r["mmacs"] * 1e6 for r in mine)
    return tuple(1e6 * sum(r[k] for r in mine) / macs for k in ("ms_a", "ms_b"))


LAYER_COLUMNS = {"layer": N_("layer"), "mmacs": N_("MMACs"), "macs_pct": N_("% of MACs"), "ms_a": N_("ms, no cap"),
                 "pct_a": N_("% time, no cap"), "ns_a": N_("ns/MAC, no cap"), "ms_b": N_("ms, cap"),
                 "pct_b": N_("% time, cap"), "ns_b": N_("ns/MAC, cap")}   # each column names its case


def format_layer_costs(layer_rows: Sequence[Mapping]) -> str:
    """``layer_cost_rows`` as a table, then the ns per MAC of the convolutions and of the dense layers."""
    table = format_rows([dict(r, layer=tr(r["layer"])) for r in layer_rows], list(LAYER_COLUMNS),
                        {k: tr(v) for k, v in LAYER_COLUMNS.items()})
    conv, dense = ns_per_mac(layer_rows, "Conv2d"), ns_per_mac(layer_rows, "Dense")
    return table + "\n" + tr("Per MAC, the convolutions took {c0:.2f} ns without the cap and {c1:.2f} ns with it; the "
                             "dense layers {d0:.2f} and {d1:.2f} ns.", c0=conv[0], c1=conv[1], d0=dense[0], d1=dense[1])


#: Operators whose price under the cap part 3 reads, and the oneDNN primitive and propagations each runs (as oneDNN's
#: log names them).
PRICE_OPS = {"Conv2DBackpropFilter": ("convolution", ("backward_weights",)),
             "MaxPoolGrad": ("pooling", ("forward_training", "backward_data"))}
PRICE_COLUMNS = {"op": N_("operator"), "runs": N_("oneDNN primitives"), "impl": N_("implementation"),
                 "prof": N_("profiler ms/step"), "log": N_("oneDNN log ms/step")}


def cap_price_rows(op_rows: Mapping[str, list], onednn: Mapping[str, list], cases: Sequence[str],
                   logged_steps: int) -> List[dict]:
    """The cap's price elsewhere: for each of ``PRICE_OPS``, its ms per step in the profiler (``op_rows[case]``, as
    ``profile.op_type_times`` reads them) and in oneDNN's log (``onednn[case]``, ``parse_onednn_verbose`` rows over
    ``logged_steps`` steps), "uncapped -> capped", and the implementations oneDNN named."""
    a, b = cases
    per_step = {case: {r["op_type"]: r["mean_ms"] * r["calls_per_step"] for r in op_rows[case]} for case in cases}
    out = []
    for op, (prim, props) in PRICE_OPS.items():
        mine = {case: [r for r in onednn[case] if r["primitive"] == prim and r["propagation"] in props]
                for case in cases}
        prof = {case: per_step[case].get(op, 0.0) for case in cases}
        logged = {case: sum(r["total_ms"] for r in mine[case]) / logged_steps for case in cases}
        arrow = tr(" -> ")   # "uncapped -> capped"; an arrow in the Chinese edition
        out.append({"op": op, "runs": f"{prim} {' + '.join(props)}",
                    "impl": arrow.join(dict.fromkeys(r["implementation"] for c in cases for r in mine[c])),
                    "prof": f"{prof[a]:.2f}{arrow}{prof[b]:.2f}", "log": f"{logged[a]:.2f}{arrow}{logged[b]:.2f}"})
    return out


def format_cap_price(price: Sequence[Mapping]) -> str:
    return format_rows(price, list(PRICE_COLUMNS), {k: tr(v) for k, v in PRICE_COLUMNS.items()})


def summed(layer):
    """``t -> layer(t).sum()``, a scalar to differentiate (a closure, not a lambda with a default argument, which
    ``mindspore.jit`` cannot parse)."""
    def loss(t):
        return layer(t).sum()
    return loss


MIN_REPEAT_S = 0.03   # the shortest timed repeat of a layer in ``measure_layer_times``


def _call_seconds(fn, x) -> float:
    """The fastest of three forced calls ``fn(x)`` (after one untimed call that may compile), in seconds."""
    force(fn(x))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        force(fn(x))
        best = min(best, time.perf_counter() - start)
    return max(best, 1e-6)


def layer_grad(layer, first: bool):
    """The backward pass training runs for one layer, of the sum of its output: the gradients for its weights (if it
    has any) and for its input, except the first layer's input (the images: a training step never computes that one,
    part 3's profile shows it). A function without weights (ReLU + pooling, flatten): its input's gradient only."""
    import mindspore as ms

    weights = layer.trainable_params() if isinstance(layer, ms.nn.Cell) else []
    if not weights:
        return ms.grad(summed(layer))
    return ms.grad(summed(layer), grad_position=None if first else 0, weights=weights)


def measure_layer_times(p: LayerTimesParams) -> list:
    """Time of each LeNet-5 layer on its own, forward and the backward pass training runs for it (``layer_grad``), in
    PyNative (``p.compiled``: under ``mindspore.jit``)."""
    import mindspore as ms

    from course_utils.models import LeNet5

    setup_worker(p, "pynative")
    net = LeNet5()
    x = mnist_batches(p.batch_size, count=1)[0][0]
    rows = []
    for i, (name, layer) in enumerate(layer_functions(net)):
        out = layer(x)
        if p.layers and name not in p.layers:
            x = out          # not timed: only its output, the next layer's input
            continue
        grad = layer_grad(layer, first=i == 0)   # weights and input; conv1: its weights only
        grad = ms.jit(grad) if p.compiled else grad
        if p.marker:
            print(f"{p.marker} {name}", flush=True)
        # at least steps // 3 calls per repeat (a convolution without the cap takes tens of ms), and enough calls
        # for a repeat of MIN_REPEAT_S: a repeat of a few 1-ms calls is undone by one time slice of another process
        calls = max(3, p.steps // 3, math.ceil(MIN_REPEAT_S / _call_seconds(grad, x)))
        t = time_steps(lambda grad=grad, x=x: grad(x), steps=calls, repeats=p.repeats, warmup=2, name=name)
        rows.append({**t.as_dict(), "layer": name, "config": name, "ms": 1e3 * t.median_step_s,
                     "output": "x".join(map(str, out.shape)), "env": {k: os.environ.get(k, "") for k in TRAP_VARS}})
        x = out
    return rows


def summarise_layer_times(rows: list, p: LayerTimesParams) -> Result:
    total = sum(r["ms"] for r in rows)
    rows = [dict(r, share_pct=100 * r["ms"] / total) for r in rows]
    top = max(rows, key=lambda r: r["ms"])
    return Result("layer_times", rows, ["layer", "output", "ms", "share_pct"],
                  tr("{layer} takes {share:.0f}% of the {total:.1f} ms.", layer=tr(top["layer"]),
                     share=top["share_pct"], total=total))


FIND_CASES = {N_("no ISA cap"): BLOCKING, "ONEDNN_MAX_CPU_ISA=AVX2": {**BLOCKING, **AVX2}}   # names as TRAP_CASES
POOL_LAYERS = (N_("relu+pool 1"), N_("relu+pool 2"))   # LeNet-5's two ReLU + 2x2 max-pooling layers


def measure_find_trap(p: FindTrapParams) -> list:
    """Per-layer times without and with the ISA cap (one process each, oneDNN's log off), then the oneDNN verbose log
    of each case from a separate short process, not timed.
    Rows: one per (case, layer), and one per (case, oneDNN convolution implementation)."""
    if p.device != "CPU":
        return []
    small = LayerTimesParams(**{**p.common(), "steps": max(3, p.steps // 3), "repeats": max(1, p.repeats - 1)})
    rows = []
    for case, env in FIND_CASES.items():   # timed without oneDNN's log: logging costs time
        out, _ = run_worker("layer_times", small, env=env)
        rows += [dict(r, case=case, kind="layer") for r in out["rows"]]
    # oneDNN's log in one short process per case, not timed (as measure_pool_cap collects it)
    logged = LayerTimesParams(**{**p.common(), "steps": 3, "repeats": 1})
    for case, env in FIND_CASES.items():
        _, stdout = run_worker("layer_times", logged, env={**env, "ONEDNN_VERBOSE": "1"})
        rows += [dict(r, case=case, kind="onednn") for r in parse_onednn_verbose(stdout)
                 if r["primitive"] == "convolution"]
    return rows


def summarise_find_trap(rows: list, p: FindTrapParams) -> Result:
    if not rows:
        return skipped("find_trap", tr("ONEDNN_VERBOSE and the AVX-512 convolution path concern the CPU backend, "
                                       "not {device}", device=p.device))
    layers = [r for r in rows if r["kind"] == "layer"]
    conv, total, impl = {}, {}, {}
    for case in FIND_CASES:
        mine = [r for r in layers if r["case"] == case]
        conv[case] = sum(r["ms"] for r in mine if r["layer"].startswith("conv"))
        total[case] = sum(r["ms"] for r in mine)
        oned = [r for r in rows if r["kind"] == "onednn" and r["case"] == case]
        impl[case] = oned[0]["implementation"] if oned else "?"   # parse_onednn_verbose sorts largest first
    for r in layers:
        r["share_pct"] = 100 * r["ms"] / total[r["case"]]
    a, b = "no ISA cap", "ONEDNN_MAX_CPU_ISA=AVX2"
    text = (tr("Without the cap the two convolutions take {conv:.1f} ms of {total:.1f} ms ({pct:.0f}%) and oneDNN "
               "reports '{impl}' as its main convolution; with ONEDNN_MAX_CPU_ISA=AVX2 they take {conv_capped:.1f} ms "
               "('{impl_capped}'), ", conv=conv[a], total=total[a], pct=100 * ratio(conv[a], total[a]), impl=impl[a],
               conv_capped=conv[b], impl_capped=impl[b])
            + (tr("{x:.1f}x less.", x=ratio(conv[a], conv[b])) if conv[a] > conv[b] else
               tr("no less: the cap does not help on this CPU (no AVX-512 convolution trap here).")))
    metrics = {"conv_ms_uncapped": conv[a], "conv_ms_avx2": conv[b]}
    return Result("find_trap", layers, ["case", "layer", "output", "ms", "share_pct"], text, metrics,
                  extra={"onednn": {c: [r for r in rows if r["kind"] == "onednn" and r["case"] == c]
                                    for c in FIND_CASES}})


# -- the cap's price: the pooling layers -------------------------------------------------------------

def measure_pool_cap(p: PoolCapParams) -> list:
    """LeNet-5's two ReLU+max-pooling layers, forward and backward, each alone and compiled with ``mindspore.jit``,
    without and with the ISA cap: ``p.rounds`` fresh processes per case (the cap is read when MindSpore loads), the
    cases in alternating order. One row per (process, layer); ``summarise_pool_cap`` merges them."""
    if p.device != "CPU":
        return []
    # layer_times runs steps // 3 calls per repeat (its convolutions are slow without the cap); a pooling layer
    # takes a few ms, so ten times the steps keep a repeat long enough to time
    sub = LayerTimesParams(**{**p.common(), "steps": 10 * p.steps}, layers=POOL_LAYERS, compiled=True)
    rows = []
    for process, case in enumerate(alternating(list(FIND_CASES), p.rounds)):
        out, _ = run_worker("layer_times", sub, env=FIND_CASES[case])
        rows += [dict(r, case=case, process=process, kind="layer") for r in out["rows"]]
    # which implementation oneDNN runs the pooling with: one short process per case with its log on (logging costs
    # time, so these processes are not timed)
    logged = LayerTimesParams(**{**p.common(), "steps": 3, "repeats": 1}, layers=POOL_LAYERS)
    for case, env in FIND_CASES.items():
        _, stdout = run_worker("layer_times", logged, env={**env, "ONEDNN_VERBOSE": "1"})
        rows += [dict(r, case=case, kind="onednn") for r in parse_onednn_verbose(stdout) if r["primitive"] == "pooling"]
    return rows


def summarise_pool_cap(rows: list, p: PoolCapParams) -> Result:
    """Each pooling layer with the cap against without it, by the lab's one rule (lesson 07): the paired interval of
    the rate with the cap over the rate without, round by round (``round_pairs``, ``paired_ratio``), read like every
    other row (``short_reading``): below 1.00 the cap makes the layer slower, above faster, 1.00 inside not separated
    (``interval_side``, on the bounds as printed). Where the rounds do not pair up, the medians' two rules
    (``p.noise_pct`` the floor, repeats apart) decide instead, and the table says so."""
    if not rows:
        return skipped("pool_cap", tr("the ISA cap concerns MindSpore's CPU backend, not {device}", device=p.device))
    merged = merge_rounds([r for r in rows if r["kind"] == "layer"])
    a, b = FIND_CASES
    table, verdicts, on_ms, off_ms, paired, spans = [], {}, 0.0, 0.0, {}, []
    for layer in POOL_LAYERS:
        off, on = pick(merged, case=a, config=layer), pick(merged, case=b, config=layer)
        on_ms, off_ms = on_ms + on["median_step_ms"], off_ms + off["median_step_ms"]
        pair = round_pairs([r for r in rows if r["kind"] == "layer" and r["config"] == layer], a, b)
        if pair is not None:
            paired[layer] = paired_ratio(pair[1], pair[0])   # the rate with the cap over the rate without
            med, lo, hi = paired[layer]
            spans.append(spans_rounds(pair[1], pair[0], lo, hi))   # few pairs: the interval is the lowest-highest
            verdicts[layer] = RATE_SIDE[interval_side(lo, hi)]   # the lab's rule: the paired interval
            said = short_reading(lo, hi)
            shown = tr("{med:.2f}x ({lo:.2f}-{hi:.2f}), {n} pairs", med=med, lo=lo, hi=hi, n=len(pair[0]["repeat_s"]))
        else:
            verdicts[layer] = verdict(on, off, p.noise_pct)      # no pairs: the medians' two rules
            said, shown = tr("{verdict}, by the medians", verdict=tr(VERDICT_CELLS[verdicts[layer]])), "-"
        table.append({"layer": tr(layer), "on": on["median_step_ms"], "off": off["median_step_ms"],
                      "x": f"{off['median_step_ms'] / on['median_step_ms']:.2f}", "paired": shown, "verdict": said})
    impl = {case: sorted({r["implementation"] for r in rows if r["kind"] == "onednn" and r["case"] == case})
            for case in FIND_CASES}
    if paired:   # the verdicts as one table (lesson 07's rule): the rate with the cap over the rate without
        text = verdict_table([(tr("{layer}: with the cap / without", layer=tr(layer)), *paired[layer])
                              for layer in POOL_LAYERS if layer in paired],
                             spans=bool(spans) and all(spans))
    else:
        text = format_rows(table, ["layer", "on", "off", "x", "verdict"],
                           {"layer": tr("layer"), "on": tr("ms, cap"), "off": tr("ms, no cap"),
                            "x": tr("medians' ratio"), "verdict": tr("with the cap")}, left=["verdict"])
    if impl[a] and impl[b]:
        text += "\n" + tr(" oneDNN's log names the pooling implementation: {off} without the cap, {on} with it.",
                          off=tr(", ").join(f"'{i}'" for i in impl[a]),
                          on=tr(", ").join(f"'{i}'" for i in impl[b])).strip()
    metrics = {"pool_ms_avx2": on_ms, "pool_ms_uncapped": off_ms, "noise_pct": p.noise_pct, "pool_cap_paired": paired,
               "pool_cap_verdicts": verdicts,
               "pool_cap_span": bool(spans) and all(spans), "pool_impl_uncapped": impl[a], "pool_impl_avx2": impl[b]}
    shown = [dict(r, ms=r["median_step_ms"], min_ms=1e3 / r["max_steps_per_s"], max_ms=1e3 / r["min_steps_per_s"])
             for r in merged]   # ms per forward+backward pass: the median and the fastest-slowest repeat
    return Result("pool_cap", shown, ["case", "layer", "ms", "min_ms", "max_ms", "processes"], text, metrics)


#: A paired interval of rates (with the cap over without) read by the lab's rule: below 1.00 the cap is slower
RATE_SIDE = {"above": "faster", "below": "slower", "inside": "tie"}


def round_pairs(rows: Sequence[dict], a: str, b: str) -> Optional[tuple]:
    """``(rows_a, rows_b)`` merged for ``paired_ratio``: the processes of cases ``a`` and ``b`` (one of each per
    round of ``alternating``, numbered by ``process``) paired round by round, their repeats concatenated in the same
    order; None when the rounds or repeats do not pair up (or fewer than 3 pairs)."""
    by = {case: sorted((r for r in rows if r["case"] == case), key=lambda r: r["process"]) for case in (a, b)}
    if not by[a] or len(by[a]) != len(by[b]) or any(len(x["repeat_s"]) != len(y["repeat_s"])
                                                    for x, y in zip(by[a], by[b])):
        return None
    joined = [dict(by[c][0], repeat_s=[s for r in by[c] for s in r["repeat_s"]]) for c in (a, b)]
    return tuple(joined) if len(joined[0]["repeat_s"]) >= 3 else None


#: What the capped layer is, in words (the lab's verdict of the layer with the cap against without it).
#: How the per-configuration lines of ``summarise_cpu_traps`` word the lab's four verdicts of a fix
FIX_VERDICT = {"tie": N_("a tie"), "undecided": N_("undecided (beyond the floor, the repeats overlap)"),
               "faster": N_("faster (beyond the floor, repeats apart)"),
               "slower": N_("slower (beyond the floor, repeats apart)")}


# -- what the tools and the rewrites found, in words (lesson 08, part 3) ---------------------------------------------

CONV_OPS = ("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter")   # the convolution operators in a profile
POOL_OPS = ("MaxPool", "MaxPoolGrad")                                    # nn.MaxPool2d's, forward and backward


def explain_three_tools(op_rows: Mapping[str, list], impl: Mapping[str, str], ratio: float, noise_pct: float,
                        ratios: Optional[Mapping[str, float]] = None,
                        uncapped: Optional[Mapping[str, float]] = None) -> str:
    """The three tools' verdict: whether the oneDNN trap is on this CPU, and which tool says what.
    ``op_rows``: the profiler's ``op_type_times`` per case (``FIND_CASES`` order); ``impl``: oneDNN's main convolution
    implementation per case; ``ratio``: the profiler's convolution time without the cap over with it; ``ratios``: the
    other tools' ratios by name (per-layer timing, oneDNN's log), for the range of the three; ``uncapped``: not
    used (kept for callers that pass it)."""
    from ..profile import ms_per_step, share_pct

    a, b = FIND_CASES
    avx512 = runtime.has_avx512()
    # the trap's signature: an AVX-512 CPU, oneDNN switching implementation under the cap, and the profiler's
    # convolution time dropping by more than the noise floor
    trap = avx512 and impl[a] != impl[b] and ratio > 1 + noise_pct / 100
    text = tr("This CPU {has} AVX-512; oneDNN used '{impl_a}' without the cap and '{impl_b}' with it. The profiler "
              "puts {share_a:.0f}% of operator time in the convolution operators without the cap ({ms_a:.1f} ms per "
              "step) and {share_b:.0f}% with it ({ms_b:.1f} ms): ", has=tr("has") if avx512 else tr("does not have"),
              impl_a=impl[a], impl_b=impl[b], share_a=share_pct(op_rows[a], CONV_OPS),
              ms_a=ms_per_step(op_rows[a], CONV_OPS), share_b=share_pct(op_rows[b], CONV_OPS),
              ms_b=ms_per_step(op_rows[b], CONV_OPS))
    if trap:
        text += tr("the trap is here, and the three tools divide the work: the per-layer timing says where (the conv "
                   "layers), the profiler which operators and how much of the step, and only oneDNN's log says why "
                   "(the implementation it switched away from).")
    else:
        text += tr("no trap on this CPU. {cause} oneDNN's choice, so the {x:.1f}x between the two profiles is "
                   "run-to-run noise (noise floor {noise:.1f}%). Only oneDNN's log can tell the two cases apart: the "
                   "implementation name.", x=ratio, noise=noise_pct,
                   cause=tr("Without AVX-512 the cap cannot change") if not avx512 else tr("The cap did not change"))
    return text


#: How lessons word ``bench.verdict``'s four answers (two medians against the noise floor)
SAID = {"tie": N_("a tie (within the noise floor)"),
        "undecided": N_("undecided (beyond the noise floor, but the repeats overlap)"),
        "faster": N_("faster (beyond the noise floor, repeats apart)"),
        "slower": N_("slower (beyond the noise floor, repeats apart)")}


def said_words(said: Optional[Mapping[str, str]] = None) -> dict:
    """``said``, or ``SAID`` in the lesson's language."""
    return dict(said) if said else {k: tr(v) for k, v in SAID.items()}


#: Part 3's control line where the copies leave out 1.00 (``control_reading``'s ``apart``): nothing is widened, a
#: rewrite whose near end lies within the copies' gap is not read (``within_copies``).
REWRITE_APART = N_("apart: a rewrite within this gap is not read")


def pool_copies(pools: Mapping[str, Timing], baseline: str = "nn.MaxPool2d",
                copy: Optional[str] = None) -> Optional[tuple]:
    """Part 3's A/A' control for the pooling rewrites: ``copy`` (the baseline timed a second time) over ``baseline``,
    paired round by round, as ``(low, high)``; None without a copy. The table and the summary read every rewrite
    with it (``short_reading``'s ``copies``)."""
    if not copy or copy not in pools:
        return None
    return tuple(paired_ratio(pools[copy], pools[baseline])[1:])


def explain_pool_rewrites(pools: Mapping[str, Timing], noise_pct: float, said: Optional[Mapping[str, str]] = None,
                          baseline: str = "nn.MaxPool2d", pool_share: Optional[float] = None,
                          pool_ms: Optional[float] = None, copy: Optional[str] = None) -> str:
    """Each rewrite of the pooling layer against ``baseline`` (all checked equal before they were timed), and whether
    any is a candidate. The verdict is the paired interval (``compare`` alternated them round by round, lesson 07's
    rule), the only reading printed (``noise_pct`` and ``said``: kept for callers that pass them). ``pool_share``: the
    pooling operators' share of operator time, in percent, in the profile of the same setting; even free pooling
    kernels make a step at most 1 / (1 - share) as fast, so a larger gain is flagged as not explained by pooling's
    kernel time alone (a rewrite also changes the graph and its dispatch). ``pool_ms``: the pooling operators'
    milliseconds per step in that profile, the bound in ms: a rewrite's saving (the medians' step times, baseline minus
    rewrite) larger than all of pooling's kernel time is flagged the same way (used instead of ``pool_share``). Only a
    rewrite read as faster (paired interval above 1.00, beyond the copies' gap) is set beside a bound; any other with a
    median above 1.00 gets one line, its verdict and that no saving is read.
    ``copy``: the name in ``pools`` of ``baseline`` timed a second time (A'), the control: its row comes first, and a
    rewrite whose interval's near end lies within the copies' gap is not read as faster or slower."""
    base = pools[baseline]
    lines, winners, too_large, table = [], [], [], []
    copies = pool_copies(pools, baseline, copy)
    spans = True   # every interval its rounds' lowest-highest ratio: the table's column says so
    if copy:   # lesson 07's control: one step timed twice should not separate from itself
        c_med, c_lo, c_hi = paired_ratio(pools[copy], base)
        spans = spans_rounds(pools[copy], base, c_lo, c_hi)
        table.append((tr("{name} / {base} (control)", name=copy, base=baseline), c_med, c_lo, c_hi,
                      control_reading(c_lo, c_hi, apart=REWRITE_APART)))
    for name, t in pools.items():
        if name in (baseline, copy):
            continue
        med, lo, hi = paired_ratio(t, base)   # the paired verdict only (lesson 07's rule)
        table.append((tr("{name} / {base}", name=name, base=baseline), med, lo, hi))
        spans = spans and spans_rounds(t, base, lo, hi)
        side = interval_side(lo, hi)
        read = side == "above" and not within_copies(lo, hi, copies)   # a verdict "faster": a gain to size
        winners += [name] if read else []
        if med > 1 and not read and (pool_ms is not None or pool_share is not None):   # no gain is read: no bound
            lines.append(tr("{name}: {said}, so no saving is read.", name=name, said=short_reading(lo, hi, copies)))
        elif pool_ms is not None and read:   # a gain: in ms, against all of pooling's kernel time in the profile
            saved = 1000 / base.steps_per_s - 1000 / t.steps_per_s
            if round(saved, 1) <= 0:   # the medians point the other way than the paired median: no ms to read
                lines.append(tr("{name}: the paired median ({x:.2f}x) and the medians ({a:.1f} -> {b:.1f} ms per "
                                "step) disagree in direction: the block drifted during the alternation, so no saving "
                                "in ms is read.", name=name, x=med, a=1000 / base.steps_per_s,
                                b=1000 / t.steps_per_s))
                continue
            more = round(saved, 1) > round(pool_ms, 1)   # compared as printed, one decimal
            too_large += [name] if more else []
            lines.append(tr("{name} saves {saved:.1f} ms per step here ({a:.1f} -> {b:.1f} ms, the medians of this "
                            "block). All pooling (MaxPool and MaxPoolGrad) takes {pool:.1f} ms per step in the profile "
                            "with the cap, ", name=name, saved=saved, a=1000 / base.steps_per_s,
                            b=1000 / t.steps_per_s, pool=pool_ms)
                         + tr(N_("so the saving is larger than all of pooling's kernel time. A rewrite also changes "
                                 "the compiled graph and its dispatch, and rates drift during an alternation.") if more
                              else N_("and the saving is within it.")))
        elif pool_share is not None and read:   # a gain: what free pooling kernels could allow at most
            share = round(pool_share)   # the bound from the share as printed, so that a reader can redo it
            bound = 1 / (1 - share / 100) if share < 100 else float("inf")
            where = ("above" if round(med, 2) > round(bound, 2) else "equal" if round(med, 2) == round(bound, 2)
                     else "below")   # compared as printed, two decimals
            too_large += [name] if where == "above" else []
            lines.append(tr("Pooling takes {share:.0f}% of operator time in the profile with the cap, so even free "
                            "pooling kernels make the step at most 1 / (1 - {frac:.2f}) = {bound:.2f}x as fast; "
                            "{name}'s {x:.2f}x ", share=share, frac=share / 100, bound=bound, name=name, x=med)
                         + tr({"above": N_("is more: a rewrite also changes the compiled graph and its dispatch, and "
                                           "rates drift during an alternation."),
                               "equal": N_("reaches that bound."),
                               "below": N_("stays under it.")}[where]))
    lines.insert(0, verdict_table(table, copies, spans=spans))
    info = runtime.current()   # a verdict holds for the setting it was measured in: name it
    cap = os.environ.get("ONEDNN_MAX_CPU_ISA")
    where = (tr("with ONEDNN_MAX_CPU_ISA={cap}, on this CPU", cap=cap) if cap else tr("on this CPU"))  \
        if info is None or info.device == "CPU" else tr("on this {device}", device=info.device)
    if winners and too_large:
        lines.append(tr("Worth trying {where}: {names} (faster, paired interval above 1.00, in this alternation, by "
                        "more than pooling's kernel time: remeasure before relying on the size; checked equal for "
                        "LeNet-5's weights on one batch only).", where=where, names=tr(", ").join(winners)))
    else:
        lines.append(tr("Faster here {where}: {names}, a candidate, not a default (paired interval above 1.00; "
                        "checked equal for LeNet-5's weights on one batch only).", where=where,
                        names=tr(", ").join(winners))
                     if winners else
                     tr("Keep {base}: neither equivalent formulation was measurably faster here.", base=baseline))
    return "\n".join(lines)
