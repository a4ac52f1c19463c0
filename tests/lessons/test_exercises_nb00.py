"""Notebook 00's exercise checks accept the reference and reject typical wrong answers."""

import time

import mindspore as ms
import numpy as np
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


def _per_shape(read, warm_up=False):
    """A shape_timings that times each call of fn up to ``read(result)``, grouped by shape."""
    def shape_timings(fn, inputs):
        times = {}
        for x in inputs:
            if warm_up:
                read(fn(x))
            start = time.perf_counter()
            read(fn(x))
            times.setdefault(tuple(x.shape), []).append(time.perf_counter() - start)
        return {shape: (t[0], float(np.median(t[1:]))) for shape, t in times.items()}
    return shape_timings


def _lesson_loop(fn, inputs):
    """The lesson's timing loop (first_and_steady) pasted, ``* 1e3`` dropped: a list, not grouped by shape."""
    times = []
    for batch in inputs:
        start = time.perf_counter()
        fn(batch).asnumpy()
        times.append(time.perf_counter() - start)
    return times


def _as_if_contiguous(fn, inputs):
    """first_and_steady's reading of the times: the first call overall, then the later ones, per shape."""
    times = _lesson_loop(fn, inputs)
    shapes = [tuple(x.shape) for x in inputs]
    return {shape: (times[0], float(np.median([t for t, s in zip(times[1:], shapes[1:]) if s == shape])))
            for shape in set(shapes)}


def _milliseconds(fn, inputs):
    return {shape: (a * 1e3, b * 1e3) for shape, (a, b) in nb00.shape_timings(fn, inputs).items()}


#: The trap of the exercise's brief: the clock stops when fn returns, before its result is on the host.
_without_the_result = _per_shape(lambda result: None)
#: Another right answer: float() of one element waits for the result as .asnumpy() does.
_reading_with_float = _per_shape(lambda result: float(result[0]))


def _mean_of_all(fn, inputs):
    """The steady time as the mean of all of a shape's calls, its first (compiling) call included."""
    out = {}
    for shape, (first, steady) in nb00.shape_timings(fn, inputs).items():
        count = sum(tuple(x.shape) == shape for x in inputs)
        out[shape] = (first, (first + steady * (count - 1)) / count)
    return out


def test_q2_shape_timings():
    assert nb00.q2.check(*nb00.q2.reference()) == Outcome.CORRECT
    assert nb00.q2.check(_reading_with_float) == Outcome.CORRECT
    assert nb00.q2.check(lambda fn, inputs: ____) == Outcome.NOT_ATTEMPTED
    # the shortcut: the lesson's loop pasted as it is
    pasted = nb00.q2.check(_lesson_loop)
    assert pasted == Outcome.INCORRECT and "expected a dict with one entry per input shape" in pasted.message
    contiguous = nb00.q2.check(_as_if_contiguous)   # the 16-row shape's first call is not the first call overall
    assert contiguous == Outcome.INCORRECT and "the first call with shape (16, 8) is call 2 of 8" in contiguous.message
    unsynchronised = nb00.q2.check(_without_the_result)
    assert unsynchronised == Outcome.INCORRECT and "over only when its result is on the host" in unsynchronised.message
    assert ".asnumpy()" not in unsynchronised.message   # a symptom, not the answer
    warm_up = nb00.q2.check(_per_shape(lambda result: result.asnumpy(), warm_up=True))
    assert warm_up == Outcome.INCORRECT and "expected one call per input" in warm_up.message
    milliseconds = nb00.q2.check(_milliseconds)
    assert milliseconds == Outcome.INCORRECT and "return seconds" in milliseconds.message
    mean_of_all = nb00.q2.check(_mean_of_all)
    assert mean_of_all == Outcome.INCORRECT and "the steady time is the median" in mean_of_all.message
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


class _Unscaled(nn.Cell):
    """Dropout that zeroes a share p in training but does not scale the values it keeps."""

    def __init__(self, p):
        super().__init__()
        self.p = p

    def construct(self, x):
        return x * (ms.ops.rand_like(x) >= self.p).astype(x.dtype) if self.training else x


class _AlwaysDropping(nn.Cell):
    """Dropout that also drops in evaluation mode."""

    def __init__(self, p):
        super().__init__()
        self.p = p

    def construct(self, x):
        return ms.ops.dropout(x, self.p, training=True)


def _mlp(drop=lambda p: nn.Dropout(p=p), last=lambda hidden, out: nn.Dense(hidden, out), layers=None):
    """A port of PyTorch's Sequential(Linear, ReLU, Dropout(p), Linear), with one part replaced."""
    def port_mlp(in_features, hidden, out_features, p):
        parts = [nn.Dense(in_features, hidden), nn.ReLU(), drop(p), last(hidden, out_features)]
        return nn.SequentialCell(parts if layers is None else [parts[i] for i in layers])
    return port_mlp


def test_q4_port_mlp():
    assert nb00.q4.check(*nb00.q4.reference()) == Outcome.CORRECT
    assert nb00.q4.check(lambda i, h, o, p: ____) == Outcome.NOT_ATTEMPTED
    # the trap: PyTorch's positional p lands in MindSpore's deprecated keep_prob
    positional = nb00.q4.check(_mlp(drop=lambda p: nn.Dropout(p)))
    assert positional == Outcome.INCORRECT and "zeroed 8" in positional.message
    assert "took 0.2 as the probability to keep a value" in positional.message and "keep_prob" in positional.message
    kept_share = nb00.q4.check(_mlp(drop=lambda p: nn.Dropout(p=1 - p)))   # the same symptom the other way round
    assert kept_share == Outcome.INCORRECT and "took 0.2 as the probability to keep" in kept_share.message
    deprecated = nb00.q4.check(_mlp(drop=lambda p: nn.Dropout(keep_prob=1 - p)))   # right behaviour, old parameter
    assert deprecated == Outcome.INCORRECT and "through keep_prob" in deprecated.message
    unscaled = nb00.q4.check(_mlp(drop=_Unscaled))
    assert unscaled == Outcome.INCORRECT and "became [1.0]" in unscaled.message and "1.25" in unscaled.message
    always = nb00.q4.check(_mlp(drop=_AlwaysDropping))
    assert always == Outcome.INCORRECT and "in evaluation mode" in always.message
    no_dropout = nb00.q4.check(_mlp(layers=(0, 1, 3)))
    assert no_dropout == Outcome.INCORRECT and "expected the 4 layers" in no_dropout.message
    assert "got 3: Dense, ReLU, Dense" in no_dropout.message
    wrong_out = nb00.q4.check(_mlp(last=lambda hidden, out: nn.Dense(hidden, hidden)))
    assert wrong_out == Outcome.INCORRECT and "of the model as (5, 64)" in wrong_out.message
    swapped = nb00.q4.check(_mlp(layers=(0, 2, 1, 3)))   # Dropout before ReLU: ReLU is not the second layer
    assert swapped == Outcome.INCORRECT and "the second layer" in swapped.message
    cell_list = nb00.q4.check(
        lambda i, h, o, p: nn.CellList([nn.Dense(i, h), nn.ReLU(), nn.Dropout(p=p), nn.Dense(h, o)]))
    assert cell_list == Outcome.INCORRECT and "expected an nn.SequentialCell" in cell_list.message
    for wrong in (positional, kept_share, unscaled, always):   # symptoms only: no message gives the answer away
        assert "p=" not in wrong.message
    assert ms.get_context("mode") == ms.GRAPH_MODE          # the check changes no mode
