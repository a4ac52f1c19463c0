"""Re-execute notebooks from a clean kernel and store them the way the course ships them.

    python scripts/execute_notebooks.py                      # every lesson, English and Chinese (notebooks/zh/)
    python scripts/execute_notebooks.py notebooks/01_*.ipynb  # some of them

Each notebook runs top to bottom in a fresh ``python3`` kernel with its own folder as working
directory (as in JupyterLab and under nbval). The result replaces the stored file only if every cell
ran without error, and is normalised: kernelspec ``python3``, no per-cell timing metadata, no widget
state, no trailing kernel noise. This is what ``make notebooks`` runs.

The run is timed: ``metadata["course"]`` records ``run_seconds`` (wall time of the whole notebook),
``load_average`` (1-minute load average before and after the run) and ``cpus``, so a run time quoted
in prose can be checked against a measurement (tests/test_notebook_hygiene.py compares the README's
table with it). ``--readme`` writes the measured times into the README's lesson table (README.zh.md's for
the Chinese edition) and into each title cell's "Run time: about N s" line (运行时间：约 N 秒); run it on a
quiet machine, because a loaded machine makes every notebook slower.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from course_utils.i18n import notebooks as i18n_notebooks

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
README = ROOT / "README.md"

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
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


def load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # not available on this platform
        return None


def set_title_run_time(nb: nbformat.NotebookNode, seconds: float) -> bool:
    """Replace the first 'about N s'/'~N min' on the title cell's 'Run time' line ('运行时间', '约 N 秒' in the
    Chinese edition); True if one was found."""
    title = nb.cells[0]
    m = re.search(r"(?:Run time|运行时间)[^\n]*", title.source)
    if not m:
        return False
    duration = format_duration(seconds).lstrip("~")
    if nb.metadata.get("language") == "zh":
        number, unit = duration.split()
        line, n = re.subn(r"约\s*\d+(?:\.\d+)?\s*(?:秒|分钟)", f"约 {number} {'秒' if unit == 's' else '分钟'}",
                          m.group(0), count=1)
    else:
        # the pattern the Chinese edition's hashes leave out: rewriting it never makes a translation stale
        line, n = i18n_notebooks.RUN_TIME.subn("about " + duration, m.group(0), count=1)
    title.source = title.source[:m.start()] + line + title.source[m.end():]
    return bool(n)


def execute(path: Path, timeout: int = 900, parameters: dict | None = None, title_time: bool = False) -> float:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    # store_widget_state must stay True: nbclient's ipywidgets.Output emulation writes into the widget
    # state and raises KeyError (the run hangs) without it. normalise() drops the state afterwards.
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}, store_widget_state=True)
    load_before = load_average()
    start = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - start
    nb = normalise(nb)
    if title_time and set_title_run_time(nb, seconds) and nb.metadata.get("language") == "zh":
        # the Chinese notebook is built from its catalogue: the measured figure goes there too
        english = path.parent.parent / path.name
        i18n_notebooks.set_entry_text(i18n_notebooks.catalogue_path(english), nb.cells[0].id, nb.cells[0].source)
    nb.metadata["course"] = {"run_seconds": round(seconds, 1), "load_average": [load_before, load_average()],
                             "cpus": os.cpu_count()}
    nbformat.write(nb, path)
    return seconds


def format_duration(seconds: float) -> str:
    """How the README quotes a run time: '~20 s' below two minutes, else '~3 min'."""
    if seconds < 120:
        return f"~{max(1, round(seconds / 5) * 5 if seconds >= 10 else round(seconds))} s"
    return f"~{round(seconds / 60)} min"


def format_duration_zh(seconds: float) -> str:
    """The same figure as ``format_duration``, as README.zh.md writes it: '约 20 秒', '约 3 分钟'."""
    number, unit = format_duration(seconds).lstrip("~").split()
    return f"约 {number} {'秒' if unit == 's' else '分钟'}"


def update_readme(times: dict, readme: Path = README, edition: str = "en") -> list:
    """Replace the first '~N s'/'~N min' ('约 N 秒'/'约 N 分钟' in README.zh.md, ``edition="zh"``) in the run-time
    column of each lesson row whose notebook ran.

    ``times`` maps notebook stems to seconds. Returns the stems whose row was updated.
    """
    lines, updated = readme.read_text(encoding="utf-8").splitlines(keepends=True), []
    folder = "notebooks/zh" if edition == "zh" else "notebooks"
    row = re.compile(rf"^(\|\s*\[[^\]]*\]\({folder}/(\d\d_\w+)\.ipynb\)\s*\|.*\|)([^|]*)(\|\s*)$")
    figure, fmt = ((r"约\s*\d+(?:\.\d+)?\s*(?:秒|分钟)", format_duration_zh) if edition == "zh"
                   else (r"~\d+(?:\.\d+)?\s*(?:s|min)\b", format_duration))
    for i, line in enumerate(lines):
        m = row.match(line)
        if m and m.group(2) in times:
            cell, n = re.subn(figure, fmt(times[m.group(2)]), m.group(3), count=1)
            if n:
                lines[i] = m.group(1) + cell + m.group(4)
                updated.append(m.group(2))
    readme.write_text("".join(lines), encoding="utf-8")
    return updated


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--timeout", type=int, default=900, help="seconds per cell")
    parser.add_argument("--readme", action="store_true",
                        help="write the measured run times into README.md's lesson table and the title cells "
                             "(quiet machine!)")
    args = parser.parse_args(argv)
    paths = args.notebooks or (sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
                                + sorted(NOTEBOOKS.glob("zh/[0-9][0-9]_*.ipynb")))
    failed, times = 0, {"en": {}, "zh": {}}
    for path in paths:
        print(f"{path.name}: running...", flush=True)
        try:
            seconds = execute(path.resolve(), timeout=args.timeout, title_time=args.readme)
        except CellExecutionError as exc:
            failed += 1
            print(f"{path.name}: FAILED, stored file left unchanged\n{exc}", file=sys.stderr)
            continue
        times["zh" if path.resolve().parent.name == "zh" else "en"][path.stem] = seconds
        print(f"{path.name}: ok in {seconds:.1f} s (load average {load_average()})", flush=True)
    for edition, readme in (("en", README), ("zh", README.with_name("README.zh.md"))):
        if args.readme and times[edition] and readme.exists():
            print(f"{readme.name} run times updated for:",
                  ", ".join(update_readme(times[edition], readme, edition)) or "no row")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
