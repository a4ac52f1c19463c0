"""course_utils.bench: the timing harness (fake steps on a fake clock: fast and exact), the result
plumbing, the CLI, and one real worker process (slow)."""

import json
import os
import subprocess
import sys
import time

import pytest

from course_utils import bench


class FakeClock:
    """A clock that only moves when a fake step "works": deterministic timings."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


class LazyResult:
    """An asynchronous result: the work it stands for is only waited for when it is read."""

    def __init__(self, clock, seconds):
        self.clock, self.seconds, self.read = clock, seconds, False

    def asnumpy(self):
        if not self.read:
            self.clock.sleep(self.seconds)
            self.read = True
        return 0.0


def compiling_step(clock, compile_s=2.0, step_s=0.01):
    """First call costs compile_s (a compilation), later ones step_s."""
    calls = []

    def step():
        calls.append(1)
        clock.sleep(compile_s if len(calls) == 1 else step_s)
        return 0.0

    step.calls = calls
    return step


def test_first_call_is_reported_apart_and_excluded_from_steady_state():
    clock = FakeClock()
    t = bench.time_steps(compiling_step(clock), steps=10, repeats=4, warmup=2, clock=clock)
    assert t.first_call_s == pytest.approx(2.0)
    assert t.warmup_s == [pytest.approx(0.01)]
    assert t.steps_per_s == pytest.approx(100.0)
    assert t.repeat_s == [pytest.approx(0.1)] * 4
    assert t.spread == (pytest.approx(100.0), pytest.approx(100.0))


def test_naive_timing_includes_compile_and_is_wrong():
    clock = FakeClock()
    rate = bench.naive_time(compiling_step(clock), steps=10, clock=clock)
    assert rate == pytest.approx(10 / 2.09)  # what a naive benchmark would report, ~21x too slow


def test_completion_is_forced_inside_the_timed_region():
    clock = FakeClock()
    step = lambda: LazyResult(clock, 0.02)  # returns at once; the work happens on read
    t = bench.time_steps(step, steps=5, repeats=3, clock=clock)
    assert t.steps_per_s == pytest.approx(50.0)
    # without forcing, the same step looks infinitely fast
    assert bench.time_steps(step, steps=5, repeats=3, clock=clock, sync=lambda r: r).repeat_s == [0.0] * 3


def test_last_result_is_forced_even_when_not_forcing_each_step():
    clock = FakeClock()
    pending = []

    def step():  # work queues up; reading the newest result waits for everything queued
        pending.append(0.01)
        return Queue()

    class Queue:
        def asnumpy(self):
            clock.sleep(sum(pending))
            pending.clear()

    t = bench.time_steps(step, steps=10, repeats=3, clock=clock, sync_each=False)
    assert t.steps_per_s == pytest.approx(100.0)


def test_force_reaches_into_containers():
    clock = FakeClock()
    out = bench.force((LazyResult(clock, 1.0), [LazyResult(clock, 2.0)], {"a": LazyResult(clock, 3.0)}, 5))
    assert clock.now == pytest.approx(6.0)
    assert out[-1] == 5


def test_repeats_median_and_spread():
    clock = FakeClock()
    costs = iter([0.5] * 1 + [0.01] * 2 + [0.01] * 10 + [0.02] * 10 + [0.01] * 10 + [0.04] * 10 + [0.01] * 10)

    def step():
        clock.sleep(next(costs))

    t = bench.time_steps(step, steps=10, repeats=5, warmup=3, clock=clock)
    assert t.steps_per_s == pytest.approx(100.0)          # the median repeat, not the mean
    assert t.spread == (pytest.approx(25.0), pytest.approx(100.0))
    assert t.as_dict()["repeats"] == 5


def test_configurations_alternate_and_warm_up_first():
    clock = FakeClock()
    order = []

    def make(name, cost):
        def step():
            order.append(name)
            clock.sleep(cost)
        return step

    before = []
    res = bench.compare({"A": bench.Config(make("A", 0.01), before=lambda: before.append("A")),
                         "B": make("B", 0.02), "C": make("C", 0.04)},
                        steps=1, repeats=4, warmup=1, clock=clock)
    assert "".join(order) == "ABC" + "ABC" + "CBA" + "ABC" + "CBA"
    assert before == ["A"] * 5        # its hook ran before its warm-up and before each repeat
    assert [round(t.steps_per_s) for t in res.values()] == [100, 50, 25]
    table = bench.format_table(res, baseline="A")
    assert "x A" in table and "0.25" in table
    medians = bench.format_table(res, baseline="A", medians=True)   # beside a paired verdict: named for what it is
    assert "medians' ratio" in medians and "x A" not in medians and "0.25" in medians


def test_cycle_feeds_batches_in_turn():
    seen = []
    step = bench.cycle(lambda x, y: seen.append((x, y)), [(1, 2), (3, 4)])
    for _ in range(3):
        step()
    assert seen == [(1, 2), (3, 4), (1, 2)]
    with pytest.raises(ValueError, match="at least one batch"):
        bench.cycle(print, [])


def test_real_sleeps_with_the_real_clock():
    calls = []

    def step():
        calls.append(1)
        time.sleep(0.05 if len(calls) == 1 else 0.002)

    t = bench.time_steps(step, steps=5, repeats=3, warmup=2)
    assert t.first_call_s >= 0.05
    assert t.median_step_s >= 0.002
    assert t.median_step_s < 0.05   # the compile-like first call is not in the steady state


@pytest.mark.parametrize("kwargs, message", [
    ({"steps": 0}, "steps and repeats"), ({"repeats": 0}, "steps and repeats"), ({"warmup": 0}, "first call"),
])
def test_bad_counts_are_rejected(kwargs, message):
    with pytest.raises(ValueError, match=message):
        bench.time_steps(lambda: None, **kwargs)


def test_bad_step_is_rejected():
    with pytest.raises(TypeError, match="callable"):
        bench.compare({"x": 3})
    with pytest.raises(ValueError, match="at least one"):
        bench.compare({})


def test_spec_parsing():
    s = bench.Spec.parse("pynative/jit:O1")
    assert (s.mode, s.style, s.level) == ("pynative", "jit", "O1")
    assert str(bench.Spec.parse("graph/cell")) == "graph/cell"
    assert "TrainOneStepCell" in bench.Spec.parse("graph/cell").label
    for bad, msg in [("graph", "mode>/<style"), ("eager/cell", "bad mode"), ("graph/loop", "bad step style"),
                     ("graph/cell:O1", "only applies"), ("graph/jit:O9", "bad jit level"),
                     ("pynative/jit:O2", "O2, the GE backend, was removed"), ("pynative/jit_cell:O3", "only O0")]:
        with pytest.raises(ValueError, match=msg):
            bench.Spec.parse(bad)


@pytest.mark.slow
def test_jit_levels_match_what_mindspore_accepts(tmp_path):
    """Spec.parse accepts exactly the jit levels MindSpore 2.10's jit accepts (O2 was removed)."""
    code = ("import mindspore as ms\n"
            "def f(x):\n    return x + 1\n"
            "for lv in ['O0', 'O1', 'O2', 'O3']:\n"
            "    try:\n        ms.jit(f, jit_level=lv)(ms.Tensor(1.0)); print(lv, 'ok')\n"
            "    except ValueError:\n        print(lv, 'rejected')\n")
    script = tmp_path / "levels.py"   # a file: jit reads the function's source
    script.write_text(code)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600,
                         env=bench.env_without_cpu_fixes())
    accepted = tuple(line.split()[0] for line in out.stdout.splitlines() if line.endswith(" ok"))
    assert accepted == bench.JIT_LEVELS, out.stdout + out.stderr[-2000:]


