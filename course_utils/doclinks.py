"""MindSpore documentation links: one form, and only pages known to exist.

Every link to www.mindspore.cn in the course (the English lessons, the Chinese catalogues and the notebooks built from
them, README*.md, CONTRIBUTING.md, docs/, the messages in course_utils/, the scripts) takes one form::

    https://www.mindspore.cn/docs/en/r2.10.0/api_python/nn/mindspore.nn.Adam.html
    https://www.mindspore.cn/tutorials/zh-CN/r2.10.0/beginner/quick_start.html

MindSpore's site puts the full release in the path since 2.3 (``r2.3.0``, ``r2.4.10``, ``r2.5.0``), so the short
``/r2.10/`` does not name a release. An English file links the English pages (``/en/``), a Chinese one
(``i18n/zh/``, ``notebooks/zh/``, ``docs/zh/``, ``README.zh.md``, ``course_utils/i18n/zh/``) the Chinese pages
(``/zh-CN/``).

``course_utils/mindspore_pages.tsv`` is the list of pages the course may link, each with the evidence that it
exists: the source file MindSpore's site builds it from (repository, commit, path) and what the MindSpore 2.10.0
wheel says of the API it documents. A row marked ``moved`` is a page that does not exist, with the page that
documents the same thing now. ``scripts/verify_doc_links.py`` derives the evidence from clones of MindSpore's
repositories and writes the list; tests/repo/test_doclinks.py checks every link of the course against it.

``python -m course_utils.doclinks rewrite`` brings every link to the one form (and moved pages to their
replacement), in the English lessons and the catalogues (keeping a catalogue entry in step when only its English
cell's links changed), then rebuilds the Chinese notebooks it touched (Markdown only: their outputs stay). It is safe
to re-run: a second run changes nothing. ``python -m course_utils.doclinks check`` lists every link that is not in
the form or not in the list. Standard library only.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Tuple

from course_utils.fileio import atomic_write

ROOT = Path(__file__).resolve().parent.parent
PAGES = Path(__file__).with_name("mindspore_pages.tsv")
SITE = "https://www.mindspore.cn/"
RELEASE = "r2.10.0"
LANGS = {"en": "en", "zh": "zh-CN"}  # edition -> the site's language folder

#: a link to MindSpore's site, up to the first character that cannot be part of it in Markdown, HTML or Python.
LINK = re.compile(r"https?://(?:www\.)?mindspore\.cn(?:/[^\s)\]\"'<>`\\|]*)?")
#: the release part of a docs or tutorials link: /docs/en/r2.10/..., /tutorials/zh-CN/r2.10.0/...
VERSIONED = re.compile(r"^(?P<kind>docs|tutorials)/(?P<lang>en|zh-CN)/(?P<release>[^/]+)/(?P<rest>.*)$")
#: releases the rewrite brings to RELEASE; a link to another release is reported, never rewritten silently.
SAME_RELEASE = ("r2.10", "r2.10.0")

#: pages outside the versioned docs whose English and Chinese versions have different paths
UNVERSIONED = {"install": {"en": "install/en", "zh": "install"}, "install/en": {"en": "install/en", "zh": "install"}}
#: files that hold links: suffixes scanned, folders never scanned (relative to the repository root).
SUFFIXES = (".ipynb", ".md", ".py", ".rst", ".txt", ".toml", ".cfg", ".html", ".yml", ".yaml", ".json")
SKIP_DIRS = {".git", ".venv", "venv", "data", "node_modules", "runs", "logs", "screenshots", "checkpoints",
             "rewritten_network", "_build", "build", "site_build", "wheelhouse", "__pycache__", ".ipynb_checkpoints",
             "tests"}  # tests hold deliberately wrong links (the checks' own examples)
#: the tools themselves (their examples and patterns are not links of the course)
SKIP_FILES = {"course_utils/doclinks.py", "scripts/verify_doc_links.py"}
ZH_PLACES = ("i18n/zh/", "notebooks/zh/", "docs/zh/", "course_utils/i18n/zh/")
ZH_FILES = ("README.zh.md",)


def strip(url: str) -> str:
    """A link found in prose without the sentence's punctuation after it."""
    return url.rstrip(".,;:!?")


def is_chinese(rel: str) -> bool:
    """Whether the file at ``rel`` (relative to the repository, with /) belongs to the Chinese edition."""
    return rel.startswith(ZH_PLACES) or rel in ZH_FILES or rel.endswith(".zh.md")


