"""Find English a Chinese reader meets in the Chinese edition: its stored Markdown and outputs.

``python -m course_utils.i18n english [NN ...]`` lists, per zh lesson, every run of English words outside code,
names and a small allow-list; ``tests/repo/test_i18n_english.py`` runs the same check on every lesson.

What counts as English, and what does not:

* **Checked**: the text of Markdown cells and what code cells print (streams, ``text/plain`` results).
* **Not checked** (code, and what stays English on purpose): fenced and inline code, URLs, HTML tags, LaTeX;
  an output that is source code (it parses as Python: a script or function the lesson shows); a line that
  quotes an error (``ValueError: ...``, ``RuntimeError: ...``): the lessons reproduce real messages; MindSpore's
  own words (``ALLOWED``); file paths; and every word that looks like a name rather than English: with a digit or
  ``_``, CamelCase (``MindSpore``, ``PyNative``), capitals (``GRAPH_MODE``, ``CPU``), dotted (``ops.select``),
  joined by colons (oneDNN's ``x64:gemm:jit``).
* **A finding** is a run of English words (consecutive, joined only by spaces and ASCII punctuation) with two or
  more words, or a single English function word between other text ("2.7.1 to 2.10.x", "line 128, in main").
  A single content word (worker, rank, batch) is the kind of English Chinese technical writing keeps.

``RESIDUE`` (``i18n/zh/english-residue.txt``) lists what each lesson is known to still have, while the branch
that removes it has not landed: the test fails on anything *not* listed (new English cannot slip in) and on a
listed run that is gone (so the list only shrinks). An empty list for a lesson enforces it completely.
"""

from __future__ import annotations

import ast
import json
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Iterable, List

ROOT = Path(__file__).resolve().parents[2]
RESIDUE = ROOT / "i18n" / "zh" / "english-residue.txt"

#: English that stays: MindSpore's and the tools' own output and names written as words.
ALLOWED = (
    "The result of multiplication calculation is correct, MindSpore has been installed on platform",
    "successfully",
    "Python 3 (ipykernel)",
    "Run All", "Restart Kernel",
    "loss is", "Eval result: epoch",      # MindSpore's LossMonitor and Model.fit's evaluation lines
    "Noto Sans CJK", "WenQuanYi Micro Hei", "Micro Hei",
    "Hugging Face",
    "Learn the Basics",
    "all-reduce", "warm-up",
    "No module named",                    # Python's ImportError, quoted where a lesson says what is missing
    "Intel Xeon",                         # a CPU's name (the reference machine of a measurement)
    "reshape + max",                      # lesson 08's name for one formulation of pooling: the code it stands for
    # the lab's configuration strings (course_utils.bench Spec: "<mode>/<style>"), code that lesson 07 prints
    "pynative/functional", "pynative/cell", "graph/functional", "graph/cell",
    # msrun's own console lines, which lesson 09 shows as they are
    "Start scheduler process, log file:", "Start worker process with rank id:", ", log file:", "Environment variable",
    "is exported.", "Execute command:",
)
#: English function words: one of them alone between other text is still an English phrase.
FUNCTION_WORDS = frozenset("""
a an the of to in on at by from without into onto over under per than then but nor no and or not is with
are was were be been being has have had do does did will would can could should may might must
this that these those it its there here which what who when where why how all any each every some
after before during until since via so
""".split())
#: Python's constants and the keywords a lesson names in its text (``if``, ``for``): code, not English. (``in``,
#: ``is``, ``and`` are English words too often to be let through.)
PYTHON_WORDS = frozenset("True False None if else elif for while def return yield lambda import".split())

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"`(?:[^`\n]|\n(?!\n))+`")
_LINK = re.compile(r"\]\([^)\s]+\)")
_URL = re.compile(r"(?:https?|file)://\S+|www\.\S+")
_HTML = re.compile(r"<[^>\n]+>")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)
# a path: absolute or ./relative, a folder (ends in /), a file with an extension, or three parts; not "steps/s"
_PATH = re.compile(r"(?<![\w/])(?:\.{1,2}/|/)[\w./-]+|\b[\w.-]+/(?:[\w.-]+/)*(?:[\w-]*\.[A-Za-z]\w*\b|(?=[\s,;:)]|$))"
                   r"|\b\w+(?:/\w+){2,}")
_ERROR_LINE = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning|Interrupt|Exit)\b\s*:.*$", re.MULTILINE)
#: A line a tool prints, shown as it is so that the lesson can read it (oneDNN's verbose log, lesson 08): its words
_TOOL_LINE = re.compile(r"^onednn_verbose,[^\n]*$", re.MULTILINE)
_COMMAND = re.compile(r"^\s*(?:\$ |python3? |msrun |papermill |make |git |pip |source |bash |cd |export )[^\n]*$",
                      re.MULTILINE)
