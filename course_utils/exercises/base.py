"""The ``Exercise`` base class, ``register``, and ``refusing`` (the course's own answers refused while a check runs).

Checking is separate from showing: ``check()`` turns the learner's answer into a ``CheckResult`` (outcome and
message), and only then hands it to ``display.show``. ``hint()`` and ``solution()`` only display.
"""

from __future__ import annotations

import contextlib
import inspect
import io
import textwrap
import tokenize
from typing import Callable, Sequence

from course_utils import progress
from course_utils.exercises import display
from course_utils.exercises.inspection import contains_placeholder, is_placeholder_error, learner_line
from course_utils.exercises.placeholder import Incorrect, NotAttempted, Outcome, is_placeholder
from course_utils.i18n import N_, tr
from course_utils.notebook import capture_native_stderr, first_line

__all__ = ["Exercise", "register", "translate_comments"]

#: Frames of modules under this name are the framework (and the nbNN exercise modules), not the learner.
_PACKAGE = "course_utils.exercises"


class Exercise:
    """Base class of one exercise. Subclasses set ``names``, ``hint_text``, ``solution_text`` and implement
    ``_check`` (raise ``Incorrect``) and ``reference``."""

    names: Sequence[str] = ()
    title: str = ""
    #: What ``hint()`` shows: where to look, never the answer (``solution()`` is that).
    hint_text: str = N_("No hint for this one.")
    solution_text: str = ""
    correct_message: str = N_("well done.")
    not_attempted_message = N_("replace the placeholder ____ with your answer, then run this cell again.")

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

    # ---- checking: answer -> CheckResult ----
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

    def evaluate(self, *answers) -> display.CheckResult:
        """The outcome of ``answers`` (looked up in the caller's globals if none are given), shown nowhere."""
        try:
            if not answers:
                answers = self._lookup(self._caller_globals())
                self._refuse_course_objects(answers)
            if any(is_placeholder(a) for a in answers):
                raise NotAttempted
            for name, answer in zip(list(self.names) + [None] * len(answers), answers):
                if contains_placeholder(answer):
                    label = f"`{name}`" if name else tr("your answer")
                    raise NotAttempted(tr("{label} still contains the placeholder ____: replace it with your "
                                          "code, then run this cell again.", label=label))
            with capture_native_stderr():
                self._check(*answers)
        except NotAttempted as exc:
            return display.CheckResult(self, Outcome.NOT_ATTEMPTED, str(exc) or tr(self.not_attempted_message))
        except Incorrect as exc:
            return display.CheckResult(self, Outcome.INCORRECT, str(exc))
        except Exception as exc:  # the learner's code raised: show it as a wrong answer, not a crash
            if is_placeholder_error(exc):
                return display.CheckResult(self, Outcome.NOT_ATTEMPTED, tr(self.not_attempted_message))
            return display.CheckResult(self, Outcome.INCORRECT,
                                  tr("your code raised {error}: {message}", error=type(exc).__name__,
                                     message=first_line(exc)) + learner_line(exc))
        return display.CheckResult(self, Outcome.CORRECT, tr(self.correct_message))

    def _refuse_course_objects(self, answers) -> None:
        """A learner's answer bound to the course's own function or class (``build_scaled_step =
        nb03.build_scaled_step``, ``find_compiles = bench.compile_calls``) is no answer: refuse it by name. Only
        answers looked up in the notebook: a test hands the reference in on purpose."""
        for name, answer in zip(self.names, answers):
            module = getattr(answer, "__module__", None) or ""
            if callable(answer) and module.split(".")[0] == _PACKAGE.split(".")[0]:
                raise Incorrect(tr("`{name}` is the course's own {where}: write your own (the check is about "
                                   "how you build it).", name=name,
                                   where=f"{module}.{getattr(answer, '__qualname__', type(answer).__name__)}"))

    # ---- learner-facing: check, then show ----
    def check(self, *answers) -> display.CheckResult:
        """Check the answer and show the result. Without arguments, looks up ``names`` in the notebook."""
        result = self.evaluate(*answers)
        progress.record(self, result)   # one line in the learner's own records (never fails the check)
        display.show(result)
        return result

    def hint(self) -> None:
        """Show the hint."""
        display.show_text(self.label, tr("Hint"), tr(self.hint_text))

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


def register(module_globals: dict, prefix: str) -> list:
    """Give every Exercise instance ``qN`` in a module its label, e.g. "Exercise 01.2"; returns them in
    the order of N (q2 before q10)."""
    found = []
    for name, obj in list(module_globals.items()):
        if isinstance(obj, Exercise) and name.startswith("q") and name[1:].isdigit():
            obj.number = f"{prefix}.{name[1:]}"
            found.append((int(name[1:]), obj))
    return [obj for _, obj in sorted(found, key=lambda pair: pair[0])]


#: The message of ``_refused``: a course function was called while a check ran.
_REFUSED = "course_utils answer refused while checking"


def _refused(*args, **kwargs):
    raise RuntimeError("course_utils answer refused while checking")   # builtins only: runs in another module


@contextlib.contextmanager
def refusing(functions, message: str):
    """While the learner's code runs, the course's own answers raise ``RuntimeError(_REFUSED)``, turned into
    ``Incorrect(message)``. The functions' code is swapped, so every alias (``from course_utils.models import
    lenet_flatten_size as f``) and every course caller (``LeNet5`` calls ``lenet_flatten_size``, ``evaluate`` calls
    ``predict_logits``) is refused too."""
    saved = [(f, f.__code__) for f in functions]
    try:
        for f in functions:
            f.__code__ = _refused.__code__
        yield
    except RuntimeError as exc:
        if _REFUSED not in str(exc):   # compiled (GRAPH_MODE), MindSpore adds its call stack to the message
            raise
        raise Incorrect(message) from None
    finally:
        for f, code in saved:
            f.__code__ = code
