"""Notebook 08's exercise checks accept the reference and reject the typical wrong answers, each with its reason."""

import mindspore as ms
import numpy as np
import pytest

from course_utils.exercises import Outcome, ____, nb08


def outputs_only(a, b, x, atol=1e-6):
    return bool(np.allclose(a(x).asnumpy(), b(x).asnumpy(), atol=atol))


def gradients_only(a, b, x, atol=1e-6):
    return bool(np.allclose(ms.grad(a)(x).asnumpy(), ms.grad(b)(x).asnumpy(), atol=atol))


def bit_for_bit(a, b, x, atol=1e-6):
    if not np.array_equal(a(x).asnumpy(), b(x).asnumpy()):
        return False
    return bool(np.array_equal(ms.grad(a)(x).asnumpy(), ms.grad(b)(x).asnumpy()))


def median_rule(ratios, in_memory, alone, copies):   # reads the median, not the interval
    med = sorted(ratios)[len(ratios) // 2]
    if med >= 1:
        return "not separated"
    return "bottleneck" if alone < in_memory else "costs"


def no_recheck(ratios, in_memory, alone, copies):   # a faster fed step passes for not separated
    if max(ratios) >= 1:
        return "not separated"
    return "bottleneck" if alone < in_memory else "costs"


def alone_only(ratios, in_memory, alone, copies):   # looks at the pipeline's own rate only
    return "bottleneck" if alone < in_memory else "not separated"


def never_bottleneck(ratios, in_memory, alone, copies):   # the paired rule, but never asks whether it keeps up
    return "not separated" if min(ratios) <= 1 <= max(ratios) else "recheck" if min(ratios) > 1 else "costs"


def no_control(ratios, in_memory, alone, copies):   # the paired rule without the A/A' control
    if min(ratios) <= 1 <= max(ratios):
        return "not separated"
    if min(ratios) > 1:
        return "recheck"
    return "bottleneck" if alone < in_memory else "costs"


def _slower_by(column, threshold=True, order=-1, both=True):
    """A slower_ops that compares ``column`` (a function of a row), optionally without min_ms, ascending, or over op
    types missing from ``before``."""
    def slower_ops(before, after, factor=1.5, min_ms=0.1):
        old, new = {r["op_type"]: column(r) for r in before}, {r["op_type"]: column(r) for r in after}
        found = [op for op in new if (op in old or not both) and (new[op] >= min_ms or not threshold)
                 and new[op] > factor * old.get(op, 0.0)]
        return sorted(found, key=lambda op: order * new[op])
    return slower_ops


def per_step(r):
    return r["mean_ms"] * r["calls_per_step"]


#: (exercise, a typical wrong answer, what its message must say): test_i18n_nb08.py checks the same answers in Chinese
REJECTED = [
    (nb08.q1, outputs_only, "compare the gradients"),
    (nb08.q1, gradients_only, "compare the outputs too"),
    (nb08.q1, bit_for_bit, "float32 rounding"),
    (nb08.q1, lambda a, b, x, atol=1e-6: "same", "True or False"),
    (nb08.q2, median_rule, "whatever the median"),
    (nb08.q2, no_recheck, "the machine changed"),
    (nb08.q2, alone_only, "costs it part of its rate"),
    (nb08.q2, never_bottleneck, "fewer batches per second"),
    (nb08.q2, no_control, "than the copies came apart"),
    (nb08.q2, lambda r, m, a, c: "slow", "return one of"),
    (nb08.q3, _slower_by(lambda r: r["share_pct"]), "not share_pct"),
    (nb08.q3, _slower_by(lambda r: r["total_ms"]), "different numbers of steps"),
    (nb08.q3, _slower_by(lambda r: r["mean_ms"]), "runs 9 times a step"),
    (nb08.q3, _slower_by(per_step, threshold=False), "less than min_ms"),
    (nb08.q3, _slower_by(per_step, order=1), "wrong order"),
    (nb08.q3, _slower_by(per_step, both=False), "second profile only"),
    (nb08.q3, lambda b, a, factor=1.5, min_ms=0.1: "MaxPoolGrad", "list of operator type names"),
]


@pytest.mark.parametrize("exercise", [nb08.q1, nb08.q2, nb08.q3])
def test_the_reference_passes_and_a_blank_is_not_attempted(exercise):
    assert exercise.check(*exercise.reference()) == Outcome.CORRECT
    assert exercise.check(____) == Outcome.NOT_ATTEMPTED


@pytest.mark.parametrize("exercise, answer, says", REJECTED)
def test_a_typical_wrong_answer_is_refused_with_its_reason(exercise, answer, says):
    result = exercise.check(answer)
    assert result == Outcome.INCORRECT and says in result.message, result.message
