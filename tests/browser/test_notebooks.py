"""Every lesson in JupyterLab as a learner runs it: open, Run All, read the page, move every widget.

Parametrised over ``notebooks/NN_*.ipynb``, so a new lesson is tested without touching this file. A
full-page screenshot of each finished notebook is written to ``screenshots/<notebook>.png``. The manifest's
``zh_in_browser`` lessons of the Chinese edition run the same way, as their instructor edition (exercises solved),
in a JupyterLab whose UI is in Chinese (``screenshots/zh-<notebook>.png``).

This is the one execution of each English lesson in ``make test``: the notebook is saved after Run All and the
cells tagged ``nbval-check-output`` are compared with the stored outputs as nbval would
(``tests/support/notebook_outputs.py``), so nbval need not run the notebooks a second time. The lessons of
``settings.QUICK_PARAMETERS`` (04) run with quick parameters; their full-length run is the Chinese edition's
in ``tests/lessons/test_solutions.py`` (the same cells).
"""

import nbformat
import pytest

from course_utils import solutions
from support.notebook_outputs import checked_output_problems, solved_reference

from .labpage import run_notebook, script_rendering
from .settings import NOTEBOOK_FILES, RUN_TIMEOUT, SCREENSHOTS, ZH_NOTEBOOK_FILES

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("notebook", NOTEBOOK_FILES, ids=[p.stem for p in NOTEBOOK_FILES])
def test_notebook_runs_clean_in_jupyterlab(notebook, course_copy, lab, lab_page):
    # The copy is what JupyterLab serves (the repository's file may have changed since it was made).
    stored = nbformat.read(course_copy / notebook.name, as_version=4)
    result = run_notebook(lab_page, lab.workspace_url(notebook.name, workspace=notebook.stem), stored,
                          name=notebook.name, screenshot=SCREENSHOTS / f"{notebook.stem}.png",
                          timeout=RUN_TIMEOUT, save_to=course_copy / notebook.name)
    if result.executed is not None:
        result.problems += checked_output_problems(stored, result.executed)
    print(f"{notebook.name}: Run All took {result.seconds:.1f} s; screenshot {result.screenshot}")
    for action in result.widgets_checked:
        print(f"  widget: {action}")
    result.fail_if_problems()


@pytest.mark.parametrize("notebook", ZH_NOTEBOOK_FILES, ids=[p.stem for p in ZH_NOTEBOOK_FILES])
def test_chinese_notebook_runs_clean_in_chinese_jupyterlab(notebook, course_copy, lab_zh, lab_zh_page):
    """The Chinese lesson, served as its instructor edition (exercises solved), in a JupyterLab whose interface is
    Chinese: its one execution in CI, so it checks both what nbval would (against the stored zh notebook) and that
    every shown solution passes its check (as tests/lessons/test_solutions.py does for the other zh lessons)."""
    relpath = f"zh/{notebook.name}"
    served = nbformat.read(course_copy / relpath, as_version=4)
    reference = solved_reference(nbformat.read(notebook, as_version=4), served)
    result = run_notebook(lab_zh_page, lab_zh.workspace_url(relpath, workspace=f"zh-{notebook.stem}"), reference,
                          name=relpath, screenshot=SCREENSHOTS / f"zh-{notebook.stem}.png",
                          timeout=RUN_TIMEOUT, save_to=course_copy / relpath)
    if result.executed is not None:
        result.problems += checked_output_problems(reference, result.executed)
        outcomes = solutions.outcomes(result.executed, "zh")
        wrong = {k: v for k, v in outcomes.items() if v != "correct"}
        if wrong or not outcomes:
            result.problems.append(f"the solved exercises did not all report correct: {outcomes}")
    page = script_rendering(lab_zh_page)
    # JupyterLab itself speaks Chinese (the language pack), and the notebook's text and outputs are Chinese...
    assert {"文件", "编辑", "运行"} <= set(page["menus"]), f"the menu bar is not in Chinese: {page['menus']}"
    assert page["markdown_han"] > 200, "the rendered Markdown has (almost) no Chinese in it"
    assert page["output_han"] > 0, "no output of the notebook is in Chinese (runtime.setup(lang='zh'))"
    # ...drawn with real glyphs: two different characters render differently (tofu boxes render the same).
    assert page["glyphs_differ"], "Chromium draws Chinese as boxes: install a CJK font (fonts-wqy-microhei)"
    print(f"{relpath}: Run All took {result.seconds:.1f} s; screenshot {result.screenshot}")
    for action in result.widgets_checked:
        print(f"  widget: {action}")
    result.fail_if_problems()
