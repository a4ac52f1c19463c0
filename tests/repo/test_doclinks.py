"""MindSpore doc links: every link of the course in one form, to a page known to exist (course_utils/doclinks.py,
the list course_utils/mindspore_pages.tsv), and the rewrite tool that keeps them so."""

import importlib.util
import json
import re
import subprocess

import pytest

from course_utils import doclinks
from course_utils.doclinks import RELEASE, SITE, Page
from course_utils.i18n.notebooks import text_hash

PAGES = doclinks.load_pages()
ADAM = f"{SITE}docs/en/{RELEASE}/api_python/nn/mindspore.nn.Adam.html"
ADAM_ZH = f"{SITE}docs/zh-CN/{RELEASE}/api_python/nn/mindspore.nn.Adam.html"


def test_every_link_of_the_course_is_in_the_one_form_and_verified():
    problems = doclinks.check()
    assert not problems, (
        f"{len(problems)} MindSpore link(s) to fix (python -m course_utils.doclinks rewrite fixes the form and moved "
        "pages; a new page needs scripts/verify_doc_links.py --add):\n" + "\n".join(map(str, problems[:40])))


def test_the_check_reads_every_place_links_live():
    """The English lessons, the catalogues, the built Chinese notebooks and course_utils' messages all hold links;
    README*.md, CONTRIBUTING.md and docs/ are read too (whether or not they link MindSpore today)."""
    found = {rel for rel, _, _ in doclinks.links()}
    places = {"notebooks/0", "notebooks/zh/", "i18n/zh/", "course_utils/"}
    assert all(any(rel.startswith(p) for rel in found) for p in places), sorted(found)
    files = {p.relative_to(doclinks.ROOT).as_posix() for p in doclinks.course_files()}
    assert {"README.md", "README.zh.md", "CONTRIBUTING.md"} <= files
    assert any(f.startswith("docs/") for f in files) and not any(f.startswith(("tests/", ".venv/")) for f in files)


def test_the_list_is_well_formed():
    for url, page in PAGES.items():
        assert url == doclinks.canonical(url) and url.startswith(SITE), f"{url}: not in the one form"
        assert page.status in ("ok", "moved"), f"{url}: status {page.status!r}"
        assert re.fullmatch(r"[\w.-]+/[\w.-]+", page.repo) and re.fullmatch(r"[0-9a-f]{40}", page.commit), (
            f"{url}: the evidence needs a repository and a full commit: {page}")
        assert page.path and page.note, f"{url}: the evidence needs the source path and a note: {page}"
        if page.status == "moved":
            assert page.target in PAGES and PAGES[page.target].status == "ok", (
                f"{url} moved to {page.target}, which must be a verified page of the list")
        else:
            assert page.target == "-", f"{url}: only a moved page has a target"


def test_every_listed_api_is_what_the_installed_mindspore_has():
    """The api column records what the pinned wheel has under the page's name: it still has it. On another release
    (make test-compat) the column says nothing: names new since that release are expected to be missing there."""
    import mindspore

    from course_utils import pins

    pinned = pins.pins()["mindspore"]
    if mindspore.__version__ != pinned:
        pytest.skip(f"the list was verified with the pinned MindSpore {pinned}; {mindspore.__version__} is installed")
    checked = 0
    for url, page in PAGES.items():
        if page.status != "ok" or page.api == "-":
            continue
        version, _, kind = page.api.partition(" ")
        name = doclinks.api_name(url)
        assert name, f"{url}: the api column is set, but the url names no API"
        assert version == mindspore.__version__, f"{url}: verified with MindSpore {version}, installed is " \
                                                 f"{mindspore.__version__}: re-run scripts/verify_doc_links.py"
        assert doclinks.resolve(name) == kind, f"{url}: MindSpore {version} has {name} as {kind!r}, now " \
                                               f"{doclinks.resolve(name)!r}"
        checked += 1
    assert checked >= 100


@pytest.mark.parametrize("url, name", [
    (ADAM, "mindspore.nn.Adam"),
    (f"{SITE}docs/en/{RELEASE}/api_python/nn/mindspore.nn.Cell.html#mindspore.nn.Cell.set_train",
     "mindspore.nn.Cell.set_train"),
    (f"{SITE}docs/zh-CN/{RELEASE}/api_python/dataset/dataset_method/batch/mindspore.dataset.Dataset.batch.html",
     "mindspore.dataset.Dataset.batch"),
    (f"{SITE}docs/en/{RELEASE}/api_python/mindspore.nn.html#loss-function", "mindspore.nn"),
    (f"{SITE}tutorials/en/{RELEASE}/beginner/train.html", None)])
def test_api_name_reads_the_page(url, name):
    assert doclinks.api_name(url) == name


