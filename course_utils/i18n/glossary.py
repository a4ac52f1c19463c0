"""The Chinese edition's terminology, read from the glossary table in ``README.zh.md``.

Each row gives the term to use (中文), the English and PyTorch names, and the renderings not to use
(不用的译法, separated by 、). ``inconsistencies`` finds those renderings in the Chinese texts, so one English
term is never translated two ways: the glossary is the contract, this module enforces it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List, Tuple

ROOT = Path(__file__).resolve().parents[2]
README_ZH = ROOT / "README.zh.md"


@dataclass(frozen=True)
class Term:
    zh: str
    en: str
    pytorch: str
    avoid: Tuple[str, ...]


def load(path: Path = README_ZH) -> List[Term]:
    """The glossary rows of ``path`` (the table under the heading that contains 术语表)."""
    text = Path(path).read_text(encoding="utf-8")
    m = re.search(r"^#+ [^\n]*术语表[^\n]*\n(?P<body>.*?)(?=^#+ |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    if not m:
        raise ValueError(f"{path}: no section headed 术语表 with the glossary table")
    terms = []
    for line in m["body"].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
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
            for bad in term.avoid:
                for number, line in enumerate(lines, 1):
                    if bad in line:
                        found.append(f"{name}:{number}: uses {bad!r}; the glossary says {term.zh!r} "
                                     f"for {term.en!r}")
    return found


def without_table(path: Path = README_ZH) -> str:
    """``path``'s text with the glossary's table rows blanked out (they name the avoided forms on purpose);
    line numbers stay the file's."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    in_glossary = False
    for i, line in enumerate(lines):
        if line.startswith("#"):
            in_glossary = "术语表" in line
        elif in_glossary and line.lstrip().startswith("|"):
            lines[i] = ""
    return "\n".join(lines)
