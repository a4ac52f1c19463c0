"""Notebook 00's exercise checks accept the reference and reject typical wrong answers."""

import time

import mindspore as ms
from mindspore import nn

from course_utils.exercises import Outcome, ____, nb00


def test_q1_torch_like_conv():
    assert nb00.q1.check(*nb00.q1.reference()) == Outcome.CORRECT
    assert nb00.q1.check(____) == Outcome.NOT_ATTEMPTED
    assert nb00.q1.check(lambda i, o, k, p: ____) == Outcome.NOT_ATTEMPTED
    defaults = nb00.q1.check(lambda i, o, k, p: nn.Conv2d(i, o, k))
    assert defaults == Outcome.INCORRECT and "no bias parameter" in defaults.message
    same_padding = nb00.q1.check(lambda i, o, k, p: nn.Conv2d(i, o, k, has_bias=True))
    assert same_padding == Outcome.INCORRECT and "gives shape (1, 6, 28, 28)" in same_padding.message
    no_padding = nb00.q1.check(lambda i, o, k, p: nn.Conv2d(i, o, k, pad_mode="valid", has_bias=True))
    assert no_padding == Outcome.INCORRECT and "gives shape (1, 6, 24, 24)" in no_padding.message
    assert "padding=1) gives (1, 6, 26, 26)" in no_padding.message
    # padding without pad_mode="pad": MindSpore's own error names the pad_mode it needs
    padding_only = nb00.q1.check(lambda i, o, k, p: nn.Conv2d(i, o, k, padding=p, has_bias=True))
    assert padding_only == Outcome.INCORRECT and "your code raised ValueError" in padding_only.message
    pool = nb00.q1.check(lambda i, o, k, p: nn.MaxPool2d(k))
    assert pool == Outcome.INCORRECT and "expected an nn.Conv2d, got MaxPool2d" in pool.message
    for wrong in (defaults, same_padding, no_padding):   # symptoms only: no message gives the answer away
        assert "pad_mode" not in wrong.message and "has_bias" not in wrong.message


def _warm_up_first(fn, inputs):
    times = []
    for x in inputs:
        fn(x).asnumpy()
        times.append(nb00.call_times(fn, [x])[0])
    return times


def _milliseconds(fn, inputs):
    return [t * 1e3 for t in nb00.call_times(fn, inputs)]


def _one_average(fn, inputs):
    start = time.perf_counter()
    for x in inputs:
        fn(x).asnumpy()
    return [(time.perf_counter() - start) / len(inputs)] * len(inputs)


def _since_start(fn, inputs):
    start, times = time.perf_counter(), []
    for x in inputs:
        fn(x).asnumpy()
        times.append(time.perf_counter() - start)
    return times


def _each_call(read):
    """A call_times that times each call of fn up to ``read(result)``."""
    def call_times(fn, inputs):
        times = []
        for x in inputs:
            start = time.perf_counter()
            read(fn(x))
            times.append(time.perf_counter() - start)
        return times
    return call_times


#: The trap of the exercise's brief: the clock stops when fn returns, before its result is on the host.
_without_the_result = _each_call(lambda result: None)
#: Another right answer: float() of one element waits for the result as .asnumpy() does.
_reading_with_float = _each_call(lambda result: float(result[0]))


def test_q2_call_times():
    assert nb00.q2.check(*nb00.q2.reference()) == Outcome.CORRECT
    assert nb00.q2.check(_reading_with_float) == Outcome.CORRECT
    unsynchronised = nb00.q2.check(_without_the_result)
    assert unsynchronised == Outcome.INCORRECT and "over only when its result is on the host" in unsynchronised.message
    assert ".asnumpy()" not in unsynchronised.message   # a symptom, not the answer
    assert nb00.q2.check(lambda fn, inputs: ____) == Outcome.NOT_ATTEMPTED
    warm_up = nb00.q2.check(_warm_up_first)
    assert warm_up == Outcome.INCORRECT and "expected one call per input" in warm_up.message
    skips_first = nb00.q2.check(lambda fn, inputs: nb00.call_times(fn, inputs)[1:])
    assert skips_first == Outcome.INCORRECT and "expected a list of 6 positive numbers" in skips_first.message
    milliseconds = nb00.q2.check(_milliseconds)
    assert milliseconds == Outcome.INCORRECT and "return seconds" in milliseconds.message
    one_average = nb00.q2.check(_one_average)
    assert one_average == Outcome.INCORRECT and "the first call with 64 rows" in one_average.message
    since_start = nb00.q2.check(_since_start)   # each time includes the ones before: together more than the whole
    assert since_start == Outcome.INCORRECT and "the times add up to" in since_start.message
    assert ms.get_context("mode") == ms.GRAPH_MODE          # the check changes no mode


def test_q3_batchnorm_like_torch():
    assert nb00.q3.check(*nb00.q3.reference()) == Outcome.CORRECT
    assert nb00.q3.check(lambda c, m: ____) == Outcome.NOT_ATTEMPTED
    copied = nb00.q3.check(lambda c, m: nn.BatchNorm2d(c, momentum=m))   # PyTorch's number copied as it is
    assert copied == Outcome.INCORRECT and "the running mean is [0.9, 1.8, 2.7]; PyTorch's is [0.1, 0.2, 0.3]" in \
        copied.message
    default = nb00.q3.check(lambda c, m: nn.BatchNorm2d(c))   # 0.9 is right for 0.1, the first case, only
    assert default == Outcome.INCORRECT and "is [0.1, 0.2]; PyTorch's is [0.3, 0.6]" in default.message
    not_bn = nb00.q3.check(lambda c, m: nn.BatchNorm1d(c, momentum=1 - m))
    assert not_bn == Outcome.INCORRECT and "expected an nn.BatchNorm2d, got BatchNorm1d" in not_bn.message
    for wrong in (copied, default):   # symptoms only: no message gives the answer away
        assert "1 - " not in wrong.message and "momentum=" not in wrong.message
    assert ms.get_context("mode") == ms.GRAPH_MODE          # the check changes no mode
