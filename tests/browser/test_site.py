"""The course website in a real browser: built with the network cut off, served on 127.0.0.1, every page checked.

The session builds the site once (``site/build.py`` under ``unshare -n``: no network at all, so the build needs
nothing from outside) into a temporary folder, with a classroom hub address so that the hub links are built too,
and serves it with ``site/serve.py``. Then, for every page of both editions (the page list is the lesson
manifest's, through ``site/sources.py``), Chromium must see: no console error, no 4xx/5xx, no request that leaves
loopback, every image decoded, math typeset, as many code cells and outputs as the stored notebook has (tqdm bars
aside), no widget placeholder or tqdm bar, the right ``lang`` and ``hreflang``, no serious axe-core violation, and
at a phone's width no horizontal scrolling (screenshots of both widths go to ``screenshots/site/``: look at them).
Other tests: every internal link resolves (to a file, and to an id on that page), the language switch returns to
the same cell, search finds the expected lesson in its first three results in both languages, and the downloads
are the stored notebooks, byte for byte.

Slow (``make test-full``): the build takes a minute or two on 2 cores. ``COURSE_SITE_BUILT=build/site`` checks an
already built site instead (no build; the offline proof is then not part of the run). Needs .venv-site
(``make site-setup``) and axe-core (``npm ci --prefix site``), both installed by ``make test-full``.
"""

from __future__ import annotations

import html.parser
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

import nbformat
import pytest

from course_utils import lessons

from .conftest import _unavailable
from .settings import ROOT, SCREENSHOTS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SITE_PY = ROOT / ".venv-site" / "bin" / "python"
AXE = ROOT / "site" / "node_modules" / "axe-core" / "axe.min.js"
HUB = "http://127.0.0.1:9/"            # nothing listens there; the links are built, never followed
PHONE = {"width": 390, "height": 844}


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


sys.path.insert(0, str(ROOT / "site"))          # site/'s modules import each other by name
sources = importlib.import_module("sources")
serve = _load("course_site_serve", ROOT / "site" / "serve.py")

#: Search terms and the lesson each must find among its first three results.
SEARCHES = {
    "en": [("value_and_grad", "02"), ("gradient clipping", "03"), ("TrainOneStepCell", "04"),
           ("dataset sink mode", "08"), ("jit_level", "07"), ("save_checkpoint", "06"), ("msrun", "09"),
           ("MindIR", "10"), ("HuberLoss", "01"), ("set_context", "00")],
    "zh": [("梯度裁剪", "03"), ("数据下沉", "08"), ("噪声水平", "07"), ("value_and_grad", "02"), ("检查点", "06"),
           ("早停", "04"), ("数据并行", "09"), ("损失函数", "01"), ("环境准备", "00"), ("导出", "10")],
}


def _unshare_prefix():
    for prefix in (["unshare", "-n", "--"], ["unshare", "-rn", "--"]):
        if shutil.which(prefix[0]) and subprocess.run(prefix + ["true"], capture_output=True).returncode == 0:
            return prefix
    return None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The built site's folder."""
    built = os.environ.get("COURSE_SITE_BUILT")
    if built:
        return Path(built).resolve()
    if not SITE_PY.exists():
        _unavailable(f"{SITE_PY} is missing: make site-setup (make test-full installs it)")
    prefix = _unshare_prefix()
    if prefix is None:
        _unavailable("unshare -n does not work here (root or user namespaces needed): the offline build "
                     "cannot be proven")
    tmp = tmp_path_factory.mktemp("site")
    out = tmp / "site"
    started = time.monotonic()
    result = subprocess.run(prefix + [str(SITE_PY), str(ROOT / "site" / "build.py"), "--out", str(out),
                                      "--work", str(tmp / "work"), "--hub", HUB],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, f"make site failed offline:\n{result.stdout}\n{result.stderr}"
    print(f"\nsite built offline in {time.monotonic() - started:.0f} s: {result.stdout.strip()}")
    return out


@pytest.fixture(scope="module")
def base(site):
    httpd = serve.make_server(site, "127.0.0.1", 0, verbose=False)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def _pages():
    pages = [("root", "index.html", None)]
    for code, edition in sources.EDITIONS.items():
        for name in sources.page_order(edition) + ["search"]:
            pages.append((code, f"{edition.folder}/{name}.html", name))
    return pages


PAGES = _pages()


def _stored(code: str, docname: str):
    if not docname or not docname.startswith("lessons/"):
        return None
    return nbformat.read(lessons.get(docname.split("/", 1)[1]).path(code), as_version=4)


class _Watch:
    """What a page did on the network and the console."""

    def __init__(self, page, base):
        self.problems = []
        host = urllib.parse.urlsplit(base).hostname

        def request(r):
            if urllib.parse.urlsplit(r.url).hostname not in (host, None) and not r.url.startswith(("data:", "blob:")):
                self.problems.append(f"request leaves loopback: {r.url}")

        page.on("request", request)
        page.on("response", lambda r: r.status >= 400 and self.problems.append(f"HTTP {r.status}: {r.url}"))
        page.on("requestfailed", lambda r: self.problems.append(f"request failed: {r.url} ({r.failure})"))
        page.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(
            f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))


