"""The lesson manifest: the one place that says what a lesson is.

Every consumer (the Makefile through ``python -m course_utils.lessons``, the tests, the browser suite, the runner,
``doctor``, the Chinese edition's build, the instructor edition, the executor, the README tables, the website) asks
this module which lessons exist and what each needs, instead of globbing ``[0-9][0-9]_*.ipynb`` and keeping its own
table. Adding or renumbering a lesson therefore starts here (CONTRIBUTING, "Adding a lesson").

What is *measured* about a lesson (its run time per edition, the machine it ran on) is not written here: the executor
stores it in the notebook's ``metadata["course"]``, and :meth:`Lesson.run_seconds` reads it from there; the README
tables are generated from both (``python -m course_utils.lessons readme --write``).

    python -m course_utils.lessons paths [--lang zh|all] [NN ...]   # the notebooks, one per line (the Makefile)
    python -m course_utils.lessons list                              # number, name, measured run times, title
    python -m course_utils.lessons readme [--write]                  # check (or write) the README tables, both languages

Importing this module never imports MindSpore (``doctor`` runs before ``make setup``: standard library only).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from course_utils import fmt

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: Editions: language code -> folder of its notebooks, relative to ``notebooks/``.
EDITIONS: Mapping[str, str] = {"en": ".", "zh": "zh"}
#: The README of each edition, relative to the repository.
READMES: Mapping[str, str] = {"en": "README.md", "zh": "README.zh.md"}


@dataclass(frozen=True)
class Lesson:
    """One lesson: ``notebooks/{number}_{slug}.ipynb`` and its Chinese twin ``notebooks/zh/...``."""

    number: str                              #: two digits, "05"
    slug: str                                #: the file name's topic, "mnist_lenet"
    title: Mapping[str, str]                 #: per language: the title after "NN · " in the lesson's first heading
    summary: Mapping[str, str]               #: per language: what the lesson teaches, one line (README table)
    requires: Tuple[str, ...] = ()           #: numbers of the lessons a learner needs first
    exercises: Optional[str] = None          #: module of its exercises, "course_utils.exercises.nb05"
    quick: Mapping[str, object] = field(default_factory=dict)  #: papermill parameters of a short run
    quick_in_browser: bool = False           #: the browser suite runs it with ``quick`` (its full run is elsewhere)
    workers_parameter: Optional[str] = None  #: parameter naming how many accelerators it needs (one per worker)
    optional_packages: Tuple[str, ...] = ()  #: packages a part of it uses when installed (e.g. torch)
    zh_in_browser: bool = False              #: its Chinese edition also runs in the browser suite (Chinese UI)
    run_note: Mapping[str, str] = field(default_factory=dict)  #: per language: after the run time in the README

    @property
    def name(self) -> str:
        """``05_mnist_lenet``: the notebook's file stem."""
        return f"{self.number}_{self.slug}"

    @property
    def messages(self) -> str:
        """The module of its Chinese messages (optional): ``course_utils.i18n.zh.nb05``."""
        return f"course_utils.i18n.zh.nb{self.number}"

    def path(self, lang: str = "en", root: Path = ROOT) -> Path:
        """The stored notebook of edition ``lang`` under the repository ``root``."""
        return Path(root) / "notebooks" / EDITIONS[lang] / f"{self.name}.ipynb"

    def catalogue(self, lang: str = "zh", root: Path = ROOT) -> Path:
        """The translation catalogue of edition ``lang``: ``i18n/zh/05_mnist_lenet.md``."""
        return Path(root) / "i18n" / lang / f"{self.name}.md"

    def run_seconds(self, lang: str = "en", root: Path = ROOT) -> Optional[float]:
        """The measured run time of the stored notebook (``metadata.course.run_seconds``), or None."""
        return _course_metadata(self.path(lang, root)).get("run_seconds")

    def quoted_run_seconds(self, root: Path = ROOT) -> Optional[float]:
        """The run time both editions quote (title cells, READMEs): the longer of the two stored runs, or None. The
        editions run the same code on the same data, so one figure serves both, and a reader who compares the
        English and the Chinese lesson sees the same number."""
        found = [s for s in (self.run_seconds(lang, root) for lang in EDITIONS) if s]
        return max(found) if found else None

    def parameter_default(self, name: str, lang: str = "en", root: Path = ROOT) -> Optional[str]:
        """The default the notebook's ``parameters`` cell gives ``name``, as source text (``"2"``), or None."""
        for cell in _cells(self.path(lang, root)):
            if "parameters" in cell.get("metadata", {}).get("tags", []):
                source = "".join(cell.get("source", ""))
                m = re.search(rf"^{re.escape(name)}\s*(?::[^=\n]+)?=\s*([^#\n]+)", source, re.M)
                return m.group(1).strip() if m else None
        return None

    def cards_needed(self, root: Path = ROOT) -> int:
        """Accelerators its default run needs on Ascend or GPU: its workers parameter's default (else 1)."""
        if not self.workers_parameter:
            return 1
        default = self.parameter_default(self.workers_parameter, root=root)
        return int(default) if default and default.isdigit() else 1


