"""The instructor edition: every lesson with its exercises solved, executed (``make solutions``).

    python -m course_utils.solutions                     # every lesson -> build/solutions/
    python -m course_utils.solutions --notebooks 01 04   # some of them
    python -m course_utils.solutions --no-execute        # only write the solved notebooks
    python -m course_utils.solutions --lang zh --full    # Chinese, stored parameters: build/solutions-zh/zh/

For each ``notebooks/NN_*.ipynb`` the builder writes ``build/solutions/NN_*.ipynb`` (not committed), in
which every exercise cell holds its reference solution, then executes the copy top to bottom in a fresh
course kernel (``course_utils.execute``; one kernel process per notebook) with the lesson manifest's quick
parameters. The rest of ``notebooks/`` (``scripts/`` ...) is copied beside them, so the folder runs on its own
in JupyterLab.

How an exercise cell is found, from the code rather than from its wording:

* the exercise modules a notebook uses are the ``from course_utils.exercises import nbNN`` imports;
* the exercise cell of ``nbNN.qK`` is the code cell with a top-level call ``nbNN.qK.check()`` *without
  arguments* (``nbNN.qK.check(BuggyHuberLoss)`` is a demonstration and stays as it is; only for an exercise
  with ``solution_files``, below, a single call with arguments counts when there is none without);
* in that cell, the top-level statements that bind the exercise's ``names`` (``def``, ``class``,
  ``name = ____``) are replaced by the code ``nbNN.qK.solution()`` shows, and the check becomes
  ``result = nbNN.qK.check(); assert result == Outcome.CORRECT``; every other line stays.

So the built notebook proves that each shown solution passes its own checker, inside the real lesson.
The build fails (before executing anything) if an exercise of an imported module has no such cell, has
two, or if a filled cell still contains ``____``.

An exercise whose answer is not code in the cell (the capstone's training script) names the files that
make up its solution instead, e.g. for notebook 10, whose checks run the file ``MY_SCRIPT`` (default
``my_capstone.py``): ``solution_files = {"my_capstone.py": "scripts/capstone_reference.py"}`` (paths relative to
``notebooks/``). The builder copies each reference file to the learner's path in the build folder, leaves the
cell's code as it is and still asserts that the check reports correct.

Why one module of ~470 lines: filling a cell and executing the filled notebook are the two halves of one claim
(every shown solution passes its checker inside its lesson), and the command line is their only caller.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import sys
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from course_utils import ROOT, lessons, run
from course_utils.exercises import Exercise, Outcome
from course_utils.exercises.display import _LABELS, _heading
from course_utils.execute import execute, with_parameters
from course_utils.i18n import speaking, tr
from course_utils.run import RunError

#: Parameters that keep the build short (papermill, per notebook): the lesson manifest's ``quick``. Lessons without
#: them run their stored defaults, which take about a minute or less each. Every name must be declared by its
#: notebook's ``parameters`` cell (``course_utils.run.plan_parameters`` refuses one that is not).
QUICK_PARAMETERS = {lesson.number: dict(lesson.quick) for lesson in lessons.LESSONS if lesson.quick}

#: Tag and metadata key of the cells the builder filled in (the test and an instructor can find them).
SOLUTION_TAG = "solution"
METADATA_KEY = "course_solution"
RESULT_NAME = "_solution_result"
BANNER = ("**Instructor edition: every exercise below is filled in with its reference solution.** "
          "Built by `make solutions` from `notebooks/{name}`{params}; do not hand it out, and do not edit it "
          "(rebuild it instead).")


class BuildError(Exception):
    """An exercise the builder cannot fill in (no cell, two cells, a placeholder left over)."""


def shown_solution(exercise) -> str:
    """The exact code ``exercise.solution()`` shows."""
    return textwrap.dedent(exercise.solution_text).strip()


def exercises_of(module) -> dict:
    """``{"q1": Exercise, ...}`` of an exercise module, in order."""
    found = {k: v for k, v in vars(module).items() if isinstance(v, Exercise) and k[:1] == "q" and k[1:].isdigit()}
    return dict(sorted(found.items(), key=lambda kv: int(kv[0][1:])))


def _parse(source: str):
    """The cell's AST, or None for a cell that is not plain Python (IPython magics are transformed first)."""
    from IPython.core.inputtransformer2 import TransformerManager

    try:
        return ast.parse(TransformerManager().transform_cell(source))
    except SyntaxError:
        return None


