"""Run the course with parameters and collect a report: ``make run`` / ``python -m course_utils.run``.

    python -m course_utils.run                                  # every notebook, stored defaults
    python -m course_utils.run --notebooks 05 05 -p EPOCHS=5     # some notebooks, a parameter
    python -m course_utils.run -p DEVICE_TARGET=Ascend --full    # on an Ascend notebook, full-length runs
    python -m course_utils.run --quick                            # the short runs (the manifest's quick parameters)
    python -m course_utils.run -p 04:TRAIN_SUBSET=10000          # a parameter for one notebook only
    python -m course_utils.run --lang zh -p DEVICE_TARGET=Ascend # the Chinese edition (notebooks/zh/)

Each notebook is executed (``course_utils.execute``: a fresh kernel, parameters injected as papermill does) into
``runs/<timestamp>/`` (the stored notebooks are never modified). A parameter applies to every selected notebook that
declares it in its ``parameters`` cell, converted to the type the cell annotates (``-p QUICK=false`` is the bool
False; ``-p STEPS=2.5`` for an ``int`` is refused); one that no selected notebook declares (or that a ``NN:`` prefix
aims at a notebook that does not declare it) is an error before anything runs. ``--full`` sets ``QUICK=False``
where a notebook declares ``QUICK``; ``--quick`` gives each lesson the lesson manifest's quick parameters (the
short runs of the test suite; a ``-p`` of the same name wins). The summary (one row per notebook: status, time,
the metrics it recorded with ``record()``) is written as ``summary.json`` and ``summary.md`` and printed.

Notebooks call ``record(name=value, ...)`` to report their key numbers; the runner points each
kernel at its own metrics file through the environment variable ``COURSE_METRICS_FILE``.
"""

from __future__ import annotations

import argparse
import ast
import datetime as _dt
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional, Sequence

from course_utils import ROOT, lessons, runtime
from course_utils.execute import execute
from course_utils.fileio import atomic_write
from course_utils.fmt import number

#: Set by the runner for each notebook it executes; ``record`` merges metrics into that JSON file.
METRICS_ENV = "COURSE_METRICS_FILE"

_recorded: dict = {}


def record(**metrics) -> None:
    """Record a notebook's key metrics (numbers or short strings) for the run summary.

    Outside ``make run`` this only remembers them; under the runner it also
    writes them, atomically, to the file named by ``COURSE_METRICS_FILE``.
    """
    for key, value in metrics.items():
        if hasattr(value, "item"):  # numpy / MindSpore scalars
            value = value.item()
        if not isinstance(value, (int, float, str, bool)) and value is not None:
            raise TypeError(f"record({key}=...) takes numbers or short strings, got {type(value).__name__}")
        _recorded[key] = value
    path = os.environ.get(METRICS_ENV)
    if path:
        atomic_write(path, json.dumps(_recorded, indent=1))


# --------------------------------------------------------------------------------------------
# Runner
# --------------------------------------------------------------------------------------------

class RunError(Exception):
    """A problem with the requested run, reported before anything executes."""


def find_notebooks(selection=None, lang: str = "en", root: Optional[Path] = None,
                   manifest: Sequence[lessons.Lesson] = lessons.LESSONS) -> list:
    """The lesson notebooks of edition ``lang`` in course order (the lesson manifest's); ``selection`` holds
    numbers ("04", "4") or names ("05_mnist_lenet"). ``root`` is the repository (default: this one)."""
    try:
        chosen = lessons.select(selection, manifest)
    except KeyError as exc:
        raise RunError(exc.args[0]) from None
    return [lesson.path(lang, root or ROOT) for lesson in chosen]


def _lesson(notebook: Path, manifest: Sequence[lessons.Lesson]) -> Optional[lessons.Lesson]:
    try:
        return lessons.get(notebook.stem, manifest)
    except KeyError:
        return None


