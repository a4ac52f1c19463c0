"""Exercises of notebook 07 (the performance lab).

q1 ``throughput``: a steady-state rate when steps may overlap, by hand (warm-up apart, only the last result of each
   repeat forced, median of repeats): the throughput reading part 1 describes but times only with ``sync_each``.
q2 ``find_compiles``: which calls of a step compiled, from per-call seconds alone; the notebook then
   applies it to the per-call times of a real MindSpore step whose batch shape changes.
q3 ``faster_variant``: which of two timed step variants is faster *beyond the noise floor*; the
   notebook applies it to two real MindSpore steps timed with ``bench.compare``.
"""

from __future__ import annotations

import statistics
import time

from course_utils.exercises import Exercise, Incorrect, refusing, register
from course_utils.i18n import N_, tr


def _bench_answers(*names):
    """The ``course_utils.bench`` functions named, the objects themselves (their code is what ``refusing`` swaps)."""
    from course_utils import bench

    return tuple(getattr(bench, name) for name in names)


class _Device:
    """A fake asynchronous device: each call of its step costs ``host_s`` on the host, then queues ``work_s`` of work
    that starts when the work queued before it has finished (first in, first out) and returns at once; reading a
    result (``.asnumpy()``) waits until its work is done. The first call also "compiles" for ``compile_s``; the work
    of call ``hiccup_call`` (counted from 0, if > 0) takes ``hiccup_s`` longer. Counts the calls and the reads."""

    def __init__(self, compile_s=0.4, host_s=0.004, work_s=0.020, hiccup_call=0, hiccup_s=0.0):
        self.compile_s, self.host_s, self.work_s = compile_s, host_s, work_s
        self.hiccup_call, self.hiccup_s = hiccup_call, hiccup_s
        self.calls, self.reads, self.done_at = 0, 0, 0.0

    def step(self):
        if not self.calls:
            time.sleep(self.compile_s)
        time.sleep(self.host_s)
        work = self.work_s + (self.hiccup_s if self.calls == self.hiccup_call > 0 else 0.0)
        self.calls += 1
        self.done_at = max(time.perf_counter(), self.done_at) + work
        return _Result(self, self.done_at)


class _Result:
    """One step's result: ``.asnumpy()`` waits until its work is done on the fake device."""

    def __init__(self, device, done_at):
        self.device, self.done_at = device, done_at

    def asnumpy(self):
        self.device.reads += 1
        time.sleep(max(0.0, self.done_at - time.perf_counter()))
        return 0.0


class Throughput(Exercise):
    names = ("throughput",)
    title = "throughput, steps overlapping"
    hint_text = ("Call step() once and read its result before the clock starts (that call compiles). Then, for each "
                 "repeat: read time.perf_counter(), run `steps` calls keeping only the last result, call .asnumpy() "
                 "on that one (it waits for all the work queued before it), read the clock again. Return "
                 "steps / statistics.median(repeat_times).")
    solution_text = '''
        def throughput(step, steps, repeats):
            step().asnumpy()                      # warm-up: the first call compiles, not timed
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                for _ in range(steps):
                    result = step()               # queued: the next call does not wait for it
                result.asnumpy()                  # inside the timed region: waits for all the work queued
                times.append(time.perf_counter() - start)
            return steps / statistics.median(times)
    '''

    def reference(self):
        def throughput(step, steps, repeats):
            step().asnumpy()
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                for _ in range(steps):
                    result = step()
                result.asnumpy()
                times.append(time.perf_counter() - start)
            return steps / statistics.median(times)

        return (throughput,)

    def _check(self, throughput):
        # 3 repeats of 8 steps; call 12 (in the second repeat, after one warm-up call) hangs 0.3 s: one slow repeat.
        # Steps of 20 ms with 4 ms on the host: a late wake-up from sleep on a busy machine stays small beside them
        device = _Device(hiccup_call=12, hiccup_s=0.3)
        true_rate, latency_rate, host_rate = 1 / device.work_s, 1 / (device.host_s + device.work_s), 1 / device.host_s
        with refusing(_bench_answers("time_steps", "compare"),
                      tr("throughput uses course_utils.bench (time_steps or compare, under any name), which does the "
                         "exercise for you: write the loop with time.perf_counter and statistics.median.")):
            got = self.call(throughput, device.step, 8, 3)
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            raise Incorrect(tr("throughput(...) returned {got!r}; return the steps per second as a number.", got=got))
        if got > 1.25 * true_rate:
            raise Incorrect(tr("on a device that needs {work_ms:.0f} ms of work per step you measured {got:.0f} "
                               "steps/s (at most {true_rate:.0f} is possible): the work was not waited for inside the "
                               "timed region, so you timed how fast the host queues it (up to {host:.0f} steps/s "
                               "here). "
                               "Read the last result of each repeat with .asnumpy() before you stop the clock.",
                               work_ms=1e3 * device.work_s, got=got, true_rate=true_rate, host=host_rate))
        if got < 0.5 * true_rate:
            raise Incorrect(tr("with 3 repeats of 8 steps of {work_ms:.0f} ms you measured {got:.0f} steps/s "
                               "(expected about {true_rate:.0f}): the first call, which takes 0.4 s here, is inside "
                               "the timed region. Call step() once before starting the clock.",
                               work_ms=1e3 * device.work_s, got=got, true_rate=true_rate))
        if device.calls != 1 + 3 * 8:
            raise Incorrect(tr("throughput(step, 8, 3) called step() {n} times, expected 25: one warm-up call, then "
                               "3 repeats of 8 steps each.", n=device.calls))
        if device.reads >= 3 * 8:
            raise Incorrect(tr("you read {n} results with .asnumpy(), about one per step: that is part 1's "
                               "measurement, forced every step, and it gives the latency ({latency:.0f} steps/s on "
                               "this fake device) while the steps could overlap. Read only the last result of each "
                               "repeat, inside the timed region.", n=device.reads, latency=latency_rate))
        if got < 0.8 * true_rate:
            raise Incorrect(tr("one of the 3 repeats had a 0.3 s hiccup and you measured {got:.0f} steps/s "
                               "(expected about {true_rate:.0f}): one slow repeat pulled the result down. Return "
                               "steps divided by the median of the repeats' times, not their mean or total.",
                               got=got, true_rate=true_rate))


