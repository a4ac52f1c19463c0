"""Notebook 05's exercise check accepts the reference and rejects the two classic timing mistakes."""

import time

from course_utils.exercises import Outcome, ____, nb05


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


def test_q1_steady_rate():
    assert nb05.q1.check(*nb05.q1.reference()) == Outcome.CORRECT
    assert nb05.q1.check(____) == Outcome.NOT_ATTEMPTED
    assert nb05.q1.check(lambda step, steps, repeats: ____) == Outcome.NOT_ATTEMPTED
    cold = nb05.q1.check(no_warmup)
    assert cold == Outcome.INCORRECT and "first call" in cold.message
    lazy = nb05.q1.check(not_forced)
    assert lazy == Outcome.INCORRECT and "not forced" in lazy.message
    text = nb05.q1.check(lambda step, steps, repeats: "fast")
    assert text == Outcome.INCORRECT and "number" in text.message
