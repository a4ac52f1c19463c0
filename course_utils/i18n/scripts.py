"""Build the Chinese edition's scripts (``notebooks/zh/scripts/``) from the English ones and a catalogue.

The zh lessons launch and show ``scripts/...`` relative to their own folder, so they run
``notebooks/zh/scripts/NAME.py``: the English ``notebooks/scripts/NAME.py`` token for token, with its comments
and string literals (docstrings, ``--help`` texts, what a standalone script prints) replaced by their Chinese from
``i18n/zh/scripts.md``. The code is the English code by construction: ``build`` starts from the English file every
time, so a change to the English code reaches the Chinese script on the next build without a translator.

The catalogue is keyed by the English text itself, one entry per *unit*, for all scripts at once (a docstring the
capstone's skeleton and reference share is translated once)::

    <!-- en -->
    ```python
    # Connect to the scheduler and the other workers.
    ```
    <!-- zh -->
    ```python
    # 连接调度器和其他 worker。
    ```

A unit is a block of comment lines (consecutive, comment-only, same column; written without that indentation),
a comment after code on its line, or a string literal with the literals implicitly joined to it (one per line).
A ``zh`` block equal to its ``en`` block keeps the English on purpose. Strings passed to ``tr()`` are not units:
the script translates them at run time (``COURSE_LANG``, course_utils/i18n/zh/).

``check`` reports every unit with words in it that has no entry (*missing*: the English changed or is new), every
entry no script has any more (*orphaned*), a built script whose code differs from the English beyond comments and
strings (the notebooks' own check, ``notebooks.code_difference``), and a stored script that is not what ``build``
writes (*unbuilt*). The scripts in ``ENGLISH_FOR_NOW`` are built from the catalogue too but not required to be
complete.
"""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from course_utils.fileio import atomic_write
from course_utils.i18n.notebooks import NOTEBOOKS, ROOT, Problem, code_difference

SOURCE = NOTEBOOKS / "scripts"
CATALOGUE = ROOT / "i18n" / "{lang}" / "scripts.md"
#: Scripts whose Chinese edition may still have English comments and strings while their translation is under
#: way (none: every script's texts are in the catalogue); remove a name once its texts are in the catalogue.
ENGLISH_FOR_NOW: frozenset = frozenset()

_ENTRY = re.compile(r"^<!-- en -->\n```python\n(?P<en>.*?)\n```\n<!-- zh -->\n```python\n(?P<zh>.*?)\n```[ \t]*$",
                    re.MULTILINE | re.DOTALL)
_WORDS = re.compile(r"[A-Za-z]{3,}[,;:]?\s")
_FILE_HEADER = ("<!-- i18n catalogue: notebooks/scripts/*.py (zh). Each entry: an English comment block or string "
                "literal of a script, as written, then its Chinese (course_utils/i18n/scripts.py). -->\n")


def target_dir(lang: str = "zh") -> Path:
    return NOTEBOOKS / lang / "scripts"


def catalogue_path(lang: str = "zh") -> Path:
    return Path(str(CATALOGUE).format(lang=lang))


def scripts() -> List[Path]:
    return sorted(SOURCE.glob("*.py"))


@dataclass
class Unit:
    kind: str      # comment | inline | string
    start: int     # offsets into the source
    end: int
    column: int
    text: str      # the key: the unit as the catalogue writes it
    line: int      # 1-based, for messages


def _offsets(source: str) -> List[int]:
    starts, total = [0], 0
    for line in source.splitlines(keepends=True):
        total += len(line)
        starts.append(total)
    return starts


