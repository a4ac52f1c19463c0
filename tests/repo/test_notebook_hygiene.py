"""Every stored notebook comes from one clean Restart & Run All and follows the lesson template."""

import ast
import functools
import json
import re

import pytest

from course_utils import fmt, lessons
from support import attribute_chains
from support.notebook_outputs import noise_problems

NOTEBOOK_FILES = lessons.paths("en")
#: The Chinese edition, built from the English lessons (course_utils.i18n): the same rules, in Chinese.
ZH_FILES = lessons.paths("zh")
ALLOWED_NB_METADATA = {"kernelspec", "language_info", "course", "language"}
#: Headings and phrases the template rules look for, per edition.
SUMMARY = re.compile(r"^#+ .*(Summary|小结|总结)", re.M)
FURTHER_READING = re.compile(r"^#+\s*(Further reading|延伸阅读|扩展阅读)", re.M | re.I)
RUN_TIME_LINE = re.compile(r"(?:Run time|运行时间)[^\n]*")
ALLOWED_CELL_METADATA = {"tags", "jupyter", "collapsed"}


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _id(path):
    return f"zh/{path.stem}" if path.parent.name == "zh" else path.stem


@pytest.fixture(params=NOTEBOOK_FILES + ZH_FILES, ids=_id)
def nb(request):
    return request.param, load(request.param)


def test_kernelspec_and_metadata(nb):
    path, data = nb
    assert data["metadata"]["kernelspec"]["name"] == "python3", f"{path.name}: kernelspec must be python3"
    stray = set(data["metadata"]) - ALLOWED_NB_METADATA
    assert not stray, f"{path.name}: stray notebook metadata {stray}: run make notebooks"
    for i, cell in enumerate(data["cells"]):
        stray = set(cell.get("metadata", {})) - ALLOWED_CELL_METADATA
        assert not stray, f"{path.name} cell {i}: stray metadata {stray}: run make notebooks"


def test_execution_counts_are_one_clean_run(nb):
    path, data = nb
    counts = [c.get("execution_count") for c in data["cells"] if c["cell_type"] == "code"]
    assert counts == list(range(1, len(counts) + 1)), (
        f"{path.name}: execution counts {counts} are not 1..{len(counts)}: re-run it with make notebooks")


def test_no_errors_or_log_noise_in_outputs(nb):
    path, data = nb
    problems = noise_problems(data)
    assert not problems, f"{path.name}: " + "; ".join(problems)


def test_follows_the_lesson_template(nb):
    path, data = nb
    cells = data["cells"]
    assert cells[0]["cell_type"] == "markdown" and source(cells[0]).lstrip().startswith("# "), (
        f"{path.name}: cell 0 must be the title cell")
    params = [i for i, c in enumerate(cells) if "parameters" in c.get("metadata", {}).get("tags", [])]
    assert len(params) == 1, f"{path.name}: needs exactly one cell tagged 'parameters'"
    assert "import mindspore" not in source(cells[params[0]]), f"{path.name}: parameters cell imports MindSpore"
    code = [source(c) for c in cells if c["cell_type"] == "code"]
    setup_at = next((i for i, s in enumerate(code) if "runtime.setup(" in s), None)
    ms_at = next((i for i, s in enumerate(code) if re.search(r"^\s*(import mindspore|from mindspore)", s, re.M)), None)
    assert setup_at is not None, f"{path.name}: never calls runtime.setup()"
    assert ms_at is None or setup_at <= ms_at, f"{path.name}: imports MindSpore before runtime.setup()"
    assert any(c["cell_type"] == "markdown" and SUMMARY.search(source(c)) for c in cells), (
        f"{path.name}: needs a Summary (小结) section")


def test_papermill_reads_every_parameter(nb):
    """papermill must see each name the parameters cell assigns (e.g. a comment with '=' can hide one),
    with its default, so `make run -p NAME=...` reaches it."""
    import papermill as pm

    path, data = nb
    cell = next(c for c in data["cells"] if "parameters" in c.get("metadata", {}).get("tags", []))
    assigned = re.findall(r"^([A-Za-z_]\w*)\s*(?::[^=]+)?=", source(cell), re.M)
    inferred = pm.inspect_notebook(str(path))
    assert sorted(inferred) == sorted(assigned), (
        f"{path.name}: papermill reads {sorted(inferred)}, cell assigns {sorted(assigned)}")
    for name, info in inferred.items():
        assert info["default"] not in (None, ""), f"{path.name}: papermill found no default for {name}"


