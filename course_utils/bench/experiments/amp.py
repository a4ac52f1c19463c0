"""Mixed precision: ``auto_mixed_precision`` O0-O3, speed and accuracy after the same steps."""

from __future__ import annotations

import statistics

from course_utils.evaluate import mnist_test_accuracy
from course_utils.i18n import tr

from ..harness import WARMUP, Config, compare, cycle, force, verdict
from ..params import AmpParams
from ..report import Result, format_verdicts, pick
from ..steps import Spec, build_step, lenet_setup, mnist_batches, timing_rows
from .common import control_reading, setup_worker, short_reading, spread_pct, verdict_table
from .pipeline import paired_reading

COPY = "O0 copy"   # O0 timed a second time, so that each level's paired reading is checked against two copies


def amp_step(spec, level: str, loss_scale=None):
    """``(net, step)``: a fresh LeNet-5 at amp ``level``; with ``loss_scale`` (float16 levels) a
    ``TrainOneStepWithLossScaleCell`` with a fixed scale, whatever the spec's style."""
    from mindspore import nn

    net, loss_fn, opt = lenet_setup(amp_level=level)
    if loss_scale and level != "O0":
        scaler = nn.FixedLossScaleUpdateCell(loss_scale_value=loss_scale)
        cell = nn.TrainOneStepWithLossScaleCell(nn.WithLossCell(net, loss_fn), opt, scale_sense=scaler)
        cell.set_train()
        return net, cell
    return net, build_step(spec, net, loss_fn, opt)


def _loss(out) -> float:
    return float(out[0] if isinstance(out, tuple) else out)   # a loss-scale cell returns (loss, overflow, scale)


