"""What the website is made of, written as a Sphinx source tree per language (no Sphinx in this module).

``site/build.py`` calls :func:`write_sources` for each edition; the Sphinx extension (``course_site.py``) reads
back the page facts it wrote (``_course_site.json``) and :func:`site_notebook` is what it shows of a notebook.
The page list comes from the lesson manifest (``course_utils.lessons``), never from a glob or a literal list, so
the site follows a renumbered or split course by itself. Standard library and ``course_utils`` only: the unit tests
import this module in the course's ``.venv``, where Sphinx is not installed.

The trap this module avoids: the notebooks are copied into the source tree byte for byte (Sphinx copies that file
to ``_sources/``, which the page offers as its download), and everything the site changes in what it *shows* (tqdm
bars dropped, widgets as their text, a target per cell, links) happens on a copy in memory, in
:func:`site_notebook`.
"""

from __future__ import annotations

import copy
import functools
import html
import json
import os
import re
import subprocess
import sys
import urllib.parse
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Dict, List, Mapping, Optional

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:       # .venv-site does not install course_utils: it only needs these stdlib modules
    sys.path.insert(0, str(ROOT))

from course_utils import lessons as manifest
from course_utils.fmt import duration
from course_utils.i18n import glossary

SITE = Path(__file__).resolve().parent
CONTENT = SITE / "content"
PAGE_DATA = "_course_site.json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
#: tqdm's text fallback of a notebook progress bar: "LeNet-5:   0%|          | 0/3748 [00:00<?, ?step/s]". The
#: widget's state is not stored, so this text is all a page could show: a bar frozen at its first frame (the
#: result is in the stream output after it). Dropped.
TQDM_BAR = re.compile(r"^[^\n]{0,80}?\s*\d{1,3}%\|[^\n|]*\|\s*\d+(?:\.\d+)?[kMG]?/(?:\d+(?:\.\d+)?[kMG]?|\?)")
#: The setup cell's summary line, "MindSpore 2.10.0 | device CPU | ..." (runtime.setup prints it in both editions).
SETUP_LINE = re.compile(r"MindSpore (\d+\.\d+(?:\.\d+)?(?:[.\w-]*)?) \|")
#: The documents under docs/ (their Chinese twins under docs/zh/, same names): the site's guide pages, in order.
DOCS = ("instructor", "classroom-server", "offline-bundle", "performance-reference")
#: Sections of the README that become pages: page name -> heading prefix per edition's README.
README_PAGES = {"ascend": {"en": "## Running on Ascend", "zh": "## 在昇腾"}}
INLINE_LINK = re.compile(r"(!?\[(?:`[^`\n]*`|[^\[\]`\n])*\])\(([^)\s]+)(\s+\"[^\"]*\")?\)")


@dataclass(frozen=True)
class Edition:
    """One language of the site: ``build/site/<folder>/``."""

    code: str            #: the course's language code: "en", "zh"
    folder: str          #: URL folder and BCP 47 tag: "en", "zh-CN" (also <html lang> and hreflang)
    sphinx: str          #: Sphinx's language: "en", "zh_CN" (its own UI strings, the theme's)
    readme: str          #: the README of this edition

    @property
    def docs(self) -> Path:
        return ROOT / "docs" if self.code == "en" else ROOT / "docs" / self.code


EDITIONS: Dict[str, Edition] = {
    "en": Edition("en", "en", "en", "README.md"),
    "zh": Edition("zh", "zh-CN", "zh_CN", "README.zh.md"),
}


def other(code: str) -> Edition:
    (twin,) = [e for c, e in EDITIONS.items() if c != code]
    return twin


@dataclass
class Options:
    """What a build can be told (``make site SITE_REPOSITORY=... SITE_HUB=...``)."""

    repository: Optional[str] = None   #: e.g. https://github.com/org/course: "view source" links, clone commands
    branch: str = "main"
    hub: Optional[str] = None          #: a classroom JupyterHub, e.g. http://10.0.0.5:8000: "open on the hub" links

    def __post_init__(self):
        for name in ("repository", "hub"):
            value = getattr(self, name)
            if value in ("", None):
                setattr(self, name, None)
                continue
            parts = urllib.parse.urlsplit(value)
            if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
                raise ValueError(f"site option {name}={value!r} (str) is not an http(s) address without query or "
                                 f"fragment, e.g. {'https://github.com/org/course' if name == 'repository' else 'http://10.0.0.5:8000'}")
            setattr(self, name, value.rstrip("/"))
        if not re.fullmatch(r"[\w./-]+", self.branch or ""):
            raise ValueError(f"site option branch={self.branch!r} (str) is not a git branch name")


