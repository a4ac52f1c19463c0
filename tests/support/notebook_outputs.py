"""nbval's ``--nbval-lax`` output check, applied to a notebook some other run executed.

The browser suite runs every lesson in JupyterLab and saves it; this compares the saved outputs of the cells
tagged ``nbval-check-output`` with the stored notebook exactly as nbval would (streams coalesced, the
sanitizers of ``tests/support/nbval_sanitize.cfg`` applied, images, widget ids and metadata not compared). So the
suite executes each notebook once and still checks what nbval checks; ``make test-notebooks`` keeps nbval
itself for machines without a browser.
"""

from __future__ import annotations

import configparser
import re
from collections import defaultdict
from pathlib import Path

import nbformat
from nbval.plugin import coalesce_streams, transform_streams_for_comparison

SANITIZE_CFG = Path(__file__).resolve().parent / "nbval_sanitize.cfg"
#: Log and warning noise no output of a lesson may carry (MindSpore's logger, Python warnings, tracebacks).
NOISE = re.compile(r"\[(WARNING|ERROR|INFO|DEBUG|CRITICAL)\] [A-Z_]+\(|Traceback \(most recent call last\)|"
                   r"\w+Warning: |Get realpath failed")
CHECK_TAG = "nbval-check-output"
#: A cell whose output depends on an optional package (e.g. lesson 07's PyTorch comparison): stored where the
#: package was importable, it may show less where it is not (the cell then prints why it skipped).
OPTIONAL_TAG = "optional-package"
#: What nbval (without --nbdime) leaves out of the comparison.
SKIP = {"metadata", "traceback", "prompt_number", "output_type", "name", "execution_count",
        "application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg"}


def sanitizers(path: Path = SANITIZE_CFG) -> list:
    """[(compiled regex, replacement)] from an nbval sanitize file, in file order."""
    parser = configparser.ConfigParser(interpolation=None)
    parser.read(path, encoding="utf-8")
    return [(re.compile(parser[s]["regex"]), parser[s]["replace"]) for s in parser.sections()]


def _flatten(outputs, patterns) -> dict:
    """{key or MIME type: [sanitized values in order]}, nbval's comparison form."""
    flat = defaultdict(list)

    def clean(value):
        if isinstance(value, str):
            for regex, replace in patterns:
                value = regex.sub(replace, value)
        return value

    for out in transform_streams_for_comparison(coalesce_streams([nbformat.from_dict(o) for o in outputs])):
        for key, value in out.items():
            if key in SKIP:
                continue
            if key == "data":
                for mime, data in value.items():
                    if mime not in SKIP:
                        flat[mime].append(clean(data))
            else:
                flat[key].append(clean(value))
    return dict(flat)


def checked_output_problems(stored: nbformat.NotebookNode, executed: nbformat.NotebookNode,
                            patterns: list | None = None) -> list:
    """Differences in the tagged cells' outputs between ``stored`` and ``executed`` (empty when they agree)."""
    patterns = sanitizers() if patterns is None else patterns
    if len(stored.cells) != len(executed.cells):
        return [f"the executed notebook has {len(executed.cells)} cells, the stored one {len(stored.cells)}"]
    problems = []
    for index, (ref, got) in enumerate(zip(stored.cells, executed.cells)):
        if ref.cell_type != "code" or CHECK_TAG not in ref.get("metadata", {}).get("tags", []):
            continue
        want, have = _flatten(ref.get("outputs", []), patterns), _flatten(got.get("outputs", []), patterns)
        if want != have:
            keys = sorted(set(want) | set(have))
            diff = "; ".join(f"{k}: stored {want.get(k)!r:.300} / now {have.get(k)!r:.300}" for k in keys
                             if want.get(k) != have.get(k))
            problems.append(f"cell {index} (tagged {CHECK_TAG}) printed something else: {diff}")
    return problems


def output_text(output) -> str:
    """The text of a stream output, or the ``text/plain`` of a display/result output."""
    if output["output_type"] == "stream":
        text = output["text"]
    else:
        text = output.get("data", {}).get("text/plain", "")
    return "".join(text) if isinstance(text, list) else text


def noise_problems(nb) -> list:
    """Error outputs and log/warning noise (``NOISE``) in a notebook's outputs (empty when clean)."""
    problems = []
    for index, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            if out["output_type"] == "error":
                problems.append(f"cell {index}: error output {out.get('ename')}: {out.get('evalue', '')[:300]}")
                continue
            text = output_text(out)
            if NOISE.search(text):
                problems.append(f"cell {index}: log/warning noise in output: {text[:300]!r}")
    return problems


def solved_reference(stored: nbformat.NotebookNode, solved: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``stored`` aligned cell for cell with ``solved``, the instructor edition of it (``course_utils.solutions``):
    the cells the build put first (its banner) added, and the output check left off the cells the build filled in
    (their output is the solved check's, not the stored placeholder's). Compare ``solved`` once executed with it."""
    import copy

    from course_utils import solutions

    reference = copy.deepcopy(stored)
    extra = len(solved.cells) - len(stored.cells)
    assert extra >= 0 and [c.get("id") for c in solved.cells[extra:]] == [c.get("id") for c in stored.cells], (
        "the instructor edition must keep every cell of the lesson, in order")
    reference.cells = [copy.deepcopy(c) for c in solved.cells[:extra]] + reference.cells
    for ref, got in zip(reference.cells, solved.cells):
        if solutions.METADATA_KEY in got.get("metadata", {}):
            ref.metadata["tags"] = [t for t in ref.metadata.get("tags", []) if t != CHECK_TAG]
    return reference
