"""Mixed precision: ``auto_mixed_precision`` O0-O3, speed and accuracy after the same steps."""

from __future__ import annotations

import statistics

from course_utils.evaluate import mnist_test_accuracy
from course_utils.i18n import tr

from ..harness import Config, compare, cycle, force, paired_ratio, verdict
from ..params import AmpParams
from ..report import Result, pick
from ..steps import Spec, build_step, lenet_setup, mnist_batches, timing_rows
from .common import setup_worker, spread_pct


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
    """Steps/s of every level in alternation, then each trained to ``p.train_steps`` and evaluated."""
    import mindspore as ms

    setup_worker(p, Spec.parse(p.spec).mode)
    batches = mnist_batches(p.batch_size, count=min(p.train_steps, 60000 // p.batch_size))
    nets, configs = {}, {}
    for level in p.levels:
        ms.set_seed(p.seed)   # the same initial weights for every level
        nets[level], step = amp_step(p.spec, level, p.loss_scale)
        configs[level] = Config(step=cycle(step, batches), batch_size=p.batch_size)
    rows = timing_rows(compare(configs, steps=p.steps, repeats=p.repeats))
    done = 3 + p.steps * p.repeats    # warm-up and timed steps already trained
    for row in rows:
        level = row["config"]
        losses = [_loss(force(configs[level].step())) for _ in range(max(0, p.train_steps - done))]
        row.update(label=tr("amp {level}", level=level),
                   wrapper=type(nets[level]).__name__, trained_steps=max(p.train_steps, done),
                   accuracy=mnist_test_accuracy(nets[level], limit=2000 if p.quick else 10000),
                   final_loss=statistics.mean(losses[-20:]) if losses else None, device=p.device)
    return rows


def summarise_amp(rows: list, p: AmpParams) -> Result:
    base = pick(rows, config="O0")
    rows = [dict(r, vs_O0=r["steps_per_s"] / base["steps_per_s"], accuracy_pct=100 * r["accuracy"]) for r in rows]
    noise = p.noise_pct or spread_pct(base)
    others = sorted((r for r in rows if r["config"] != "O0"), key=lambda r: r["config"])   # O1, O2, O3
    said = {r["config"]: verdict(r, base, noise) for r in others}   # the lab's two rules, against O0
    text = tr("On {device}, O0 ran {rate:.0f} steps/s and reached {acc:.1f}% after {steps} steps", device=p.device,
              rate=base["steps_per_s"], acc=100 * base["accuracy"], steps=base["trained_steps"])
    words = {"tie": tr("a tie: this run cannot detect a difference below {noise:.1f}%", noise=noise),
             "undecided": tr("undecided: beyond the noise floor of {noise:.1f}%, but the repeats' ranges overlap",
                             noise=noise),
             "faster": tr("faster: beyond the noise floor, repeats apart"),
             "slower": tr("slower: beyond the noise floor, repeats apart")}
    paired = len(base.get("repeat_s", ())) >= 3   # the levels alternate in one compare: a ratio per round
    for r in others:   # one verdict per level, against O0
        drop = 100 * (base["accuracy"] - r["accuracy"])
        text += (tr("; {low}: {r:.2f}x O0's rate ({verdict}), {acc:.1f}%", low=r["label"],
                    r=r["steps_per_s"] / base["steps_per_s"], verdict=words[said[r["config"]]],
                    acc=100 * r["accuracy"])
                 + (tr(" ({drop:.1f} points lower: check accuracy, not only speed)", drop=drop) if drop > 1 else ""))
        if paired and len(r.get("repeat_s", ())) == len(base["repeat_s"]):
            med, lo, hi = paired_ratio(r, base)
            r["paired"] = (med, lo, hi)
            text += tr(" (paired round by round with O0: {med:.2f}x, 95% interval {lo:.2f}-{hi:.2f})", med=med, lo=lo,
                       hi=hi)
    faster = [r for r in others if said[r["config"]] == "faster"]
    if faster:
        text += tr("; the fastest level here was {level}.", level=max(faster, key=lambda r: r["steps_per_s"])["config"])
    elif others and all(said[r["config"]] == "slower" for r in others):
        text += tr("; O0 itself was the fastest level here.")
    else:
        text += tr("; no level ran measurably faster than O0 here.")
    metrics = {f"amp_{r['config']}_steps_per_s": r["steps_per_s"] for r in rows}
    cols = ["label", "wrapper", "first_call_s", "steps_per_s", "min_steps_per_s", "max_steps_per_s", "vs_O0",
            "accuracy_pct"] + (["final_loss"] if any(r.get("final_loss") is not None for r in rows) else [])
    return Result("amp", rows, cols, text, metrics)   # final_loss: only when training went on after the timing