@pytest.fixture(scope="module")
def context(browser, base):
    """A fresh browser tab for the module (the shared Chromium of tests/browser/conftest.py)."""
    page = browser.new_page()
    page.set_default_timeout(120_000)   # a loaded 2-core CI machine took 62 s for lesson 05 (load 11)
    yield page
    page.close()


def _slug(path: str) -> str:
    return path.replace("/", "_").replace(".html", "")


@pytest.mark.parametrize("code,path,docname", PAGES, ids=[p[1] for p in PAGES])
def test_page(context, base, code, path, docname):
    page = context
    watch = _Watch(page, base)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + path, wait_until="load")
    if docname != "search":         # the search page's Pagefind worker may keep the network busy: load is enough
        page.wait_for_load_state("networkidle")
    # images: every one loaded and decoded (lazy ones too)
    broken = page.evaluate("""async () => { const bad = [];
        for (const img of document.images) { img.loading = 'eager';
          try { await img.decode(); } catch (e) { bad.push(img.currentSrc || img.src); continue; }
          if (!img.naturalWidth) bad.push(img.currentSrc || img.src); }
        return bad; }""")
    assert not broken, f"{path}: images that do not decode: {broken}"
    # math: MathJax typeset every formula of the page
    if page.locator(".math").count():
        page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
        page.evaluate("MathJax.startup.promise")
        untypeset = page.evaluate("""() => [...document.querySelectorAll('.math')]
            .filter(e => !e.querySelector('mjx-container') && !e.matches('mjx-container')).length""")
        assert untypeset == 0, f"{path}: {untypeset} formulas not rendered"
    # language: <html lang>, hreflang alternates, and the switch to the twin
    lang = page.evaluate("document.documentElement.lang")
    if code != "root":
        edition, twin = sources.EDITIONS[code], sources.other(code)
        assert lang in (edition.folder, "en"), f"{path}: <html lang={lang!r}>"
        alternates = page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
            'link[rel=alternate][hreflang]')].map(l => [l.hreflang, l.href]))""")
        assert set(alternates) >= {edition.folder, twin.folder, "x-default"}, alternates
        assert alternates[twin.folder] == base + f"{twin.folder}/{docname}.html"
        switch = page.locator("a.course-lang-switch")
        assert switch.count() == 1 and switch.get_attribute("hreflang") == twin.folder
    text = page.inner_text("body")
    assert not re.search(r"\d%\|", text), f"{path}: a tqdm bar is left"
    assert page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count() == 0, \
        f"{path}: a widget placeholder is left"
    stored = _stored(code, docname)
    if stored is not None:
        # cells tagged remove-cell (the run-summary cells) are left off the site on purpose
        cells = [c for c in stored.cells if c.cell_type == "code"
                 and "remove-cell" not in c.get("metadata", {}).get("tags", [])]
        want = [len([o for o in c.outputs if not sources.is_progress_bar(o)]) for c in cells]
        got = page.evaluate("""() => [...document.querySelectorAll('article div.cell')].map(c => {
            const out = c.querySelector(':scope > div.cell_output'); return out ? out.children.length : 0; })""")
        assert len(got) == len(cells), f"{path}: {len(got)} code cells on the page, {len(cells)} in the notebook"
        assert got == want, f"{path}: outputs per code cell differ from the notebook: {got} vs {want}"
        assert page.locator(".course-card .course-provenance").inner_text().count("MindSpore") == 1
        assert page.locator(f'.course-card a[href^="{HUB}hub/user-redirect/lab/tree/"]').count() in (0, 1)
    # accessibility: axe-core, serious and critical impacts
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("""async () => { const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
          .map(v => v.id + ': ' + v.help + ' -> ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | ')); }""")
    assert not violations, f"{path}: axe-core: {violations}"
    SCREENSHOTS.joinpath("site").mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "site" / f"{_slug(path)}-desktop.png"))
    # a phone: nothing wider than the screen
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    overflow = page.evaluate("""() => { const w = document.documentElement.clientWidth;
        if (document.documentElement.scrollWidth <= w) return [];
        return [...document.querySelectorAll('body *')].filter(e => { const r = e.getBoundingClientRect();
          if (r.right <= w + 1 || !r.width) return false;
          for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
            if (getComputedStyle(a).overflowX !== 'visible') return false;
          return true; }).slice(0, 5)
          .map(e => e.tagName + '.' + e.className + ': ' + (e.textContent || '').slice(0, 60)); }""")
    assert not overflow, f"{path}: wider than a phone's screen: {overflow}"
    page.screenshot(path=str(SCREENSHOTS / "site" / f"{_slug(path)}-phone.png"))
    assert not watch.problems, f"{path}: " + "; ".join(watch.problems)


class _Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for key in ("href", "src"):
            if attrs.get(key) and tag in ("a", "link", "script", "img", "source"):
                self.links.append(attrs[key])


def test_every_internal_link_resolves(site):
    parsed = {}
    for page in site.rglob("*.html"):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        parsed[page] = parser
    broken = []
    for page, parser in parsed.items():
        for link in parser.links:
            parts = urllib.parse.urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file() or site not in target.parents:
                broken.append(f"{page.relative_to(site)}: {link} (no file)")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in parsed[target].ids:
                broken.append(f"{page.relative_to(site)}: {link} (no id {parts.fragment!r})")
    assert not broken, f"{len(broken)} broken links:\n" + "\n".join(broken[:40])


def _cell_in_view(page, cell_id):
    return page.evaluate("""(id) => { const e = document.getElementById(id); if (!e) return null;
        const r = e.getBoundingClientRect(); return r.top > -5 && r.top < window.innerHeight; }""", cell_id)


@pytest.mark.parametrize("number", [lesson.number for lesson in lessons.LESSONS])
def test_the_language_switch_keeps_the_section(context, base, number):
    """English page at a cell deep in the lesson -> Chinese page at the same cell -> back, both ways."""
    page, lesson = context, lessons.get(number)
    nb = nbformat.read(lesson.path("en"), as_version=4)
    heading = [c for c in nb.cells if c.cell_type == "markdown" and c.source.lstrip().startswith("## ")]
    cell = heading[len(heading) // 2] if heading else nb.cells[len(nb.cells) // 2]
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + f"en/lessons/{lesson.name}.html#cell-{cell.id}", wait_until="load")
    for there in ("zh-CN", "en"):
        with page.expect_navigation(wait_until="load"):
            page.locator("a.course-lang-switch").click()
        assert page.url == base + f"{there}/lessons/{lesson.name}.html#cell-{cell.id}", page.url
        assert page.evaluate("document.documentElement.lang") == there
        assert _cell_in_view(page, f"cell-{cell.id}"), f"{there}: cell {cell.id} is not where the reader is"
    # scrolled by hand to a code cell (no address fragment): the switch finds it from the scroll position
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    code = code_cells[len(code_cells) // 2]
    page.goto(base + f"en/lessons/{lesson.name}.html", wait_until="networkidle")
    for _ in range(3):          # images above it may still change the layout: scroll until the cell stays put
        top = page.evaluate("(id) => { const e = document.getElementById(id); window.scrollTo({top: "
                            "e.getBoundingClientRect().top + window.scrollY - 60, behavior: 'instant'});"
                            " return new Promise(r => setTimeout(() => r(e.getBoundingClientRect().top), 300)); }",
                            f"cell-{code.id}")
        if abs(top - 60) < 2:
            break
    assert abs(top - 60) < 2, f"could not scroll cell {code.id} to the top: it is at {top}px"
    # clicked where it is (Playwright's own click would first scroll the link into view, moving the page)
    with page.expect_navigation(wait_until="load"):
        page.locator("a.course-lang-switch").evaluate("a => a.click()")
    assert page.url.endswith(f"zh-CN/lessons/{lesson.name}.html#cell-{code.id}"), page.url


def test_the_language_switch_keeps_the_section_of_a_guide(context, base):
    page = context
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(base + "en/glossary.html", wait_until="load")
    with page.expect_navigation(wait_until="load"):
        page.locator("a.course-lang-switch").click()
    assert page.url == base + "zh-CN/glossary.html"
    page.goto(base + "en/instructor.html", wait_until="networkidle")      # its images laid out
    sections = page.locator("article.bd-article section[id]")
    target = sections.nth(min(3, sections.count() - 1))
    target.evaluate("e => window.scrollTo({top: e.getBoundingClientRect().top + window.scrollY - 60, "
                    "behavior: 'instant'})")
    page.wait_for_timeout(300)
    index = page.evaluate("""() => { let i = -1; document.querySelectorAll('article.bd-article section[id]')
        .forEach((s, n) => { if (s.getBoundingClientRect().top <= 81) i = n; }); return i; }""")
    with page.expect_navigation(wait_until="load"):
        page.locator("a.course-lang-switch").evaluate("a => a.click()")
    landed = page.evaluate("""() => [...document.querySelectorAll('article.bd-article section[id]')]
        .map(s => s.id).indexOf(location.hash.slice(1))""")
    assert landed == index, (page.url, index)


def _search(page, base, folder, term):
    page.goto(base + f"{folder}/search.html?q=" + urllib.parse.quote(term), wait_until="networkidle")
    page.wait_for_selector(".pagefind-ui__result-link", timeout=30_000)
    page.wait_for_timeout(300)
    return [a.get_attribute("href") for a in page.locator(".pagefind-ui__result-link").all()]


@pytest.mark.parametrize("code", list(SEARCHES))
def test_search_finds_the_expected_lesson(context, base, site, code):
    folder = sources.EDITIONS[code].folder
    lang_key = folder.lower()
    indexes = list((site / "pagefind").glob(f"pagefind.{lang_key}_*.pf_meta"))
    assert indexes, f"no Pagefind index for {folder}: {sorted(p.name for p in (site / 'pagefind').iterdir())}"
    misses = []
    for term, number in SEARCHES[code]:
        results = _search(context, base, folder, term)
        name = lessons.get(number).name
        top = [urllib.parse.urlsplit(r).path for r in results[:3]]
        if not any(p.endswith(f"/{folder}/lessons/{name}.html") for p in top):
            misses.append(f"{term!r}: expected {name} in the top 3, got {top}")
        assert all(f"/{folder}/" in r for r in results), f"{term!r}: results from the other edition: {results}"
    assert not misses, "\n".join(misses)


@pytest.mark.parametrize("code", list(sources.EDITIONS))
def test_downloads_are_the_stored_notebooks(site, base, code):
    """The lesson card's download link, fetched from the server: the stored notebook, byte for byte."""
    folder = sources.EDITIONS[code].folder
    for lesson in lessons.LESSONS:
        page = site / folder / "lessons" / f"{lesson.name}.html"
        m = re.search(r'<a class="course-download" href="([^"]+)"', page.read_text(encoding="utf-8"))
        assert m, f"{page}: no download link"
        url = urllib.parse.urljoin(base + f"{folder}/lessons/{lesson.name}.html", m.group(1))
        with urllib.request.urlopen(url, timeout=30) as response:
            body = response.read()
            assert response.headers["Content-Type"] == "application/x-ipynb+json"
        assert body == lesson.path(code).read_bytes(), f"{url} is not {lesson.path(code)}"
        nbformat.validate(nbformat.reads(body.decode("utf-8"), as_version=4))
        assert json.loads(body)["metadata"]["course"]["run_seconds"] > 0