def test_the_one_form():
    assert doclinks.canonical("http://mindspore.cn/docs/en/r2.10/api_python/nn/mindspore.nn.Adam.html.") == ADAM
    assert doclinks.canonical(ADAM.replace(RELEASE, "r2.10")) == ADAM
    other = ADAM.replace(RELEASE, "r2.3.1")
    assert doclinks.canonical(other) == other          # another release is reported, never rewritten silently
    moved = {"https://www.mindspore.cn/old": Page("https://www.mindspore.cn/old", "moved", ADAM, "-", "a/b", "0" * 40,
                                                  "p", "gone")}
    assert doclinks.canonical("https://mindspore.cn/old", moved) == ADAM


@pytest.mark.parametrize("text, url", [
    (f"see [Adam]({ADAM}).", ADAM), (f"<{ADAM}>", ADAM), (f'<a href="{ADAM}">', ADAM), (f"`{ADAM}`", ADAM),
    (f"'{ADAM}',", ADAM), (f"({SITE}install).", f"{SITE}install")])
def test_a_link_ends_where_markdown_html_or_python_ends_it(text, url):
    assert [doclinks.strip(m.group(0)) for m in doclinks.LINK.finditer(text)] == [url]


def test_problems_name_what_is_wrong():
    pages = {ADAM: PAGES[ADAM], ADAM_ZH: PAGES[ADAM_ZH]}
    assert doclinks.problems_of(ADAM, False, pages) == []
    assert doclinks.problems_of(ADAM_ZH, True, pages) == []
    assert any("release 'r2.10'" in p for p in doclinks.problems_of(ADAM.replace(RELEASE, "r2.10"), False, pages))
    assert any("'zh-CN'" in p for p in doclinks.problems_of(ADAM, True, pages))      # Chinese file, English page
    assert any("not in course_utils/mindspore_pages.tsv" in p
               for p in doclinks.problems_of(ADAM.replace("Adam", "Adamm"), False, pages))
    assert any("one form" in p for p in doclinks.problems_of(ADAM.replace("https://www.", "http://"), False, pages))
    install = {u: Page(u, "ok", "-", "-", "a/b", "0" * 40, "p", "n") for u in (f"{SITE}install", f"{SITE}install/en")}
    assert doclinks.problems_of(f"{SITE}install/en", False, install) == []
    assert doclinks.problems_of(f"{SITE}install", True, install) == []
    assert any("install/en" in p for p in doclinks.problems_of(f"{SITE}install", False, install))


# ---------------------------------------------------------------- the rewrite tool, on a small course
OLD = ADAM.replace(RELEASE, "r2.10")
GONE = f"{SITE}docs/en/{RELEASE}/api_python/mindspore.gone.html"
GONE_ZH = GONE.replace("/en/", "/zh-CN/")


def _pages():
    ok = {u: Page(u, "ok", "-", "-", "a/b", "0" * 40, "p", "n") for u in (ADAM, ADAM_ZH)}
    moved = {GONE: Page(GONE, "moved", ADAM, "-", "a/b", "0" * 40, "p", "gone"),
             GONE_ZH: Page(GONE_ZH, "moved", ADAM_ZH, "-", "a/b", "0" * 40, "p", "gone")}
    return {**ok, **moved}