def test_params_defaults_and_validation():
    assert bench.Common(quick=True).repeats < bench.Common(quick=False).repeats
    assert bench.Common(device="ascend").device == "Ascend"
    assert len(bench.ModesParams(quick=True).specs) < len(bench.ModesParams(quick=False).specs)
    assert bench.TrapsParams(quick=True).jit_pipeline_case is False
    with pytest.raises(ValueError, match="batch sizes"):
        bench.BatchSizesParams(batch_sizes=(0, 64))
    with pytest.raises(ValueError, match="bad jit level"):
        bench.ModesParams(specs=("pynative/jit:O2",))
    with pytest.raises(ValueError, match="amp levels"):
        bench.AmpParams(levels=("O4",))
    with pytest.raises(ValueError, match="n_shapes"):
        bench.ShapesParams(n_shapes=20)
    with pytest.raises(ValueError, match="targets"):
        bench.TrainParams(targets=(99,))


def test_params_travel_as_json():
    p = bench.AmpParams(quick=False, levels=("O0", "O2"), loss_scale=512.0, device="cpu")
    q = bench.AmpParams.from_json(p.as_json())
    assert q == p and q.levels == ("O0", "O2") and q.device == "CPU" and q.train_steps == 600


def test_env_without_cpu_fixes_controls_the_load_time_variables(monkeypatch):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "AVX2")
    monkeypatch.setenv("MS_DEV_HOST_BLOCKING_RUN", "1")
    monkeypatch.setenv("MS_DEV_JIT_PIPELINE", "0")
    env = bench.env_without_cpu_fixes({"ONEDNN_VERBOSE": "1"})
    assert not {"ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN", "MS_DEV_JIT_PIPELINE"} & set(env)
    assert env["ONEDNN_VERBOSE"] == "1" and env["GLOG_v"] == "3" and env["COURSE_CPU_FIXES"] == "0"
    assert bench.env_without_cpu_fixes({"MS_DEV_HOST_BLOCKING_RUN": 1})["MS_DEV_HOST_BLOCKING_RUN"] == "1"


