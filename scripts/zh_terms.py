"""Make the Chinese edition use one rendering per term (issue 27), the one MindSpore's own Chinese documentation uses,
and Chinese punctuation in the exercise checker's labels. Re-runnable: run it again after merging a branch that
added text, then `make zh`. The glossary in README.zh.md forbids every rendering replaced here, so
tests/unit/test_i18n.py catches any that comes back.

    python scripts/zh_terms.py            # rewrite the files; prints what changed
    python scripts/zh_terms.py --check    # only list what would change (exit 1 if anything would)

Files: the catalogues (i18n/zh/*.md), the Chinese messages (course_utils/i18n/zh/*.py), README.zh.md (not its
glossary table, which names the forms not to use), docs/zh/*.md, the website's own words (site/content/zh/*),
and the tests that quote Chinese messages
(tests/lessons/test_i18n_nb*.py).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: (rendering not to use, the one to use). Longest first where one contains another.
TERMS = [
    ("梯度累积", "梯度累加"),          # mindspore.parallel.nn.GradAccumulation: "实现静态图并行梯度累加功能"
    ("你将学到", "学习目标"),
    ("前置条件", "前置知识"),
    ("前置课程", "前置知识"),
    ("总结", "小结"),
    ("离群值", "离群点"),
    ("打乱", "混洗"),                  # mindspore.dataset: "混洗" (shuffle)
    ("微批次", "微批"),
    ("批次", "批"),                    # one batch: "批" (as in 批大小, 微批)
    ("主机流水线", "Host 流水线"),      # MindSpore's docs: "Host侧" / "Device侧"
    ("调度器", "Scheduler"),           # msrun's docs: "Scheduler进程", "Worker进程"
    ("作业", "任务"),                  # msrun's docs: "分布式任务", "训练任务"
    ("教师", "讲师"),                  # docs/zh/instructor.md: "讲师指南"
]
#: Punctuation (regex, replacement): the exercise checker's "练习 00.1（…） — 尚未作答" had an English spaced dash;
#: between Chinese text (or a closing bracket) and Chinese it becomes the Chinese dash, never inside English or code.
PUNCTUATION = [
    (r'"\{label\} — \{kind\}"', '"{label}——{kind}"'),
    (r"(?<=[\u3400-\u9fff）)]) — (?=[\u3400-\u9fff])", "——"),
    (r'(?<=[}"]) — (?=[\u3400-\u9fff])', "——"),          # tests quoting a label: f"{label} — 正确", " — 提示："
    (r"\*\*前置知识：\*\*", "**前置知识**："),
]
_CJK = "\u3400-\u9fff"


def _replace(text: str, bad: str, good: str) -> str:
    if not re.search(r"[A-Za-z]", good):
        return text.replace(bad, good)
    # a Latin word next to a Chinese character gets a space, as the course writes "Host 流水线"
    out = re.sub(rf"(?<=[{_CJK}]){re.escape(bad)}", " " + bad, text)
    out = re.sub(rf"{re.escape(bad)}(?=[{_CJK}])", bad + " ", out)
    return out.replace(bad, good)


def fix(text: str, punctuation: bool = True) -> str:
    for bad, good in TERMS:
        text = _replace(text, bad, good)
    if punctuation:
        for pattern, good in PUNCTUATION:
            text = re.sub(pattern, good, text)
    return text


def _files():
    yield from sorted((ROOT / "i18n" / "zh").glob("*.md"))
    yield from sorted((ROOT / "course_utils" / "i18n" / "zh").glob("*.py"))
    yield from sorted((ROOT / "docs" / "zh").glob("*.md"))
    yield from sorted((ROOT / "site" / "content" / "zh").glob("*"))
    # not tests/unit/test_i18n.py: it quotes the avoided forms
    yield from sorted((ROOT / "tests" / "lessons").glob("test_i18n_nb*.py"))
    yield ROOT / "README.zh.md"


def _fix_readme(text: str) -> str:
    """README.zh.md without touching its glossary table (it names the forms not to use on purpose)."""
    lines, in_glossary = text.split("\n"), False
    for i, line in enumerate(lines):
        if line.startswith("#"):
            in_glossary = "术语表" in line
        if not (in_glossary and line.lstrip().startswith("|")):
            lines[i] = fix(line)
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="list what would change, change nothing")
    args = parser.parse_args(argv)
    changed = []
    for path in _files():
        if not path.exists() or path.name == Path(__file__).name:
            continue
        old = path.read_text(encoding="utf-8")
        new = _fix_readme(old) if path.name == "README.zh.md" else fix(old)
        if new != old:
            changed.append(path)
            n = sum(a != b for a, b in zip(old.splitlines(), new.splitlines()))
            print(f"{path.relative_to(ROOT)}: {n} line(s)")
            if not args.check:
                path.write_text(new, encoding="utf-8")
    if not changed:
        print("the Chinese edition already uses one rendering per term")
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
