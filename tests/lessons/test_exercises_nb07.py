"""Notebook 07's exercise checks accept the reference and reject the classic timing mistakes (and part 1's loop
pasted as the answer to exercise 1)."""

import statistics
import time

from course_utils.exercises import Outcome, ____, nb07


def no_warmup(step, steps, repeats):
    start = time.perf_counter()
    for _ in range(steps):
        step().asnumpy()
    return steps / (time.perf_counter() - start)


def not_forced(step, steps, repeats):
    step().asnumpy()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return steps / (time.perf_counter() - start)


def read_after_the_clock(step, steps, repeats):   # the last result waited for, but outside the timed region
    step().asnumpy()

    def timed():   # (seconds, the repeat's results)
        start = time.perf_counter()
        results = [step() for _ in range(steps)]
        return time.perf_counter() - start, results

    repeats_run = [timed() for _ in range(repeats)]
    for _, results in repeats_run:
        results[-1].asnumpy()
    return steps / statistics.median(seconds for seconds, _ in repeats_run)


def forced_every_step(step, steps, repeats):   # part 1's measurement, pasted: the latency, not the throughput
    step().asnumpy()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(steps):
            step().asnumpy()
        times.append(time.perf_counter() - start)
    return steps / statistics.median(times)


def mean_of_repeats(step, steps, repeats):   # right but for the mean: one slow repeat pulls it down
    step().asnumpy()

    def seconds():
        start = time.perf_counter()
        for _ in range(steps):
            result = step()
        result.asnumpy()
        return time.perf_counter() - start

    return steps * repeats / sum(seconds() for _ in range(repeats))


def one_repeat(step, steps, repeats):
    return mean_of_repeats(step, steps, 1)


def test_q1_throughput():
    assert nb07.q1.check(*nb07.q1.reference()) == Outcome.CORRECT
    assert nb07.q1.check(____) == Outcome.NOT_ATTEMPTED
    assert nb07.q1.check(lambda step, steps, repeats: ____) == Outcome.NOT_ATTEMPTED
    cold = nb07.q1.check(no_warmup)
    assert cold == Outcome.INCORRECT and "first call" in cold.message
    lazy = nb07.q1.check(not_forced)
    assert lazy == Outcome.INCORRECT and "not waited for" in lazy.message
    late = nb07.q1.check(read_after_the_clock)
    assert late == Outcome.INCORRECT and "not waited for" in late.message
    pasted = nb07.q1.check(forced_every_step)   # part 1's answer does not pass this exercise
    assert pasted == Outcome.INCORRECT and "latency" in pasted.message and "part 1" in pasted.message
    mean = nb07.q1.check(mean_of_repeats)   # one repeat holds a 0.1 s hiccup: the mean falls for it, the median not
    assert mean == Outcome.INCORRECT and "median" in mean.message
    single = nb07.q1.check(one_repeat)
    assert single == Outcome.INCORRECT and "3 repeats" in single.message
    text = nb07.q1.check(lambda step, steps, repeats: "fast")
    assert text == Outcome.INCORRECT and "number" in text.message


def test_q2_find_compiles():
    assert nb07.q2.check(*nb07.q2.reference()) == Outcome.CORRECT
    assert nb07.q2.check(____) == Outcome.NOT_ATTEMPTED
    count = nb07.q2.check(lambda times: sum(t > 0.1 for t in times))
    assert count == Outcome.INCORRECT and "list of call indices" in count.message
    jumpy = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if t > 3 * sorted(times)[len(times) // 2]])
    assert jumpy == Outcome.INCORRECT and "noise, not a compilation" in jumpy.message
    no_first = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if i and t > 0.3 * times[0]])
    assert no_first == Outcome.INCORRECT and "index 0" in no_first.message
    # a third of the first call alone: a short first call makes a noise spike look like a compilation
    third = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if t >= times[0] / 3])
    assert third == Outcome.INCORRECT and "noise spike" in third.message and "noise, not a compilation" in third.message
    # 5x the median alone: a later hiccup over 7x the median, yet a twentieth of the first call, is taken for one
    spiky = nb07.q2.check(lambda times: [i for i, t in enumerate(times) if t > 5 * statistics.median(times)])
    assert spiky == Outcome.INCORRECT and "a longer hiccup" in spiky.message and "expected [0], got [0, 3]" in \
        spiky.message
    # the course's own detector, itself or wrapped, is refused (its code is swapped while the check runs)
    from course_utils import bench
    from course_utils.bench.experiments import compile_calls as renamed
    for shortcut in (bench.compile_calls, renamed, lambda times: renamed(times)):
        refused = nb07.q2.check(shortcut)
        assert refused == Outcome.INCORRECT and "compile_calls" in refused.message
    assert nb07.q2.check(*nb07.q2.reference()) == Outcome.CORRECT   # restored afterwards
    assert bench.compile_calls([1.0, 0.01, 0.01, 0.01]) == [0]


def test_q2_traces_are_printed(capsys):
    nb07.q2.traces()
    out = capsys.readouterr().out
    assert "[1.2, 0.01, 0.011, 1.1" in out and "[0, 3]" in out and "noise spike" in out


