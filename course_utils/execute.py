"""One way to execute a notebook, for everything that runs the lessons without a browser.

``execute(path)`` runs a notebook top to bottom in a fresh kernel (nbclient), with its own folder as the working
directory, as JupyterLab and nbval do, and returns an ``Execution``: the executed notebook, how long it took (with
the load average before and after), and the error of the first cell that failed, if one did (it does not raise:
each caller decides what a failure means). Parameters go in the way papermill puts them
(``with_parameters``: an ``injected-parameters`` cell after the cell tagged ``parameters``), so a notebook run here
behaves as under ``papermill -p``.

Its callers: ``make run`` (``course_utils.run``), the instructor edition (``course_utils.solutions``), the
maintainers' re-execution of the stored notebooks (``scripts/execute_notebooks.py``), and the tests.

Two settings matter for every caller, so they live here: ``store_widget_state=True`` (nbclient's emulation of
``ipywidgets.Output`` writes into the widget state, and without it a lesson with an Output widget hangs), and what
the kernel process itself writes to its stdout and stderr (MindSpore's C++ prints from compiled graphs, ipykernel's
start-up warnings) goes to ``kernel_log`` instead of the caller's terminal.
"""

from __future__ import annotations

import dataclasses
import os
import re
import time
from pathlib import Path
from typing import Mapping, Optional, Tuple, Union

from course_utils.notebook import HEADLESS_ENV

__all__ = ["KERNEL", "Execution", "execute", "load_average", "with_parameters"]

#: The course's kernel: ``.venv``'s ``python3`` kernelspec (``make setup`` registers it).
KERNEL = "python3"


@dataclasses.dataclass
class Execution:
    """What one execution produced."""

    notebook: object                         #: the executed notebook (nbformat), outputs up to a failure
    seconds: float                           #: wall time of the whole run
    error: str = ""                          #: "" if every cell ran, else the failing cell's "Name: message"
    traceback: str = ""                      #: the failing cell's traceback, terminal colours removed
    load_average: Tuple[Optional[float], Optional[float]] = (None, None)   #: 1-minute load before and after

    @property
    def ok(self) -> bool:
        return not self.error


def load_average() -> Optional[float]:
    """The 1-minute load average (None where the platform has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


def with_parameters(nb, params: Mapping, kernel: str = KERNEL):
    """``nb`` with papermill's ``injected-parameters`` cell after its ``parameters`` cell (``nb`` itself if there are
    no parameters): the one parameter injection of the course."""
    if not params:
        return nb
    from papermill.parameterize import parameterize_notebook

    for cell in nb.cells:  # papermill reads cell.metadata.tags on every cell
        cell.metadata.setdefault("tags", [])
    nb.metadata.setdefault("papermill", {})   # where papermill records the parameters
    nb = parameterize_notebook(nb, dict(params), report_mode=False, kernel_name=kernel, language="python")
    for cell in nb.cells:
        if not cell.metadata.get("tags", True):
            del cell.metadata["tags"]
    return nb


def _clean(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text).strip()


def execute(notebook: Union[str, Path, object], *, cwd: Union[str, Path, None] = None,
            parameters: Optional[Mapping] = None, timeout: float = 1800, kernel: str = KERNEL,
            env: Optional[Mapping[str, str]] = None, kernel_log: Union[str, Path, None] = None) -> Execution:
    """Execute ``notebook`` (a path, or an nbformat notebook) from a clean state in a fresh ``kernel``.

    cwd:        the kernel's working directory (default: the notebook's folder; required for a notebook object);
    parameters: injected as papermill does (``with_parameters``);
    timeout:    seconds one cell may take;
    env:        the kernel's whole environment (default: this process's), plus ``COURSE_HEADLESS=1``
                (``notebook.headless()``: no progress-bar widget in an output nobody watches live);
    kernel_log: file for what the kernel process itself prints (default: this process's stdout/stderr).
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    if isinstance(notebook, (str, Path)):
        path = Path(notebook)
        nb = nbformat.read(path, as_version=4)
        cwd = cwd or path.parent
    else:
        nb = notebook
        if cwd is None:
            raise ValueError("execute(notebook object) needs cwd=, the folder the notebook runs in")
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb = with_parameters(nb, parameters or {}, kernel)
    client = NotebookClient(nb, timeout=timeout, kernel_name=kernel, store_widget_state=True,
                            resources={"metadata": {"path": str(cwd)}})
    # the kernel knows it runs headless: nobody sees a widget's updates (fit then shows no progress bar)
    launch = {"env": {**(os.environ if env is None else env), HEADLESS_ENV: "1"}}
    before, start = load_average(), time.perf_counter()
    error = trace = ""
    try:
        if kernel_log is not None:
            with open(kernel_log, "w", encoding="utf-8") as log:
                client.execute(stdout=log, stderr=log, **launch)
        else:
            client.execute(**launch)
    except CellExecutionError as exc:
        trace = _clean(str(exc))
        error = f"{exc.ename}: {exc.evalue}".strip(": ") if exc.ename else (trace.splitlines() or [""])[-1]
    except (CellTimeoutError, DeadKernelError) as exc:
        trace = _clean(str(exc))
        error = f"{type(exc).__name__}: {(trace.splitlines() or [''])[0]}"
    seconds = time.perf_counter() - start
    nb.metadata.pop("widgets", None)   # the widget state nbclient needed while running; no lesson stores it
    return Execution(nb, seconds, error.splitlines()[0][:500] if error else "", trace, (before, load_average()))
