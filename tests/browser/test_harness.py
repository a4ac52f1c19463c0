"""The browser harness tested on small notebooks written for it: it must pass a good notebook and catch
each kind of problem a learner would see (an error, log noise, a warning, a missing plot, a widget whose
callback fails loudly or silently, a missing kernel). A checker that never fails proves nothing.

The notebooks are written into the temporary course copy (``_browser_selftest/``), never into the
repository, and use no MindSpore, so these tests take seconds.
"""

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from .labpage import KERNEL_DISPLAY_NAME, run_notebook

pytestmark = pytest.mark.browser

SELFTEST_DIR = "_browser_selftest"
KERNELSPEC = {"display_name": KERNEL_DISPLAY_NAME, "language": "python", "name": "python3"}
# A 1x1 PNG: stands for "the stored notebook shows a plot here".
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
IMAGE_OUTPUT = new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"})
WIDGET_OUTPUT = new_output("display_data", data={
    "application/vnd.jupyter.widget-view+json": {"model_id": "stored", "version_major": 2, "version_minor": 0},
    "text/plain": "interactive(...)"})

PROBE = """\
import json, os, sys
from course_utils.data import default_data_dir
print(json.dumps({"executable": sys.executable, "prefix": sys.prefix, "cwd": os.getcwd(),
                  "data_dir": str(default_data_dir()), "data_found": default_data_dir().is_dir()}))"""
PLOT = """\
import matplotlib.pyplot as plt
import numpy as np
x = np.linspace(-3, 3, 61)
plt.plot(x, np.where(np.abs(x) <= 1, 0.5 * x**2, np.abs(x) - 0.5))
plt.show()"""
SLIDER = """\
import ipywidgets as widgets

@widgets.interact(delta=widgets.FloatSlider(value=1.0, min=0.1, max=3.0, step=0.1, description="delta"))
def show(delta):
    print(f"delta = {delta:.1f}, loss at 2.0 = {delta * (2.0 - 0.5 * delta):.3f}")
    plt.plot(x, np.where(np.abs(x) <= delta, 0.5 * x**2, delta * (np.abs(x) - 0.5 * delta)))
    plt.show()"""


def _notebook(*cells, kernelspec=KERNELSPEC):
    nb = new_notebook(cells=[new_markdown_cell("# Browser harness self-test"), *cells])
    nb.metadata["kernelspec"] = kernelspec
    return nb


def _code(source, *outputs):
    cell = new_code_cell(source)
    cell.outputs = list(outputs)
    return cell


@pytest.fixture
def selftest(course_copy, lab, lab_page, tmp_path):
    """Write a notebook into the course copy and run it through the harness; returns the NotebookRun."""
    folder = course_copy / SELFTEST_DIR
    folder.mkdir(exist_ok=True)

    def run(name, nb):
        nbformat.write(nb, folder / f"{name}.ipynb")
        return run_notebook(lab_page, lab.workspace_url(f"{SELFTEST_DIR}/{name}.ipynb", workspace=name), nb,
                            name=name, screenshot=tmp_path / f"{name}.png", timeout=300, widget_timeout=20)
    return run


def test_good_notebook_passes_and_runs_the_course_kernel(selftest):
    nb = _notebook(_code(PROBE), _code(PLOT, IMAGE_OUTPUT), _code(SLIDER, WIDGET_OUTPUT))
    result = selftest("good", nb)
    assert result.problems == [], result.problems
    assert result.screenshot.stat().st_size > 10_000, "the screenshot looks empty"
    assert KERNEL_DISPLAY_NAME in result.page["statusbar"]
    assert len(result.widgets_checked) == 1 and "dragged" in result.widgets_checked[0], result.widgets_checked

    # The learner's kernel is this environment's Python, and the data is found from a copy elsewhere.
    from course_utils.data import default_data_dir

    probe = json.loads(result.page["cells"][1]["outputs"][0]["text"])
    assert Path(probe["prefix"]).resolve() == Path(sys.prefix).resolve(), (
        f"the notebook kernel runs {probe['executable']}, not this environment ({sys.prefix})")
    assert not Path(probe["cwd"]).resolve().is_relative_to(Path(__file__).resolve().parents[2])
    assert probe["data_dir"] == str(default_data_dir()), probe
    assert probe["data_found"] == default_data_dir().is_dir(), probe