# ----------------------------------------------------------------------------------------------
# q2: recompilations from per-call times
# ----------------------------------------------------------------------------------------------

#: (per-call seconds, the calls that compiled, what the trace is about)
_TRACES = [
    ([1.2, 0.010, 0.011, 1.1, 0.010, 0.012, 0.010, 0.009], [0, 3], N_("one recompilation, the call at index 3")),
    ([0.8, 0.010, 0.045, 0.011, 0.050, 0.010, 0.012, 0.011], [0],
     N_("a busy machine: the calls at indices 2 and 4 are about 4x the median but nowhere near a compilation")),
    ([1.5, 0.010, 0.011, 0.080, 0.010, 0.012, 0.010, 0.009], [0],
     N_("a longer hiccup: the call at index 3 is over 7x the median, yet about a twentieth of the first call: noise, "
        "not a compilation")),
    ([2.0, 1.9, 2.1, 0.02, 0.02, 0.02, 0.021, 0.02, 0.019], [0, 1, 2], N_("three new shapes first, then steady")),
    ([0.5] + [0.004] * 9, [0], N_("only the first call compiled")),
    ([0.12, 0.010, 0.045, 0.010, 0.011, 0.010, 0.009, 0.010], [0],
     N_("a short first call: the call at index 2 is a noise spike, under 5x the median, yet above a third of the "
        "first")),
]