def _exercise_imports(tree) -> dict:
    """``{local name: "course_utils.exercises.nbNN"}`` for the exercise modules a cell imports."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "course_utils.exercises":
            for alias in node.names:
                if alias.name.startswith("nb"):
                    found[alias.asname or alias.name] = f"course_utils.exercises.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("course_utils.exercises.nb") and alias.asname:
                    found[alias.asname] = alias.name
    return found


def _check_call(stmt, modules: dict):
    """``(module name, "qK", has arguments)`` if ``stmt`` is a top-level ``nbNN.qK.check(...)``."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    func = call.func
    if (isinstance(func, ast.Attribute) and func.attr == "check" and isinstance(func.value, ast.Attribute)
            and isinstance(func.value.value, ast.Name) and func.value.value.id in modules):
        return modules[func.value.value.id], func.value.attr, bool(call.args or call.keywords)
    return None


def _binds(stmt, names) -> bool:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return stmt.name in names
    targets = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        targets = [stmt.target]
    return any(isinstance(n, ast.Name) and n.id in names for t in targets for n in ast.walk(t))


def _first_line(stmt) -> int:
    decorators = getattr(stmt, "decorator_list", [])
    return min([stmt.lineno] + [d.lineno for d in decorators])


def _has_placeholder(source: str) -> bool:
    tree = _parse(source)
    return tree is not None and any(isinstance(n, ast.Name) and n.id == "____" for n in ast.walk(tree))


@dataclass
class Filled:
    """What the builder did to one notebook."""

    notebook: str
    exercises: list = field(default_factory=list)     # "nb01.q1", ... in cell order
    files: dict = field(default_factory=dict)         # solution files copied: learner path -> reference path


def fill_notebook(nb, number: str = "", lang: str = "en"):
    """Fill every exercise cell of ``nb`` (an nbformat notebook) in place; returns a ``Filled``.

    ``number`` ("01") is only used in error messages; ``lang`` is the language the notebook's kernel speaks
    (the labels its checks print, recorded in the cell's metadata).
    """
    import importlib

    trees = [(_parse(c.source) if c.cell_type == "code" else None) for c in nb.cells]
    modules = {}
    for tree in trees:
        if tree is not None:
            modules.update(_exercise_imports(tree))
    calls = {}  # "nb01.q1" -> {False: [(cell, statement)], True: [...]} by "has arguments"
    for index, tree in enumerate(trees):
        for position, stmt in enumerate(tree.body if tree is not None else []):
            hit = _check_call(stmt, modules)
            if hit:
                module_name, q, has_args = hit
                key = f"{module_name.rsplit('.', 1)[1]}.{q}"
                calls.setdefault(key, {False: [], True: []})[has_args].append((index, position))
    filled = Filled(notebook=number)
    chosen = {}  # cell index -> (statement, key, exercise)
    for module_name in sorted(set(modules.values())):
        short = module_name.rsplit(".", 1)[1]
        for q, exercise in exercises_of(importlib.import_module(module_name)).items():
            key = f"{short}.{q}"
            found = calls.get(key, {False: [], True: []})
            # the check without arguments; for an exercise answered by files, also one with arguments (a path)
            places = found[False] or (found[True] if getattr(exercise, "solution_files", None) else [])
            if not places:
                raise BuildError(f"notebook {number} imports {short} but has no cell calling {key}.check() without "
                                 "arguments: every exercise needs its exercise cell (placeholder + check) for the "
                                 "instructor edition.")
            if len(places) > 1:
                cells = " and ".join(str(i) for i, _ in places)
                raise BuildError(f"notebook {number}: {key}.check() in cells {cells}; the builder cannot tell which "
                                 "one is the exercise cell.")
            index, position = places[0]
            if index in chosen:
                raise BuildError(f"notebook {number}, cell {index}: the exercise cell of {chosen[index][1]} and of "
                                 f"{key}; give each exercise its own cell.")
            chosen[index] = (position, key, exercise)
    for index in sorted(chosen):
        position, key, exercise = chosen[index]
        cell = nb.cells[index]
        with speaking(lang):  # the solution (its comments) and label in the notebook's language, whatever we speak
            cell.source = _fill_cell(cell.source, trees[index], position, key, exercise, number, index, filled)
            label = exercise.label
        tags = [t for t in cell.metadata.get("tags", []) if t != "nbval-check-output"]  # its output is new
        cell.metadata["tags"] = tags + [SOLUTION_TAG]
        cell.metadata[METADATA_KEY] = {"exercise": key, "label": label}
        filled.exercises.append(key)
    return filled


