"""Checking numbers given by a learner or on a command line: the one home of the course's validators.

Each returns the value (as float or int) or raises ``ValueError`` naming the parameter and what it got,
e.g. ``epochs must be a positive integer, got 0.`` Booleans are refused although Python counts them as
numbers: ``epochs=True`` is a mistake, not 1.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Optional

from course_utils.i18n import tr

__all__ = ["non_negative_int", "positive_int", "positive_number"]


def positive_number(name: str, value: Any, allow_none: bool = False) -> Optional[float]:
    """``value`` as a float if it is a finite number > 0 (or None when ``allow_none``)."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value <= 0:
        if allow_none:
            raise ValueError(tr("{name} must be a positive number or None, got {value}.", name=name, value=repr(value)))
        raise ValueError(tr("{name} must be a positive number, got {value}.", name=name, value=repr(value)))
    return float(value)


def positive_int(name: str, value: Any) -> int:
    """``value`` if it is an integer >= 1 (numpy integers count)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(tr("{name} must be a positive integer, got {value}.", name=name, value=repr(value)))
    return int(value)


def non_negative_int(name: str, value: Any, meaning_of_zero: str = "") -> int:
    """``value`` if it is an integer >= 0; ``meaning_of_zero`` (e.g. "the whole split") goes into the error."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        if meaning_of_zero:
            raise ValueError(tr("{name} must be an integer >= 0 (0 = {zero}), got {value}.",
                                name=name, zero=tr(meaning_of_zero), value=repr(value)))
        raise ValueError(tr("{name} must be an integer >= 0, got {value}.", name=name, value=repr(value)))
    return int(value)
