r"""The Chinese edition's terminology, read from the glossary table in ``README.zh.md``.

Each row gives the term to use (中文), the English and PyTorch names, and the renderings not to use
(不用的译法, separated by 、). ``inconsistencies`` finds those renderings in the Chinese texts, so one English
term is never translated two ways: the glossary is the contract, this module enforces it.

An avoided form is found as written (a ``|`` in it is written ``\|`` in the table), except the forms in ``RULES``:
those are matched by their regular expression, so that the rule catches the wrong form and not the legitimate text
that contains it (``bug`` as a word but not ``BuggyHuberLoss``; 笔记本 but not 笔记本电脑).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
README_ZH = ROOT / "README.zh.md"


# Avoided forms (as written in the table) -> the regular expression that finds them.
RULES: Dict[str, str] = {
    # the word, not paths (notebooks/, 10_capstone.ipynb), identifiers (notebook_dir), placeholders
    # (<notebook>, {notebook}) or inline code
    "notebook": r"(?<![\w/.`<{-])notebook(?![\w/.`>}-])",
    "笔记本": r"笔记本(?!电脑)",  # 笔记本电脑 is a laptop
    # a lesson's numbered part (第 3 部分, 第 2、3、5 部分); not 一部分 or 单元格的第二部分
    "第 N 部分": r"第 ?\d+(?: ?[、，,] ?\d+)* ?部分",
    "最大 \\|差\\|": r"最大 ?\|差\|",
    "整批": r"(?<!调)整批",  # not 调整批大小 (adjust the batch size)
    # the word, in prose or a comment; not BuggyHuberLoss or debug
    "bug": r"(?<![A-Za-z])[Bb]ugs?(?![A-Za-z])",
    # the word; not the argument or attribute (momentum=0.9, .momentum, `momentum`) or the API name Momentum
    "momentum": r"(?<![\w.`])momentum(?![\w=`])",
    # an exercise named without its lesson (练习 3); the label is 练习 NN.K
    "练习 N": r"练习 ?\d+(?![\d.])",
    # lesson 05 under another title
    "05 · 其他标题": r"05 · (?!用 LeNet-5 识别 MNIST)",
}


@dataclass(frozen=True)
class Term:
    zh: str
    en: str
    pytorch: str
    avoid: Tuple[str, ...]

    def patterns(self) -> List[Tuple[str, "re.Pattern[str]"]]:
        """``(form, pattern)`` for each avoided form: its rule in ``RULES``, or the form itself."""
        return [(form, re.compile(RULES.get(form) or re.escape(form.replace("\\|", "|")))) for form in self.avoid]


def load(path: Path = README_ZH) -> List[Term]:
    """The glossary rows of ``path`` (the table under the heading that contains 术语表)."""
    text = Path(path).read_text(encoding="utf-8")
    m = re.search(r"^#+ [^\n]*术语表[^\n]*\n(?P<body>.*?)(?=^#+ |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    if not m:
        raise ValueError(f"{path}: no section headed 术语表 with the glossary table")
    terms = []
    for line in m["body"].splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if len(cells) != 4 or cells[0] in ("中文", "") or set(cells[0]) <= set("-: "):
            continue
        avoid = tuple(a.strip() for a in cells[3].split("、") if a.strip() and a.strip() not in ("—", "-"))
        terms.append(Term(cells[0], cells[1], cells[2], avoid))
    if not terms:
        raise ValueError(f"{path}: the 术语表 section has no table rows")
    return terms


def inconsistencies(texts: Dict[str, str], terms: Iterable[Term]) -> List[str]:
    """``where:line: uses X (glossary: Y for English)`` for every avoided rendering found in ``texts``
    (name -> text)."""
    found = []
    for name, text in texts.items():
        lines = text.splitlines()
        for term in terms:
            for form, pattern in term.patterns():
                for number, line in enumerate(lines, 1):
                    for m in pattern.finditer(line):
                        found.append(f"{name}:{number}: uses {m.group()!r} ({form}); the glossary says "
                                     f"{term.zh!r} for {term.en!r}")
    return found


def chinese_only(text: str) -> str:
    """A catalogue's text with its English source blocks (``<!-- en -->`` up to the next ``<!-- ... -->``, as in
    ``i18n/zh/scripts.md``) blanked out; line numbers stay the file's."""
    lines = text.splitlines()
    english = False
    for i, line in enumerate(lines):
        if line.startswith("<!--"):
            english = line.strip() == "<!-- en -->"
        elif english:
            lines[i] = ""
    return "\n".join(lines)


def without_table(path: Path = README_ZH) -> str:
    """``path``'s text with the glossary section blanked out (its table and the note above it name the avoided
    forms on purpose); line numbers stay the file's."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    in_glossary = False
    for i, line in enumerate(lines):
        if line.startswith("#"):
            in_glossary = "术语表" in line
        elif in_glossary:
            lines[i] = ""
    return "\n".join(lines)
