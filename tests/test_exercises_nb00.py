"""Notebook 00's exercise checks accept the reference and reject typical wrong answers."""

import numpy as np

from course_utils.exercises import Outcome, ____, nb00


def test_q1_compiled_mode():
    import mindspore as ms

    assert nb00.q1.check(*nb00.q1.reference()) == Outcome.CORRECT
    assert nb00.q1.check(____) == Outcome.NOT_ATTEMPTED
    wrong = nb00.q1.check(ms.PYNATIVE_MODE)
    assert wrong == Outcome.INCORRECT and "eagerly" in wrong.message
    assert "got the string 'GRAPH_MODE'" in nb00.q1.check("GRAPH_MODE").message
    for answer in (ms.PYNATIVE_MODE, "GRAPH_MODE", 7):   # symptoms only: the message never gives the answer away
        assert "GRAPH_MODE" not in nb00.q1.check(answer).message.replace("'GRAPH_MODE'", "")


def test_q2_count_digit():
    assert nb00.q2.check(*nb00.q2.reference()) == Outcome.CORRECT
    assert nb00.q2.check(lambda labels, digit: ____) == Outcome.NOT_ATTEMPTED
    as_numpy = nb00.q2.check(lambda labels, digit: np.sum(labels == digit))
    assert as_numpy == Outcome.INCORRECT
    assert "expected a Python int, got" in as_numpy.message and "int()" not in as_numpy.message
    off_by_one = nb00.q2.check(lambda labels, digit: int(np.sum(labels == digit)) + 1)
    assert off_by_one == Outcome.INCORRECT and "expected 3, got 4" in off_by_one.message
    crashing = nb00.q2.check(lambda labels, digit: labels.count(digit))
    assert crashing == Outcome.INCORRECT and "AttributeError" in crashing.message
