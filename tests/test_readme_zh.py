"""README.zh.md's lesson table: the same lessons as README.md, linked in notebooks/zh/, each with a run time.

The run times themselves are the Chinese notebooks' own measurements: tests/test_notebook_hygiene.py keeps each
within 2x of the stored run (scripts/execute_notebooks.py --readme writes them)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _rows(path: Path, link: str, time: str) -> list:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| \[(\d\d_\w+)\]\(" + link + r"\1\.ipynb\) \|.*\| ([^|]+) \|$", line)
        if m:
            rows.append((m.group(1), re.findall(time, m.group(2))))
    return rows


def test_chinese_readme_lists_the_lessons_with_run_times():
    english = _rows(ROOT / "README.md", r"notebooks/", r"~(\d+(?:\.\d+)?) (s|min)\b")
    chinese = _rows(ROOT / "README.zh.md", r"notebooks/zh/", r"约 (\d+(?:\.\d+)?) (秒|分钟)")
    assert english, "README.md: no lesson table found"
    assert [stem for stem, _ in chinese] == [stem for stem, _ in english]
    assert all(times for _, times in chinese), f"README.zh.md: a lesson row without '约 N 秒/分钟': {chinese}"
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert [stem for stem, _ in chinese] == lessons