def test_child_env_sets_onednn_variables_under_their_older_names_too(monkeypatch):
    """MindSpore 2.7.1's oneDNN 2.2 reads only DNNL_MAX_CPU_ISA and DNNL_VERBOSE: a case that sets the new name must
    reach it too (before, 08's capped case ran uncapped on 2.7.1 and its oneDNN log was empty)."""
    monkeypatch.setenv("DNNL_VERBOSE", "1")   # inherited: dropped like any load-time variable
    env = bench.env_without_cpu_fixes({"ONEDNN_MAX_CPU_ISA": "AVX2"})
    assert env["DNNL_MAX_CPU_ISA"] == "AVX2" and "DNNL_VERBOSE" not in env
    env = bench.env_without_cpu_fixes({"ONEDNN_VERBOSE": "1", "ONEDNN_MAX_CPU_ISA": None})
    assert env["DNNL_VERBOSE"] == "1" and "DNNL_MAX_CPU_ISA" not in env
    assert bench.env_without_cpu_fixes({"ONEDNN_VERBOSE": "1", "DNNL_VERBOSE": "0"})["DNNL_VERBOSE"] == "0"


def test_parse_onednn_verbose():
    text = "\n".join([
        "onednn_verbose,info,oneDNN v3.1.0",
        "onednn_verbose,exec,cpu,convolution,ref:any,forward_training,src_f32::blocked:abcd::f0,,"
        "alg:convolution_direct,mb64_ic1oc6_ih28oh24kh5,3.5",
        "onednn_verbose,exec,cpu,convolution,ref:any,forward_training,src_f32::blocked:abcd::f0,,"
        "alg:convolution_direct,mb64_ic1oc6_ih28oh24kh5,4.5",
        "onednn_verbose,primitive,exec,cpu,convolution,brg:avx2,backward_data,src_f32::blocked:abcd::f0,,"
        "alg:convolution_direct,mb64,1.0",
        "unrelated line",
        # oneDNN 2.2 (MindSpore 2.7.1, DNNL_VERBOSE=1): another prefix, no version or "primitive" field
        "dnnl_verbose,exec,cpu,matmul,gemm:jit,undef,src_f32::blocked:ab:f0 wei_f32::blocked:ba:f0,,,64x256:256x120,"
        "0.5",
    ])
    rows = bench.parse_onednn_verbose(text)
    assert rows[0] == {"primitive": "convolution", "implementation": "ref:any", "propagation": "forward_training",
                       "calls": 2, "total_ms": 8.0, "mean_ms": 4.0}
    assert rows[1]["implementation"] == "brg:avx2" and rows[1]["calls"] == 1
    assert rows[2] == {"primitive": "matmul", "implementation": "gemm:jit", "propagation": "undef",
                       "calls": 1, "total_ms": 0.5, "mean_ms": 0.5}


def test_result_round_trip_and_json(tmp_path):
    cond = bench.Conditions(cpus=2, load_before=(0.1, 0.1, 0.1), load_after=(0.5, 0.2, 0.1), seconds=10.0,
                            others_cores=0.05)
    r = bench.Result("x", [{"config": "a", "v": 1.5}], ["config", "v"], "a is 1.5", {"m": 1.0}, "hdr",
                     conditions=cond)
    back = bench.Result.from_dict(json.loads(json.dumps(r.as_dict())))
    assert back.row(config="a")["v"] == 1.5 and back.conditions.load_after == [0.5, 0.2, 0.1]
    with pytest.raises(KeyError, match="no row"):
        r.row(config="b")
    assert "a is 1.5" in str(r) and "hdr" in str(r) and "load average 0.10 before / 0.50 after" in str(r)
    assert "WARNING" not in str(r)
    path = tmp_path / "out" / "b.json"
    bench.save_json([r], str(path))
    data = json.loads(path.read_text())
    assert data["results"]["x"]["metrics"] == {"m": 1.0} and "CPUs" in data["header"]


def test_busy_machine_warns():
    busy = bench.Conditions(cpus=2, load_before=(3.0, 2, 2), load_after=(4.0, 3, 2), seconds=60, others_cores=1.4)
    assert busy.busy and "only ratios" in busy.warning()
    r = bench.Result("x", [], ["config"], "c", conditions=busy)
    assert "WARNING: the machine was busy" in str(r)
    # without /proc/stat the load average decides, allowing for the experiment's own work
    assert not bench.Conditions(2, (1.5, 1, 1), (2.5, 1, 1), 60, None).busy
    assert bench.Conditions(2, (3.5, 1, 1), (4.0, 1, 1), 60, None).busy


