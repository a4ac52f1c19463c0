"""Build the Chinese notebooks from the English ones and a catalogue, and check that they are in step.

The English lesson is the one source of truth for code. ``i18n/zh/NN_name.md`` holds, for every cell of
``notebooks/NN_name.ipynb`` (by its nbformat cell id), the Chinese text and a hash of the English source it
translates::

    <!-- cell 3f2a9c1e markdown en:0123456789ab -->
    ## 目标
    ...

    <!-- cell 7b1d2e3f code en:abcdef012345 -->
    ```python
    x = 1  # 中文注释
    ```

    <!-- cell 9a8b7c6d code en:abcdef012345 same -->

``same`` carries the English code cell over unchanged. A translated code cell may differ from the English one
only in comments and string literals (checked token by token). The file reads as a Chinese document on any
Markdown viewer, and a diff of it is a diff of the translation.

``build`` writes ``notebooks/zh/NN_name.ipynb``: the English notebook's cells, metadata and ids, with translated
sources; a cell whose built source equals the stored Chinese cell's keeps its outputs, so a rebuild after an
unrelated change does not throw away an executed notebook. ``check`` reports, precisely, every cell that is
*stale* (English changed since it was translated), *missing* (no entry), *untranslated* (Markdown left in
English), *orphaned* (entry for a cell that no longer exists), whose code differs beyond comments and strings,
and every Chinese notebook whose cells differ from what ``build`` would write.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import io
import json
import re
import secrets
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional

from course_utils import lessons as course_lessons
from course_utils.fileio import atomic_write

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
CATALOGUES = ROOT / "i18n"

_HEADER = re.compile(r"^<!-- cell (?P<id>[A-Za-z0-9_-]+) (?P<type>markdown|code|raw) en:(?P<hash>[0-9a-f]{12})"
                     r"(?P<same> same)? -->[ \t]*$", re.MULTILINE)
_FILE_HEADER = "<!-- i18n catalogue: {name} ({lang}). Edit the text under each header; never the header. -->\n"
_CJK = re.compile(r"[\u3400-\u9fff]")


def source_of(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


#: A run time quoted in prose ("about 25 s", "~3 min") is a measurement of this machine, rewritten whenever a
#: lesson is re-executed (scripts/execute_notebooks.py --readme); the Chinese edition measures its own. So it is
#: not part of what a translation translates.
RUN_TIME = re.compile(r"(?:about\s+|~)\d+(?:\.\d+)?\s*(?:s|sec|seconds?|min|minutes?)\b")


def text_hash(text: str) -> str:
    """The hash an entry records of the English source it translates (run-time figures left out)."""
    return hashlib.sha256(RUN_TIME.sub("<duration>", text).encode("utf-8")).hexdigest()[:12]


def lessons() -> List[Path]:
    """The English lessons, in course order (the lesson manifest's, under ``ROOT``)."""
    return course_lessons.paths("en", ROOT)


def target_path(english: Path, lang: str = "zh") -> Path:
    return english.parent / lang / english.name


def catalogue_path(english: Path, lang: str = "zh") -> Path:
    return CATALOGUES / lang / (english.stem + ".md")


def load(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def save(nb: dict, path: Path) -> None:
    """Write a notebook as Jupyter does (indent 1, non-ASCII kept, trailing newline), atomically."""
    atomic_write(path, json.dumps(nb, indent=1, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------- cell ids
def ensure_ids(nb: dict) -> bool:
    """Give every cell a stable nbformat 4.5 id (random, 8 hex digits) if it has none. True if changed."""
    changed = False
    if (nb.get("nbformat"), nb.get("nbformat_minor", 0)) < (4, 5):
        nb["nbformat"], nb["nbformat_minor"] = 4, 5
        changed = True
    seen = set()
    for cell in nb["cells"]:
        if not cell.get("id") or cell["id"] in seen:
            cell["id"] = secrets.token_hex(4)
            changed = True
        seen.add(cell["id"])
    # nbformat 4.5 puts "id" right after "cell_type"; keep the key order Jupyter writes.
    for i, cell in enumerate(nb["cells"]):
        order = ["cell_type", "execution_count", "id", "metadata", "outputs", "source"]
        nb["cells"][i] = {k: cell[k] for k in order if k in cell} | {k: v for k, v in cell.items() if k not in order}
    return changed


# ---------------------------------------------------------------- catalogue files
@dataclass
class Entry:
    cell_id: str
    cell_type: str
    en_hash: str
    same: bool
    text: str  # the translated source ("" when same)
    line: int  # 1-based line of the header, for messages


def parse_catalogue(text: str, name: str = "catalogue") -> Dict[str, Entry]:
    entries: Dict[str, Entry] = {}
    matches = list(_HEADER.finditer(text))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end():end].strip("\n")
        line = text.count("\n", 0, m.start()) + 1
        if m["same"] and body:
            raise ValueError(f"{name}:{line}: cell {m['id']} is marked 'same' but has text under it")
        if m["type"] == "code" and body:
            lines = body.split("\n")
            if lines[0].strip() not in ("```python", "```") or lines[-1].strip() != "```":
                raise ValueError(f"{name}:{line}: a code cell's text must be one ```python fenced block")
            body = "\n".join(lines[1:-1])
        if m["id"] in entries:
            raise ValueError(f"{name}:{line}: cell {m['id']} appears twice (first at line {entries[m['id']].line})")
        entries[m["id"]] = Entry(m["id"], m["type"], m["hash"], bool(m["same"]), body, line)
    return entries


def set_entry_text(path: Path, cell_id: str, text: str) -> bool:
    """Replace the text of one entry of the catalogue at ``path`` (its header and hash stay); True if it changed.
    For facts measured on the translated notebook itself, e.g. the run time in its title cell."""
    catalogue = Path(path).read_text(encoding="utf-8")
    entries = parse_catalogue(catalogue, str(path))
    if cell_id not in entries or entries[cell_id].same or entries[cell_id].text == text:
        return False
    matches = list(_HEADER.finditer(catalogue))
    at = next(i for i, m in enumerate(matches) if m["id"] == cell_id)
    end = matches[at + 1].start() if at + 1 < len(matches) else len(catalogue)
    body = f"```python\n{text}\n```" if entries[cell_id].cell_type == "code" else text
    new = catalogue[:matches[at].end()] + "\n" + body + "\n" + ("\n" if at + 1 < len(matches) else "") + catalogue[end:]
    atomic_write(path, new)
    return True


def format_entry(cell_id: str, cell_type: str, en_hash: str, text: Optional[str]) -> str:
    if text is None:
        return f"<!-- cell {cell_id} {cell_type} en:{en_hash} same -->\n"
    if cell_type == "code":
        text = f"```python\n{text}\n```"
    return f"<!-- cell {cell_id} {cell_type} en:{en_hash} -->\n{text}\n"


def _has_words(code: str) -> bool:
    """Comments or string literals with words in them: something a translator may need to touch."""
    for tok in _tokens(_split_magics(code)[0]):
        if tok.type in (tokenize.COMMENT, tokenize.STRING) and re.search(r"[A-Za-z]{3,}\s+[A-Za-z]{2,}", tok.string):
            return True
    return False


def skeleton(english: Path, lang: str = "zh") -> str:
    """A catalogue for ``english`` with every entry still in English: the translator's starting point.
    Code cells without comments or sentences are marked ``same`` (not the setup cell: its ``lang`` changes)."""
    nb = load(english)
    parts = [_FILE_HEADER.format(name=english.name, lang=lang)]
    for cell in nb["cells"]:
        src = source_of(cell)
        # the setup call's lang="en" always changes (to the edition's language)
        keep = cell["cell_type"] == "code" and not _has_words(src) and 'lang="en"' not in src
        parts.append(format_entry(cell["id"], cell["cell_type"], text_hash(src), None if keep else src))
    return "\n".join(parts)


# ---------------------------------------------------------------- code equivalence
def _split_magics(code: str):
    """(Python with each magic/shell line replaced by ``pass``, the magic lines without trailing comments).
    A magic's argument is code, not a string a learner reads: it must stay identical."""
    python, magics = [], []
    for line in code.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")):
            magics.append(re.sub(r"\s+#.*$", "", stripped))
            python.append(line[:len(line) - len(stripped)] + "pass")
        else:
            python.append(line)
    return "\n".join(python), magics


def _tokens(python: str):
    try:
        return list(tokenize.generate_tokens(io.StringIO(python).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return []


# A translation may call these inside an f-string field where the English does not (CJK-aware padding, for one).
PRESENTATION_NAMES = frozenset({"pad", "display_width", "len", "str"})


def _fstring_names(literal: str) -> frozenset:
    """The names an f-string literal's replacement fields read (``f"{min(r):.1f} of {n}"`` -> ``{"min", "r", "n"}``);
    empty for a plain string."""
    try:
        tree = ast.parse(literal.strip(), mode="eval").body
    except SyntaxError:
        return frozenset()
    return frozenset(node.id for field in ast.walk(tree) if isinstance(field, ast.FormattedValue)
                     for node in ast.walk(field.value) if isinstance(node, ast.Name))


def code_signature(code: str) -> List[tuple]:
    """The tokens of a cell with comments, blank lines and the wording of string literals left out, then its magic
    lines. A string literal's token also carries the names its f-string fields read (the third element; a run of
    adjacent literals, implicit concatenation, is one token), which ``code_difference`` compares."""
    python, magics = _split_magics(code)
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.ENCODING}
    tokens: List[tuple] = []
    for tok in _tokens(python):
        if tok.type in skip:
            continue
        if tok.type != tokenize.STRING:
            tokens.append((tok.type, tok.string, frozenset()))
            continue
        names = _fstring_names(tok.string)
        if tokens and tokens[-1][0] == tokenize.STRING:   # continues the run of literals before it
            names |= tokens.pop()[2]
        tokens.append((tokenize.STRING, "<str>", names))
    return tokens + [(-1, line, frozenset()) for line in magics]


def code_difference(english: str, translated: str) -> Optional[str]:
    """None if the two cells differ only in comments and the wording of string literals; else the first difference.
    Code inside an f-string is code: a translation's fields may reword, reorder and pad, but read no name the
    English fields do not (``PRESENTATION_NAMES`` apart), so that a stale variable cannot hide in a string."""
    a, b = code_signature(english), code_signature(translated)
    for i, (x, y) in enumerate(zip(a, b)):
        if x[:2] != y[:2]:
            return f"token {i}: English has {x[1]!r}, the translation has {y[1]!r}"
        extra = y[2] - x[2] - PRESENTATION_NAMES
        if extra:
            return (f"token {i}: the translation's f-string reads {', '.join(sorted(extra))}, which the English "
                    f"string does not (it reads {', '.join(sorted(x[2])) or 'nothing'})")
    if len(a) != len(b):
        return f"English has {len(a)} tokens, the translation {len(b)}"
    return None


# ---------------------------------------------------------------- build and check
@dataclass
class Problem:
    kind: str  # stale | missing | untranslated | orphaned | code | structure | unbuilt | format
    where: str
    detail: str

    def __str__(self):
        return f"{self.kind:12} {self.where}: {self.detail}"


def _entries(english: Path, lang: str) -> Dict[str, Entry]:
    path = catalogue_path(english, lang)
    if not path.exists():
        return {}
    return parse_catalogue(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))


def translated_cells(english: Path, lang: str = "zh") -> List[dict]:
    """The cells of the translated notebook, without outputs: what ``build`` writes."""
    nb = load(english)
    entries = _entries(english, lang)
    cells = []
    for cell in nb["cells"]:
        new = copy.deepcopy(cell)
        entry = entries.get(cell["id"])
        text = entry.text if entry is not None and not entry.same else source_of(cell)
        new["source"] = text.splitlines(keepends=True)  # as Jupyter stores it
        if new["cell_type"] == "code":
            new["outputs"], new["execution_count"] = [], None
        cells.append(new)
    return cells


def build(english: Path, lang: str = "zh") -> Path:
    """Write the translated notebook; cells whose source is unchanged keep their stored outputs."""
    target = target_path(english, lang)
    old = load(target) if target.exists() else None
    old_cells = {c.get("id"): c for c in old["cells"]} if old else {}
    nb = load(english)
    cells = translated_cells(english, lang)
    for cell in cells:
        prev = old_cells.get(cell["id"])
        if cell["cell_type"] == "code" and prev is not None and source_of(prev) == source_of(cell):
            cell["outputs"] = prev.get("outputs", [])
            cell["execution_count"] = prev.get("execution_count")
    nb["cells"] = cells
    metadata = copy.deepcopy(nb.get("metadata", {}))
    if old:  # measured facts about the translated notebook's own run (run time) stay its own
        metadata["course"] = old.get("metadata", {}).get("course", metadata.get("course", {}))
    metadata["language"] = lang
    nb["metadata"] = metadata
    target.parent.mkdir(parents=True, exist_ok=True)
    save(nb, target)
    return target


def check(english: Path, lang: str = "zh", built: bool = True) -> List[Problem]:
    """Everything that makes the translation of ``english`` out of step (empty list: in step)."""
    problems: List[Problem] = []
    nb = load(english)
    cat = catalogue_path(english, lang)
    rel = str(cat.relative_to(ROOT))
    try:
        entries = _entries(english, lang)
    except ValueError as exc:
        return [Problem("format", rel, str(exc))]
    if not cat.exists():
        return [Problem("missing", rel, f"no catalogue for {english.name}: "
                                        f"python -m course_utils.i18n skeleton {english.name[:2]} > {rel}")]
    ids = []
    for index, cell in enumerate(nb["cells"], 1):
        cid = cell.get("id")
        where = f"{english.name} cell {index} ({cid})"
        if not cid:
            problems.append(Problem("structure", where, "the English cell has no id (run: python -m "
                                                        "course_utils.i18n ids)"))
            continue
        ids.append(cid)
        src = source_of(cell)
        entry = entries.get(cid)
        if entry is None:
            problems.append(Problem("missing", where, f"no entry in {rel}; English starts: {src[:60]!r}"))
            continue
        where = f"{rel}:{entry.line} ({english.name} cell {index})"
        if entry.cell_type != cell["cell_type"]:
            problems.append(Problem("structure", where, f"entry says {entry.cell_type}, the cell is "
                                                        f"{cell['cell_type']}"))
        if entry.en_hash != text_hash(src):
            problems.append(Problem("stale", where, f"the English cell changed since it was translated "
                                                    f"(hash {entry.en_hash}, now {text_hash(src)}); English "
                                                    f"starts: {src[:60]!r}"))
        if entry.same:
            continue
        if cell["cell_type"] == "markdown" and src.strip() and _CJK.search(src) is None \
                and _CJK.search(entry.text) is None and re.search(r"[A-Za-z]{3,} [A-Za-z]{3,}", src):
            problems.append(Problem("untranslated", where, "the Markdown has no Chinese in it"))
        if cell["cell_type"] == "code":
            diff = code_difference(src, entry.text)
            if diff:
                problems.append(Problem("code", where, f"differs from the English code beyond comments and "
                                                       f"strings: {diff}"))
    for cid, entry in entries.items():
        if cid not in ids:
            problems.append(Problem("orphaned", f"{rel}:{entry.line}", f"cell {cid} is not in {english.name} "
                                                                       f"any more"))
    if built:
        target = target_path(english, lang)
        trel = str(target.relative_to(ROOT))
        if not target.exists():
            problems.append(Problem("unbuilt", trel, "missing: python -m course_utils.i18n build"))
        else:
            stored = load(target)["cells"]
            expected = translated_cells(english, lang)
            if [c.get("id") for c in stored] != [c["id"] for c in expected]:
                problems.append(Problem("structure", trel, "its cells are not the English notebook's cells "
                                                           "(ids/order): python -m course_utils.i18n build"))
            else:
                for index, (have, want) in enumerate(zip(stored, expected), 1):
                    if source_of(have) != source_of(want) or have["cell_type"] != want["cell_type"]:
                        problems.append(Problem("unbuilt", f"{trel} cell {index} ({want['id']})",
                                                "differs from its catalogue entry: python -m course_utils.i18n "
                                                "build, then re-execute it"))
    return problems
