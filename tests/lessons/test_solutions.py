"""The instructor edition (``make solutions``, ``course_utils.solutions``).

Fast tests: how exercise cells are found and filled, on small notebooks and on every stored lesson.
The slow test builds the edition from the Chinese lessons and executes it with their stored parameters,
requiring every exercise to report "correct" (the proof, inside the real notebooks, that every shown
solution passes its own checker) and checking what nbval would check of those lessons.
"""

import contextlib
import importlib
import io
import sys
import types
from pathlib import Path

import nbformat
import pytest

from support import NOTEBOOKS
from course_utils import lessons, solutions
from course_utils.lessons import Lesson
from course_utils.exercises import Exercise, Incorrect, nb09
from course_utils.i18n.notebooks import code_difference
from support.notebook_outputs import checked_output_problems, noise_problems, solved_reference

LESSONS = lessons.paths("en")


def _notebook(*sources):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(s) if not s.startswith("#md ") else nbformat.v4.new_markdown_cell(s[4:])
                for s in sources]
    return nb


Q1_CELL = '''from course_utils.exercises import ____, nb09


def shard_indices(n_samples, num_shards, shard_id):
    return ____   # a list of sample indices


nb09.q1.check()
# nb09.q1.hint()'''
Q2_CELL = '''def global_gradient(rank_grads, rank_sizes):
    return ____


nb09.q2.check()'''


@pytest.fixture
def nb09_q1_q2_only(monkeypatch):
    """The small notebooks below answer nb09.q1 and q2 only."""
    real = solutions.exercises_of

    def first_two(module):
        found = real(module)
        return {q: e for q, e in found.items() if module is not nb09 or q in ("q1", "q2")}

    monkeypatch.setattr(solutions, "exercises_of", first_two)


def _run_cells(nb):
    """Execute a notebook's code cells in one namespace (no kernel; check() prints outside one)."""
    namespace = {"__name__": "__main__"}
    with contextlib.redirect_stdout(io.StringIO()) as out:
        for cell in nb.cells:
            if cell.cell_type == "code":
                exec(compile(cell.source, "<cell>", "exec"), namespace)
    return out.getvalue()


def test_fills_the_exercise_cells_with_the_shown_solutions_and_asserts_correct(nb09_q1_q2_only):
    nb = _notebook("x = 1", Q1_CELL, "#md ## text", Q2_CELL)
    filled = solutions.fill_notebook(nb, "09")
    assert filled.exercises == ["nb09.q1", "nb09.q2"]
    q1, q2 = nb.cells[1], nb.cells[3]
    assert nb.cells[0].source == "x = 1" and "solution" not in nb.cells[0].metadata.get("tags", [])
    assert solutions.shown_solution(nb09.q1) in q1.source and solutions.shown_solution(nb09.q2) in q2.source
    assert "____, nb09" in q1.source, "the cell's other statements (the import) stay"
    assert "# nb09.q1.hint()" in q1.source, "comments outside the answer stay"
    assert "return ____" not in q1.source + q2.source
    assert q1.metadata[solutions.METADATA_KEY] == {"exercise": "nb09.q1", "label": nb09.q1.label}
    assert "solution" in q1.metadata["tags"]
    output = _run_cells(nb)
    assert f"{nb09.q1.label} - Correct" in output and f"{nb09.q2.label} - Correct" in output


def test_a_shown_solution_that_fails_its_check_fails_the_built_cell(nb09_q1_q2_only, monkeypatch):
    monkeypatch.setattr(type(nb09.q2), "solution_text",
                        property(lambda self: "def global_gradient(rank_grads, rank_sizes):\n"
                                              "    return sum(rank_grads) / len(rank_grads)\n"))
    nb = _notebook(Q1_CELL, Q2_CELL)
    solutions.fill_notebook(nb, "09")
    with pytest.raises(AssertionError, match="the shown solution fails its own check.*plain average"):
        _run_cells(nb)


def test_a_missing_exercise_cell_is_an_error_before_anything_runs():
    with pytest.raises(solutions.BuildError, match=r"no cell calling nb09\.q2\.check\(\)"):
        solutions.fill_notebook(_notebook(Q1_CELL), "09")


