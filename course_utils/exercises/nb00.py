"""Exercises of notebook 00 (environment setup): the MindSpore habits and PyTorch differences the lesson teaches.

* ``q1`` PyTorch's padded convolution in MindSpore: ``torch_like_conv(in_channels, out_channels, kernel_size,
  padding)`` returns the ``nn.Conv2d`` that computes what PyTorch's ``nn.Conv2d(in, out, k, padding=p)`` computes
  (a layer the lesson's table does not spell out: the learner finds ``pad_mode="pad"`` on the reference page).
* ``q2`` timing a compiled function per input shape: ``shape_timings(fn, inputs)`` calls ``fn(x)`` once per input
  and returns ``{shape: (first, steady)}``, the seconds of that shape's first call and the median of its later calls,
  each call timed until its result is on the host. The check hands it a new ``@ms.jit`` function and batches of two
  sizes in mixed order (as a pipeline whose last batch is smaller mixes them), which the lesson's contiguous
  timing loop does not group. Its ``fn`` returns before the result is on the host, as a call on an Ascend or a GPU
  does (``_Pending``: reading the values waits for them), so a time that stops before ``.asnumpy()`` is too short;
  and each shape's first call must show its compilation.
* ``q3`` PyTorch's BatchNorm momentum: ``batchnorm_like_torch(num_features, torch_momentum)`` returns the
  ``nn.BatchNorm2d`` whose running statistics follow a batch as PyTorch's ``nn.BatchNorm2d(num_features,
  momentum=torch_momentum)`` does; the check runs one training batch and compares the running mean.
* ``q4`` a small port: ``port_mlp(in_features, hidden, out_features, p)`` returns the ``nn.SequentialCell`` that
  computes what PyTorch's ``nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Dropout(p),
  nn.Linear(hidden, out_features))`` computes. The trap: MindSpore 2.10's ``nn.Dropout(p)`` with ``p`` positional
  fills the deprecated ``keep_prob`` (it keeps a share ``p``), and its deprecation warning is a log line the course's
  quiet logs hide. The check runs the model and its layers: output shapes, the share its dropout zeroes and the
  scale of the kept values after ``set_train(True)`` on the whole model, and identity in evaluation mode.
"""

from __future__ import annotations

import inspect
import time

from course_utils.exercises import Exercise, Incorrect, register
from course_utils.i18n import N_, tr


# The reference solutions (shown by solution(), checked by the tests). ms and nn are the notebook's names; they are
# imported inside so that importing this module never imports MindSpore.

def torch_like_conv(in_channels, out_channels, kernel_size, padding):
    from mindspore import nn

    # pad_mode="pad" takes the padding as given: zeros on every side, as PyTorch pads
    return nn.Conv2d(in_channels, out_channels, kernel_size, pad_mode="pad", padding=padding, has_bias=True)


def shape_timings(fn, inputs):
    import numpy as np

    times = {}                          # shape -> the seconds of each call with that shape, in order
    for x in inputs:
        start = time.perf_counter()
        fn(x).asnumpy()                 # .asnumpy() waits for the result
        times.setdefault(tuple(x.shape), []).append(time.perf_counter() - start)
    return {shape: (t[0], float(np.median(t[1:]))) for shape, t in times.items()}


def batchnorm_like_torch(num_features, torch_momentum):
    from mindspore import nn

    return nn.BatchNorm2d(num_features, momentum=1 - torch_momentum)   # MindSpore's momentum weighs the old value


def port_mlp(in_features, hidden, out_features, p):
    from mindspore import nn

    return nn.SequentialCell(
        nn.Dense(in_features, hidden),   # Linear is Dense, with the same weight layout and init
        nn.ReLU(),
        nn.Dropout(p=p),                 # by name: the first positional parameter of nn.Dropout is keep_prob
        nn.Dense(hidden, out_features))


def _shape_in_pynative(layer, x) -> tuple:
    """``layer(x).shape`` in PyNative (a checker must not compile every candidate layer); the mode is restored."""
    from course_utils.runtime import temporary_mode

    with temporary_mode("pynative"):
        return tuple(layer(x).shape)


