"""Notebook 08's exercise checks accept the reference and reject the typical wrong answers."""

import mindspore as ms
import numpy as np

from course_utils.exercises import Outcome, ____, nb08


def outputs_only(a, b, x, atol=1e-6):
    return bool(np.allclose(a(x).asnumpy(), b(x).asnumpy(), atol=atol))


def bit_for_bit(a, b, x, atol=1e-6):
    if not np.array_equal(a(x).asnumpy(), b(x).asnumpy()):
        return False
    return bool(np.array_equal(ms.grad(a)(x).asnumpy(), ms.grad(b)(x).asnumpy()))


def no_tie_rule(in_memory, fed, alone, noise_pct):
    if fed >= in_memory:
        return "tie"
    return "bottleneck" if alone < in_memory else "costs"


def test_q1_same_function():
    assert nb08.q1.check(*nb08.q1.reference()) == Outcome.CORRECT
    assert nb08.q1.check(____) == Outcome.NOT_ATTEMPTED
    blind = nb08.q1.check(outputs_only)
    assert blind == Outcome.INCORRECT and "compare the gradients" in blind.message
    strict = nb08.q1.check(bit_for_bit)
    assert strict == Outcome.INCORRECT and "float32 rounding" in strict.message
    text = nb08.q1.check(lambda a, b, x, atol=1e-6: "same")
    assert text == Outcome.INCORRECT and "True or False" in text.message


def test_q2_pipeline_verdict():
    assert nb08.q2.check(*nb08.q2.reference()) == Outcome.CORRECT
    assert nb08.q2.check(____) == Outcome.NOT_ATTEMPTED
    hasty = nb08.q2.check(no_tie_rule)
    assert hasty == Outcome.INCORRECT and "within the noise floor" in hasty.message
    alone_only = nb08.q2.check(lambda m, f, a, n: "bottleneck" if a < m else "tie")
    assert alone_only == Outcome.INCORRECT and "costs it part of its rate" in alone_only.message
    always = nb08.q2.check(lambda m, f, a, n: "costs" if 100 * (m / f - 1) > n else "tie")
    assert always == Outcome.INCORRECT and "fewer batches per second" in always.message
    other = nb08.q2.check(lambda m, f, a, n: "slow")
    assert other == Outcome.INCORRECT and "return one of" in other.message


def test_q1_a_gradients_only_answer_is_refused():
    def gradients_only(a, b, x, atol=1e-6):
        return bool(np.allclose(ms.grad(a)(x).asnumpy(), ms.grad(b)(x).asnumpy(), atol=atol))

    result = nb08.q1.check(gradients_only)
    assert result == Outcome.INCORRECT and "compare the outputs too" in result.message
