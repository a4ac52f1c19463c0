"""Exercises of notebook 00 (environment setup)."""

from __future__ import annotations

import numpy as np

from course_utils.exercises import Exercise, Incorrect, register
from course_utils.i18n import tr


class CompiledMode(Exercise):
    names = ("compiled_mode",)
    title = "the compiled mode"
    hint_text = "MindSpore has two mode constants: ms.PYNATIVE_MODE and ms.GRAPH_MODE. Which one compiles?"
    solution_text = "compiled_mode = ms.GRAPH_MODE"

    def reference(self):
        import mindspore as ms

        return (ms.GRAPH_MODE,)

    def _check(self, compiled_mode):
        import mindspore as ms

        if isinstance(compiled_mode, str):
            raise Incorrect(tr("expected one of MindSpore's mode constants (ms.SOMETHING_MODE), got the string "
                               "{got}.", got=repr(compiled_mode)))
        if compiled_mode == ms.PYNATIVE_MODE:
            raise Incorrect(tr("expected the mode that compiles construct before running it, got ms.PYNATIVE_MODE, "
                               "which runs each operation eagerly, as Python reaches it."))
        if compiled_mode != ms.GRAPH_MODE:
            raise Incorrect(tr("expected one of MindSpore's mode constants (ms.SOMETHING_MODE), got {got}.",
                               got=repr(compiled_mode)))


class CountDigit(Exercise):
    names = ("count_digit",)
    title = "count a digit"
    hint_text = ("Compare the array with the digit (labels == digit) and count the True values; int() makes it a "
                 "Python int.")
    solution_text = '''
        def count_digit(labels, digit):
            return int(np.sum(labels == digit))
    '''

    def reference(self):
        def count_digit(labels, digit):
            return int(np.sum(labels == digit))

        return (count_digit,)

    def _check(self, count_digit):
        labels = np.array([3, 1, 3, 0, 9, 3, 1], dtype=np.int64)
        for digit, expected in ((3, 3), (1, 2), (7, 0)):
            got = self.call(count_digit, labels, digit)
            if not isinstance(got, int) or isinstance(got, bool):
                raise Incorrect(tr("count_digit(labels, {digit}): expected a Python int, got {got} of type {type}.",
                                   digit=digit, got=repr(got), type=type(got).__name__))
            if got != expected:
                raise Incorrect(tr("for labels {labels} and digit {digit} expected {expected}, got {got}.",
                                   labels=labels.tolist(), digit=digit, expected=expected, got=got))


q1 = CompiledMode()
q2 = CountDigit()
register(globals(), "00")
