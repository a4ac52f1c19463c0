"""runtime.child_env: the one environment of every child process that runs MindSpore (a lesson's script, a benchmark
worker, msrun's workers, the tests' child programs, the runner's and the doctor's probes)."""

import os
import sys
from pathlib import Path

import pytest

from course_utils import runtime


@pytest.fixture
def this_process(monkeypatch):
    """A process whose environment has every variable a child must not inherit, and CPU fixes for this CPU."""
    for name in runtime.LOAD_TIME_VARS + ("COURSE_METRICS_FILE",):
        monkeypatch.setenv(name, "inherited")
    monkeypatch.setenv("GLOG_v", "1")
    monkeypatch.setenv("MY_OWN", "kept")
    monkeypatch.setattr(runtime, "cpu_fix_env", lambda device="CPU": {"MS_DEV_HOST_BLOCKING_RUN": "1"}
                        if device == "CPU" else {})
    monkeypatch.setattr(runtime, "_state", {})


def test_nothing_mindspore_reads_at_load_time_is_inherited(this_process):
    for fixes in (True, False, None):
        env = runtime.child_env("CPU", cpu_fixes=fixes)
        assert "inherited" not in {env.get(k) for k in runtime.LOAD_TIME_VARS}, fixes
        assert "COURSE_METRICS_FILE" not in env, "a child's record() would overwrite the notebook's metrics"
        assert env["MY_OWN"] == "kept" and env["GLOG_v"] == "3", "quiet logs, the rest of the environment kept"
        assert env["PATH"].split(os.pathsep)[0] == str(Path(sys.executable).parent), "msrun starts plain `python`"


def test_the_cpu_fixes_are_given_left_out_or_left_to_the_child(this_process):
    assert runtime.child_env("CPU")["MS_DEV_HOST_BLOCKING_RUN"] == "1"
    assert "MS_DEV_HOST_BLOCKING_RUN" not in runtime.child_env("Ascend"), "they slow Ascend's host side down"
    without = runtime.child_env("CPU", cpu_fixes=False)
    assert "MS_DEV_HOST_BLOCKING_RUN" not in without and without[runtime.OPT_OUT_VAR] == "0"
    decides = runtime.child_env("CPU", cpu_fixes=None)
    assert "MS_DEV_HOST_BLOCKING_RUN" not in decides and runtime.OPT_OUT_VAR not in decides


def test_a_value_the_user_set_wins_and_env_goes_on_top(this_process, monkeypatch):
    monkeypatch.setenv("ONEDNN_MAX_CPU_ISA", "AVX512_CORE")
    monkeypatch.setattr(runtime, "_state", {"cpu_fixes": {"ONEDNN_MAX_CPU_ISA": "AVX512_CORE (set by you)"}})
    assert runtime.child_env("CPU")["ONEDNN_MAX_CPU_ISA"] == "AVX512_CORE"
    env = runtime.child_env("CPU", env={"GLOG_v": "2", "MY_OWN": None, "N": 3})
    assert env["GLOG_v"] == "2" and "MY_OWN" not in env and env["N"] == "3"


def test_the_course_helpers_are_this_recipe(this_process):
    from course_utils import bench, distributed

    assert distributed.msrun_env("CPU", threads=1) == runtime.child_env("CPU", env={"OMP_NUM_THREADS": "1"})
    assert bench.env_without_cpu_fixes({"X": "1"}) == runtime.child_env("CPU", cpu_fixes=False, env={"X": "1"})
