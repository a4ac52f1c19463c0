"""Exercises of notebook 07 (the performance lab).

q1 ``throughput``: a steady-state rate when steps may overlap, by hand (warm-up apart, only the last result of each
   repeat forced, median of repeats): the throughput reading part 1 describes but times only with ``sync_each``.
q2 ``find_compiles``: which calls of a step compiled, from per-call seconds alone; the notebook then
   applies it to the per-call times of a real MindSpore step whose batch shape changes.
q3 ``faster_variant``: which of two step variants timed in one alternation is faster, by check 2's paired interval
   (the lab's one rule, read on its bounds as printed); the notebook applies it to two real MindSpore steps timed
   with ``bench.compare``.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from unittest import mock

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
    of call ``hiccup_call`` (counted from 0, if > 0) takes ``hiccup_s`` longer. Counts the calls and the reads.

    Its time is its own: ``clock()`` advances by exactly what the device spent, so inside ``ticking()`` (which
    stands it in for ``time.perf_counter``) the learner's timings do not depend on how busy the machine is. It
    also sleeps that long for real, so that a learner who reads another clock still measures the same device."""

    def __init__(self, compile_s=0.4, host_s=0.004, work_s=0.020, hiccup_call=0, hiccup_s=0.0):
        self.compile_s, self.host_s, self.work_s = compile_s, host_s, work_s
        self.hiccup_call, self.hiccup_s = hiccup_call, hiccup_s
        self.calls, self.reads, self.done_at = 0, 0, 0.0
        self.now = time.perf_counter()

    def clock(self) -> float:
        return self.now

    def _spend(self, seconds):
        time.sleep(seconds)
        self.now += seconds

    @contextlib.contextmanager
    def ticking(self):
        """``time.perf_counter`` reads this device's clock while the block runs."""
        with mock.patch.object(time, "perf_counter", self.clock):
            yield

    def step(self):
        if not self.calls:
            self._spend(self.compile_s)
        self._spend(self.host_s)
        work = self.work_s + (self.hiccup_s if self.calls == self.hiccup_call > 0 else 0.0)
        self.calls += 1
        self.done_at = max(self.now, self.done_at) + work
        return _Result(self, self.done_at)


class _Result:
    """One step's result: ``.asnumpy()`` waits until its work is done on the fake device."""

    def __init__(self, device, done_at):
        self.device, self.done_at = device, done_at

    def asnumpy(self):
        self.device.reads += 1
        self.device._spend(max(0.0, self.done_at - self.device.now))
        return 0.0


class Throughput(Exercise):
    names = ("throughput",)
    title = "throughput, steps overlapping"
    hint_text = ("The check calls throughput(step, 8, 3) on a fake asynchronous device: each call costs 4 ms on the "
                 "host and queues 20 ms of work; reading a result waits for its work; the first call compiles for "
                 "0.4 s; one step of the second repeat takes 0.3 s longer. Part 1's loop, waiting after every step, "
                 "gets 24 ms a step (about 42 steps/s); yours should get about 20 ms (about 49 steps/s), with a median "
                 "that shrugs off the slow repeat. The check counts the calls and the reads. "
                 "Call step() once and read its result before the clock starts (that call compiles). Then, for each "
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
        # Steps of 20 ms with 4 ms on the host, timed on the device's own clock: a busy machine changes nothing
        device = _Device(hiccup_call=12, hiccup_s=0.3)
        true_rate, latency_rate, host_rate = 1 / device.work_s, 1 / (device.host_s + device.work_s), 1 / device.host_s
        with refusing(_bench_answers("time_steps", "compare"),
                      tr("throughput uses course_utils.bench (time_steps or compare, under any name), which does the "
                         "exercise for you: write the loop with time.perf_counter and statistics.median.")):
            with device.ticking():   # the device's own time: the same answer on a busy machine
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
                 "the steady step, and comparable to the first call. The traces printed by nb07.q2.traces() bound k "
                 "and f from both sides; part 5's real traces, checked against bench.compile_calls, narrow them "
                 "further. Return the list of indices.")
    solution_text = '''
        def find_compiles(times):
            steady = statistics.median(times)   # k = 5 with a 50 ms floor, f = 0.3: bench.compile_calls' rule
            return [i for i, t in enumerate(times) if t > 5 * steady + 0.05 and t > 0.3 * times[0]]
    '''
    #: part 5's per-call times, ``{label: seconds}``, set by the notebook before ``check()``: there the answer must
    #: agree with ``bench.compile_calls`` (empty: the made-up traces only)
    real_traces: dict = {}

    def reference(self):
        def find_compiles(times):
            steady = statistics.median(times)
            return [i for i, t in enumerate(times) if t > 5 * steady + 0.05 and t > 0.3 * times[0]]

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
            got = self._indices(find_compiles, times, expected)
            if got != expected:
                extra = ""
                if 0 not in got:
                    extra = tr(" The first call (index 0) always compiles.")
                elif set(got) > set(expected):
                    extra = tr(" A call a few times slower than the others is noise, not a compilation.")
                raise Incorrect(tr("for per-call seconds {times} ({about}) expected {expected}, got {got}.{extra}",
                                   times=times, about=tr(about), expected=expected, got=got, extra=extra))
        from course_utils.bench import compile_calls

        for label, times in dict(self.real_traces).items():   # part 5's real per-call times
            expected = compile_calls(list(times))
            got = self._indices(find_compiles, times, expected)
            if got != expected:
                raise Incorrect(tr("find_compiles fits the made-up traces, but on part 5's real per-call times "
                                   "({label}) it finds {got} where bench.compile_calls (over 5x the median + 50 ms "
                                   "and over 0.3x the first call) finds {expected}: choose k and f that agree with "
                                   "both.", label=label, got=got, expected=expected))

    def _indices(self, find_compiles, times, expected) -> list:
        """The answer's call indices for ``times``, sorted, with ``bench.compile_calls`` refused meanwhile."""
        with refusing(_bench_answers("compile_calls"),
                      tr("find_compiles uses course_utils.bench.compile_calls (under any name), the lab's own "
                         "detector: write the two yardsticks yourself.")):
            got = self.call(find_compiles, list(times))
        if isinstance(got, (int, float)) and not isinstance(got, bool):
            raise Incorrect(tr("find_compiles({times}) returned the number {got!r}; return the list of call "
                               "indices that compiled (expected {expected}).", times=times, got=got,
                               expected=expected))
        try:
            return sorted(int(i) for i in got)
        except TypeError:
            raise Incorrect(tr("find_compiles(...) returned {got!r}; return a list of call indices.",
                               got=got)) from None


