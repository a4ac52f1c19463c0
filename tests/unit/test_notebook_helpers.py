"""course_utils.notebook: show_error, capture_native_stderr, in_kernel."""

import os

import pytest

from course_utils.notebook import capture_native_stderr, capture_native_stdout, first_line, in_kernel, show_error


def test_show_error_prints_type_and_first_line(capsys):
    with show_error(ValueError) as shown:
        raise ValueError("first line\nC++ trace that stays out")
    assert capsys.readouterr().out == "ValueError: first line\n"
    assert isinstance(shown.error, ValueError) and shown.message == "first line"


def test_show_error_prints_more_lines_when_asked(capsys):
    with show_error(RuntimeError, lines=2):
        raise RuntimeError("one\n\ntwo\nthree")
    assert capsys.readouterr().out == "RuntimeError: one\n    two\n"


def test_show_error_puts_the_prefix_before_and_the_suffix_after_the_message(capsys):
    with show_error(ValueError, prefix="f(None) -> ", suffix="（不能同时为 None）"):
        raise ValueError("a and b can not be None.\ntrace")
    assert capsys.readouterr().out == "f(None) -> ValueError: a and b can not be None.（不能同时为 None）\n"


def test_show_error_fails_when_the_block_does_not():
    with pytest.raises(AssertionError, match="expected TypeError or KeyError, but the block ran without an error"):
        with show_error(TypeError, KeyError):
            pass


def test_show_error_lets_other_exceptions_through():
    with pytest.raises(KeyError):
        with show_error(TypeError):
            raise KeyError("not the lesson's error")


def test_show_error_checks_the_message():
    with pytest.raises(AssertionError, match="mention 'shape'"):
        with show_error(ValueError, match="shape"):
            raise ValueError("dtype mismatch")
    with show_error(ValueError, match="SHAPE"):
        raise ValueError("wrong shape")


def test_show_error_keeps_native_stderr_out(capfd):
    with show_error(OSError):
        os.write(2, b"[ERROR] C++ log line\n")
        raise OSError("clean message")
    out, err = capfd.readouterr()
    assert "C++ log line" not in err and out == "OSError: clean message\n"


def test_capture_native_stderr_collects_fd2(capfd):
    with capture_native_stderr() as captured:
        os.write(2, b"native\n")
    assert captured == ["native\n"]
    assert "native" not in capfd.readouterr().err


def test_first_line_and_in_kernel():
    assert first_line(ValueError("\n  \nreal line\nmore")) == "real line"
    assert first_line(ValueError("")) == "(no message)"
    assert in_kernel() is False  # pytest is not a Jupyter kernel


def test_capture_native_stderr_restores_fd2_on_error():
    with capture_native_stderr() as captured:
        os.write(2, b"[ERROR] ANALYZER(1,2,python): a C++ log line\n")
    assert captured == ["[ERROR] ANALYZER(1,2,python): a C++ log line\n"]
    with pytest.raises(ValueError):
        with capture_native_stderr() as captured:
            os.write(2, b"before the error\n")
            raise ValueError("propagates")
    assert captured == ["before the error\n"]  # fd 2 restored, text kept, exception not swallowed


def test_capture_native_stdout_collects_fd1_and_a_jit_print(capfd):
    import mindspore as ms

    @ms.jit
    def chatty(x):
        print("inside jit:", x)
        return x + 1

    with capture_native_stdout() as captured:
        os.write(1, b"native\n")
        float(chatty(ms.Tensor([1.0], ms.float32)).asnumpy()[0])   # the call, and its print, finished
    assert captured[0].startswith("native\n") and "inside jit:" in captured[0]
    assert "inside jit" not in capfd.readouterr().out
