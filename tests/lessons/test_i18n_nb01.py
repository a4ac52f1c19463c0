"""Notebook 01's checkers speak Chinese: every typical wrong answer of tests/lessons/test_exercises_nb01.py gets its
message in Chinese (which input, expected vs got, never the fix), and so do not attempted, correct, the hints and
the solutions. The wrong answers are the English tests' own, imported, so both languages check the same answers.
"""

import re
import textwrap

import numpy as np
import pytest

from mindspore import nn, ops

from course_utils.exercises import Outcome, ____, nb01
from test_exercises_nb01 import (
    FIX_WORDS, BuggyHuberLoss, CopiedMyHuberLoss, CopiedWeightsReshaped, CopiedWithWeights, FixedDeltaOne, Float32Out,
    HalfDone, InheritsMyHuberLoss, MeanOverSampleWeights, NaiveLogCosh,
    NaiveLogCoshFloat16, NoDeltaArgument, NotALoss, NumpyInside, OneBugFixed, PythonIf, ReductionDropped,
    StableLogCoshAlwaysSum, StableLogCoshFloat32Out, StrictWrongLinear, TwoBugsFixed, WeightsIgnored,
    WrongLinearPiece, _course_loss_answers)

pytestmark = pytest.mark.usefixtures("pynative")   # conftest: no compile per Cell, as in the English tests
_CJK = (0x3400, 0x9FFF)


def _has_chinese(text):
    return any(_CJK[0] <= ord(c) <= _CJK[1] for c in text)


def incorrect_zh(exercise, answer, *fragments):
    result = exercise.check(answer)
    assert result == Outcome.INCORRECT, result
    for fragment in fragments:
        assert fragment in result.message, f"{fragment!r} not in {result.message!r}"
    assert _has_chinese(result.message), result.message
    assert "不正确" in str(result) and "练习 01." in str(result), str(result)
    return result


class NumpyOnTensor(nn.LossBase):
    """Notebook 01's mistake 3: a NumPy function called on a tensor raises inside construct."""

    def __init__(self, delta=1.0, reduction="mean"):
        super().__init__(reduction)
        self.delta = delta

    def construct(self, logits, labels, weights):
        error = logits - labels
        abs_error = np.abs(error)
        loss = ops.where(abs_error <= self.delta, 0.5 * ops.square(error), self.delta * (abs_error - 0.5 * self.delta))
        return self.get_loss(loss, weights)


class ReturnsPair(WeightsIgnored):
    def construct(self, logits, labels, weights):
        loss = ops.abs(logits - labels)
        return loss, loss


class ReturnsNothing(WeightsIgnored):
    def construct(self, logits, labels, weights):
        return None


# ---------------------------------------------------------------------------------------------
# q1: weighted Huber
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("answer, fragments", [
    (WeightsIgnored, ("WeightsIgnored(reduction='none', delta=1.0) 在输入 logits=[[1.5, 0.0, 2.0]",
                      "期望得到加权后的损失", "实际得到未加权的损失", "权重没有起作用")),
    (CopiedWithWeights, ("形状为 (4, 3) 的 logits 和 labels、形状为 (4,) 的 weights（每个样本一个权重）",
                         "实际抛出了 ValueError")),
    (CopiedWeightsReshaped, ("reduction='mean'", "期望 0.666667，实际为 0.583333", "除以元素个数（12）",
                             "各元素权重之和（10.5）")),
    (MeanOverSampleWeights, ("reduction='mean'", "期望 0.666667，实际为 2", "4 个样本权重之和（3.5）",
                             "每个样本有 3 个元素")),
    (ReductionDropped, ("期望形状为 (4, 3)，实际形状为 ()（reduction='none' 为每个元素保留一个损失）。",)),
    (WrongLinearPiece, ("第 (1, 1) 个元素", "误差 3，所在样本的权重 2", "期望 5，实际为 4",
                        "这里 |error| > delta = 1。")),
    (StrictWrongLinear, ("第 (0, 2) 个元素", "这里恰好 |error| == delta（1）", "期望 0.5，实际为 0")),
    (Float32Out, ("在 float16 的 logits 和 labels 上", "期望得到 Float16 的损失", "实际得到 Float32 的损失")),
    (NumpyInside, ("对 logits 的梯度", "期望 [", "实际全为零", "本课第 7 节（“常见错误”）")),
    (NumpyOnTensor, ("用检查的输入调用 NumpyOnTensor 时抛出了", "本课第 7 节（“常见错误”）")),
    (FixedDeltaOne, ("delta=2.0", "这里 |error| > delta = 2。")),
    (NotALoss, ("WeightedHuberLoss 应当继承 nn.LossBase", "它的基类是 ['Cell']")),
    (NoDeltaArgument, ("失败，抛出 TypeError", "构造函数必须接受关键字参数 reduction 和 delta。")),
    (lambda delta=1.0, reduction="mean": None, ("`WeightedHuberLoss` 应当是一个类", "实际是 function")),
    (ReturnsPair, ("返回了含 2 个值的 tuple；期望返回一个张量。",)),
    (ReturnsNothing, ("返回了 None（NoneType）；期望返回一个 MindSpore 张量。",)),
], ids=lambda v: getattr(v, "__name__", "") if not isinstance(v, tuple) else "")
def test_q1_rejects_in_chinese(zh, answer, fragments):
    incorrect_zh(nb01.q1, answer, *fragments)