def _notebook(path: Path) -> dict:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _cells(path: Path) -> list:
    return _notebook(path).get("cells", [])


def _course_metadata(path: Path) -> dict:
    return _notebook(path).get("metadata", {}).get("course", {}) or {}


def _ex(number: str) -> str:
    return f"course_utils.exercises.nb{number}"


LESSONS: Tuple[Lesson, ...] = (
    Lesson("00", "environment_setup",
           {"en": "Environment setup: devices, modes and data", "zh": "环境准备：设备、模式与数据"},
           {"en": "versions, the plain setup calls (`set_device`, `set_context`, `set_seed`, two CPU variables), "
                  "PyNative vs GRAPH_MODE, PyTorch -> MindSpore names and defaults (checked), the verified data, "
                  "running with parameters",
            "zh": "版本；最基本的设置调用（`set_device`、`set_context`、`set_seed`、两个 CPU 环境变量）；动态图模式与静态图模式；"
                  "PyTorch 与 MindSpore 的名称和默认值对照（经过验证）；经过校验的数据；带参数运行"},
           exercises=_ex("00"), zh_in_browser=True),
    Lesson("01", "custom_huber_loss",
           {"en": "A custom Huber loss on `nn.LossBase`", "zh": "自定义 Huber 损失：基于 `nn.LossBase` 实现"},
           {"en": "a loss on `nn.LossBase`, `reduction`, `ops.where`, checked against `nn.HuberLoss`, gradients, "
                  "outliers, an interactive explorer",
            "zh": "基于 `nn.LossBase` 的损失函数、`reduction`、`ops.where`，与 `nn.HuberLoss` 对照检查，梯度，离群点，交互式探索器"},
           requires=("00",), exercises=_ex("01"), zh_in_browser=True),
    Lesson("02", "functional_training_step",
           {"en": "The functional training step", "zh": "函数式训练步"},
           {"en": "`forward_fn`, `value_and_grad` (`grad_position`, `weights`, `has_aux`), the `@jit` step, when "
                  "`ops.depend` matters, a new shuffle order every epoch, a live loss curve, overfitting",
            "zh": "`forward_fn`、`value_and_grad`（`grad_position`、`weights`、`has_aux`），`@jit` 训练步，`ops.depend` "
                  "何时必不可少，每个轮次都换新的混洗顺序，实时损失曲线，过拟合"},
           requires=("01",), exercises=_ex("02")),
    Lesson("03", "step_techniques",
           {"en": "Step techniques and traps", "zh": "训练步的进阶技巧与陷阱"},
           {"en": "global-norm clipping, gradient accumulation, `ops.stop_gradient`, parameter groups (no weight decay "
                  "on biases and BatchNorm) and a learning-rate schedule, `DynamicLossScaler` with `all_finite`; "
                  "side effects under `jit`, recompilation, NaN hunting",
            "zh": "按全局范数的梯度裁剪，梯度累加，`ops.stop_gradient`，参数分组（偏置和 BatchNorm 参数不做权重衰减）与动态学习率，"
                  "`DynamicLossScaler` 配合 `all_finite`；`jit` 中的副作用，重新编译，排查 NaN"},
           requires=("02",), exercises=_ex("03")),
    Lesson("04", "cell_training_step",
           {"en": "The Cell-based training step: `WithLossCell`, `TrainOneStepCell`, and early stopping done right",
            "zh": "基于 Cell 的训练步：`WithLossCell`、`TrainOneStepCell` 与正确的早停"},
           {"en": "`WithLossCell`, `TrainOneStepCell`, custom steps, `Model` and callbacks, early stopping done right",
            "zh": "`WithLossCell`、`TrainOneStepCell`，自定义训练步，`Model` 与回调，正确地实现早停"},
           requires=("02", "03"), exercises=_ex("04")),
    Lesson("05", "mnist_lenet",
           {"en": "MNIST with LeNet-5: data pipeline, model, 99% test accuracy",
            "zh": "用 LeNet-5 识别 MNIST：数据处理流水线、模型与 99% 测试准确率"},
           {"en": "the `mindspore.dataset` pipeline, `GeneratorDataset` over your own dataset class, a validation "
                  "split, the LeNet-5 size bug, `set_train` (Dropout, BatchNorm), the epoch and evaluation loops by "
                  "hand and then `fit`, LeNet-5 to 99% test accuracy, evaluation (per class, confusion, worst errors)",
            "zh": "`mindspore.dataset` 数据处理流水线，用 `GeneratorDataset` 读取自己的数据集类，验证集，LeNet-5 的尺寸错误，"
                  "`set_train`（Dropout、BatchNorm），先手写训练和评估循环、再用 `fit`，LeNet-5 的测试准确率达到 99%，"
                  "评估（各类别准确率、混淆矩阵、最严重的错误）"},
           requires=("04",), exercises=_ex("05"),
           quick={"TRAIN_SUBSET": 6000, "EPOCHS": 1}, quick_in_browser=True),
    Lesson("06", "checkpoints_inference",
           {"en": "Checkpoints, resume and inference", "zh": "检查点、断点续训与推理"},
           {"en": "`save_checkpoint`/`load_checkpoint` and `format=` (ckpt, safetensors), atomic checkpoints, reloading "
                  "into a fresh network, `Model.eval` with `Accuracy`, `stop_at_step` and an exact resume (bit-identical), "
                  "the weight-reload trap, predicting single images",
            "zh": "`save_checkpoint`/`load_checkpoint` 与 `format=`（ckpt、safetensors），原子写入的检查点，加载到全新的网络，"
                  "`Model.eval` 与 `Accuracy`，`stop_at_step` 与精确的断点续训（逐位一致），重新加载权重的陷阱，单张图像的预测"},
           requires=("05",), exercises=_ex("06"),
           quick={"TRAIN_SUBSET": 3200, "EPOCHS": 1}),
    Lesson("07", "performance_lab",
           {"en": "The performance lab: PyNative, GRAPH_MODE and `jit`, measured honestly",
            "zh": "性能实验：如实测量动态图、静态图与 `jit`"},
           {"en": "measuring honestly: the core measurement in plain MindSpore, then grids that print their code; one "
                  "rule to judge a difference, the paired interval (not separated when it holds 1.00); PyNative vs GRAPH_MODE vs "
                  "`jit` and `jit_level`, functional step vs `TrainOneStepCell` vs `Model.train`, batch size, one "
                  "compilation per new batch shape",
            "zh": "诚实地测量：先用纯 MindSpore 代码写出核心测量，再运行会打印自身代码的各组实验；只用一条准则判定差异，即配对"
                  "区间（包含 1.00 即为分不出快慢）；动态图模式、静态图模式与 `jit` 及 `jit_level`，函数式训练步、`TrainOneStepCell` "
                  "与 `Model.train`，批大小，每个新的批形状编译一次"},
           requires=("02", "04"), exercises=_ex("07"),
           quick={"QUICK": True, "REPEATS": 2, "STEPS": 5, "BATCH_SIZES": [32, 128]},
           # the lesson sets REPEATS, STEPS and CLAIM_REPEATS itself, so QUICK = False only adds two configurations to
           # part 2 and four batch shapes to part 5: estimated from those parts' times in a QUICK run, not timed
           run_note={"en": " (QUICK); 5-10 s more with `QUICK = False` (estimated)",
                     "zh": "（QUICK）；`QUICK = False` 时多 5～10 秒（估计值）"}),
    Lesson("08", "bottlenecks",
           {"en": "Finding and fixing bottlenecks: CPU traps, the profiler, the data pipeline, mixed precision",
            "zh": "定位并消除性能瓶颈：CPU 陷阱、Profiler、数据处理流水线与混合精度"},
           {"en": "the two CPU settings and when each matters; finding such a trap with per-layer timing, MindSpore's "
                  "profiler and oneDNN's log; an equivalent pooling layer checked equal and measured; the data pipeline "
                  "and sink mode; mixed precision (float16 on a CPU); time to accuracy, course settings vs naive defaults; "
                  "Ascend-only experiments; an optional PyTorch comparison",
            "zh": "两项 CPU 设置及其各自起作用的场合；用逐层计时、MindSpore 的 Profiler 和 oneDNN 日志找出这类陷阱；"
                  "检查一种等价的池化写法确实与原写法相等，再测量它；数据处理流水线与数据下沉模式；混合精度（CPU 上的 float16）；"
                  "达到目标准确率所需的时间，推荐配置与未调优的默认配置对比；仅限昇腾的实验；可选的 PyTorch 对比"},
           requires=("05", "07"), exercises=_ex("08"),
           quick={"QUICK": True, "REPEATS": 2, "STEPS": 5},
           optional_packages=("torch",),
           # its stored run is QUICK=True, like 07's; the whole lab in full (`make bench ARGS="run all"`, the
           # experiments of both lessons) took 802 s on a 2-core AMD EPYC
           run_note={"en": " (QUICK); several times longer with `QUICK = False`",
                     "zh": "（QUICK）；`QUICK = False` 时要长几倍"}),
    Lesson("09", "data_parallel",
           {"en": "Data parallel training for real: two workers, `msrun`, and proof that they agree",
            "zh": "真正的数据并行训练：两个 Worker 进程、`msrun`，并验证结果一致"},
           {"en": "real two-process data parallel with `msrun` (with a deadline that leaves no process behind), proof "
                  "that ranks agree, how it scales to 8 NPUs, which job forgot the reducer (exercise 09.3)",
            "zh": "用 `msrun` 真正运行双进程数据并行（设定时限且不留下任何进程），证明各 rank 结果一致，如何扩展到 8 卡，"
                  "判断哪个任务漏掉了梯度聚合（练习 09.3）"},
           requires=("02", "04"), exercises=_ex("09"),
           quick={"STEPS": 10, "BENCH_STEPS": 3}, workers_parameter="WORKERS"),
    Lesson("10", "capstone",
           {"en": "Capstone: your own training script, from the data to an exported model",
            "zh": "结课项目：你自己的训练脚本，从数据处理到模型导出"},
           {"en": "the capstone: your own standalone training script (augmented MNIST, a BatchNorm CNN, atomic "
                  "checkpoints and `--resume`, a JSON-lines log; Ctrl-C as the reference handles it), checked from "
                  "the outside; `mindspore.export` to MindIR, `mindspore.load` + `nn.GraphCell`, latency at batch 1 "
                  "and 64",
            "zh": "结课项目：你自己的独立训练脚本（增强的 MNIST、带 BatchNorm 的 CNN、原子写入的检查点与 `--resume`、"
                  "JSON-lines 日志；参考脚本如何处理 Ctrl-C），从外部检查；用 `mindspore.export` 导出 MindIR，"
                  "`mindspore.load` + `nn.GraphCell`，批大小为 1 和 64 时的时延"},
           requires=("02", "04", "05", "06"), exercises=_ex("10")),
)