class _SolvedBy(Exercise):
    """An exercise whose solution is a reference function above: shown as its source, so the two cannot differ."""

    solved_by = staticmethod(lambda: None)

    @property
    def solution_text(self) -> str:
        return inspect.getsource(self.solved_by)

    def reference(self):
        return (self.solved_by,)


class TorchLikeConv(_SolvedBy):
    names = ("torch_like_conv",)
    title = N_("PyTorch's padded Conv2d in MindSpore")
    hint_text = N_("Two Conv2d defaults differ from PyTorch's (the table \"Coming from PyTorch\"). For the "
                   "padding: which pad_mode of nn.Conv2d takes an explicit padding? Its reference page lists them.")
    solved_by = staticmethod(torch_like_conv)

    # (in_channels, out_channels, kernel_size, padding, input side): paddings that "same" and "valid" do not give
    CASES = ((1, 6, 5, 1, 28), (3, 4, 3, 2, 12), (2, 3, 3, 0, 10))

    def _check(self, torch_like_conv):
        import mindspore as ms
        from mindspore import nn, ops

        for in_c, out_c, k, padding, side in self.CASES:
            call = f"torch_like_conv({in_c}, {out_c}, {k}, {padding})"
            conv = self.call(torch_like_conv, in_c, out_c, k, padding)
            if not isinstance(conv, nn.Conv2d):
                raise Incorrect(tr("{call}: expected an nn.Conv2d, got {got}.", call=call, got=type(conv).__name__))
            if conv.bias is None:
                raise Incorrect(tr("{call}: the convolution has no bias parameter; PyTorch's nn.Conv2d has one.",
                                   call=call))
            got = _shape_in_pynative(conv, ops.ones((1, in_c, side, side), ms.float32))
            want = (1, out_c, side + 2 * padding - k + 1, side + 2 * padding - k + 1)
            if got != want:
                raise Incorrect(tr("{call}: on a {side}x{side} input it gives shape {got}; PyTorch's "
                                   "nn.Conv2d({in_c}, {out_c}, {k}, padding={padding}) gives {want}.", call=call,
                                   side=side, got=got, in_c=in_c, out_c=out_c, k=k, padding=padding, want=want))


class _Pending:
    """What the check's ``fn`` returns: a tensor whose values reach the host only at ``ready`` (a perf_counter time).

    On an Ascend or a GPU a call returns as soon as its work is launched, and only reading the result waits for it.
    On a CPU MindSpore often returns with the result computed, so a timing that forgets ``.asnumpy()`` would look
    right there; this wrapper makes the wait visible on every device. Reading the values (``asnumpy``, ``item``,
    ``tolist``, ``float``, ``numpy.asarray``, printing) waits; a tensor computed from it (``[0]``, ``.sum()``) is
    pending until the same time.
    """

    def __init__(self, tensor, ready: float, on_read=None):
        self._tensor, self._ready, self._on_read = tensor, ready, on_read

    def _wait(self):
        while (rest := self._ready - time.perf_counter()) > 0:
            time.sleep(rest)
        if self._on_read is not None:
            self._on_read()
        return self._tensor

    def _pending_too(self, value):
        import mindspore as ms

        return _Pending(value, self._ready, self._on_read) if isinstance(value, ms.Tensor) else value

    def asnumpy(self):
        return self._wait().asnumpy()

    def item(self):
        return self._wait().item()

    def tolist(self):
        return self._wait().tolist()

    def __float__(self):
        return float(self._wait().asnumpy())

    def __array__(self, dtype=None, copy=None):
        values = self._wait().asnumpy()
        return values if dtype is None else values.astype(dtype)

    def __getitem__(self, index):
        return self._pending_too(self._tensor[index])

    def __getattr__(self, name):
        value = getattr(self._tensor, name)
        if not callable(value):
            return value
        return lambda *args, **kwargs: self._pending_too(value(*args, **kwargs))

    def __repr__(self):
        return repr(self._wait())