def test_two_cells_checking_the_same_exercise_are_an_error():
    with pytest.raises(solutions.BuildError, match=r"nb09\.q1\.check\(\) in cells 0 and 1"):
        solutions.fill_notebook(_notebook(Q1_CELL, Q1_CELL.replace("from course_utils.exercises import ____, nb09",
                                                                   "")), "09")


def test_two_exercises_in_one_cell_are_an_error():
    with pytest.raises(solutions.BuildError, match=r"cell 0: the exercise cell of nb09\.q1 and of nb09\.q2"):
        solutions.fill_notebook(_notebook(Q1_CELL + "\n" + Q2_CELL), "09")


def test_a_placeholder_outside_the_answer_is_an_error(nb09_q1_q2_only):
    cell = Q2_CELL.replace("nb09.q2.check()", "sizes = ____\nnb09.q2.check()")
    with pytest.raises(solutions.BuildError, match=r"nb09\.q2.*placeholder ____ is still there"):
        solutions.fill_notebook(_notebook(Q1_CELL, cell), "09")


def test_a_check_with_an_argument_is_a_demonstration_and_stays(nb09_q1_q2_only):
    demo = "nb09.q2.check(lambda grads, sizes: grads[0])"
    nb = _notebook(Q1_CELL, demo, Q2_CELL)
    filled = solutions.fill_notebook(nb, "09")
    assert nb.cells[1].source == demo and solutions.METADATA_KEY not in nb.cells[1].metadata
    assert filled.exercises == ["nb09.q1", "nb09.q2"]


def test_the_cell_is_found_from_the_code_not_the_wording(nb09_q1_q2_only):
    """Another import alias, an annotated placeholder, a decorator: still found and filled."""
    nb = _notebook('from course_utils.exercises import ____\nfrom course_utils.exercises import nb09 as ex\n'
                   'shard_indices: object = ____\nex.q1.check()',
                   'import functools\n\n@functools.lru_cache\ndef global_gradient(a, b):\n    return ____\n\n'
                   'ex.q2.check()')
    assert solutions.fill_notebook(nb, "09").exercises == ["nb09.q1", "nb09.q2"]
    assert "@functools.lru_cache" not in nb.cells[1].source and "import functools" in nb.cells[1].source
    assert "Correct" in _run_cells(nb)


def test_shown_solution_is_what_solution_prints():
    for exercise in (nb09.q1, nb09.q2):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            exercise.solution()
        assert out.getvalue() == f"{exercise.label} - Solution:\n{solutions.shown_solution(exercise)}\n"


class _ScriptExercise(Exercise):
    """Like the capstone's: the answer is a script file beside the notebook, not code in the cell."""

    names = ()
    solution_files = {"scripts/my_train.py": "scripts/my_reference.py"}

    def reference(self):
        return ()

    def _check(self, script="scripts/my_train.py"):
        if "solved" not in Path(script).read_text():
            raise Incorrect("the script is still the skeleton")