_BY_NUMBER: Dict[str, Lesson] = {lesson.number: lesson for lesson in LESSONS}


def get(key: str, manifest: Sequence[Lesson] = LESSONS) -> Lesson:
    """The lesson with number ``"04"`` (or ``"4"``, the file stem or file name ``05_mnist_lenet[.ipynb]``)."""
    name = Path(str(key)).name
    number = name.zfill(2) if name.isdigit() else name[:2]
    for lesson in manifest:
        if lesson.number == number and (len(name) <= 2 or Path(name).stem in (lesson.name, lesson.number)):
            return lesson
    known = ", ".join(lesson.name for lesson in manifest)
    raise KeyError(f"no lesson {key!r}: the lessons are {known} (course_utils/lessons.py)")


def previous(lesson: Lesson) -> Optional[Lesson]:
    """The lesson before ``lesson`` in course order, or None for the first."""
    i = LESSONS.index(lesson)
    return LESSONS[i - 1] if i > 0 else None


def following(lesson: Lesson) -> Optional[Lesson]:
    """The lesson after ``lesson`` in course order, or None for the last."""
    i = LESSONS.index(lesson)
    return LESSONS[i + 1] if i + 1 < len(LESSONS) else None


def paths(lang: str = "en", root: Path = ROOT) -> List[Path]:
    """The stored notebooks of edition ``lang``, in course order."""
    return [lesson.path(lang, root) for lesson in LESSONS]


