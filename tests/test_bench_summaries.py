"""Every experiment's ``summarise`` on made-up rows: the conclusion follows the numbers, including
where it flips (GRAPH_MODE slower than PyNative, the pipeline the bottleneck, a target missed), and
rows are picked by name, so their order does not matter."""

import random

import pytest

from course_utils import bench
from course_utils.bench.experiments import accuracy, amp, modes, pipeline, shapes, sink, traps


def rate(config, sps, spread=0.02, first=1.0, key="steps_per_s", **fields):
    """A made-up timing row: ``sps`` with a min-max of +-``spread``."""
    try:
        label = bench.Spec.parse(config).label
    except ValueError:
        label = config
    return {"config": config, "label": label, key: sps, f"min_{key}": sps * (1 - spread),
            f"max_{key}": sps * (1 + spread), "steps_per_s": fields.pop("steps_per_s", sps),
            "min_steps_per_s": sps * (1 - spread), "max_steps_per_s": sps * (1 + spread), "first_call_s": first,
            "spread_pct": 100 * spread, **fields}


def shuffled(rows):
    rows = list(rows)
    random.Random(0).shuffle(rows)
    return rows


def test_modes_graph_faster_and_slower_than_pynative():
    p = bench.ModesParams(specs=("pynative/cell", "graph/cell", "pynative/jit:O1"))
    fast = [rate("pynative/cell", 20), rate("graph/cell", 80, first=3.0), rate("pynative/jit:O1", 60)]
    res = modes.summarise_modes(shuffled(fast), p)
    assert "Fastest here: GRAPH_MODE, TrainOneStepCell at 80 steps/s, 4.0x the slowest" in res.conclusion
    assert "GRAPH_MODE TrainOneStepCell ran 4.0x, faster than PyNative's" in res.conclusion
    assert res.metrics["graph_vs_pynative"] == pytest.approx(4.0)
    assert res.row(config="graph/cell")["vs_baseline"] == pytest.approx(4.0)   # baseline: the first spec asked for
    slow = [rate("pynative/cell", 50), rate("graph/cell", 30), rate("pynative/jit:O1", 40)]
    res = modes.summarise_modes(slow, p)
    assert "GRAPH_MODE TrainOneStepCell ran 0.60x, slower than PyNative's" in res.conclusion
    same = [rate("pynative/cell", 50, spread=0.1), rate("graph/cell", 52, spread=0.1), rate("pynative/jit:O1", 40)]
    assert "within the repeat-to-repeat spread" in modes.summarise_modes(same, p).conclusion


def test_styles_claim_holds_or_not():
    rows = [rate("graph/functional", 100, input="in-memory batches"),
            rate("graph/cell", 101, input="in-memory batches"),
            rate("graph/functional +pipeline", 80, input="data pipeline"),
            rate("graph/cell +pipeline", 81, input="data pipeline"), rate("Model.train", 40, input="data pipeline")]
    res = modes.summarise_styles(shuffled(rows), bench.StylesParams())
    assert "does not reproduce" in res.conclusion and "Model.train fed by the pipeline reached 40" in res.conclusion
    assert "(0.50x a functional loop" in res.conclusion
    assert res.row(config="Model.train")["vs_functional"] == pytest.approx(0.5)
    rows[1] = rate("graph/cell", 130, input="in-memory batches")
    assert '"15% faster" holds' in modes.summarise_styles(rows, bench.StylesParams()).conclusion


def test_batch_sizes():
    rows = [rate(f"batch {b}", sps, batch_size=b, samples_per_s=b * sps) for b, sps in ((32, 100), (64, 80), (128, 30))]
    res = modes.summarise_batch_sizes(shuffled(rows), bench.BatchSizesParams(batch_sizes=(32, 64, 128)))
    assert "batch 64 gives the most throughput, 5120 samples/s (1.6x batch 32)" in res.conclusion
    assert res.metrics["best_batch_size"] == 64
    assert res.row(config="batch 32")["epoch_s"] == pytest.approx(1875 / 100)


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


def test_cpu_traps_target_met_and_missed():
    met, missed, fastest = trap_results()
    assert "ran at 10.0 steps/s" in met.conclusion
    assert "ran at 90, 9.00x the naive rate (meets the 6x target)" in met.conclusion
    assert "PyNative, TrainOneStepCell from 15 to 60 steps/s (4.0x)" in met.conclusion
    assert bench.target_line(met).startswith("TARGET MET")
    assert "misses the 6x target" in missed.conclusion and bench.target_line(missed).startswith("TARGET MISSED")
    # the fastest of all without the course's fixes is named
    assert "fastest of all: GRAPH_MODE, TrainOneStepCell, ONEDNN_MAX_CPU_ISA=AVX2, 120" in fastest.conclusion
    assert traps.summarise_cpu_traps([], bench.TrapsParams(device="Ascend")).skipped


