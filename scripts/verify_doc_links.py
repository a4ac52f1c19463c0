"""Verify the MindSpore doc pages the course links, and write course_utils/mindspore_pages.tsv.

A page of MindSpore's site is built from a source file, and this finds it:

* ``docs/<lang>/<release>/api_python/<folder>/<name>.html`` (one API): the English page is generated for every name
  an ``autosummary`` block of ``docs/api/api_python_en/*.rst`` lists under ``:toctree: <folder>`` (the dataset
  methods' pages come from the template ``dataset_list.rst``, under ``dataset/``); the Chinese page is the file
  ``docs/api/api_python/<folder>/<name>.rst`` (for ``ops/`` and ``mindspore/`` functions,
  ``<module>.func_<name>.rst``, which the Chinese build renames), both in MindSpore's source repository. The name
  must also resolve in the installed MindSpore (run this with the course's .venv: 2.10.0).
* ``docs/<lang>/<release>/api_python/<module>.html``: the listing ``docs/api/api_python[_en]/<module>.rst``; an
  ``#anchor`` must be the id of one of its section titles (``Loss Function`` -> ``loss-function``, ``损失函数``).
* ``tutorials/<lang>/<release>/<path>.html`` and the other ``docs/`` pages: ``tutorials/source_<en|zh_cn>/<path>``
  and ``docs/mindspore/source_<en|zh_cn>/<path>`` (``.md``, ``.ipynb`` or ``.rst``) in the docs repository.
* a page outside the versioned docs (``/install``): MindSpore's own docs link it.

Usage (a clone of each repository; any mirror with the release branches will do)::

    .venv/bin/python scripts/verify_doc_links.py --mindspore PATH/mindspore.git --docs PATH/docs.git \\
        [--mindspore-name mindspore-ai/mindspore] [--ref master] [--docs-ref master] [--add] [--write]

It re-verifies every row of the list and, with ``--add``, every page the course links that the list lacks
(``python -m course_utils.doclinks check`` names them). A page that is not found is reported with where the name
does exist; it needs a ``moved`` row written by hand (``status`` moved, ``target`` the page that documents it now,
``note`` why), which this then checks: the old page must still be absent and the target must be verified.
``--write`` rewrites the list (rows sorted; ``moved`` rows and their notes kept). Exit status 1 if any page fails.
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from course_utils import doclinks  # noqa: E402  (after the path: this runs without an installed course_utils too)
from course_utils.doclinks import RELEASE, SITE, VERSIONED, Page, resolve  # noqa: E402

LANG_SOURCE = {"en": "source_en", "zh-CN": "source_zh_cn"}
TEMPLATES = {"dataset_list.rst": "dataset/"}  # class templates whose autosummary folders sit under a folder
FUNC_RENAMED = ("ops", "mindspore")           # folders whose Chinese function files are named <module>.func_<name>
#: The Chinese build (docs repository, docs/mindspore/source_zh_cn/conf.py) deletes the files of these folders that
#: its listings do not name (del_redundant_api_file), and writes the missing Chinese files of the listed primitives
#: and mint functions from the English docstrings (generate_rst_by_en).
ZH_PRUNED = {"ops": ("mindspore.ops.rst", "mindspore.ops.primitive.rst"), "nn": ("mindspore.nn.rst",),
             "mint": ("mindspore.mint.rst",), "numpy": ("mindspore.numpy.rst",), "scipy": ("mindspore.scipy.rst",)}
ZH_GENERATED = {"ops": "mindspore.ops.primitive.rst", "mint": "mindspore.mint.rst"}


class Repo:
    """Read-only access to one ref of a git repository (a bare mirror is enough)."""

    def __init__(self, git_dir: str, ref: str, name: str):
        self.git_dir, self.ref, self.name = git_dir, ref, name
        self.commit = self._git("rev-parse", f"{ref}^{{commit}}").strip()
        self.date = self._git("log", "-1", "--format=%cI", self.commit).strip()
        self._files: Optional[Set[str]] = None
        self._texts: Dict[str, str] = {}

    def _git(self, *args) -> str:
        return subprocess.run(["git", "--git-dir", self.git_dir, *args], check=True, capture_output=True,
                              text=True).stdout

    def files(self) -> Set[str]:
        if self._files is None:
            self._files = set(self._git("ls-tree", "-r", "--name-only", self.commit).splitlines())
        return self._files

    def read(self, path: str) -> str:
        if path not in self._texts:
            self._texts[path] = self._git("show", f"{self.commit}:{path}")
        return self._texts[path]

    def version(self) -> str:
        return self.read("version.txt").strip() if "version.txt" in self.files() else "?"

    def grep(self, text: str) -> List[str]:
        out = subprocess.run(["git", "--git-dir", self.git_dir, "grep", "-l", "-F", text, self.commit, "--",
                              "*.md", "*.rst", "*.ipynb"], capture_output=True, text=True).stdout
        found = [ln.split(":", 1)[1] for ln in out.splitlines() if ":" in ln]
        return sorted(found, key=lambda p: (not p.startswith(("tutorials/", "docs/mindspore/")), p))


# ---------------------------------------------------------------- listings
def autosummary(text: str) -> List[Tuple[str, str, str]]:
    """(toctree, name, section title) of every name listed in an autosummary-like block of an rst listing."""
    out, lines = [], text.splitlines()
    section, i = "", 0
    while i < len(lines):
        line = lines[i]
        if i + 1 < len(lines) and line.strip() and re.fullmatch(r"([-=^~*\"])\1{2,}\s*", lines[i + 1]):
            section = line.strip()
        m = re.match(r"^\s*\.\. \w*autosummary::", line)
        if not m:
            i += 1
            continue
        indent = len(line) - len(line.lstrip())
        toctree, i = "", i + 1
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body = lines[i].strip()
            if body.startswith(":toctree:"):
                toctree = body.split(":", 2)[2].strip()
            elif body and not body.startswith((":", "{", "..")):
                out.append((toctree, body.replace("\\_", "_"), section))
            i += 1
    return out


def anchor_of(title: str) -> str:
    """The id Sphinx gives a section title on MindSpore's site: lower case, runs of other characters -> '-'
    (letters of any script kept: ``损失函数``, ``learningrateschedule类``)."""
    title = unicodedata.normalize("NFKC", title).lower()
    return re.sub(r"[^\w]+", "-", title).strip("-").replace("_", "-")


def sections(text: str) -> List[str]:
    lines = text.splitlines()
    return [lines[i].strip() for i in range(len(lines) - 1)
            if lines[i].strip() and re.fullmatch(r"([-=^~*\"])\1{2,}\s*", lines[i + 1])]


# ---------------------------------------------------------------- the installed MindSpore
def mindspore_version() -> str:
    import mindspore
    return mindspore.__version__


# ---------------------------------------------------------------- one page
class Verifier:
    def __init__(self, ms: Repo, docs: Repo):
        self.ms, self.docs, self.version = ms, docs, mindspore_version()
        self._listings: Dict[str, List[Tuple[str, str, str, str]]] = {}

    def listing(self, folder: str) -> List[Tuple[str, str, str, str]]:
        """(file, toctree folder, name, section) of every name of the English (api_python_en) or Chinese listings."""
        if folder not in self._listings:
            rows = []
            for path in sorted(self.ms.files()):
                if path.startswith(folder + "/") and path.count("/") == folder.count("/") + 1 and path.endswith(".rst"):
                    prefix = TEMPLATES.get(path.rsplit("/", 1)[1], "")
                    for toctree, name, section in autosummary(self.ms.read(path)):
                        rows.append((path, prefix + toctree, name, section))
            self._listings[folder] = rows
        return self._listings[folder]

    def names(self, path: str) -> Set[str]:
        """The names a Chinese listing lists, found as its build finds them (an indented ``mindspore.`` line)."""
        return set(re.findall(r"^[ ]{3,4}(mindspore\..+?)\s*$", self.ms.read(path), flags=re.MULTILINE))

    def api(self, name: str) -> Tuple[Optional[str], str]:
        kind = resolve(name)
        return kind, (f"{self.version} {kind}" if kind else f"absent from MindSpore {self.version}")

    def verify(self, url: str) -> Tuple[Optional[Page], str]:
        """(the row, "") for a page that exists; (None, why not) otherwise."""
        rest = url[len(SITE):]
        rest, _, anchor = rest.partition("#")
        v = VERSIONED.match(rest)
        if not url.startswith(SITE):
            return None, "not a link to the site"
        if v is None:
            found = self.docs.grep(SITE + rest) or self.docs.grep(SITE.replace("www.", "") + rest)
            if not found:
                return None, f"MindSpore's docs never link {SITE}{rest}"
            return self.row(url, "-", self.docs, found[0], f"an unversioned page of the site; MindSpore's docs link "
                                                           f"it ({len(found)} files)"), ""
        if v["release"] != RELEASE:
            return None, f"release {v['release']}, not {RELEASE}"
        lang, page = v["lang"], v["rest"]
        own = "docs/mindspore/" + LANG_SOURCE[lang] + "/" + page[:-len(".html")] + ".rst"
        if v["kind"] == "docs" and page.startswith("api_python/") and own not in self.docs.files():
            return self.api_page(url, lang, page[len("api_python/"):], anchor)
        # (a few api_python pages, env_var_list, are written in the docs repository: verified as guide pages below)
        base = ("tutorials/" if v["kind"] == "tutorials" else "docs/mindspore/") + LANG_SOURCE[lang] + "/"
        stem = page[:-len(".html")] if page.endswith(".html") else page.rstrip("/") + "/index"
        for suffix in (".md", ".ipynb", ".rst"):
            if base + stem + suffix in self.docs.files():
                if anchor:
                    return None, "anchors into guide pages are not verified: link the page"
                return self.row(url, "-", self.docs, base + stem + suffix, "guide page"), ""
        return None, f"no {base}{stem}.(md|ipynb|rst) in {self.docs.name} at {self.docs.ref}"

    def api_page(self, url: str, lang: str, page: str, anchor: str) -> Tuple[Optional[Page], str]:
        en = lang == "en"
        folder = "docs/api/api_python_en" if en else "docs/api/api_python"
        if page.endswith(".html") and "/" not in page:            # a module's listing
            module = page[:-len(".html")]
            path = f"{folder}/{module}.rst"
            if path not in self.ms.files():
                return None, f"no listing {path} at {self.ms.ref}"
            note = "listing page"
            if anchor:
                titles = {anchor_of(t): t for t in sections(self.ms.read(path))}
                if anchor not in titles:
                    return None, f"#{anchor} is not a section of {path} (sections: {', '.join(titles)})"
                note = f"section {titles[anchor]!r}"
            kind, said = self.api(module)
            return self.row(url, said if kind else "-", self.ms, path, note), ""
        toc, _, name = page[:-len(".html")].rpartition("/")
        kind, said = self.api(name)
        if kind is None:
            return None, said
        if en:
            hits = [(p, t) for p, t, n, _ in self.listing(folder) if n == name]
            where = [p for p, t in hits if t == toc]
            if not where:
                return None, (f"{name} is not listed under :toctree: {toc} in {folder}/*.rst"
                              + (f" (it is under {sorted({t for _, t in hits})})" if hits else ""))
            path, note = where[0], "listed in the English API listing"
        else:
            module, _, last = name.rpartition(".")
            listed = {n: f"{folder}/{f}" for f in ZH_PRUNED.get(toc, ()) for n in self.names(f"{folder}/{f}")}
            if toc in ZH_PRUNED and name not in listed:
                return None, (f"{name} is not listed in {folder}/{' or '.join(ZH_PRUNED[toc])}: the Chinese build "
                              "deletes the files of its folder that the listings do not name")
            candidates = [f"{folder}/{toc}/{name}.rst"]
            if toc in FUNC_RENAMED:
                candidates.append(f"{folder}/{toc}/{module}.func_{last}.rst")
            found = [c for c in candidates if c in self.ms.files()]
            if found:
                path, note = found[0], "the Chinese API file"
            elif toc in ZH_GENERATED and listed.get(name) == f"{folder}/{ZH_GENERATED[toc]}":
                path, note = listed[name], "listed; the Chinese build writes its page from the English docstring"
            else:
                elsewhere = sorted(p for p in self.ms.files() if p.startswith(folder + "/")
                                   and p.endswith((f"/{name}.rst", f".func_{last}.rst")))
                return None, f"no {' or '.join(candidates)}" + (f" (found: {elsewhere})" if elsewhere else "")
        if anchor:
            member = anchor[len(name) + 1:] if anchor.startswith(name + ".") else None
            if member is None or self.api(anchor)[0] is None:
                return None, f"#{anchor} is not a member of {name} in MindSpore {self.version}"
            if not en and not re.search(rf"py:(method|attribute|function):: {re.escape(member)}\b",
                                        self.ms.read(path)):
                return None, f"{path} documents no {member}"
            note += f"; on the page of {name} ({said})"
            said = self.api(anchor)[1]
        return self.row(url, said, self.ms, path, note), ""

    @staticmethod
    def row(url, api, repo: Repo, path, note) -> Page:
        return Page(url, "ok", "-", api, repo.name, repo.commit, path, note)


HEADER = """# The MindSpore doc pages the course may link (course_utils/doclinks.py and tests/repo/test_doclinks.py).
# Written by scripts/verify_doc_links.py: each "ok" page was found as the source file MindSpore's site builds it
# from (repo, commit, path), and the API it documents resolves in the installed MindSpore (column api).
# "moved" rows: pages that do not exist, with the page that documents the same thing (target); written by hand.
# Sources: {ms_name} at {ms_ref} = {ms_commit} ({ms_date}, version.txt {ms_version}){also};
#          {docs_name} at {docs_ref} = {docs_commit} ({docs_date}).
# The newest MindSpore source at hand when this ran was {ms_version}; the api column is what MindSpore {version} has.
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mindspore", required=True, help="git dir of MindSpore's source repository")
    parser.add_argument("--mindspore-name", default="mindspore-ai/mindspore", help="its name, for the evidence")
    parser.add_argument("--ref", default="master", help="the MindSpore ref to verify against")
    parser.add_argument("--also", action="append", default=[], metavar="REF",
                        help="other MindSpore refs to check each page at too (e.g. the release branches r2.6 "
                             "r2.7.rc1); the row's note says where it holds")
    parser.add_argument("--docs", required=True, help="git dir of MindSpore's docs repository")
    parser.add_argument("--docs-name", default="mindspore-ai/docs")
    parser.add_argument("--docs-ref", default="master")
    parser.add_argument("--source-note", default="", help="a line for the list's header about the sources (kept by "
                                                           "later runs: a '# Note:' line)")
    parser.add_argument("--add", action="store_true", help="also verify the course's links that the list lacks")
    parser.add_argument("--write", action="store_true", help="write course_utils/mindspore_pages.tsv")
    args = parser.parse_args(argv)
    ms = Repo(args.mindspore, args.ref, args.mindspore_name)
    docs = Repo(args.docs, args.docs_ref, args.docs_name)
    verifier = Verifier(ms, docs)
    others = [Verifier(Repo(args.mindspore, ref, args.mindspore_name), docs) for ref in args.also]
    old = doclinks.load_pages() if doclinks.PAGES.exists() else {}
    urls = set(old) | {page.target for page in old.values() if page.status == "moved"}
    if args.add:
        urls |= {doclinks.canonical(url) for _, _, url in doclinks.links()}
    rows, failed = {}, []
    for url in sorted(urls):
        if url in old and old[url].status == "moved":
            page, why = verifier.verify(url)
            if page is not None:
                failed.append(f"{url}: listed as moved, but it exists now ({page.path}): remove its row")
            rows[url] = old[url]
            continue
        page, why = verifier.verify(url)
        if page is None:
            failed.append(f"{url}: {why}")
            continue
        if others and page.repo == ms.name:
            held = [o.ms.ref for o in others if o.verify(url)[0] is not None]
            absent = [o.ms.ref for o in others if o.ms.ref not in held]
            page = dataclasses.replace(page, note=page.note + (f"; also at {', '.join(held)}" if held else "")
                                       + (f"; absent at {', '.join(absent)}" if absent else ""))
        rows[url] = page
    for url, page in rows.items():
        if page.status == "moved" and (page.target not in rows or rows[page.target].status != "ok"):
            failed.append(f"{url}: moved to {page.target}, which is not a verified page (add it: --add)")
    verified = sum(1 for url in urls if url in rows and rows[url].status == "ok")
    print(f"{verified} of {len(urls)} pages verified against {ms.name}@{ms.commit[:10]}, "
          f"{docs.name}@{docs.commit[:10]} and MindSpore {verifier.version}")
    for line in failed:
        print("NOT VERIFIED " + line)
    if args.write:
        notes = [ln.rstrip("\n") for ln in (doclinks.PAGES.read_text(encoding="utf-8").splitlines()
                                            if doclinks.PAGES.exists() else []) if ln.startswith("# Note: ")]
        if args.source_note and f"# Note: {args.source_note}" not in notes:
            notes.append(f"# Note: {args.source_note}")
        doclinks.save_pages(rows.values(), HEADER.format(
            also=f", rows also checked at {', '.join(o.ms.ref + ' = ' + o.ms.commit[:10] for o in others)}"
            if others else "", ms_name=ms.name, ms_ref=ms.ref, ms_commit=ms.commit, ms_date=ms.date,
            ms_version=ms.version(),
            docs_name=docs.name, docs_ref=docs.ref, docs_commit=docs.commit, docs_date=docs.date,
            version=verifier.version) + "".join(f"{line}\n" for line in notes))
        print(f"wrote {doclinks.PAGES.relative_to(ROOT)} ({len(rows)} rows)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
