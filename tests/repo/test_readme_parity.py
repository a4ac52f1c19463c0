"""README.zh.md is README.md in Chinese: the same sections in the same order, the same commands in its command
table, the same Ascend recipe, every Troubleshooting entry; and the Chinese docs/zh/ are the docs/ they translate.

A section added to README.md (or a command, a troubleshooting entry, a line of the Ascend recipe) fails here until
README.zh.md has it too. The lesson tables are checked against the manifest by tests/repo/test_layout.py."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Each "## " section of README.md and its Chinese heading, in order.
SECTIONS = {
    "What the course teaches": "课程内容",
    "Other commands": "其他命令",
    "The website (`make site`)": "课程网站（`make site`）",
    "Supported versions": "支持的版本",
    "Before a workshop: `make doctor`": "课前检查：`make doctor`",
    "Running on Ascend (ModelArts and other notebook images)": "在昇腾上运行（ModelArts 等 Notebook 镜像）",
    "The course in a real browser (`make test-browser`)": "在真实浏览器中运行课程（`make test-browser`）",
    "Troubleshooting": "常见问题",
    "Layout": "目录结构",
}
#: Sections only the Chinese README has, after the shared ones.
CHINESE_ONLY = ["中文版如何与英文版保持同步", "术语表"]
#: docs/ pages and their Chinese twins.
DOCS = ["instructor.md", "offline-bundle.md", "classroom-server.md", "performance-reference.md"]


def _sections(text: str) -> dict:
    """"## " heading -> the section's text (code blocks included), in order."""
    parts = re.split(r"^## (.+)$", text, flags=re.MULTILINE)
    return {parts[i].strip(): parts[i + 1] for i in range(1, len(parts), 2)}


@pytest.fixture(scope="module")
def readmes():
    return (_sections((ROOT / "README.md").read_text(encoding="utf-8")),
            _sections((ROOT / "README.zh.md").read_text(encoding="utf-8")))


def test_the_chinese_readme_has_every_section_in_the_same_order(readmes):
    english, chinese = readmes
    assert list(english) == list(SECTIONS), ("README.md's sections changed: add the new one (and its Chinese "
                                             "heading) to SECTIONS and to README.zh.md")
    assert list(chinese) == list(SECTIONS.values()) + CHINESE_ONLY


def _commands(section: str) -> list:
    """The first-column commands of a section's table: `make x`, `make y`, ..."""
    found = []
    for line in section.splitlines():
        if line.startswith("| `"):
            found += re.findall(r"`([^`]+)`", line.split("|")[1])
    return found


def test_the_command_tables_list_the_same_commands(readmes):
    english, chinese = readmes
    en = _commands(english["Other commands"])
    assert en and _commands(chinese["其他命令"]) == en


def _code_lines(section: str) -> list:
    """The commands of a section's code blocks, comments left out (they are translated)."""
    lines = []
    for block in re.findall(r"```(?:bash)?\n(.*?)```", section, flags=re.DOTALL):
        for line in block.splitlines():
            code = re.sub(r"\s+#.*$", "", line).strip()
            if code and not code.startswith("#"):
                lines.append(code.replace("<this repository>", "<本仓库>"))
    return lines


def test_the_ascend_recipe_is_the_same_commands(readmes):
    english, chinese = readmes
    en = _code_lines(english["Running on Ascend (ModelArts and other notebook images)"])
    zh = _code_lines(chinese["在昇腾上运行（ModelArts 等 Notebook 镜像）"])
    assert len(en) > 5 and zh == en
    # what to expect on Ascend, and the MindSpore and CANN versions of its prose: as many entries, the same numbers
    prose = lambda text: re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # noqa: E731
    en_text = prose(english["Running on Ascend (ModelArts and other notebook images)"])
    zh_text = prose(chinese["在昇腾上运行（ModelArts 等 Notebook 镜像）"])
    assert zh_text.count("\n- ") == en_text.count("\n- ")
    versions = lambda text: sorted(set(re.findall(r"\b\d+\.\d+(?:\.\d+)?\b", text)))  # noqa: E731
    assert versions(zh_text) == versions(en_text)


def test_troubleshooting_has_every_entry(readmes):
    english, chinese = readmes
    en = english["Troubleshooting"].count("\n- **")
    zh = chinese["常见问题"].count("\n- **")
    assert en > 5 and zh >= en, f"README.md has {en} troubleshooting entries, README.zh.md {zh}"


def test_the_chinese_readme_says_what_the_english_one_says_about_versions_and_tools(readmes):
    english, chinese = readmes
    zh = "\n".join(chinese.values())
    for fact in ("make doctor", "make test-compat MINDSPORE=2.7.1", "make bench", "make notebooks", "make test-browser",
                 "2.8 和 2.9", "未经测试", "screenshots/", "COURSE_CHROMIUM", "COURSE_BROWSER_TIMEOUT"):
        assert fact in zh, f"README.zh.md does not mention {fact!r}"
    for setting in re.findall(r"`(COURSE_[A-Z_]+)", "\n".join(english.values())):
        assert setting in zh, f"README.md names {setting}; README.zh.md does not"


@pytest.mark.parametrize("name", DOCS)
def test_every_doc_has_a_chinese_twin_with_the_same_sections_and_commands(name):
    english = (ROOT / "docs" / name).read_text(encoding="utf-8")
    chinese = (ROOT / "docs" / "zh" / name).read_text(encoding="utf-8")
    prose = lambda text: re.sub(r"```.*?```", "", text, flags=re.DOTALL)  # noqa: E731
    heads = lambda text: [len(m) for m in re.findall(r"^(#+) ", prose(text), flags=re.MULTILINE)]  # noqa: E731
    assert heads(chinese) == heads(english), f"docs/zh/{name}: its headings are not docs/{name}'s"
    # the same commands in its code blocks (comments are translated; the Chinese edition opens with make lab-zh)
    commands = lambda text: [line.replace("make lab-zh", "make lab") for line in _code_lines(text)]  # noqa: E731
    assert commands(chinese) == commands(english), f"docs/zh/{name}: its commands are not docs/{name}'s"
    assert re.search(r"[\u4e00-\u9fff]", chinese)
