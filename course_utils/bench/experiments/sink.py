"""Dataset sink mode (Ascend only): the data transfer and the loop move onto the device."""

from __future__ import annotations

from course_utils.i18n import tr

from ..harness import compare
from ..params import SinkParams
from ..report import Result, pick
from ..steps import lenet_setup, timing_rows
from .common import compared, setup_worker


def measure_sink_mode(p: SinkParams) -> list:
    """Batches/s of ``Model.train`` over ``p.batches`` MNIST batches, sink mode off and on with each
    ``sink_size``; one pass per repeat, in alternation."""
    import mindspore as ms

    from course_utils.data import mnist_dataset

    setup_worker(p)
    passes, labels = {}, {}   # configuration (a key) -> its pass; -> its label as shown
    for size in (None,) + p.sink_sizes:
        net, loss_fn, opt = lenet_setup()
        model = ms.Model(net, loss_fn=loss_fn, optimizer=opt)     # a Model per dataset (it binds to it)
        data = mnist_dataset("train", batch_size=p.batch_size, subset=p.batch_size * p.batches)
        if size is None:
            passes["sink off"] = lambda m=model, d=data: m.train(1, d, dataset_sink_mode=False)
            labels["sink off"] = tr("sink off")
        else:
            epochs = 1 if size == -1 else p.batches // size   # sink_size batches form one "epoch"
            passes[f"sink on, sink_size {size}"] = (
                lambda m=model, d=data, e=epochs, s=size: m.train(e, d, dataset_sink_mode=True, sink_size=s))
            labels[f"sink on, sink_size {size}"] = tr("sink on, sink_size {size}", size=size)
    rows = timing_rows(compare(passes, steps=1, repeats=p.repeats, warmup=2), labels, device=p.device)
    for r in rows:
        r.update(batches_per_s=p.batches * r["steps_per_s"], min_batches_per_s=p.batches * r["min_steps_per_s"],
                 max_batches_per_s=p.batches * r["max_steps_per_s"])
    return rows


def summarise_sink_mode(rows: list, p: SinkParams) -> Result:
    off = pick(rows, config="sink off")
    best = max(rows, key=lambda r: r["batches_per_s"])
    text = tr("Without sink mode Model.train ran {rate:.0f} batches/s on {device}; ", rate=off["batches_per_s"],
              device=p.device)
    text += (tr("the fastest was {best} at {rate:.0f} ({compared} sink off).", best=best["label"],
                rate=best["batches_per_s"], compared=compared(best, off, "batches_per_s"))
             if best["config"] != "sink off" else tr("no sink size beat it here."))
    return Result("sink_mode", rows, ["label", "batches_per_s", "min_batches_per_s", "max_batches_per_s"], text,
                  {"sink_speedup": best["batches_per_s"] / off["batches_per_s"]})
