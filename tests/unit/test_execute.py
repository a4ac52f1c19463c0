"""course_utils.execute: the one notebook executor (make run, the instructor edition, make notebooks), and the
maintainers' re-execution built on it (scripts/execute_notebooks.py)."""

import importlib.util
import os

import nbformat
import pytest

from course_utils import execute as ex
from course_utils import fmt

from support import ROOT


def _notebook(path, *sources, params="N: int = 1"):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(params)
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# 00 · T\n**Run time:** about 20 s on a 2-core CPU."), cell]
    nb.cells += [nbformat.v4.new_code_cell(s) for s in sources]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def test_runs_in_the_notebooks_folder_with_papermills_parameters_and_the_given_environment(tmp_path):
    path = _notebook(tmp_path / "00_t.ipynb",
                     "import os, sys\nprint(N * 2, os.getcwd(), os.environ['MARK'], os.environ['COURSE_HEADLESS'])",
                     "print('from the kernel process', file=sys.__stderr__)")
    done = ex.execute(path, parameters={"N": 21}, env={**os.environ, "MARK": "seen"},
                      kernel_log=tmp_path / "kernel.log")
    assert done.ok and done.error == "" and done.seconds > 0
    assert len(done.load_average) == 2
    out = done.notebook.cells[3].outputs[0]["text"]
    assert out.split() == ["42", str(tmp_path), "seen", "1"], "the kernel knows it runs headless"
    assert "injected-parameters" in done.notebook.cells[2].metadata["tags"], "papermill's cell, after the parameters"
    assert "from the kernel process" in (tmp_path / "kernel.log").read_text()
    assert nbformat.read(path, as_version=4).cells[1].source == "N: int = 1", "the file itself is not changed"


def test_a_failing_cell_is_reported_not_raised(tmp_path):
    path = _notebook(tmp_path / "00_t.ipynb", "x = 1", "raise ValueError('N must be odd')", "y = 2")
    done = ex.execute(path, timeout=60)
    assert not done.ok and done.error == "ValueError: N must be odd"
    assert "Traceback" in done.traceback or "ValueError" in done.traceback
    cells = done.notebook.cells
    assert cells[3].execution_count == 3 and cells[4].execution_count is None, "stops at the failing cell"


def test_a_notebook_object_needs_its_folder():
    with pytest.raises(ValueError, match="needs cwd="):
        ex.execute(nbformat.v4.new_notebook())


def test_without_parameters_nothing_is_injected():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")])
    assert ex.with_parameters(nb, {}) is nb


def _script():
    spec = importlib.util.spec_from_file_location("execute_notebooks", ROOT / "scripts" / "execute_notebooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_notebooks_stores_a_normalised_timed_run(tmp_path):
    script = _script()
    path = _notebook(tmp_path / "00_t.ipynb", "print(N)")
    nb = nbformat.read(path, as_version=4)
    nb.metadata["stray"] = 1
    nbformat.write(nb, path)
    done = script.store(path, title_time=True)
    assert done.ok
    stored = nbformat.read(path, as_version=4)
    assert set(stored.metadata) == {"kernelspec", "language_info", "course"}
    assert stored.metadata.course["run_seconds"] == round(done.seconds, 1)
    assert [c.execution_count for c in stored.cells if c.cell_type == "code"] == [1, 2]
    figure = fmt.duration(done.seconds).lstrip("~")
    assert stored.cells[0].source == f"# 00 · T\n**Run time:** about {figure} on a 2-core CPU."
    failing = _notebook(tmp_path / "01_t.ipynb", "raise RuntimeError('no')")
    before = failing.read_bytes()
    assert not script.store(failing).ok and failing.read_bytes() == before, "a failed run leaves the file as it was"


def test_a_stored_run_sees_no_learner_file_and_the_learners_file_survives_it(tmp_path):
    script = _script()
    (tmp_path / "my_capstone.py").write_text("mine", encoding="utf-8")
    path = _notebook(tmp_path / "10_t.ipynb",
                     "from pathlib import Path\nmine = Path('my_capstone.py')\nprint(mine.exists())\n"
                     "mine.write_text('copied', encoding='utf-8')")
    assert script.store(path).ok
    stored = nbformat.read(path, as_version=4)
    assert stored.cells[2].outputs[0]["text"] == "False\n", "the run started without the learner's file"
    assert (tmp_path / "my_capstone.py").read_text(encoding="utf-8") == "mine", "and the learner's file is back"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["10_t.ipynb", "my_capstone.py"]


def test_the_title_cell_gets_the_measured_run_time():
    script = _script()
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(
        "# T\n**Run time**: about 20 s on a 2-core CPU, about 3 min full.\nNext")])
    assert script.set_title_run_time(nb, 130.0)
    assert nb.cells[0].source == "# T\n**Run time**: about 2 min on a 2-core CPU, about 3 min full.\nNext"
    nb.metadata["language"] = "zh"
    nb.cells[0].source = "# T\n**运行时间：** 约 20 秒（2 核 CPU）"
    assert script.set_title_run_time(nb, 47.0)
    assert nb.cells[0].source == "# T\n**运行时间：** 约 45 秒（2 核 CPU）"
    nb.cells[0].source = "# T"
    assert not script.set_title_run_time(nb, 5.0)


def test_the_title_cell_can_take_the_stored_run_without_executing(tmp_path):
    script = _script()
    path = _notebook(tmp_path / "00_t.ipynb", "print(N)")
    with pytest.raises(SystemExit, match="no recorded run"):
        script.stored_title_time(path)
    nb = nbformat.read(path, as_version=4)
    nb.metadata["course"] = {"run_seconds": 130.0, "load_average": [0.5, 0.5], "cpus": 2}
    nbformat.write(nb, path)
    assert script.stored_title_time(path) == 130.0
    stored = nbformat.read(path, as_version=4)
    assert stored.cells[0].source == "# 00 · T\n**Run time:** about 2 min on a 2-core CPU."
    assert [c.execution_count for c in stored.cells if c.cell_type == "code"] == [None, None], "nothing ran"
    with pytest.raises(SystemExit):
        script.main(["--stored", str(path)])