def test_q1_refuses_the_courses_huber_loss_in_chinese(zh):
    for answer in _course_loss_answers():
        incorrect_zh(nb01.q1, answer, f"{answer.__name__} 在检查过程中调用了课程自带的 Huber 损失")


def test_q1_correct_and_not_attempted_in_chinese(zh):
    result = nb01.q1.check(*nb01.q1.reference())
    assert result == Outcome.CORRECT and result.message == "做得好。"
    assert "练习 01.1（加权 Huber）——正确" in str(result)
    blank = nb01.q1.check(____)
    assert blank == Outcome.NOT_ATTEMPTED and "尚未作答" in str(blank) and "占位符 ____" in blank.message
    half = nb01.q1.check(HalfDone)
    assert half == Outcome.NOT_ATTEMPTED and "仍有占位符 ____" in half.message


# ---------------------------------------------------------------------------------------------
# q2: log-cosh
# ---------------------------------------------------------------------------------------------

class MeanIsSum(StableLogCoshAlwaysSum):
    def __init__(self, reduction="mean"):
        nn.LossBase.__init__(self, "sum" if reduction == "mean" else reduction)


@pytest.mark.parametrize("answer, fragments", [
    (NaiveLogCosh, ("第 5 个元素", "误差 100", "实际为 inf")),
    (NaiveLogCoshFloat16, ("在 float16 输入上", "实际为 inf")),
    (StableLogCoshFloat32Out, ("实际得到 Float32 的损失",)),
    (StableLogCoshAlwaysSum, ("期望形状为 (8,)，实际形状为 ()",)),
    (MeanIsSum, ("reduction='mean'", "这是各元素损失之和，而不是它们的均值。")),
])
def test_q2_rejects_in_chinese(zh, answer, fragments):
    incorrect_zh(nb01.q2, answer, *fragments)


def test_q2_correct_in_chinese(zh):
    result = nb01.q2.check(*nb01.q2.reference())
    assert result == Outcome.CORRECT and "练习 01.2（log-cosh 损失）——正确" in str(result)


# ---------------------------------------------------------------------------------------------
# q3: find the bugs
# ---------------------------------------------------------------------------------------------

def test_q3_guides_through_the_bugs_one_by_one_in_chinese(zh):
    incorrect_zh(nb01.q3, BuggyHuberLoss, "BuggyHuberLoss(reduction='none', delta=1.0) 在输入",
                 "实际形状为 ()")
    incorrect_zh(nb01.q3, OneBugFixed, "第 4 个元素", "期望 2.5，实际为 2", "这里 |error| > delta = 1")
    incorrect_zh(nb01.q3, TwoBugsFixed, "实际得到 Float32 的损失")
    incorrect_zh(nb01.q3, PythonIf, "第 0 个元素", "期望 0.125，实际为 0")
    assert "练习 01.3（找出错误）" in str(nb01.q3.check(BuggyHuberLoss))


