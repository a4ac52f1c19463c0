"""The exercise framework core (course_utils.exercises): outcomes, placeholders, messages, lookup, display."""

import importlib

import numpy as np
import pytest

from course_utils.exercises import (
    CheckResult, Exercise, Incorrect, Outcome, ____, code_references,
    contains_placeholder, describe, is_placeholder, register)


class Double(Exercise):
    """A tiny exercise: define ``double(x)`` returning 2 * x."""

    names = ("double",)
    title = "double it"
    hint_text = "Multiply by two."
    solution_text = """
        def double(x):
            return 2 * x
    """

    def reference(self):
        return (lambda x: 2 * x,)

    def _check(self, double):
        for x in (0, 3, -2.5):
            got = self.call(double, x)
            if got != 2 * x:
                raise Incorrect(f"double({x}) should be {2 * x}, got {got!r}.")


class Pair(Exercise):
    names = ("first", "second")

    def reference(self):
        return (1, 2)

    def _check(self, first, second):
        if (first, second) != (1, 2):
            raise Incorrect(f"expected 1 and 2, got {first} and {second}.")


q1 = Double()
q2 = Pair()
LABELLED = register(globals(), "99")


def buggy_double(x):
    return x / 0  # learner's bug


# ---- three outcomes ----

def test_three_outcomes():
    assert q1.check(lambda x: 2 * x) == Outcome.CORRECT
    assert q1.check(lambda x: x + 2) == Outcome.INCORRECT
    assert q1.check(____) == Outcome.NOT_ATTEMPTED


def test_result_is_informative():
    wrong = q1.check(lambda x: x + 2)
    assert isinstance(wrong, CheckResult) and not wrong
    assert wrong.message == "double(0) should be 0, got 2."
    assert str(wrong) == "Exercise 99.1 (double it) - Incorrect: double(0) should be 0, got 2."
    right = q1.check(lambda x: 2 * x)
    assert right and right == Outcome.CORRECT and right != Outcome.INCORRECT
    assert "Correct" in right._repr_html_()


def test_names_in_backticks_show_as_code_in_html_and_keep_their_backticks_in_text():
    result = CheckResult(q1, Outcome.INCORRECT, "`double` returned <2> for `0`")
    page = result._repr_html_()
    assert "<code>double</code> returned &lt;2&gt; for <code>0</code>" in page and "`" not in page
    assert str(result).endswith("`double` returned <2> for `0`")


def test_reference_is_correct():
    assert q1.check(*q1.reference()) == Outcome.CORRECT
    assert q2.check(*q2.reference()) == Outcome.CORRECT


# ---- placeholder detection ----

@pytest.mark.parametrize("answer", [____, ...], ids=["placeholder", "ellipsis"])
def test_placeholder_values_are_not_attempted(answer):
    result = q1.check(answer)
    assert result == Outcome.NOT_ATTEMPTED
    assert "replace the placeholder ____" in result.message


def test_placeholder_inside_code_is_found_without_running():
    calls = []

    def half_done(x):
        calls.append(x)
        return x * ____

    result = q1.check(half_done)
    assert result == Outcome.NOT_ATTEMPTED and calls == []  # never ran
    assert "still contains the placeholder" in result.message and "`double`" in result.message


def test_placeholder_in_a_class_method_is_found():
    class Half:
        def __init__(self):
            ____

        def __call__(self, x):
            return 2 * x

    assert contains_placeholder(Half) and contains_placeholder(Half.__init__)
    assert q1.check(Half) == Outcome.NOT_ATTEMPTED


def test_placeholder_returned_or_used_at_run_time():
    assert q1.check(lambda x: ____) == Outcome.NOT_ATTEMPTED
    ph = ____

    def via_alias(x):  # the name ____ is not in the code, but the value is: caught when it is used
        return ph + x

    assert q1.check(via_alias) == Outcome.NOT_ATTEMPTED


def test_is_placeholder():
    assert is_placeholder(____) and is_placeholder(...)
    assert not is_placeholder(None) and not is_placeholder(0)
    assert repr(____) == "____" and not ____


# ---- the learner's exceptions ----

def test_learner_exception_is_incorrect_with_message_and_line():
    result = q1.check(buggy_double)
    assert result == Outcome.INCORRECT
    assert "your code raised ZeroDivisionError: division by zero" in result.message
    assert "x / 0" in result.message  # the learner's line


def test_check_never_raises():
    class Exploding(Exercise):
        names = ("x",)

        def _check(self, x):
            message = "boom\nsecond line"
            raise RuntimeError(message)

    result = Exploding().check(1)
    assert result == Outcome.INCORRECT and "RuntimeError: boom" in result.message
    assert "second line" not in result.message
    assert q1.check("not a function") == Outcome.INCORRECT  # TypeError inside the check
    assert q1.check(lambda: 1) == Outcome.INCORRECT  # wrong signature