def parse_value(text: str):
    """``5`` -> 5, ``0.1`` -> 0.1, ``False`` -> False, ``[32, 64]`` -> list, anything else a string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return text


def parse_parameters(items) -> tuple:
    """``["EPOCHS=3", "04:LR=0.01"]`` -> (global {"EPOCHS": "3"}, scoped {"04": {"LR": "0.01"}}).

    The values stay text: what ``3`` means depends on how each notebook's parameters cell declares the name
    (``plan_parameters`` converts it, or refuses it)."""
    global_params, scoped = {}, {}
    for item in items or []:
        if "=" not in item:
            raise RunError(f"Parameter {item!r} is not NAME=VALUE (e.g. -p EPOCHS=3 or -p 04:EPOCHS=3).")
        key, value = item.split("=", 1)
        if ":" in key:
            nb, name = key.split(":", 1)
            scoped.setdefault(nb.zfill(2) if nb.isdigit() else nb, {})[name] = value
        else:
            global_params[key] = value
    return global_params, scoped


_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
#: The element type of ``list[int]`` / ``List[float]`` annotations.
_ELEMENT = {"int": int, "float": float, "str": str, "bool": bool}


def _whole(value, what: str):
    """``value`` as an int if it is one (2, 2.0, 1e3), else a ``ValueError`` saying why not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} is not a whole number")
    if isinstance(value, float) and not value.is_integer():
        raise ValueError(f"{what} is not a whole number")
    return int(value)


def _real(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{what} is not a number")
    return float(value)


def _convert(value, type_name: str):
    """``value`` (command-line text, or a Python value) as the type its parameters cell declares, or ValueError."""
    text = value if isinstance(value, str) else None
    parsed = parse_value(text) if text is not None else value
    shown = repr(text if text is not None else value)
    base, _, inner = type_name.partition("[")
    base = base.lower()
    if base == "bool":
        if isinstance(parsed, bool):
            return parsed
        if text is not None and text.strip().lower() in _TRUE + _FALSE:
            return text.strip().lower() in _TRUE
        raise ValueError(f"{shown} is not True or False (true/false, yes/no, on/off and 1/0 are accepted too)")
    if base == "int":
        return _whole(parsed, shown)
    if base == "float":
        return _real(parsed, shown)
    if base == "str":
        if isinstance(parsed, str):
            return parsed
        if text is not None:       # a number or a list typed where text is expected: the text is what was meant
            return text
        raise ValueError(f"{shown} is a {type(value).__name__}, not text")
    if base in ("list", "tuple"):
        if not isinstance(parsed, (list, tuple)):
            raise ValueError(f"{shown} is not a list (write it as [32, 64])")
        element = _ELEMENT.get(inner.rstrip("]").strip().lower())
        items = list(parsed)
        if element is int:
            items = [_whole(v, f"{v!r} in {shown}") for v in items]
        elif element is float:
            items = [_real(v, f"{v!r} in {shown}") for v in items]
        elif element is not None and not all(isinstance(v, element) for v in items):
            raise ValueError(f"{shown} is not a list of {element.__name__}")
        return items if base == "list" else tuple(items)
    return parsed       # not annotated (papermill says "None"), or a type the course does not use: as written


def convert_parameter(notebook: str, name: str, value, declared: dict):
    """``value`` for parameter ``name`` of ``notebook``, converted to the type its parameters cell annotates
    (``EPOCHS: int = 4``): text from the command line is converted where that is unambiguous ("false" for a bool,
    "2" or "2.0" for an int, "3" for a float) and refused otherwise, naming the parameter, its type and the value."""
    type_name = str(declared.get(name, {}).get("inferred_type_name") or "None")
    try:
        return _convert(value, type_name)
    except ValueError as exc:
        example = declared.get(name, {}).get("default", "")
        raise RunError(f"{notebook}: parameter {name} is declared `{type_name}` in its parameters cell, but {exc}; "
                       f"give a value of that type, e.g. -p {notebook[:2]}:{name}={example} (its default).") from None


def declared_parameters(path: Path) -> dict:
    """Names declared in the notebook's ``parameters`` cell (papermill's own reading of it)."""
    import papermill as pm

    return pm.inspect_notebook(str(path))


def plan_parameters(notebooks, global_params: dict, scoped: dict, full: bool = False) -> dict:
    """Parameters for each notebook; raises ``RunError`` for one that nothing declares."""
    declared = {nb: declared_parameters(nb) for nb in notebooks}
    plan = {nb: {} for nb in notebooks}
    for name, value in global_params.items():
        takers = [nb for nb in notebooks if name in declared[nb]]
        if not takers:
            raise RunError(f"Parameter {name!r} is not declared by any selected notebook "
                           f"({', '.join(nb.stem for nb in notebooks)}): check its spelling.")
        for nb in takers:
            plan[nb][name] = convert_parameter(nb.stem, name, value, declared[nb])
    for key, params in scoped.items():
        targets = [nb for nb in notebooks if nb.name.startswith(key + "_") or nb.stem == key]
        if not targets:
            raise RunError(f"Parameter prefix {key!r}: that notebook is not selected.")
        for nb in targets:
            for name, value in params.items():
                if name not in declared[nb]:
                    known = ", ".join(declared[nb]) or "none"
                    raise RunError(f"{nb.stem} does not declare parameter {name!r} (it declares: {known}).")
                plan[nb][name] = convert_parameter(nb.stem, name, value, declared[nb])
    if full:
        for nb in notebooks:
            if "QUICK" in declared[nb] and "QUICK" not in plan[nb]:
                plan[nb]["QUICK"] = False
    return plan


def probe_devices() -> dict:
    """``{device: count}`` that MindSpore in this environment can use, best first, e.g. ``{"CPU": 2}``.

    Asked in a subprocess, so the runner itself never loads MindSpore (counts: NPUs/GPUs; for CPU its cores).
    """
    code = ("import json; from course_utils import runtime; "
            "print(json.dumps({d: runtime.device_count(d) for d in runtime.available_devices()}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env=runtime.child_env(cpu_fixes=None))
    lines = out.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1]) if lines else {}
    except json.JSONDecodeError:
        return {}