def units(source: str) -> List[Unit]:
    """The translatable pieces of ``source``, in order (see the module's docstring)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    at = _offsets(source)
    pos = lambda rc: at[rc[0] - 1] + rc[1]  # noqa: E731
    found: List[Unit] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        before = [t for t in tokens[max(0, i - 3):i] if t.type not in (tokenize.NL, tokenize.COMMENT)]
        if tok.type == tokenize.COMMENT:
            line_text = source[at[tok.start[0] - 1]:pos(tok.start)]
            if line_text.strip():  # after code on the same line
                found.append(Unit("inline", pos(tok.start), pos(tok.end), tok.start[1], tok.string, tok.start[0]))
                i += 1
                continue
            block, j = [tok], i + 1
            while j + 1 < len(tokens) and tokens[j].type == tokenize.NL and tokens[j + 1].type == tokenize.COMMENT \
                    and tokens[j + 1].start[1] == tok.start[1] and tokens[j + 1].start[0] == block[-1].start[0] + 1 \
                    and not source[at[tokens[j + 1].start[0] - 1]:pos(tokens[j + 1].start)].strip():
                block.append(tokens[j + 1])
                j += 2
            found.append(Unit("comment", pos(tok.start), pos(block[-1].end), tok.start[1],
                              "\n".join(t.string for t in block), tok.start[0]))
            i = j
            continue
        if tok.type == tokenize.STRING:
            run, j = [tok], i + 1
            while j < len(tokens) and tokens[j].type in (tokenize.NL, tokenize.STRING):
                if tokens[j].type == tokenize.STRING:
                    run.append(tokens[j])
                j += 1
            translated_at_run_time = (len(before) >= 2 and before[-1].string == "(" and before[-2].string == "tr")
            if not translated_at_run_time:
                found.append(Unit("string", pos(tok.start), pos(run[-1].end), tok.start[1],
                                  "\n".join(t.string for t in run), tok.start[0]))
            i = j
            continue
        i += 1
    return found


def needs_words(unit: Unit) -> bool:
    """A unit a translator must look at: a comment with a word in it, a string with a word followed by a space
    (prose, not a flag, a key, a file name or a format)."""
    if unit.kind != "string":
        return bool(re.search(r"[A-Za-z]{3,}", unit.text)) and not unit.text.startswith(("#!", "# noqa", "# type:"))
    return bool(_WORDS.search(unit.text))


# ---------------------------------------------------------------- the catalogue
def parse_catalogue(text: str, name: str = "catalogue") -> Dict[str, str]:
    entries: Dict[str, str] = {}
    for m in _ENTRY.finditer(text):
        if m["en"] in entries:
            line = text.count("\n", 0, m.start()) + 1
            raise ValueError(f"{name}:{line}: this English text has two entries: {m['en'][:60]!r}")
        entries[m["en"]] = m["zh"]
    rest = _ENTRY.sub("", text).replace(_FILE_HEADER, "").strip()
    if rest:
        raise ValueError(f"{name}: text outside an entry (each is <!-- en --> ```python ...``` <!-- zh --> "
                         f"```python ...```): {rest[:80]!r}")
    return entries


def load_catalogue(lang: str = "zh") -> Dict[str, str]:
    path = catalogue_path(lang)
    if not path.exists():
        return {}
    return parse_catalogue(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


def format_entry(english: str, translated: str) -> str:
    return f"<!-- en -->\n```python\n{english}\n```\n<!-- zh -->\n```python\n{translated}\n```\n"


def _render(unit: Unit, translated: str) -> str:
    """The translated unit as it goes into the script, at the English unit's place and indentation."""
    lines = translated.split("\n")
    if unit.kind == "inline" and len(lines) > 1:
        raise ValueError(f"the translation of the comment on line {unit.line} ({unit.text!r}) must be one line")
    if unit.kind == "comment" or (unit.kind == "string" and not any(q in translated for q in ('"""', "'''"))):
        # comment lines, or implicitly joined literals one a line: at the English unit's column
        return ("\n" + " " * unit.column).join(lines)
    return translated


def splice(source: str, pieces, lookup, render, needs) -> Tuple[str, list]:
    """``source`` with each of ``pieces`` (objects with ``start``/``end`` offsets, in order) replaced by
    ``render(piece, lookup(piece))`` where ``lookup`` finds a translation; also the pieces without one for which
    ``needs(piece)`` is true. The one splicing loop of the scripts' and ``show()``'s translations."""
    out, last, missing = [], 0, []
    for piece in pieces:
        translated = lookup(piece)
        if translated is None:
            if needs(piece):
                missing.append(piece)
            continue
        out.append(source[last:piece.start])
        out.append(render(piece, translated))
        last = piece.end
    out.append(source[last:])
    return "".join(out), missing


