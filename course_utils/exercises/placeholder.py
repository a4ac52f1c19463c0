"""The blank a learner fills in, ``answer = ____``, and the outcomes a check can have."""

from __future__ import annotations

import enum
from typing import Any

__all__ = ["PLACEHOLDER_NAME", "Incorrect", "NotAttempted", "Outcome", "____", "is_placeholder"]

PLACEHOLDER_NAME = "____"


class _Placeholder:
    """The blank a learner replaces: ``answer = ____``."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return PLACEHOLDER_NAME

    def __bool__(self) -> bool:
        return False


#: The placeholder used in exercise cells: ``from course_utils.exercises import ____``.
____ = _Placeholder()


def is_placeholder(value: Any) -> bool:
    """True for the blank ``____`` (and ``...``, which some learners type instead)."""
    return value is ____ or value is Ellipsis


class Outcome(enum.Enum):
    NOT_ATTEMPTED = "not attempted"
    INCORRECT = "incorrect"
    CORRECT = "correct"


class NotAttempted(Exception):
    """Raised inside a check when the learner's answer is still the placeholder."""


class Incorrect(Exception):
    """Raised inside a check with the message the learner sees."""