def _default(declared: dict, name: str):
    """The default a notebook's parameters cell gives ``name`` (papermill reports it as source text)."""
    value = parse_value(str(declared[name].get("default", "")))
    return value.strip("\"'") if isinstance(value, str) else value


def check_devices(notebooks, plan: dict, found: dict | None = None,
                  manifest: Sequence[lessons.Lesson] = lessons.LESSONS) -> dict:
    """The device each notebook will run on, checked before anything runs: ``{notebook: device}``.

    Every notebook's own ``DEVICE_TARGET`` (its parameter, else its default) must be available; ``auto`` means
    the best device found. A lesson with a workers parameter (the manifest's ``workers_parameter``: data parallel)
    on Ascend or GPU needs a card per worker. ``found`` is ``probe_devices()`` (asked once, only if needed).
    """
    devices = {}
    for nb in notebooks:
        declared = declared_parameters(nb)
        if "DEVICE_TARGET" not in declared:
            continue
        if found is None:
            found = probe_devices()
        names = {d.lower(): d for d in found}
        wanted = str(plan.get(nb, {}).get("DEVICE_TARGET", _default(declared, "DEVICE_TARGET")))
        if wanted.lower() == "auto":
            device = next(iter(found), "CPU")
        elif wanted.lower() in names:
            device = names[wanted.lower()]
        else:
            raise RunError(f"{nb.stem}: DEVICE_TARGET={wanted!r} is not available on this machine (MindSpore found: "
                           f"{', '.join(found) or 'nothing - is MindSpore installed?'}). Run on a machine with that "
                           f"device, or use DEVICE_TARGET=auto.")
        lesson = _lesson(nb, manifest)
        workers_name = lesson.workers_parameter if lesson else None
        if workers_name in declared and device != "CPU":
            workers = int(plan.get(nb, {}).get(workers_name, _default(declared, workers_name)))
            if found.get(device, 0) < workers:
                card = "NPU" if device == "Ascend" else "GPU"
                raise RunError(
                    f"{nb.stem}: {workers} workers on {device} need {workers} {card}s (each worker gets its own), "
                    f"but this machine has {found.get(device, 0)}. Run this notebook with CPU workers "
                    f"(-p {nb.stem[:2]}:DEVICE_TARGET=CPU) or fewer workers.")
        devices[nb] = device
    return devices