_FLAG = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*(?:=\S+| (?![-(])[^\s,;]+)?")  # a flag and its value
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")
# Between two words of one run: spaces and ASCII punctuation, nothing else (no CJK, no digits).
_JOIN = re.compile(r"[ \t,.;:!?()\[\]\"'/&+*=<>|~^-]*")


@dataclass(frozen=True)
class Finding:
    notebook: str   # file name of the Chinese notebook
    cell: int       # 1-based cell number
    where: str      # "markdown" or "output"
    text: str       # the run of English words

    def __str__(self):
        return f"{self.notebook} cell {self.cell} ({self.where}): {self.text}"


def _namelike(word: str) -> bool:
    """A word that is a name rather than English: CamelCase, capitals, a single letter."""
    if len(word) == 1 or word in PYTHON_WORDS:
        return True
    letters = word.replace("-", "").replace("'", "").replace("’", "")
    if letters.isupper():
        return True
    return any(c.isupper() for c in letters[1:])  # MindSpore, PyNative, ReLU, dLoss


def _is_source(text: str) -> bool:
    """An output that is a listing of Python source (a script, a function the lesson shows)."""
    if not re.search(r"^\s*(def |class |import |from \w+ import |@|#|\"\"\"|\w+ = )", text, re.MULTILINE):
        return False
    try:
        ast.parse(textwrap.dedent(text))
        return True
    except SyntaxError:
        return False


def _strip_markdown(text: str) -> str:
    for pattern in (_FENCE, _MATH, _INLINE_CODE, _LINK, _URL, _HTML):
        text = pattern.sub(" ¶ ", text)
    return text


_ASSIGNED = re.compile(r"\b\w+=(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s,;)]+)")
_QUOTED = re.compile(r"'[^'\n]*'")
_ABS = re.compile(r"\|[^|\n]{1,24}\|")


def _strip_output(text: str) -> str:
    """What a printed value's repr adds: ``name=value`` arguments, quoted strings, ``|x|`` notation."""
    for pattern in (_ASSIGNED, _QUOTED, _ABS):
        text = pattern.sub(" ¶ ", text)
    return text


def _strip_common(text: str) -> str:
    text = _TOOL_LINE.sub(" ¶ ", text)
    text = _ERROR_LINE.sub(" ¶ ", text)
    text = _COMMAND.sub(" ¶ ", text)
    text = _FLAG.sub(" ¶ ", text)
    text = _URL.sub(" ¶ ", text)
    text = _PATH.sub(" ¶ ", text)
    for phrase in sorted(ALLOWED, key=len, reverse=True):
        text = text.replace(phrase, " ¶ ")
    # a name whose parts are joined by colons (oneDNN's implementations: "x64:gemm:jit", "jit:avx2",
    # "jit_uni_ncsp:conv+ref:any"), a dotted or underscored name, or a word glued to digits, is code: blank it
    # before words are split
    text = re.sub(r"[\w+]+(?::[\w+]+)+|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+(?:\(\))?|\w*_\w*|\w*\d\w*", " ¶ ", text)
    return text


def runs(text: str) -> List[str]:
    """The runs of English words in ``text`` (already stripped of code) that count as English."""
    found = []
    words = list(_WORD.finditer(text))
    group: List[re.Match] = []

    def close():
        english = [m.group() for m in group if not _namelike(m.group())]
        if len(english) >= 2 or any(w.lower() in FUNCTION_WORDS for w in english):
            found.append(text[group[0].start():group[-1].end()])

    for m in words:
        if group and not _JOIN.fullmatch(text[group[-1].end():m.start()]):
            close()
            group = []
        group.append(m)
    if group:
        close()
    return found


_SOURCE_START = re.compile(r"\s*(def |class |import |from \w+ import |@|#|\"\"\"|\w+ = )")


def _chinese_outside_comment(line: str) -> bool:
    """A line with Chinese before any ``#``: printed text, not a line of code with a Chinese comment."""
    cjk = _CJK.search(line)
    return bool(cjk) and "#" not in line[:cjk.start()]


_LISTING_START = re.compile(r"(def |class |import |from [\w.]+ import |@\w|\"\"\")")


def _without_source(text: str) -> str:
    """``text`` with every listing of Python source left out: from the first line, and from an unindented line that
    starts a listing after printed text (``show()`` after a table, in one stream), the longest run of lines that
    parses as Python (a listing of the Chinese edition's scripts has Chinese comments and docstrings); then the
    chunks between lines that hold Chinese outside a comment (what the course prints around a listing) that parse
    as Python."""
    lines, rest, i = text.split("\n"), [], 0
    while i < len(lines):
        if _SOURCE_START.match(lines[i]) if i == 0 else _LISTING_START.match(lines[i]):
            end = next((e for e in range(len(lines), i, -1) if _is_source("\n".join(lines[i:e]))), None)
            if end is not None:
                i = end
                continue
        rest.append(lines[i])
        i += 1
    text = "\n".join(rest)
    kept, chunk = [], []

    def flush():
        block = "\n".join(chunk)
        if not (chunk and _is_source(block)):
            kept.extend(chunk)
        chunk.clear()

    for line in text.split("\n"):
        if _chinese_outside_comment(line):
            flush()
            kept.append(line)
        else:
            chunk.append(line)
    flush()
    return "\n".join(kept)


def _output_texts(cell) -> Iterable[str]:
    for out in cell.get("outputs", []):
        text = out.get("text") if out.get("output_type") == "stream" else out.get("data", {}).get("text/plain")
        if text is None:
            continue
        text = "".join(text) if isinstance(text, list) else text
        if re.fullmatch(r"<Figure size [^>]+>|<IPython\.core\.display\.\w+ object>", text.strip()):
            continue
        yield _without_source(text)


#: A snake_case identifier (``cell_vs_functional_control_range``): a key of the code's, not a word of the text.
_SNAKE = re.compile(r"(?<![\w.$/-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/-]|\.\w)")
#: snake_case names a zh text may show although no code of its lesson spells them: MindSpore's parameter names,
#: oneDNN's implementation and propagation names, the lab's experiment names (``python -m course_utils.bench``), an
#: architecture.
ALLOWED_NAMES = frozenset("""
moving_mean beta1_power beta2_power global_step
jit_uni_ncsp forward_training backward_data backward_weights avx512_core simple_nchw
sink_mode amp_loss_scale jit_levels
x86_64
""".split())


def _code_names(cells) -> set:
    """Every snake_case identifier the lesson's own code spells: code cells, and code in its Markdown."""
    names = set()
    for cell in cells:
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if cell["cell_type"] == "markdown":
            source = " ".join(m.group() for pattern in (_FENCE, _INLINE_CODE) for m in pattern.finditer(source))
        names.update(re.findall(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+", source))   # dotted too: reference.parse_args
    return names


def stray_names(text: str, known) -> List[str]:
    """The snake_case identifiers in ``text`` (Markdown outside code, or printed output) that are neither in
    ``known`` (the lesson's code) nor in ``ALLOWED_NAMES``: a key printed where a reader expects words."""
    for pattern in (_TOOL_LINE, _ERROR_LINE, _COMMAND, _FLAG, _URL, _PATH):
        text = pattern.sub(" ¶ ", text)
    return [n for n in _SNAKE.findall(text) if n not in known and n not in ALLOWED_NAMES]


def check_notebook(path: Path) -> List[Finding]:
    """Every run of English in a stored Chinese notebook's Markdown and outputs, and every snake_case identifier
    there that its code does not spell (``stray_names``)."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    known = _code_names(nb["cells"])
    found = []
    for number, cell in enumerate(nb["cells"], 1):
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if cell["cell_type"] == "markdown":
            parts = [("markdown", _strip_markdown(source))]
        elif cell["cell_type"] == "code":
            parts = [("output", _strip_output(t)) for t in _output_texts(cell)]
        else:
            continue
        for where, text in parts:
            found += [Finding(Path(path).name, number, where, r) for r in runs(_strip_common(text))]
            found += [Finding(Path(path).name, number, where, n) for n in stray_names(text, known)]
    return found


def load_residue(path: Path = RESIDUE) -> Dict[str, List[str]]:
    """notebook file name -> the runs it is known to still have (``NAME<TAB>run`` lines; # comments)."""
    residue: Dict[str, List[str]] = {}
    if not Path(path).exists():
        return residue
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        name, _, run = line.partition("\t")
        residue.setdefault(name.strip(), []).append(run.strip())
    return residue


def compare(findings: List[Finding], residue: List[str]):
    """(new findings not in ``residue``, residue entries no longer found)."""
    left = list(residue)
    new = []
    for f in findings:
        if f.text in left:
            left.remove(f.text)
        else:
            new.append(f)
    return new, left


def main(paths: List[Path], strict: bool = False, write_residue: bool = False) -> int:
    residue = {} if strict else load_residue(RESIDUE)
    problems = 0
    lines = []
    for path in paths:
        findings = check_notebook(path)
        if write_residue:
            lines += [f"{path.name}\t{f.text}" for f in findings]
            continue
        new, gone = compare(findings, residue.get(path.name, []))
        known = len(findings) - len(new)
        for f in new:
            print(f)
        for run in gone:
            print(f"{path.name}: listed in {RESIDUE.relative_to(ROOT)} but no longer found (remove the line): {run}")
        problems += len(new) + len(gone)
        note = f", {known} known (english-residue.txt)" if known else ""
        print(f"{path.name}: {len(new)} new run(s) of English{note}")
    if write_residue:
        header = ("# English still in the stored Chinese notebooks, per notebook: NAME<TAB>run. Written by\n"
                  "# `python -m course_utils.i18n english --write-residue`; tests/repo/test_i18n_english.py fails\n"
                  "# on a run not listed here and on a line that no longer matches. Remove lines, never add them by\n"
                  "# hand.\n")
        # the notebooks not checked this time keep their lines (`english 08 --write-residue` rewrites 08's only)
        checked = {path.name for path in paths}
        kept = [f"{name}\t{text}" for name, texts in load_residue(RESIDUE).items() if name not in checked
                for text in texts]
        lines = sorted(kept + lines, key=lambda line: line.split("\t", 1)[0])
        RESIDUE.write_text(header + "\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
        print(f"wrote {len(lines)} line(s) to {RESIDUE.relative_to(ROOT)} ({len(kept)} kept for notebooks not checked)")
        return 0
    return 1 if problems else 0