class FindCompiles(Exercise):
    names = ("find_compiles",)
    title = "recompilations from per-call times"
    hint_text = ("Two yardsticks: the first call always compiles, so its time is what a compilation costs here; the "
                 "median of all calls is the steady step. A compiling call has to stand out against both: far above "
                 "the steady step, and comparable to the first call. The traces printed by nb07.q2.traces() show "
                 "how far. Return the list of indices.")
    solution_text = '''
        def find_compiles(times):
            steady = statistics.median(times)
            return [i for i, t in enumerate(times) if t > 5 * steady and t > 0.3 * times[0]]
    '''

    def reference(self):
        def find_compiles(times):
            steady = statistics.median(times)
            return [i for i, t in enumerate(times) if t > 5 * steady and t > 0.3 * times[0]]

        return (find_compiles,)

    def traces(self) -> None:
        """Print the made-up traces the check uses, each with the calls that compiled and what it is about."""
        for times, expected, about in _TRACES:
            print(tr("{times} -> {expected}: {about}", times=times, expected=expected, about=tr(about)))

    def _check(self, find_compiles):
        if not callable(find_compiles):
            raise Incorrect(tr("find_compiles should be a function of the per-call times, got {type}.",
                               type=type(find_compiles).__name__))
        for times, expected, about in _TRACES:
            with refusing(_bench_answers("compile_calls"),
                           tr("find_compiles uses course_utils.bench.compile_calls (under any name), the lab's own "
                              "detector: write the two yardsticks yourself.")):
                got = self.call(find_compiles, list(times))
            if isinstance(got, (int, float)) and not isinstance(got, bool):
                raise Incorrect(tr("find_compiles({times}) returned the number {got!r}; return the list of call "
                                   "indices that compiled (expected {expected}).", times=times, got=got,
                                   expected=expected))
            try:
                got = sorted(int(i) for i in got)
            except TypeError:
                raise Incorrect(tr("find_compiles(...) returned {got!r}; return a list of call indices.",
                                   got=got)) from None
            if got != expected:
                extra = ""
                if 0 not in got:
                    extra = tr(" The first call (index 0) always compiles.")
                elif set(got) > set(expected):
                    extra = tr(" A call a few times slower than the others is noise, not a compilation.")
                raise Incorrect(tr("for per-call seconds {times} ({about}) expected {expected}, got {got}.{extra}",
                                   times=times, about=tr(about), expected=expected, got=got, extra=extra))


# ----------------------------------------------------------------------------------------------
# q3: faster beyond the noise floor
# ----------------------------------------------------------------------------------------------

def _timing(name: str, steps_per_s: float, spread: float = 0.01):
    from course_utils.bench import Timing

    per_repeat = [10 / (steps_per_s * f) for f in (1 - spread, 1.0, 1 + spread)]
    return Timing(name, 1.0, [], per_repeat, 10)


class FasterVariant(Exercise):
    names = ("faster_variant",)
    title = "faster beyond the noise floor"
    solution_text = '''
        def faster_variant(a, b, noise_pct):
            fast, slow = (a, b) if a.steps_per_s >= b.steps_per_s else (b, a)
            if 100 * (fast.steps_per_s / slow.steps_per_s - 1) <= noise_pct:
                return None
            return fast.name
    '''

    hint_text = ("Take the two medians (Timing.steps_per_s). Their relative difference, 100 * (fast / slow - 1), is "
                 "a percentage; if it is not larger than noise_pct, return None. Otherwise return the name of the "
                 "faster one (Timing.name).")

    def reference(self):
        def faster_variant(a, b, noise_pct):
            fast, slow = (a, b) if a.steps_per_s >= b.steps_per_s else (b, a)
            if 100 * (fast.steps_per_s / slow.steps_per_s - 1) <= noise_pct:
                return None
            return fast.name

        return (faster_variant,)

    def _check(self, faster_variant):
        if not callable(faster_variant):
            raise Incorrect(tr("faster_variant should be a function, got {type}.",
                               type=type(faster_variant).__name__))
        cases = [(("cell", 120.0), ("functional", 100.0), 5.0, "cell"),
                 (("cell", 100.0), ("functional", 130.0), 5.0, "functional"),
                 (("cell", 104.0), ("functional", 100.0), 5.0, None),
                 (("cell", 100.0), ("functional", 104.0), 5.0, None),
                 (("cell", 120.0), ("functional", 100.0), 25.0, None)]
        for (na, ra), (nb, rb), noise, expected in cases:
            with refusing(_bench_answers("faster_beyond", "verdict", "leaders"),
                           tr("faster_variant uses course_utils.bench (faster_beyond, verdict or leaders, under any "
                              "name), the lab's own tie rule: compare the two medians yourself.")):
                got = self.call(faster_variant, _timing(na, ra), _timing(nb, rb), noise)
            if got != expected:
                what = tr("{a} at {ra:g} steps/s vs {b} at {rb:g} steps/s with a noise floor of {noise:g}%",
                          a=na, ra=ra, b=nb, rb=rb, noise=noise)
                why = ""
                if expected is None and got in (na, nb):
                    why = tr(" The difference, {diff:.0f}%, is not beyond the noise floor: return None.",
                             diff=100 * (max(ra, rb) / min(ra, rb) - 1))
                elif got is None:
                    why = tr(" The difference is beyond the noise floor: name the faster one.")
                raise Incorrect(tr("{what}: expected {expected!r}, got {got!r}.{why}", what=what, expected=expected,
                                   got=got, why=why))


q1 = Throughput()
q2 = FindCompiles()
q3 = FasterVariant()
register(globals(), "07")