# ----------------------------------------------------------------------------------------------------------------
# Facts about a stored notebook
# ----------------------------------------------------------------------------------------------------------------

def _git(*args: str) -> Optional[str]:
    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def provenance(path: Path) -> dict:
    """Where the stored outputs of ``path`` came from: MindSpore (the setup cell's line), the machine and run time
    the executor recorded (``metadata.course``), and the commit that stored them (git; "working tree" when the file
    has uncommitted changes, None outside a clone)."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    course = nb.get("metadata", {}).get("course", {}) or {}
    facts = {"mindspore": None, "cpus": course.get("cpus"), "load_average": course.get("load_average"),
             "run_seconds": course.get("run_seconds"), "commit": None, "date": None, "uncommitted": False}
    for cell in nb.get("cells", []):
        for out in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            text = "".join(out.get("text", "")) if out.get("output_type") == "stream" else ""
            m = SETUP_LINE.search(text)
            if m and facts["mindspore"] is None:
                facts["mindspore"] = m.group(1)
    rel = path.resolve().relative_to(ROOT).as_posix()
    log = _git("log", "-1", "--format=%H %cs", "--", rel)
    if log:
        facts["commit"], facts["date"] = log.split()
    status = _git("status", "--porcelain", "--", rel)
    if status:
        facts["uncommitted"] = True
    return facts


def _lesson_facts(lesson: manifest.Lesson, code: str) -> dict:
    path = lesson.path(code)
    seconds = lesson.run_seconds(code)
    return {
        "number": lesson.number, "name": lesson.name, "title": lesson.title[code],
        "summary": lesson.summary[code], "requires": list(lesson.requires),
        "run_seconds": seconds,
        "run_time": None if seconds is None else duration(seconds, code),
        "notebook": path.relative_to(ROOT).as_posix(),
        "provenance": provenance(path),
    }


# ----------------------------------------------------------------------------------------------------------------
# What a page shows of a notebook
# ----------------------------------------------------------------------------------------------------------------

def is_progress_bar(output: Mapping) -> bool:
    """A tqdm notebook bar: a widget whose only fallback is the bar's text."""
    data = output.get("data", {})
    return WIDGET_VIEW in data and bool(TQDM_BAR.match("".join(data.get("text/plain", ""))))


def jupyter_anchor(heading: str) -> str:
    """The anchor JupyterLab gives a Markdown heading ("Two CPU settings" -> "Two-CPU-settings")."""
    return heading.strip().replace(" ", "-")


def cell_anchor(cell_id: str) -> str:
    """The HTML id of a cell on its page: the same in both editions (the catalogue keeps the cell ids)."""
    return f"cell-{cell_id}"


def markdown_anchors(nb: dict) -> Dict[str, str]:
    """Jupyter-style heading anchors (``Two-CPU-settings``) of a notebook's Markdown cells -> the cell's id. An
    explicit ``<a id="...">`` is not listed: it stays in the page as written."""
    headings: Dict[str, str] = {}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "markdown":
            for line in "".join(cell.get("source", "")).splitlines():
                m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
                if m:
                    headings.setdefault(jupyter_anchor(m.group(1)), cell.get("id"))
    return headings