def select(keys: Optional[Iterable[str]] = None, manifest: Sequence[Lesson] = LESSONS) -> List[Lesson]:
    """The lessons named by ``keys`` (numbers or names), in the order given, each once; all of them for none."""
    if not keys:
        return list(manifest)
    chosen: List[Lesson] = []
    for key in keys:
        lesson = get(key, manifest)
        if lesson not in chosen:
            chosen.append(lesson)
    return chosen


def longest_first(root: Path = ROOT) -> List[Lesson]:
    """The lessons by measured run time, longest first (the slower edition of each; unmeasured ones last).

    The test suite starts the longest lessons first on several processes (a lesson that starts last leaves the other
    processes idle at the end)."""
    def cost(lesson: Lesson) -> float:
        times = [t for t in (lesson.run_seconds(lang, root) for lang in EDITIONS) if t]
        return max(times) if times else 0.0

    return sorted(LESSONS, key=cost, reverse=True)


# --------------------------------------------------------------------------------------------
# Run times as prose quotes them, and the README tables
# --------------------------------------------------------------------------------------------

#: A quoted run time may differ from the stored measurement by this factor either way (re-executing on a quiet
#: machine refreshes both; tests check it).
RUN_TIME_FACTOR = 2.0
_DURATION = re.compile(r"(?:~|about\s+)(\d+(?:\.\d+)?)\s*(s|sec|seconds?|min|minutes?)\b"
                       r"|约\s*(\d+(?:\.\d+)?)\s*(秒|分钟)", re.I)