def test_measuring_counts_only_other_processes():
    with bench.Measuring() as m:
        end = time.perf_counter() + 0.3
        while time.perf_counter() < end:   # this process keeps one core busy: not "others"
            pass
    c = m.conditions
    assert c.seconds >= 0.3 and c.cpus >= 1 and c.load_before is not None
    if c.others_cores is not None:          # Linux: /proc/stat
        assert c.others_cores < c.cpus      # our own busy loop is not counted as another process's


def test_the_tie_rule():
    assert bench.faster_beyond(111, 100, 10) and not bench.faster_beyond(109, 100, 10)
    assert not bench.faster_beyond(100, 111, 10)
    rows = [{"c": "a", "steps_per_s": 100}, {"c": "b", "steps_per_s": 95}, {"c": "d", "steps_per_s": 60}]
    assert [r["c"] for r in bench.leaders(rows, 10)] == ["a", "b"]    # a tie of two
    assert [r["c"] for r in bench.leaders(rows, 2)] == ["a"]          # a clear winner


def test_noise_floor_is_how_far_apart_two_medians_can_land_by_chance():
    def copy(rates):   # repeats of 10 steps at these steps/s
        return bench.Timing("copy", 1.0, [], [10 / r for r in rates], 10)

    quiet = [copy([100, 101, 99, 100, 100]), copy([100, 100, 101, 99, 100])]
    assert bench.noise_floor_pct(*quiet) < 2.5
    # medians that agree by luck do not make a small floor when the repeats scatter widely
    lucky = [copy([70, 100, 130, 100, 75]), copy([125, 100, 72, 100, 128])]
    assert lucky[0].steps_per_s == lucky[1].steps_per_s and bench.noise_floor_pct(*lucky) > 15
    # a gap the copies showed is never below the floor
    apart = [copy([100] * 5), copy([120] * 5)]
    assert bench.noise_floor_pct(*apart) == pytest.approx(20)
    assert bench.noise_floor_pct(*lucky) == bench.noise_floor_pct(*lucky)   # seeded: the same answer every time
    with pytest.raises(ValueError, match="at least two timings"):
        bench.noise_floor_pct(copy([100]))
    # result rows (repeat_s and steps) give the same floor as their Timings
    rows = [dict(t.as_dict(), steps=t.steps) for t in lucky]
    assert bench.noise_floor_pct(*rows) == pytest.approx(bench.noise_floor_pct(*lucky))


def test_a_column_of_numbers_below_one_has_two_decimals_throughout():
    rows = [{"x": "a", "first_call_s": 0.0877, "rate": 0.665, "tiny": 0.0123, "big": 2.5},
            {"x": "b", "first_call_s": 1.1, "rate": 0.55, "tiny": 0.05, "big": 12.25}]
    lines = bench.format_rows(rows, ["x", "first_call_s", "rate", "tiny", "big"]).splitlines()
    assert lines[2].split() == ["a", "0.09", "0.67", "0.0123", "2.5"]
    assert lines[3].split() == ["b", "1.10", "0.55", "0.05", "12.2"]
    ratios = bench.format_rows([{"vs_baseline": 1.0}, {"vs_baseline": 2.43}], ["vs_baseline"]).splitlines()
    assert [line.strip() for line in ratios[2:]] == ["1.00", "2.43"]   # ratios: two decimals, as in the sentences


def test_result_report_shows_a_few_rows_and_says_where_the_rest_are():
    rows = [{"x": i, "ms": float(i)} for i in range(10)]
    res = bench.Result("demo", rows, ["x", "ms"], "done", {}, "h")
    text = res.report(3, "ms", "runs/demo.json")
    assert "3 of 10 rows shown (largest ms first); all of them in runs/demo.json" in text
    assert text.splitlines()[3].split()[0] == "9" and str(res) == res.report() and "runs/demo.json" not in str(res)


def test_cli_lists_and_rejects_unknown_experiments():
    out = subprocess.run([sys.executable, "-m", "course_utils.bench", "list"], capture_output=True, text=True)
    assert out.returncode == 0 and "cpu_traps" in out.stdout and "headline" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "course_utils.bench", "run", "nonsense"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown experiment" in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "course_utils.bench", "run", "modes", "--specs", "graph/loop"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "bad step style" in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "course_utils.bench", "run", "modes", "--specs", "pynative/jit:O2"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "was removed" in bad.stderr