def _course(root):
    md_fresh = f"Read [Adam]({OLD}).\n"
    md_stale = f"See [gone]({GONE}) and [Adam]({ADAM})\n"
    code = f"x = 1  # {OLD}\nprint(x)"
    nb = {"cells": [
        {"cell_type": "markdown", "id": "aaaa0001", "metadata": {}, "source": md_fresh.splitlines(keepends=True)},
        {"cell_type": "markdown", "id": "aaaa0002", "metadata": {}, "source": md_stale.splitlines(keepends=True)},
        {"cell_type": "code", "execution_count": 1, "id": "aaaa0003", "metadata": {},
         "outputs": [{"name": "stdout", "output_type": "stream", "text": [f"{OLD}\n"]}],
         "source": code.splitlines(keepends=True)}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "notebooks" / "zh").mkdir(parents=True)
    (root / "i18n" / "zh").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "notebooks" / "01_x.ipynb").write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
    old_zh = OLD.replace("/en/", "/zh-CN/")
    catalogue = (f"<!-- cell aaaa0001 markdown en:{text_hash(md_fresh)} -->\n阅读 [Adam]({old_zh})。\n\n"
                 f"<!-- cell aaaa0002 markdown en:{'0' * 12} -->\n参见 [gone]({GONE_ZH})\n\n"
                 f"<!-- cell aaaa0003 code en:{text_hash(code)} same -->\n")
    (root / "i18n" / "zh" / "01_x.md").write_text(catalogue)
    built = json.dumps({"cells": [{"cell_type": "markdown", "id": "aaaa0001", "metadata": {},
                                   "source": [f"阅读 [Adam]({OLD.replace('/en/', '/zh-CN/')})。"]}],
                        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, ensure_ascii=False)
    (root / "notebooks" / "zh" / "01_x.ipynb").write_text(built)
    (root / "README.md").write_text(f"[docs]({OLD})\n")
    (root / "tests" / "test_x.py").write_text(f"BAD = '{OLD}'\n")
    return nb, built


def test_rewrite_brings_every_link_to_the_one_form_and_keeps_the_translation_in_step(tmp_path):
    nb, built = _course(tmp_path)
    changed = doclinks.rewrite(tmp_path, _pages())
    assert changed == ["notebooks/01_x.ipynb", "README.md", "i18n/zh/01_x.md"]
    new = json.loads((tmp_path / "notebooks" / "01_x.ipynb").read_text())
    sources = ["".join(c["source"]) for c in new["cells"]]
    assert sources[0] == f"Read [Adam]({ADAM}).\n"
    assert sources[1] == f"See [gone]({ADAM}) and [Adam]({ADAM})\n"                 # the moved page replaced
    assert sources[2].startswith(f"x = 1  # {ADAM}\n")
    assert new["cells"][2]["outputs"] == nb["cells"][2]["outputs"]                 # outputs are never edited
    catalogue = (tmp_path / "i18n" / "zh" / "01_x.md").read_text()
    assert f"<!-- cell aaaa0001 markdown en:{text_hash(sources[0])} -->" in catalogue   # was in step: stays so
    assert f"<!-- cell aaaa0002 markdown en:{'0' * 12} -->" in catalogue              # was stale: stays stale
    assert f"<!-- cell aaaa0003 code en:{text_hash(sources[2])} same -->" in catalogue
    assert OLD.replace("/en/", "/zh-CN/") not in catalogue and ADAM_ZH in catalogue and GONE_ZH not in catalogue
    assert (tmp_path / "README.md").read_text() == f"[docs]({ADAM})\n"
    assert (tmp_path / "notebooks" / "zh" / "01_x.ipynb").read_text() == built      # built: make zh rebuilds it
    assert OLD in (tmp_path / "tests" / "test_x.py").read_text()                     # the tests' own examples
    assert doclinks.rewrite(tmp_path, _pages()) == []                               # re-running changes nothing


def test_rewrite_dry_run_writes_nothing(tmp_path):
    _course(tmp_path)
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert doclinks.rewrite(tmp_path, _pages(), dry_run=True)
    assert before == {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}


def test_check_on_a_small_course(tmp_path):
    _course(tmp_path)
    (tmp_path / "docs" / "zh").mkdir(parents=True)
    (tmp_path / "docs" / "zh" / "guide.md").write_text(f"[Adam]({ADAM})\n")
    problems = doclinks.check(tmp_path, _pages())
    where = {p.where.split(" ")[0].split(":")[0] for p in problems}
    assert where == {"notebooks/01_x.ipynb", "i18n/zh/01_x.md", "notebooks/zh/01_x.ipynb", "README.md",
                     "docs/zh/guide.md"}
    assert any("'zh-CN'" in p.what for p in problems if p.where.startswith("docs/zh/"))
    doclinks.rewrite(tmp_path, _pages())
    left = {p.where.split(" ")[0].split(":")[0] for p in doclinks.check(tmp_path, _pages())}
    assert left == {"notebooks/zh/01_x.ipynb", "docs/zh/guide.md"}   # built (make zh), and a wrong language


def test_a_notebook_not_stored_as_jupyter_writes_it_is_refused(tmp_path):
    _course(tmp_path)
    path = tmp_path / "notebooks" / "01_x.ipynb"
    path.write_text(json.dumps(json.loads(path.read_text())))        # one line: a rewrite would reformat it all
    with pytest.raises(ValueError, match="not stored as Jupyter writes it"):
        doclinks.rewrite(tmp_path, _pages())


# ---------------------------------------------------------------- the verifier, on small repositories
_spec = importlib.util.spec_from_file_location("verify_doc_links", doclinks.ROOT / "scripts" / "verify_doc_links.py")
verify_doc_links = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(verify_doc_links)

EN_LISTING = """mindspore.nn
============

Loss Function
-------------

.. autosummary::
    :toctree: nn
    :nosignatures:

    mindspore.nn.L1Loss
"""
ZH_LISTING = (EN_LISTING.replace("Loss Function\n-------------", "损失函数\n--------")
              .replace("autosummary", "mscnautosummary"))
ZH_OPS = """mindspore.ops
=============

.. mscnplatformautosummary::
    :toctree: ops

    mindspore.ops.abs
"""
ZH_PRIMITIVES = ZH_OPS.replace("mindspore.ops.abs", "mindspore.ops.Abs")


def _git_repo(path, files):
    for rel, text in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_text(text, encoding="utf-8")
    run = lambda *a: subprocess.run(["git", "-C", str(path), *a], check=True, capture_output=True)
    run("init", "-q", "-b", "master")
    run("add", "-A")
    run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "x")
    return str(path / ".git")


