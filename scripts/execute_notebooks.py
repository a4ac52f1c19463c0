"""Re-execute notebooks from a clean kernel and store them the way the course ships them.

    python scripts/execute_notebooks.py                      # every lesson, English and Chinese (notebooks/zh/)
    python scripts/execute_notebooks.py notebooks/01_*.ipynb  # some of them

Each notebook runs top to bottom in a fresh ``python3`` kernel with its own folder as working
directory (``course_utils.execute``, as in JupyterLab and under nbval); the lessons are the manifest's
(``course_utils.lessons``). The result replaces the stored file only if every cell
ran without error, and is normalised: kernelspec ``python3``, no per-cell timing metadata, no widget
state, no trailing kernel noise. This is what ``make notebooks`` runs.

The run is timed: ``metadata["course"]`` records ``run_seconds`` (wall time of the whole notebook),
``load_average`` (1-minute load average before and after the run) and ``cpus``, so a run time quoted
in prose can be checked against a measurement (the tests compare the README tables and the title cells with
it). ``--readme`` writes the README's lesson tables from the manifest with the measured times of the
notebooks it ran (README.zh.md's for the Chinese edition) and each title cell's "Run time: about N s" line
(运行时间：约 N 秒); run it on a quiet machine, because a loaded machine makes every notebook slower. Both editions
of a lesson quote one figure, the longer of their two stored runs (they run the same code on the same data).
``--readme --stored`` executes nothing: it writes the same title lines and README rows from the run each stored
notebook records (its ``metadata["course"]["run_seconds"]``), for notebooks re-executed without ``--readme``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
from pathlib import Path

# This checkout's course_utils, for this script and for the kernels it starts, not whatever the shared .venv's
# editable install points at (a git worktree shares the main checkout's .venv).
_ROOT = str(Path(__file__).resolve().parents[1])
sys.path.insert(0, _ROOT)
os.environ["PYTHONPATH"] = os.pathsep.join(
    [_ROOT] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])

import nbformat  # noqa: E402

from course_utils import fmt, lessons  # noqa: E402
from course_utils.execute import execute, load_average  # noqa: E402
from course_utils.i18n import notebooks as i18n_notebooks  # noqa: E402

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
#: Files a lesson creates beside itself for the learner to edit (notebook 10's copy of the skeleton). The stored
#: output must show a first run, so a learner's own copy is set aside during the run and put back afterwards.
LEARNER_FILES = ("my_capstone.py",)
LANGUAGE_INFO_KEEP = ("name", "codemirror_mode", "file_extension", "mimetype", "nbconvert_exporter",
                      "pygments_lexer")


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip what differs between runs and machines but is not the lesson."""
    nb.metadata = nbformat.from_dict({
        "kernelspec": KERNELSPEC,
        "language_info": {k: v for k, v in nb.metadata.get("language_info", {}).items()
                          if k in LANGUAGE_INFO_KEEP} | {"name": "python"},
        # the edition's language (notebooks/zh/: "zh"), written by python -m course_utils.i18n build
        **({"language": nb.metadata["language"]} if "language" in nb.metadata else {}),
    })
    for cell in nb.cells:
        keep = {}
        for key in ("tags", "jupyter", "collapsed"):
            if key in cell.metadata:
                keep[key] = cell.metadata[key]
        cell.metadata = nbformat.from_dict(keep)
    # cell ids stay: the Chinese edition's catalogue (i18n/zh/) is keyed by them
    nb.nbformat, nb.nbformat_minor = 4, 5
    return nb


def set_title_run_time(nb: nbformat.NotebookNode, seconds: float) -> bool:
    """Replace the first 'about N s'/'~N min' on the title cell's 'Run time' line ('运行时间', '约 N 秒' in the
    Chinese edition); True if one was found."""
    title = nb.cells[0]
    m = re.search(r"(?:Run time|运行时间)[^\n]*", title.source)
    if not m:
        return False
    if nb.metadata.get("language") == "zh":
        line, n = re.subn(r"约\s*\d+(?:\.\d+)?\s*(?:秒|分钟)", fmt.duration(seconds, "zh"), m.group(0),
                          count=1)
    else:
        # the pattern the Chinese edition's hashes leave out: rewriting it never makes a translation stale
        line, n = i18n_notebooks.RUN_TIME.subn("about " + fmt.duration(seconds).lstrip("~"), m.group(0),
                                               count=1)
    title.source = title.source[:m.start()] + line + title.source[m.end():]
    return bool(n)