def quoted_seconds(text: str) -> Optional[float]:
    """The first run time quoted in ``text`` ('~5 s', 'about 3 min', '约 25 秒'), in seconds, or None."""
    m = _DURATION.search(text)
    if not m:
        return None
    number, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return float(number) * (60 if unit.lower().startswith("min") or unit == "分钟" else 1)


_TABLE_HEAD = {"en": ("| notebook | what you learn | run time, 2-core CPU (measured) |", "|---|---|---|"),
               "zh": ("| Notebook | 学习内容 | 运行时间（2 核 CPU，实测） |", "|---|---|---|")}
_BEGIN = ("<!-- lesson table: written by `python -m course_utils.lessons readme --write` "
          "from course_utils/lessons.py -->")
_END = "<!-- end of lesson table -->"


def _link(lesson: Lesson, lang: str) -> str:
    folder = "notebooks" if EDITIONS[lang] == "." else f"notebooks/{EDITIONS[lang]}"
    return f"[{lesson.name}]({folder}/{lesson.name}.ipynb)"


def readme_row(lesson: Lesson, lang: str, run_time: str) -> str:
    """One row of the README table of edition ``lang``; ``run_time`` is the quoted figure ('~25 s')."""
    return f"| {_link(lesson, lang)} | {lesson.summary[lang]} | {run_time}{lesson.run_note.get(lang, '')} |"


