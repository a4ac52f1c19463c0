"""Dry run of the Ascend-only experiments: selected only for Ascend and parameterised as intended,
without the hardware (the worker process is replaced by a recorder returning made-up rows)."""

import pytest

from course_utils import bench, runtime
from course_utils.bench import experiments

ASCEND_ONLY = {"sink_mode", "amp_loss_scale", "jit_levels"}
CPU_ONLY = {"cpu_traps", "find_trap", "pool_cap"}


@pytest.mark.parametrize("device", ["CPU", "cpu", "GPU", "Ascend", "ascend"])
def test_selection_is_a_function_of_the_device(device):
    chosen = set(bench.select_experiments(device))
    is_ascend = device.lower() == "ascend"
    assert (ASCEND_ONLY <= chosen) == is_ascend and not (ASCEND_ONLY & chosen and not is_ascend)
    assert (CPU_ONLY <= chosen) == (device.lower() == "cpu") and not (CPU_ONLY & chosen and device.lower() != "cpu")
    assert {"modes", "styles", "amp", "time_to_accuracy"} <= chosen


def test_unknown_device_is_rejected():
    with pytest.raises(ValueError, match="unknown device 'tpu'"):
        bench.select_experiments("tpu")


def test_ascend_only_experiment_on_cpu_is_skipped_with_a_reason():
    res = bench.run_experiment("sink_mode", device="CPU")
    assert res.skipped == "sink_mode is measured on Ascend only, not CPU"


@pytest.fixture
def recorded(monkeypatch):
    calls = []

    def fake_worker(name, params, env=None, timeout=0, cwd_temp=False):
        calls.append({"name": name, "params": params, "env": env, "cwd_temp": cwd_temp})
        exp = experiments.get(name)
        if name == "sink_mode":
            rows = [{"config": c, "label": c, "batches_per_s": v, "min_batches_per_s": v, "max_batches_per_s": v}
                    for c, v in (("sink off", 100.0), ("sink on, sink_size 100", 400.0))]
        elif exp.measure is experiments.amp.measure_amp:
            rows = [{"config": lv, "label": f"amp {lv}", "steps_per_s": s, "min_steps_per_s": s, "max_steps_per_s": s,
                     "accuracy": 0.97, "trained_steps": 100, "wrapper": "x", "first_call_s": 1.0}
                    for lv, s in zip(params.levels, (100.0, 250.0, 260.0))]
        else:
            rows = [{"config": c, "label": bench.Spec.parse(c).label, "steps_per_s": 50.0 + i, "min_steps_per_s": 50.0,
                     "max_steps_per_s": 51.0 + i, "first_call_s": 2.0} for i, c in enumerate(params.specs)]
        return {"rows": rows, "header": "fake Ascend"}, ""

    monkeypatch.setattr(experiments, "run_worker", fake_worker)
    return calls


def test_ascend_experiments_are_parameterised_correctly(recorded):
    results = {name: bench.run_experiment(name, device="Ascend", quick=True) for name in sorted(ASCEND_ONLY)}
    by_name = {c["name"]: c for c in recorded}
    assert set(by_name) == ASCEND_ONLY      # each measured once, in its own worker
    for call in recorded:
        assert call["params"].device == "Ascend"
        assert call["env"] == runtime.cpu_fix_env("Ascend") == {}   # no CPU fixes on Ascend
    amp = by_name["amp_loss_scale"]["params"]
    assert amp.levels == ("O0", "O2", "O3") and amp.loss_scale == 1024.0 and by_name["amp_loss_scale"]["cwd_temp"]
    assert set(by_name["jit_levels"]["params"].specs) >= {"pynative/jit:O0", "pynative/jit:O1", "graph/cell"}
    assert all(s.split(":")[-1] in bench.JIT_LEVELS for s in by_name["jit_levels"]["params"].specs if ":" in s)
    sink = by_name["sink_mode"]["params"]
    assert sink.sink_sizes == (1, 10, 100) and sink.batches == 200
    assert "On Ascend" in results["amp_loss_scale"].conclusion and results["amp_loss_scale"].header == "fake Ascend"
    assert "sink_size 100 at 400" in results["sink_mode"].conclusion
    assert results["jit_levels"].conclusion.startswith(("Fastest beyond", "Tied at the top"))
    assert all(r.conditions is not None for r in results.values())