def _leading_blank_lines(source: str) -> int:
    """How many lines IPython's cell transformer drops from the top (the AST's line numbers start after them)."""
    count = 0
    for line in source.splitlines():
        if line.strip():
            break
        count += 1
    return count


def _fill_cell(source, tree, position, key, exercise, number, index, filled) -> str:
    lines = source.splitlines()
    skip = _leading_blank_lines(source)   # AST line n is lines[n - 1 + skip]
    names = set(exercise.names)
    answer = [stmt for stmt in tree.body if _binds(stmt, names)]
    files = dict(getattr(exercise, "solution_files", None) or {})
    replace = {}  # first line (0-based) -> (last line exclusive, new lines)
    if answer:
        first, last = _first_line(answer[0]) - 1 + skip, answer[0].end_lineno + skip
        replace[first] = (last, shown_solution(exercise).splitlines())
        for stmt in answer[1:]:
            replace[_first_line(stmt) - 1 + skip] = (stmt.end_lineno + skip, [])
    elif not files:
        raise BuildError(f"notebook {number}, cell {index}: the cell of {key} defines none of {sorted(names)} "
                         "and the exercise has no solution_files: nothing to fill in.")
    filled.files.update(files)
    check = tree.body[position]
    call = ast.get_source_segment("\n".join(lines[skip:]), check) or f"{key}.check()"
    check_line = check.lineno - 1 + skip
    replace[check_line] = (check.end_lineno + skip, [
        "from course_utils.exercises import Outcome",
        f"{RESULT_NAME} = {call}",
        f'assert {RESULT_NAME} == Outcome.CORRECT, f"the shown solution fails its own check: {{{RESULT_NAME}}}"',
    ])
    out, i = [], 0
    while i < len(lines):
        if i in replace:
            end, new = replace[i]
            if i == check_line and out and out[-1].strip():
                out.append("")
            out.extend(new)
            i = end
        else:
            out.append(lines[i])
            i += 1
    text = "\n".join(out)
    if _has_placeholder(text):
        raise BuildError(f"notebook {number}, cell {index} ({key}): the placeholder ____ is still there after "
                         "filling in the solution; an exercise cell's placeholders must all sit in the statements "
                         f"that define {sorted(names)}.")
    return text


def build_notebook(source: Path, out_dir: Path, parameters: dict | None = None, lang: str = "en"):
    """Write the solved, parameterised (not yet executed) copy of ``source`` into ``out_dir``."""
    import nbformat

    nb = nbformat.read(source, as_version=4)
    number = source.name[:2]
    filled = fill_notebook(nb, number, lang)
    params = parameters or {}
    nb = with_parameters(nb, params)   # papermill's injection, as make run does
    shown = ", ".join(f"{k}={v!r}" for k, v in params.items())
    banner = nbformat.v4.new_markdown_cell(BANNER.format(name=source.name,
                                                         params=f" with {shown}" if shown else ""))
    banner.metadata["tags"] = [SOLUTION_TAG]
    nb.cells.insert(0, banner)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    target = out_dir / source.name
    nbformat.write(nb, target)
    return target, filled