def test_solution_files_hook_copies_the_reference_script(tmp_path, monkeypatch):
    module = types.ModuleType("course_utils.exercises.nb98")
    module.q1 = _ScriptExercise()
    module.q1.number = "98.1"
    monkeypatch.setitem(sys.modules, "course_utils.exercises.nb98", module)
    lessons = tmp_path / "notebooks"
    (lessons / "scripts").mkdir(parents=True)
    (lessons / "scripts" / "my_train.py").write_text("# skeleton: fill in the gaps\n")
    (lessons / "scripts" / "my_reference.py").write_text("# solved\n")
    # the check may take the script's path: for an exercise answered by files, that call is the exercise cell
    nbformat.write(_notebook("from course_utils.exercises import nb98", "nb98.q1.check('scripts/my_train.py')"),
                   lessons / "98_script.ipynb")
    summary = solutions.build(out_dir=tmp_path / "out", execute=False, parameters={}, log=lambda *a: None,
                              root=tmp_path, manifest=(Lesson("98", "script", {"en": "t"}, {"en": "s"}),))
    row = summary["notebooks"][0]
    assert row["exercises"] == ["nb98.q1"] and row["solution_files"] == module.q1.solution_files
    assert (tmp_path / "out" / "scripts" / "my_train.py").read_text() == "# solved\n"
    assert (lessons / "scripts" / "my_train.py").read_text().startswith("# skeleton"), "lessons untouched"
    built = nbformat.read(tmp_path / "out" / "98_script.ipynb", as_version=4)
    assert "_solution_result = nb98.q1.check('scripts/my_train.py')" in built.cells[-1].source
    assert "assert _solution_result == Outcome.CORRECT" in built.cells[-1].source
    monkeypatch.chdir(tmp_path / "out")   # a built notebook runs in its folder
    assert "Exercise 98.1 - Correct" in _run_cells(built)
    monkeypatch.chdir(lessons)            # the same cell beside the learner's skeleton fails its assert
    with pytest.raises(AssertionError, match="the script is still the skeleton"):
        _run_cells(built)


def test_without_names_or_solution_files_nothing_can_be_filled(monkeypatch):
    module = types.ModuleType("course_utils.exercises.nb97")
    module.q1 = _ScriptExercise()
    module.q1.solution_files = {}
    monkeypatch.setitem(sys.modules, "course_utils.exercises.nb97", module)
    with pytest.raises(solutions.BuildError, match="nothing to fill in"):
        solutions.fill_notebook(_notebook("from course_utils.exercises import nb97", "nb97.q1.check()"), "97")


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_exercise_of_every_lesson_is_found(path):
    """The convention the builder relies on, for every stored lesson: each exercise of its module
    ``course_utils/exercises/nbNN.py`` has one cell with ``nbNN.qK.check()`` (no arguments), whose
    placeholders all sit in the statements that define the exercise's names."""
    lesson = lessons.get(path.name)
    number = lesson.number
    nb = nbformat.read(path, as_version=4)
    filled = solutions.fill_notebook(nb, number)   # raises BuildError on a cell it cannot fill
    if lesson.exercises:
        module = importlib.import_module(lesson.exercises)
        own = [f"nb{number}.{q}" for q in solutions.exercises_of(module)]
        assert own and [e for e in filled.exercises if e.startswith(f"nb{number}.")] == own


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_the_chinese_edition_fills_the_same_cells_as_the_english_one(path):
    """The slow test executes the instructor edition built from notebooks/zh/: the same exercise cells, filled with
    the same code, so that it proves for both editions what it proves."""
    english, chinese = (nbformat.read(p, as_version=4) for p in (path, NOTEBOOKS / "zh" / path.name))
    filled_en, filled_zh = solutions.fill_notebook(english, path.name[:2]), solutions.fill_notebook(chinese, "", "zh")
    assert filled_zh.exercises == filled_en.exercises and filled_zh.files == filled_en.files

    def solved(nb):
        return [(c.get("id"), c.source) for c in nb.cells if solutions.METADATA_KEY in c.metadata]

    assert [i for i, _ in solved(chinese)] == [i for i, _ in solved(english)]
    for (cell, zh), (_, en) in zip(solved(chinese), solved(english)):   # the same code, comments and strings aside
        assert code_difference(en, zh) is None, f"cell {cell}: {code_difference(en, zh)}"


def test_quick_parameters_are_declared_by_their_notebooks():
    from course_utils import run

    scoped = {k: v for k, v in solutions.QUICK_PARAMETERS.items() if any(p.name.startswith(k + "_") for p in LESSONS)}
    run.plan_parameters(LESSONS, {}, scoped)   # raises RunError for a parameter a notebook does not declare


#: The Chinese lessons this module executes as the instructor edition: those the browser suite does not already run
#: (the manifest's ``zh_in_browser`` ones run there, solved, in a Chinese JupyterLab: tests/browser/test_notebooks.py).
ZH_LESSONS = [lesson.path("zh") for lesson in lessons.LESSONS if not lesson.zh_in_browser]


