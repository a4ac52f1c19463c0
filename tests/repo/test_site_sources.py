"""The website's sources (site/sources.py): what a page shows of a notebook, where links go, which pages exist.

Fast and without Sphinx (it lives in .venv-site): the build itself and the pages in a browser are
tests/browser/test_site.py (make test-full).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from course_utils import lessons
from course_utils.i18n import glossary

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "site"))          # site/'s modules import each other by name
sources = importlib.import_module("sources")

WIDGET = sources.WIDGET_VIEW


def _bar(text):
    return {"output_type": "display_data", "metadata": {},
            "data": {WIDGET: {"model_id": "x", "version_major": 2, "version_minor": 0}, "text/plain": text}}


@pytest.mark.parametrize("text", ["LeNet-5:   0%|          | 0/3748 [00:00<?, ?step/s]",
                                  "resumed:  80%|########  | 3000/3748 [00:00<?, ?step/s]",
                                  "100%|##########| 10/10 [00:01<00:00,  9.50it/s]",
                                  "epochs:  50%|#####     | 1.5k/3k [00:00<?, ?it/s]"])
def test_a_tqdm_bar_is_recognised(text):
    assert sources.is_progress_bar(_bar(text))


@pytest.mark.parametrize("text", ["Huber explorer: an interactive delta slider (run the notebook to move it).",
                                  "accuracy 99% | loss 0.03"])
def test_other_widgets_are_not_progress_bars(text):
    assert not sources.is_progress_bar(_bar(text))


def test_a_page_drops_progress_bars_and_shows_other_widgets_as_their_text():
    nb = {"cells": [{"cell_type": "code", "id": "c1", "source": "", "metadata": {}, "outputs": [
        _bar("LeNet-5:   0%|          | 0/3748 [00:00<?, ?step/s]"),
        _bar("Huber explorer: delta = 1.00"),
        {"output_type": "stream", "name": "stdout", "text": "epoch 1: loss 0.1\n"}]}]}
    shown = sources.site_notebook(nb, lambda target: target)
    outputs = shown["cells"][0]["outputs"]
    assert [o.get("output_type") for o in outputs] == ["display_data", "stream"]
    assert outputs[0]["data"] == {"text/plain": "Huber explorer: delta = 1.00"}
    assert len(nb["cells"][0]["outputs"]) == 3, "the stored notebook itself is not changed"


def test_every_markdown_cell_gets_its_cell_id_as_an_anchor_and_heading_links_follow():
    nb = {"cells": [
        {"cell_type": "markdown", "id": "aa11", "metadata": {},
         "source": "see [below](#Two-CPU-settings) and `[not a link](x.ipynb)`"},
        {"cell_type": "markdown", "id": "bb22", "metadata": {}, "source": "### Two CPU settings\ntext"}]}
    shown = sources.site_notebook(nb, lambda target: target)
    first, second = (c["source"] for c in shown["cells"])
    assert first.startswith('<div id="cell-aa11"')
    assert '<a href="#cell-bb22">below</a>' in first
    assert "`[not a link](x.ipynb)`" in first
    assert second.startswith('<div id="cell-bb22"')


def _linker(code="en", **options):
    edition = sources.EDITIONS[code]
    pages = {edition.readme: "index", "README.md": "index", "README.zh.md": "index",
             "docs/instructor.md": "instructor"}
    for lesson in lessons.LESSONS:
        pages[lesson.path(code).relative_to(ROOT).as_posix()] = f"lessons/{lesson.name}"
    return sources.Linker(edition, sources.Options(**options), pages)


@pytest.mark.parametrize("target,here,page_dir,expected", [
    ("02_functional_training_step.ipynb", "notebooks", "lessons", "02_functional_training_step.ipynb"),
    ("../README.md", "notebooks", "lessons", "../index.md"),
    ("instructor.md#agendas", "docs", "", "instructor.md#agendas"),
    ("scripts/train_dp.py", "notebooks", "lessons", "scripts/train_dp.py"),
    ("../course_utils/solutions.py", "docs", "", None),          # no repository address: text only
    ("../../../outside.md", "docs", "", None),
])
def test_links_go_to_site_pages_or_nowhere(target, here, page_dir, expected):
    assert _linker()(target, here, page_dir) == expected


def test_zh_lessons_link_to_zh_pages_and_scripts():
    link = _linker("zh")
    assert link("02_functional_training_step.ipynb", "notebooks/zh", "lessons") == "02_functional_training_step.ipynb"
    assert link("../../README.zh.md", "notebooks/zh", "lessons") == "../index.md"
    assert link("scripts/train_dp.py", "notebooks/zh", "lessons") == "scripts/train_dp.py"


def test_other_repository_files_link_to_the_repository_when_it_is_given():
    link = _linker(repository="https://github.com/org/course/")
    assert link("../course_utils/solutions.py", "docs", "") == \
        "https://github.com/org/course/blob/main/course_utils/solutions.py"
    assert link("../course_utils", "docs", "") == "https://github.com/org/course/tree/main/course_utils"


def test_rewrite_links_leaves_code_and_absolute_links_alone():
    text = "```\n[a](x.md)\n```\n[b](https://www.mindspore.cn/x) [c](y.md) [`d`](z.md)\n"
    got = sources.rewrite_links(text, lambda target: "NEW")
    assert got == "```\n[a](x.md)\n```\n[b](https://www.mindspore.cn/x) [c](NEW) [`d`](NEW)\n"
    assert sources.rewrite_links("[c](y.md)", lambda target: None) == "c"


@pytest.mark.parametrize("name,value", [("repository", "github.com/org/course"), ("hub", "javascript:alert(1)"),
                                        ("hub", "http://10.0.0.5:8000/?next=x"), ("branch", "main; rm -rf /")])
def test_bad_site_options_are_refused_naming_the_option(name, value):
    with pytest.raises(ValueError, match=rf"site option {name}="):
        sources.Options(**{name: value})


def test_the_page_list_follows_the_lesson_manifest():
    order = sources.page_order(sources.EDITIONS["en"])
    assert order[0] == "index"
    assert [n for n in order if n.startswith("lessons/")] == [f"lessons/{lesson.name}" for lesson in lessons.LESSONS]
    assert {"instructor", "classroom-server", "offline-bundle", "glossary", "ascend"} <= set(order)


@pytest.mark.parametrize("code", ["en", "zh"])
def test_provenance_of_every_stored_lesson(code):
    for lesson in lessons.LESSONS:
        facts = sources.provenance(lesson.path(code))
        assert facts["mindspore"] and facts["mindspore"][0].isdigit(), (lesson.name, facts)
        assert facts["cpus"] and facts["run_seconds"], (lesson.name, facts)


def test_the_ascend_page_is_the_readme_section():
    page = sources.readme_section(sources.EDITIONS["en"], sources.README_PAGES["ascend"]["en"])
    assert page.startswith("# Running on Ascend")
    assert "source /usr/local/Ascend/ascend-toolkit/set_env.sh" in page
    assert "\n## " not in page, "the section ends at the next heading of its level (not at a # comment in code)"


@pytest.mark.parametrize("code", ["en", "zh"])
def test_the_glossary_page_has_every_term(code):
    page = sources.glossary_page(code, sources.strings(code))
    for term in glossary.load():
        assert f"| {term.zh} |" in page


@pytest.mark.parametrize("code", ["en", "zh"])
def test_both_editions_have_every_word_the_site_uses(code):
    assert set(sources.strings(code)) == set(sources.strings("en"))


def test_write_sources_copies_the_stored_notebooks_byte_for_byte_and_removes_stale_pages(tmp_path):
    (tmp_path / "lessons").mkdir()
    stale = tmp_path / "lessons" / "99_removed.ipynb"
    stale.write_text("{}")
    data = sources.write_sources("zh", tmp_path, sources.Options(hub="http://10.0.0.5:8000"))
    assert not stale.exists()
    for lesson in lessons.LESSONS:
        assert (tmp_path / "lessons" / f"{lesson.name}.ipynb").read_bytes() == lesson.path("zh").read_bytes()
        assert data["pages"][f"lessons/{lesson.name}"]["lesson"]["title"] == lesson.title["zh"]
    assert json.loads((tmp_path / sources.PAGE_DATA).read_text(encoding="utf-8"))["options"]["hub"] == \
        "http://10.0.0.5:8000"
    home = (tmp_path / "index.md").read_text(encoding="utf-8")
    assert "{{" not in home and "make lab-zh" in home
    for lesson in lessons.LESSONS:
        assert f"(lessons/{lesson.name}.ipynb)" in home
