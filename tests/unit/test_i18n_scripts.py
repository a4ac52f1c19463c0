"""The Chinese edition's scripts (course_utils/i18n/scripts.py): notebooks/zh/scripts/ is built from
notebooks/scripts/ and i18n/zh/scripts.md, the same code with Chinese comments and strings, and in step."""

import re
import shutil

import pytest

from course_utils.exercises.nb10 import blanks_left
from course_utils.i18n import notebooks as nbs
from course_utils.i18n import scripts

ROOT = nbs.ROOT
ENGLISH = """\"\"\"Say hello.\"\"\"
import sys

from course_utils.i18n import tr

# Greet the user
# politely.
NAME = sys.argv[1] if len(sys.argv) > 1 else "world"  # who is greeted
print(f"hello {NAME}, how are you")
print(tr("this is translated at run time"))
"""
CATALOGUE = scripts._FILE_HEADER + "\n".join([
    scripts.format_entry('"""Say hello."""', '"""问好。"""'),
    scripts.format_entry("# Greet the user\n# politely.", "# 礼貌地问候用户。"),
    scripts.format_entry("# who is greeted", "# 问候的对象"),
    scripts.format_entry('f"hello {NAME}, how are you"', 'f"{NAME}，你好"'),
])


def kinds(problems):
    return sorted(p.kind for p in problems)


