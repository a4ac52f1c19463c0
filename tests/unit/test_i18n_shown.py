"""The code lessons 06, 07 and 08 print with ``bench.show(obj)`` (course_utils/i18n/shown.py): in Chinese its
docstrings and comments are Chinese (course_utils/i18n/zh/shown.py) and its code is the code that runs, token for
token; every docstring and comment of a shown object has an entry, so a new English one fails here by name."""

import ast
import importlib
import inspect
import io
import re
import textwrap
import tokenize

import pytest

from course_utils import bench
from course_utils.bench import experiments as lab
from course_utils.i18n import notebooks as nbs
from course_utils.i18n import shown
from course_utils.i18n.zh.shown import SHOWN

LESSONS = ("06_checkpoints_inference.ipynb", "07_performance_lab.ipynb", "08_bottlenecks.ipynb")
_SHOW = re.compile(r"\bshow\((bench|lab|storage_probes)\.(\w+)(?:, folded=True)?\)")
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


def _shown_in_lessons():
    """The objects the English lessons pass to show(), as "bench.Lab", "lab.measure_amp", ..."""
    found = set()
    for name in LESSONS:
        for cell in nbs.load(nbs.NOTEBOOKS / name)["cells"]:
            if cell["cell_type"] == "code":
                found.update(f"{space}.{attr}" for space, attr in _SHOW.findall(nbs.source_of(cell)))
    return sorted(found)


SHOWN_OBJECTS = _shown_in_lessons()


def _resolve(dotted):
    space, attr = dotted.split(".")
    spaces = {"bench": bench, "lab": lab}
    return getattr(spaces[space] if space in spaces else importlib.import_module(f"course_utils.{space}"), attr)


def code_lines(source):
    """``source`` without its docstrings and comments: the code lines, right-stripped, blank lines dropped.
    Written apart from course_utils.i18n.shown (ast for the docstrings, tokenize for the comments)."""
    lines = source.splitlines()
    dropped = set()
    for node in ast.walk(ast.parse(textwrap.dedent(source))):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                dropped.update(range(first.lineno - 1, first.end_lineno))
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            lines[row - 1] = lines[row - 1][:col]
    return [line.rstrip() for i, line in enumerate(lines) if i not in dropped and line.strip()]


def docs_and_comments(source):
    """The text of ``source``'s docstrings and comments, joined."""
    tree = ast.parse(textwrap.dedent(source))
    docs = [ast.get_docstring(n, clean=False) or "" for n in ast.walk(tree)
            if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]
    comments = [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]
    return docs + comments


def test_the_lessons_show_the_objects_this_test_covers():
    """The list is read from the lessons; this pins it, so that a lesson that stops showing code notices."""
    assert "bench.Lab" in SHOWN_OBJECTS and "lab.measure_modes" in SHOWN_OBJECTS
    assert len(SHOWN_OBJECTS) >= 13, SHOWN_OBJECTS


@pytest.mark.parametrize("name", SHOWN_OBJECTS)
def test_every_docstring_and_comment_of_a_shown_object_has_a_chinese_entry(name):
    untranslated = shown.missing(_resolve(name), "zh")
    assert not untranslated, (f"{name}: docstrings/comments with no entry in course_utils/i18n/zh/shown.py (its key "
                              f"is the English text, see course_utils/i18n/shown.py):\n" + "\n".join(untranslated))


@pytest.mark.parametrize("name", SHOWN_OBJECTS)
def test_show_prints_the_same_code_with_chinese_docstrings_and_comments(name, zh, capsys):
    obj = _resolve(name)
    english = inspect.getsource(obj)
    bench.show(obj)
    printed = capsys.readouterr().out
    assert code_lines(printed) == code_lines(english)
    texts = docs_and_comments(printed)
    assert texts and all(_CHINESE.search(t) for t in texts if re.search(r"[A-Za-z]{3,}", t)), \
        [t for t in texts if not _CHINESE.search(t)]


def test_show_prints_the_source_unchanged_in_english(capsys):
    bench.show(lab.measure_modes)
    assert capsys.readouterr().out == inspect.getsource(lab.measure_modes) + "\n"


def test_show_of_a_script_path_prints_the_file_as_it_is(tmp_path, zh, capsys):
    script = tmp_path / "s.py"
    script.write_text("# stays as written\nprint('x')\n", encoding="utf-8")
    bench.show(script)
    assert capsys.readouterr().out == "# stays as written\nprint('x')\n\n"


SOURCE = '''\
class Demo:
    """Say hello.

    Twice, politely.
    """

    def run(self, who):
        """Greet ``who``
        and leave."""
        # build the greeting
        # from its parts
        text = "hello " + who   # not translated: code
        print(text)  # noqa: T201
        # a new comment nobody has translated
        return text
'''
ENTRIES = {
    "Say hello.\n\nTwice, politely.\n": "问好。\n\n问两次，要礼貌。\n",
    "Greet ``who``\nand leave.": "问候 ``who``，然后离开。",
    "build the greeting\nfrom its parts": "由各部分\n拼出\n问候语",
    "not translated: code": "这不是要翻译的代码",
}


def test_translate_replaces_docstrings_and_comments_only():
    text, untranslated = shown.translate(SOURCE, ENTRIES)
    assert text == '''\
class Demo:
    """问好。

    问两次，要礼貌。
    """

    def run(self, who):
        """问候 ``who``，然后离开。"""
        # 由各部分
        # 拼出
        # 问候语
        text = "hello " + who   # 这不是要翻译的代码
        print(text)  # noqa: T201
        # a new comment nobody has translated
        return text
'''
    assert code_lines(text) == code_lines(SOURCE)
    assert [(p.kind, p.line, p.key) for p in untranslated] == [("comment", 14, "a new comment nobody has translated")]


def test_a_changed_english_text_loses_its_entry():
    changed = SOURCE.replace("Say hello.", "Say hello!")
    text, untranslated = shown.translate(changed, ENTRIES)
    assert '"""Say hello!' in text and [p.line for p in untranslated] == [2, 14]


def test_missing_names_the_object_and_the_line(monkeypatch):
    module = importlib.import_module("course_utils.i18n.zh.shown")
    key = ("Every configuration in ``p.specs``, timed in this process in alternation, with a second copy of "
           "``p.copy``\nin the same alternation (one configuration timed twice: the noise floor of this grid).")
    monkeypatch.delitem(module.SHOWN, key)
    first = inspect.getsourcelines(lab.measure_modes)[1]
    assert shown.missing(lab.measure_modes) == [
        f"course_utils.bench.experiments.modes.measure_modes:{first + 1}: {key[:80]!r}"]


def test_a_comment_after_code_must_stay_one_line():
    with pytest.raises(ValueError, match="must be one line"):
        shown.translate(SOURCE, {"not translated: code": "两\n行"})


def test_no_entry_is_left_over():
    """Every entry is a docstring or comment of an object the lessons show (an English text that changed leaves
    its old entry behind: remove it)."""
    used = {p.key for name in SHOWN_OBJECTS for p in shown.pieces(inspect.getsource(_resolve(name)))}
    assert sorted(set(SHOWN) - used) == []