def find_rows(conv_uncapped, conv_capped):
    rows = []
    for case, conv, impl in (("no ISA cap", conv_uncapped, "brg:avx512_core"), ("ONEDNN_MAX_CPU_ISA=AVX2", conv_capped,
                                                                              "brg:avx2")):
        rows += [{"case": case, "kind": "layer", "layer": name, "ms": ms, "output": "?"}
                 for name, ms in (("conv1", conv / 2), ("relu+pool 1", 1.0), ("conv2", conv / 2), ("fc1", 1.0))]
        rows += [{"case": case, "kind": "onednn", "primitive": "convolution", "implementation": impl,
                  "propagation": "forward_training", "calls": 4, "total_ms": conv, "mean_ms": conv / 4}]
    return rows


def test_find_trap_found_and_not():
    res = traps.summarise_find_trap(shuffled(find_rows(40.0, 4.0)), bench.FindTrapParams())
    assert "take 40.0 ms of 42.0 ms (95%)" in res.conclusion and "'brg:avx512_core'" in res.conclusion
    assert "4.0 ms ('brg:avx2'), 10.0x less" in res.conclusion
    assert {r["kind"] for r in res.rows} == {"layer"} and len(res.extra["onednn"]["no ISA cap"]) == 1
    res = traps.summarise_find_trap(find_rows(4.0, 4.0), bench.FindTrapParams())
    assert "the cap does not help on this CPU" in res.conclusion


def pipeline_rows(pipe, mem, fed, on=20.0, off=20.0):
    rows = [rate("pipeline alone, 1 worker(s)", pipe / 2, key="batches_per_s"),
            rate("pipeline alone, 2 worker(s)", pipe, key="batches_per_s"),
            rate("training step, in-memory batches", mem, key="batches_per_s"),
            rate("training step fed by the pipeline", fed, key="batches_per_s"),
            rate("Model.train, sink mode off", off, key="batches_per_s"),
            rate("Model.train, sink mode on", on, key="batches_per_s")]
    return rows


def test_data_pipeline_bottleneck_or_not():
    res = pipeline.summarise_data_pipeline(shuffled(pipeline_rows(600, 100, 90)), bench.PipelineParams())
    assert "delivers 600 batches/s (2 worker(s)), 6.0x what the step consumes (100/s): not the bottleneck" \
        in res.conclusion
    assert "costs 10% of the step rate" in res.conclusion and "falls back" in res.conclusion
    res = pipeline.summarise_data_pipeline(pipeline_rows(50, 100, 45), bench.PipelineParams())
    assert "the pipeline IS the bottleneck" in res.conclusion and res.metrics["pipeline_is_bottleneck"]


def amp_rows(o3_rate, o3_acc):
    return [rate("O0", 50, label="amp O0", accuracy=0.95, trained_steps=100, wrapper="LeNet5"),
            rate("O1", 45, label="amp O1", accuracy=0.95, trained_steps=100, wrapper="LeNet5"),
            rate("O3", o3_rate, label="amp O3", accuracy=o3_acc, trained_steps=100, wrapper="_OutputTo32")]


def test_amp_slower_on_cpu_and_faster_elsewhere():
    res = amp.summarise_amp(shuffled(amp_rows(20, 0.90)), bench.AmpParams(levels=("O0", "O1", "O3")))
    assert "amp O3 ran 0.40x, slower than O0" in res.conclusion and "5.0 points lower" in res.conclusion
    assert "fastest level here was O0" in res.conclusion
    res = amp.summarise_amp(amp_rows(150, 0.95), bench.AmpParams(levels=("O0", "O1", "O3"), device="Ascend"))
    assert res.conclusion.startswith("On Ascend") and "3.0x, faster than O0" in res.conclusion
    assert "points lower" not in res.conclusion and "fastest level here was O3" in res.conclusion


def shape_rows(changing_compiles):
    sizes = [64, 57, 64, 57, 64, 57, 64, 57]
    changing = [2.0, 2.0 if changing_compiles else 0.01] + [0.01] * 6
    return [{"config": "changing", "label": "a new shape", "sizes": sizes, "per_call_s": changing},
            {"config": "dynamic", "label": "dynamic", "sizes": sizes, "per_call_s": [2.5] + [0.012] * 7},
            {"config": "one shape", "label": "one", "sizes": [64] * 8, "per_call_s": [2.0] + [0.01] * 7}]