def _same_python(argv0: str) -> bool:
    """Does a kernelspec's ``argv[0]`` start this Python (the runner's)? ``python``/``python3`` do: jupyter_client
    replaces them with the runner's ``sys.executable``."""
    if argv0 in ("python", f"python{sys.version_info[0]}", "python%d.%d" % sys.version_info[:2]):
        return True
    try:
        return Path(argv0).parent.resolve() == Path(sys.executable).parent.resolve()
    except OSError:
        return False


def course_kernel(name: str | None = None) -> tuple:
    """``(kernel name, its Python)`` for executing the notebooks: ``name`` if given, else a registered kernel that
    runs this Python (``python3`` preferred). On an image, ``python3`` may be another environment's kernel: then
    the runner would test the wrong environment, so it refuses and says how to register this one."""
    from jupyter_client.kernelspec import KernelSpecManager, NoSuchKernel

    ksm = KernelSpecManager()
    if name:
        try:
            return name, ksm.get_kernel_spec(name).argv[0]
        except NoSuchKernel:
            raise RunError(f"No Jupyter kernel named {name!r}; registered: "
                           f"{', '.join(sorted(ksm.find_kernel_specs())) or 'none'}.") from None
    specs = ksm.find_kernel_specs()
    seen = []
    for kernel in ["python3"] + sorted(k for k in specs if k != "python3"):
        try:
            argv0 = ksm.get_kernel_spec(kernel).argv[0]
        except (NoSuchKernel, OSError, ValueError):
            continue
        if _same_python(argv0):
            return kernel, argv0
        seen.append(f"{kernel} -> {argv0}")
    raise RunError(f"No Jupyter kernel runs this Python ({sys.executable}); registered: {'; '.join(seen) or 'none'}. "
                   f"Register it: {sys.executable} -m ipykernel install --user --name mindspore-course "
                   f"--display-name \"MindSpore course\", or pass --kernel NAME.")


def run_notebooks(notebooks, plan: dict, out_dir: Path, timeout: int = 1800, log=print,
                  kernel: str = "python3") -> list:
    """Execute each notebook (``course_utils.execute``, papermill's parameters) on ``kernel`` into ``out_dir``;
    returns the summary rows (also on failure). What a kernel process prints itself goes to ``NN_x.kernel.log``."""
    import nbformat

    out_dir = Path(out_dir).resolve()  # the kernels run in the notebooks' folder: a relative path would move
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for nb in notebooks:
        metrics_file = out_dir / f"{nb.stem}.metrics.json"
        metrics_file.unlink(missing_ok=True)   # an earlier run's (a reused --out) must not pass for this one's
        params = plan.get(nb, {})
        log(f"{nb.stem}: running" + (f" with {params}" if params else "") + " ...")
        done = execute(nb, parameters=params, timeout=timeout, kernel=kernel,
                       env={**os.environ, METRICS_ENV: str(metrics_file)},
                       kernel_log=out_dir / f"{nb.stem}.kernel.log")
        nbformat.write(done.notebook, out_dir / nb.name)
        status = "ok" if done.ok else "failed"
        metrics = json.loads(metrics_file.read_text()) if metrics_file.exists() else {}
        rows.append({"notebook": nb.stem, "status": status, "seconds": round(done.seconds, 1),
                     "parameters": params, "metrics": metrics, "error": done.error[:300]})
        log(f"{nb.stem}: {status} in {done.seconds:.1f} s" + (f" - {done.error[:300]}" if done.error else ""))
    return rows