def measure_amp(p: AmpParams) -> list:
    """Steps/s of every level in alternation (O0 twice, the second as ``COPY``), then each trained on to
    ``p.train_steps`` steps in all (the warm-up and timed steps included) and evaluated."""
    import mindspore as ms

    setup_worker(p, Spec.parse(p.spec).mode)
    batches = mnist_batches(p.batch_size, count=min(p.train_steps, 60000 // p.batch_size))
    levels = {level: level for level in p.levels}   # configuration -> its amp level
    if "O0" in levels:
        levels[COPY] = "O0"                           # a second instance, last in the order: O0 and its copy
    nets, configs = {}, {}
    for key, level in levels.items():
        ms.set_seed(p.seed)   # the same initial weights for every level
        nets[key], step = amp_step(p.spec, level, p.loss_scale)
        configs[key] = Config(step=cycle(step, batches), batch_size=p.batch_size)
    rows = timing_rows(compare(configs, steps=p.steps, repeats=p.repeats))
    done = WARMUP + p.steps * p.repeats    # warm-up and timed steps already trained (p.train_steps >= done)
    for row in rows:
        key = row["config"]
        losses = [_loss(force(configs[key].step())) for _ in range(max(0, p.train_steps - done))]
        row.update(label=tr("amp O0, second copy") if key == COPY else tr("amp {level}", level=key),
                   wrapper=type(nets[key]).__name__, trained_steps=p.train_steps,
                   accuracy=mnist_test_accuracy(nets[key], limit=2000 if p.quick else 10000),
                   final_loss=statistics.mean(losses[-20:]) if losses else None, device=p.device)
    return rows


def summarise_amp(rows: list, p: AmpParams) -> Result:
    base = pick(rows, config="O0")
    copy = next((r for r in rows if r["config"] == COPY), None)
    rows = [dict(r, vs_O0=r["steps_per_s"] / base["steps_per_s"], accuracy_pct=100 * r["accuracy"]) for r in rows]
    noise = p.noise_pct or spread_pct(base)
    others = sorted((r for r in rows if r["config"] not in ("O0", COPY)), key=lambda r: r["config"])   # O1, O2, O3
    text = tr("On {device}, O0 ran {rate:.0f} steps/s and reached {acc:.1f}% after {steps} steps", device=p.device,
              rate=base["steps_per_s"], acc=100 * base["accuracy"], steps=base["trained_steps"])
    words = {"tie": tr("a tie: the medians cannot tell a difference below {noise:.1f}% from noise; the paired "
                       "intervals below are sharper", noise=noise),
             "undecided": tr("undecided: beyond the noise floor of {noise:.1f}%, but the repeats' ranges overlap",
                             noise=noise),
             "faster": tr("faster: beyond the noise floor, repeats apart"),
             "slower": tr("slower: beyond the noise floor, repeats apart")}
    judged = copy is not None and any(paired_reading(r, [base, copy]) for r in others)   # paired: the verdict
    if copy is not None:   # O0 and its copy are the same step: how far apart they landed, by the same rules
        same = verdict(copy, base, noise)
    if copy is not None and not judged:   # with paired verdicts the control line below says it
        text += tr("; O0 timed twice, the same step: its copy ran {copy:.0f} steps/s, {x:.2f}x O0's rate ({verdict})",
                   copy=copy["steps_per_s"], x=copy["steps_per_s"] / base["steps_per_s"], verdict=words[same])
        if same != "tie":
            text += tr(": the same step landed beyond the floor, so each level is judged against both, and a level "
                       "whose two verdicts disagree is undecided")
    lower = []   # levels whose accuracy fell more than a point below O0's
    for r in others:   # one verdict per level against O0 and one against its copy, by the medians; then paired
        r["verdict_O0"] = verdict(r, base, noise)        # the lab's two rules
        r["verdict_copy"] = verdict(r, copy, noise) if copy is not None else None
        # O0 and its copy are the same step: when the two verdicts disagree, nothing is decided
        r["verdict"] = r["verdict_O0"] if r["verdict_copy"] in (None, r["verdict_O0"]) else "undecided"
        r["paired"] = paired_reading(r, [base, copy])  # against O0 and its copy: None with fewer than 3 rounds
        drop = 100 * (base["accuracy"] - r["accuracy"])
        if drop > 1:
            lower.append(tr("{low}: accuracy {acc:.1f}% ({drop:.1f} points lower: check accuracy, not only speed)",
                            low=r["label"], acc=100 * r["accuracy"], drop=drop))
            text += tr("; ") + lower[-1]
    text += tr(".") + "\n" + format_verdicts([{"config": r["label"], "x": r["vs_O0"], "vs_a": r["verdict_O0"],
                                       "vs_copy": r["verdict_copy"], "paired": r["paired"]} for r in others],
                                     "O0", tr("O0's copy") if copy is not None else None)
    said = {r["config"]: r["verdict"] for r in others}
    faster = [r for r in others if said[r["config"]] == "faster"]
    if faster:
        medians = tr("The fastest level here was {level}.",
                     level=max(faster, key=lambda r: r["steps_per_s"])["config"])
    elif others and all(said[r["config"]] == "slower" for r in others):
        medians = tr("O0 itself was the fastest level here.")
    else:
        medians = tr("No level ran measurably faster than O0 here.")
    amp_twins = None
    if any(r["paired"] for r in others):   # the verdict: the paired interval (lesson 07's rule), one table
        first = next(r["paired"] for r in others if r["paired"])
        table = []
        c = first.get("control")
        # the control's interval: a level whose near end lies within the copies' gap is not read (part 3's rule)
        copies = (c["low"], c["high"]) if c else None
        if c:   # lesson 07's control: O0 timed twice should not separate from itself
            table.append((tr("O0's copy / O0 (control)"), c["median"], c["low"], c["high"],
                          control_reading(c["low"], c["high"])))   # apart: every level's row was widened
        for r in others:
            if r["paired"]:   # the table's words, kept on the row: the summary repeats them word for word
                r["said"] = short_reading(r["paired"]["low"], r["paired"]["high"], copies)
                table.append((tr("{level} / O0 and its copy", level=r["config"]), r["paired"]["median"],
                              r["paired"]["low"], r["paired"]["high"], r["said"]))
        verdict_line = tr("; ").join(tr("{level} {said}", level=r["config"], said=r["said"])
                                     for r in others if r["paired"])
        spans = all(r["paired"]["span"] for r in others if r["paired"]) and (c is None or c["span"])
        text = verdict_table(table, spans=spans) + "".join("\n" + line + tr(".") for line in lower)
        twins = {r["config"]: r["paired"] for r in others if r["config"] in ("O2", "O3") and r["paired"]}
        if len(twins) == 2:   # one network here: read the two as two copies of one configuration (lesson 07)
            lo, hi = min(t["low"] for t in twins.values()), max(t["high"] for t in twins.values())
            said = short_reading(lo, hi, copies)
            amp_twins = {"low": lo, "high": hi, "said": said}   # the one reading the summary gives O2 and O3
            text += "\n" + tr("O2 and O3 are one network here (LeNet-5 has no normalisation layer for O2 to keep "
                              "in float32; the next cell checks it), so their rows are two measurements of one "
                              "step, read together as lesson 07 reads two copies: {lo:.2f}-{hi:.2f}, {said}.",
                              lo=lo, hi=hi, said=said)
    else:
        verdict_line = medians
        text += "\n" + medians
    metrics = {f"amp_{r['config']}_steps_per_s": r["steps_per_s"] for r in rows if r["config"] != COPY}
    if copy is not None:
        metrics.update(amp_copy_vs_O0=copy["steps_per_s"] / base["steps_per_s"], amp_copy_verdict=same)
    cols = ["label", "wrapper", "first_call_s", "steps_per_s", "min_steps_per_s", "max_steps_per_s", "vs_O0",
            "accuracy_pct"] + (["final_loss"] if any(r.get("final_loss") is not None for r in rows) else [])
    metrics["said"] = verdict_line   # the verdict's sentence, for the lesson's summary
    if amp_twins:
        metrics["amp_twins"] = amp_twins
    return Result("amp", rows, cols, text, metrics)   # final_loss: only when training went on after the timing