@dataclass(frozen=True)
class Page:
    """One row of the verified list."""

    url: str             #: the page in the one form (with #anchor when the link points into it)
    status: str          #: "ok" (exists) or "moved" (does not exist; link ``target`` instead)
    target: str          #: for "moved": the page to link instead
    api: str             #: the API the page documents as the MindSpore 2.10.0 wheel has it ("class", ...), or "-"
    repo: str            #: the repository of the source file the site builds the page from
    commit: str          #: the commit it was found at
    path: str            #: the source file (or, for "moved", where the replacement was found)
    note: str            #: what else was checked, or why the page moved


COLUMNS = ("url", "status", "target", "api", "repo", "commit", "path", "note")


def load_pages(path: Path = PAGES) -> Dict[str, Page]:
    """The verified list: url -> Page (lines starting with # are comments)."""
    rows: Dict[str, Page] = {}
    with open(path, encoding="utf-8", newline="") as fh:
        lines = [ln for ln in fh if ln.strip() and not ln.startswith("#")]
    reader = csv.reader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)
    header = next(reader, None)
    if tuple(header or ()) != COLUMNS:
        raise ValueError(f"{path}: the first row must be the header {' <tab> '.join(COLUMNS)}, got {header!r}")
    for number, row in enumerate(reader, 2):
        if len(row) != len(COLUMNS):
            raise ValueError(f"{path}: row {number} has {len(row)} columns, expected {len(COLUMNS)}: {row!r}")
        page = Page(*row)
        if page.url in rows:
            raise ValueError(f"{path}: {page.url} is listed twice")
        rows[page.url] = page
    return rows


def save_pages(pages: Iterable[Page], header_comment: str, path: Path = PAGES) -> None:
    """Write the list sorted by url, atomically."""
    out = [header_comment.rstrip("\n") + "\n", "\t".join(COLUMNS) + "\n"]
    for page in sorted(pages, key=lambda p: p.url):
        fields = [getattr(page, c) for c in COLUMNS]
        if any("\t" in f or "\n" in f for f in fields):
            raise ValueError(f"a field of {page.url} holds a tab or a line break: {fields!r}")
        out.append("\t".join(fields) + "\n")
    atomic_write(path, "".join(out))


# ---------------------------------------------------------------- the one form
def canonical(url: str, pages: Optional[Dict[str, Page]] = None) -> str:
    """``url`` in the one form: https, www., the full release; a moved page becomes its replacement."""
    url = strip(url)
    m = re.match(r"^https?://(?:www\.)?mindspore\.cn/?(.*)$", url)
    if not m:
        return url
    rest = m.group(1)
    v = VERSIONED.match(rest)
    if v and v["release"] in SAME_RELEASE:
        rest = f"{v['kind']}/{v['lang']}/{RELEASE}/{v['rest']}"
    out = SITE + rest
    if pages is not None and out in pages and pages[out].status == "moved":
        out = pages[out].target
    return out


@dataclass(frozen=True)
class Problem:
    where: str   #: file:line
    url: str
    what: str

    def __str__(self):
        return f"{self.where}: {self.url}\n    {self.what}"


def problems_of(url: str, chinese: bool, pages: Dict[str, Page]) -> List[str]:
    """What is wrong with one link found in a file of the given edition (empty: nothing)."""
    url = strip(url)
    out = []
    rest = re.sub(r"^https?://(?:www\.)?mindspore\.cn/?", "", url)
    v = VERSIONED.match(rest)
    if not url.startswith(SITE):
        out.append(f"not in the one form: write {SITE}{rest}")
    if v:
        if v["release"] != RELEASE:
            out.append(f"release {v['release']!r}: the course links {RELEASE} "
                       + ("(python -m course_utils.doclinks rewrite)" if v["release"] in SAME_RELEASE
                          else "(another release on purpose? link the r2.10.0 page)"))
        want = LANGS["zh" if chinese else "en"]
        if v["lang"] != want:
            out.append(f"a {'Chinese' if chinese else 'English'} file links the {v['lang']!r} page: use {want!r}")
    elif rest.startswith(("docs/", "tutorials/")):
        out.append(f"no language and release in the path: {SITE}docs/<en|zh-CN>/{RELEASE}/...")
    elif rest.rstrip("/") in UNVERSIONED:
        want = UNVERSIONED[rest.rstrip("/")]["zh" if chinese else "en"]
        if rest != want:
            out.append(f"a {'Chinese' if chinese else 'English'} file links {SITE}{want}")
    fixed = canonical(url)
    page = pages.get(fixed)
    if page is None:
        out.append("not in course_utils/mindspore_pages.tsv (verify that the page exists in MindSpore 2.10: "
                   "scripts/verify_doc_links.py --add) or link a listed page")
    elif page.status == "moved":
        out.append(f"this page does not exist ({page.note}); link {page.target} (python -m course_utils.doclinks "
                   "rewrite does it)")
    return out


