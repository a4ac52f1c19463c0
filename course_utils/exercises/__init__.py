"""Self-checking exercises: ``from course_utils.exercises import nb01`` then ``nb01.q1.check()``.

Every exercise has three outcomes (see ``Outcome``):

* NOT_ATTEMPTED - the placeholder ``____`` is still in place (or the learner's function returned it,
  or returned ``None``). Stored notebooks ship like this, so nbval runs them without an error.
* INCORRECT - a specific message: which input, what was expected, what came back.
* CORRECT.

``check()`` never raises for the learner's mistakes: it prints the outcome and returns it, so a
notebook can ``assert nb01.q1.check() is Outcome.CORRECT`` once solved. Checks test behaviour on
fixed inputs (values, shapes, dtypes, gradients, Cell structure), never trained accuracy.

Writing a new exercise (in ``course_utils/exercises/nbNN.py``)::

    class WeightedHuber(Exercise):
        names = ("WeightedHuberLoss",)          # what check() looks up in the notebook
        hint_text = "..."
        solution_text = '''class WeightedHuberLoss(nn.LossBase): ...'''

        def reference(self):                    # the objects a correct answer would provide
            return (WeightedHuberLossSolution,)

        def _check(self, WeightedHuberLoss):     # raise Incorrect("...") on a wrong answer
            loss = self.call(WeightedHuberLoss, delta=1.0)   # self.call: placeholder-aware
            ...

    q1 = WeightedHuber()

``tests/test_exercises_*.py`` prove every checker accepts ``reference()`` and rejects typical wrong
answers with the right message.

Helpers for ``_check``: ``self.call`` (placeholder-aware call), ``self.expect_close`` (compare values,
raise ``Incorrect`` naming the input, the expected and the returned value), ``to_numpy``/``describe``
(turn tensors into arrays and short text), ``code_references`` (which names a learner's function or
class uses, e.g. ``np`` or ``asnumpy`` inside ``construct``).

What ``check()`` does for every exercise, so ``_check`` need not:

* an answer whose code still mentions ``____`` (``return ____``, ``x * ____`` in a method) is "not
  attempted", found without running it (a half-filled ``construct`` would fail to compile otherwise);
* an exception from the learner's code becomes "incorrect" with its type, first line and the
  learner's line; ``check()`` itself never raises (except ``KeyboardInterrupt``);
* what MindSpore's C++ side writes to the process's stderr while checking (GRAPH_MODE compile
  errors are logged there before they are raised) is kept out of the notebook: the exception
  carries the same message.
"""

from __future__ import annotations

import enum
import functools
import html
import inspect
import textwrap
import traceback
import types
from typing import Any, Callable, Iterable, Sequence

from course_utils.notebook import capture_native_stderr, in_kernel


class _Placeholder:
    """The blank a learner replaces: ``answer = ____``."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "____"

    def __bool__(self) -> bool:
        return False


#: The placeholder used in exercise cells: ``from course_utils.exercises import ____``.
____ = _Placeholder()


class Outcome(enum.Enum):
    NOT_ATTEMPTED = "not attempted"
    INCORRECT = "incorrect"
    CORRECT = "correct"


class NotAttempted(Exception):
    """Raised inside a check when the learner's answer is still the placeholder."""


class Incorrect(Exception):
    """Raised inside a check with the message the learner sees."""


def is_placeholder(value: Any) -> bool:
    """True for the blank ``____`` (and ``...``, which some learners type instead)."""
    return value is ____ or value is Ellipsis


PLACEHOLDER_NAME = "____"


def _code_objects(obj: Any, _seen=None) -> Iterable[types.CodeType]:
    """Every code object of a function, method, class (its methods, properties, nested classes)."""
    seen = set() if _seen is None else _seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    if isinstance(obj, (staticmethod, classmethod)):
        obj = obj.__func__
    if isinstance(obj, property):
        for part in (obj.fget, obj.fset, obj.fdel):
            if part is not None:
                yield from _code_objects(part, seen)
        return
    if isinstance(obj, types.MethodType):
        obj = obj.__func__
    if isinstance(obj, functools.partial):
        yield from _code_objects(obj.func, seen)
        return
    code = getattr(obj, "__code__", None)
    if isinstance(code, types.CodeType):
        stack = [code]
        while stack:
            c = stack.pop()
            yield c
            stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
        return
    if isinstance(obj, type):
        module = getattr(obj, "__module__", "")
        for klass in obj.__mro__:
            # the learner's own classes only, not nn.Cell & co. from libraries
            if klass is object or getattr(klass, "__module__", "") != module:
                continue
            for member in vars(klass).values():
                yield from _code_objects(member, seen)
        return
    if not isinstance(obj, (int, float, str, bytes, bool, type(None))) and hasattr(obj, "__class__"):
        cls = type(obj)  # an instance: look at its class's code
        if cls.__module__ not in ("builtins",) and not cls.__module__.startswith(("mindspore", "numpy")):
            yield from _code_objects(cls, seen)


