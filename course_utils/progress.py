"""Progress records: one line per exercise check, in the learner's own home, and the table that reads them.

Every ``nbNN.qK.check()`` run in a kernel appends one JSON line to the learner's record file: which exercise
(its label, ``"01.1"``, and its module), the outcome (``not_attempted`` / ``incorrect`` / ``correct``) and the time.
Never the learner's code, answer or the check's message (a message quotes values the code computed). Self-paced,
``python -m course_utils.progress`` prints the learner's own table; on the classroom server each record is also
posted, in the background, to the instructor's live view (``hub/classroom/service.py``) with the server's own hub
token, so the view works with every spawner without reading anyone's folder.

Recording is cheap (one ``O_APPEND`` write of a short line, which POSIX keeps whole) and can never fail a check:
every error is swallowed (the table says when the file cannot be written). Settings (environment):

``COURSE_PROGRESS=0``          turns recording (and posting) off
``COURSE_PROGRESS_FILE``       the record file (default ``~/.mindspore-course/progress.jsonl``)
``COURSE_PROGRESS_URL``        where to post records (set by the classroom server), with ``JUPYTERHUB_API_TOKEN``

Records are keyed by the exercise label and the lesson's exercise module, and lesson titles come from
``course_utils.lessons``, so renumbering lessons only changes what the manifest says. Standard library only.
"""

from __future__ import annotations

import ast
import json
import os
import queue
import threading
import time
import urllib.request
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple

from course_utils import lessons
from course_utils.fmt import display_width, pad
from course_utils.i18n import tr

__all__ = ["OUTCOMES", "ExerciseInfo", "catalogue", "enabled", "latest", "read_records", "record", "record_file",
           "summary_line", "table"]

ENV_OFF = "COURSE_PROGRESS"
ENV_FILE = "COURSE_PROGRESS_FILE"
ENV_URL = "COURSE_PROGRESS_URL"
#: The record's outcome names (stable: the live view and old files read them), in the order a table counts them.
OUTCOMES = ("correct", "incorrect", "not_attempted")
#: What each outcome is called in a table (the exercise framework's own labels, translated).
_OUTCOME_LABELS = {"correct": "Correct", "incorrect": "Incorrect", "not_attempted": "Not attempted yet"}
VERSION = 1
_MAX_PENDING = 200


def enabled() -> bool:
    """False when ``COURSE_PROGRESS`` is ``0``/``off``/``no``/``false``."""
    return os.environ.get(ENV_OFF, "1").strip().lower() not in ("0", "off", "no", "false")


def record_file() -> Path:
    """The learner's record file."""
    configured = os.environ.get(ENV_FILE, "").strip()
    return Path(configured).expanduser() if configured else Path.home() / ".mindspore-course" / "progress.jsonl"


def make_record(exercise, outcome) -> dict:
    """The record of one check: the exercise's label and module, the outcome's name, the time (UTC, ISO 8601)."""
    name = getattr(outcome, "name", str(outcome)).lower()
    return {"v": VERSION, "exercise": exercise.number, "module": type(exercise).__module__, "outcome": name,
            "time": datetime.now(timezone.utc).isoformat(timespec="seconds")}


def record(exercise, result) -> None:
    """Record one check's outcome (``base.Exercise.check`` calls this). Never raises; does nothing outside a kernel,
    when recording is off, or for an exercise without a label."""
    try:
        if not enabled() or not getattr(exercise, "number", "") or not _in_kernel():
            return
        entry = make_record(exercise, result.outcome)
        _append(record_file(), entry)
        if os.environ.get(ENV_URL) and os.environ.get("JUPYTERHUB_API_TOKEN"):
            _poster().put(entry)
    except Exception:  # recording is a courtesy: a check never fails because of it
        pass


def _in_kernel() -> bool:
    from course_utils.notebook import in_kernel

    return in_kernel()


def _append(path: Path, entry: dict) -> None:
    line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, line)  # one write of a short line: appended whole, also with two kernels at once
    finally:
        os.close(fd)


