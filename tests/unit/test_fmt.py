"""course_utils.fmt: the one home of number formatting."""

import numpy as np

from course_utils.fmt import number, plain_figures, significant, table_cell


def test_plain_figures_rounds_to_two_figures_without_an_exponent():
    assert [plain_figures(x) for x in (23.2, 813.3, 1195.6, 0.153, 9.96, -3.14, 0)] == [
        "23", "810", "1200", "0.15", "10", "-3.1", "0"]
    assert plain_figures(25.14, 3) == "25.1"


def test_significant():
    assert significant(1 / 3) == "0.333333"
    assert significant(np.float32(2.0)) == "2"
    assert significant(1e-7) == "1e-07"
    assert significant(123456.789, digits=4) == "1.235e+05"


def test_number():
    assert number(0.123456) == "0.1235"                  # run summaries: .4g for floats
    assert number(7) == "7" and number("ok") == "ok"     # other values as they are
    assert number(None) == "-" and number(None, missing="n/a") == "n/a"
    assert number(12, "d") == "12" and number(2.25, ".1f") == "2.2"
    assert number(3, ".1f") == "3.0" and number(3, "s") == "3"   # an int spec that does not apply: as it is
    assert number(True) == "True"


def test_table_cell():
    assert table_cell(1234.5) == "1,234" and table_cell(12.345) == "12.3" and table_cell(12.345, 2) == "12.35"
    assert table_cell(0.012345) == "0.0123" and table_cell(0.0) == "0.0"
    assert table_cell(None) == "-" and table_cell(float("nan")) == "-"
    assert table_cell(True) == "yes" and table_cell(False) == "no" and table_cell(5) == "5"


def test_pad_counts_a_chinese_character_as_two_columns():
    from course_utils.fmt import display_width, pad

    assert pad("yes", 6) == "yes   " and pad("生效", 6) == "生效  " and display_width("函数式，@jit") == 12
    assert pad("longer than the width", 4) == "longer than the width"


def test_pad_right_aligns_in_display_columns():
    import pytest

    from course_utils.fmt import pad

    assert pad("步/秒", 8, ">") == "   步/秒" and pad("steps/s", 8, ">") == " steps/s"
    with pytest.raises(ValueError, match="align"):
        pad("x", 4, "^")
