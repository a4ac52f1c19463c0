"""The Chinese edition: catalogue format, build and check (stale / missing / code changed), tr(), the message
catalogue's completeness, and the glossary's terminology."""

from __future__ import annotations

import ast
import json
import re
import string

import pytest

from course_utils import i18n, lessons
from course_utils.i18n import glossary
from course_utils.i18n import notebooks as nbs
from course_utils.i18n.__main__ import main as i18n_main
from course_utils.i18n.zh import MESSAGES
from course_utils.i18n.zh.shown import SHOWN

from support import ROOT


# ------------------------------------------------------------------ a small course in a temporary folder
def _cell(cell_type, source, cell_id):
    cell = {"cell_type": cell_type, "id": cell_id, "metadata": {}, "source": source}
    if cell_type == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _notebook(*cells):
    return {"cells": list(cells), "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                              "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


ENGLISH = _notebook(
    _cell("markdown", "# 01 · A demo\nGoal: add two numbers.", "aaaa0001"),
    _cell("code", "x = 1  # one\nprint(\"the answer is\", x + 1)", "aaaa0002"),
    _cell("code", "y = x * 2", "aaaa0003"),
    _cell("markdown", "## Summary\nAddition works.", "aaaa0004"),
)

CHINESE = {
    "aaaa0001": "# 01 · 示例\n目标：把两个数相加。",
    "aaaa0002": "x = 1  # 一\nprint(\"答案是\", x + 1)",
    "aaaa0004": "## 小结\n加法没有问题。",
}


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course with one lesson and a complete Chinese catalogue for it; returns the English path."""
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "i18n" / "zh").mkdir(parents=True)
    monkeypatch.setattr(nbs, "ROOT", tmp_path)
    monkeypatch.setattr(nbs, "NOTEBOOKS", tmp_path / "notebooks")
    monkeypatch.setattr(nbs, "CATALOGUES", tmp_path / "i18n")
    english = tmp_path / "notebooks" / "01_custom_huber_loss.ipynb"
    nbs.save(ENGLISH, english)
    write_catalogue(english, CHINESE)
    return english


def write_catalogue(english, translations):
    nb = nbs.load(english)
    parts = []
    for cell in nb["cells"]:
        src = nbs.source_of(cell)
        parts.append(nbs.format_entry(cell["id"], cell["cell_type"], nbs.text_hash(src),
                                      translations.get(cell["id"])))
    nbs.catalogue_path(english).write_text("\n".join(parts), encoding="utf-8")


def kinds(problems):
    return sorted(p.kind for p in problems)


def edit_english(english, cell_id, new_source):
    nb = nbs.load(english)
    for cell in nb["cells"]:
        if cell["id"] == cell_id:
            cell["source"] = new_source
    nbs.save(nb, english)


# ------------------------------------------------------------------ build and check
def test_a_complete_catalogue_builds_a_chinese_notebook_in_step(course):
    assert nbs.check(course, built=False) == []
    target = nbs.build(course)
    assert target == course.parent / "zh" / course.name
    built = nbs.load(target)
    assert [c["id"] for c in built["cells"]] == [c["id"] for c in ENGLISH["cells"]]
    assert nbs.source_of(built["cells"][1]) == CHINESE["aaaa0002"]
    assert nbs.source_of(built["cells"][2]) == "y = x * 2"  # "same": the English code
    assert built["metadata"]["language"] == "zh"
    assert nbs.check(course) == []


def test_a_changed_english_cell_makes_its_translation_stale(course):
    nbs.build(course)
    edit_english(course, "aaaa0004", "## Summary\nAddition and subtraction work.")
    problems = nbs.check(course)
    assert kinds(problems) == ["stale"]
    assert "01_custom_huber_loss.md" in problems[0].where and "cell 4" in problems[0].where
    assert i18n_main(["check", "01"]) == 1


def test_a_changed_english_code_cell_marked_same_is_stale_too(course):
    edit_english(course, "aaaa0003", "y = x * 3")
    assert kinds(nbs.check(course, built=False)) == ["stale"]


def test_a_new_english_cell_is_missing_and_a_removed_one_orphaned(course):
    nb = nbs.load(course)
    nb["cells"].insert(1, _cell("markdown", "A new paragraph of English text.", "bbbb0001"))
    del nb["cells"][-1]
    nbs.save(nb, course)
    assert kinds(nbs.check(course, built=False)) == ["missing", "orphaned"]


def test_markdown_left_in_english_is_untranslated(course):
    write_catalogue(course, {**CHINESE, "aaaa0004": "## Summary\nAddition works."})
    assert kinds(nbs.check(course, built=False)) == ["untranslated"]


@pytest.mark.parametrize("translated, ok", [
    ("x = 1  # 一\nprint(\"答案是\", x + 1)", True),
    ("x = 1\nprint('答案是', x + 1)  # 注释可以增删", True),
    ("x = 2  # 一\nprint(\"答案是\", x + 1)", False),         # a number changed
    ("x = 1  # 一\nprint(\"答案是\", x + 1, end='')", False),  # an argument added
])
def test_translated_code_may_differ_only_in_comments_and_strings(course, translated, ok):
    write_catalogue(course, {**CHINESE, "aaaa0002": translated})
    assert kinds(nbs.check(course, built=False)) == ([] if ok else ["code"])


def test_magics_and_shell_lines_are_compared_as_ipython_runs_them():
    assert nbs.code_difference("%timeit f(1)\n!ls scripts  # list", "%timeit f(1)\n!ls scripts  # 列出") is None
    assert nbs.code_difference("%timeit f(1)", "%timeit f(2)") is not None


def test_a_hand_edited_chinese_notebook_is_reported_unbuilt(course):
    target = nbs.build(course)
    nb = nbs.load(target)
    nb["cells"][0]["source"] = "# 手工改过的标题"
    nbs.save(nb, target)
    assert kinds(nbs.check(course)) == ["unbuilt"]


def test_build_keeps_the_outputs_of_unchanged_cells_only(course):
    target = nbs.build(course)
    nb = nbs.load(target)
    for cell in nb["cells"][1:3]:
        cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "stored\n"}]
    nb["metadata"]["course"] = {"run_seconds": 3.0}
    nbs.save(nb, target)
    write_catalogue(course, {**CHINESE, "aaaa0002": "x = 1  # 一个数\nprint(\"答案是\", x + 1)"})
    rebuilt = nbs.load(nbs.build(course))
    assert rebuilt["cells"][1]["outputs"] == []                    # its source changed
    assert rebuilt["cells"][2]["outputs"][0]["text"] == "stored\n"  # unchanged: kept
    assert rebuilt["metadata"]["course"] == {"run_seconds": 3.0}


@pytest.mark.parametrize("text, message", [
    ("<!-- cell a1 code en:000000000000 same -->\nx = 1\n", "marked 'same'"),
    ("<!-- cell a1 markdown en:000000000000 -->\nA\n\n<!-- cell a1 markdown en:000000000000 -->\nB\n", "twice"),
    ("<!-- cell a1 code en:000000000000 -->\nx = 1\n", "fenced block"),
])
def test_a_malformed_catalogue_is_a_clear_error(text, message):
    with pytest.raises(ValueError, match=message):
        nbs.parse_catalogue(text)


def test_the_skeleton_round_trips_to_the_english_notebook(course):
    nbs.catalogue_path(course).write_text(nbs.skeleton(course), encoding="utf-8")
    cells = nbs.translated_cells(course)
    assert [nbs.source_of(c) for c in cells] == [nbs.source_of(c) for c in ENGLISH["cells"]]


def test_every_lesson_has_cell_ids_and_a_chinese_edition_in_step():
    """What `python -m course_utils.i18n check` enforces on the real course (run by make test)."""
    problems = [str(p) for path in nbs.lessons() for p in nbs.check(path)]
    assert not problems, "the Chinese edition is out of step:\n" + "\n".join(problems)


def test_the_chinese_notebooks_are_the_english_lessons():
    zh = sorted(p.name for p in (ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
    assert zh == [p.name for p in nbs.lessons()] == [p.name for p in lessons.paths("zh")]
    for path in lessons.paths("zh"):
        nb = json.loads(path.read_text(encoding="utf-8"))
        assert nb["metadata"].get("language") == "zh", path.name
        setup = [nbs.source_of(c) for c in nb["cells"] if "runtime.setup(device=DEVICE_TARGET" in nbs.source_of(c)]
        assert setup and 'lang="zh"' in setup[0], f"{path.name}: its first setup call must say lang=\"zh\""


# ------------------------------------------------------------------ tr() and the language
def test_tr_falls_back_to_english_and_formats_in_both_languages():
    assert i18n.tr("MNIST: {name} verified (md5 {md5})", name="x", md5="0") == "MNIST: x verified (md5 0)"
    i18n.set_language("zh")
    assert i18n.tr("MNIST: {name} verified (md5 {md5})", name="x", md5="0") == "MNIST：x 校验通过（md5 0）"
    assert i18n.tr("A sentence nobody translated: {x}.", x=3) == "A sentence nobody translated: 3."
    assert i18n.tr("no values, so {braces} stay") == "no values, so {braces} stay"


def test_a_broken_translation_never_hides_the_message(monkeypatch):
    monkeypatch.setitem(MESSAGES, "Got {value}.", "得到 {valeu}。")
    i18n.set_language("zh")
    assert i18n.tr("Got {value}.", value=5) == "Got 5."


def test_the_language_reaches_child_processes_and_rejects_unknown_codes(monkeypatch):
    assert i18n.language() == "en"
    assert i18n.set_language("zh_CN") == "zh"
    import os

    assert os.environ[i18n.ENV_VAR] == "zh"
    monkeypatch.setattr(i18n, "_current", None)
    assert i18n.language() == "zh"  # what a child process sees
    with pytest.raises(ValueError, match="speaks en, zh"):
        i18n.set_language("fr")


# ------------------------------------------------------------------ the message catalogue
def _fields(template: str) -> set:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_translation_keeps_the_placeholders_of_its_english_template():
    broken = [f"{en!r}: {sorted(_fields(en))} vs {sorted(_fields(zh))}" for en, zh in MESSAGES.items()
              if _fields(en) != _fields(zh)]
    assert not broken, "\n".join(broken)


def _tr_literals():
    """(file:line, text) of every tr("literal", ...) and N_("literal") in course_utils (not its message tables) and
    in the scripts the lessons launch (notebooks/scripts/)."""
    found = []
    for path in sorted([*(ROOT / "course_utils").rglob("*.py"), *(ROOT / "notebooks" / "scripts").glob("*.py")]):
        if path.parent == ROOT / "course_utils" / "i18n" / "zh":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("tr", "N_")
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0].value))
    return found


def _exercise_texts():
    """(exercise, text) of every text the framework translates when it is shown."""
    import importlib

    from course_utils.exercises import Exercise

    found = []
    for lesson in lessons.LESSONS:
        if not lesson.exercises:
            continue
        module = importlib.import_module(lesson.exercises)
        for name, ex in vars(module).items():
            if not isinstance(ex, Exercise) or not name.startswith("q"):
                continue
            texts = [ex.hint_text, ex.title, ex.correct_message, ex.not_attempted_message]
            found += [(f"nb{lesson.number}.{name}", t) for t in texts if t]
    return found


def test_every_message_a_learner_sees_has_a_chinese_translation():
    missing = sorted({f"{where}: {text[:70]!r}" for where, text in _tr_literals() + _exercise_texts()
                      if text not in MESSAGES})
    assert not missing, (f"{len(missing)} message(s) without Chinese (add them to course_utils/i18n/zh/):\n"
                         + "\n".join(missing))


def test_the_message_catalogue_has_no_entries_nobody_uses():
    used = {text for _, text in _tr_literals() + _exercise_texts()}
    solutions = set()
    from course_utils.exercises import Exercise  # solutions are keyed by their (dedented) English source
    import importlib
    import textwrap

    from course_utils import lessons

    for lesson in lessons.LESSONS:
        if not lesson.exercises:
            continue
        module = importlib.import_module(lesson.exercises)
        texts = {textwrap.dedent(ex.solution_text).strip() for ex in vars(module).values()
                 if isinstance(ex, Exercise) and ex.solution_text}
        solutions |= texts | {c for text in texts for c in re.findall(r"#[^\n]*", text)}  # whole, or comments
    unused = sorted(k[:70] for k in MESSAGES if k not in used and k not in solutions)
    assert not unused, "entries in course_utils/i18n/zh/ that no tr() call or exercise uses:\n" + "\n".join(unused)


# ------------------------------------------------------------------ terminology
def test_the_glossary_flags_a_term_translated_two_ways():
    terms = glossary.load()
    assert any(t.zh.startswith("静态图模式") for t in terms) and any(t.zh == "检查点" for t in terms)
    found = glossary.inconsistencies({"demo.md": "先讲静态图模式。\n再讲梯度累积和存档点。"}, terms)
    assert len(found) == 2 and all("demo.md:2" in f for f in found)
    assert any("'梯度累积'" in f and "'梯度累加'" in f for f in found)  # MindSpore's docs say 梯度累加


def test_the_glossary_rules_find_the_wrong_forms_and_not_the_legitimate_ones():
    terms = glossary.load()
    forms = {form for t in terms for form in t.avoid}
    assert set(glossary.RULES) <= forms, "a rule for a form the glossary table does not name"
    wrong = ("本 notebook 的参数", "笔记本里", "见第 5 部分", "第 2、3、5 部分", "最大 |差| = 0", "|grad| 为 0",
             "在整批上训练", "找出 bug", "Bugs", "SGD 或 momentum 时", "就地复制", "负载均值", "### 练习 3：",
             "05 · MNIST", "05 · 用 LeNet-5 训练 MNIST")
    right = ("notebooks/zh/", "10_capstone.ipynb", "`notebook`", "笔记本电脑", "调整批大小", "冻结网络的一部分",
             "单元格的第二部分", "BuggyHuberLoss", "debug", "momentum=0.9", "nn.Momentum", "练习 07.1", "最大绝对差",
             "|梯度|", "05 · 用 LeNet-5 识别 MNIST", "\n<!-- en -->\nthe notebook's bug\n<!-- zh -->\n本 Notebook")
    for text in wrong:
        assert glossary.inconsistencies({"t": text}, terms), text
    for text in right:
        assert not glossary.inconsistencies({"t": glossary.chinese_only(text)}, terms), text


def _chinese_texts() -> dict:
    """Every Chinese text the course writes by hand: the catalogues, the Chinese guides (docs/zh/), the website's
    own words (site/content/zh/), README.zh.md (not its glossary table), the messages and the docstrings and
    comments of the code lessons 07 and 08 show."""
    files = [*(ROOT / "i18n" / "zh").glob("*.md"), *(ROOT / "docs" / "zh").glob("*.md"),
             *(p for p in (ROOT / "site" / "content" / "zh").glob("*") if p.is_file())]
    texts = {str(p.relative_to(ROOT)): glossary.chinese_only(p.read_text(encoding="utf-8")) for p in sorted(files)}
    texts["README.zh.md"] = glossary.without_table()
    texts["course_utils/i18n/zh (messages)"] = "\n".join(MESSAGES.values())
    texts["course_utils/i18n/zh/shown.py (the code bench.show prints)"] = "\n".join(SHOWN.values())
    return texts


def test_the_chinese_edition_uses_one_rendering_per_glossary_term():
    found = glossary.inconsistencies(_chinese_texts(), glossary.load())
    assert not found, "\n".join(found)


def test_make_run_runs_the_chinese_edition_with_lang_zh(monkeypatch):
    from course_utils import run

    seen = {}

    def stop(notebooks, *args, **kwargs):
        seen["notebooks"] = notebooks
        raise run.RunError("stop before executing")

    monkeypatch.setattr(run, "plan_parameters", stop)
    assert run.main(["--lang", "zh", "--notebooks", "01"]) == 2
    assert [p.relative_to(ROOT).as_posix() for p in seen["notebooks"]] == ["notebooks/zh/01_custom_huber_loss.ipynb"]


def test_a_solution_shows_its_comments_translated(monkeypatch, capsys):
    from course_utils.exercises import Exercise
    from course_utils.exercises.base import translate_comments

    monkeypatch.setitem(MESSAGES, "# twice the input", "# 输入的两倍")
    code = "def double(x):\n    return 2 * x  # twice the input\n# a comment nobody translated\ns = '# not a comment'"
    ex = type("Double", (Exercise,), {"names": ("double",), "solution_text": code})()
    ex.number = "99.1"
    assert translate_comments(code) == code  # English: unchanged
    i18n.set_language("zh")
    assert translate_comments(code) == code.replace("# twice the input", "# 输入的两倍")
    ex.solution()
    out = capsys.readouterr().out
    assert "练习 99.1——参考答案：" in out and "# 输入的两倍" in out and "'# not a comment'" in out


def test_a_measured_run_time_goes_back_into_the_catalogue(course):
    cat = nbs.catalogue_path(course)
    before = cat.read_text(encoding="utf-8")
    assert nbs.set_entry_text(cat, "aaaa0001", "# 01 · 示例\n目标：把两个数相加。运行时间：约 5 秒")
    after = cat.read_text(encoding="utf-8")
    assert after.count("<!-- cell ") == before.count("<!-- cell ") and "约 5 秒" in after
    assert nbs.set_entry_text(cat, "aaaa0004", "## 小结\n最后一个条目也能改。")
    assert not nbs.set_entry_text(cat, "aaaa0003", "y = 0")  # 'same': carried over, nothing to set
    assert nbs.check(course, built=False) == []
    assert nbs.source_of(nbs.translated_cells(course)[3]) == "## 小结\n最后一个条目也能改。"


def test_a_re_measured_run_time_in_the_english_text_is_not_a_change_to_translate(course):
    edit_english(course, "aaaa0001", "# 01 · A demo\nGoal: add two numbers. Run time: about 20 s.")
    write_catalogue(course, {**CHINESE, "aaaa0001": "# 01 · 示例\n目标：把两个数相加。运行时间：约 20 秒。"})
    edit_english(course, "aaaa0001", "# 01 · A demo\nGoal: add two numbers. Run time: about 2 min.")
    assert nbs.check(course, built=False) == []
    edit_english(course, "aaaa0001", "# 01 · A demo\nGoal: add three numbers. Run time: about 2 min.")
    assert kinds(nbs.check(course, built=False)) == ["stale"]


def test_no_english_text_gets_two_different_translations():
    """The parts of the catalogue are merged into one dict: a text two parts translate differently would get
    whichever part is merged last (e.g. " and " as "和" in one lesson and " 和 " in another)."""
    import importlib

    from course_utils.i18n.zh import _PARTS

    first, clashes = {}, []
    for part in _PARTS:
        for en, zh in importlib.import_module(f"course_utils.i18n.zh.{part}").MESSAGES.items():
            if en in first and first[en][1] != zh:
                clashes.append(f"{en!r}: {first[en][0]} says {first[en][1]!r}, {part} says {zh!r}")
            first.setdefault(en, (part, zh))
    assert not clashes, "put the text in core.py once:\n" + "\n".join(clashes)


def test_speaking_switches_the_language_for_a_while_only():
    with i18n.speaking("zh"):
        assert i18n.tr("Hint") == "提示"
        with i18n.speaking("en"):
            assert i18n.tr("Hint") == "Hint"
        assert i18n.language() == "zh"
    import os

    assert i18n.language() == "en" and i18n.ENV_VAR not in os.environ


def test_code_inside_an_f_string_is_compared_too():
    # the translation of a cell may reword, reorder and pad an f-string's fields, and translate strings inside them
    english = 'print(f"{name}: {min(their):.1f}-{max(their):.1f} of {d[\'free\']}")'
    chinese = 'print(f"{pad(name, 8)}：{d[\'不绑核\']} 中 {min(their):.1f}～{max(their):.1f}")'
    assert nbs.code_difference(english, chinese) is None
    assert nbs.code_difference('print(f"a {x}" f"b {y}")', 'print(f"甲 {y}" f"乙 {x}")') is None   # a split literal
    # but not read a name the English does not: a stale variable hides in a string otherwise (07's check 2, 2026-12)
    problem = nbs.code_difference(english, 'print(f"{name}：{min(rates):.1f}～{max(their):.1f}，{d[\'free\']}")')
    assert problem and "rates" in problem
