"""The shared modules' messages in Chinese (``course_utils.i18n.zh.core``), and unchanged in English."""

import string
from pathlib import Path

import pytest

from course_utils import checkpoint, distributed, evaluate
from course_utils.exercises.values import describe
from course_utils.i18n.zh import core
from course_utils.notebook import show_error
from course_utils.runtime import RuntimeInfo
from course_utils.training import FitResult

_FORMATTER = string.Formatter()


def _fields(template: str) -> set:
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name}


def test_core_catalogue_keeps_every_placeholder():
    wrong = {k: v for k, v in core.MESSAGES.items() if _fields(k) != _fields(v)}
    assert not wrong, f"placeholders differ between English and Chinese: {wrong}"


def _info(**changes) -> RuntimeInfo:
    values = dict(device="CPU", mode="GRAPH_MODE", seed=42, mindspore_version="2.10.0",
                  cpu_fixes={"MS_DEV_HOST_BLOCKING_RUN": "1"}, notes=[])
    values.update(changes)
    return RuntimeInfo(**values)


def test_setup_summary_in_chinese(zh):
    text = _info(notes=["n"]).summary()
    assert text.splitlines()[0] == ("MindSpore 2.10.0 | 设备 CPU | GRAPH_MODE | 随机种子 42 | "
                                    "CPU 优化设置：MS_DEV_HOST_BLOCKING_RUN=1")
    assert text.splitlines()[1] == "  注意：n"
    assert "未设置随机种子" in _info(seed=None).summary()


STORED_HEADER = ("MindSpore 2.10.0 | x86_64 | 2 CPUs | Python 3.11.7 | NumPy 1.26.4 | device CPU, GRAPH_MODE | "
                 "env: MS_DEV_HOST_BLOCKING_RUN=1 | load 1.9, 3.6, 3.1 | 2026-12-02 07:38")


def test_a_stored_english_header_shown_in_chinese(zh):
    from course_utils.runtime import localize_header

    assert localize_header(STORED_HEADER) == (
        "MindSpore 2.10.0 | x86_64 | 2 个 CPU | Python 3.11.7 | NumPy 1.26.4 | 设备 CPU，GRAPH_MODE | "
        "环境变量：MS_DEV_HOST_BLOCKING_RUN=1 | 平均负载 1.9、3.6、3.1 | 2026-12-02 07:38")
    assert localize_header("x86_64 | 4 CPUs | env: no CPU fixes").endswith("| 环境变量：未启用 CPU 优化设置")
    # two variables: listed as machine_header() lists them in Chinese, so a stored line can equal this run's
    assert localize_header("x86_64 | env: ONEDNN_MAX_CPU_ISA=AVX2, MS_DEV_HOST_BLOCKING_RUN=1").endswith(
        "| 环境变量：ONEDNN_MAX_CPU_ISA=AVX2、MS_DEV_HOST_BLOCKING_RUN=1")


def test_a_stored_header_unchanged_in_english():
    from course_utils.runtime import localize_header

    assert localize_header(STORED_HEADER) == STORED_HEADER


def test_setup_summary_in_english_unchanged():
    text = _info(notes=["n"], exact=["set_deterministic(True)"]).summary()
    assert text == ("MindSpore 2.10.0 | device CPU | GRAPH_MODE | seed 42 | CPU fixes: MS_DEV_HOST_BLOCKING_RUN=1 | "
                    "exact numerics: set_deterministic(True)\n  note: n")


def test_setup_errors_in_chinese(zh):
    from course_utils import runtime

    with pytest.raises(ValueError, match="未知设备 'TPU'"):
        runtime._normalise_device("TPU")
    with pytest.raises(runtime.UnsupportedVersionError, match="版本低于本课程支持的范围"):
        runtime.check_version("2.6.0")
    assert "更新" in runtime.check_version("2.99.0")


def _fit_result(**changes) -> FitResult:
    result = FitResult()
    result.steps, result.train_seconds, result.epoch = 1876, 12.34, 2
    result.first_step_seconds = 2.0
    for name, value in changes.items():
        setattr(result, name, value)
    return result