def _split_row(line: str) -> List[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _table(text: str) -> Tuple[int, int]:
    """Line indices of the table between the markers (first row after the begin marker, the end marker)."""
    lines = text.splitlines()
    try:
        begin, end = lines.index(_BEGIN), lines.index(_END)
    except ValueError:
        raise ValueError(f"no lesson table between {_BEGIN!r} and {_END!r}") from None
    return begin + 1, end


def readme_table(lang: str = "en", root: Path = ROOT, keep: Optional[Mapping[str, str]] = None) -> List[str]:
    """The README table of edition ``lang``: header and one row per lesson, the run time measured (``keep``: the
    run-time figure to write instead, by lesson name)."""
    rows = list(_TABLE_HEAD[lang])
    for lesson in LESSONS:
        if keep and lesson.name in keep:
            figure = keep[lesson.name]
        else:
            seconds = lesson.quoted_run_seconds(root)
            figure = fmt.duration(seconds, lang) if seconds else "?"
        rows.append(readme_row(lesson, lang, figure))
    return rows


def _quoted_figures(lines: Sequence[str], lang: str) -> Dict[str, str]:
    """{lesson name: its run-time figure} of the rows present in ``lines``."""
    found = {}
    for lesson in LESSONS:
        for line in lines:
            cells = _split_row(line)
            if len(cells) == 3 and cells[0] == _link(lesson, lang):
                note = lesson.run_note.get(lang, "").strip()
                figure = cells[2][: len(cells[2]) - len(note)].strip() if note and cells[2].endswith(note) else cells[2]
                found[lesson.name] = figure
    return found


def write_readme(lang: str = "en", root: Path = ROOT, measured: Optional[Iterable[str]] = None) -> Path:
    """Rewrite the lesson table of edition ``lang``'s README from the manifest. The run times of the lessons in
    ``measured`` (names; default: all) come from their stored runs, the others keep the figure the table has."""
    path = Path(root) / READMES[lang]
    text = path.read_text(encoding="utf-8")
    start, end = _table(text)
    lines = text.splitlines()
    keep = _quoted_figures(lines[start:end], lang)
    if measured is None:
        keep = {}
    else:
        measured = set(measured)
        keep = {name: figure for name, figure in keep.items() if name not in measured}
    lines[start:end] = readme_table(lang, root, keep)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def readme_problems(lang: str = "en", root: Path = ROOT) -> List[str]:
    """What is wrong with edition ``lang``'s README table: rows that are not the manifest's (which lessons, in which
    order, their links and summaries), and run times more than ``RUN_TIME_FACTOR`` away from the stored runs."""
    path = Path(root) / READMES[lang]
    text = path.read_text(encoding="utf-8")
    try:
        start, end = _table(text)
    except ValueError as exc:
        return [f"{path.name}: {exc}"]
    have = [line for line in text.splitlines()[start:end] if line.strip()]
    want = readme_table(lang, root, keep=_quoted_figures(have, lang))
    problems = []
    if have != want:
        fix = "python -m course_utils.lessons readme --write (or edit course_utils/lessons.py)"
        for i in range(max(len(have), len(want))):
            got, expected = (have[i] if i < len(have) else "(nothing)"), (want[i] if i < len(want) else "(nothing)")
            if got != expected:
                problems.append(f"{path.name}, table line {i + 1}: {got!r} should be {expected!r}: {fix}")
    for lesson, figure in ((lesson, _quoted_figures(have, lang).get(lesson.name)) for lesson in LESSONS):
        seconds, quoted = lesson.quoted_run_seconds(root), quoted_seconds(figure or "")
        if not seconds or not quoted:
            problems.append(f"{path.name}: {lesson.name}: no run time to compare (quoted {figure!r}, stored {seconds}):"
                            " re-execute it (make notebooks) and write the table")
        elif not quoted / RUN_TIME_FACTOR <= seconds <= quoted * RUN_TIME_FACTOR:
            problems.append(f"{path.name} says {lesson.name} runs in {figure}; its stored run took {seconds:.0f} s. "
                            "Re-execute on a quiet machine (make notebooks ARGS=--readme) or write the table.")
    return problems


# --------------------------------------------------------------------------------------------
# Command line (the Makefile's view of the lessons)
# --------------------------------------------------------------------------------------------

def _relative(path: Path) -> str:
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.lessons",
                                     description="The course's lessons, from course_utils/lessons.py.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_paths = sub.add_parser("paths", help="the lesson notebooks, one per line, relative to the repository")
    p_paths.add_argument("--lang", choices=[*EDITIONS, "all"], default="en")
    p_paths.add_argument("lessons", nargs="*", help="numbers or names (default: all)")
    sub.add_parser("list", help="number, name, measured run time per edition, title")
    p_readme = sub.add_parser("readme", help="check (default) or write the lesson tables of README.md/README.zh.md")
    p_readme.add_argument("--write", action="store_true", help="rewrite both tables (run times from the stored runs)")
    args = parser.parse_args(argv)
    try:
        chosen = select(getattr(args, "lessons", None))
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    if args.command == "paths":
        for lang in (EDITIONS if args.lang == "all" else [args.lang]):
            for lesson in chosen:
                print(_relative(lesson.path(lang)))
    elif args.command == "list":
        for lesson in chosen:
            times = ", ".join(f"{lang} {lesson.run_seconds(lang) or '?'} s" for lang in EDITIONS)
            print(f"{lesson.number}  {lesson.name:30s} {times:24s} {lesson.title['en']}")
    elif args.write:
        for lang in READMES:
            print(f"wrote the lesson table of {write_readme(lang).name}")
    else:
        problems = [p for lang in READMES for p in readme_problems(lang)]
        print("\n".join(problems) or "README tables: in step with course_utils/lessons.py")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