def test_keyboard_interrupt_is_not_swallowed():
    def interrupted(x):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        q1.check(interrupted)


# ---- lookup of names in the caller's globals ----

def test_lookup_in_callers_globals():
    g = globals()
    g.pop("double", None)
    missing = q1.check()
    assert missing == Outcome.NOT_ATTEMPTED and "define `double`" in missing.message
    g["double"] = ____
    assert q1.check() == Outcome.NOT_ATTEMPTED
    g["double"] = lambda x: 2 * x
    try:
        assert q1.check() == Outcome.CORRECT
        g["double"] = lambda x: x
        assert q1.check() == Outcome.INCORRECT
    finally:
        del g["double"]


def test_an_answer_bound_to_the_courses_own_function_is_refused_by_name():
    """double = some_course_function: looked up in the notebook, refused by name; handed in explicitly (as the tests
    hand in the references), it is checked as usual."""
    from course_utils import fmt

    course_function = fmt.__dict__[next(n for n, v in vars(fmt).items()
                                         if callable(v) and getattr(v, "__module__", "") == fmt.__name__)]
    g = globals()
    g["double"] = course_function
    try:
        result = q1.check()
        assert result == Outcome.INCORRECT and "`double` is the course's own course_utils.fmt." in result.message
    finally:
        del g["double"]
    assert q1.check(course_function) == Outcome.INCORRECT   # explicit: checked, and wrong for its own reasons


def test_lookup_of_several_names():
    g = globals()
    g["first"], g["second"] = 1, 2
    try:
        assert q2.check() == Outcome.CORRECT
        g["second"] = ____
        assert q2.check() == Outcome.NOT_ATTEMPTED
    finally:
        del g["first"], g["second"]


def test_lookup_through_a_subclass_override():
    class Wrapped(Double):
        def check(self, *answers):  # a subclass adding behaviour around check()
            return super().check(*answers)

    g = globals()
    g["double"] = lambda x: 2 * x
    try:
        assert Wrapped().check() == Outcome.CORRECT  # still finds the test module's `double`
    finally:
        del g["double"]


# ---- hint / solution output ----

def test_hint_and_solution_print_outside_a_notebook(capsys):
    q1.hint()
    q1.solution()
    out = capsys.readouterr().out
    assert "Exercise 99.1 (double it) - Hint:\nMultiply by two." in out
    assert "Exercise 99.1 (double it) - Solution:\ndef double(x):\n    return 2 * x" in out


def test_check_prints_its_result(capsys):
    q1.check(lambda x: 2 * x)
    assert capsys.readouterr().out.strip() == "Exercise 99.1 (double it) - Correct: well done."


def test_register_labels_in_order():
    assert [e.label for e in LABELLED] == ["Exercise 99.1 (double it)", "Exercise 99.2"]


def test_result_displays_once_with_text_and_html(monkeypatch):
    shown = []
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append(obj))
    r = CheckResult(q1, Outcome.INCORRECT, "a <b> message")
    r._ipython_display_()
    r._ipython_display_()
    assert len(shown) == 1
    assert shown[0]["text/plain"] == "Exercise 99.1 (double it) - Incorrect: a <b> message"
    assert "a &lt;b&gt; message" in shown[0]["text/html"]


# ---- helpers for checkers ----

def test_describe():
    assert describe(2.5) == "2.5"
    assert describe(np.array([1.0, 2.0], np.float32)) == "[1., 2.] (shape (2,), float32)"
    assert describe(____) == "____ (the placeholder)"
    assert describe("text") == "'text'"


def test_code_references():
    import numpy

    def uses_numpy(x):
        return numpy.abs(x).asnumpy()

    class Loss:
        def construct(self, x):
            return np.where(x > 0, x, 0)

    assert code_references(uses_numpy, {"numpy", "asnumpy", "np"}) == {"numpy", "asnumpy"}
    assert code_references(Loss, {"np", "asnumpy"}) == {"np"}
    assert code_references(Loss(), {"np"}) == {"np"}
    assert code_references(lambda x: x, {"np"}) == set()


def test_plain_output_when_ipykernel_is_imported_but_no_kernel_runs(capsys):
    importlib.import_module("ipykernel")  # importing ipywidgets does this too, e.g. in a test session

    q1.hint()
    assert "Exercise 99.1 (double it) - Hint:\nMultiply by two." in capsys.readouterr().out


# ---- register, checking without display ----

def test_register_orders_by_number_not_by_string():
    namespace = {f"q{i}": Double() for i in (10, 2, 1)}
    labelled = register(namespace, "01")
    assert [e.label for e in labelled] == ["Exercise 01.1 (double it)", "Exercise 01.2 (double it)",
                                           "Exercise 01.10 (double it)"]


def test_evaluate_checks_without_showing(capsys):
    result = q1.evaluate(lambda x: x)
    assert result == Outcome.INCORRECT and capsys.readouterr().out == ""