def execute_notebook(path: Path, timeout: int = 1800) -> dict:
    """Execute a built notebook in place (``course_utils.execute``: a fresh course kernel, working directory = its
    folder); what the kernel process prints itself goes to a log beside the notebook."""
    import nbformat

    done = execute(path, timeout=timeout, kernel_log=path.with_suffix(".kernel.log"))
    nbformat.write(done.notebook, path)
    return {"seconds": round(done.seconds, 1), "error": done.error,
            "outcomes": outcomes(done.notebook, done.notebook.metadata.get("language", "en"))}


def outcomes(nb, lang: str = "en") -> dict:
    """``{"nb01.q1": "correct" | "incorrect" | "not attempted" | "not run", ...}`` from a built notebook's outputs
    (``lang``: the language its kernel printed them in)."""
    with speaking(lang):
        headings = {outcome: _heading("{label}", tr(_LABELS[outcome])) + tr(": ")
                    for outcome in (Outcome.CORRECT, Outcome.INCORRECT, Outcome.NOT_ATTEMPTED)}
    found = {}
    for cell in nb.cells:
        info = cell.get("metadata", {}).get(METADATA_KEY)
        if cell.cell_type != "code" or not info:
            continue
        text = "".join(o.get("data", {}).get("text/plain", "") if o.get("output_type") in ("display_data",
                                                                                          "execute_result")
                       else "" for o in cell.get("outputs", []))
        state = "not run"
        for outcome, heading in headings.items():
            if heading.replace("{label}", info["label"]) in text:
                state = outcome.value
        found[info["exercise"]] = state
    return found


def _kernel_python() -> str:
    from jupyter_client.kernelspec import KernelSpecManager

    return KernelSpecManager().get_kernel_spec("python3").argv[0]


def _copy_support(notebooks_dir: Path, out_dir: Path, skip: set = frozenset()) -> None:
    """Everything beside the lessons that they use (scripts/ ...), without run outputs (nor ``skip``)."""
    outputs = {"checkpoints", "runs", ".ipynb_checkpoints", "__pycache__", "kernel_meta", "rewritten_network"}
    skip = outputs | set(skip)
    for item in notebooks_dir.iterdir():
        if item.name in skip or item.suffix == ".ipynb" or item.name.startswith("rank_"):
            continue
        target = out_dir / item.name
        if item.is_dir():
            shutil.copytree(item, target, ignore=shutil.ignore_patterns(*outputs, "*.pyc"), dirs_exist_ok=True)
        else:
            shutil.copy2(item, target)


def _run_one(args) -> dict:
    path, timeout = args
    return execute_notebook(Path(path), timeout=timeout)