# ---------------------------------------------------------------------------------------------
# Course-wide invariants (issue 12): hints not pre-run, API links at first use, further reading,
# run times that agree with what was measured.
# ---------------------------------------------------------------------------------------------

def code_cells(data):
    return [(i, source(c)) for i, c in enumerate(data["cells"]) if c["cell_type"] == "code"]


def test_no_notebook_pre_runs_a_hint_or_solution(nb):
    """A stored lesson ships hints and solutions commented out: `# nb01.q1.hint()`, never called."""
    path, data = nb
    calls = []
    for i, text in code_cells(data):
        tree = parse_cell(text)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("hint", "solution") and re.fullmatch(
                        r"nb\d\d\.q\d+", ast.unparse(node.func.value))):
                calls.append(f"cell {i}: {ast.unparse(node)}")
    assert not calls, f"{path.name} runs a hint or solution before any attempt (comment it out): {calls}"


def test_the_hint_checker_sees_a_pre_run_hint():
    """The check above must be able to fail: a live call is found, a commented one is not."""
    def found(text):
        return [n for n in ast.walk(parse_cell(text)) if isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute) and n.func.attr == "hint"]
    assert found("from course_utils.exercises import nb01\nnb01.q1.hint()")
    assert not found("# nb01.q1.hint()\nx = 1")


# -- API links ---------------------------------------------------------------------------------
# Every MindSpore API a notebook uses for the first time in the course (in course order 00, 01, ...)
# must be linked to its r2.10 reference page in a markdown cell before (or right after) the code cell
# that first uses it. "Uses" means an attribute reached through a MindSpore module alias in a code
# cell (`ms.jit`, `nn.Dense`, `ops.where`, `ds.config.set_seed`, `ms.amp.all_finite`) or a name
# imported from a MindSpore module (`from mindspore.train import Model`); strings and comments do not
# count. The link must be https://www.mindspore.cn/docs/en/r2.10.0/api_python/<folder>/<qualified
# name>.html (the one form; tests/repo/test_doclinks.py checks the page exists); the failure lists each missing API with
# the URL to add.

DOCS = "https://www.mindspore.cn/docs/en/r2.10.0/api_python/"
DOCS_LINK = re.compile(r"https://www\.mindspore\.cn/docs/(?:en|zh-CN)/r2\.10\.0/api_python/[\w./-]*?"
                       r"(mindspore(?:\.\w+)+)\.html")
MS_SUBMODULES = {"nn", "ops", "dataset", "amp", "train", "communication", "vision", "transforms", "config",
                 "runtime", "hal", "device_context", "mint", "parallel", "common", "initializer", "callback",
                 "experimental", "numpy", "profiler", "ascend", "cpu", "gpu", "op_precision", "boost"}
MS_DTYPES = {"float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8",
             "uint16", "uint32", "uint64", "bool_", "complex64", "complex128", "tensor_type", "dtype"}
#: names that have no page of their own, mapped to the page that documents them
API_PAGE_ALIASES = {"mindspore.GRAPH_MODE": "mindspore.set_context",
                    "mindspore.PYNATIVE_MODE": "mindspore.set_context",
                    # jit_syntax_level values, documented with set_context(jit_syntax_level=...)
                    "mindspore.STRICT": "mindspore.set_context", "mindspore.LAX": "mindspore.set_context",
                    "mindspore.COMPATIBLE": "mindspore.set_context",
                    # the function has no page of its own (MindSpore's listings name only the primitive ops.Depend)
                    "mindspore.ops.depend": "mindspore.ops.Depend",
                    # an enum with no page of its own: profile's page documents its values (activities=...)
                    "mindspore.profiler.ProfilerActivity": "mindspore.profiler.profile"}
