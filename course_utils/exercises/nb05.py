"""Exercises of notebook 05 (the performance lab)."""

from __future__ import annotations

import statistics
import time

from course_utils.exercises import Exercise, Incorrect, register


class _Lazy:
    """A result whose work happens when it is read, like a tensor from an asynchronous step."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def asnumpy(self):
        time.sleep(self.seconds)
        return 0.0


def _fake_step(compile_s: float = 0.4, work_s: float = 0.005):
    """First call sleeps ``compile_s`` (a compilation); every call returns a lazy result worth ``work_s``."""
    calls = []

    def step():
        if not calls:
            time.sleep(compile_s)
        calls.append(1)
        return _Lazy(work_s)

    return step


class SteadyRate(Exercise):
    names = ("steady_rate",)
    title = "a steady-state rate"
    hint_text = ("Call step() once before the clock starts (that call compiles). Then, for each repeat: read "
                 "time.perf_counter(), run `steps` calls and call .asnumpy() on every result, read the clock again. "
                 "Return steps / statistics.median(repeat_times).")
    solution_text = '''
        def steady_rate(step, steps, repeats):
            step().asnumpy()                      # warm-up: the first call compiles, not timed
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                for _ in range(steps):
                    step().asnumpy()              # force completion inside the timed region
                times.append(time.perf_counter() - start)
            return steps / statistics.median(times)
    '''

    def reference(self):
        def steady_rate(step, steps, repeats):
            step().asnumpy()
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                for _ in range(steps):
                    step().asnumpy()
                times.append(time.perf_counter() - start)
            return steps / statistics.median(times)

        return (steady_rate,)

    def _check(self, steady_rate):
        work = 0.005
        true_rate = 1 / work
        got = self.call(steady_rate, _fake_step(work_s=work), 8, 1)
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            raise Incorrect(f"steady_rate(...) returned {got!r}; return the steps per second as a number.")
        if got > 2 * true_rate:
            raise Incorrect(f"for a step whose result takes {1e3 * work:.0f} ms to complete you measured {got:.0f} "
                            f"steps/s (at most {true_rate:.0f} is possible): the results were not forced. Call "
                            ".asnumpy() on each result inside the timed region.")
        if got < 0.3 * true_rate:
            raise Incorrect(f"with one repeat of 8 steps of {1e3 * work:.0f} ms you measured {got:.0f} steps/s "
                            f"(expected about {true_rate:.0f}): the first call, which takes 0.4 s here, is inside "
                            "the timed region. Call step() once before starting the clock.")


q1 = SteadyRate()
register(globals(), "05")
