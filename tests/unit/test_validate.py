"""course_utils.validate: the number validators."""

import math

import numpy as np
import pytest

from course_utils.validate import non_negative_int, positive_int, positive_number


def test_positive_number():
    assert positive_number("lr", 0.1) == 0.1 and positive_number("lr", 3) == 3.0
    assert positive_number("clip", None, allow_none=True) is None
    assert isinstance(positive_number("lr", np.float32(0.5)), float)
    for bad in (0, -1.0, math.inf, math.nan, True, "0.1", None):
        with pytest.raises(ValueError, match=r"lr must be a positive number, got "):
            positive_number("lr", bad)
    with pytest.raises(ValueError, match="must be a positive number or None, got 0"):
        positive_number("clip", 0, allow_none=True)


def test_positive_int():
    assert positive_int("epochs", 3) == 3 and positive_int("epochs", np.int64(2)) == 2
    for bad in (0, -2, 1.0, True, "3", None):
        with pytest.raises(ValueError, match=r"epochs must be a positive integer, got "):
            positive_int("epochs", bad)


def test_non_negative_int():
    assert non_negative_int("subset", 0) == 0 and non_negative_int("subset", 5) == 5
    with pytest.raises(ValueError, match=r"subset must be an integer >= 0 \(0 = the whole split\), got -1\."):
        non_negative_int("subset", -1, "the whole split")
    with pytest.raises(ValueError, match=r"subset must be an integer >= 0, got 1\.5\."):
        non_negative_int("subset", 1.5)