# ----------------------------------------------------------------------------------------------
# q3: the faster of two variants, by the paired interval
# ----------------------------------------------------------------------------------------------

def _paired(name: str, rates):
    """A made-up ``Timing`` of repeats of 10 steps at ``rates`` steps/s, round by round."""
    from course_utils.bench import Timing

    return Timing(name, 1.0, [], [10 / r for r in rates], 10)


_LOAD = (1.0, 0.6, 1.3, 0.8, 1.1, 0.7, 1.2, 0.9)   # each round's speed: a shared machine, busy at moments

#: (a's rates, b's rates, the answer, what the case shows), 8 rounds each, a and b timed back to back in every round
_CASES = (
    ([100 * f * 1.05 for f in _LOAD], [100 * f for f in _LOAD], "a",
     N_("a 5% faster in every round, while the load moves both by up to 30%: the medians' ranges overlap, the paired "
        "interval lies above 1.00")),
    ([100 * f for f in _LOAD], [100 * f * 1.06 for f in _LOAD], "b",
     N_("b 6% faster in every round: the interval of a over b lies below 1.00")),
    ([100 * f for f in _LOAD], [100 * f * (1.4 if i % 2 else 0.7) for i, f in enumerate(_LOAD)], None,
     N_("b 40% faster in some rounds and 30% slower in others: the medians lie apart, the interval holds 1.00: "
        "not separated")),
    ([100 * f * 1.0035 for f in _LOAD], [100 * f for f in _LOAD], None,
     N_("a 0.35% faster in every round: a real gap, but inside the lab's margin of equivalence: read as printed, with "
        "two decimals, the interval is 1.00-1.00, so it holds 1.00: not separated")),
)


class FasterVariant(Exercise):
    names = ("faster_variant",)
    title = "the faster variant, by the paired interval"
    solution_text = '''
        def faster_variant(a, b):
            import numpy as np

            ratios = np.array(b.repeat_s) / np.array(a.repeat_s)   # a's rate over b's, round by round
            picks = np.random.default_rng(0).integers(0, len(ratios), size=(2000, len(ratios)))
            lo, hi = np.percentile(np.median(ratios[picks], axis=1), [2.5, 97.5]).round(2)   # as printed
            return a.name if lo > 1 else b.name if hi < 1 else None
    '''

    hint_text = ("Repeat i of a and repeat i of b ran back to back (Timing.repeat_s: seconds per repeat), so a's rate "
                 "over b's in round i is b.repeat_s[i] / a.repeat_s[i]. Check 2's paired_interval does the rest: "
                 "resample the rounds, take the middle 95% of the resampled medians, round both ends to two decimals "
                 "and read them: above 1.00, a.name; below 1.00, b.name; holding 1.00, None.")

    def reference(self):
        def faster_variant(a, b):
            import numpy as np

            ratios = np.array(b.repeat_s) / np.array(a.repeat_s)   # a's rate over b's, round by round
            picks = np.random.default_rng(0).integers(0, len(ratios), size=(2000, len(ratios)))
            lo, hi = np.percentile(np.median(ratios[picks], axis=1), [2.5, 97.5]).round(2)   # as printed
            return a.name if lo > 1 else b.name if hi < 1 else None

        return (faster_variant,)

    def _check(self, faster_variant):
        if not callable(faster_variant):
            raise Incorrect(tr("faster_variant should be a function, got {type}.",
                               type=type(faster_variant).__name__))
        for rates_a, rates_b, expected, about in _CASES:
            with refusing(_bench_answers("paired_ratio", "interval_side"),
                          tr("faster_variant uses course_utils.bench (paired_ratio or interval_side, under any name): "
                             "pair the rounds yourself, as check 2's paired_interval does.")):
                got = self.call(faster_variant, _paired("a", rates_a), _paired("b", rates_b))
            if got != expected:
                raise Incorrect(tr("a at {ra} steps/s, b at {rb} steps/s, round by round ({about}): expected "
                                   "{expected!r}, got {got!r}.", ra=[round(r) for r in rates_a],
                                   rb=[round(r) for r in rates_b], about=tr(about), expected=expected, got=got))


q1 = Throughput()
q2 = FindCompiles()
q3 = FasterVariant()
register(globals(), "07")
