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
"""

from __future__ import annotations

import enum
import html
import inspect
import sys
import textwrap
import traceback
from typing import Any, Callable, Sequence


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
    return value is ____ or value is Ellipsis


def _in_notebook() -> bool:
    return "ipykernel" in sys.modules and "IPython" in sys.modules


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
        from IPython.display import HTML, display

        display(HTML(self._repr_html_()))

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

    # ---- learner-facing ----
    def _lookup(self, frame_globals: dict) -> tuple:
        answers = []
        for name in self.names:
            if name not in frame_globals:
                raise NotAttempted(f"define `{name}` (the exercise cell above), run it, then check again.")
            answers.append(frame_globals[name])
        return tuple(answers)

    def check(self, *answers) -> Result:
        """Check the answer. Without arguments, looks up ``names`` in the notebook's globals."""
        try:
            if not answers:
                caller = inspect.currentframe().f_back
                answers = self._lookup(caller.f_globals)
                del caller
            if any(is_placeholder(a) for a in answers):
                raise NotAttempted
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
        if _in_notebook():
            from IPython.display import HTML, Markdown, display

            if code:
                display(Markdown(f"**{html.escape(self.label)} - {kind}:**\n```python\n{text}\n```"))
            else:
                display(HTML(f"<b>{html.escape(self.label)} - {kind}:</b> "
                             f'<span style="white-space: pre-wrap">{html.escape(text)}</span>'))
        else:
            print(f"{self.label} - {kind}:\n{text}")

    @staticmethod
    def _display(result: Result) -> None:
        if _in_notebook():
            from IPython.display import display

            display(result)
        else:
            print(result)


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


__all__ = ["____", "Exercise", "Incorrect", "NotAttempted", "Outcome", "Result", "is_placeholder", "register"]
