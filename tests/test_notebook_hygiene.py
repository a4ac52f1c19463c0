"""Every stored notebook comes from one clean Restart & Run All and follows the lesson template."""

import json
import re

import pytest

from conftest import NOTEBOOKS

NOTEBOOK_FILES = sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
ALLOWED_NB_METADATA = {"kernelspec", "language_info"}
ALLOWED_CELL_METADATA = {"tags", "jupyter", "collapsed"}
NOISE = re.compile(r"\[(WARNING|ERROR|INFO|DEBUG|CRITICAL)\] [A-Z_]+\(|Traceback \(most recent call last\)|"
                   r"\w+Warning: |Get realpath failed")


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def output_text(output):
    if output["output_type"] == "stream":
        text = output["text"]
    else:
        text = output.get("data", {}).get("text/plain", "")
    return "".join(text) if isinstance(text, list) else text


def test_there_are_notebooks():
    assert len(NOTEBOOK_FILES) >= 1


@pytest.fixture(params=NOTEBOOK_FILES, ids=lambda p: p.stem)
def nb(request):
    return request.param, load(request.param)


def test_kernelspec_and_metadata(nb):
    path, data = nb
    assert data["metadata"]["kernelspec"]["name"] == "python3", f"{path.name}: kernelspec must be python3"
    stray = set(data["metadata"]) - ALLOWED_NB_METADATA
    assert not stray, f"{path.name}: stray notebook metadata {stray}: run make notebooks"
    for i, cell in enumerate(data["cells"]):
        stray = set(cell.get("metadata", {})) - ALLOWED_CELL_METADATA
        assert not stray, f"{path.name} cell {i}: stray metadata {stray}: run make notebooks"


def test_execution_counts_are_one_clean_run(nb):
    path, data = nb
    counts = [c.get("execution_count") for c in data["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} are not 1..{len(counts)}: re-run it with make notebooks")


def test_no_errors_or_log_noise_in_outputs(nb):
    path, data = nb
    for i, cell in enumerate(data["cells"]):
        for out in cell.get("outputs", []):
            assert out["output_type"] != "error", f"{path.name} cell {i}: stored error output"
            text = output_text(out)
            match = NOISE.search(text)
            assert not match, f"{path.name} cell {i}: log/warning noise in output: {text[:300]!r}"


def test_follows_the_lesson_template(nb):
    path, data = nb
    cells = data["cells"]
    assert cells[0]["cell_type"] == "markdown" and source(cells[0]).lstrip().startswith("# "), (
        f"{path.name}: cell 0 must be the title cell")
    params = [i for i, c in enumerate(cells) if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(params) == 1, f"{path.name}: needs exactly one cell tagged 'parameters'"
    assert "import mindspore" not in source(cells[params[0]]), f"{path.name}: parameters cell imports MindSpore"
    code = [source(c) for c in cells if c["cell_type"] == "code"]
    setup_at = next((i for i, s in enumerate(code) if "runtime.setup(" in s), None)
    ms_at = next((i for i, s in enumerate(code) if re.search(r"^\s*(import mindspore|from mindspore)", s, re.M)), None)
    assert setup_at is not None, f"{path.name}: never calls runtime.setup()"
    assert ms_at is None or setup_at <= ms_at, f"{path.name}: imports MindSpore before runtime.setup()"
    assert any(c["cell_type"] == "markdown" and re.search(r"^#+ .*Summary", source(c), re.M) for c in cells), (
        f"{path.name}: needs a Summary section")


def test_papermill_reads_every_parameter(nb):
    """papermill must see each name the parameters cell assigns (e.g. a comment with '=' can hide one),
    with its default, so `make run -p NAME=...` reaches it."""
    import papermill as pm

    path, data = nb
    cell = next(c for c in data["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    assigned = re.findall(r"^([A-Za-z_]\w*)\s*(?::[^=]+)?=", source(cell), re.M)
    inferred = pm.inspect_notebook(str(path))
    assert sorted(inferred) == sorted(assigned), f"{path.name}: papermill reads {sorted(inferred)}, cell assigns {sorted(assigned)}"
    for name, info in inferred.items():
        assert info["default"] not in (None, ""), f"{path.name}: papermill found no default for {name}"