class ShapeTimings(_SolvedBy):
    names = ("shape_timings",)
    solved_by = staticmethod(shape_timings)
    title = N_("first and steady call time of each input shape")
    hint_text = N_("Keep a dict from tuple(x.shape) to the list of that shape's times. Time each call on its own, "
                   "from just before fn(x) until its result is on the host (call .asnumpy() on what fn returns "
                   "before you stop the clock); call fn exactly once per input, with no warm-up call. Then each "
                   "shape's pair is its list's first time and the median of the rest (numpy.median).")

    # Two batch sizes in mixed order: each one's first call compiles; a ratio of 5 is far below what compiling costs
    # (tens to hundreds of milliseconds against well under one for a later call), once the result's delay is taken
    # off. Each result reaches the host some seconds after fn returned (_Pending): DELAY, FIRST for the first call
    # overall and LONG for the first call of the second shape, so that a time taken from another call (the first
    # call overall, say) cannot pass for it, and a steady time that averages in a first call stands out from the
    # later calls' times however loaded the machine is (with DELAY alone, a compile of ~0.1 s averaged over four
    # calls fell inside a loaded machine's spread). The check knows each call's bounds: from fn's entry to the
    # result's arrival at least, and at most from the previous result's arrival to the next call's entry (where a
    # right answer starts and stops its clock).
    SHAPES = ((64, 8), (16, 8), (64, 8), (64, 8), (16, 8), (64, 8), (16, 8), (16, 8))
    RATIO = 5
    DELAY = 0.02
    FIRST = 0.3
    LONG = 0.8

    def _check(self, shape_timings):
        import mindspore as ms
        from mindspore import ops

        @ms.jit
        def scaled_sum(x):   # a new function on every check: it has compiled nothing yet
            return (x * 2.0 + 1.0).sum(axis=1)

        shapes, entries, readies, read = [], [], [], set()
        delays = [{0: self.FIRST, 1: self.LONG}.get(i, self.DELAY) for i in range(len(self.SHAPES))]
        unread = []   # the calls whose result was not read before the next call (or the end)

        def fn(x):
            if len(read) < len(entries):
                unread.append(len(entries))
            entries.append(time.perf_counter())
            shapes.append(tuple(x.shape))
            result = scaled_sum(x)
            readies.append(time.perf_counter() + (delays + [self.DELAY] * len(readies))[len(readies)])
            n = len(readies)
            return _Pending(result, readies[-1], on_read=lambda: read.add(n))

        inputs = [ops.ones(shape, ms.float32) for shape in self.SHAPES]
        start = time.perf_counter()
        timings = self.call(shape_timings, fn, inputs)
        end = time.perf_counter()
        want = list(self.SHAPES)
        if shapes != want:
            raise Incorrect(tr("shape_timings(fn, inputs) called fn on inputs of shapes {got}; expected one call "
                               "per input, in order: {want}.", got=shapes, want=want))
        keys = sorted(set(want), reverse=True)
        if (not isinstance(timings, dict) or set(timings) != set(keys)
                or not all(isinstance(pair, (list, tuple)) and len(pair) == 2
                           and all(isinstance(t, (int, float)) and t > 0 for t in pair) for pair in timings.values())):
            raise Incorrect(tr("shape_timings(fn, inputs) returned {got}; expected a dict with one entry per input "
                               "shape, {keys}, each a pair (first, steady) of positive numbers of seconds.",
                               got=repr(timings), keys=keys))
        largest = max(t for pair in timings.values() for t in pair)
        if largest > end - start:
            raise Incorrect(tr("one of the times is {largest:.3g}, but the whole shape_timings(fn, inputs) took "
                               "{elapsed:.3g} s: return seconds, as time.perf_counter() differences are.",
                               largest=largest, elapsed=end - start))
        if len(read) < len(entries) and not unread:
            unread.append(len(entries))
        if unread:
            n = unread[0]
            raise Incorrect(tr("the result of call {n} reached the host {delay:.2g} s after fn returned, and nothing "
                               "read it before the next call: a call is over only when its result is on the host. "
                               "Stop the clock after reading the result.", n=n, delay=delays[n - 1]))
        lowest = [ready - entry for entry, ready in zip(entries, readies)]
        highest = [after - before for before, after in zip([start] + readies[:-1], entries[1:] + [end])]
        for shape in keys:
            calls = [i for i, s in enumerate(shapes) if s == shape]
            first, steady = timings[shape]
            if not lowest[calls[0]] <= first <= highest[calls[0]]:
                raise Incorrect(tr("the first call with shape {shape} is call {n} of {total}, and it took between "
                                   "{low:.3g} s and {high:.3g} s; you report {first:.3g} s. The shapes come in mixed "
                                   "order: the first call of a shape is not always the first call overall.",
                                   shape=shape, n=calls[0] + 1, total=len(shapes), low=lowest[calls[0]],
                                   high=highest[calls[0]], first=first))
            low, high = min(lowest[i] for i in calls[1:]), max(highest[i] for i in calls[1:])
            if not low <= steady <= high:
                raise Incorrect(tr("for shape {shape} you report a steady time of {steady:.2g} s, but its later "
                                   "calls each took between {low:.2g} s and {high:.2g} s: the steady time is the "
                                   "median of the calls after the first, which compiles.", shape=shape,
                                   steady=steady, low=low, high=high))
            work_first, work_steady = first - delays[calls[0]], steady - self.DELAY
            if work_first < self.RATIO * work_steady:
                raise Incorrect(tr("for shape {shape} the first call took {first:.2g} s and the steady time is "
                                   "{steady:.2g} s: the first call of a new shape compiles and must be clearly "
                                   "slower.", shape=shape, first=first, steady=steady))


