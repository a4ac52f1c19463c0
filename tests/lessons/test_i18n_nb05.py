"""Notebook 05's exercise checks speak Chinese in the Chinese edition: each typical wrong answer of
tests/lessons/test_exercises_nb05.py gets its message in Chinese (which input, expected vs got), as do the
correct and not-attempted outcomes, the hints and the solutions."""

import pytest

from mindspore import nn

from course_utils.exercises import Outcome, ____, nb05
from course_utils.i18n.zh.nb05 import MESSAGES
from course_utils.models import lenet_flatten_size
from test_exercises_nb05 import _lesson_accuracy, _loop, _split, _variant

pytestmark = pytest.mark.usefixtures("pynative")   # no compile per Cell: the messages do not depend on the mode

_CJK = range(0x3400, 0xA000)


def chinese(text: str) -> bool:
    return any(ord(c) in _CJK for c in text)


# ---- q1: flatten size ------------------------------------------------------------------------------

def test_q1_correct_and_not_attempted(zh):
    result = nb05.q1.check(*nb05.q1.reference())
    assert result == Outcome.CORRECT and "做得好" in result.message
    assert "练习 05.1" in str(result) and "正确" in str(result) and "任意输入尺寸下的展平尺寸" in str(result)

    def flatten_size(image_size):
        return ____

    result = nb05.q1.check(flatten_size)
    assert result == Outcome.NOT_ATTEMPTED and "占位符 ____" in result.message
    assert "尚未作答" in str(result)


