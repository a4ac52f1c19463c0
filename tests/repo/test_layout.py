"""The course's layout: the lessons on disk are exactly the lesson manifest's (course_utils/lessons.py), the README
tables are generated from it, and the test suite's own rules (tests/conftest.py) hold."""

import importlib
import re

import pytest

from support import LONGEST_LESSONS, PROGRAMS, ROOT, TIMEOUTS, cost_rank
from course_utils import lessons


def test_the_lessons_on_disk_are_the_manifest():
    """Every lesson of the manifest exists in both editions with its catalogue, and no numbered notebook exists that
    the manifest does not list (it would be run by nothing and tested by nothing)."""
    assert [lesson.number for lesson in lessons.LESSONS] == [f"{i:02d}" for i in range(len(lessons.LESSONS))], (
        "lessons are numbered 00, 01, ... without gaps")
    for lang in lessons.EDITIONS:
        on_disk = sorted(p.name for p in lessons.paths(lang)[0].parent.glob("[0-9][0-9]_*.ipynb"))
        assert on_disk == [p.name for p in lessons.paths(lang)], f"notebooks/{lessons.EDITIONS[lang]}: {on_disk}"
    for lesson in lessons.LESSONS:
        assert lesson.catalogue("zh").is_file(), f"{lesson.name}: no catalogue {lesson.catalogue('zh')}"
        assert set(lesson.title) == set(lesson.summary) == set(lessons.EDITIONS), lesson.name
        earlier = [other.number for other in lessons.LESSONS[:lessons.LESSONS.index(lesson)]]
        assert set(lesson.requires) <= set(earlier), f"{lesson.name} requires a later lesson: {lesson.requires}"
        if lesson.exercises:
            importlib.import_module(lesson.exercises)
        assert lessons.get(lesson.number) is lessons.get(lesson.name + ".ipynb") is lesson


def test_each_lessons_title_cell_is_its_manifest_title():
    """The first heading of each notebook is "NN · <title>" in its language (the manifest is what the README, the
    website and the runner show)."""
    import json

    for lesson in lessons.LESSONS:
        for lang in lessons.EDITIONS:
            cells = json.loads(lesson.path(lang).read_text(encoding="utf-8"))["cells"]
            heading = "".join(cells[0]["source"]).splitlines()[0]
            assert heading == f"# {lesson.number} · {lesson.title[lang]}", (lesson.name, lang, heading)


@pytest.mark.parametrize("lang", sorted(lessons.READMES))
def test_the_readme_tables_are_generated_from_the_manifest(lang):
    problems = lessons.readme_problems(lang)
    assert not problems, "\n".join(problems)


def test_the_readme_check_can_fail(tmp_path):
    (tmp_path / "notebooks").symlink_to(ROOT / "notebooks")
    for name in lessons.READMES.values():
        (tmp_path / name).write_text((ROOT / name).read_text(encoding="utf-8"), encoding="utf-8")
    assert lessons.readme_problems("en", tmp_path) == []
    readme = tmp_path / "README.md"
    text = readme.read_text(encoding="utf-8")
    first, second = lessons.LESSONS[0].name, lessons.LESSONS[1].name
    rows = [line for line in text.splitlines() if line.startswith(f"| [{first}]") or line.startswith(f"| [{second}]")]
    readme.write_text(text.replace(rows[0], "\x00").replace(rows[1], rows[0]).replace("\x00", rows[1]))
    swapped = lessons.readme_problems("en", tmp_path)
    assert swapped and "table line 3" in swapped[0], swapped
    readme.write_text(text.replace(rows[0], re.sub(r"\| ~\d+ s \|$", "| ~45 min |", rows[0])))
    assert any("runs in ~45 min; its stored run took" in p for p in lessons.readme_problems("en", tmp_path))
    lessons.write_readme("en", tmp_path)
    assert lessons.readme_problems("en", tmp_path) == []


#: The kinds of tests, one folder each (CONTRIBUTING, "Tests"); tests/support holds what they share.
TEST_GROUPS = {"unit", "lessons", "repo", "browser", "mindspore"}


def test_tests_are_grouped_by_kind_and_share_helpers_through_support():
    """Every test module sits in its kind's folder, imports nothing from conftest, and imports another test module
    only from its own folder (shared helpers live in tests/support)."""
    tests = ROOT / "tests"
    for path in sorted(tests.rglob("test_*.py")):
        if "programs" in path.parts:
            continue
        group = path.relative_to(tests).parts[0]
        assert group in TEST_GROUPS, f"{path.relative_to(ROOT)}: put it in tests/<{'|'.join(sorted(TEST_GROUPS))}>/"
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(from|import) conftest\b", text, re.M), f"{path.name} imports conftest"
        for other in re.findall(r"^\s*from (test_\w+) import", text, re.M):
            assert (path.parent / f"{other}.py").is_file(), f"{path.name} imports {other} from another folder"
    names = [p.name for p in tests.rglob("test_*.py") if "programs" not in p.parts]
    assert len(names) == len(set(names)), "two test modules share a name (pytest imports them by name)"