# ---------------------------------------------------------------- the API a page documents
def api_name(url: str) -> Optional[str]:
    """The qualified name an API page documents (``mindspore.nn.Adam``; ``mindspore.nn.Cell.set_train`` for
    ``...Cell.html#mindspore.nn.Cell.set_train``), the module of a listing page (``mindspore.nn``), or None."""
    m = re.match(r"^https://www\.mindspore\.cn/docs/[^/]+/[^/]+/api_python/(?:[\w./-]*/)?(mindspore[\w.]*)\.html"
                 r"(?:#(.*))?$", url)
    if not m:
        return None
    name, anchor = m.group(1), m.group(2) or ""
    return anchor if anchor.startswith(name + ".") else name


def resolve(name: str) -> Optional[str]:
    """What the installed MindSpore has under a qualified name, reached as a user reaches it (``ms.run_check`` is the
    function even though a submodule has the same name): "class", "function", "module", "method", or the type of
    another object; None if it has nothing there. Imports MindSpore."""
    import importlib
    import inspect

    parts = name.split(".")
    if parts[0] != "mindspore":
        return None
    obj, owner = importlib.import_module("mindspore"), None
    for i, attr in enumerate(parts[1:], 2):
        if attr.startswith("_"):
            return None
        if not hasattr(obj, attr):
            if not inspect.ismodule(obj):
                return None
            try:                                   # a submodule its package does not import
                importlib.import_module(".".join(parts[:i]))
            except ImportError:
                return None
            if not hasattr(obj, attr):
                return None
        owner, obj = obj, getattr(obj, attr)
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "class"
    if inspect.isclass(owner) and callable(obj):
        return "method"
    return "function" if callable(obj) else type(obj).__name__


# ---------------------------------------------------------------- where links are
def course_files(root: Path = ROOT) -> Iterator[Path]:
    """Every file of the course that may hold a link to MindSpore's site (sorted)."""
    def walk(folder: Path):
        for child in sorted(folder.iterdir()):
            if child.is_dir():
                if child.name not in SKIP_DIRS and not child.name.startswith(".") and not child.is_symlink():
                    yield from walk(child)
            elif child.suffix in SUFFIXES and child.relative_to(root).as_posix() not in SKIP_FILES:
                yield child
    yield from walk(root)


def _texts(path: Path, rel: str) -> Iterator[Tuple[str, str]]:
    """(where, text) of the parts of a file a reader reads: a notebook's cell sources (not its outputs, which its
    code prints), any other file's lines."""
    if path.suffix == ".ipynb":
        nb = json.loads(path.read_text(encoding="utf-8"))
        for index, cell in enumerate(nb.get("cells", []), 1):
            src = cell.get("source", "")
            lines = src if isinstance(src, list) else src.splitlines(keepends=True)
            for n, line in enumerate(lines, 1):
                yield f"{rel} cell {index} line {n}", line
    else:
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            yield f"{rel}:{n}", line


def links(root: Path = ROOT) -> Iterator[Tuple[str, str, str]]:
    """(file relative to ``root``, where in it, url) of every link to MindSpore's site in the course."""
    for path in course_files(root):
        rel = path.relative_to(root).as_posix()
        for where, line in _texts(path, rel):
            for m in LINK.finditer(line):
                yield rel, where, strip(m.group(0))


def check(root: Path = ROOT, pages: Optional[Dict[str, Page]] = None) -> List[Problem]:
    """Every link of the course that is not in the one form or not a listed, existing page."""
    pages = load_pages() if pages is None else pages
    return [Problem(where, url, what) for rel, where, url in links(root)
            for what in problems_of(url, is_chinese(rel), pages)]


# ---------------------------------------------------------------- the rewrite
def rewrite_text(text: str, pages: Optional[Dict[str, Page]] = None) -> str:
    """``text`` with every MindSpore link in the one form (moved pages replaced)."""
    return LINK.sub(lambda m: canonical(m.group(0), pages) + m.group(0)[len(strip(m.group(0))):], text)


