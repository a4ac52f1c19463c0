"""The course's layout: the lessons on disk are exactly the README's lesson table, and the test suite's
own rules (tests/conftest.py) hold."""

import re

import pytest

from conftest import LESSONS, PROGRAMS, ROOT, TIMEOUTS, _cost_rank, lessons_in_readme


def test_the_lessons_are_the_readme_table():
    listed = lessons_in_readme()
    assert listed == [p.stem for p in LESSONS]
    assert listed[:7] == ["00_environment_setup", "01_custom_huber_loss", "02_functional_training_step",
                          "03_cell_training_step", "04_mnist_lenet", "05_performance_lab", "06_data_parallel"]
    numbers = [int(name[:2]) for name in listed]
    assert numbers == list(range(len(numbers))), "lessons are numbered 00, 01, ... without gaps"


def test_child_programs_are_files_not_strings():
    """Child programs live in tests/programs/ (linted, runnable by hand), not in triple-quoted strings."""
    assert sorted(p.name for p in PROGRAMS.glob("*.py"))
    for path in PROGRAMS.glob("*.py"):
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
        assert path.read_text(encoding="utf-8").startswith('"""'), f"{path.name}: say what it prints"
    # no program in a string: neither given to the python fixture nor kept in a constant for a child process
    string_programs = re.compile(r'python\(\s*"""|= textwrap\.dedent\(\s*"""\s*\n\s*(import|from) ')
    offenders = [path.name for path in sorted((ROOT / "tests").glob("test_*.py"))
                 if string_programs.search(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_every_test_has_a_time_limit(request):
    marker = request.node.get_closest_marker("timeout")
    assert marker is not None and marker.args[0] == TIMEOUTS[None]


@pytest.mark.slow
def test_slow_tests_get_the_longer_limit(request):
    assert request.node.get_closest_marker("timeout").args[0] == TIMEOUTS["slow"]


def test_no_runtime_setup_at_collection():
    """Test modules leave runtime.setup() to tests/conftest.py (the mindspore_runtime fixture)."""
    offenders = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("runtime.setup("):
                offenders.append(path.name)
    assert offenders == []


def test_mindspore_runs_in_graph_mode_with_the_session_setup(mindspore_runtime):
    if mindspore_runtime is None:  # the session began without MindSpore (a test imported it later)
        pytest.skip("no collected test module imports MindSpore")
    import mindspore as ms

    assert mindspore_runtime.device == "CPU" and ms.get_context("mode") == ms.GRAPH_MODE


@pytest.mark.parametrize("ms_mode", ["pynative"], indirect=True)
def test_ms_mode_switches_and_the_next_test_is_back_in_graph_mode(ms_mode):
    import mindspore as ms

    assert ms_mode == ms.PYNATIVE_MODE == ms.get_context("mode")
    ms.set_context(mode=ms.PYNATIVE_MODE)   # a test that forgets to restore: the next one is unaffected


def test_after_a_pynative_test_the_mode_is_graph_again():
    pytest.importorskip("mindspore")
    import mindspore as ms

    assert ms.get_context("mode") == ms.GRAPH_MODE


def test_ci_executes_every_chinese_lesson_once_in_the_instructor_edition_and_not_under_nbval():
    """make test-full runs each zh lesson once, as the instructor edition (tests/test_solutions.py, ``slow``), not
    under nbval; make test leaves it out (its notebooks are the browser suite's English lessons and zh 00-01)."""
    from browser.settings import ZH_NOTEBOOK_FILES
    from test_solutions import ZH_LESSONS

    zh = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
    assert ZH_LESSONS == zh and len(zh) == len(lessons_in_readme())
    assert set(ZH_NOTEBOOK_FILES) < set(zh)
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = re.search(r"^NOTEBOOK_CHECK\s*=\s*(.+)$", makefile, flags=re.MULTILINE).group(1)
    assert "ZH_LESSONS" not in check and "zh/" not in check
    recipe = {target: re.search(rf"^{target}:.*\n\t(.+)$", makefile, flags=re.MULTILINE).group(1)
              for target in ("test", "test-full")}
    assert '-m "not slow and not integration"' in recipe["test"]
    assert "$(LONG)" in recipe["test-full"]
    assert re.search(r'^LONG\s*=\s*-m "\(slow or integration\) and not browser"$', makefile, flags=re.MULTILINE)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test ", ci, flags=re.MULTILINE) and re.search(r"^make test-full", ci, flags=re.MULTILINE)


def test_a_parallel_run_starts_the_longest_lessons_first():
    """Under pytest-xdist the items are sorted: the runs of LONGEST_LESSONS in that order, other slow tests, fast."""
    class Item:
        def __init__(self, nodeid, *marks):
            self.nodeid, self.marks = nodeid, marks

        def get_closest_marker(self, name):
            return name if name in self.marks else None

    items = [Item("tests/test_fmt.py::test_x"),
             Item("tests/test_solutions.py::test_real[04_mnist_lenet]", "slow"),
             Item("tests/test_hub.py::test_culler", "slow"),
             Item("tests/test_exercises_nb05.py::test_q1[05_wrong]"),   # fast: a lesson id alone is not a run
             Item("tests/browser/test_notebooks.py::test_runs[05_performance_lab]", "browser"),
             Item("tests/browser/test_notebooks.py::test_runs[00_environment_setup]", "browser")]
    ordered = [i.nodeid for i in sorted(items, key=_cost_rank)]
    assert ordered == ["tests/browser/test_notebooks.py::test_runs[05_performance_lab]",
                       "tests/test_solutions.py::test_real[04_mnist_lenet]",
                       "tests/test_hub.py::test_culler",
                       "tests/browser/test_notebooks.py::test_runs[00_environment_setup]",
                       "tests/test_fmt.py::test_x",
                       "tests/test_exercises_nb05.py::test_q1[05_wrong]"]