def test_errors_stop_the_run_and_are_reported(selftest):
    nb = _notebook(_code("print('first cell ran')"), _code("raise ValueError('simulated failure')"),
                   _code("print('never reached')"))
    problems = selftest("error", nb).problems
    assert any(p.startswith("cell 2: error/stderr output") and "ValueError" in p for p in problems), problems
    assert any(p.startswith("cell 3 did not run") for p in problems), problems


def _collapsed(cell):
    cell.metadata["jupyter"] = {"source_hidden": True}   # as the lessons' run-summary cells are stored
    return cell


def test_a_collapsed_cell_counts_as_run_only_when_it_ran(selftest):
    # JupyterLab leaves a collapsed input's prompt empty: the harness opens it to read whether it ran.
    ran = selftest("collapsed_ran", _notebook(_code("x = 1"), _collapsed(_code("print('summary', x)"))))
    assert ran.problems == [], ran.problems
    # The failing cell sleeps first, so the next cell's request is queued in the kernel when the error aborts the
    # queue: an instant failure let CI's kernel finish before that request arrived, and then it ran.
    stopped = selftest("collapsed_stopped", _notebook(
        _code("import time\ntime.sleep(2)\nraise ValueError('simulated failure')"),
        _collapsed(_code("print('never reached')"))))
    assert any(p.startswith("cell 2 did not run") for p in stopped.problems), stopped.problems


def test_a_dying_kernel_is_reported(selftest):
    nb = _notebook(_code("print('first cell ran')"),
                   _code("import os\nos._exit(1)  # as a segfault in a library would"),
                   _code("print('never reached')"))
    problems = selftest("kernel_death", nb).problems
    assert any(p.startswith("a dialog is open") and "died" in p for p in problems), problems
    assert any(p.startswith("cell 3 did not run") for p in problems), problems


def test_noise_warnings_and_missing_plots_are_reported(selftest):
    nb = _notebook(
        _code("import sys\nprint('[WARNING] ME(4242,7f00,python):2026-01-01-00:00:00.000.000 "
              "[mindspore/x.py:1] simulated', file=sys.stderr)"),
        _code("print('[ERROR] CORE(4242,7f00,python): simulated log line on stdout')"),
        _code("import warnings\nwarnings.warn('simulated warning', UserWarning)"),
        _code("no_plot_here = 1", IMAGE_OUTPUT),
    )
    problems = selftest("noise", nb).problems
    assert len(problems) == 4, problems
    assert problems[0].startswith("cell 1: error/stderr output") and "ME(4242" in problems[0]
    assert problems[1].startswith("cell 2: log or warning noise") and "CORE(4242" in problems[1]
    assert problems[2].startswith("cell 3: error/stderr output") and "UserWarning" in problems[2]
    assert problems[3] == "cell 4: 0 plot(s) on the page, the stored notebook has 1"


def test_broken_widgets_fail(selftest):
    loud = """\
import ipywidgets as widgets

@widgets.interact(delta=(0.1, 3.0, 0.1))
def show(delta=1.0):
    if delta != 1.0:
        raise RuntimeError("simulated bug in the callback")
    print("delta =", delta)"""
    silent = """\
delta = widgets.FloatSlider(value=1.0, min=0.1, max=3.0, step=0.1, description="delta")
readout = widgets.HTML("loss at 2.0: 1.500")

def redraw(change):
    raise RuntimeError("simulated bug in an observer")
    readout.value = f"loss at 2.0: {change.new * (2.0 - 0.5 * change.new):.3f}"

delta.observe(redraw, names="value")
widgets.VBox([delta, readout])"""
    problems = selftest("broken_widgets", _notebook(_code(loud, WIDGET_OUTPUT), _code(silent, WIDGET_OUTPUT))).problems
    assert any(p.startswith("cell 1: after slider") and "simulated bug in the callback" in p
               for p in problems), problems
    assert any(p.startswith("cell 2: slider") and "the output did not change" in p for p in problems), problems


def test_missing_kernel_dialog_is_reported(selftest):
    nb = _notebook(_code("print('hello')"),
                   kernelspec={"display_name": "Gone", "language": "python", "name": "no-such-kernel"})
    problems = selftest("missing_kernel", nb).problems
    assert len(problems) == 1 and problems[0].startswith("a dialog opened with the notebook"), problems
