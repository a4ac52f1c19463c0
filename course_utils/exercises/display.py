"""How outcomes, hints and solutions appear: rich in JupyterLab, the same words as plain text elsewhere.

Checking (``base.Exercise.check``) decides the outcome; this module only shows it. Every rich output
carries a ``text/plain`` twin, so nbval, papermill logs and diffs see the same words as the learner.
"""

from __future__ import annotations

import html
import re

from course_utils.exercises.placeholder import Outcome
from course_utils.i18n import N_, tr
from course_utils.notebook import in_kernel

__all__ = ["CheckResult", "show", "show_text"]

_COLOURS = {Outcome.CORRECT: "#2e7d32", Outcome.INCORRECT: "#c62828", Outcome.NOT_ATTEMPTED: "#1565c0"}
_LABELS = {Outcome.CORRECT: N_("Correct"), Outcome.INCORRECT: N_("Incorrect"),
           Outcome.NOT_ATTEMPTED: N_("Not attempted yet")}


class CheckResult:
    """What ``check()`` returns: compares equal to its ``Outcome``; prints itself nicely."""

    def __init__(self, exercise, outcome: Outcome, message: str):
        self.exercise = exercise
        self.outcome = outcome
        self.message = message

    def __eq__(self, other):
        if isinstance(other, Outcome):
            return self.outcome is other
        if isinstance(other, CheckResult):
            return self.outcome is other.outcome and self.message == other.message
        return NotImplemented

    def __hash__(self):
        return hash(self.outcome)

    def __bool__(self) -> bool:
        return self.outcome is Outcome.CORRECT

    def __str__(self) -> str:
        return f"{_heading(self.exercise.label, tr(_LABELS[self.outcome]))}{tr(': ')}{self.message}"

    __repr__ = __str__

    def _ipython_display_(self) -> None:
        # check() displays the result itself; when the same object is also the cell's last value,
        # IPython calls this again, and it must not show the message twice.
        if getattr(self, "_shown", False):
            return
        self._shown = True
        from IPython.display import display

        display({"text/plain": str(self), "text/html": self._repr_html_()}, raw=True)

    def _repr_html_(self) -> str:
        colour = _COLOURS[self.outcome]
        outcome = tr(_LABELS[self.outcome])
        return (f'<div style="border-left: 4px solid {colour}; padding: 2px 8px">'
                f'<b style="color:{colour}">{html.escape(_heading(self.exercise.label, outcome))}</b>{tr(": ")}'
                f'<span style="white-space: pre-wrap">{_rich(self.message)}</span></div>')


def _rich(text: str) -> str:
    """``text`` as HTML: escaped, and each `name` in backticks shown as code (the plain-text twin keeps the
    backticks, as Markdown would show them)."""
    return re.sub(r"`([^`\n]+)`", r"<code>\1</code>", html.escape(text))


def _heading(label: str, kind: str) -> str:
    """"Exercise 01.2 - Correct" ("练习 01.2——正确" in Chinese typography)."""
    return tr("{label} - {kind}", label=label, kind=kind)


def show(result: CheckResult) -> None:
    """Show a check's result: rich in a kernel, printed elsewhere."""
    if in_kernel():
        from IPython.display import display

        display(result)
    else:
        print(result)


def show_text(label: str, kind: str, text: str, code: bool = False) -> None:
    """Show a hint or a solution (``code=True``: as a Python block) under ``"<label> - <kind>:"``."""
    heading = _heading(label, kind) + tr(":")
    plain = f"{heading}\n{text}"
    if not in_kernel():
        print(plain)
        return
    from IPython.display import display

    if code:
        bundle = {"text/markdown": f"**{html.escape(heading)}**\n```python\n{text}\n```"}
    else:
        bundle = {"text/html": f"<b>{html.escape(heading)}</b> "
                               f'<span style="white-space: pre-wrap">{_rich(text)}</span>'}
    display({**bundle, "text/plain": plain}, raw=True)