def _rewrite_notebook(nb: dict, pages) -> Dict[str, Tuple[str, str]]:
    """Rewrite the cell sources of a notebook in place; {cell id: (old source, new source)} of the changed ones."""
    changed = {}
    for cell in nb.get("cells", []):
        src = cell.get("source", "")
        lines = src if isinstance(src, list) else [src]
        new = [rewrite_text(line, pages) for line in lines]
        if new != lines:
            changed[cell.get("id")] = ("".join(lines), "".join(new))
            cell["source"] = new if isinstance(src, list) else new[0]
    return changed


def _rehash_catalogue(text: str, changed: Dict[str, Tuple[str, str]]) -> str:
    """Move each entry whose recorded hash is that of its cell's old English source to the new source's hash: the
    cell changed in its links only, and the entry's links are rewritten the same way. An entry that was already stale
    keeps its hash (its translation still needs a person)."""
    from course_utils.i18n.notebooks import text_hash

    for cell_id, (old, new) in changed.items():
        if cell_id is None:
            continue
        header = rf"^(<!-- cell {re.escape(cell_id)} (?:markdown|code|raw) en:){text_hash(old)}(?=( same)? -->)"
        text = re.sub(header, rf"\g<1>{text_hash(new)}", text, flags=re.MULTILINE)
    return text


def _dump_notebook(nb: dict) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def rewrite(root: Path = ROOT, pages: Optional[Dict[str, Page]] = None, dry_run: bool = False) -> List[str]:
    """Bring every link of the course to the one form; the files changed (relative paths).

    The English lessons and the catalogues are rewritten together (catalogue hashes kept in step); the built Chinese
    notebooks are left to ``build`` (see ``main``); every other file is rewritten line by line."""
    from course_utils.i18n import notebooks as nbs

    pages = load_pages() if pages is None else pages
    done = []
    english = {p.resolve() for p in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))}
    built = {p.resolve() for p in sorted((root / "notebooks").glob("*/[0-9][0-9]_*.ipynb"))}
    catalogues = {}
    for path in sorted(english):
        raw = path.read_text(encoding="utf-8")
        nb = json.loads(raw)
        changed = _rewrite_notebook(nb, pages)
        for cat in sorted((root / "i18n").glob(f"*/{path.stem}.md")):
            catalogues[cat.resolve()] = changed
        if changed:
            done.append(path.relative_to(root).as_posix())
            if not dry_run:
                if _dump_notebook(json.loads(raw)) != raw:
                    raise ValueError(f"{path}: not stored as Jupyter writes it (indent 1); not rewritten")
                atomic_write(path, _dump_notebook(nb))
    for path in course_files(root):
        resolved = path.resolve()
        if resolved in english or resolved in built:
            continue
        old = path.read_text(encoding="utf-8")
        new = rewrite_text(old, pages)
        if resolved in catalogues:
            new = _rehash_catalogue(new, catalogues[resolved])
            nbs.parse_catalogue(new, str(path))  # still a valid catalogue
        if new != old:
            done.append(path.relative_to(root).as_posix())
            if not dry_run:
                atomic_write(path, new)
    return done


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.doclinks", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["rewrite", "check"],
                        help="rewrite: bring every link to the one form, then rebuild the Chinese notebooks it "
                             "touched; check: list the links that are not in the form or not in the verified list")
    parser.add_argument("--dry-run", action="store_true", help="rewrite: only list the files it would change")
    args = parser.parse_args(argv)
    if args.command == "rewrite":
        files = rewrite(dry_run=args.dry_run)
        for rel in files:
            print(("would rewrite " if args.dry_run else "rewrote ") + rel)
        lessons = sorted({Path(rel).stem[:2] for rel in files if rel.startswith(("notebooks/", "i18n/"))
                          and rel.endswith((".ipynb", ".md")) and re.match(r"\d\d_", Path(rel).name)})
        if lessons and not args.dry_run:
            from course_utils.i18n.__main__ import main as i18n_main
            if i18n_main(["build"] + lessons):
                return 1
        if not files:
            print("nothing to rewrite")
    problems = check()
    for problem in problems:
        print(problem)
    if problems:
        print(f"\n{len(problems)} link(s) to fix: `make links` fixes the form and moved pages; a page not in the "
              "list needs scripts/verify_doc_links.py --add (CONTRIBUTING: Links to MindSpore's docs)", file=sys.stderr)
        return 1
    print(f"every MindSpore link of the course is in the one form ({RELEASE}) and in the verified list")
    return 0


if __name__ == "__main__":
    sys.exit(main())
