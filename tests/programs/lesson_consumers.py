"""Child program of tests/repo/test_new_lesson.py, run inside a copy of the repository (its folder on PYTHONPATH,
as the working directory).

Prints, as one JSON line, what each consumer of the lesson manifest sees in that copy: the lesson names (or the
numbers, the parameters, the counts) the Makefile, the runner, the doctor, the Chinese edition's build, the
instructor edition, the maintainers' re-execution, the README tables, the test suite and the browser suite work with.
"""

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

root = Path.cwd()
sys.path.insert(0, str(root / "tests"))   # the suite's own modules, as pytest puts them there

import course_utils
from course_utils import doctor, lessons, run, solutions
from course_utils.i18n import notebooks as i18n_notebooks
from course_utils.i18n.zh import _PARTS

assert Path(course_utils.__file__).resolve().is_relative_to(root.resolve()), "the copy's course_utils is imported"


def stems(paths):
    return [Path(p).stem for p in paths]


def script(name):
    spec = importlib.util.spec_from_file_location(name, root / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make = subprocess.run(["make", "-n", "test-notebooks", "PYTHON=" + sys.executable], cwd=root, capture_output=True,
                      text=True).stdout
pytest_line = next(line for line in make.splitlines() if "-m pytest" in line)
lesson_paths = [part for part in pytest_line.split() if part.endswith(".ipynb")]

plan = run.plan_parameters(run.find_notebooks(["11"]), {}, {"11": solutions.QUICK_PARAMETERS["11"]})
try:
    run.check_devices(run.find_notebooks(["11"]), {}, found={"Ascend": 2, "CPU": 2})
    devices = "accepted"
except run.RunError as exc:
    devices = str(exc)
built = solutions.build(["11"], out_dir=root / "build" / "solutions", execute=False, log=lambda *a: None)

import support
from browser import settings

print(json.dumps({
    "makefile": lesson_paths,
    "cli": subprocess.run([sys.executable, "-m", "course_utils.lessons", "paths", "--lang", "all"], cwd=root,
                          capture_output=True, text=True).stdout.split(),
    "runner": stems(run.find_notebooks()),
    "runner_zh": stems(run.find_notebooks(None, "zh")),
    "runner_plan": {Path(k).stem: v for k, v in plan.items()},
    "runner_devices": devices,
    "doctor_npus": doctor.Facts(root=root).npus_needed,
    "i18n_lessons": stems(i18n_notebooks.lessons()),
    "i18n_check": [str(p) for p in i18n_notebooks.check(lessons.get("11").path())],
    "zh_message_parts": list(_PARTS),
    "solutions_quick": solutions.QUICK_PARAMETERS.get("11"),
    "solutions_built": [row["notebook"] for row in built["notebooks"]],
    "make_notebooks": stems(script("execute_notebooks").default_paths()),
    "readme": {lang: lessons.readme_problems(lang) for lang in lessons.READMES},
    "suite_longest": list(support.LONGEST_LESSONS),
    "browser": stems(settings.NOTEBOOK_FILES),
    "browser_zh": stems(settings.ZH_NOTEBOOK_FILES),
    "browser_quick": settings.QUICK_PARAMETERS,
}))