DOC_FOLDERS = (  # longest prefix first
    ("mindspore.dataset.vision.", "dataset_vision"), ("mindspore.dataset.transforms.", "dataset_transforms"),
    ("mindspore.dataset.", "dataset"), ("mindspore.nn.", "nn"), ("mindspore.ops.", "ops"),
    ("mindspore.amp.", "amp"), ("mindspore.train.", "train"), ("mindspore.communication.", "communication"),
    ("mindspore.runtime.", "runtime"), ("mindspore.hal.", "hal"), ("mindspore.device_context.", "device_context"),
    ("mindspore.mint.", "mint"), ("mindspore.", "mindspore"))


def parse_cell(text):
    """The cell as a Python AST; IPython magics and shell lines are blanked first."""
    lines = ["" if ln.lstrip().startswith(("%", "!")) else ln for ln in text.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return ast.parse("")


def doc_url(api):
    """The r2.10 reference page of a qualified MindSpore name."""
    folder = next(f for prefix, f in DOC_FOLDERS if api.startswith(prefix))
    return f"{DOCS}{folder}/{api}.html"


def _canonical(parts):
    """mindspore.<submodules...>.<Name>: stop after the first part that is not a submodule."""
    out = [parts[0]]
    for part in parts[1:]:
        out.append(part)
        if part not in MS_SUBMODULES:
            break
    if out[-1] in MS_SUBMODULES or out[-1].startswith("__"):
        return None                       # a module itself (ms.nn) or a dunder (ms.__version__)
    if out[-1] in MS_DTYPES:
        return "mindspore.dtype"
    api = ".".join(out)
    return API_PAGE_ALIASES.get(api, api)


def apis_used(text, aliases):
    """Qualified MindSpore APIs a code cell uses; ``aliases`` (name -> module) grows with its imports."""
    found = []
    tree = parse_cell(text)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "mindspore" or a.name.startswith("mindspore."):
                    aliases[a.asname or a.name.split(".")[0]] = a.name if a.asname else "mindspore"
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "mindspore":
            for a in node.names:
                if a.name in MS_SUBMODULES or a.name == "dtype":
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
                elif a.name != "*":
                    api = _canonical(node.module.split(".") + [a.name])
                    if api:
                        found.append((node.lineno, node.col_offset, api))
    for node, base, chain in attribute_chains(tree):
        if base in aliases:
            api = _canonical(aliases[base].split(".") + chain)
            if api:
                found.append((node.lineno, node.col_offset, api))
    return [api for *_, api in sorted(found)]


def linked_apis(markdown):
    return set(DOCS_LINK.findall(markdown))


@functools.lru_cache(maxsize=None)
def missing_api_links(files=tuple(NOTEBOOK_FILES)):
    """{notebook: [(api, first-use cell, url), ...]} over the whole course (one edition), in course order.
    The Chinese edition may link the Chinese reference pages (docs/zh-CN/...)."""
    seen, missing = set(), {}
    for path in files:
        cells = load(path)["cells"]
        aliases, first_use = {}, {}
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                for api in apis_used(source(cell), aliases):
                    if api not in seen:
                        first_use.setdefault(api, i)
        for api, i in first_use.items():
            # a link counts in any markdown cell up to the first use, or in the one right after it
            window = [source(c) for c in cells[:i] if c["cell_type"] == "markdown"]
            if i + 1 < len(cells) and cells[i + 1]["cell_type"] == "markdown":
                window.append(source(cells[i + 1]))
            if api not in linked_apis("\n".join(window)):
                missing.setdefault(path.name, []).append((api, i, doc_url(api)))
        seen |= set(first_use)
    return missing


def test_every_api_is_linked_where_the_course_first_uses_it(nb):
    path, _ = nb
    missing = missing_api_links(tuple(ZH_FILES if path.parent.name == "zh" else NOTEBOOK_FILES)).get(path.name, [])
    assert not missing, (
        f"{path.name}: {len(missing)} MindSpore APIs used here for the first time in the course have no r2.10 "
        "docs link in a markdown cell before (or right after) their first use. Add e.g. "
        "[`mindspore.jit`](URL) where the lesson introduces them:\n"
        + "\n".join(f"  cell {i}: {api} -> {url}" for api, i, url in missing))


def test_the_api_finder_resolves_aliases_and_ignores_strings():
    aliases = {}
    text = ("import mindspore as ms\nimport mindspore.dataset as ds\nfrom mindspore import nn, ops\n"
            "from mindspore.train import Model\nfrom mindspore import dtype as mstype\n"
            "x = ms.Tensor([1.0], ms.float32)  # ms.jit in a comment\ns = 'ops.where in a string'\n"
            "class Net(nn.Cell): pass\nds.config.set_seed(1)\nok = ms.amp.all_finite(x)\n"
            "ms.set_context(mode=ms.GRAPH_MODE)\n"
            "y = mstype.float16\nz = ms.__version__\nnet = Net()\nnet.trainable_params()\n")
    assert apis_used(text, aliases) == [
        "mindspore.train.Model", "mindspore.Tensor", "mindspore.dtype", "mindspore.nn.Cell",
        "mindspore.dataset.config.set_seed", "mindspore.amp.all_finite", "mindspore.set_context",
        "mindspore.set_context", "mindspore.dtype"]
    assert doc_url("mindspore.nn.Dense") == "https://www.mindspore.cn/docs/en/r2.10.0/api_python/nn/mindspore.nn.Dense.html"
    assert linked_apis("see [Dense](https://www.mindspore.cn/docs/en/r2.10.0/api_python/nn/mindspore.nn.Dense.html)"
                       " and [jit](https://www.mindspore.cn/docs/en/r2.10.0/api_python/mindspore/mindspore.jit.html)"
                       ) == {"mindspore.nn.Dense", "mindspore.jit"}
    assert not linked_apis("https://www.mindspore.cn/docs/en/r2.10/api_python/nn/mindspore.nn.Dense.html")
    assert not linked_apis("https://www.mindspore.cn/docs/en/r2.3.1/api_python/nn/mindspore.nn.Dense.html")


def test_ends_with_further_reading(nb):
    """A '## Further reading' section with links to MindSpore's docs or tutorials, after the exercises."""
    path, data = nb
    cells = data["cells"]
    at = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"
          and FURTHER_READING.search(source(c))]
    assert at, f"{path.name}: needs a '## Further reading' section (official tutorials and docs pages) at the end"
    text = source(cells[at[-1]])
    assert re.search(r"https://www\.mindspore\.cn/(docs|tutorials)/", text), (
        f"{path.name}: 'Further reading' links no page of www.mindspore.cn")
    checks = [i for i, s in code_cells(data) if ".check(" in s]
    assert not checks or at[-1] > max(checks), f"{path.name}: 'Further reading' must come after the exercises"


