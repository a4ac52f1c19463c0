"""The ``Exercise`` base class, ``FunctionExercise`` for declarative checks, and ``register``.

Checking is separate from showing: ``check()`` turns the learner's answer into a ``Result`` (outcome and
message), and only then hands it to ``display.show``. ``hint(n)`` and ``solution()`` only display.
"""

from __future__ import annotations

import inspect
import io
import textwrap
import tokenize
from typing import Any, Callable, Optional, Sequence, Tuple

from course_utils.exercises import display
from course_utils.exercises.inspection import contains_placeholder, is_placeholder_error, learner_line
from course_utils.exercises.placeholder import Incorrect, NotAttempted, Outcome, is_placeholder
from course_utils.exercises.values import describe, to_numpy
from course_utils.i18n import N_, tr
from course_utils.notebook import capture_native_stderr, first_line

__all__ = ["Exercise", "FunctionExercise", "register", "translate_comments"]

#: Frames of modules under this name are the framework (and the nbNN exercise modules), not the learner.
_PACKAGE = "course_utils.exercises"


class Exercise:
    """Base class of one exercise. Subclasses set ``names``, ``hints`` (or ``hint_text``), ``solution_text``
    and implement ``_check`` (raise ``Incorrect``) and ``reference``."""

    names: Sequence[str] = ()
    title: str = ""
    #: Hints from gentle to explicit, shown one at a time by ``hint(1)``, ``hint(2)``, ...
    hints: Sequence[str] = ()
    #: A single hint (older exercises); used when ``hints`` is empty.
    hint_text: str = N_("No hint for this one.")
    solution_text: str = ""
    correct_message: str = N_("well done.")
    not_attempted_message = N_("replace the placeholder ____ with your answer, run the cell, "
                               "then run this check again.")

    def __init__(self):
        self.number = ""  # "01.2", set by ``register``

    @property
    def label(self) -> str:
        """"Exercise 01.2 (title)" in the current language (texts are translated when shown, not at import)."""
        if not self.number:
            return ""
        title = tr(" ({title})", title=tr(self.title)) if self.title else ""
        return tr("Exercise {number}", number=self.number) + title

    # ---- to implement ----
    def _check(self, *answers) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def reference(self) -> tuple:  # pragma: no cover - abstract
        raise NotImplementedError

    # ---- helpers for _check ----
    @staticmethod
    def call(fn: Callable, *args, **kwargs):
        """Call the learner's function/class; a placeholder result means "not attempted"."""
        if is_placeholder(fn):
            raise NotAttempted
        result = fn(*args, **kwargs)
        if is_placeholder(result):
            raise NotAttempted
        return result

    @staticmethod
    def expect_close(got, expected, what: str, rtol: float = 1e-5, atol: float = 1e-6) -> None:
        """Raise ``Incorrect`` unless ``got`` matches ``expected`` (shape and values).

        ``what`` names the case in the learner's terms, e.g. ``"WeightedHuberLoss(delta=1.0,
        reduction='sum') on the inputs above"``; the message adds what was expected and what came back.
        """
        import numpy as np

        if is_placeholder(got):
            raise NotAttempted
        try:
            got_arr = to_numpy(got)
        except Exception:
            raise Incorrect(f"{what}: expected {describe(expected)}, got {got!r} "
                            f"(a {type(got).__name__}, not a tensor or number).") from None
        exp_arr = to_numpy(expected)
        if got_arr.shape != exp_arr.shape:
            raise Incorrect(f"{what}: expected shape {exp_arr.shape}, got shape {got_arr.shape} "
                            f"({describe(got)}).")
        if got_arr.dtype.kind not in "fciub":
            raise Incorrect(f"{what}: expected numbers, got {describe(got)}.")
        ok = np.isclose(got_arr.astype(np.float64), exp_arr.astype(np.float64), rtol=rtol, atol=atol,
                        equal_nan=False)
        if not np.all(ok):
            raise Incorrect(f"{what}: expected {describe(expected)}, got {describe(got)}.")

    # ---- checking: answer -> Result ----
    def _lookup(self, frame_globals: dict) -> tuple:
        answers = []
        for name in self.names:
            if name not in frame_globals:
                raise NotAttempted(tr("define `{name}` (the exercise cell above), run it, then check again.",
                                      name=name))
            answers.append(frame_globals[name])
        return tuple(answers)

    @staticmethod
    def _caller_globals() -> dict:
        """The globals of the code that called ``check()``: the notebook's namespace, also when a
        subclass overrides ``check`` and calls ``super().check()``."""
        frame = inspect.currentframe()
        try:
            frame = frame.f_back
            # skip check() and any exercise-module wrapper around it
            while frame is not None and frame.f_globals.get("__name__", "").startswith(_PACKAGE):
                frame = frame.f_back
            return frame.f_globals if frame is not None else {}
        finally:
            del frame

    def evaluate(self, *answers) -> display.Result:
        """The outcome of ``answers`` (looked up in the caller's globals if none are given), shown nowhere."""
        try:
            if not answers:
                answers = self._lookup(self._caller_globals())
            if any(is_placeholder(a) for a in answers):
                raise NotAttempted
            for name, answer in zip(list(self.names) + [None] * len(answers), answers):
                if contains_placeholder(answer):
                    label = f"`{name}`" if name else tr("your answer")
                    raise NotAttempted(tr("{label} still contains the placeholder ____: replace it with your "
                                          "code, run the cell, then check again.", label=label))
            with capture_native_stderr():
                self._check(*answers)
        except NotAttempted as exc:
            return display.Result(self, Outcome.NOT_ATTEMPTED, str(exc) or tr(self.not_attempted_message))
        except Incorrect as exc:
            return display.Result(self, Outcome.INCORRECT, str(exc))
        except Exception as exc:  # the learner's code raised: show it as a wrong answer, not a crash
            if is_placeholder_error(exc):
                return display.Result(self, Outcome.NOT_ATTEMPTED, tr(self.not_attempted_message))
            return display.Result(self, Outcome.INCORRECT,
                                  tr("your code raised {error}: {message}", error=type(exc).__name__,
                                     message=first_line(exc)) + learner_line(exc))
        return display.Result(self, Outcome.CORRECT, tr(self.correct_message))

    # ---- learner-facing: check, then show ----
    def check(self, *answers) -> display.Result:
        """Check the answer and show the result. Without arguments, looks up ``names`` in the notebook."""
        result = self.evaluate(*answers)
        display.show(result)
        return result

    def all_hints(self) -> Tuple[str, ...]:
        return tuple(self.hints) or (self.hint_text,)

    def hint(self, n: int = 1) -> None:
        """Show hint ``n`` (1 = the gentlest); ``hint(2)`` goes further where an exercise has more."""
        hints = self.all_hints()
        if len(hints) == 1 and n == 1:
            display.show_text(self.label, tr("Hint"), tr(hints[0]))
        elif 1 <= n <= len(hints):
            more = "\n" + tr("(a further hint: hint({next}))", next=n + 1) if n < len(hints) else ""
            display.show_text(self.label, tr("Hint {n} of {total}", n=n, total=len(hints)), tr(hints[n - 1]) + more)
        elif len(hints) == 1:
            display.show_text(self.label, tr("Hint"), tr("there is 1 hint: hint(1)."))
        else:
            display.show_text(self.label, tr("Hint"), tr("there are {total} hints: hint(1) to hint({total}).",
                                                         total=len(hints)))

    def solution(self) -> None:
        """Show the solution in the current language: a solution is code, so only its comments are translated
        (each ``# comment`` through ``tr``; a translation of the whole text, if there is one, wins)."""
        text = textwrap.dedent(self.solution_text).strip()
        shown = tr(text)
        if shown == text:
            shown = translate_comments(text)
        display.show_text(self.label, tr("Solution"), shown, code=True)


