"""Numbers as text: the one home of the course's number formatting (messages, tables, summaries).

* ``significant(x, digits=6)``: ``0.333333``, ``1e-07``, ``2``: a checker's message, short and exact enough.
* ``number(value, spec=".4g")``: floats formatted with ``spec``; ints, strings as they are; ``None`` as "-".
* ``table_cell(value, digits=1)``: one cell of a printed table: ``1,234``, ``12.3``, ``0.0123``, ``yes``, ``-``.
* ``pad(text, width, align="<")``: ``text`` padded to ``width`` *display* columns (``align=">"``: on the left):
  a Chinese character takes two, so ``f"{text:<20}"`` misaligns the columns of a Chinese table and ``pad`` does not.
* ``text_table(rows, right=())``: rows of cells (the first one the header) as lines whose columns line up in both
  editions, each column as wide as its widest cell.
* ``duration(seconds, lang)``: a lesson's run time as the READMEs, the title cells and the website quote it:
  ``~25 s``, ``~3 min``; ``约 25 秒``, ``约 3 分钟``.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any, Iterable, Optional, Sequence

__all__ = ["display_width", "duration", "number", "pad", "plain_figures", "significant", "table_cell", "text_table"]

MISSING = "-"


def significant(x: Any, digits: int = 6) -> str:
    """``x`` (a number, 0-d array or tensor item) with ``digits`` significant digits."""
    return f"{float(x):.{digits}g}"


def plain_figures(x: float, digits: int = 2) -> str:
    """``x`` rounded to ``digits`` significant figures and written without an exponent: ``813.3`` -> ``"810"``,
    ``23.2`` -> ``"23"``, ``0.153`` -> ``"0.15"`` (an estimate printed no more precisely than it is known)."""
    x = float(x)
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    places = digits - 1 - math.floor(math.log10(abs(x)))
    if math.floor(math.log10(abs(round(x, places)))) > math.floor(math.log10(abs(x))):   # 9.96 -> 10: one place fewer
        places -= 1
    return f"{round(x, places):.{max(places, 0)}f}"


def number(value: Any, spec: Optional[str] = ".4g", missing: str = MISSING) -> str:
    """A float formatted with ``spec`` (any ``format()`` spec); an int with ``spec`` when it is an int spec
    such as "d" or ",", else as it is; anything else with ``str``; ``None`` as ``missing``."""
    if value is None:
        return missing
    if isinstance(value, bool):
        return str(value)
    if spec and isinstance(value, float):
        return format(value, spec)
    if spec and isinstance(value, int):
        try:
            return format(value, spec)
        except ValueError:
            return str(value)
    return str(value)


def table_cell(value: Any, digits: int = 1) -> str:
    """A table cell: thousands with separators, ``digits`` decimals above 1, 3 significant digits below;
    booleans as yes/no; ``None`` and NaN as "-"."""
    if value is None:
        return MISSING
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if math.isnan(value):
            return MISSING
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.{digits}f}" if abs(value) >= 1 or value == 0 else f"{value:.3g}"
    return str(value)


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospaced font: East Asian wide and full-width characters count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in str(text))


def pad(text: Any, width: int, align: str = "<") -> str:
    """``text`` left-aligned (``align="<"``) or right-aligned (``">"``) in ``width`` display columns (never cut):
    a table that lines up in both editions."""
    if align not in ("<", ">"):
        raise ValueError(f"align must be '<' or '>', got {align!r}")
    text = str(text)
    fill = " " * max(0, width - display_width(text))
    return text + fill if align == "<" else fill + text


def text_table(rows: Sequence[Sequence[Any]], right: Iterable[int] = (), gap: int = 2) -> str:
    """``rows`` of cells as text lines, ``gap`` spaces between columns, each column as wide as its widest cell in
    display columns (``pad``); the columns numbered in ``right`` are right-aligned, the others left-aligned."""
    cells = [[str(c) for c in row] for row in rows]
    if not cells:
        return ""
    right = set(right)
    widths = [max(display_width(row[i]) for row in cells if i < len(row)) for i in range(max(map(len, cells)))]
    return "\n".join((" " * gap).join(pad(c, widths[i], ">" if i in right else "<") for i, c in enumerate(row))
                     .rstrip() for row in cells)


def duration(seconds: float, lang: str = "en") -> str:
    """How the course quotes a run time: '~20 s' below two minutes (to 5 s from 10 s on), else '~3 min'; in the
    Chinese edition (``lang="zh"``) '约 20 秒', '约 3 分钟'."""
    if seconds < 120:
        number_, unit = max(1, round(seconds / 5) * 5 if seconds >= 10 else round(seconds)), "s"
    else:
        number_, unit = round(seconds / 60), "min"
    if lang == "zh":
        return f"约 {number_} {'秒' if unit == 's' else '分钟'}"
    return f"~{number_} {unit}"