def write_summary(rows: list, out_dir: Path, header: dict) -> str:
    """Write ``summary.json`` and ``summary.md``; return the Markdown."""
    (out_dir / "summary.json").write_text(json.dumps({"run": header, "notebooks": rows}, indent=1))
    lines = [f"# Course run {header['started']}", "",
             " | ".join(f"{k}: {v}" for k, v in header.items() if k != "started"), "",
             "| notebook | status | time (s) | parameters | metrics |", "|---|---|---|---|---|"]
    for r in rows:
        params = ", ".join(f"{k}={v}" for k, v in r["parameters"].items()) or "defaults"
        metrics = ", ".join(f"{k}={number(v)}" for k, v in r["metrics"].items()) or "-"
        status = r["status"] + (f" ({r['error']})" if r["error"] else "")
        lines.append(f"| {r['notebook']} | {status} | {r['seconds']} | {params} | {metrics} |")
    text = "\n".join(lines) + "\n"
    (out_dir / "summary.md").write_text(text)
    return text


def quick_parameters(notebooks, global_params: dict, scoped: dict, manifest=lessons.LESSONS) -> dict:
    """``scoped`` with each selected lesson's quick parameters (the manifest's) added where the user gave none of
    that name: ``{"04": {"TRAIN_SUBSET": 6000, "EPOCHS": 1}, ...}``."""
    out = {key: dict(params) for key, params in scoped.items()}
    for nb in notebooks:
        lesson = _lesson(nb, manifest)
        for name, value in (lesson.quick.items() if lesson else ()):
            given = out.get(lesson.number, {})
            if name not in global_params and name not in given and name not in out.get(nb.stem, {}):
                out.setdefault(lesson.number, {})[name] = value
    return out


def run_header(started: str, devices: dict, kernel: str, kernel_python: str, full: bool) -> dict:
    """The summary's first line: machine, the device(s) the notebooks resolved to, the CPU fixes (only when a
    notebook runs on CPU: they do nothing elsewhere), the kernel and its Python."""
    # The runner itself does not load MindSpore; each notebook's runtime.setup() applies the CPU fixes.
    used = sorted(set(devices.values())) or ["CPU"]
    if len(used) == 1:
        device = used[0]
    else:
        device = ", ".join(f"{nb.stem[:2]}: {d}" for nb, d in devices.items())
    fixes = runtime.cpu_fix_env("CPU") if "CPU" in used else {}
    header = {"started": started, "machine": runtime.machine_header(env=False), "device": device}
    if "CPU" in used:
        header["CPU fixes (CPU notebooks)"] = ", ".join(f"{k}={v}" for k, v in fixes.items()) or "none"
    header["kernel"] = f"{kernel} ({kernel_python})"
    header["full"] = full
    return header


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.run", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--notebooks", "-n", nargs="*", help="numbers or names (default: all)")
    parser.add_argument("-p", "--parameter", action="append", default=[], metavar="[NN:]NAME=VALUE")
    length = parser.add_mutually_exclusive_group()
    length.add_argument("--full", action="store_true", help="QUICK=False where a notebook declares QUICK")
    length.add_argument("--quick", action="store_true",
                        help="the lesson manifest's quick parameters (the test suite's short runs)")
    parser.add_argument("--lang", choices=list(lessons.EDITIONS), default="en",
                        help="the edition: en (notebooks/) or zh (the Chinese edition, notebooks/zh/)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default runs/<timestamp>)")
    parser.add_argument("--timeout", type=int, default=1800, help="seconds per cell")
    parser.add_argument("--kernel", default=None,
                        help="Jupyter kernel to run the notebooks (default: a registered kernel of this Python)")
    args = parser.parse_args(argv)

    try:
        notebooks = find_notebooks(args.notebooks, args.lang)
        global_params, scoped = parse_parameters(args.parameter)
        if args.quick:
            scoped = quick_parameters(notebooks, global_params, scoped)
        plan = plan_parameters(notebooks, global_params, scoped, full=args.full)
        devices = check_devices(notebooks, plan)
        kernel, kernel_python = course_kernel(args.kernel)
    except RunError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    started = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_dir = args.out or ROOT / "runs" / started
    header = run_header(started, devices, kernel, kernel_python, args.full)
    rows = run_notebooks(notebooks, plan, out_dir, timeout=args.timeout, kernel=kernel)
    print()
    print(write_summary(rows, out_dir, header))
    print(f"Executed notebooks and summary in {out_dir}")
    return 0 if all(r["status"] == "ok" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