def test_harness_import_does_not_load_mindspore():
    code = ("import sys, course_utils.bench, course_utils.bench.cli; "
            "print('mindspore' in sys.modules, 'course_utils.bench.experiments.traps' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "False True"   # the whole package loaded, MindSpore not


@pytest.mark.slow
def test_worker_process_gets_the_environment_it_is_given():
    """One real MindSpore worker: the env it was given is the env it ran with, and it measured."""
    params = bench.StepRatesParams(quick=True, steps=2, repeats=1, specs=("graph/cell",))
    out, _ = bench.run_worker("step_rates", params, env={"MS_DEV_HOST_BLOCKING_RUN": "1"})
    row = bench.pick(out["rows"], config="graph/cell")
    assert row["env"] == {"ONEDNN_MAX_CPU_ISA": "", "MS_DEV_HOST_BLOCKING_RUN": "1", "MS_DEV_JIT_PIPELINE": ""}
    assert row["steps_per_s"] > 0 and row["first_call_s"] > 0 and row["repeats"] == 1
    assert "MindSpore 2.10" in out["header"] and os.environ.get("COURSE_CPU_FIXES") != "0"


def test_worker_failure_is_reported_with_its_error():
    with pytest.raises(bench.WorkerError, match="unknown experiment"):
        bench.run_worker("nonsense", bench.Common())


def test_profiler_output_is_read_back(tmp_path):
    run = tmp_path / "vm_1_20260101_ascend_ms"
    (run / "FRAMEWORK").mkdir(parents=True)
    (run / "ASCEND_PROFILER_OUTPUT").mkdir()
    (run / "ASCEND_PROFILER_OUTPUT" / "trace_view.json").write_text("[]")
    (run / "FRAMEWORK" / "cpu_op_type_info_0.csv").write_text(
        "op_type,type_occurrences,execution_frequency(per-step),total_compute_time,avg_time(ms),percent\n"
        "MatMul,45,9,3.0,0.0667,0.01\nConv2D,10,2,45.0,4.5,0.2\nReLU,20,4,2.0,0.1,0.02\n")
    from course_utils.bench import profile

    assert profile.latest_run(str(tmp_path)) == str(run)
    rows = profile.op_type_times(str(run))
    assert [r["op_type"] for r in rows] == ["Conv2D", "MatMul", "ReLU"]
    assert rows[0]["calls_per_step"] == 2 and rows[0]["mean_ms"] == 4.5 and rows[0]["share_pct"] == pytest.approx(90)
    assert profile.output_files(str(run)) == ["ASCEND_PROFILER_OUTPUT/trace_view.json",
                                              "FRAMEWORK/cpu_op_type_info_0.csv"]
    with pytest.raises(FileNotFoundError, match="no profiler output"):
        profile.latest_run(str(tmp_path / "nothing"))
    with pytest.raises(FileNotFoundError, match="cpu_op_type_info"):
        profile.op_type_times(str(tmp_path))


def test_bench_scripts_show_their_usage():
    """The notebook's fresh-process scripts parse their arguments before MindSpore loads."""
    from support import NOTEBOOKS

    for script in ("bench_step.py", "bench_profile.py", "bench_torch.py"):
        out = subprocess.run([sys.executable, str(NOTEBOOKS / "scripts" / script), "--help"], capture_output=True,
                             text=True, timeout=300)
        assert out.returncode == 0 and "usage:" in out.stdout, out.stderr[-2000:]


def test_headline_prints_each_ratios_verdict_beside_it(tmp_path, capsys):
    """A ratio in the lesson's summary table carries the lab's verdict on it (a 1.2x within the floor is a tie)."""
    import time

    from course_utils.bench.notebook import Lab
    from course_utils.bench.report import Result

    lab = Lab(tmp_path, "graph")
    metrics = {"cell_vs_functional": 1.2, "cell_vs_functional_verdict": "tie", "model_train_steps_per_s": 45.7}
    lab.results["styles"] = Result("styles", [], [], "", metrics)
    figures = lab.headline(["styles"], 19.7, time.perf_counter())
    out = capsys.readouterr().out
    assert "verdict" in out and "tie (within the noise floor)" in out
    assert "cell_vs_functional_verdict" not in figures and figures["cell_vs_functional"] == 1.2
    line = next(line for line in out.splitlines() if "Model.train" in line)
    assert "noise floor" not in line   # a rate carries no verdict


def test_paired_ratio_pairs_the_rounds_of_one_compare():
    """A load that slows both configurations in the same round cancels in the per-round ratio."""
    a = bench.Timing("a", 1.0, [], [1.0, 2.0, 1.0, 3.0, 1.0], steps=10)   # 10, 5, 10, 3.3, 10 steps/s
    b = bench.Timing("b", 1.0, [], [1.1, 2.2, 1.1, 3.3, 1.1], steps=10)   # the same rounds, always 10% slower
    med, lo, hi = bench.paired_ratio(a, b)
    assert med == pytest.approx(1.1) and lo == pytest.approx(1.1) and hi == pytest.approx(1.1)
    assert bench.verdict(a, b, 5.0) == "undecided"   # the medians' ranges overlap; the pairs do not scatter
    with pytest.raises(ValueError, match="same number"):
        bench.paired_ratio(a, bench.Timing("c", 1.0, [], [1.0], steps=10))


def test_a_configuration_can_run_its_own_number_of_steps_per_repeat():
    """``Config.steps`` overrides ``compare``'s steps for that configuration (the batch-size sweep gives every size
    about the same time a round); its Timing counts those steps, so its rate is still per step."""
    clock = FakeClock()

    def step(seconds):
        def run():
            clock.sleep(seconds)
            return 0.0
        return run

    out = bench.compare({"short": bench.Config(step(0.01)), "long": bench.Config(step(0.05), steps=3)},
                        steps=10, repeats=2, warmup=1, sync=lambda r: r, clock=clock)
    assert out["short"].steps == 10 and out["short"].repeat_s == pytest.approx([0.1, 0.1])
    assert out["long"].steps == 3 and out["long"].repeat_s == pytest.approx([0.15, 0.15])
    assert out["long"].steps_per_s == pytest.approx(20.0) and out["short"].steps_per_s == pytest.approx(100.0)


def test_rate_range_reads_a_timing_or_a_row_alike():
    """``rate_range``: (median, slowest, fastest) of a Timing or of a row; what the verdicts and the lesson's
    forced-vs-not-forced sentence read, whichever of the two they are given."""
    from course_utils.bench.experiments.common import forcing_conclusion

    t = bench.Timing("t", 1.0, [], [1.0, 0.5, 2.0], steps=10)   # 10, 20, 5 steps/s
    assert bench.rate_range(t) == pytest.approx((10.0, 5.0, 20.0))
    row = {"steps_per_s": 12.0, "min_steps_per_s": 11.0, "max_steps_per_s": 13.0}
    assert bench.rate_range(row) == (12.0, 11.0, 13.0)
    assert bench.rate_range({"samples_per_s": 9.0}, "samples_per_s") == (9.0, 9.0, 9.0)   # no range: the median
    with pytest.raises(ValueError, match="steps_per_s only"):
        bench.rate_range(t, "samples_per_s")
    u = bench.Timing("u", 1.0, [], [0.5, 0.25, 1.0], steps=10)   # twice t's rate in every round
    assert forcing_conclusion(t, u, True) == forcing_conclusion(t.as_dict(), u.as_dict(), True)
    assert forcing_conclusion(t, u, True).startswith("Not forced over forced, steps/s over steps/s round by round: "
                                                     "2.00x (95% interval 2.00-2.00), above 1.00: faster.")


def test_a_paired_interval_of_five_rounds_is_named_as_their_range():
    """With five rounds the 95% bootstrap interval of the median is the lowest to the highest per-round ratio, and
    ``spans_rounds`` says so (the lab then names it "lowest-highest"); with twenty rounds it is narrower."""
    a = bench.Timing("a", 1.0, [], [1.0, 1.0, 1.0, 1.0, 1.0], steps=10)
    b = bench.Timing("b", 1.0, [], [1.1, 1.2, 1.3, 1.4, 1.5], steps=10)   # ratios 1.1 ... 1.5
    med, lo, hi = bench.paired_ratio(a, b)
    assert (lo, hi) == pytest.approx((1.1, 1.5)) and bench.spans_rounds(a, b, lo, hi)
    many = [1.0 + 0.025 * i for i in range(20)]
    c, d = bench.Timing("c", 1.0, [], [1.0] * 20, steps=10), bench.Timing("d", 1.0, [], many, steps=10)
    assert not bench.spans_rounds(c, d, *bench.paired_ratio(c, d)[1:])


def test_interval_side_reads_a_paired_interval_as_printed():
    assert bench.interval_side(1.01, 1.20) == "above" and bench.interval_side(0.80, 0.99) == "below"
    assert bench.interval_side(0.95, 1.05) == "inside"
    # judged on the bounds as printed (2 decimals): 1.004 shows as 1.00, which holds 1
    assert bench.interval_side(1.004, 1.16) == "inside" and bench.interval_side(1.004, 1.16, digits=None) == "above"


def test_lesson_07s_table_columns_have_readable_titles_not_their_keys():
    cols = ["label", "steps_per_round", "min_samples_per_s", "max_samples_per_s", "epoch_s", "vs_baseline",
            "middle_half", "vs_reference"]
    head = bench.format_rows([dict.fromkeys(cols, 1.0)], cols).splitlines()[0]
    assert [t.strip() for t in head.split("  ") if t.strip()] == [
        "configuration", "steps a round", "min samples/s", "max samples/s", "s per epoch", "x first row",
        "samples/s, middle half of rounds", "x reference, paired"]


def test_conditions_name_one_cpu_in_the_singular():
    one = bench.Conditions(cpus=1, load_before=(0.5, 0.1, 0.1), load_after=(0.9, 0.2, 0.1), seconds=30.0,
                           others_cores=None)
    assert one.describe().startswith("conditions: 30 s on 1 CPU, 1-min load average 0.50 before")
    assert "on 2 CPUs," in bench.Conditions(2, (0.5, 0, 0), (0.5, 0, 0), 30.0, None).describe()


def test_cpu_busy_counts_only_the_given_cpus():
    # /proc/stat's cpu lines: user nice system idle iowait irq softirq steal; a pinned kernel counts its CPUs only
    from course_utils.bench import report
    lines = [["cpu", "300", "0", "100", "1000", "0", "0", "0", "0"],
             ["cpu0", "100", "0", "0", "500", "0", "0", "0", "0"],
             ["cpu1", "200", "0", "100", "500", "0", "0", "0", "0"]]
    tick = os.sysconf("SC_CLK_TCK")
    assert report._busy_from_stat(lines, None) == 400 / tick        # the aggregate line
    assert report._busy_from_stat(lines, {0}) == 100 / tick         # pinned to CPU 0: CPU 1's work not counted
    assert report._busy_from_stat(lines, {0, 1}) == 400 / tick
    assert report._busy_from_stat([["cpu0", "x"]], {0}) is None


def test_busy_warning_of_unalternated_timings():
    one = bench.Conditions(cpus=1, load_before=(3.0, 1, 1), load_after=(4.0, 1, 1), seconds=4.0, others_cores=0.9)
    assert "of that CPU meanwhile" in one.describe()
    assert "single, unalternated calls" in one.warning(alternated=False)
    assert "alternation" not in one.warning(alternated=False)
    assert "measured in alternation" in one.warning()
    r = bench.Result("x", [], [], "done", conditions=one, alternated=False)
    assert "single, unalternated calls" in str(r)
    assert bench.Result.from_dict(bench.Result("x", [], [], "done").as_dict()).alternated


LENET_OUTPUTS = {"conv1": "64x6x24x24", "relu+pool 1": "64x6x12x12", "conv2": "64x16x8x8", "relu+pool 2": "64x16x4x4",
                 "flatten": "64x256", "fc1": "64x120", "relu 1": "64x120", "fc2": "64x84", "relu 2": "64x84",
                 "fc3": "64x10"}


def test_layer_cost_rows_count_macs_and_time_per_mac():
    from course_utils.bench.experiments import traps
    from course_utils.models import LeNet5

    cases = ("no ISA cap", "ONEDNN_MAX_CPU_ISA=AVX2")
    rows = [{"case": c, "layer": name, "kind": "layer", "output": out,
             "ms": (10.0 if name.startswith("conv") else 1.0) * (1 if c == cases[0] else 0.5)}
            for c in cases for name, out in LENET_OUTPUTS.items()]
    rows.append({"case": cases[0], "kind": "onednn", "primitive": "convolution"})   # not a layer: skipped
    got = {r["layer"]: r for r in traps.layer_cost_rows(rows, cases, LeNet5())}
    # conv1: 64x6x24x24 outputs x 1 channel x 5x5, forward and the weights' gradient only (no input gradient)
    assert got["conv1"]["mmacs"] == pytest.approx(64 * 6 * 24 * 24 * 25 * 2 / 1e6)
    assert got["conv2"]["mmacs"] == pytest.approx(64 * 16 * 8 * 8 * 6 * 25 * 3 / 1e6)   # and the input's gradient
    assert got["fc1"]["mmacs"] == pytest.approx(64 * 120 * 256 * 3 / 1e6)
    assert got["relu+pool 1"]["mmacs"] == 0 and got["relu+pool 1"]["ns_a"] is None
    assert got["conv1"]["ns_a"] == pytest.approx(1e6 * 10.0 / (64 * 6 * 24 * 24 * 25 * 2))
    assert sum(float(r["macs_pct"]) for r in got.values()) == pytest.approx(100, abs=0.3)
    conv = traps.ns_per_mac(list(got.values()), "Conv2d")
    assert conv[1] == pytest.approx(conv[0] / 2)
    text = traps.format_layer_costs(list(got.values()))
    assert text.splitlines()[0].split()[:3] == ["layer", "MMACs", "%"]
    assert text.splitlines()[-1].startswith(f"Per MAC, the convolutions took {conv[0]:.2f} ns without the cap")


def test_cap_price_rows_read_both_tools_per_step():
    from course_utils.bench.experiments import traps

    cases = ("no ISA cap", "ONEDNN_MAX_CPU_ISA=AVX2")
    op_rows = {c: [{"op_type": "MaxPoolGrad", "mean_ms": 0.5 * (i + 1), "calls_per_step": 2},
                   {"op_type": "Conv2DBackpropFilter", "mean_ms": 1.0, "calls_per_step": 2}]
               for i, c in enumerate(cases)}
    onednn = {c: [{"primitive": "pooling", "propagation": "backward_data", "total_ms": 4.0 * (i + 1),
                   "implementation": ("jit:avx512_core", "simple_nchw:any")[i]},
                  {"primitive": "pooling", "propagation": "forward_training", "total_ms": 4.0,
                   "implementation": ("jit:avx512_core", "simple_nchw:any")[i]},
                  {"primitive": "convolution", "propagation": "backward_data", "total_ms": 99.0,
                   "implementation": "jit_uni_ncsp:conv+ref:any"},   # another propagation: not counted
                  {"primitive": "convolution", "propagation": "backward_weights", "total_ms": 8.0,
                   "implementation": "x64:gemm:jit"}]
              for i, c in enumerate(cases)}
    price = {r["op"]: r for r in traps.cap_price_rows(op_rows, onednn, cases, logged_steps=4)}
    assert price["MaxPoolGrad"]["prof"] == "1.00 -> 2.00" and price["MaxPoolGrad"]["log"] == "2.00 -> 3.00"
    assert price["MaxPoolGrad"]["impl"] == "jit:avx512_core -> simple_nchw:any"
    assert price["Conv2DBackpropFilter"] == {"op": "Conv2DBackpropFilter", "runs": "convolution backward_weights",
                                             "impl": "x64:gemm:jit", "prof": "2.00 -> 2.00", "log": "2.00 -> 2.00"}
    assert traps.format_cap_price(list(price.values())).splitlines()[0].split()[0] == "operator"


def test_lab_run_with_env_measures_in_a_fresh_process_with_exactly_that_env_and_keeps_it_apart(tmp_path, monkeypatch,
                                                                                               capsys):
    """Lesson 07 times part 2's pairs again without host blocking: ``env`` goes to the worker as the whole of its CPU
    settings, and the result is kept (and saved) under ``label``, beside the kernel's own ``modes``."""
    from course_utils.bench import experiments
    from course_utils.bench.notebook import Lab

    seen = {}

    def fake_worker(name, params, env=None, cwd_temp=False):
        seen.update(name=name, env=dict(env))
        rows = [bench.Timing(s, 0.5, [], [0.1] * params.repeats, steps=params.steps, batch_size=64).as_dict()
                | {"config": s, "label": s} for s in params.specs]
        return {"rows": rows, "header": "hdr"}, ""

    monkeypatch.setattr(experiments, "run_worker", fake_worker)
    lab = Lab(tmp_path, "graph")
    params = bench.ModesParams(quick=True, device="CPU", repeats=2, steps=3, specs=("pynative/cell", "graph/cell"))
    res = lab.run("modes", params, env={"ONEDNN_MAX_CPU_ISA": "AVX2"}, label="modes_defaults")
    assert seen == {"name": "modes", "env": {"ONEDNN_MAX_CPU_ISA": "AVX2"}}   # no host blocking added
    assert lab.results == {"modes_defaults": res} and (tmp_path / "modes_defaults.json").exists()
    with pytest.raises(ValueError, match="isolated experiment only"):
        experiments.run_experiment("cpu_traps", bench.TrapsParams(device="CPU"), env={"X": "1"})


def test_rate_bars_greys_the_controls_a_copy_and_an_again():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from course_utils.bench.notebook import rate_bars

    rows = [{"config": c, "label": c, "steps_per_s": 10.0, "min_steps_per_s": 9.0, "max_steps_per_s": 11.0}
            for c in ("A", "A copy", "training step, in-memory batches, again")]
    fig, ax = plt.subplots()
    try:
        rate_bars(ax, rows)
        grey = matplotlib.colors.to_rgba("tab:gray", 0.8)
        assert [p.get_facecolor() == grey for p in ax.patches] == [False, True, True]
    finally:
        plt.close(fig)


def test_show_folded_is_a_closed_details_block_in_a_notebook_and_plain_text_elsewhere(monkeypatch, capsys):
    import IPython
    import IPython.display

    bench.show(bench.naive_time, folded=True)   # no IPython shell: the plain listing
    assert capsys.readouterr().out.startswith("def naive_time(")
    shown = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(IPython.display, "display", lambda data, raw: shown.append(data))
    bench.show(bench.naive_time, folded=True)
    (data,) = shown
    assert data["text/plain"].startswith("def naive_time(")
    html = data["text/html"]
    assert html.startswith("<details><summary>The code of naive_time (") and "lines): click to open" in html
    assert "&lt;" not in data["text/plain"] and "<pre>def naive_time(" in html and "</pre></details>" in html