@functools.lru_cache(maxsize=None)
def notebook_anchors(path: Path) -> Dict[str, str]:
    """``markdown_anchors`` of the stored notebook at ``path`` (empty if it cannot be read)."""
    try:
        return markdown_anchors(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return {}


def site_notebook(nb: dict, rewrite_link) -> dict:
    """The notebook as its page shows it (a copy): progress bars dropped, other widgets as their text fallback,
    a target ``cell-<id>`` before every Markdown cell (code cells get theirs in the extension), links through
    ``rewrite_link(target) -> target or None`` (None: keep the text, drop the link), Jupyter-style heading anchors
    (``#Two-CPU-settings``) pointed at the cell of that heading."""
    nb = copy.deepcopy(nb)
    headings = markdown_anchors(nb)
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            outputs = []
            for out in cell.get("outputs", []):
                if is_progress_bar(out):
                    continue
                if WIDGET_VIEW in out.get("data", {}):
                    out["data"] = {k: v for k, v in out["data"].items() if k != WIDGET_VIEW}
                outputs.append(out)
            cell["outputs"] = outputs
        elif cell.get("cell_type") == "markdown":
            source = "".join(cell.get("source", ""))

            def local(target, _headings=headings):
                if target.startswith("#"):
                    cell_id = _headings.get(urllib.parse.unquote(target[1:]))
                    return f"#{cell_anchor(cell_id)}" if cell_id else target
                return rewrite_link(target)

            source = rewrite_links(source, local)
            if cell.get("id"):
                source = f'<div id="{cell_anchor(cell["id"])}" class="course-cell-anchor"></div>\n\n' + source
            cell["source"] = source
    return nb


def rewrite_links(markdown: str, rewrite) -> str:
    """Every inline link ``[text](target)`` of ``markdown`` with ``rewrite(target)``: a new target, or None to keep
    only the text. Links inside code spans and fenced code are left alone; a ``#`` target becomes a raw HTML
    link (MyST would look it up as a heading slug, the site's anchors are cell ids)."""
    out, fence = [], None
    for line in markdown.splitlines(keepends=True):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
            out.append(line)
            continue
        if fence is not None:
            if stripped.startswith(fence):
                fence = None
            out.append(line)
            continue
        spans = [m.span() for m in re.finditer(r"(`+).+?\1", line)]     # code spans: never links

        def sub(m, _spans=spans):
            if any(a <= m.start() < b for a, b in _spans):
                return m.group(0)
            return _rewritten(m, rewrite)

        out.append(INLINE_LINK.sub(sub, line))
    return "".join(out)


def _rewritten(m: re.Match, rewrite) -> str:
    text, target, title = m.group(1), m.group(2), m.group(3) or ""
    if target.startswith(("http://", "https://", "mailto:")):
        return m.group(0)
    new = rewrite(target)
    if new is None:
        return text[1:-1] if not text.startswith("!") else m.group(0)
    if (new.startswith("#") or ".html#" in new) and not text.startswith("!"):
        label = text[1:-1]
        return f'<a href="{new}">{_inline_html(label)}</a>'
    return f"{text}({new}{title})"


def _inline_html(markdown_label: str) -> str:
    """A link label as HTML: code spans kept as <code>, everything else escaped."""
    parts = re.split(r"`([^`]*)`", markdown_label)
    return "".join(f"<code>{html.escape(p)}</code>" if i % 2 else html.escape(p) for i, p in enumerate(parts))


# ----------------------------------------------------------------------------------------------------------------
# Links: where a repository path goes on the site
# ----------------------------------------------------------------------------------------------------------------

class Linker:
    """Resolves a link written in a repository file (a lesson, a doc) to the site page of ``edition``.

    ``here`` is the repository folder of the file the link is in; ``page_dir`` the folder of its page in the
    source tree ("lessons", "" for top-level pages). Lessons, docs, the READMEs and the lesson scripts are on the
    site; any other repository file is linked on ``options.repository`` when given, else its link is dropped
    (the text stays: a site without a repository address has nowhere to send it).
    """

    def __init__(self, edition: Edition, options: Options, pages: Mapping[str, str]):
        self.edition, self.options = edition, options
        #: repository path -> docname (without suffix) of this edition's source tree
        self.pages = dict(pages)

    def __call__(self, target: str, here: str, page_dir: str) -> Optional[str]:
        path, _, anchor = target.partition("#")
        if not path:
            return target
        repo_path = os.path.normpath(os.path.join(here, urllib.parse.unquote(path))).replace(os.sep, "/")
        if repo_path.startswith(".."):
            return None
        docname = self.pages.get(repo_path)
        if docname is not None:
            rel = os.path.relpath(docname, page_dir or ".").replace(os.sep, "/")
            if repo_path.endswith(".ipynb") and anchor:
                # A lesson's section: its page's HTML address (MyST would look the anchor up as a heading slug
                # and the site's anchors are cell ids), an explicit <a id> kept, a Jupyter heading anchor mapped.
                cell_id = notebook_anchors(ROOT / repo_path).get(urllib.parse.unquote(anchor))
                return f"{rel}.html#{cell_anchor(cell_id) if cell_id else anchor}"
            suffix = ".ipynb" if repo_path.endswith(".ipynb") else ".md"
            return rel + suffix + (f"#{anchor}" if anchor else "")
        script = re.fullmatch(r"notebooks/(?:[a-z]{2}/)?scripts/([\w.-]+\.py)", repo_path)
        if script:
            return os.path.relpath("lessons/scripts/" + script.group(1), page_dir or ".").replace(os.sep, "/")
        if self.options.repository and (ROOT / repo_path).exists():
            kind = "tree" if (ROOT / repo_path).is_dir() else "blob"
            return f"{self.options.repository}/{kind}/{self.options.branch}/{repo_path}" + (
                f"#{anchor}" if anchor else "")
        return None


# ----------------------------------------------------------------------------------------------------------------
# The source tree of one edition
# ----------------------------------------------------------------------------------------------------------------

def strings(code: str) -> dict:
    """The site's own words in ``code`` (site/content/<code>/strings.json)."""
    return json.loads((CONTENT / code / "strings.json").read_text(encoding="utf-8"))


def readme_section(edition: Edition, heading: str) -> Optional[str]:
    """The section of the edition's README that starts with ``heading`` (a prefix of its heading line), as a page
    (its heading becomes the page title), or None."""
    text = (ROOT / edition.readme).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    level = len(heading) - len(heading.lstrip("#"))
    start = next((i for i, line in enumerate(lines) if line.startswith(heading)), None)
    if start is None:
        return None
    end, fence = len(lines), False
    for i in range(start + 1, len(lines)):
        if lines[i].lstrip().startswith("```"):
            fence = not fence
        m = re.match(r"(#+) ", lines[i])
        if m and not fence and len(m.group(1)) <= level:
            end = i
            break
    body = "".join(lines[start + 1:end])
    return "# " + lines[start][level + 1:].strip() + "\n" + body


def _write(path: Path, data, binary: bool = False) -> None:
    """Write only when the content changed: Sphinx rebuilds what is newer, so unchanged sources stay fast."""
    new = data if binary else data.encode("utf-8")
    if path.exists() and path.read_bytes() == new:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(new)
    os.replace(tmp, path)


def _repo(lesson: manifest.Lesson, code: str) -> str:
    return lesson.path(code).relative_to(ROOT).as_posix()


def lesson_table(code: str, words: dict) -> str:
    rows = [f"| {words['table_lesson']} | {words['table_learn']} | {words['table_requires']} | "
            f"{words['table_time']} |", "|---|---|---|---|"]
    for lesson in manifest.LESSONS:
        seconds = lesson.run_seconds(code)
        when = "-" if seconds is None else duration(seconds, code)
        # repository paths, as in the READMEs: the page's links go through the Linker like every other
        requires = ", ".join(f"[{r}]({_repo(manifest.get(r), code)})" for r in lesson.requires) or "-"
        rows.append(f"| [{lesson.number} · {lesson.title[code]}]({_repo(lesson, code)}) | "
                    f"{lesson.summary[code]} | {requires} | {when} |")
    return "\n".join(rows) + "\n"


def glossary_page(code: str, words: dict) -> str:
    terms = glossary.load()
    if code == "zh":
        head = "| 中文 | English | PyTorch | 不用的译法 |\n|---|---|---|---|\n"
        rows = "".join(f"| {t.zh} | {t.en} | {t.pytorch} | {'、'.join(t.avoid) or '—'} |\n" for t in terms)
    else:
        head = "| English | 中文 (Chinese edition) | PyTorch |\n|---|---|---|\n"
        rows = "".join(f"| {t.en} | {t.zh} | {t.pytorch} |\n" for t in terms)
    return words["glossary_intro"].rstrip() + "\n\n" + head + rows


def toctrees(edition: Edition, words: dict) -> str:
    """The site's navigation (hidden on the home page, shown in the sidebar): lessons, guides, reference."""
    groups = ((words["nav_lessons"], [f"lessons/{lesson.name}" for lesson in manifest.LESSONS]),
              (words["nav_guides"], list(README_PAGES) + list(DOCS)),
              (words["nav_reference"], ["glossary"]))
    return "".join(f"\n```{{toctree}}\n:hidden:\n:caption: {caption}\n\n" + "".join(f"{n}\n" for n in names)
                   + "```\n" for caption, names in groups)


def linker(data: Mapping) -> "Linker":
    """The Linker of a source tree, from its page facts (``PAGE_DATA``)."""
    return Linker(Edition(**data["edition"]), Options(**data["options"]), data["links"])


def page_order(edition: Edition) -> List[str]:
    """Docnames of the edition's pages in reading order (index first)."""
    names = ["index"] + [f"lessons/{lesson.name}" for lesson in manifest.LESSONS]
    return names + list(README_PAGES) + list(DOCS) + ["glossary"]


def write_sources(code: str, src: Path, options: Options) -> dict:
    """Write edition ``code``'s Sphinx source tree into ``src``; returns the page facts (also in ``PAGE_DATA``)."""
    edition, twin = EDITIONS[code], other(code)
    words = strings(code)
    src.mkdir(parents=True, exist_ok=True)
    pages: Dict[str, dict] = {}
    repo_pages = {edition.readme: "index", "README.md": "index", "README.zh.md": "index"}
    for lesson in manifest.LESSONS:
        for c in EDITIONS:
            if c == code:
                repo_pages[lesson.path(c).relative_to(ROOT).as_posix()] = f"lessons/{lesson.name}"
    for name in DOCS:
        repo_pages[f"docs/{name}.md"] = name
        if code != "en":
            repo_pages[f"docs/{code}/{name}.md"] = name
    linker = Linker(edition, options, repo_pages)
    expected = set()

    # lessons: the stored files as they are (the page's download), scripts beside them
    for lesson in manifest.LESSONS:
        path = lesson.path(code)
        target = src / "lessons" / path.name
        _write(target, path.read_bytes(), binary=True)
        expected.add(target)
        pages[f"lessons/{lesson.name}"] = {"kind": "lesson", "lang": edition.folder,
                                           "repo_path": path.relative_to(ROOT).as_posix(),
                                           "lesson": _lesson_facts(lesson, code)}
    scripts = manifest.NOTEBOOKS / "scripts"
    for script in sorted(scripts.glob("*.py")):
        target = src / "lessons" / "scripts" / script.name
        _write(target, script.read_bytes(), binary=True)
        expected.add(target)

    def markdown_page(name: str, text: str, here: str, lang: str, repo_path: Optional[str]) -> None:
        text = rewrite_links(text, lambda t: linker(t, here, os.path.dirname(name)))
        target = src / f"{name}.md"
        _write(target, text)
        expected.add(target)
        pages[name] = {"kind": "page", "lang": lang, "repo_path": repo_path}

    # the guide pages: this edition's doc, else the English one (marked as English, not in this edition's index)
    for name in DOCS:
        own = edition.docs / f"{name}.md"
        source = own if own.exists() else ROOT / "docs" / f"{name}.md"
        lang = edition.folder if source == own else EDITIONS["en"].folder
        rel = source.relative_to(ROOT)
        markdown_page(name, source.read_text(encoding="utf-8"), rel.parent.as_posix(), lang, rel.as_posix())
    for name, headings in README_PAGES.items():
        text, lang, readme = readme_section(edition, headings[code]), edition.folder, edition.readme
        if text is None:
            text, lang, readme = readme_section(EDITIONS["en"], headings["en"]), EDITIONS["en"].folder, "README.md"
        markdown_page(name, text, "", lang, readme)

    # the home page and the glossary: the site's own words
    home = (CONTENT / code / "index.md").read_text(encoding="utf-8")
    clone = options.repository or words["repository_placeholder"]
    home = home.replace("{{ lessons }}", lesson_table(code, words)).replace("{{ repository }}", clone)
    home += toctrees(edition, words)
    markdown_page("index", home, "", edition.folder, None)
    pages["index"]["kind"] = "home"
    markdown_page("glossary", glossary_page(code, words), "", edition.folder, "README.zh.md")

    order = page_order(edition)
    assert set(order) == set(pages), (sorted(order), sorted(pages))
    data = {"edition": asdict(edition), "twin": asdict(twin), "options": asdict(options), "order": order,
            "pages": pages, "words": words, "links": repo_pages,
            "lessons": {lesson.number: {"name": lesson.name, "title": lesson.title[code]}
                        for lesson in manifest.LESSONS}}
    target = src / PAGE_DATA
    _write(target, json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True))
    expected.add(target)
    # a lesson that was renamed or removed leaves no page behind
    for path in sorted(src.rglob("*")):
        if path.is_file() and path not in expected:
            path.unlink()
    return data