def test_q3_refuses_a_copy_or_a_subclass_in_chinese(zh):
    incorrect_zh(nb01.q3, CopiedMyHuberLoss, "与 BuggyHuberLoss 有 5 行不同", "最多只有 3 行不同", "MyHuberLoss")
    incorrect_zh(nb01.q3, InheritsMyHuberLoss, "继承自 CopiedMyHuberLoss", "而不是另一个损失函数的子类")


def test_q3_correct_and_not_attempted_in_chinese(zh):
    assert nb01.q3.check(*nb01.q3.reference()).message == "做得好。"
    blank = nb01.q3.check(____)
    assert blank == Outcome.NOT_ATTEMPTED and "请替换占位符 ____ 后重新运行本单元格" in blank.message


# ---------------------------------------------------------------------------------------------
# every message: Chinese, symptoms not fixes, and the same numbers as in English
# ---------------------------------------------------------------------------------------------

def _numbers(text):
    return [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?", text)]


CASES = [(nb01.q1, WeightsIgnored), (nb01.q1, CopiedWithWeights), (nb01.q1, CopiedWeightsReshaped),
         (nb01.q1, MeanOverSampleWeights), (nb01.q1, ReductionDropped),
         (nb01.q1, WrongLinearPiece), (nb01.q1, StrictWrongLinear), (nb01.q1, Float32Out), (nb01.q1, NumpyInside),
         (nb01.q1, FixedDeltaOne), (nb01.q2, NaiveLogCosh), (nb01.q2, NaiveLogCoshFloat16),
         (nb01.q2, StableLogCoshFloat32Out), (nb01.q2, StableLogCoshAlwaysSum), (nb01.q3, BuggyHuberLoss),
         (nb01.q3, OneBugFixed), (nb01.q3, TwoBugsFixed), (nb01.q3, PythonIf)]


@pytest.mark.parametrize("exercise, answer", CASES,
                         ids=lambda v: getattr(v, "__name__", "") or getattr(v, "title", ""))
def test_chinese_messages_report_the_english_symptoms(exercise, answer):
    """Same input, same numbers in both languages; Chinese words instead of English; no fix named."""
    from course_utils import i18n

    english = exercise.check(answer).message
    i18n.set_language("zh")
    chinese = exercise.check(answer).message
    assert "期望" in chinese and "实际" in chinese and "expected" not in chinese, chinese
    assert _numbers(chinese) == _numbers(english), (english, chinese)
    named = [w for w in FIX_WORDS if w in chinese]
    assert not named, f"the message names a cause or fix ({named}): {chinese}"


# ---------------------------------------------------------------------------------------------
# hints and solutions
# ---------------------------------------------------------------------------------------------

def test_hints_and_solutions_in_chinese(zh, capsys):
    for q in (nb01.q1, nb01.q2, nb01.q3):
        q.hint()
        q.solution()
    out = capsys.readouterr().out
    assert "练习 01.1（加权 Huber）——提示：" in out and "在每个样本的各个输出上广播" in out
    assert "练习 01.2（log-cosh 损失）——提示：" in out and "永远不会溢出" in out
    assert "练习 01.3（找出错误）——提示：" in out and "一共有三个错误" in out
    assert "练习 01.1（加权 Huber）——参考答案：" in out
    assert "class WeightedHuberLoss(nn.LossBase):" in out and "course_utils" not in out.split("参考答案")[1][:200]
    assert "# 归一化：所有权重同乘一个数，结果不变" in out
    assert "# 计算 log(cosh(e)) 而不计算 cosh(e)" in out
    assert "# 错误 1：原来没有把 reduction 传下去" in out and "# 错误 3：原来损失一直是 float32" in out
    assert "bug 1: reduction was not passed on" not in out


def test_chinese_solutions_are_the_english_code(zh):
    """A translated solution may differ from the reference only in its comments."""
    from course_utils.exercises.base import translate_comments
    from course_utils.i18n import tr
    from course_utils.i18n.notebooks import code_difference

    for q in (nb01.q1, nb01.q2, nb01.q3):
        english = textwrap.dedent(q.solution_text).strip()
        chinese = translate_comments(english)      # what solution() shows: each comment translated
        assert chinese != english and _has_chinese(chinese)
        assert all(tr(c) != c for c in re.findall(r"#[^\n]*", english)), f"{q.title}: a comment has no Chinese"
        assert code_difference(english, chinese) is None, q.title
        assert len(english.splitlines()) == len(chinese.splitlines())
