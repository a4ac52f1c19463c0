"""Made-up measurement rows of the performance lab's experiments, for the tests of their ``summarise`` functions
(tests/unit/test_bench_summaries.py) and of the Chinese conclusions (tests/lessons/test_i18n_nb07.py)."""

import random

from course_utils import bench
from course_utils.bench.experiments import traps


def rate(config, sps, spread=0.02, first=1.0, key="steps_per_s", **fields):
    """A made-up timing row: ``sps`` with a min-max of +-``spread``."""
    try:
        label = bench.Spec.parse(config).label
    except ValueError:
        label = config
    return {"config": config, "label": label, key: sps, f"min_{key}": sps * (1 - spread),
            f"max_{key}": sps * (1 + spread), "steps_per_s": fields.pop("steps_per_s", sps),
            "min_steps_per_s": sps * (1 - spread), "max_steps_per_s": sps * (1 + spread), "first_call_s": first,
            "spread_pct": 100 * spread, "steps": 10,
            "repeat_s": [10 / (sps * (1 - spread)), 10 / sps, 10 / (sps * (1 + spread))], **fields}


def shuffled(rows):
    rows = list(rows)
    random.Random(0).shuffle(rows)
    return rows


def trap_rows(naive=10.0, capped=60.0, both=90.0):
    rows = []
    for case, g, pyn in (("no fixes", naive, 3.0), ("ONEDNN_MAX_CPU_ISA=AVX2", capped, 15.0),
                         ("MS_DEV_HOST_BLOCKING_RUN=1", naive * 1.1, 5.0), ("both fixes", both, 60.0)):
        rows += [rate("graph/cell", g, case=case), rate("pynative/cell", pyn, case=case)]
    return rows


def trap_results():
    """cpu_traps summarised for: the target met, missed, and the fastest of all without the course's fixes."""
    p = bench.TrapsParams(specs=("graph/cell", "pynative/cell"))
    return (traps.summarise_cpu_traps(shuffled(trap_rows()), p), traps.summarise_cpu_traps(trap_rows(naive=30.0), p),
            traps.summarise_cpu_traps(trap_rows(capped=120.0), p))


def find_rows(conv_uncapped, conv_capped):
    rows = []
    for case, conv, impl in (("no ISA cap", conv_uncapped, "brg:avx512_core"), ("ONEDNN_MAX_CPU_ISA=AVX2", conv_capped,
                                                                              "brg:avx2")):
        rows += [{"case": case, "kind": "layer", "layer": name, "ms": ms, "output": "?"}
                 for name, ms in (("conv1", conv / 2), ("relu+pool 1", 1.0), ("conv2", conv / 2), ("fc1", 1.0))]
        rows += [{"case": case, "kind": "onednn", "primitive": "convolution", "implementation": impl,
                  "propagation": "forward_training", "calls": 4, "total_ms": conv, "mean_ms": conv / 4}]
    return rows


def pipeline_rows(pipe, mem, fed, on=20.0, off=20.0, again=None):
    """``again``: the in-memory pass timed a second time (A'), for the part's own noise floor (default: ``mem``)."""
    rows = [rate("pipeline alone, 1 worker(s)", pipe / 2, key="batches_per_s"),
            rate("pipeline alone, 2 worker(s)", pipe, key="batches_per_s"),
            rate("training step, in-memory batches", mem, key="batches_per_s", batches=200),
            rate("training step, in-memory batches, again", again or mem, key="batches_per_s", batches=200),
            rate("training step fed by the pipeline", fed, key="batches_per_s"),
            rate("Model.train, sink mode off", off, key="batches_per_s"),
            rate("Model.train, sink mode on", on, key="batches_per_s")]
    return rows


def amp_rows(o3_rate, o3_acc):
    return [rate("O0", 50, label="amp O0", accuracy=0.95, trained_steps=100, wrapper="LeNet5"),
            rate("O1", 45, label="amp O1", accuracy=0.95, trained_steps=100, wrapper="LeNet5"),
            rate("O3", o3_rate, label="amp O3", accuracy=o3_acc, trained_steps=100, wrapper="_OutputTo32")]


def shape_rows(changing_compiles):
    sizes = [64, 57, 64, 57, 64, 57, 64, 57]
    changing = [2.0, 2.0 if changing_compiles else 0.01] + [0.01] * 6
    return [{"config": "changing", "label": "a new shape", "sizes": sizes, "per_call_s": changing},
            {"config": "dynamic", "label": "dynamic", "sizes": sizes, "per_call_s": [2.5] + [0.012] * 7},
            {"config": "one shape", "label": "one", "sizes": [64] * 8, "per_call_s": [2.0] + [0.01] * 7}]


def accuracy_rows():
    """Made-up time-to-accuracy rows: the best run's, and the best and the naive run's (8x slower)."""
    best = [{"run": "best", "target": t, "step": s, "train_s": sec, "curve": [{"step": 1}]}
            for t, s, sec in ((0.985, 1000, 10.0), (0.99, 2000, 20.0))]
    return best, best + [{"run": "naive", "target": t, "step": s, "train_s": sec, "curve": []}
                         for t, s, sec in ((0.985, 1000, 80.0), (0.99, 2000, 160.0))]


def step_rates(naive, best=100.0):
    """The two step rates a QUICK run measures the same way (in-memory, fresh processes) for its estimate."""
    return [{"run": "naive step rate", "steps_per_s": naive, "batches": 200},
            {"run": "best step rate", "steps_per_s": best, "batches": 200}]
