"""Dynamic shapes: one compilation per new batch shape, counted from per-call times; two fixes."""

from __future__ import annotations

import statistics
import time
from typing import List, Sequence

from course_utils import runtime
from course_utils.i18n import tr

from ..harness import force
from ..params import ShapesParams
from ..report import Result, pick
from ..steps import Spec, build_step, lenet_setup, mnist_batches
from .common import setup_worker


def compile_calls(times: Sequence[float], settle: int = 0) -> List[int]:
    """Indices of the calls that compiled, judged from per-call seconds alone: a call far slower than
    the steady step (over 5x the median of the calls after ``settle``, plus 50 ms) and at least 30%
    of the first call, which always compiles. A merely slow step on a busy machine is neither."""
    if not times:
        return []
    steady = statistics.median(times[settle:] if len(times) > settle else times)
    return [i for i, t in enumerate(times) if t > max(5 * steady + 0.05, 0.3 * times[0])]


def batch_sizes(p: ShapesParams) -> list:
    """The batch size of every call: ``p.n_shapes`` sizes 7 apart (64, 57, 50, ...), cycled 4 times."""
    return [p.batch_size - 7 * (i % p.n_shapes) for i in range(4 * p.n_shapes)]


def measure_dynamic_shapes(p: ShapesParams) -> list:
    """Per-call seconds of a fresh step for: changing shapes; the same with a dynamic batch dimension;
    one shape throughout."""
    import mindspore as ms

    setup_worker(p, Spec.parse(p.spec).mode)
    spec = Spec.parse(p.spec)
    pool = mnist_batches(p.batch_size, count=2)
    sizes = batch_sizes(p)
    rows = []
    for config, seq in (("changing", sizes), ("dynamic", sizes), ("one shape", [p.batch_size] * len(sizes))):
        ms.set_seed(p.seed)
        net, loss_fn, opt = lenet_setup()
        how = []   # what declared the batch dimension dynamic: the row's label names it
        if config == "dynamic" and spec.style in ("jit", "jit_cell"):
            step = build_step(spec, net, loss_fn, opt, dynamic=1)      # ask jit for dynamic shapes
            how.append("jit dynamic=1")
        else:
            step = build_step(spec, net, loss_fn, opt)
        if config == "dynamic" and hasattr(step, "set_inputs"):        # a Cell: declare the batch dim dynamic
            step.set_inputs(ms.Tensor(shape=[None, 1, 28, 28], dtype=ms.float32),
                            ms.Tensor(shape=[None], dtype=ms.int32))
            how.append("set_inputs")
        times = []
        for i, size in enumerate(seq):
            x, y = pool[i % 2]
            start = time.perf_counter()
            force(step(x[:size], y[:size]))
            times.append(time.perf_counter() - start)
        rows.append({"config": config, "how": how, "sizes": seq, "per_call_s": times})
    return rows


def _label(row: dict, p: ShapesParams) -> str:
    """What the table calls a row of ``measure_dynamic_shapes``, in the course's language."""
    if row["config"] == "changing":
        return tr("{n} batch sizes in turn, a new one every call at first", n=p.n_shapes)
    if row["config"] == "one shape":
        return tr("one fixed batch of {n} (as drop_remainder / padding give)", n=p.batch_size)
    how = " + ".join(row.get("how", ())) or tr("not declared: no way for this step")
    return tr("dynamic batch dim ({how})", how=how)


def summarise_dynamic_shapes(rows: list, p: ShapesParams) -> Result:
    out = []
    for r in rows:
        times = r["per_call_s"]
        slow = compile_calls(times, settle=p.n_shapes)
        steady = statistics.median(times[p.n_shapes:])
        per_sample = statistics.median(t / n for t, n in zip(times[p.n_shapes:], r["sizes"][p.n_shapes:]))
        out.append(dict(r, label=_label(r, p), calls=len(times), shapes=len(set(r["sizes"])), compiles=len(slow),
                        compile_s=sum(times[i] for i in slow), total_s=sum(times), steady_ms=1e3 * steady,
                        mean_batch=statistics.mean(r["sizes"]), us_per_sample=1e6 * per_sample))
    a, b, c = (pick(out, config=k) for k in ("changing", "dynamic", "one shape"))
    lines = [tr("{shapes} batch shapes ({sizes}) cost {compiles} compilations: {compile_s:.2f} s of {total_s:.2f} s "
                "over {calls} calls.", sizes=runtime.listing(dict.fromkeys(a["sizes"])), shapes=a["shapes"],
                compiles=a["compiles"], compile_s=a["compile_s"], total_s=a["total_s"], calls=a["calls"]),
             tr("Compilations with a dynamic batch dimension: {dyn}; with one fixed shape: {one} ({dyn_total_s:.2f} s "
                "and {one_total_s:.2f} s for all {calls} calls).", dyn=b["compiles"], one=c["compiles"],
                dyn_total_s=b["total_s"], one_total_s=c["total_s"], calls=a["calls"])
             if f"{b['total_s']:.2f}" != f"{c['total_s']:.2f}" else
             tr("Compilations with a dynamic batch dimension: {dyn}; with one fixed shape: {one} ({total_s:.2f} s for "
                "all {calls} calls, either way).", dyn=b["compiles"], one=c["compiles"], total_s=b["total_s"],
                calls=a["calls"])]
    if a["compiles"] <= c["compiles"]:
        lines.append(tr("Changing shapes did not recompile here: this step style does not specialise on shapes."))
    metrics = {"recompile_s": a["compile_s"], "recompiles": a["compiles"]}
    # the steady-step figures (steady_ms, us_per_sample) stay in the saved rows only: single, unalternated calls
    return Result("dynamic_shapes", out, ["label", "calls", "shapes", "compiles", "compile_s", "total_s"],
                  "\n".join(lines),
                  metrics, alternated=False)   # single, unalternated calls: the busy warning says so