# -- run times ---------------------------------------------------------------------------------
# The README tables' run times are checked against the stored runs with the rest of the table
# (tests/repo/test_layout.py, course_utils.lessons.readme_problems); the title cell's here.

def stored_run_seconds(data):
    return data["metadata"].get("course", {}).get("run_seconds")


def test_execution_time_is_stored(nb):
    path, data = nb
    seconds = stored_run_seconds(data)
    assert isinstance(seconds, (int, float)) and seconds > 0, (
        f"{path.name}: no metadata.course.run_seconds: re-execute it with make notebooks")


def test_title_cell_run_time_agrees_with_the_stored_run(nb):
    path, data = nb
    title = source(data["cells"][0])
    m = RUN_TIME_LINE.search(title)
    assert m, f"{path.name}: the title cell must state the run time ('**Run time:** about N s on a 2-core CPU')"
    quoted = lessons.quoted_seconds(m.group(0))
    assert quoted, (f"{path.name}: write the title cell's run time as 'about N s' or 'about N min' (约 N 秒, "
                    f"约 N 分钟), got {m.group(0)!r}")
    seconds = stored_run_seconds(data)
    assert seconds, f"{path.name}: no metadata.course.run_seconds: re-execute it with make notebooks"
    factor = lessons.RUN_TIME_FACTOR
    assert quoted / factor <= seconds <= quoted * factor, (
        f"{path.name}: the title cell says {m.group(0)!r}, the stored run took {seconds:.0f} s")


def test_run_time_parsing():
    seconds_of = lessons.quoted_seconds
    assert seconds_of("~5 s") == 5 and seconds_of("~2 min (QUICK); ~6 min full") == 120
    assert seconds_of("**Run time:** about 3 minutes with QUICK") == 180 and seconds_of("half a minute") is None
    assert seconds_of("**运行时间：** 约 25 秒") == 25 and seconds_of("约 3 分钟（QUICK）") == 180
    assert [fmt.duration(s) for s in (3.2, 23, 130)] == ["~3 s", "~25 s", "~2 min"]
    assert [fmt.duration(s, "zh") for s in (23, 130)] == ["约 25 秒", "约 2 分钟"]


