"""Re-execute notebooks from a clean kernel and store them the way the course ships them.

    python scripts/execute_notebooks.py                      # every notebook in notebooks/
    python scripts/execute_notebooks.py notebooks/01_*.ipynb  # some of them

Each notebook runs top to bottom in a fresh ``python3`` kernel with ``notebooks/`` as working
directory (as in JupyterLab and under nbval). The result replaces the stored file only if every cell
ran without error, and is normalised: kernelspec ``python3``, no per-cell timing metadata, no widget
state, no trailing kernel noise. This is what ``make notebooks`` runs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
LANGUAGE_INFO_KEEP = ("name", "codemirror_mode", "file_extension", "mimetype", "nbconvert_exporter",
                      "pygments_lexer")


def normalise(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Strip what differs between runs and machines but is not the lesson."""
    nb.metadata = nbformat.from_dict({
        "kernelspec": KERNELSPEC,
        "language_info": {k: v for k, v in nb.metadata.get("language_info", {}).items()
                          if k in LANGUAGE_INFO_KEEP} | {"name": "python"},
    })
    for cell in nb.cells:
        keep = {}
        for key in ("tags", "jupyter", "collapsed"):
            if key in cell.metadata:
                keep[key] = cell.metadata[key]
        cell.metadata = nbformat.from_dict(keep)
        cell.pop("id", None)
    nb.nbformat, nb.nbformat_minor = 4, 4
    return nb


def execute(path: Path, timeout: int = 900, parameters: dict | None = None) -> float:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    # store_widget_state must stay True: nbclient's ipywidgets.Output emulation writes into the widget
    # state and raises KeyError (the run hangs) without it. normalise() drops the state afterwards.
    client = NotebookClient(nb, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS)}}, store_widget_state=True)
    start = time.perf_counter()
    client.execute()
    seconds = time.perf_counter() - start
    nbformat.write(normalise(nb), path)
    return seconds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("notebooks", nargs="*", type=Path)
    parser.add_argument("--timeout", type=int, default=900, help="seconds per cell")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    failed = 0
    for path in paths:
        print(f"{path.name}: running...", flush=True)
        try:
            seconds = execute(path.resolve(), timeout=args.timeout)
        except CellExecutionError as exc:
            failed += 1
            print(f"{path.name}: FAILED, stored file left unchanged\n{exc}", file=sys.stderr)
            continue
        print(f"{path.name}: ok in {seconds:.1f} s", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
