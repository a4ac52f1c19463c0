"""The Sphinx extension of the course website: what the stored lessons look like as pages.

* ``source-read``: a notebook is shown as :func:`sources.site_notebook` makes it (tqdm bars dropped, widgets as
  their text, a target per Markdown cell, links to site pages); the file itself stays as stored, so the copy Sphinx
  puts into ``_sources/`` (the page's download) is the stored notebook byte for byte.
* ``doctree-read``: every code cell's container gets the id ``cell-<id>`` (the cell ids are the same in both
  editions: the language switch keeps the reader's place); a lesson page gets its card (prerequisites, measured run
  time, where its outputs came from, download / source / JupyterLab / classroom-server links) after its title.
* ``html-page-context``: ``<link rel="alternate" hreflang>`` to the twin page, the language switch, the page's own
  language (a guide without a Chinese version yet is English inside the Chinese site), Pagefind's markers.
* Sphinx's own search is off (it indexes no Chinese without jieba and does not segment queries); ``search.html`` is
  Pagefind's UI over the index ``build.py`` writes after both editions are built.
* ``build-finished``: the MathJax 3 files a page loads, from the ``sphinx-mathjax-offline`` wheel: no CDN.
"""

from __future__ import annotations

import html
import json
import shutil
from importlib import metadata
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

import sources

logger = logging.getLogger(__name__)
#: What MathJax's tex-chtml component loads at run time (its fonts, TeX extensions it autoloads, the menu and its
#: accessibility parts); the wheel's other builds (SVG output, MathML input, node) are not copied.
MATHJAX_FILES = ("tex-chtml.js", "output/chtml", "input/tex/extensions", "ui", "a11y", "sre")


def _data(app: Sphinx) -> dict:
    return app.env.course_site


def builder_inited(app: Sphinx) -> None:
    app.env.course_site = json.loads((Path(app.srcdir) / sources.PAGE_DATA).read_text(encoding="utf-8"))
    app.builder.search = False          # Pagefind searches the site (build.py); Sphinx writes no index or page


def source_read(app: Sphinx, docname: str, content: list) -> None:
    page = _data(app)["pages"].get(docname)
    if not page or page["kind"] != "lesson":
        return
    nb = json.loads(content[0])
    here = str(Path(page["repo_path"]).parent)
    link = sources.linker(_data(app))
    nb = sources.site_notebook(nb, lambda target: link(target, here, "lessons"))
    content[0] = json.dumps(nb, ensure_ascii=False)


def doctree_read(app: Sphinx, doctree: nodes.document) -> None:
    docname = app.env.docname
    page = _data(app)["pages"].get(docname)
    if not page or page["kind"] != "lesson":
        return
    stored = json.loads((Path(app.srcdir) / f"{docname}.ipynb").read_text(encoding="utf-8"))
    ids = [cell.get("id") for cell in stored["cells"]]
    for node in doctree.findall(nodes.container):
        if node.get("nb_element") == "cell_code" and node.get("cell_index") is not None:
            cell_id = ids[node["cell_index"]]
            if cell_id:
                node["ids"].append(sources.cell_anchor(cell_id))
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        logger.warning(f"{docname}: a lesson without a title heading gets no lesson card")
        return
    title = next(iter(section.findall(nodes.title)))
    title.parent.insert(title.parent.index(title) + 1,
                        nodes.raw("", lesson_card(_data(app), page), format="html"))