def code_references(obj: Any, names: Iterable[str]) -> set:
    """Which of ``names`` the code of ``obj`` (function, class, instance) refers to.

    Looks at global names, attribute names and method names the compiled code uses, so
    ``code_references(MyLoss, {"np", "numpy", "asnumpy"})`` tells whether ``MyLoss``'s methods use
    NumPy, without running anything. Only the learner's own classes are inspected, not their library
    base classes.
    """
    wanted = set(names)
    found = set()
    for code in _code_objects(obj):
        found |= wanted & (set(code.co_names) | set(code.co_varnames) | set(code.co_freevars))
    return found


def contains_placeholder(obj: Any) -> bool:
    """True if ``obj`` is the placeholder or its code still uses the name ``____``."""
    if is_placeholder(obj):
        return True
    try:
        return bool(code_references(obj, {PLACEHOLDER_NAME}))
    except Exception:  # an exotic object: treat it as an answer and let the check run
        return False


_COLOURS = {Outcome.CORRECT: "#2e7d32", Outcome.INCORRECT: "#c62828", Outcome.NOT_ATTEMPTED: "#1565c0"}
_LABELS = {Outcome.CORRECT: "Correct", Outcome.INCORRECT: "Incorrect", Outcome.NOT_ATTEMPTED: "Not attempted yet"}


class Result:
    """What ``check()`` returns: compares equal to its ``Outcome``; prints itself nicely."""

    def __init__(self, exercise: "Exercise", outcome: Outcome, message: str):
        self.exercise = exercise
        self.outcome = outcome
        self.message = message

    def __eq__(self, other):
        if isinstance(other, Outcome):
            return self.outcome is other
        if isinstance(other, Result):
            return self.outcome is other.outcome and self.message == other.message
        return NotImplemented

    def __hash__(self):
        return hash(self.outcome)

    def __bool__(self) -> bool:
        return self.outcome is Outcome.CORRECT

    def __str__(self) -> str:
        return f"{self.exercise.label} - {_LABELS[self.outcome]}: {self.message}"

    __repr__ = __str__

    def _ipython_display_(self) -> None:
        # check() displays the result itself; when the same object is also the cell's last value,
        # IPython calls this again, and it must not show the message twice.
        if getattr(self, "_shown", False):
            return
        self._shown = True
        from IPython.display import display

        # both representations: HTML for JupyterLab, plain text for nbval, papermill logs and diffs
        display({"text/plain": str(self), "text/html": self._repr_html_()}, raw=True)

    def _repr_html_(self) -> str:
        colour = _COLOURS[self.outcome]
        return (f'<div style="border-left: 4px solid {colour}; padding: 2px 8px">'
                f'<b style="color:{colour}">{html.escape(self.exercise.label)} - {_LABELS[self.outcome]}</b>: '
                f'<span style="white-space: pre-wrap">{html.escape(self.message)}</span></div>')