@pytest.fixture(scope="module")
def edition_zh(tmp_path_factory):
    """The instructor edition built (not executed) from the Chinese edition, with its stored parameters."""
    out = tmp_path_factory.mktemp("solutions-zh")
    summary = solutions.build(out_dir=out, execute=False, parameters={}, lang="zh", log=lambda *a: None)
    return out, {row["notebook"]: row for row in summary["notebooks"]}


@pytest.mark.slow
@pytest.mark.parametrize("path", ZH_LESSONS, ids=[p.stem for p in ZH_LESSONS])
def test_every_shown_solution_passes_its_check_in_the_real_notebook(edition_zh, path):
    """One execution of each Chinese lesson, with its exercises solved, that checks two things at once.

    * The instructor edition: every shown solution passes its own checker inside the real lesson.
    * What nbval would check of ``notebooks/zh/``: the lesson runs top to bottom with its stored parameters without
      an error, the cells tagged ``nbval-check-output`` print what the stored notebook shows (``notebook_outputs``,
      nbval's comparison), and no output carries log or warning noise (the hygiene rule for stored notebooks).

    Built from the Chinese edition because its cells are the English ones token for token (``i18n check``)
    and the English lessons are executed by the browser suite: so CI (``make test`` and ``make test-full``)
    executes each lesson once per edition (the zh lessons of the browser suite are run there, solved, instead).
    """
    out, rows = edition_zh
    row = rows[path.stem]
    built = Path(row["path"])
    assert built == out / "zh" / path.name
    result = solutions.execute_notebook(built)
    print(f"{path.stem}: executed in {result['seconds']} s")
    assert not result["error"], f"{path.stem} failed: {result['error']}"
    assert set(result["outcomes"]) == set(row["exercises"])
    wrong = {k: v for k, v in result["outcomes"].items() if v != "correct"}
    assert not wrong, f"{path.stem}: {wrong}"

    executed = nbformat.read(built, as_version=4)
    assert solutions.SOLUTION_TAG in executed.cells[0].metadata["tags"], "the banner comes first"
    reference = solved_reference(nbformat.read(path, as_version=4), executed)
    problems = checked_output_problems(reference, executed) + noise_problems(executed)
    assert not problems, f"{path.stem}:\n" + "\n".join(problems)


def test_a_cell_that_starts_with_blank_lines_is_filled_in_the_right_place(nb09_q1_q2_only):
    # IPython's transformer drops leading blank lines, so the AST's line numbers start after them.
    nb = _notebook("\n\n" + Q1_CELL, Q2_CELL)
    solutions.fill_notebook(nb, "09")
    q1 = nb.cells[0].source
    assert solutions.shown_solution(nb09.q1) in q1 and "_solution_result = nb09.q1.check()" in q1
    assert "from course_utils.exercises import ____, nb09" in q1
    output = _run_cells(nb)
    assert f"{nb09.q1.label} - Correct" in output


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_outcomes_are_read_in_the_language_the_kernel_printed(lang, nb09_q1_q2_only):
    """A filled cell's output is read with the labels of the edition's language (the zh edition prints 练习 ...)."""
    from course_utils.i18n import speaking

    nb = _notebook(Q1_CELL, Q2_CELL)
    solutions.fill_notebook(nb, "09", lang)
    with speaking(lang):
        namespace = {}
        exec(solutions.shown_solution(nb09.q1), namespace)
        printed = [str(nb09.q1.check(namespace["shard_indices"])),
                   str(nb09.q2.check(lambda grads, sizes: grads[0]))]
    assert ("练习" in printed[0]) == (lang == "zh")
    for cell, text in zip(nb.cells, printed):
        cell.outputs = [nbformat.v4.new_output("display_data", data={"text/plain": text})]
    assert solutions.outcomes(nb, lang) == {"nb09.q1": "correct", "nb09.q2": "incorrect"}
    other = "en" if lang == "zh" else "zh"
    assert solutions.outcomes(nb, other) == {"nb09.q1": "not run", "nb09.q2": "not run"}
