"""README.zh.md's lesson table: the same lessons as README.md, linked in notebooks/zh/, with the same run times."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_UNITS = {"s": "秒", "min": "分钟"}


def _rows(path: Path, link: str, time: str) -> list:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\| \[(\d\d_\w+)\]\(" + link + r"\1\.ipynb\) \|.*\| ([^|]+) \|$", line)
        if m:
            rows.append((m.group(1), re.findall(time, m.group(2))))
    return rows


def test_chinese_readme_lists_the_lessons_with_the_english_run_times():
    english = _rows(ROOT / "README.md", r"notebooks/", r"~(\d+(?:\.\d+)?) (s|min)\b")
    chinese = _rows(ROOT / "README.zh.md", r"notebooks/zh/", r"约 (\d+(?:\.\d+)?) (秒|分钟)")
    assert english, "README.md: no lesson table found"
    assert [stem for stem, _ in chinese] == [stem for stem, _ in english]
    for (stem, en_times), (_, zh_times) in zip(english, chinese):
        assert zh_times == [(n, _UNITS[u]) for n, u in en_times], \
            f"{stem}: README.zh.md says {zh_times}, README.md {en_times}"
    lessons = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert [stem for stem, _ in chinese] == lessons
