"""Lesson 07's deep dives (``DEEP_DIVES = True``): check 2's pinning study and part 1's fresh-process forcing test are
off the default path, so the suite's lesson runs do not execute them; this test runs the English lesson with them on,
on the manifest's quick parameters, and checks what they print."""

import pytest

from course_utils import lessons
from course_utils.execute import execute


def _text(cell) -> str:
    return "".join(o.get("text", "") or o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_deep_dives_run_and_print_their_findings():
    lesson = lessons.get("07")
    done = execute(lesson.path("en"), parameters={**lesson.quick, "DEEP_DIVES": True})
    assert done.ok, done.traceback
    cells = {cell.id: cell for cell in done.notebook.cells}
    pinning, forcing = _text(cells["a6bad9b9"]), _text(cells["ba57d6fb"])
    assert "Skipped" not in pinning and "Skipped" not in forcing
    assert "This run found: the middle 80% of the calls spanned" in pinning or "nothing to compare" in pinning
    assert "[forcing]" in forcing and "in the fresh process (off)" in forcing
