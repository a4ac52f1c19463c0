"""Notebook 00's exercise checks accept the reference and reject typical wrong answers."""

import mindspore as ms
from mindspore import nn

from course_utils.exercises import Outcome, ____, nb00


def test_q1_torch_like_layers():
    assert nb00.q1.check(*nb00.q1.reference()) == Outcome.CORRECT
    assert nb00.q1.check(____) == Outcome.NOT_ATTEMPTED
    assert nb00.q1.check(lambda i, o, k: ____) == Outcome.NOT_ATTEMPTED
    defaults = nb00.q1.check(lambda i, o, k: (nn.Conv2d(i, o, k), nn.MaxPool2d(k)))
    assert defaults == Outcome.INCORRECT and "no bias parameter" in defaults.message
    same_padding = nb00.q1.check(lambda i, o, k: (nn.Conv2d(i, o, k, has_bias=True), nn.MaxPool2d(k, k)))
    assert same_padding == Outcome.INCORRECT and "gives shape (1, 6, 28, 28)" in same_padding.message
    stride_one = nb00.q1.check(lambda i, o, k: (nn.Conv2d(i, o, k, pad_mode="valid", has_bias=True), nn.MaxPool2d(k)))
    assert stride_one == Outcome.INCORRECT and "the pooling gives shape (1, 1, 24, 24)" in stride_one.message
    swapped = nb00.q1.check(lambda i, o, k: (nn.MaxPool2d(k, k), nn.Conv2d(i, o, k, pad_mode="valid", has_bias=True)))
    assert swapped == Outcome.INCORRECT and "expected (nn.Conv2d, nn.MaxPool2d)" in swapped.message
    for wrong in (defaults, same_padding, stride_one):   # symptoms only: no message gives the answer away
        assert "pad_mode" not in wrong.message and "has_bias" not in wrong.message


def _no_restore(mode, fn):
    ms.set_context(mode=mode)
    return fn()


def _no_finally(mode, fn):
    saved = ms.get_context("mode")
    ms.set_context(mode=mode)
    result = fn()
    ms.set_context(mode=saved)
    return result


def _swallows(mode, fn):
    saved = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        return fn()
    except ValueError:
        return None
    finally:
        ms.set_context(mode=saved)


def test_q2_in_mode():
    assert nb00.q2.check(*nb00.q2.reference()) == Outcome.CORRECT
    assert ms.get_context("mode") == ms.GRAPH_MODE          # the check leaves the mode it found
    assert nb00.q2.check(lambda mode, fn: ____) == Outcome.NOT_ATTEMPTED
    no_restore = nb00.q2.check(_no_restore)
    assert no_restore == Outcome.INCORRECT and "expected the mode from before, GRAPH_MODE" in no_restore.message
    no_finally = nb00.q2.check(_no_finally)
    assert no_finally == Outcome.INCORRECT and "even when fn fails" in no_finally.message
    swallows = nb00.q2.check(_swallows)
    assert swallows == Outcome.INCORRECT and "the error disappeared" in swallows.message
    no_result = nb00.q2.check(lambda mode, fn: nb00.q2.reference()[0](mode, fn) and None)
    assert no_result == Outcome.INCORRECT and "expected what fn returned" in no_result.message
    ignores_mode = nb00.q2.check(lambda mode, fn: fn())
    assert ignores_mode == Outcome.INCORRECT and "expected once, in PYNATIVE_MODE" in ignores_mode.message
    assert ms.get_context("mode") == ms.GRAPH_MODE
