"""Faces: each package of course_utils names its lesson API in ``__init__.__all__`` (written out, not computed), and
the lessons (and the scripts they launch) import only from faces.

A lesson that reaches past a face (``lab.modes.measure_modes``, ``from course_utils.training.loop import fit``) breaks
as soon as a module moves inside its package; a module's name imported from elsewhere (``distributed.free_port``,
whose home is ``ports``) is not that module's to offer. So, for every name a lesson's code reaches through
``course_utils``:

* through a package: the name is in the package's ``__all__`` (a sub-package or module only if listed there too);
* through a module: the module defines it (or lists it in its ``__all__``).

The exercise modules (``from course_utils.exercises import nb05``) are named by the lesson manifest
(``Lesson.exercises``), not by the exercises face: a new lesson does not touch the framework.
"""

import ast
import importlib
import json
import pkgutil
import types
from pathlib import Path

import pytest

import course_utils
from course_utils import lessons

from support import ROOT, attribute_chains

#: The lessons' exercise modules, which the manifest names.
EXERCISE_MODULES = {lesson.exercises for lesson in lessons.LESSONS if lesson.exercises}
PACKAGES = sorted(["course_utils"] + [m.name for m in pkgutil.walk_packages(course_utils.__path__, "course_utils.")
                                      if m.ispkg])


def _is_package(module) -> bool:
    return hasattr(module, "__path__")


@pytest.mark.parametrize("name", PACKAGES)
def test_every_package_names_its_api_in_a_written_out_all(name):
    module = importlib.import_module(name)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    assigned = [node for node in tree.body if isinstance(node, (ast.Assign, ast.AnnAssign))
                and any(isinstance(t, ast.Name) and t.id == "__all__"
                        for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))]
    if name == "course_utils":   # the top package: only ROOT; the lessons import its modules
        assert getattr(module, "__all__", None) == ["ROOT"]
        return
    assert assigned, f"{name}/__init__.py has no __all__: name the lesson API there"
    value = assigned[-1].value
    assert isinstance(value, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) for e in value.elts), (
        f"{name}.__all__ must be written out name by name, not computed")
    missing = [n for n in module.__all__ if not hasattr(module, n)]
    assert not missing, f"{name}.__all__ names what it does not have: {missing}"
    assert len(set(module.__all__)) == len(module.__all__), f"{name}.__all__ repeats a name"


def reached(tree, aliases=None) -> list:
    """``(line, dotted name)`` of everything a piece of code reaches in course_utils: imported names and the
    attribute chains on names bound to course_utils modules (``aliases``: the names earlier cells bound, updated)."""
    found = []
    aliases = {} if aliases is None else aliases
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "course_utils":
            for a in node.names:
                dotted = f"{node.module}.{a.name}"
                found.append((node.lineno, dotted))
                aliases[a.asname or a.name] = dotted
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "course_utils":
                    found.append((node.lineno, a.name))
                    aliases[a.asname or a.name.split(".")[0]] = a.asname and a.name or "course_utils"
    for node, base, chain in attribute_chains(tree):
        if base in aliases and not isinstance(node.ctx, ast.Store):
            found.append((node.lineno, ".".join([aliases[base]] + chain)))
    return found


def face_problem(dotted: str):
    """Why ``dotted`` (``course_utils.bench.Spec.parse``) reaches past a face, or None."""
    parts = dotted.split(".")
    obj = importlib.import_module(parts[0])
    path = parts[0]
    for part in parts[1:]:
        if not isinstance(obj, types.ModuleType):
            return None                       # an attribute of a class or function: the API ends at the object
        if _is_package(obj):
            named = part in getattr(obj, "__all__", ()) or f"{path}.{part}" in EXERCISE_MODULES
            if not named and not (path == "course_utils" and _is_module(path, part)):
                return f"{path}.{part}: not in {path}.__all__ (import it from the package's face)"
        else:
            public = getattr(obj, "__all__", None)
            value = getattr(obj, part, None)
            home = getattr(value, "__module__", obj.__name__)
            if public is not None and part not in public or (
                    public is None and home != obj.__name__ and not isinstance(value, types.ModuleType)):
                return f"{path}.{part}: {path} does not define it (its home is {home})"
        try:
            obj = getattr(obj, part) if hasattr(obj, part) else importlib.import_module(f"{path}.{part}")
        except ImportError:
            return f"{path}.{part}: no such name"
        path = f"{path}.{part}"
    return None


def _is_module(package: str, name: str) -> bool:
    return (ROOT / package.replace(".", "/") / f"{name}.py").exists() or \
        (ROOT / package.replace(".", "/") / name / "__init__.py").exists()


def _code_cells(path: Path):
    for i, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            text = "".join(cell["source"])
            lines = ["" if ln.lstrip().startswith(("%", "!")) else ln for ln in text.splitlines()]
            yield f"cell {i}", ast.parse("\n".join(lines))


def _sources():
    for lesson in lessons.LESSONS:
        yield lesson.name, list(_code_cells(lesson.path("en")))
    for script in sorted((ROOT / "notebooks" / "scripts").glob("*.py")):
        yield f"scripts/{script.name}", [("", ast.parse(script.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("name,parts", list(_sources()), ids=[name for name, _ in _sources()])
def test_lessons_and_their_scripts_import_only_from_faces(name, parts):
    aliases = {}   # a notebook's names live on from cell to cell
    problems = sorted({f"{where} line {line}: {problem}" for where, tree in parts
                       for line, dotted in reached(tree, aliases) for problem in [face_problem(dotted)] if problem})
    assert not problems, f"{name} reaches past a face:\n" + "\n".join(problems)


def test_the_face_check_can_fail():
    tree = ast.parse("from course_utils.training.loop import fit\nfrom course_utils import distributed, bench\n"
                     "from course_utils.bench import experiments as lab\n"
                     "distributed.free_port()\nlab.modes.measure_modes\nbench.harness.cycle\nbench.Spec.parse('x')\n"
                     "from course_utils.training import fit\nfrom course_utils.data import mnist_dataset\n")
    problems = sorted({p for _, dotted in reached(tree) for p in [face_problem(dotted)] if p})
    assert problems == [
        "course_utils.bench.experiments.modes: not in course_utils.bench.experiments.__all__ (import it from the "
        "package's face)",
        "course_utils.bench.harness: not in course_utils.bench.__all__ (import it from the package's face)",
        "course_utils.distributed.free_port: course_utils.distributed does not define it (its home is "
        "course_utils.ports)",
        "course_utils.training.loop: not in course_utils.training.__all__ (import it from the package's face)",
    ], problems
