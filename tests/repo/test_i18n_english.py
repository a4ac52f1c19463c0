"""The English-words check of the Chinese edition (course_utils.i18n.english): what it flags and what it leaves alone,
and every stored zh lesson against the list of known residue (i18n/zh/english-residue.txt).

To enforce a lesson completely, remove its lines from the residue list once its English is gone (the test also
fails on a listed run that is no longer there, so the list can only shrink)."""

import json

import pytest

from course_utils.i18n import english
from course_utils.i18n import notebooks as nbs


@pytest.mark.parametrize("text, found", [
    ("MindSpore 2.10.0 在本课程支持的范围 2.7.1 to 2.10.x 之内。", ["to"]),
    ('File "train_dp.py"，line 128, in main', ["in main"]),
    ("最快的是：GRAPH_MODE，TrainOneStepCell，no fixes，71", ["no fixes"]),
    ("被“by mistake”（错误地）消除了", ["by mistake"]),
    ("请重启内核（Kernel > Restart）", ["Kernel > Restart"]),
    ("rank 0: cell       30.8 steps/s, 987 samples/s on this worker", ["samples/s on this worker"]),
])
def test_runs_of_english_are_found(text, found):
    assert english.runs(english._strip_common(text)) == found


@pytest.mark.parametrize("text", [
    "MindSpore 2.10.0 | 设备 CPU | GRAPH_MODE | 随机种子 42",    # names, capitals, numbers
    "在 PyNative 模式下，worker 0 的 rank 与 batch 不变",         # single content words Chinese text keeps
    "用 ops.select 和 nn.HuberLoss(reduction='mean') 比较",      # dotted names and arguments
    "ValueError: The tensor should have only one element, but got 3",  # a real error message, quoted
    "if，3 个样本；for 循环；返回 None",                            # Python keywords and constants
    "见 https://www.mindspore.cn/docs/zh-CN/r2.10.0/index.html 与 notebooks/scripts/train_dp.py",
    # a line of oneDNN's log, as the tool prints it
    "oneDNN 日志中的一行：\nonednn_verbose,v1,primitive,exec,cpu,convolution,jit_uni_ncsp:conv+ref:any,"
    "forward_training,src:f32::blocked:abcd::f0,,alg:convolution_direct,mb64_ic1oc6_ih28oh24kh5,43.4\n",
])
def test_code_names_errors_and_paths_are_not_english(text):
    assert english.runs(english._strip_common(english._strip_output(text))) == []