def translate_comments(code: str) -> str:
    """``code`` with every comment that has a translation (key: the comment with its ``#``) replaced by it."""
    try:
        comments = [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return code
    lines = code.split("\n")
    for token in reversed(comments):
        (row, start), (_, end) = token.start, token.end
        lines[row - 1] = lines[row - 1][:start] + tr(token.string) + lines[row - 1][end:]
    return "\n".join(lines)


def _call_text(name: str, args: tuple, kwargs: dict) -> str:
    parts = [repr(a) if not hasattr(a, "shape") else describe(a) for a in args]
    parts += [f"{k}={v!r}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


class FunctionExercise(Exercise):
    """An exercise whose answer is one function, checked on fixed cases, declared rather than coded::

        q1 = FunctionExercise(
            "double", cases=[((0,), 0), ((3,), 6), ((-2.5,), -5.0)],
            reference=lambda x: 2 * x, hints=["Multiply by two.", "return 2 * x"],
            solution_text="def double(x):\\n    return 2 * x")

    A case is ``(args, expected)`` or ``(args, kwargs, expected)``. Numbers, arrays and tensors are compared
    with ``expect_close`` (``rtol``/``atol``), anything else with ``==``. The message names the call, e.g.
    ``double(3): expected 6, got 7.`` Subclasses may set the same things as class attributes instead.
    """

    cases: Sequence[tuple] = ()
    rtol: float = 1e-5
    atol: float = 1e-6

    def __init__(self, name: Optional[str] = None, cases: Optional[Sequence[tuple]] = None, *,
                 reference: Optional[Callable] = None, hints: Optional[Sequence[str]] = None,
                 solution_text: Optional[str] = None, title: Optional[str] = None,
                 rtol: Optional[float] = None, atol: Optional[float] = None):
        super().__init__()
        for attr, value in (("cases", cases), ("hints", hints), ("solution_text", solution_text),
                            ("title", title), ("rtol", rtol), ("atol", atol)):
            if value is not None:
                setattr(self, attr, value)
        if name is not None:
            self.names = (name,)
        if len(self.names) != 1:
            raise ValueError("a FunctionExercise checks exactly one name, e.g. FunctionExercise('double', ...)")
        if not self.cases:
            raise ValueError("a FunctionExercise needs at least one case: cases=[((args...), expected), ...]")
        self._reference = reference

    def reference(self) -> tuple:
        if self._reference is None:
            raise NotImplementedError(f"{type(self).__name__} has no reference function")
        return (self._reference,)

    @staticmethod
    def _unpack(case: tuple) -> Tuple[tuple, dict, Any]:
        if len(case) == 2:
            args, expected = case
            kwargs = {}
        elif len(case) == 3:
            args, kwargs, expected = case
        else:
            raise ValueError(f"a case is (args, expected) or (args, kwargs, expected), not {case!r}")
        return (tuple(args) if isinstance(args, (tuple, list)) else (args,)), dict(kwargs), expected

    def _check(self, fn) -> None:
        name = self.names[0]
        for case in self.cases:
            args, kwargs, expected = self._unpack(case)
            what = _call_text(name, args, kwargs)
            got = self.call(fn, *args, **kwargs)
            if _is_numeric(expected):
                self.expect_close(got, expected, what, rtol=self.rtol, atol=self.atol)
            elif got != expected:
                raise Incorrect(f"{what}: expected {expected!r}, got {got!r}.")


def _is_numeric(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float, complex)) or hasattr(value, "asnumpy"):
        return True
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return kind is not None and kind in "fciu"


def register(module_globals: dict, prefix: str) -> list:
    """Give every Exercise instance ``qN`` in a module its label, e.g. "Exercise 01.2"; returns them in
    the order of N (q2 before q10)."""
    found = []
    for name, obj in list(module_globals.items()):
        if isinstance(obj, Exercise) and name.startswith("q") and name[1:].isdigit():
            obj.number = f"{prefix}.{name[1:]}"
            found.append((int(name[1:]), obj))
    return [obj for _, obj in sorted(found, key=lambda pair: pair[0])]
