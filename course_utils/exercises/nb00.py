"""Exercises of notebook 00 (environment setup): two MindSpore habits the lesson teaches.

* ``q1`` PyTorch's layers in MindSpore: ``torch_like_layers(in_channels, out_channels, kernel_size)`` returns the
  ``nn.Conv2d`` and ``nn.MaxPool2d`` that compute what PyTorch's ``nn.Conv2d(in, out, k)`` and
  ``nn.MaxPool2d(k)`` compute (the defaults table of "Coming from PyTorch").
* ``q2`` a mode switch that comes back: ``in_mode(mode, fn)`` runs ``fn()`` in ``mode`` and restores the mode
  that was set before, also when ``fn`` raises (``set_context`` / ``get_context``, as the lesson's cells do).
"""

from __future__ import annotations

import inspect

from course_utils.exercises import Exercise, Incorrect, register
from course_utils.i18n import N_, tr


# The reference solutions (shown by solution(), checked by the tests). ms and nn are the notebook's names; they are
# imported inside so that importing this module never imports MindSpore.

def torch_like_layers(in_channels, out_channels, kernel_size):
    from mindspore import nn

    conv = nn.Conv2d(in_channels, out_channels, kernel_size, pad_mode="valid", has_bias=True)
    pool = nn.MaxPool2d(kernel_size, stride=kernel_size)
    return conv, pool


def in_mode(mode, fn):
    import mindspore as ms

    saved = ms.get_context("mode")
    ms.set_context(mode=mode)
    try:
        return fn()
    finally:
        ms.set_context(mode=saved)


def _shape_in_pynative(layer, x) -> tuple:
    """``layer(x).shape`` in PyNative (a checker must not compile every candidate layer); the mode is restored."""
    import mindspore as ms

    return in_mode(ms.PYNATIVE_MODE, lambda: tuple(layer(x).shape))


class _SolvedBy(Exercise):
    """An exercise whose solution is a reference function above: shown as its source, so the two cannot differ."""

    solved_by = staticmethod(lambda: None)

    @property
    def solution_text(self) -> str:
        return inspect.getsource(self.solved_by)

    def reference(self):
        return (self.solved_by,)


class TorchLikeLayers(_SolvedBy):
    names = ("torch_like_layers",)
    title = N_("PyTorch's Conv2d and MaxPool2d in MindSpore")
    hint_text = N_("Look at the table \"Coming from PyTorch\": which two Conv2d defaults differ, and which "
                   "MaxPool2d default? Then nn.Conv2d(in_channels, out_channels, kernel_size, pad_mode=..., "
                   "has_bias=...) and nn.MaxPool2d(kernel_size, stride).")
    solved_by = staticmethod(torch_like_layers)

    def _check(self, torch_like_layers):
        import mindspore as ms
        from mindspore import nn, ops

        for in_c, out_c, k, side in ((1, 6, 5, 28), (3, 4, 3, 12)):
            call = f"torch_like_layers({in_c}, {out_c}, {k})"
            got = self.call(torch_like_layers, in_c, out_c, k)
            if not (isinstance(got, tuple) and len(got) == 2):
                raise Incorrect(tr("{call}: expected a pair (conv, pool), got {got}.", call=call, got=repr(got)))
            conv, pool = got
            if not isinstance(conv, nn.Conv2d) or not isinstance(pool, nn.MaxPool2d):
                raise Incorrect(tr("{call}: expected (nn.Conv2d, nn.MaxPool2d), got ({conv}, {pool}).", call=call,
                                   conv=type(conv).__name__, pool=type(pool).__name__))
            if conv.bias is None:
                raise Incorrect(tr("{call}: the convolution has no bias parameter; PyTorch's nn.Conv2d has one.",
                                   call=call))
            x = ops.ones((1, in_c, side, side), ms.float32)
            conv_shape = _shape_in_pynative(conv, x)
            want = (1, out_c, side - k + 1, side - k + 1)
            if conv_shape != want:
                raise Incorrect(tr("{call}: on a {side}x{side} input the convolution gives shape {got}; PyTorch's "
                                   "gives {want} (no padding).", call=call, side=side, got=conv_shape, want=want))
            pool_shape = _shape_in_pynative(pool, ops.ones((1, 1, side, side), ms.float32))
            want = (1, 1, side // k, side // k)
            if pool_shape != want:
                raise Incorrect(tr("{call}: on a {side}x{side} input the pooling gives shape {got}; PyTorch's "
                                   "nn.MaxPool2d({k}) gives {want}.", call=call, side=side, got=pool_shape,
                                   k=k, want=want))


class InMode(_SolvedBy):
    names = ("in_mode",)
    solved_by = staticmethod(in_mode)
    title = N_("run in another mode, then come back")
    hint_text = N_("Read the current mode with ms.get_context(\"mode\") before you change it with "
                   "ms.set_context(mode=...), and put it back in try: return fn() / finally:, so that an error "
                   "in fn cannot leave the kernel in the wrong mode.")

    def _check(self, in_mode):
        import mindspore as ms

        names = {ms.GRAPH_MODE: "GRAPH_MODE", ms.PYNATIVE_MODE: "PYNATIVE_MODE"}
        saved = ms.get_context("mode")
        try:
            for before, wanted in ((ms.GRAPH_MODE, ms.PYNATIVE_MODE), (ms.PYNATIVE_MODE, ms.GRAPH_MODE)):
                ms.set_context(mode=before)
                seen = []

                def fn(seen=seen):
                    seen.append(ms.get_context("mode"))
                    return "result"

                result = self.call(in_mode, wanted, fn)
                call = f"in_mode(ms.{names[wanted]}, fn) in {names[before]}"
                if seen != [wanted]:
                    raise Incorrect(tr("{call}: fn ran {n} time(s), in {modes}; expected once, in {wanted}.",
                                       call=call, n=len(seen), modes=[names.get(m, m) for m in seen],
                                       wanted=names[wanted]))
                if result != "result":
                    raise Incorrect(tr("{call}: returned {got}; expected what fn returned, {want}.", call=call,
                                       got=repr(result), want=repr("result")))
                if ms.get_context("mode") != before:
                    raise Incorrect(tr("{call}: afterwards the kernel is in {now}; expected the mode from before, "
                                       "{before}.", call=call, now=names[ms.get_context("mode")],
                                       before=names[before]))
            ms.set_context(mode=ms.GRAPH_MODE)

            def fails():
                raise ValueError("fn failed on purpose")

            try:
                self.call(in_mode, ms.PYNATIVE_MODE, fails)
            except ValueError:
                pass
            else:
                raise Incorrect(tr("in_mode(ms.PYNATIVE_MODE, fn) with an fn that raises ValueError: the error "
                                   "disappeared; let it reach the caller."))
            if ms.get_context("mode") != ms.GRAPH_MODE:
                raise Incorrect(tr("in_mode(ms.PYNATIVE_MODE, fn) in GRAPH_MODE, with an fn that raises: afterwards "
                                   "the kernel is left in PYNATIVE_MODE; put the mode back even when fn fails."))
        finally:
            ms.set_context(mode=saved)


q1 = TorchLikeLayers()
q2 = InMode()
register(globals(), "00")