class BatchNormLikeTorch(_SolvedBy):
    names = ("batchnorm_like_torch",)
    solved_by = staticmethod(batchnorm_like_torch)
    title = N_("PyTorch's BatchNorm momentum in MindSpore")
    hint_text = N_("The BatchNorm row of \"Coming from PyTorch\" and the BatchNorm check after the table: does "
                   "each framework's momentum weigh the old running value or the new batch?")

    def _check(self, batchnorm_like_torch):
        import mindspore as ms
        import numpy as np
        from mindspore import nn, ops

        for features, torch_momentum in ((3, 0.1), (2, 0.3)):
            call = f"batchnorm_like_torch({features}, {torch_momentum})"
            bn = self.call(batchnorm_like_torch, features, torch_momentum)
            if not isinstance(bn, nn.BatchNorm2d):
                raise Incorrect(tr("{call}: expected an nn.BatchNorm2d, got {got}.", call=call,
                                   got=type(bn).__name__))
            batch = ops.ones((8, features, 4, 4), ms.float32) * ops.arange(1, features + 1, dtype=ms.float32).reshape(
                1, features, 1, 1)   # channel c holds c + 1 everywhere: its batch mean is c + 1
            saved = ms.get_context("mode")
            ms.set_context(mode=ms.PYNATIVE_MODE)
            try:
                bn.set_train()(batch)
            finally:
                ms.set_context(mode=saved)
            got = bn.moving_mean.asnumpy()
            want = (1 - torch_momentum) * 0.0 + torch_momentum * np.arange(1, features + 1)   # PyTorch's update
            if not np.allclose(got, want, atol=1e-5):
                raise Incorrect(tr("{call}: after one training batch with channel means {means}, starting from 0, "
                                   "the running mean is {got}; PyTorch's is {want}.", call=call,
                                   means=list(range(1, features + 1)), got=[round(float(v), 4) for v in got],
                                   want=[round(float(v), 4) for v in want]))


