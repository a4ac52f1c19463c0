"""What the test modules share, imported from here (``from support import ROOT, run_python``), never from conftest.

* paths: ``ROOT`` (the repository), ``NOTEBOOKS``, ``PROGRAMS`` (the child programs, ``tests/programs/``);
* the suite's rules, applied by tests/conftest.py: ``TIMEOUTS`` by marker, ``cost_rank`` (the order a parallel run
  starts tests in: whole-lesson runs by ``LONGEST_LESSONS``);
* ``run_python``: a child program (or one or two lines) in a fresh interpreter with the course's child environment;
* ``set_ms_mode`` and ``PYNATIVE_FAST_GRAPH_SLOW``: MindSpore's execution mode in tests;
* the modules beside this one: ``notebook_outputs`` (nbval's output check on an executed notebook),
  ``lenet_training`` (a small LeNet-5 step and batches), ``mnist_fakes`` (fake MNIST files and a local server:
  fixtures, registered by tests/conftest.py), ``bench_rows`` (made-up measurement rows of the lab's experiments);
* ``attribute_chains``: the ``a.b.c`` uses in a piece of code (the checks of API links and of faces read them).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from course_utils import lessons

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
PROGRAMS = ROOT / "tests" / "programs"

#: Seconds a test may take, by its slowest marker (the machine may be loaded: generous, but minutes, not hours).
TIMEOUTS = {"browser": 1500, "integration": 900, "slow": 900, "notebook cell": 1200, None: 300}
#: The markers of tests that are not fast, in the order their TIMEOUTS take precedence.
SLOW_MARKERS = ("browser", "integration", "slow")
#: The lessons by their measured run times (``metadata.course.run_seconds``), longest first: a new long lesson is
#: scheduled early without being listed anywhere.
LONGEST_LESSONS = tuple(lesson.number for lesson in lessons.longest_first())


def cost_rank(item) -> tuple:
    """Where a test goes in a parallel run: whole-lesson runs first (the longest first), then the other slow ones."""
    heavy = any(item.get_closest_marker(m) for m in SLOW_MARKERS)
    lesson = re.search(r"\[(?:zh/)?(\d\d)_", item.nodeid)
    if heavy and lesson and lesson.group(1) in LONGEST_LESSONS:
        return (0, LONGEST_LESSONS.index(lesson.group(1)))
    return (1, 0) if heavy else (2, 0)


def run_python(code, env: dict | None = None, timeout: int = 300, cwd: Path | None = None):
    """Run ``code`` in a fresh interpreter of this environment; returns the CompletedProcess.

    ``code`` is a list ``[script, *args]`` (a path relative to the repository, e.g.
    ``tests/programs/x.py``: child programs live in real files, so they are linted like the rest), or,
    for one or two lines, a source string."""
    from course_utils import runtime

    # the course's child environment, the fixes left to the child's own runtime.setup() (and a user's
    # COURSE_CPU_FIXES=0 not inherited: the tests say what they want)
    full_env = runtime.child_env(cpu_fixes=None, env={runtime.OPT_OUT_VAR: None, **(env or {})})
    argv = ["-c", textwrap.dedent(code)] if isinstance(code, str) else [str(a) for a in code]
    return subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                          env=full_env, timeout=timeout, cwd=cwd or ROOT)


def set_ms_mode(mode) -> None:
    """Switch MindSpore to ``mode`` ("graph", "pynative" or a constant); ``_execution_mode`` puts GRAPH_MODE
    back after the test."""
    import mindspore as ms

    from course_utils import runtime

    ms.set_context(mode=getattr(ms, runtime.MODES[mode]) if isinstance(mode, str) else mode)


#: For exercise-checker tests of wrong answers: PyNative in the fast tier (no compile per Cell), compiled in GRAPH_MODE
#: (as the lessons run) in ``make test-full`` (slow).
PYNATIVE_FAST_GRAPH_SLOW = pytest.mark.parametrize(
    "ms_mode", ["pynative", pytest.param("graph", marks=pytest.mark.slow)], indirect=True)


def attribute_chains(tree):
    """``(node, base, [attr, ...])`` for every attribute chain ``base.attr...`` on a plain name in ``tree``
    (``ms.nn.Dense`` -> ``(node, "ms", ["nn", "Dense"])``), outer and inner chains alike."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain, cur = [], node
            while isinstance(cur, ast.Attribute):
                chain.append(cur.attr)
                cur = cur.value
            if isinstance(cur, ast.Name):
                yield node, cur.id, chain[::-1]