def test_q1_refuses_the_bench_helpers():
    from course_utils import bench
    from course_utils.bench.harness import time_steps as renamed
    for shortcut in (lambda s, n, r: bench.time_steps(s, steps=n, repeats=r).steps_per_s,
                     lambda s, n, r: renamed(s, steps=n, repeats=r, warmup=1).steps_per_s,
                     lambda s, n, r: bench.compare({"a": s}, steps=n, repeats=r, warmup=1)["a"].steps_per_s):
        refused = nb07.q1.check(shortcut)
        assert refused == Outcome.INCORRECT and "course_utils.bench" in refused.message
    assert nb07.q1.check(*nb07.q1.reference()) == Outcome.CORRECT
    assert bench.time_steps(lambda: None, steps=2, repeats=2, warmup=1).steps_per_s > 0   # restored


def test_q1_counts_calls_exactly():
    def extra_warmup(step, steps, repeats):   # right, but for two warm-up calls: 26 calls, not 25
        step().asnumpy()
        return nb07.q1.reference()[0](step, steps, repeats)

    extra = nb07.q1.check(extra_warmup)
    assert extra == Outcome.INCORRECT and "expected 25" in extra.message


def _by_medians(margin_pct):
    """The medians against a margin: the reading the paired interval replaced."""
    def faster_variant(a, b):
        fast, slow = (a, b) if a.steps_per_s >= b.steps_per_s else (b, a)
        return fast.name if 100 * (fast.steps_per_s / slow.steps_per_s - 1) > margin_pct else None
    return faster_variant


def _paired_bounds(a, b, digits):
    import numpy as np

    ratios = np.array(b.repeat_s) / np.array(a.repeat_s)
    picks = np.random.default_rng(7).integers(0, len(ratios), size=(1000, len(ratios)))   # another seed, fewer draws
    lo, hi = np.percentile(np.median(ratios[picks], axis=1), [2.5, 97.5])
    return (round(lo, digits), round(hi, digits)) if digits is not None else (lo, hi)


def test_q3_faster_variant_judges_by_the_paired_interval():
    assert nb07.q3.check(*nb07.q3.reference()) == Outcome.CORRECT
    assert nb07.q3.check(____) == Outcome.NOT_ATTEMPTED

    def paired(a, b, digits=2):   # another seed and draw count: the cases do not hang on them
        lo, hi = _paired_bounds(a, b, digits)
        return a.name if lo > 1 else b.name if hi < 1 else None

    assert nb07.q3.check(paired) == Outcome.CORRECT
    for margin in (2, 5, 10):   # the medians against a margin: wrong on the steady 5% gap or on the noisy rounds
        medians = nb07.q3.check(_by_medians(margin))
        assert medians == Outcome.INCORRECT and "round by round" in medians.message
    unrounded = nb07.q3.check(lambda a, b: paired(a, b, digits=None))   # 1.0035-1.0035 is 1.00-1.00 as printed
    assert unrounded == Outcome.INCORRECT and "as printed" in unrounded.message
    def backwards(a, b):   # b's rate over a's, read as if it were a's over b's
        lo, hi = _paired_bounds(b, a, 2)
        return a.name if lo > 1 else b.name if hi < 1 else None

    backwards = nb07.q3.check(backwards)
    assert backwards == Outcome.INCORRECT and "expected 'a', got 'b'" in backwards.message
    shy = nb07.q3.check(lambda a, b: None)
    assert shy == Outcome.INCORRECT and "expected 'a', got None" in shy.message


def test_q3_refuses_the_paired_reading_of_the_bench():
    from course_utils import bench
    from course_utils.bench.harness import paired_ratio as renamed

    def wrapped(a, b):
        _, lo, hi = renamed(a, b)
        return a.name if round(lo, 2) > 1 else b.name if round(hi, 2) < 1 else None

    def by_side(a, b):
        _, lo, hi = bench.paired_ratio(a, b)
        return {"above": a.name, "below": b.name, "inside": None}[bench.interval_side(lo, hi)]

    for shortcut in (wrapped, by_side):
        refused = nb07.q3.check(shortcut)
        assert refused == Outcome.INCORRECT and "course_utils.bench" in refused.message
    assert nb07.q3.check(*nb07.q3.reference()) == Outcome.CORRECT
    assert bench.interval_side(1.01, 1.2) == "above"   # restored


def test_q2_must_agree_with_compile_calls_on_part_5s_real_times_and_says_where_it_does_not(monkeypatch):
    # a real trace where a rule without compile_calls' 50 ms floor finds a compile the reference does not
    monkeypatch.setattr(nb07.q2, "real_traces", {"changing shapes": [0.3, 0.01, 0.01, 0.07, 0.01, 0.01]})
    assert nb07.q2.check(*nb07.q2.reference()) == Outcome.CORRECT
    no_floor = nb07.q2.check(lambda times: [i for i, t in enumerate(times)
                                            if t > 5 * statistics.median(times) and t > 0.2 * times[0]])
    assert no_floor == Outcome.INCORRECT
    assert "(changing shapes) it finds [0, 3] where bench.compile_calls" in no_floor.message
    assert "finds [0]" in no_floor.message