def _point_at(monkeypatch, root):
    """Make course_utils.i18n.scripts build and check the course under ``root``."""
    monkeypatch.setattr(scripts, "ROOT", root)
    monkeypatch.setattr(scripts, "NOTEBOOKS", root / "notebooks")
    monkeypatch.setattr(scripts, "SOURCE", root / "notebooks" / "scripts")
    monkeypatch.setattr(scripts, "CATALOGUE", root / "i18n" / "{lang}" / "scripts.md")


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A scratch course: one English script, its catalogue, the zh folder still the old link to the English."""
    (tmp_path / "notebooks" / "scripts").mkdir(parents=True)
    (tmp_path / "notebooks" / "scripts" / "hello.py").write_text(ENGLISH, encoding="utf-8")
    (tmp_path / "notebooks" / "zh").mkdir()
    (tmp_path / "notebooks" / "zh" / "scripts").symlink_to("../scripts")
    (tmp_path / "i18n" / "zh").mkdir(parents=True)
    (tmp_path / "i18n" / "zh" / "scripts.md").write_text(CATALOGUE, encoding="utf-8")
    _point_at(monkeypatch, tmp_path)
    monkeypatch.setattr(scripts, "ENGLISH_FOR_NOW", frozenset())
    return tmp_path


def built(course):
    return (course / "notebooks" / "zh" / "scripts" / "hello.py").read_text(encoding="utf-8")


def test_the_build_replaces_the_link_and_is_idempotent(course):
    assert kinds(scripts.check()) == ["unbuilt"]
    assert len(scripts.build()) == 1
    folder = course / "notebooks" / "zh" / "scripts"
    assert folder.is_dir() and not folder.is_symlink()
    assert (course / "notebooks" / "scripts" / "hello.py").read_text(encoding="utf-8") == ENGLISH, "English untouched"
    text = built(course)
    assert '"""问好。"""' in text and "# 礼貌地问候用户。\nNAME" in text and "# 问候的对象" in text
    assert 'f"{NAME}，你好"' in text and 'tr("this is translated at run time")' in text
    assert scripts.build() == [] and built(course) == text
    assert scripts.check() == []


def test_a_change_to_the_english_code_reaches_the_chinese_script_without_a_translator(course):
    scripts.build()
    english = course / "notebooks" / "scripts" / "hello.py"
    english.write_text(ENGLISH.replace('else "world"', 'else "MindSpore"'), encoding="utf-8")
    assert kinds(scripts.check()) == ["unbuilt"]
    scripts.build()
    assert 'else "MindSpore"  # 问候的对象' in built(course) and scripts.check() == []


def test_a_changed_comment_is_missing_and_its_old_entry_orphaned(course):
    english = course / "notebooks" / "scripts" / "hello.py"
    english.write_text(ENGLISH.replace("# who is greeted", "# the one who is greeted"), encoding="utf-8")
    scripts.build()
    assert kinds(scripts.check()) == ["missing", "orphaned"]
    assert "# the one who is greeted" in built(course), "built with the English meanwhile"


def test_a_translation_may_not_change_the_code(course):
    catalogue = course / "i18n" / "zh" / "scripts.md"
    catalogue.write_text(CATALOGUE.replace('f"{NAME}，你好"', 'f"{NAME}，你好" + "!"'), encoding="utf-8")
    assert "code" in kinds(scripts.check(built=False))


def test_units_are_comment_blocks_comments_and_literals_not_tr_texts():
    found = [(u.kind, u.text) for u in scripts.units(ENGLISH)]
    assert ("comment", "# Greet the user\n# politely.") in found and ("inline", "# who is greeted") in found
    assert ("string", '"world"') in found and not any("run time" in text for _, text in found)
    joined = scripts.units('x = ("one two "\n     "three four")\n')
    assert [u.text for u in joined] == ['"one two "\n"three four"']


def test_the_chinese_scripts_are_built_and_in_step():
    folder = ROOT / "notebooks" / "zh" / "scripts"
    assert folder.is_dir() and not folder.is_symlink()
    problems = scripts.check()
    assert not problems, "python -m course_utils.i18n build, then check:\n" + "\n".join(map(str, problems))


@pytest.mark.parametrize("name", [p.name for p in scripts.scripts()])
def test_a_chinese_script_is_the_english_code_with_chinese_comments_and_strings(name):
    english = (ROOT / "notebooks" / "scripts" / name).read_text(encoding="utf-8")
    chinese = (ROOT / "notebooks" / "zh" / "scripts" / name).read_text(encoding="utf-8")
    assert nbs.code_difference(english, chinese) is None
    if name not in scripts.ENGLISH_FOR_NOW:
        left = [u.text for u in scripts.translate(english, scripts.load_catalogue())[1]]
        assert not left and nbs._CJK.search(chinese)


def test_what_the_lessons_and_checks_rely_on_survives_the_translation():
    zh = ROOT / "notebooks" / "zh" / "scripts"
    # lesson 09 shows train_dp.py from its (Chinese) comment on
    catalogue = (ROOT / "i18n/zh/09_data_parallel.md").read_text("utf-8")
    assert 'show_lines("# 连接 Scheduler 和其他 Worker 进程"' in catalogue
    assert "\n    # 连接 Scheduler 和其他 Worker 进程" in (zh / "train_dp.py").read_text(encoding="utf-8")
    # lesson 10 lists the skeleton's "# TODO(" lines, nb10 finds each blank's TODO number
    english = (ROOT / "notebooks" / "scripts" / "capstone_skeleton.py").read_text(encoding="utf-8")
    chinese = (zh / "capstone_skeleton.py").read_text(encoding="utf-8")
    assert blanks_left(chinese) == blanks_left(english) == [str(n) for n in range(1, 11)]
    # nb10 counts the printed lines that mention the epoch
    reference = (zh / "capstone_reference.py").read_text(encoding="utf-8")
    assert 'print(f"第 {epoch + 1}/{args.epochs} 轮  损失' in reference
    from course_utils.exercises.nb10 import EPOCH_LINE
    assert re.search(EPOCH_LINE, "第 1/3 轮  损失 0.8548") and re.search(EPOCH_LINE, "epoch 1/3  loss 0.8548", re.I)


def test_a_copied_tree_builds_the_same_scripts(tmp_path, monkeypatch):
    """The stored zh scripts are what a build from the English scripts and the catalogue writes."""
    shutil.copytree(ROOT / "notebooks" / "scripts", tmp_path / "notebooks" / "scripts")
    shutil.copytree(ROOT / "i18n" / "zh", tmp_path / "i18n" / "zh")
    _point_at(monkeypatch, tmp_path)
    scripts.build()
    for path in (ROOT / "notebooks" / "zh" / "scripts").glob("*.py"):
        assert (tmp_path / "notebooks" / "zh" / "scripts" / path.name).read_text("utf-8") == path.read_text("utf-8")