def test_markdown_code_links_and_source_listings_are_left_out(tmp_path):
    listing = "import os\n\n\ndef main():\n    # the update's result is not used by what it returns\n    return 1\n"
    markdown = "用 `make lab` 和 [the docs](https://x.y/z) 以及\n```python\nprint('hello there world')\n```"
    printed = listing + "--- 在新的进程中运行：\nweights changed: True\n"
    nb = {"cells": [
        {"cell_type": "markdown", "metadata": {}, "source": markdown},
        {"cell_type": "code", "metadata": {}, "execution_count": 1, "source": "",
         "outputs": [{"output_type": "stream", "name": "stdout", "text": printed}]},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "99_demo.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    findings = english.check_notebook(path)
    assert [(f.cell, f.where, f.text) for f in findings] == [(1, "markdown", "the docs"),
                                                                    (2, "output", "weights changed: True")]


def test_a_listing_of_a_chinese_script_is_source_too():
    """The Chinese edition's scripts have Chinese comments and docstrings: still a listing, not printed text
    (lesson 00 prints setup_by_hand.py, then what it printed)."""
    listing = (nbs.ROOT / "notebooks" / "zh" / "scripts" / "setup_by_hand.py").read_text(encoding="utf-8").strip()
    printed = listing + "\n\n--- 在一个全新的进程中运行：\nweights changed: True\n"
    assert english.runs(english._strip_common(english._without_source(printed))) == ["weights changed: True"]


def test_a_listing_printed_after_a_table_in_the_same_stream_is_source_too():
    """Lesson 07 prints a measurement's table, then show()s a script with a Chinese docstring, in one stream: the
    listing is left out whole (once only its first lines were, and its `from x import y` read as English)."""
    listing = (nbs.ROOT / "notebooks" / "zh" / "scripts" / "setup_by_hand.py").read_text(encoding="utf-8").strip()
    table = "情形   层   ms\n-----  ---  ---\n无限制  conv1  0.5\n"
    printed = table + listing + "\n--- 然后：\nweights changed: True\n"
    assert english.runs(english._strip_common(english._without_source(printed))) == ["weights changed: True"]


def test_a_snake_case_key_printed_in_a_chinese_output_is_found_unless_the_code_spells_it(tmp_path):
    """A key printed as a row (``cell_vs_functional_control_range 1.1～1.2``) is English a reader meets: found, unless
    the lesson's own code spells it (a column it selects, ``first_call_s``) or it is a name the allow-list keeps."""
    nb = {"cells": [
        {"cell_type": "code", "source": "print(rows[0][\"first_call_s\"])", "outputs": [{
            "output_type": "stream", "name": "stdout",
            "text": "图表   数值\ncell_vs_functional_control_range  1.1～1.2\nfirst_call_s  0.5\n"
                    "moving_mean 的形状\n"}]},
        {"cell_type": "markdown", "source": "表头 `epoch_s` 是耗时；graph_vs_pynative 是比值。"}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "07_x.ipynb"
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    assert [(f.where, f.text) for f in english.check_notebook(path)] == [
        ("output", "cell_vs_functional_control_range"), ("markdown", "graph_vs_pynative")]
    assert english.stray_names("见 runs/07_lab/modes_x.json 与 MS_DEV_HOST_BLOCKING_RUN", set()) == []
    assert english.stray_names("onednn_verbose,v1,primitive,exec,cpu,pooling,simple_nchw:any,forward_training,"
                               "alg:pooling_max,mb64ic6_ih24oh12kh2,1.29", set()) == []   # oneDNN's own line


def test_residue_is_compared_as_a_multiset():
    f = [english.Finding("a.ipynb", 1, "output", "no fixes"), english.Finding("a.ipynb", 2, "output", "no fixes")]
    new, gone = english.compare(f, ["no fixes", "in main"])
    assert [x.cell for x in new] == [2] and gone == ["in main"]


@pytest.mark.parametrize("lesson", [p.name for p in nbs.lessons()])
def test_no_new_english_in_the_stored_chinese_lessons(lesson):
    """What `python -m course_utils.i18n english` enforces: the Chinese lesson's Markdown and outputs have no English
    beyond the residue listed for it (none at all once its lines are removed)."""
    path = nbs.target_path(nbs.NOTEBOOKS / lesson)
    findings = english.check_notebook(path)
    new, gone = english.compare(findings, english.load_residue().get(path.name, []))
    assert not new, (f"{len(new)} run(s) of English in notebooks/zh/{path.name} (translate them, or add a name or "
                     f"phrase that is not English to ALLOWED in course_utils/i18n/english.py):\n"
                     + "\n".join(map(str, new)))
    assert not gone, (f"listed in i18n/zh/english-residue.txt but gone from notebooks/zh/{path.name}: remove these "
                      f"lines:\n" + "\n".join(gone))


def test_writing_the_residue_of_one_lesson_keeps_the_others(tmp_path, monkeypatch):
    residue = tmp_path / "english-residue.txt"
    residue.write_text("# header\n00_a.ipynb\tkept run\n01_b.ipynb\told run\n", encoding="utf-8")
    monkeypatch.setattr(english, "RESIDUE", residue)
    monkeypatch.setattr(english, "ROOT", tmp_path)
    monkeypatch.setattr(english, "check_notebook", lambda path: [english.Finding(path.name, 1, "markdown", "new run")])
    assert english.main([tmp_path / "01_b.ipynb"], write_residue=True) == 0
    assert english.load_residue(residue) == {"00_a.ipynb": ["kept run"], "01_b.ipynb": ["new run"]}
