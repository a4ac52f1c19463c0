"""The code ``bench.show(obj)`` prints, in the course's language: the source of a function or class with its
docstrings and ``#`` comments translated, every code token as written.

Lessons 07 and 08 print the measuring code before they run it; in the Chinese edition that listing must read
as Chinese like everything else the lesson prints, yet stay the code that runs (a translated copy of the
source could drift from it). So the translation happens when the source is printed: ``inspect.getsource``,
then each docstring and comment is looked up in ``course_utils/i18n/<lang>/shown.py`` (``SHOWN``).

The catalogue is keyed by the English text itself, so an English docstring or comment that changes (or is new)
has no entry and is printed in English, and ``missing`` (tests/unit/test_i18n_shown.py) names it:

* a docstring: its text between the quotes, the continuation lines without the indentation of the opening
  quotes (a closing quote on its own line leaves a final ``\\n``); its translation is written the same way and
  printed at the docstring's indentation, so it may have fewer or more lines than the English;
* a comment: a block of comment-only lines (or a comment after code) without the ``#`` and one space, lines
  joined with ``\\n``; a comment after code must be translated into one line.

Other string literals are code (keys, labels, what ``tr()`` translates at run time) and are left alone. Script
files are not this module's: ``notebooks/zh/scripts/`` are built translated (``course_utils.i18n.scripts``),
whose tokenizer (``units``) this module shares.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import textwrap
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from course_utils.i18n import language
from course_utils.i18n.scripts import Unit, needs_words, splice, units

__all__ = ["Piece", "catalogue", "missing", "pieces", "source_of", "translate"]

_MARKER = re.compile(r"#[ \t]?")
_STRING = re.compile(r"(?P<prefix>[A-Za-z]*)(?P<quote>\"\"\"|'''|\"|')(?P<body>.*)(?P=quote)\Z", re.DOTALL)


@dataclass
class Piece(Unit):
    """A docstring or comment of a shown object: a script ``Unit`` (kind docstring, comment or inline; ``text`` as
    written in the source) with its catalogue key."""

    key: str = ""        # the catalogue's key (see the module's docstring)
    needs: bool = False  # a translator must give it an entry (a docstring; a comment with words in it)

    @property
    def english(self) -> str:
        return self.text


def catalogue(lang: Optional[str] = None) -> Dict[str, str]:
    """English docstring or comment -> its translation, for ``lang`` (the current language; empty for English)."""
    lang = lang or language()
    if lang == "en":
        return {}
    return importlib.import_module(f"course_utils.i18n.{lang}.shown").SHOWN


def _docstring_places(source: str) -> set:
    """(line, column) of every docstring's opening quote in ``source``: the module's, a class's, a function's."""
    dedented = textwrap.dedent(source)
    shift = len(source.splitlines()[0]) - len(dedented.splitlines()[0]) if source.strip() else 0
    places = set()
    for node in ast.walk(ast.parse(dedented)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                places.add((first.lineno, first.col_offset + shift))
    return places


def pieces(source: str) -> List[Piece]:
    """The docstrings and comments of ``source``, in order (string literals that are not docstrings are code)."""
    docstrings = _docstring_places(source)
    found = []
    for unit in units(source):
        if unit.kind == "string":
            m = _STRING.match(unit.text)
            if (unit.line, unit.column) not in docstrings or m is None \
                    or (m["quote"] in m["body"] if len(m["quote"]) == 3 else "\n" in m["body"]):
                continue   # code, or implicitly joined literals (not how a docstring is written here)
            key = m["body"].replace("\n" + " " * unit.column, "\n")
            found.append(Piece("docstring", unit.start, unit.end, unit.column, unit.text, unit.line, key, True))
        else:
            key = "\n".join(_MARKER.sub("", line.strip(), count=1) for line in unit.text.split("\n"))
            found.append(Piece(unit.kind, unit.start, unit.end, unit.column, unit.text, unit.line, key,
                               needs_words(unit)))
    return found


def _render(piece: Piece, translated: str) -> str:
    """The translated piece as it goes into the source, at the English piece's place and indentation."""
    lines, indent = translated.split("\n"), " " * piece.column
    if piece.kind == "docstring":
        m = _STRING.match(piece.english)
        # continuation lines at the opening quotes' column; a blank line stays empty, the closing quotes' line not
        body = "\n".join([lines[0]] + [indent + line if line or i == len(lines) - 1 else line
                                       for i, line in enumerate(lines[1:], 1)])
        return f"{m['prefix']}{m['quote']}{body}{m['quote']}"
    if piece.kind == "inline" and len(lines) > 1:
        raise ValueError(f"the translation of the comment on line {piece.line} ({piece.english!r}) must be one line")
    marker = _MARKER.match(piece.english)[0]
    return ("\n" + indent).join((marker + line).rstrip() for line in lines)


def translate(source: str, entries: Optional[Dict[str, str]] = None) -> Tuple[str, List[Piece]]:
    """(``source`` with its docstrings and comments from ``entries``, the pieces with words that have no entry).
    ``entries``: the current language's catalogue if not given."""
    entries = catalogue() if entries is None else entries
    return splice(source, pieces(source), lambda piece: entries.get(piece.key), _render, lambda piece: piece.needs)


def source_of(obj) -> str:
    """The source of the function or class ``obj`` as ``show()`` prints it: in the current language."""
    source = inspect.getsource(obj)
    return translate(source)[0] if language() != "en" else source


def missing(obj, lang: str = "zh") -> List[str]:
    """``obj``'s docstrings and comments that ``lang``'s catalogue has no entry for, as "name:line: text"."""
    source = inspect.getsource(obj)
    first = inspect.getsourcelines(obj)[1]
    return [f"{obj.__module__}.{obj.__qualname__}:{first + p.line - 1}: {p.key[:80]!r}"
            for p in translate(source, catalogue(lang))[1]]
