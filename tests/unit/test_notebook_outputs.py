"""tests/support/notebook_outputs.py: nbval's lax comparison on an already executed notebook."""

import copy

import nbformat

from course_utils import lessons
from support.notebook_outputs import CHECK_TAG, OPTIONAL_TAG, checked_output_problems, sanitizers


def _notebook(outputs, tagged=True):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("print('x')")
    cell.outputs = [nbformat.from_dict(o) for o in outputs]
    if tagged:
        cell.metadata["tags"] = [CHECK_TAG]
    nb.cells = [nbformat.v4.new_markdown_cell("# t"), cell]
    return nb


def _stream(text):
    return {"output_type": "stream", "name": "stdout", "text": text}


def test_identical_and_sanitized_differences_pass():
    stored = _notebook([_stream("took 1.5 s at 0x7f00\n"), _stream("done\n")])
    again = _notebook([_stream("took 0.25 s at 0xabc\ndone\n")])      # one stream instead of two, other timings
    assert checked_output_problems(stored, again) == []


def test_a_changed_value_in_a_tagged_cell_is_reported():
    stored = _notebook([{"output_type": "execute_result", "execution_count": 1, "metadata": {},
                         "data": {"text/plain": "accuracy 0.98", "image/png": "AAAA"}}])
    now = copy.deepcopy(stored)
    now.cells[1].outputs[0]["data"] = {"text/plain": "accuracy 0.12", "image/png": "BBBB"}
    (problem,) = checked_output_problems(stored, now)
    assert "cell 1" in problem and "accuracy 0.98" in problem and "accuracy 0.12" in problem
    now.cells[1].outputs[0]["data"]["text/plain"] = "accuracy 0.98"   # images are not compared (as nbval)
    assert checked_output_problems(stored, now) == []


def test_untagged_cells_and_cell_count():
    assert checked_output_problems(_notebook([_stream("a")], tagged=False), _notebook([_stream("b")])) == []
    short = _notebook([])
    short.cells.pop()
    assert "cells" in checked_output_problems(_notebook([]), short)[0]


def test_every_stored_lesson_agrees_with_itself():
    patterns = sanitizers()
    # tests/support/nbval_sanitize.cfg
    assert [replacement for _, replacement in patterns] == ["<TIME>", "<ADDR>", "<TMP>"]
    for path in lessons.paths():
        nb = nbformat.read(path, as_version=4)
        assert checked_output_problems(nb, copy.deepcopy(nb), patterns) == [], path.name


def test_a_plot_missing_on_the_page_is_a_problem_unless_the_cell_needs_an_optional_package():
    from browser.labpage import KERNEL_DISPLAY_NAME, page_problems

    nb = _notebook([{"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBORw0KGgo="}}],
                   tagged=False)
    state = {"dialogs": [], "statusbar": KERNEL_DISPLAY_NAME,
             "cells": [{"index": i, "prompt": "[1]:", "outputs": [], "top_images": 0, "broken_images": 0,
                        "widgets": False, "widget_errors": []} for i in range(2)]}
    assert page_problems(state, nb) == ["cell 1: 0 plot(s) on the page, the stored notebook has 1"]
    nb.cells[1].metadata["tags"] = [OPTIONAL_TAG]   # e.g. lesson 07's PyTorch recipe, stored with torch
    assert page_problems(state, nb) == []