@pytest.fixture(scope="module")
def verifier(tmp_path_factory):
    ms = _git_repo(tmp_path_factory.mktemp("ms"), {
        "version.txt": "2.7.0\n",
        "docs/api/api_python_en/mindspore.nn.rst": EN_LISTING,
        "docs/api/api_python/mindspore.nn.rst": ZH_LISTING,
        "docs/api/api_python/nn/mindspore.nn.L1Loss.rst": "mindspore.nn.L1Loss\n===\n",
        "docs/api/api_python/nn/mindspore.nn.MSELoss.rst": "an orphan: no listing names it\n",
        "docs/api/api_python/mindspore.ops.rst": ZH_OPS,
        "docs/api/api_python/mindspore.ops.primitive.rst": ZH_PRIMITIVES,
        "docs/api/api_python/ops/mindspore.ops.func_abs.rst": "mindspore.ops.abs\n===\n"})
    docs = _git_repo(tmp_path_factory.mktemp("docs"), {
        "tutorials/source_en/beginner/train.md": "# Train\n",
        "tutorials/source_zh_cn/beginner/train.ipynb": "{}",
        "docs/mindspore/source_en/index.rst": f"`install <{SITE}install/en>`_\n"})
    return verify_doc_links.Verifier(verify_doc_links.Repo(ms, "master", "a/ms"),
                                     verify_doc_links.Repo(docs, "master", "a/docs"))


@pytest.mark.parametrize("page, path", [
    ("docs/en/{r}/api_python/nn/mindspore.nn.L1Loss.html", "docs/api/api_python_en/mindspore.nn.rst"),
    ("docs/zh-CN/{r}/api_python/nn/mindspore.nn.L1Loss.html", "docs/api/api_python/nn/mindspore.nn.L1Loss.rst"),
    ("docs/en/{r}/api_python/mindspore.nn.html#loss-function", "docs/api/api_python_en/mindspore.nn.rst"),
    ("docs/zh-CN/{r}/api_python/mindspore.nn.html#损失函数", "docs/api/api_python/mindspore.nn.rst"),
    ("docs/zh-CN/{r}/api_python/ops/mindspore.ops.abs.html", "docs/api/api_python/ops/mindspore.ops.func_abs.rst"),
    ("docs/zh-CN/{r}/api_python/ops/mindspore.ops.Abs.html", "docs/api/api_python/mindspore.ops.primitive.rst"),
    ("tutorials/en/{r}/beginner/train.html", "tutorials/source_en/beginner/train.md"),
    ("tutorials/zh-CN/{r}/beginner/train.html", "tutorials/source_zh_cn/beginner/train.ipynb"),
    ("install/en", "docs/mindspore/source_en/index.rst")])
def test_the_verifier_finds_the_source_of_a_page(verifier, page, path):
    row, why = verifier.verify(SITE + page.format(r=RELEASE))
    assert row is not None, why
    assert row.path == path and row.status == "ok" and re.fullmatch(r"[0-9a-f]{40}", row.commit)


@pytest.mark.parametrize("page, why", [
    ("docs/en/{r}/api_python/nn/mindspore.nn.MSELoss.html", "not listed under :toctree: nn"),
    ("docs/zh-CN/{r}/api_python/nn/mindspore.nn.MSELoss.html", "deletes the files"),      # an orphan Chinese file
    ("docs/en/{r}/api_python/nn/mindspore.nn.NoSuchLoss.html", "absent from MindSpore"),
    ("docs/en/{r}/api_python/mindspore.nn.html#optimizer", "is not a section"),
    ("docs/en/{r}/api_python/mindspore.profiler.html", "no listing"),
    ("tutorials/en/{r}/beginner/nope.html", "no tutorials/source_en/beginner/nope"),
    ("docs/en/r2.3.1/api_python/nn/mindspore.nn.L1Loss.html", "release r2.3.1")])
def test_the_verifier_refuses_a_page_that_does_not_exist(verifier, page, why):
    row, said = verifier.verify(SITE + page.format(r=RELEASE))
    assert row is None and why in said, said


def test_section_anchors_are_the_sites():
    assert verify_doc_links.anchor_of("Loss Function") == "loss-function"
    assert verify_doc_links.anchor_of("损失函数") == "损失函数"
    assert verify_doc_links.anchor_of("LearningRateSchedule类") == "learningrateschedule类"
    assert verify_doc_links.anchor_of("Dynamic LR函数") == "dynamic-lr函数"