class _Poster:
    """One daemon thread that posts records to the live view in order; what fails is retried with the next one."""

    def __init__(self, url: str, token: str):
        self.url, self.token = url, token
        self.queue: "queue.Queue[dict]" = queue.Queue()
        self.pending: List[dict] = []
        threading.Thread(target=self._run, name="course-progress", daemon=True).start()

    def put(self, entry: dict) -> None:
        self.queue.put(entry)

    def _run(self) -> None:
        while True:
            self.pending.append(self.queue.get())
            del self.pending[:-_MAX_PENDING]
            try:
                body = json.dumps({"records": self.pending}).encode("utf-8")
                request = urllib.request.Request(self.url, data=body, method="POST", headers={
                    "Authorization": f"token {self.token}", "Content-Type": "application/json"})
                with urllib.request.urlopen(request, timeout=5) as response:
                    response.read()
                self.pending = []
            except Exception:
                time.sleep(1)


_POSTER: Optional[_Poster] = None
_POSTER_LOCK = threading.Lock()


def _poster() -> _Poster:
    global _POSTER
    with _POSTER_LOCK:
        url, token = os.environ[ENV_URL], os.environ["JUPYTERHUB_API_TOKEN"]
        if _POSTER is None or (_POSTER.url, _POSTER.token) != (url, token):
            _POSTER = _Poster(url, token)
        return _POSTER


# ------------------------------------------------------------------------------------------------
# Reading
# ------------------------------------------------------------------------------------------------

def valid(entry) -> bool:
    """Whether ``entry`` is a well-formed record (what a reader trusts, from a file or a post)."""
    return (isinstance(entry, dict) and isinstance(entry.get("exercise"), str) and len(entry["exercise"]) <= 16
            and isinstance(entry.get("module", ""), str) and len(entry.get("module", "")) <= 100
            and entry.get("outcome") in OUTCOMES and isinstance(entry.get("time"), str) and len(entry["time"]) <= 40)


def read_records(path: Optional[Path] = None) -> List[dict]:
    """Every well-formed record of the file, in order (a damaged line is skipped, a missing file is empty)."""
    path = record_file() if path is None else Path(path)
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return []
    found = []
    for line in text.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if valid(entry):
            found.append(entry)
    return found


def latest(records: Iterable[dict]) -> Dict[str, dict]:
    """Exercise label -> ``{"outcome", "time", "checks", "module"}`` of its last record (in file order)."""
    state: Dict[str, dict] = {}
    for entry in records:
        seen = state.setdefault(entry["exercise"], {"checks": 0})
        seen.update(outcome=entry["outcome"], time=entry["time"], module=entry.get("module", ""))
        seen["checks"] += 1
    return state


@dataclass(frozen=True)
class ExerciseInfo:
    """One exercise of the course: its label ("01.1"), its lesson (from the manifest) and its English title."""

    number: str
    lesson: lessons.Lesson
    title: str


def catalogue() -> Tuple[ExerciseInfo, ...]:
    """Every exercise of every lesson, in course order, read from the exercise modules' source (no import, so no
    MindSpore): each ``qN = ...`` of a module that calls ``register(globals(), "NN")``."""
    found = []
    for lesson in lessons.LESSONS:
        if lesson.exercises:
            found.extend(_exercises_of(lesson))
    return tuple(found)


def _module_path(module: str) -> Path:
    return lessons.ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _exercises_of(lesson: lessons.Lesson) -> List[ExerciseInfo]:
    try:
        tree = ast.parse(_module_path(lesson.exercises).read_text(encoding="utf-8"))
    except (OSError, SyntaxError):
        return []
    prefix, classes, numbered = lesson.number, {}, []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = node
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and _called(node.value) == "register":
            args = node.value.args
            if len(args) == 2 and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str):
                prefix = args[1].value
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
              and node.targets[0].id[:1] == "q" and node.targets[0].id[1:].isdigit()):
            numbered.append((int(node.targets[0].id[1:]), node.value))
    return [ExerciseInfo(f"{prefix}.{n}", lesson, _title(value, classes)) for n, value in sorted(numbered,
                                                                                                key=lambda p: p[0])]


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")