class Exercise:
    """Base class of one exercise. Subclasses set ``names``, ``hint_text``, ``solution_text`` and
    implement ``_check`` (raise ``Incorrect``) and ``reference``."""

    names: Sequence[str] = ()
    title: str = ""
    hint_text: str = "No hint for this one."
    solution_text: str = ""
    correct_message: str = "well done."
    not_attempted_message = ("replace the placeholder ____ with your answer, run the cell, "
                             "then run this check again.")

    def __init__(self):
        self.label = ""  # set by ``register``

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

    # ---- learner-facing ----
    def _lookup(self, frame_globals: dict) -> tuple:
        answers = []
        for name in self.names:
            if name not in frame_globals:
                raise NotAttempted(f"define `{name}` (the exercise cell above), run it, then check again.")
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
            while frame is not None and frame.f_globals.get("__name__", "").startswith(__name__):
                frame = frame.f_back
            return frame.f_globals if frame is not None else {}
        finally:
            del frame

    def check(self, *answers) -> Result:
        """Check the answer. Without arguments, looks up ``names`` in the notebook's globals."""
        try:
            if not answers:
                answers = self._lookup(self._caller_globals())
            if any(is_placeholder(a) for a in answers):
                raise NotAttempted
            for name, answer in zip(list(self.names) + [None] * len(answers), answers):
                if contains_placeholder(answer):
                    label = f"`{name}`" if name else "your answer"
                    raise NotAttempted(f"{label} still contains the placeholder ____: replace it with your "
                                       "code, run the cell, then check again.")
            with capture_native_stderr():
                self._check(*answers)
        except NotAttempted as exc:
            result = Result(self, Outcome.NOT_ATTEMPTED, str(exc) or self.not_attempted_message)
        except Incorrect as exc:
            result = Result(self, Outcome.INCORRECT, str(exc))
        except Exception as exc:  # the learner's code raised: show it as a wrong answer, not a crash
            if _is_placeholder_error(exc):
                result = Result(self, Outcome.NOT_ATTEMPTED, self.not_attempted_message)
            else:
                where = _learner_frame(exc)
                result = Result(self, Outcome.INCORRECT,
                                f"your code raised {type(exc).__name__}: {_first_line(exc)}{where}")
        else:
            result = Result(self, Outcome.CORRECT, self.correct_message)
        self._display(result)
        return result

    def hint(self) -> None:
        self._show("Hint", self.hint_text)

    def solution(self) -> None:
        self._show("Solution", textwrap.dedent(self.solution_text).strip(), code=True)

    # ---- display ----
    def _show(self, kind: str, text: str, code: bool = False) -> None:
        plain = f"{self.label} - {kind}:\n{text}"
        if in_kernel():
            from IPython.display import display

            # rich for JupyterLab, and the same words as plain text for nbval, papermill logs, diffs
            if code:
                bundle = {"text/markdown": f"**{html.escape(self.label)} - {kind}:**\n```python\n{text}\n```"}
            else:
                bundle = {"text/html": f"<b>{html.escape(self.label)} - {kind}:</b> "
                                       f'<span style="white-space: pre-wrap">{html.escape(text)}</span>'}
            display({**bundle, "text/plain": plain}, raw=True)
        else:
            print(plain)

    @staticmethod
    def _display(result: Result) -> None:
        if in_kernel():
            from IPython.display import display

            display(result)
        else:
            print(result)


def to_numpy(value):
    """A NumPy array from a MindSpore tensor, NumPy array, number or nested list."""
    import numpy as np

    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    return np.asarray(value)


def describe(value, max_items: int = 8) -> str:
    """Short text for a message: values (rounded), and shape and dtype for tensors/arrays."""
    import numpy as np

    if is_placeholder(value):
        return "____ (the placeholder)"
    try:
        arr = to_numpy(value)
    except Exception:
        return repr(value)
    if arr.dtype.kind not in "fciub":
        return repr(value)
    dtype = str(value.dtype) if hasattr(value, "dtype") else str(arr.dtype)
    with np.printoptions(precision=5, suppress=True, threshold=max_items, edgeitems=3):
        text = np.array2string(arr, separator=", ") if arr.ndim else f"{arr.item():.6g}"
    if arr.ndim == 0 and not hasattr(value, "shape"):
        return text
    return f"{text} (shape {tuple(arr.shape)}, {dtype})"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else "(no message)"


def _is_placeholder_error(exc: BaseException) -> bool:
    # e.g. ``____ + 1`` or calling ``____`` inside the learner's code
    return "_Placeholder" in str(exc) or "'____'" in str(exc)


def _learner_frame(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    for fr in reversed(frames):
        if "course_utils" not in fr.filename and "mindspore" not in fr.filename:
            return f" (line: {fr.line!r})" if fr.line else ""
    return ""


def register(module_globals: dict, prefix: str) -> list:
    """Give every Exercise instance ``qN`` in a module its label, e.g. "Exercise 01.2"."""
    found = []
    for name, obj in list(module_globals.items()):
        if isinstance(obj, Exercise) and name.startswith("q") and name[1:].isdigit():
            obj.label = f"Exercise {prefix}.{name[1:]}" + (f" ({obj.title})" if obj.title else "")
            found.append(obj)
    return sorted(found, key=lambda e: e.label)


__all__ = ["____", "Exercise", "Incorrect", "NotAttempted", "Outcome", "Result", "capture_native_stderr",
           "code_references", "contains_placeholder", "describe", "is_placeholder", "register", "to_numpy"]