# -- epochs see different orders ---------------------------------------------------------------
# Each new iterator on a dataset whose shuffle is seeded by ds.config.set_seed replays the same order
# (tests/mindspore/test_epoch_order.py proves it on MindSpore 2.10). So a training loop must not create an
# iterator per epoch: one iterator with num_epochs=..., looped over once per epoch. The exception is a new
# dataset per epoch built from the epoch number (`train_data(epoch).create_tuple_iterator(...)`, seeded by it,
# as `fit` does): each epoch has an order of its own.

ITERATOR_CALLS = {"create_tuple_iterator", "create_dict_iterator"}


def _is_epoch_loop(node):
    target = ast.unparse(node.target).lower()
    return isinstance(node, ast.For) and ("epoch" in target or "epoch" in ast.unparse(node.iter).lower())


def _of_the_epoch(expr, loop_names, epoch_datasets=frozenset()):
    """Is ``expr`` a dataset built from the loop's epoch: `make(epoch)`, a name bound to one in the loop body, or
    either with methods chained on it (`make(epoch).skip(n)`)?"""
    while isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and not (
            any(isinstance(n, ast.Name) and n.id in loop_names for arg in expr.args + [k.value for k in expr.keywords]
                for n in ast.walk(arg))):
        expr = expr.func.value                              # `<dataset>.skip(n)`: look at <dataset>
    if isinstance(expr, ast.Name):
        return expr.id in epoch_datasets
    return isinstance(expr, ast.Call) and any(isinstance(n, ast.Name) and n.id in loop_names
                                              for arg in expr.args + [k.value for k in expr.keywords]
                                              for n in ast.walk(arg))


def _epoch_datasets(body, loop_names):
    """Names the loop body binds only to datasets of the epoch (`batches = train_data(e)`, then
    `batches = batches.skip(done)`)."""
    assigned = [(n.targets[0].id, n.value) for stmt in body for n in ast.walk(stmt)
                if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)]
    names = set()
    for name, value in assigned:                            # in source order: a later rebinding sees earlier ones
        if _of_the_epoch(value, loop_names, names):
            names.add(name)
    return {name for name in names if all(_of_the_epoch(v, loop_names, names) for n, v in assigned if n == name)}


def _dataset_of_the_epoch(call, loop_names, epoch_datasets=frozenset()):
    """`make(epoch).create_tuple_iterator(...)`: the iterator is on a dataset built from the loop's epoch."""
    return _of_the_epoch(call.func.value, loop_names, epoch_datasets)


def epoch_loops_that_replay(text):
    """Line numbers of `for epoch ...` loops that create a dataset iterator inside their body (not on a dataset
    built from the epoch variable itself)."""
    found = []
    for node in ast.walk(parse_cell(text)):
        if isinstance(node, ast.For) and _is_epoch_loop(node):
            loop_names = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
            epoch_datasets = _epoch_datasets(node.body, loop_names)
            for inner in ast.walk(ast.Module(body=node.body, type_ignores=[])):
                if (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute)
                        and inner.func.attr in ITERATOR_CALLS
                        and not _dataset_of_the_epoch(inner, loop_names, epoch_datasets)):
                    found.append(node.lineno)
                    break
    return found


def test_training_loops_make_one_iterator_not_one_per_epoch(nb):
    path, data = nb
    bad = [f"cell {i}, line {line}" for i, text in code_cells(data) if "same order on purpose" not in text
           for line in epoch_loops_that_replay(text)]
    assert not bad, (f"{path.name}: an epoch loop creates a new dataset iterator every epoch, which replays the seeded "
                     f"shuffle (every epoch sees the same order): {bad}. Create one iterator before the loop with "
                     "create_tuple_iterator(num_epochs=EPOCHS), or mark a deliberate demo '# same order on purpose'.")


