"""Exercises of notebook 00 (environment setup)."""

from __future__ import annotations

import numpy as np

from course_utils.exercises import Exercise, Incorrect, register


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
            raise Incorrect(f"you gave the string {compiled_mode!r}; use MindSpore's constant itself, e.g. ms.GRAPH_MODE.")
        if compiled_mode == ms.PYNATIVE_MODE:
            raise Incorrect("ms.PYNATIVE_MODE runs each operation eagerly, as Python reaches it; the other one compiles.")
        if compiled_mode != ms.GRAPH_MODE:
            raise Incorrect(f"{compiled_mode!r} is not one of MindSpore's mode constants (ms.GRAPH_MODE, ms.PYNATIVE_MODE).")


class CountDigit(Exercise):
    names = ("count_digit",)
    title = "count a digit"
    hint_text = "Compare the array with the digit (labels == digit) and count the True values; int() makes it a Python int."
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
                raise Incorrect(f"count_digit(labels, {digit}) returned {got!r} of type {type(got).__name__}; "
                                "return a Python int (wrap the count in int()).")
            if got != expected:
                raise Incorrect(f"for labels {labels.tolist()} and digit {digit} expected {expected}, got {got}.")


q1 = CompiledMode()
q2 = CountDigit()
register(globals(), "00")
