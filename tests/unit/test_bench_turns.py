"""course_utils.bench.turns: one process timed alongside a distributed job, in turns (notebook 09).

The job here is a thread that pauses like the workers of ``scripts/train_dp.py`` do (no MindSpore, no msrun):
the handshake, the warm-up turn, the alternating order, the pinning and the failure paths."""

import contextlib
import os

import pytest

from course_utils import bench


def fake_job(turns, pauses, result="done"):
    """A one-rank job that pauses ``pauses`` times (rank 0 drops go_<k> and waits for done_<k>), then returns."""
    def job():
        pause = bench.worker_pause(turns, 0, barrier=lambda: None, poll=0.001)
        for _ in range(pauses):
            pause.before()
            assert pause.step() is None   # the pause times nothing
        return result
    return job


def test_time_alongside_times_every_config_once_per_turn_after_a_warm_up(tmp_path):
    calls = []

    def step(name):
        return lambda: calls.append(name)

    configs = {"a": bench.Config(step=step("a"), batch_size=4), "b": bench.Config(step=step("b"), batch_size=8)}
    timed = bench.time_alongside(fake_job(tmp_path, pauses=4), configs, turns=tmp_path, steps=3, poll=0.001)
    assert timed.job == "done" and timed.turns == 3
    assert {name: len(t.repeat_s) for name, t in timed.timings.items()} == {"a": 3, "b": 3}
    assert timed.timings["b"].batch_size == 8 and timed.timings["a"].steps == 3
    # turn 0 warms each config up with two calls, in reversed order; then the order alternates
    assert calls[:4] == ["b", "b", "a", "a"]
    assert calls[4:] == ["a"] * 3 + ["b"] * 3 + ["b"] * 3 + ["a"] * 3 + ["a"] * 3 + ["b"] * 3
    assert timed.conditions.seconds >= 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"go_{k}" for k in range(4)]
                                                                  + [f"done_{k}" for k in range(4)])


def test_time_alongside_clears_old_turn_files_and_raises_the_jobs_error(tmp_path):
    (tmp_path / "done_0").touch()   # left over from an earlier run: must not answer this run's first turn

    def failing():
        raise RuntimeError("the job failed")

    with pytest.raises(RuntimeError, match="the job failed"):
        bench.time_alongside(failing, {"a": bench.Config(step=lambda: None)}, turns=tmp_path, steps=1, poll=0.001)
    assert not (tmp_path / "done_0").exists()


def test_time_alongside_needs_at_least_one_timed_turn(tmp_path):
    with pytest.raises(RuntimeError, match="never paused"):
        bench.time_alongside(fake_job(tmp_path, pauses=1), {"a": bench.Config(step=lambda: None)},
                             turns=tmp_path, steps=1, poll=0.001)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_cpu_pinned_pins_every_thread_and_puts_it_back():
    before = os.sched_getaffinity(0)
    one = {min(before)}
    with bench.cpu_pinned(one):
        assert os.sched_getaffinity(0) == one
    assert os.sched_getaffinity(0) == before
    with bench.cpu_pinned(None):
        assert os.sched_getaffinity(0) == before


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_pin_threads_pins_for_good_and_children_inherit_it():
    import subprocess
    import sys
    import threading

    before = os.sched_getaffinity(0)
    one, previous = {min(before)}, {}
    try:
        previous = bench.pin_threads(one)
        assert previous[os.getpid()] == before and os.sched_getaffinity(0) == one
        seen = []
        thread = threading.Thread(target=lambda: seen.append(os.sched_getaffinity(0)))   # started afterwards
        thread.start()
        thread.join()
        child = subprocess.run([sys.executable, "-c", "import os; print(sorted(os.sched_getaffinity(0)))"],
                               capture_output=True, text=True, check=True)
        assert seen == [one] and child.stdout.strip() == str(sorted(one))
    finally:
        for tid, allowed in previous.items():   # every thread back as it was
            with contextlib.suppress(OSError):
                os.sched_setaffinity(tid, allowed)
        os.sched_setaffinity(0, before)
    with pytest.raises(ValueError, match="non-empty set of CPUs"):
        bench.pin_threads(set())


def test_kernel_threads_is_a_count_or_unknown():
    count = bench.kernel_threads()
    assert count is None or (isinstance(count, int) and count >= 0)


@pytest.mark.parametrize("pin, device, environ, cpus, pinned, said", [
    ("auto", "CPU", {}, {0, 1}, True, "pinned to CPU 0 of 2"),
    ("auto", "CPU", {"COURSE_PIN_CPU": "0"}, {0, 1}, False, "COURSE_PIN_CPU=0"),
    ("auto", "CPU", {"COURSE_PIN_CPU": "1"}, {2, 3}, True, "pinned to CPU 2 of 2"),
    ("auto", "CPU", {"JUPYTERHUB_API_TOKEN": "t"}, {0, 1}, False, "JupyterHub"),
    ("auto", "GPU", {}, {0, 1}, False, "the device is GPU"),
    ("auto", "CPU", {}, {3}, False, "one CPU only already"),
    ("auto", "CPU", {}, None, False, "Linux only"),
    (True, "CPU", {"COURSE_PIN_CPU": "0", "JUPYTERHUB_API_TOKEN": "t"}, {0, 1}, True, "PIN_CPU = True"),
    (True, "Ascend", {}, {0, 1}, False, "the device is Ascend"),
    (False, "CPU", {}, {0, 1}, False, "PIN_CPU = False"),
    ("True", "CPU", {}, {0, 1}, True, "PIN_CPU = True"),   # as `make run -p PIN_CPU=true` may pass it
    ("false", "CPU", {}, {0, 1}, False, "PIN_CPU = False"),
])
def test_pin_choice_pins_only_where_it_helps_and_harms_nobody(pin, device, environ, cpus, pinned, said, monkeypatch):
    if cpus is None:   # a platform without sched_getaffinity: nothing to pin with
        monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    got, why = bench.pin_choice(pin, device, environ=environ, cpus=cpus)
    assert got is pinned and said in why, (got, why)


def test_pin_choice_refuses_anything_but_true_false_or_auto():
    with pytest.raises(ValueError, match="PIN_CPU"):
        bench.pin_choice("yes", "CPU", environ={}, cpus={0, 1})


def test_the_test_suite_turns_automatic_pinning_off_for_the_lessons_it_executes():
    # lessons executed side by side (pytest-xdist, the browser suite, the hub tests) inherit this environment
    assert os.environ.get(bench.turns.PIN_ENV) == "0"
