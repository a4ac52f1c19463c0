"""What the lessons use in their own cells that is about the notebook, not about MindSpore.

* ``show_error``: run a block that is *meant* to fail, print the error a learner would see (type and
  first line), and carry on. It fails loudly if the block did not fail, so a lesson cannot silently
  stop demonstrating the mistake it talks about.
* ``capture_native_stderr``: keep what MindSpore's C++ side writes to file descriptor 2 (GRAPH_MODE
  compile errors are logged there before they are raised) out of the notebook.
* ``capture_native_stdout``: collect what MindSpore's runtime writes to file descriptor 1 (``print`` inside a
  compiled graph), so a cell can show it in order: a kernel forwards that descriptor on a thread of its own, and
  the text can otherwise arrive after the cell's later Python output.
* ``in_kernel``: whether code runs inside a Jupyter kernel (rich display) or in a script/pytest.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from typing import Iterator, Optional, Tuple, Type

from course_utils.i18n import tr

__all__ = ["HEADLESS_ENV", "ShownError", "capture_native_stderr", "capture_native_stdout", "first_line", "headless",
           "in_kernel", "show_error"]

#: Set (to "1") in the kernel of a run without a front end (``course_utils.execute``): nobody watches a widget there.
HEADLESS_ENV = "COURSE_HEADLESS"


def in_kernel() -> bool:
    """True inside a running Jupyter kernel; False in scripts, pytest and terminal IPython.

    Importing ipywidgets or ipykernel (as tests do) is not enough: a kernel must be running.
    """
    if "IPython" not in sys.modules:
        return False
    from IPython import get_ipython

    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def headless() -> bool:
    """True in a kernel that ``course_utils.execute`` started (``make notebooks``, ``make run``, the tests): its
    outputs are stored, and a widget there (a tqdm bar) is stored as the text of its first state, "0%"."""
    return os.environ.get(HEADLESS_ENV, "") == "1"


def first_line(exc: BaseException) -> str:
    """The first non-empty line of an exception's message (MindSpore appends C++ traces below it)."""
    for line in str(exc).strip().splitlines():
        if line.strip():
            return line.strip()
    return "(no message)"


def _flush_c_stdio() -> None:
    """Flush the C library's stdio buffers (native code may write through them), where ctypes can reach them."""
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError, TypeError):  # no C library to reach (some platforms): nothing to flush
        pass


@contextlib.contextmanager
def _capture_fd(stream, default_fd: int) -> Iterator[list]:
    """Redirect the file descriptor behind ``stream`` to a temporary file for the block; yield a list that receives
    the text when the block ends."""
    captured: list = []
    try:
        fd = stream.fileno() if stream is not None else default_fd
        saved = os.dup(fd)
    except (OSError, ValueError, AttributeError):  # no real stream (some embedded interpreters)
        yield captured
        return
    with tempfile.TemporaryFile() as tmp:
        try:
            if stream is not None:
                stream.flush()
            _flush_c_stdio()
            os.dup2(tmp.fileno(), fd)
            yield captured
        finally:
            _flush_c_stdio()
            os.dup2(saved, fd)
            os.close(saved)
            tmp.seek(0)
            captured.append(tmp.read().decode("utf-8", errors="replace"))


@contextlib.contextmanager
def capture_native_stderr() -> Iterator[list]:
    """Collect what native code (MindSpore's C++ logger) writes to file descriptor 2 in this block.

    Yields a list that receives the captured text when the block ends. A MindSpore error raised from
    a GRAPH_MODE compile is also *logged* to stderr first, which puts C++ stack dumps into the
    notebook next to the clean message; inside this block they land in a temporary file instead.
    Python's own ``sys.stderr`` (warnings, ``print(file=sys.stderr)``) is not affected.
    """
    with _capture_fd(sys.__stderr__, 2) as captured:
        yield captured


@contextlib.contextmanager
def capture_native_stdout() -> Iterator[list]:
    """Collect what native code writes to file descriptor 1 in this block: ``print`` inside a ``jit`` function or
    a GRAPH_MODE ``construct`` runs in MindSpore's runtime and writes there, not through Python's ``sys.stdout``.

    Yields a list that receives the captured text when the block ends; print it after the block to show it in
    order. (A Jupyter kernel forwards descriptor 1 on a thread of its own, so without this the runtime's lines can
    appear after the cell's later Python output; in a plain JupyterLab setup they may go to the server's terminal.)
    Read each call's result inside the block (``float(loss)``, ``.asnumpy()``), so that the call, and its print,
    has finished before the block ends.
    """
    with _capture_fd(sys.__stdout__, 1) as captured:
        yield captured


class ShownError:
    """What ``show_error`` caught: ``.error`` is the exception (None until the block has failed)."""

    def __init__(self) -> None:
        self.error: Optional[BaseException] = None

    @property
    def message(self) -> str:
        return first_line(self.error) if self.error is not None else ""

    def __repr__(self) -> str:
        return f"ShownError({type(self.error).__name__ if self.error else None}: {self.message!r})"


@contextlib.contextmanager
def show_error(*expected: Type[BaseException], match: Optional[str] = None, lines: int = 1,
               prefix: str = "", suffix: str = "") -> Iterator[ShownError]:
    """Run a block that must fail with one of ``expected``; print ``Type: message`` and continue.

    ::

        with show_error(TypeError):
            nn.CrossEntropyLoss()(logits, uint32_labels)
        # prints: TypeError: For primitive[CrossEntropyLoss], the input argument[labels] must be ...

    * ``match``: a substring the message must contain (case-insensitive), so the lesson stays about
      the error it describes when MindSpore changes its wording.
    * ``lines``: how many lines of the message to print (MindSpore's messages carry C++ traces
      after the first lines; those stay out).
    * ``prefix`` / ``suffix``: printed before the type / after the message (a label, or a gloss of MindSpore's
      English message in the lesson's language).
    * The caught exception is available afterwards as ``with show_error(...) as shown: ...`` then
      ``shown.error``.

    An exception of another type propagates unchanged (the lesson is wrong, not the learner). A block
    that does not fail raises ``AssertionError``: the mistake the lesson shows no longer happens.
    """
    kinds: Tuple[Type[BaseException], ...] = expected or (Exception,)
    shown = ShownError()
    with capture_native_stderr():
        try:
            yield shown
        except kinds as exc:
            shown.error = exc
    if shown.error is None:
        names = " or ".join(k.__name__ for k in kinds)
        raise AssertionError(f"expected {names}, but the block ran without an error")
    text_lines = [ln.rstrip() for ln in str(shown.error).strip().splitlines() if ln.strip()][:max(1, lines)]
    if match is not None and match.lower() not in str(shown.error).lower():
        raise AssertionError(f"expected the message to mention {match!r}, got: {shown.message}")
    print(f"{prefix}{type(shown.error).__name__}: " + ("\n    ".join(text_lines) if text_lines else tr("(no message)"))
          + suffix)