def lesson_card(data: dict, page: dict) -> str:
    """The box under a lesson's title: what it needs, how long it runs, where its outputs came from, how to run it."""
    words, lesson, options = data["words"], page["lesson"], data["options"]
    esc = html.escape
    titles = data["lessons"]
    requires = ", ".join(
        f'<a href="{esc(titles[n]["name"])}.html">{esc(n)} · {_code_spans(esc(titles[n]["title"]))}</a>'
        for n in lesson["requires"]) or esc(words["card_requires_none"])
    prov = lesson["provenance"]
    unknown = words["card_unknown"]
    if lesson["run_seconds"] is None:
        run_time = esc(words["card_run_time_unknown"])
    else:
        run_time = esc(words["card_run_time_value"].format(run_time=lesson["run_time"], cpus=prov["cpus"] or unknown,
                                                           seconds=lesson["run_seconds"]))
    load = prov.get("load_average") or [None, None]
    fields = {"mindspore": prov["mindspore"] or unknown, "cpus": prov["cpus"] or unknown,
              "load_before": unknown if load[0] is None else load[0],
              "load_after": unknown if load[1] is None else load[1],
              "date": prov["date"] or unknown, "commit": (prov["commit"] or unknown)[:12]}
    template = words["card_outputs_uncommitted" if prov["uncommitted"] or not prov["commit"] else "card_outputs_value"]
    outputs = esc(template.format(**fields))
    if prov["commit"] and options["repository"] and not prov["uncommitted"]:
        commit = esc(fields["commit"])
        outputs = outputs.replace(commit, f'<a href="{esc(options["repository"])}/commit/{esc(prov["commit"])}">'
                                          f'<code>{commit}</code></a>', 1)
    notebook = Path(lesson["notebook"]).name
    links = [f'<a class="course-download" href="../_sources/lessons/{esc(notebook)}" download="{esc(notebook)}">'
             f'{esc(words["download"])}</a>']
    if options["repository"]:
        links.append(f'<a href="{esc(options["repository"])}/blob/{esc(options["branch"])}/{esc(lesson["notebook"])}">'
                     f'{esc(words["view_source"])}</a>')
    else:
        links.append(f'<a href="../_sources/lessons/{esc(notebook)}" type="application/json">'
                     f'{esc(words["view_source"])}</a>')
    if options["hub"]:
        in_home = notebook if data["edition"]["code"] == "en" else f'{data["edition"]["code"]}/{notebook}'
        links.append(f'<a class="course-hub" href="{esc(options["hub"])}/hub/user-redirect/lab/tree/{esc(in_home)}">'
                     f'{esc(words["open_hub"])}</a>')
    lab_target = "lab" if data["edition"]["code"] == "en" else "lab-" + data["edition"]["code"]
    commands = words["open_lab_commands"].format(
        repository=options["repository"] or words["repository_placeholder"], lab_target=lab_target)
    body = esc(words["open_lab_body"].format(notebook=lesson["notebook"]))
    body = _code_spans(body)
    return (
        f'<aside class="course-card" aria-label="{esc(words["card_label"])}" data-pagefind-ignore="all">'
        f'<dl>'
        f'<dt>{esc(words["card_requires"])}</dt><dd>{requires}</dd>'
        f'<dt>{esc(words["card_run_time"])}</dt><dd>{run_time}</dd>'
        f'<dt>{esc(words["card_outputs"])}</dt><dd class="course-provenance">{outputs}</dd>'
        f'<dt>{esc(words["card_get"])}</dt><dd><ul class="course-links">'
        + "".join(f"<li>{link}</li>" for link in links) +
        f'</ul><details class="course-open-lab"><summary>{esc(words["open_lab_summary"])}</summary>'
        f'<p>{body}</p><pre><code>{esc(commands)}</code></pre></details></dd>'
        f'</dl></aside>')


def _code_spans(escaped: str) -> str:
    parts = escaped.split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def html_page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    data = _data(app)
    page = data["pages"].get(pagename)
    edition, twin = data["edition"], data["twin"]
    depth = pagename.count("/")
    up = "../" * (depth + 1)                       # from this page to the site's root (above en/ and zh-CN/)
    twin_url = f'{up}{twin["folder"]}/{pagename}.html'
    context["course_twin"] = {"url": twin_url, "lang": twin["folder"], "label": data["words"]["switch"],
                              "title": data["words"]["switch_title"]}
    context["course_root"] = up
    words = dict(data["words"])
    words["search_intro_html"] = _code_spans(html.escape(words["search_intro"]))
    context["course_words"] = words
    if pagename == "search":
        context["title"] = words["search_title"]
    alternates = [(edition["folder"], f"{up}{edition['folder']}/{pagename}.html"), (twin["folder"], twin_url),
                  ("x-default", f"{up}index.html")]
    context["metatags"] = context.get("metatags", "") + "".join(
        f'\n<link rel="alternate" hreflang="{lang}" href="{html.escape(url)}" />' for lang, url in alternates)
    if page is None:                               # search.html, genindex: not in the index
        context["course_index"] = False
        return
    context["course_index"] = page["lang"] == edition["folder"]
    if page["lang"] != edition["folder"]:          # an English guide inside the Chinese site
        context["language"] = page["lang"]
        context["course_note"] = data["words"]["english_only"]
        context["course_note_lang"] = edition["folder"]


def build_finished(app: Sphinx, exc) -> None:
    if exc is not None or app.builder.format != "html":
        return
    source = Path(str(metadata.distribution("sphinx-mathjax-offline").locate_file("sphinx-mathjax-offline")))
    source = source / "static" / "mathjax"
    target = Path(app.outdir) / "_static" / "mathjax"
    for rel in MATHJAX_FILES:
        src, dst = source / rel, target / rel
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True)
        else:
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", builder_inited)
    app.connect("source-read", source_read)
    app.connect("doctree-read", doctree_read)
    app.connect("html-page-context", html_page_context)
    app.connect("build-finished", build_finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