def write_title_time(path: Path, nb: nbformat.NotebookNode, seconds: float) -> None:
    """Put ``seconds`` on the title cell's run-time line of ``nb`` (stored at ``path``); the Chinese notebook is built
    from its catalogue, so the measured figure goes there too."""
    if set_title_run_time(nb, seconds) and nb.metadata.get("language") == "zh":
        english = path.parent.parent / path.name
        i18n_notebooks.set_entry_text(i18n_notebooks.catalogue_path(english), nb.cells[0].id, nb.cells[0].source)


def stored_title_time(path: Path) -> float:
    """Write the run time a stored notebook records into its title cell, without executing it; the seconds. For a
    lesson of the manifest that is the figure both editions quote: the longer of their two stored runs."""
    nb = nbformat.read(path, as_version=4)
    seconds = nb.metadata.get("course", {}).get("run_seconds")
    if seconds is None:
        raise SystemExit(f"{path}: no recorded run (metadata.course.run_seconds); execute it first")
    try:
        seconds = lessons.get(path.stem).quoted_run_seconds(path.parents[2 if path.parent.name == "zh" else 1]) \
            or seconds
    except KeyError:   # not a lesson of the manifest: its own run
        pass
    write_title_time(path, nb, seconds)
    nbformat.write(nb, path)
    return seconds


@contextlib.contextmanager
def learner_files_set_aside(folder: Path):
    """Run with the learner's files of ``folder`` (LEARNER_FILES) moved aside; afterwards the copies the run made
    are deleted and the learner's files are back, unchanged."""
    aside = {}
    for name in LEARNER_FILES:
        if (folder / name).exists():
            aside[name] = folder / f".{name}.{os.getpid()}.aside"
            os.replace(folder / name, aside[name])
    try:
        yield
    finally:
        for name in LEARNER_FILES:
            if name in aside:
                os.replace(aside[name], folder / name)
            else:
                (folder / name).unlink(missing_ok=True)


def store(path: Path, timeout: int = 900, title_time: bool = False):
    """Execute the stored notebook ``path`` and, if every cell ran, replace it, normalised and timed; returns the
    ``Execution`` (its ``error`` says why the stored file was left unchanged). The learner's own files beside it
    are set aside meanwhile, so the stored output shows a first run and their work stays."""
    with learner_files_set_aside(path.parent):
        done = execute(path, timeout=timeout)
    if not done.ok:
        return done
    nb = normalise(done.notebook)
    if title_time:
        write_title_time(path, nb, done.seconds)
    nb.metadata["course"] = {"run_seconds": round(done.seconds, 1), "load_average": list(done.load_average),
                             "cpus": os.cpu_count()}
    nbformat.write(nb, path)
    return done


def default_paths() -> list:
    """What ``make notebooks`` re-executes without arguments: every lesson of the manifest, English then Chinese."""
    return [path for lang in lessons.EDITIONS for path in lessons.paths(lang)]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--timeout", type=int, default=900, help="seconds per cell")
    parser.add_argument("--readme", action="store_true",
                        help="write the README lesson tables (the measured run times of the notebooks run now) and "
                             "the title cells (quiet machine!)")
    parser.add_argument("--stored", action="store_true",
                        help="with --readme: execute nothing, take the run times the stored notebooks record")
    args = parser.parse_args(argv)
    if args.stored and not args.readme:
        parser.error("--stored only goes with --readme (it writes the run times the stored notebooks record)")
    paths = args.notebooks or default_paths()
    failed, measured = 0, {lang: [] for lang in lessons.EDITIONS}
    for path in paths:
        if args.stored:
            seconds = stored_title_time(path.resolve())
            measured["zh" if path.resolve().parent.name == "zh" else "en"].append(path.stem)
            print(f"{path.name}: title run time from the stored run ({seconds:.1f} s)", flush=True)
            continue
        print(f"{path.name}: running...", flush=True)
        done = store(path.resolve(), timeout=args.timeout, title_time=args.readme)
        if not done.ok:
            failed += 1
            print(f"{path.name}: FAILED, stored file left unchanged\n{done.traceback}", file=sys.stderr)
            continue
        measured["zh" if path.resolve().parent.name == "zh" else "en"].append(path.stem)
        print(f"{path.name}: ok in {done.seconds:.1f} s (load average {load_average()})", flush=True)
    if args.readme:
        # one figure per lesson in both editions (the longer stored run): the title cells of both, then both READMEs
        names = sorted({name for ran in measured.values() for name in ran})
        for name in names:
            try:
                lesson = lessons.get(name)
            except KeyError:   # not a lesson of the manifest: its title already has its own run
                continue
            for lang in lessons.EDITIONS:
                if lesson.run_seconds(lang, Path(_ROOT)):   # None for a missing or never-executed notebook
                    stored_title_time(lesson.path(lang, Path(_ROOT)))
        if names:
            for lang in lessons.EDITIONS:
                print(f"{lessons.write_readme(lang, measured=names).name}: run times written for {', '.join(names)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