def _text(node) -> Optional[str]:
    """The string of ``"..."`` or ``N_("...")``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and _called(node) == "N_" and node.args:
        return _text(node.args[0])
    return None


def _title(value, classes: dict, depth: int = 0) -> str:
    if not isinstance(value, ast.Call) or depth > 5:
        return ""
    for keyword in value.keywords:
        if keyword.arg == "title" and _text(keyword.value) is not None:
            return _text(keyword.value)
    cls = classes.get(_called(value))
    while cls is not None and depth <= 5:
        for stmt in cls.body:
            if (isinstance(stmt, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "title" for t in stmt.targets)
                    and _text(stmt.value) is not None):
                return _text(stmt.value)
        bases = [b.id for b in cls.bases if isinstance(b, ast.Name) and b.id in classes]
        cls, depth = (classes[bases[0]] if bases else None), depth + 1
    return ""


def lesson_of(number: str, module: str = "") -> Optional[lessons.Lesson]:
    """The lesson of a record: by its exercise module (stable when lessons are renumbered), else by its label."""
    by_module = [lesson for lesson in lessons.LESSONS if module and lesson.exercises == module]
    by_number = [lesson for lesson in lessons.LESSONS if lesson.number == number.split(".")[0]]
    return (by_module or by_number or [None])[0]


# ------------------------------------------------------------------------------------------------
# The learner's table
# ------------------------------------------------------------------------------------------------

def outcome_label(outcome: str) -> str:
    return tr(_OUTCOME_LABELS.get(outcome, "Not attempted yet"))


def _local_time(stamp: str) -> str:
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def table(records: Iterable[dict], lang: Optional[str] = None) -> str:
    """The learner's table: one row per exercise of the course (lesson, exercise, last outcome, checks, time)."""
    from course_utils.i18n import language

    lang = lang or language()
    state = latest(records)
    rows = [(tr("lesson"), tr("exercise"), tr("outcome"), tr("checks"), tr("last check"))]
    known, previous = set(), None
    for info in catalogue():
        known.add(info.number)
        seen = state.get(info.number)
        title = info.lesson.title.get(lang) or info.lesson.title["en"]
        heading = f"{info.lesson.number} {_short(title)}" if info.lesson is not previous else ""
        previous = info.lesson
        rows.append((heading, info.number + (f" {tr(info.title)}" if info.title else ""),
                     outcome_label(seen["outcome"]) if seen else tr("Not attempted yet"),
                     str(seen["checks"]) if seen else "", _local_time(seen["time"]) if seen else ""))
    for number in sorted(set(state) - known):   # a record of an exercise this version of the course no longer has
        seen = state[number]
        lesson = lesson_of(number, seen.get("module", ""))
        rows.append((lesson.number if lesson else "?", number, outcome_label(seen["outcome"]), str(seen["checks"]),
                     _local_time(seen["time"])))
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(pad(cell, widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _short(title: str, limit: int = 28) -> str:
    """A lesson's title cut to about ``limit`` columns (at its first colon when there is one)."""
    head = title.split(":")[0].split("：")[0].strip()
    if display_width(head) <= limit:
        return head
    out = ""
    for ch in head:
        if display_width(out + ch) > limit - 1:
            break
        out += ch
    return out + "…"


def summary_line(records: Iterable[dict]) -> str:
    state = latest(records)
    numbers = [info.number for info in catalogue()]
    correct = sum(1 for number in numbers if state.get(number, {}).get("outcome") == "correct")
    total = len(numbers)
    return tr("{correct} of {total} exercises correct so far.", correct=correct, total=total)


def main(argv: Optional[List[str]] = None) -> int:
    import argparse

    description = tr("Your own progress: the last outcome of every exercise you checked.")
    parser = argparse.ArgumentParser(prog="python -m course_utils.progress", description=description)
    parser.add_argument("--file", type=Path, default=None, help=tr("the record file (default: {path})",
                                                                   path=record_file()))
    parser.add_argument("--json", action="store_true", help=tr("print the last record of each exercise as JSON"))
    args = parser.parse_args(argv)
    path = args.file or record_file()
    records = read_records(path)
    if args.json:
        print(json.dumps(latest(records), ensure_ascii=False, indent=1, sort_keys=True))
        return 0
    print(tr("Your progress (records in {path}):", path=path))
    print(table(records))
    print(summary_line(records))
    if not enabled():
        print(tr("Recording is off (COURSE_PROGRESS={value}): checks are not recorded.",
                 value=os.environ.get(ENV_OFF, "")))
    elif not records:
        print(tr("No check recorded yet: each nbNN.qK.check() you run in a notebook adds one line to this file."))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