def translate(source: str, catalogue: Dict[str, str]) -> Tuple[str, List[Unit]]:
    """(the Chinese script, the units with words that the catalogue has no entry for)."""
    return splice(source, units(source), lambda unit: catalogue.get(unit.text), _render, needs_words)


# ---------------------------------------------------------------- build and check
def built_scripts(lang: str = "zh") -> Dict[str, Tuple[str, List[Unit]]]:
    catalogue = load_catalogue(lang)
    return {p.name: translate(p.read_text(encoding="utf-8"), catalogue) for p in scripts()}


def _prepare(folder: Path) -> None:
    """The target must be a real folder (it was a link to the English scripts before the edition had its own)."""
    if folder.is_symlink():
        folder.unlink()
    folder.mkdir(parents=True, exist_ok=True)


def build(lang: str = "zh") -> List[Path]:
    """Write ``notebooks/<lang>/scripts/`` (only the files that change); remove the scripts English no longer has."""
    folder = target_dir(lang)
    _prepare(folder)
    written = []
    built = built_scripts(lang)
    for name, (text, _) in built.items():
        target = folder / name
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            atomic_write(target, text)
            written.append(target)
        mode = (SOURCE / name).stat().st_mode & 0o777
        if target.stat().st_mode & 0o777 != mode:
            target.chmod(mode)
    for stray in folder.glob("*.py"):
        if stray.name not in built:
            stray.unlink()
            written.append(stray)
    return written


def check(lang: str = "zh", built: bool = True) -> List[Problem]:
    rel = str(catalogue_path(lang).relative_to(ROOT))
    try:
        catalogue = load_catalogue(lang)
    except ValueError as exc:
        return [Problem("format", rel, str(exc))]
    problems: List[Problem] = []
    used = set()
    folder = target_dir(lang)
    for path in scripts():
        source = path.read_text(encoding="utf-8")
        where = f"notebooks/scripts/{path.name}"
        try:
            text, missing = translate(source, catalogue)
        except ValueError as exc:
            problems.append(Problem("format", where, str(exc)))
            continue
        used.update(u.text for u in units(source))
        if path.name not in ENGLISH_FOR_NOW:
            for unit in missing:
                problems.append(Problem("missing", f"{where}:{unit.line}",
                                        f"no entry in {rel} for this {unit.kind}: {unit.text[:70]!r}"))
        diff = code_difference(source, text)
        if diff:
            problems.append(Problem("code", where, f"the Chinese script differs beyond comments and strings: {diff}"))
        target = folder / path.name
        if built and (folder.is_symlink() or not target.exists()
                      or target.read_text(encoding="utf-8") != text):
            problems.append(Problem("unbuilt", str(target.relative_to(ROOT)),
                                    "not what the build writes: python -m course_utils.i18n build"))
    for english in catalogue:
        if english not in used:
            problems.append(Problem("orphaned", rel, f"no script has this text any more: {english[:70]!r}"))
    if built and folder.is_dir() and not folder.is_symlink():
        for stray in sorted(set(p.name for p in folder.glob("*.py")) - {p.name for p in scripts()}):
            problems.append(Problem("orphaned", f"notebooks/{lang}/scripts/{stray}", "no English script of that "
                                                                                    "name: python -m "
                                                                                    "course_utils.i18n build"))
    return problems


def skeleton(lang: str = "zh", names: Optional[List[str]] = None) -> str:
    """The entries still missing, with the English as their translation: a translator's start."""
    catalogue = load_catalogue(lang)
    seen, parts = set(catalogue), []
    for path in scripts():
        if names and path.name not in names:
            continue
        for unit in translate(path.read_text(encoding="utf-8"), catalogue)[1]:
            if unit.text not in seen:
                seen.add(unit.text)
                parts.append(format_entry(unit.text, unit.text))
    return "\n".join(parts)