def test_the_epoch_loop_checker_can_fail():
    replay = ("for epoch in range(EPOCHS):\n    for d, l in ds_.create_tuple_iterator(num_epochs=1):\n"
              "        step(d, l)\n")
    one = ("it = ds_.create_tuple_iterator(num_epochs=EPOCHS)\nfor epoch in range(EPOCHS):\n    for d, l in it:\n"
           "        step(d, l)\n")
    assert epoch_loops_that_replay(replay) == [1] and epoch_loops_that_replay(one) == []
    per_epoch = ("for epoch in range(EPOCHS):\n    for d, l in train_data(epoch).create_tuple_iterator(num_epochs=1):\n"
                 "        step(d, l)\n")
    again = ("for epoch in range(EPOCHS):\n    for d, l in train_data(0).create_tuple_iterator(num_epochs=1):\n"
             "        step(d, l)\n")
    assert epoch_loops_that_replay(per_epoch) == [] and epoch_loops_that_replay(again) == [1]
    # bound to a name first, then skipped into (a resume); a name bound to a fixed dataset still replays
    bound = ("for e in range(EPOCHS):\n    batches = train_data(e)\n    if e == first:\n"
             "        batches = batches.skip(done)\n    for d, l in batches.create_tuple_iterator(num_epochs=1):\n"
             "        step(d, l)\n")
    fixed = bound.replace("train_data(e)", "train_data(0)")
    mixed = bound.replace("batches.skip(done)", "train_data(0)")
    assert epoch_loops_that_replay(bound) == [] and epoch_loops_that_replay(fixed) == [1]
    assert epoch_loops_that_replay(mixed) == [1]


# -- links -------------------------------------------------------------------------------------
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def notebook_anchors(data):
    """The places a ``#fragment`` can land in a notebook: ``<a id="...">`` anchors, and headings as JupyterLab names
    them (the heading's text with spaces as hyphens)."""
    found = set()
    for cell in data["cells"]:
        text = source(cell)
        found |= set(re.findall(r'<a (?:id|name)="([^"]+)"', text))
        if cell["cell_type"] == "markdown":
            found |= {h.strip().replace(" ", "-") for h in re.findall(r"^#+\s+(.*)$", text, re.M)}
    return found


@functools.lru_cache(maxsize=None)
def _anchors_in_file(path):
    """``notebook_anchors`` of a lesson on disk, read once however many links point into it."""
    return frozenset(notebook_anchors(json.loads(path.read_text(encoding="utf-8"))))


def broken_links(path, data):
    """Markdown link targets that are neither web addresses nor files that exist (relative to the notebook), and
    ``#fragments`` into a lesson (this one or another) that name no anchor or heading there."""
    broken = []
    for i, cell in enumerate(data["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for target in MD_LINK.findall(source(cell)):
            file, _, fragment = target.partition("#")
            if "{" in target:
                broken.append(f"cell {i}: {target} (a template placeholder)")
            elif re.match(r"(https?:|mailto:)", target):
                continue
            elif file and not (path.parent / file).exists():
                broken.append(f"cell {i}: {target} (no such file)")
            elif fragment and (not file or file.endswith(".ipynb")):
                anchors = notebook_anchors(data) if not file else _anchors_in_file(path.parent / file)
                if fragment not in anchors:
                    broken.append(f"cell {i}: {target} (no such anchor)")
    return broken


def test_every_link_goes_somewhere(nb):
    path, data = nb
    broken = broken_links(path, data)
    assert not broken, f"{_id(path)}: broken links: {broken}"


def test_the_link_checker_can_fail(tmp_path):
    data = {"cells": [{"cell_type": "markdown", "source": "[a]({API}/x.html) [b](../nowhere.md) [c](#top) "
                                                          "[d](https://www.mindspore.cn/) [e](x.ipynb) [f](#Two-words) "
                                                          "[g](x.ipynb#trap) [h](x.ipynb#gone) [i](#nowhere)"},
                      {"cell_type": "markdown", "source": '## Two words\n<a id="top"></a>'}]}
    (tmp_path / "x.ipynb").write_text(json.dumps(
        {"cells": [{"cell_type": "markdown", "source": '<a id="trap"></a>\n## The trap'}]}))
    assert [b.split(" (")[0] for b in broken_links(tmp_path / "x.ipynb", data)] == [
        "cell 0: {API}/x.html", "cell 0: ../nowhere.md", "cell 0: x.ipynb#gone", "cell 0: #nowhere"]