def test_training_summary_line(lang):
    result = _fit_result(evals=[{"accuracy": 0.9876}])
    text = result.summary()
    rate = f"{result.steps_per_s:.0f}"
    if lang == "zh":
        assert text == (f"训练：用 12.3 秒训练了 1,876 步（首步之后每秒 {rate} 步），训练完 2 个轮次，"
                        "测试准确率 98.76%")
        assert "（已中断）" in _fit_result(interrupted=True).summary("LeNet-5")
        assert "停在第 3 个轮次的第 7 步之后（已中断）" in _fit_result(interrupted=True, step_in_epoch=7).summary()
    else:
        assert text == (f"training: 1,876 steps trained in 12.3 s ({rate} steps/s after the first), now at "
                        "the end of epoch 2, test accuracy 98.76%")


def test_data_error(lang):
    from course_utils import data

    with pytest.raises(ValueError) as err:
        data.load_mnist_arrays("valid")
    expected = {"en": "split must be 'train' or 'test', not 'valid'",
                "zh": "split 必须是 'train' 或 'test'，而不是 'valid'"}[lang]
    assert str(err.value) == expected


def test_data_checksum_error_in_chinese(zh):
    from course_utils.data.files import ChecksumError, FileSpec

    spec = FileSpec(size=10, md5="a" * 32)
    message = str(ChecksumError("t10k-labels-idx1-ubyte", "mirror", spec, 9, "b" * 32))
    assert "不是官方文件" in message and "期望 md5" in message and "b" * 32 in message


def test_checkpoint_errors(lang, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as err:
        checkpoint.checkpoint_format("weights.pt")
    with pytest.raises(FileNotFoundError) as missing:
        checkpoint.read("nope.ckpt")
    if lang == "zh":
        assert str(err.value) == "检查点文件名 'weights.pt' 必须以 .ckpt 或 .safetensors 结尾（后缀决定格式）。"
        assert str(missing.value).startswith("'nope.ckpt' 处没有检查点（工作目录 ")
        assert checkpoint.describe_position(3, 189) == "第 4 个轮次的第 189 步之后"
    else:
        assert str(err.value) == ("Checkpoint file name 'weights.pt' must end in .ckpt or .safetensors "
                                  "(the suffix chooses the format).")
        assert str(missing.value).startswith("No checkpoint at 'nope.ckpt' (working directory ")
        assert checkpoint.describe_position(3, 189) == "epoch 4, after its step 189"


def test_checkpoint_damaged_file_in_chinese(zh, tmp_path):
    bad = tmp_path / "bad.ckpt"
    bad.write_bytes(b"not a checkpoint")
    with pytest.raises(checkpoint.CheckpointError, match="不是可读取的 ckpt 检查点"):
        checkpoint.read(bad)


def test_evaluate_error_in_chinese(zh):
    with pytest.raises(ValueError, match="有 3 个预测，却有 2 个标签"):
        evaluate.accuracy([0, 1, 2], [0, 1])


def test_values_and_show_error_in_chinese(zh, capsys):
    from course_utils.exercises.placeholder import ____

    assert describe(____) == "____（占位符）"
    assert describe([1.0, 2.0]) == "[1., 2.]（形状 (2,)，float64）"
    with show_error(ValueError):
        raise ValueError("")
    assert capsys.readouterr().out.strip() == "ValueError: （没有消息）"


def test_distributed_error_summary(lang):
    log = ("rank 1 of 2: connected\nTraceback (most recent call last):\n"
           '  File "/x/train_dp.py", line 9, in main\n    boom()\nRuntimeError: failed on purpose\n')
    text = distributed.error_summary(log)
    if lang == "zh":
        assert "抛出位置：train_dp.py 第 9 行，main 函数中" in text and "此前的最后输出：" in text
    else:
        assert "raised in train_dp.py, line 9, in main" in text and "last output before it:" in text


def test_widget_table_in_chinese(zh):
    from course_utils.widgets import format_huber_table

    probes = {"error": [0.5], "loss": {"Huber": [0.1], "MSE/2": [0.1], "L1": [0.5]},
              "grad": {"Huber": [0.5], "MSE/2": [0.5], "L1": [1.0]}}
    first = format_huber_table({"delta": 1.0, "probes": probes}).splitlines()[0]
    assert first.startswith("delta = 1.00：|误差| <= 1.00 时为二次函数")


def test_no_chinese_leaks_into_english():
    """Every module above in English: not one CJK character (the default language of every test)."""
    text = _info(notes=["n"]).summary() + _fit_result().summary() + checkpoint.describe_position(0, 0)
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in text), text
    assert Path(core.__file__).is_file()