def test_dynamic_shapes_recompiles_or_not():
    p = bench.ShapesParams(n_shapes=2)
    res = shapes.summarise_dynamic_shapes(shuffled(shape_rows(True)), p)
    assert res.conclusion.startswith("2 batch shapes cost 2 compilations (4.0 s of 4.1 s in 8 calls)")
    assert "did not recompile" not in res.conclusion
    res = shapes.summarise_dynamic_shapes(shape_rows(False), p)
    assert "Changing shapes did not recompile here" in res.conclusion


def test_compile_calls_ignores_a_slow_step():
    assert bench.compile_calls([1.0, 0.01, 0.9, 0.01, 0.05, 0.01]) == [0, 2]   # 0.05: busy, not compiling
    assert bench.compile_calls([]) == []


def accuracy_rows():
    """Made-up time-to-accuracy rows: the best run's, and the best and the naive run's (8x slower)."""
    best = [{"run": "best", "target": t, "step": s, "train_s": sec, "curve": [{"step": 1}]}
            for t, s, sec in ((0.985, 1000, 10.0), (0.99, 2000, 20.0))]
    return best, best + [{"run": "naive", "target": t, "step": s, "train_s": sec, "curve": []}
                         for t, s, sec in ((0.985, 1000, 80.0), (0.99, 2000, 160.0))]


def step_rates(naive, best=100.0):
    """The two step rates a QUICK run measures the same way (in-memory, fresh processes) for its estimate."""
    return [{"run": "naive step rate", "steps_per_s": naive}, {"run": "best step rate", "steps_per_s": best}]


def test_time_to_accuracy_measured_estimated_and_missed():
    p = bench.TimeToAccuracyParams(targets=(0.985, 0.99))
    best, rows = accuracy_rows()
    res = accuracy.summarise_time_to_accuracy(shuffled(rows), p)
    assert "To 99.0% test accuracy the best settings" in res.conclusion and "8.0x faster" in res.conclusion
    assert "(measured)" in res.conclusion and res.metrics["time_to_99_0_s"] == 20.0
    slower = accuracy.summarise_time_to_accuracy(best + step_rates(200.0), p)
    assert "2.0x SLOWER" in slower.conclusion
    # the estimate scales the best run's measured time (input pipeline included) by the rate ratio
    est = accuracy.summarise_time_to_accuracy(best + step_rates(25.0), p)
    assert "(estimated)" in est.conclusion and est.row(config="0.990")["naive_s"] == pytest.approx(80.0)
    missed = [dict(r, step=None, train_s=None) if r["target"] == 0.99 else r for r in best]
    res = accuracy.summarise_time_to_accuracy(missed + step_rates(25.0), p)
    assert "The 99.0% target was not reached within the 60 s limit" in res.conclusion


def test_train_to_accuracy_summary():
    rows = [{"target": 0.9, "step": 50, "train_s": 3.0}, {"target": 0.99, "step": None, "train_s": None}]
    assert accuracy.summarise_train_to_accuracy(rows, bench.TrainParams(targets=(0.9, 0.99))).conclusion \
        == "Reached 90.0% after 3 s."
    none = [dict(rows[1])]
    assert "No target reached" in accuracy.summarise_train_to_accuracy(none, bench.TrainParams(targets=(0.99,))
                                                                        ).conclusion


class FakeFit:
    def __init__(self):
        self.evals, self.global_step, self.train_seconds = [], 0, 0.0


def test_stop_when_stops_fit_at_the_targets_or_the_limit():
    stop = bench.StopWhen((0.99, 0.98), time_limit=100)
    r = FakeFit()
    for step, acc in ((100, 0.97), (200, 0.985)):
        r.global_step, r.train_seconds = step, step / 10
        r.evals.append({"step": step, "accuracy": acc, "train_seconds": step / 10})
        assert stop(r) is False
    assert list(stop.reached) == [0.98]
    r.global_step = 300
    r.evals.append({"step": 300, "accuracy": 0.991, "train_seconds": 30})
    assert stop(r) is True
    assert stop.reached[0.99]["step"] == 300
    late = bench.StopWhen((0.99,), time_limit=5)
    r = FakeFit()
    r.global_step, r.train_seconds = 10, 6.0
    assert late(r) is True
    assert late.reached == {}


def test_sink_mode_summary():
    rows = [rate("sink off", 100, key="batches_per_s"), rate("sink on, sink_size 10", 300, key="batches_per_s")]
    res = sink.summarise_sink_mode(shuffled(rows), bench.SinkParams(device="Ascend", sink_sizes=(10,)))
    assert "the fastest was sink on, sink_size 10 at 300 (3.0x, faster than sink off)" in res.conclusion
    rows[1] = rate("sink on, sink_size 10", 90, key="batches_per_s")
    assert "no sink size beat it" in sink.summarise_sink_mode(rows, bench.SinkParams(sink_sizes=(10,))).conclusion