@pytest.mark.parametrize("answer, fragments", [
    (lambda s: 400, ["期望 256（16 个通道 × 4 × 4）", "实际得到 400", "32×32 输入的尺寸"]),
    (lambda s: ((s - 4) // 2 - 4) // 2 * (((s - 4) // 2 - 4) // 2), ["实际得到 16", "单个通道的尺寸"]),
    (lambda s: 16 * (((s - 5) // 2 - 5) // 2) ** 2, ["减少 5 而不是 4"]),
    (lambda s: 16 * (s // 4) ** 2, ["带填充的卷积"]),
    (lambda s: 16 * ((s - 4) / 2 - 4) / 2 * (((s - 4) / 2 - 4) / 2), ["256.0，这是一个浮点数", "期望的是整数 256"]),
    (lambda s: "256", ["返回了", "请返回一个整数（int）"]),
    (256, ["应当是一个以图像尺寸为参数的函数"]),
    (lambda s: lenet_flatten_size(s), ["调用了课程自己给出答案的 lenet_flatten_size"]),
])
def test_q1_typical_mistakes_in_chinese(zh, answer, fragments):
    result = nb05.q1.check(answer)
    assert result == Outcome.INCORRECT and "不正确" in str(result)
    for fragment in fragments:
        assert fragment in result.message, result.message
    assert "expected" not in result.message and "got" not in result.message


# ---- q2: batch norm and dropout -----------------------------------------------------------------------

def test_q2_correct_and_not_attempted(zh):
    result = nb05.q2.check(*nb05.q2.reference())
    assert result == Outcome.CORRECT and "加入批归一化和 Dropout" in str(result)
    assert nb05.q2.check(____) == Outcome.NOT_ATTEMPTED


@pytest.mark.parametrize("answer, fragments", [
    (_variant(bn_sizes=()), ["没有批归一化层", "期望有两个 nn.BatchNorm2d 层"]),
    (_variant(bn_sizes=(6,)), ["期望恰好有两个 nn.BatchNorm2d 层", "实际找到 1 个 BatchNorm2d"]),
    (_variant(bn_sizes=(16, 16)), ["[16, 16]", "期望为 [6, 16]", "输出通道数"]),
    (_variant(drop=lambda d: nn.Dropout(keep_prob=d)), ["丢弃的激活值比例为 0.70", "0.70 是保留的比例"]),
    (_variant(drop=lambda d: nn.Dropout(p=0.5)), ["丢弃的激活值比例为 0.50；期望为 0.30。"]),
    (_variant(use_dropout=False), ["训练模式下", "期望 Dropout 使两次输出不同"]),
    (_variant(fc1_in=400), ["16 * 4 * 4 = 256 个特征", "[400, 120, 84]"]),
    (int, ["应当是一个继承自 nn.Cell 的类"]),
])
def test_q2_typical_mistakes_in_chinese(zh, answer, fragments):
    result = nb05.q2.check(answer)
    assert result == Outcome.INCORRECT
    for fragment in fragments:
        assert fragment in result.message, result.message


# ---- q3: a confusion matrix from an evaluation loop ---------------------------------------------------

def test_q3_correct_and_not_attempted(zh):
    assert nb05.q3.check(*nb05.q3.reference()) == Outcome.CORRECT

    def confusion_counts(network, images, labels, batch_size=4):
        return ____

    assert nb05.q3.check(confusion_counts) == Outcome.NOT_ATTEMPTED


@pytest.mark.parametrize("answer, fragments", [
    (_lesson_accuracy, ["返回了一个数 0.6", "第 3 节的 `accuracy`", "请改为返回混淆矩阵"]),
    (_loop(transposed=True), ["行与列颠倒了"]),
    (_loop(rates=True), ["返回的是比例", "而不是比率"]),
    (_loop(first_batch_only=True), ["统计了 4 张图像；实际共有 10 张"]),
    (_loop(eval_mode=False), ["网络在预测时处于训练模式"]),
])
def test_q3_typical_mistakes_in_chinese(zh, answer, fragments):
    result = nb05.q3.check(answer)
    assert result == Outcome.INCORRECT
    message = result.message
    # which input: the case is named in Chinese, the code stays code
    assert message.startswith("在固定用例 1（十张图像）上运行的 "
                              "confusion_counts(network, images, labels, batch_size=4)")
    for fragment in fragments:
        assert fragment in message, message
    assert "expected" not in message


def test_q3_returns_something_else(zh):
    result = nb05.q3.check(lambda network, images, labels, batch_size=4: "60%")
    assert result == Outcome.INCORRECT and "请返回一个 (10, 10) 的计数数组" in result.message


# ---- q4: a validation split with samplers ----------------------------------------------------------------

def test_q4_correct_and_not_attempted(zh):
    result = nb05.q4.check(*nb05.q4.reference())
    assert result == Outcome.CORRECT and "每个类别行数相同的验证集划分" in str(result)

    def split_train_validation(make_source, labels, per_class, seed):
        return ____

    assert nb05.q4.check(split_train_validation) == Outcome.NOT_ATTEMPTED


@pytest.mark.parametrize("answer, fragments", [
    (_split(first_rows=True), ["验证集的行是每个类别的前（或后）10 行", "期望是随机选出的行"]),
    (_split(train_on_all=True), ["训练部分有 200 行，验证部分有 40 行", "期望分别为 160 行和 40 行"]),
    (_split(overlap=5), ["有 5 行同时出现在两部分中", "期望没有任何重叠"]),
    (_split(unseeded=True), ["两次以 seed=7 调用选出了不同的验证行"]),
    (_split(one_seed=True), ["seed=7 和 seed=8 选出了相同的验证行"]),
    (_split(fixed_order=True), ["在两个轮次中按相同的顺序给出各行"]),
    (_split(shuffled_validation=True), ["验证部分每个轮次给出各行的顺序都不同"]),
    (_split(one_part=True), ["期望返回两个数据集"]),
    (_split(first_rows=True, shift_one=True), ["验证部分中类别 0 到 3 的行数分别为 [11, 9, 10, 10]",
                                                "期望每个类别各 10 行"]),
    (200, ["应当是一个函数"]),
])
def test_q4_typical_mistakes_in_chinese(zh, answer, fragments):
    result = nb05.q4.check(answer)
    assert result == Outcome.INCORRECT
    for fragment in fragments:
        assert fragment in result.message, result.message
    assert "expected" not in result.message


# ---- hints and solutions ---------------------------------------------------------------------------------

@pytest.mark.parametrize("exercise, fragment", [
    (nb05.q1, "步长为 2 的 2×2 最大池化把边长减半并向下取整"),
    (nb05.q2, "num_features = 卷积的输出通道数"),
    (nb05.q3, "每张图像恰好计数一次"),
    (nb05.q4, "前一个采样器每个轮次都重新混洗它的行"),
])
def test_hints_in_chinese(zh, capsys, exercise, fragment):
    exercise.hint()
    out = capsys.readouterr().out
    assert "——提示：" in out and fragment in out, out


@pytest.mark.parametrize("exercise, fragment", [
    (nb05.q1, "# 两次（valid 5×5 卷积，2×2 池化）"),
    (nb05.q2, "# 28×28 的输入对应 256 个特征"),
    (nb05.q3, "def confusion_counts(network, images, labels, batch_size=4):"),  # no comments: code as is
    (nb05.q4, "# 每个轮次重新混洗"),
])
def test_solutions_in_chinese(zh, capsys, exercise, fragment):
    exercise.solution()
    out = capsys.readouterr().out
    assert "——参考答案：" in out and fragment in out, out


def test_every_nb05_message_has_chinese_and_the_same_placeholders():
    import string

    fields = lambda text: sorted(f[1:] for f in string.Formatter().parse(text) if f[1] is not None)
    for english, chinese_text in MESSAGES.items():
        assert chinese(chinese_text), english
        assert fields(english) == fields(chinese_text), english


def test_english_is_unchanged_by_default():
    result = nb05.q1.check(lambda s: 400)
    assert result.message == ("flatten_size(28): expected 256 (16 channels x 4 x 4), got 400. "
                              "(400 is the size for 32x32 inputs.)")