class PortMlp(_SolvedBy):
    names = ("port_mlp",)
    solved_by = staticmethod(port_mlp)
    title = N_("Port a small PyTorch model to MindSpore")
    hint_text = N_("The table of \"Coming from PyTorch\": Sequential and Linear have other names in MindSpore. "
                   "For the Dropout, the cell after the defaults: which parameter of MindSpore's nn.Dropout does a "
                   "number passed by position fill in, and what does it mean?")

    CASES = ((784, 64, 10, 0.2), (20, 200, 3, 0.7))   # neither p is 0.5: a share to keep and a share to drop differ
    BATCH = 5
    SIZE = 10000         # values per dropout call: the share zeroed is within about 0.5% of p (one standard deviation)
    TOLERANCE = 0.03     # more than six standard deviations

    def _check(self, port_mlp):
        import mindspore as ms
        import numpy as np
        from mindspore import nn, ops

        from course_utils.runtime import temporary_mode

        for in_features, hidden, out_features, p in self.CASES:
            call = f"port_mlp({in_features}, {hidden}, {out_features}, {p})"
            net = self.call(port_mlp, in_features, hidden, out_features, p)
            if not isinstance(net, nn.SequentialCell):
                raise Incorrect(tr("{call}: expected an nn.SequentialCell (PyTorch's nn.Sequential), got {got}.",
                                   call=call, got=f"{type(net).__module__}.{type(net).__name__}"))
            layers = list(net.cell_list) if hasattr(net, "cell_list") else [net[i] for i in range(len(net))]
            if len(layers) != 4:
                raise Incorrect(tr("{call}: expected the 4 layers of the PyTorch model, in its order (Linear, ReLU, "
                                   "Dropout, Linear), got {n}: {names}.", call=call, n=len(layers),
                                   names=", ".join(type(layer).__name__ for layer in layers)))
            x = ops.randn(self.BATCH, in_features)
            signs = ms.Tensor([[-1.0, 2.0]])
            values = ops.arange(1, self.SIZE + 1, dtype=ms.float32).reshape(1, self.SIZE)
            with temporary_mode("pynative"):   # a checker must not compile every candidate model
                net.set_train(False)
                shapes = (tuple(layers[0](x).shape), tuple(net(x).shape))
                relu = layers[1](signs).asnumpy().tolist()
                evaluated = layers[2](values).asnumpy()
                same = np.array_equal(net(x).asnumpy(), net(x).asnumpy())
                net.set_train(True)            # on the whole model, as a training loop does
                trained = layers[2](ops.ones((1, self.SIZE), ms.float32)).asnumpy()
                net.set_train(False)
            want = ((self.BATCH, hidden), (self.BATCH, out_features))
            if shapes != want:
                raise Incorrect(tr("{call}: a batch of shape {inp} came out of the first layer as {got0} and of "
                                   "the model as {got1}; PyTorch's model gives {want0} and {want1}.", call=call,
                                   inp=(self.BATCH, in_features), got0=shapes[0], got1=shapes[1], want0=want[0],
                                   want1=want[1]))
            if relu != [[0.0, 2.0]]:
                raise Incorrect(tr("{call}: the second layer turned [-1, 2] into {got}; PyTorch's ReLU gives "
                                   "[0, 2].", call=call, got=relu[0]))
            share = float((trained == 0).mean())
            if abs(share - p) > self.TOLERANCE:
                if abs(share - (1 - p)) <= self.TOLERANCE:
                    raise Incorrect(tr("{call}: in training mode its dropout zeroed {share:.1%} of the values; "
                                       "PyTorch's nn.Dropout({p}) zeroes {p:.0%}. Your layer took {p} as the "
                                       "probability to keep a value: the old keep_prob meaning, not PyTorch's drop "
                                       "probability.", call=call, share=share, p=p))
                raise Incorrect(tr("{call}: in training mode (set_train(True) on the model) its dropout zeroed "
                                   "{share:.1%} of the values; PyTorch's nn.Dropout({p}) zeroes about {p:.0%}.",
                                   call=call, share=share, p=p))
            kept = trained[trained != 0]
            if not np.allclose(kept, 1 / (1 - p), rtol=1e-5):
                raise Incorrect(tr("{call}: in training mode the values its dropout kept (all ones before) became "
                                   "{got}; PyTorch scales them by 1/(1 - p) = {want:.4g}, so that the mean stays 1.",
                                   call=call, got=sorted({round(float(v), 4) for v in kept})[:3], want=1 / (1 - p)))
            if not np.array_equal(evaluated, values.asnumpy()) or not same:
                raise Incorrect(tr("{call}: in evaluation mode (set_train(False)) its dropout changed its input; "
                                   "dropout must then pass the input through unchanged.", call=call))
            dropout = layers[2]
            if getattr(dropout, "p", 0) is None and getattr(dropout, "keep_prob", None) is not None:
                raise Incorrect(tr("{call}: its dropout drops as PyTorch's does, but through keep_prob, the "
                                   "parameter MindSpore 2.10 deprecates (its warning is a log line the course's "
                                   "quiet logs hide). Give the drop probability itself.", call=call))


q1 = TorchLikeConv()
q2 = ShapeTimings()
q3 = BatchNormLikeTorch()
q4 = PortMlp()
register(globals(), "00")