def build(selection=None, out_dir: Path | None = None, execute: bool = True, jobs: int = 1, timeout: int = 1800,
          parameters: dict | None = None, log=print, lang: str = "en", root: Path | None = None,
          manifest=lessons.LESSONS) -> dict:
    """Build the instructor edition; returns the summary (also written to ``out_dir/summary.json``).

    ``parameters`` replaces ``QUICK_PARAMETERS`` (``{"04": {...}}``); raises ``BuildError`` or
    ``course_utils.run.RunError`` before executing anything when an exercise cannot be filled in or a
    quick parameter is not declared by its notebook. ``lang="zh"`` builds it from the Chinese edition
    (``notebooks/zh/``: the same cells, in Chinese) into ``build/solutions-zh/zh/``, laid out like ``notebooks/``
    (the stored English lessons beside it: the translated ones read ``../05_mnist_lenet.ipynb``). ``root`` is the
    repository (default: this one), ``manifest`` its lessons.
    """
    root = Path(root or ROOT)
    notebooks_dir = root / "notebooks" / ("" if lang == "en" else lang)
    out_dir = Path(out_dir or root / "build" / ("solutions" if lang == "en" else f"solutions-{lang}"))
    notebooks = run.find_notebooks(selection, lang, root, manifest)
    quick = QUICK_PARAMETERS if parameters is None else parameters
    scoped = {k: v for k, v in quick.items() if any(nb.name.startswith(k + "_") for nb in notebooks)}
    plan = run.plan_parameters(notebooks, {}, scoped)

    # the course kernel (.venv's python3 kernelspec) first, as the Makefile does
    own = str(Path(sys.prefix) / "share" / "jupyter")
    if (Path(own) / "kernels" / "python3").is_dir():
        os.environ["JUPYTER_PATH"] = os.pathsep.join([own] + [p for p in os.environ.get("JUPYTER_PATH", "").split(
            os.pathsep) if p and p != own])

    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    edition_dir = out_dir
    if lang != "en":
        # laid out like notebooks/: the stored English lessons the translated ones refer to ("../04_...ipynb")
        # and their support files, the solved edition in <lang>/
        _copy_support(root / "notebooks", out_dir, skip={lang})
        for lesson in run.find_notebooks(None, "en", root, manifest):
            shutil.copy2(lesson, out_dir / lesson.name)
        edition_dir = out_dir / lang
        edition_dir.mkdir()
    _copy_support(notebooks_dir, edition_dir)
    built = []
    for nb in notebooks:
        target, filled = build_notebook(nb, edition_dir, plan[nb], lang)
        for learner, reference in filled.files.items():
            shutil.copy2(notebooks_dir / reference, edition_dir / learner)
        built.append((nb, target, filled))
        log(f"{nb.stem}: {len(filled.exercises)} exercise(s) filled" +
            (f" ({', '.join(filled.exercises)})" if filled.exercises else "") +
            (f", parameters {plan[nb]}" if plan[nb] else ""))

    summary = {"kernel_python": _kernel_python(), "notebooks": []}
    results = [None] * len(built)
    if execute:
        start = time.perf_counter()
        tasks = [(str(target), timeout) for _, target, _ in built]
        if jobs > 1:
            import multiprocessing

            with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
                results = list(pool.map(_run_one, tasks))
        else:
            results = []
            for (nb, _, _), task in zip(built, tasks):
                log(f"{nb.stem}: executing ...")
                results.append(_run_one(task))
                log(f"{nb.stem}: {_status(results[-1])} in {results[-1]['seconds']} s")
        summary["seconds"] = round(time.perf_counter() - start, 1)
    for (nb, target, filled), result in zip(built, results):
        row = {"notebook": nb.stem, "path": str(target), "parameters": plan[nb], "exercises": filled.exercises,
               "solution_files": filled.files}
        if result is not None:
            row.update(result, status=_status(result))
        summary["notebooks"].append(row)
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def _status(result: dict) -> str:
    if result["error"]:
        return "failed"
    return "ok" if all(v == "correct" for v in result["outcomes"].values()) else "wrong"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.solutions", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notebooks", "-n", nargs="*", help="numbers or names (default: all)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default build/solutions)")
    parser.add_argument("--no-execute", action="store_true", help="only write the solved notebooks")
    parser.add_argument("--full", action="store_true", help="the lessons' stored parameters, not the quick ones")
    parser.add_argument("--jobs", "-j", type=int, default=1, help="notebooks executed at once (default 1)")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per cell")
    parser.add_argument("--lang", default="en", choices=list(lessons.EDITIONS),
                        help="the edition to build from: en (notebooks/, default) or zh (notebooks/zh/)")
    args = parser.parse_args(argv)
    try:
        summary = build(args.notebooks, args.out, execute=not args.no_execute, jobs=args.jobs,
                        timeout=args.timeout, parameters={} if args.full else None, lang=args.lang)
    except (BuildError, RunError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = args.out or ROOT / "build" / ("solutions" if args.lang == "en" else f"solutions-{args.lang}")
    if args.no_execute:
        print(f"Solved notebooks (not executed) in {out}")
        return 0
    print()
    for row in summary["notebooks"]:
        marks = ", ".join(f"{k} {v}" for k, v in row["outcomes"].items()) or "no exercises"
        print(f"  {row['notebook']:32s} {row['status']:6s} {row['seconds']:7.1f} s  {marks}"
              + (f"\n      {row['error']}" if row["error"] else ""))
    print(f"\nInstructor edition in {out} ({summary['seconds']} s; kernel {summary['kernel_python']})")
    return 0 if all(r["status"] == "ok" for r in summary["notebooks"]) else 1


if __name__ == "__main__":
    sys.exit(main())