def test_child_programs_are_files_not_strings():
    """Child programs live in tests/programs/ (linted, runnable by hand), not in triple-quoted strings."""
    assert sorted(p.name for p in PROGRAMS.glob("*.py"))
    for path in PROGRAMS.glob("*.py"):
        compile(path.read_text(encoding="utf-8"), str(path), "exec")
        assert path.read_text(encoding="utf-8").startswith('"""'), f"{path.name}: say what it prints"
    # no program in a string: neither given to the python fixture nor kept in a constant for a child process
    string_programs = re.compile(r'python\(\s*"""|= textwrap\.dedent\(\s*"""\s*\n\s*(import|from) ')
    offenders = [path.name for path in sorted((ROOT / "tests").rglob("test_*.py"))
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
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
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


def _module(path):
    """A test module of another group, loaded from its file (test groups do not import one another)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"_layout_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ci_executes_every_chinese_lesson_once_in_the_instructor_edition_and_not_under_nbval():
    """CI executes each zh lesson once, solved: the manifest's ``zh_in_browser`` ones in the Chinese JupyterLab
    (make test), the others as the instructor edition (tests/lessons/test_solutions.py, ``slow``: make test-full);
    none under nbval."""
    from browser.settings import ZH_NOTEBOOK_FILES

    ZH_LESSONS = _module(ROOT / "tests" / "lessons" / "test_solutions.py").ZH_LESSONS

    zh = lessons.paths("zh")
    assert sorted(ZH_LESSONS + ZH_NOTEBOOK_FILES) == zh and not set(ZH_LESSONS) & set(ZH_NOTEBOOK_FILES), (
        "each zh lesson is executed once: in the Chinese JupyterLab (solved) or as the instructor edition")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    check = re.search(r"^NOTEBOOK_CHECK\s*=\s*(.+)$", makefile, flags=re.MULTILINE).group(1)
    assert "ZH_LESSONS" not in check and "zh/" not in check
    recipe = {target: re.search(rf"^{target}:.*\n\t(.+)$", makefile, flags=re.MULTILINE).group(1)
              for target in ("test", "test-full")}
    assert '-m "not slow and not integration"' in recipe["test"]
    assert "$(LONG)" in recipe["test-full"]
    # the two suites split the tests: make test the fast ones (browser included), test-full the slow and integration
    # ones (the website's browser test among them)
    assert re.search(r'^LONG\s*=\s*-m "slow or integration"$', makefile, flags=re.MULTILINE)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test ", ci, flags=re.MULTILINE) and re.search(r"^make test-full", ci, flags=re.MULTILINE)


def test_a_parallel_run_starts_the_longest_lessons_first():
    """Under pytest-xdist the items are sorted: whole-lesson runs by their lessons' measured run times (longest
    first), then the other slow tests, then the fast ones."""
    class Item:
        def __init__(self, nodeid, *marks):
            self.nodeid, self.marks = nodeid, marks

        def get_closest_marker(self, name):
            return name if name in self.marks else None

    first, second = (lessons.get(n).name for n in LONGEST_LESSONS[:2])   # the two longest stored runs
    assert LONGEST_LESSONS[-1] == "00", LONGEST_LESSONS                    # 00 is the shortest lesson
    runs = [f"tests/lessons/test_solutions.py::test_real[{second}]",
            f"tests/browser/test_notebooks.py::test_runs[{first}]"]
    items = [Item("tests/unit/test_fmt.py::test_x"),
             Item(runs[0], "slow"),
             Item("tests/repo/test_hub.py::test_culler", "slow"),
             Item("tests/lessons/test_exercises_nb07.py::test_q1[05_wrong]"),   # fast: a lesson id alone is not a run
             Item(runs[1], "browser"),
             Item("tests/browser/test_notebooks.py::test_runs[00_environment_setup]", "browser")]
    ordered = [i.nodeid for i in sorted(items, key=cost_rank)]
    assert ordered == [runs[1], runs[0],
                       "tests/browser/test_notebooks.py::test_runs[00_environment_setup]",
                       "tests/repo/test_hub.py::test_culler",
                       "tests/unit/test_fmt.py::test_x",
                       "tests/lessons/test_exercises_nb07.py::test_q1[05_wrong]"]


def test_every_lesson_file_named_in_the_configuration_exists():
    """pyproject.toml's per-file lint rules name some lessons by file: renumbering a lesson must carry them over."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")   # (tomllib is Python 3.11+; the course runs 3.9)
    named = re.findall(r'^"([^"*]+\.ipynb)"\s*=', text, flags=re.MULTILINE)
    missing = [p for p in named if not (ROOT / p).is_file()]
    assert named and not missing, f"pyproject.toml names lessons that do not exist: {missing}"
