"""Notebook 04's exercises in Chinese: every typical wrong answer of test_exercises_nb04 gets its message in
Chinese (fixture ``zh``), as do the correct and not-attempted outcomes, ``hint()`` and ``solution()``."""

import ast
import re
import textwrap
from pathlib import Path

import pytest

from course_utils.exercises import Outcome, ____, nb04
from test_exercises_nb04 import MISTAKES, two_head_answer

pytestmark = pytest.mark.usefixtures("pynative")   # no compile per Cell: the messages do not depend on the mode

ENGLISH_WORDS = re.compile(r"\b(expected|got|should|returned|failed|That is|This case)\b")


def assert_chinese_incorrect(result, fragment):
    assert result == Outcome.INCORRECT, result
    assert fragment in result.message, result.message
    own_words = re.sub(r"Error：[^。]*", "", result.message)   # an error's own text (Python's) stays English
    assert not ENGLISH_WORDS.search(own_words), result.message
    assert "不正确" in str(result)


#: A fragment of the Chinese message of each of test_exercises_nb04's typical wrong answers.
CHINESE = {
    "q1-no-init": "就是第 3 节 ForgotSuperInit 的那个错误",
    "q1-cell-init-only": "不是传入的网络；期望是同一个对象",
    "q1-main-only": "（这只是主输出头的损失。）",
    "q1-weight-on-main": "aux_weight 乘以主输出头的损失",
    "q1-unweighted": "权重为 1 时的 main + aux",
    "q1-tuple": "返回了一个包含 2 个值的 tuple；期望的是一个标量张量",
    "q1-default-1.0": "损失应使用默认值 0.4：期望",
    "q1-cell-base": "应该继承 nn.WithLossCell：它保存主干网络和损失函数",
    "q1-not-a-class": "应该是一个类",
    "q2-unclipped": "（这是用未裁剪的梯度做的更新。）",
    "q2-global-norm": "（这是按全局范数裁剪梯度后做的更新。）",
    "q2-no-update": "之后权重没有变化；期望用裁剪后的梯度做一次 SGD 更新",
    "q2-returns-grads": "返回了一个包含 2 个值的 tuple",
    "q2-default-0.5": "不传 clip_value 参数时，裁剪边界应为 1.0",
    "q2-no-clip-value-argument": "失败，抛出 TypeError",
    "q2-no-loss-scale-argument": "失败，抛出 TypeError",
    "q2-clips-before-unscaling": "应当先除回，再裁剪",
    "q2-never-unscales": "裁剪之前要先除以 loss_scale",
    "q2-no-sens": "把 sens=loss_scale 传给 nn.TrainOneStepCell.__init__",
    "q2-two-head-class": "应该继承 nn.TrainOneStepCell：这样才能复用",
    "q3-from-0": "每个轮次编号都比期望值小 1",
    "q3-tie-improves": "本例考查的是：持平（数值相等）不算改善。",
    "q3-no-min-delta": "min_delta：0.95 和 0.93 都没有比 1.0 好出 0.1 以上",
    "q3-waits-more": "期望 (best_epoch, stop_epoch) = (3, 6)，实际得到",
    "q3-no-reset": "一次改善会让计数归零",
    "q3-not-a-pair": "请返回一个二元组 (best_epoch, stop_epoch)",
    "q3-ignores-mode": "这是 mode='min' 时的答案",
    "q3-no-mode-argument": "这个函数的参数是 (values, patience, min_delta=0.0, mode=\"min\")",
    "q4-nan-only": "第 2 步损失为无穷大；期望训练在这一步之后立即停止",
    "q4-epoch-end": "请在 on_train_step_end 中检查损失，而不是在 on_train_epoch_end 中",
    "q4-raises": "请改为调用 run_context.request_stop()",
    "q4-always": "只应在损失为 NaN 或无穷大时停止",
    "q4-never": "它始终没有停止",
    "q4-not-a-callback": "应该继承 mindspore.train.Callback：Model.train 调用的是",
}


@pytest.mark.parametrize("name", MISTAKES)
def test_messages_in_chinese(zh, name):
    q, answer = MISTAKES[name]
    assert_chinese_incorrect(getattr(nb04, q).check(answer), CHINESE[name])


def test_q1_wrong_sum_names_expected_and_got_in_chinese(zh):
    message = nb04.q1.check(two_head_answer(combine="unweighted")).message
    assert "期望主输出头损失" in message and "辅助输出头损失" in message and "实际得到" in message


@pytest.mark.parametrize("q", [nb04.q1, nb04.q2, nb04.q3, nb04.q4], ids=["q1", "q2", "q3", "q4"])
def test_correct_and_not_attempted_in_chinese(zh, q):
    correct = q.check(*q.reference())
    assert correct == Outcome.CORRECT and "正确" in str(correct) and "练习 04." in str(correct)
    not_attempted = q.check(____)
    assert not_attempted == Outcome.NOT_ATTEMPTED
    assert "尚未作答" in str(not_attempted) and "占位符 ____" in str(not_attempted)


def test_not_attempted_skeleton_in_chinese(zh):
    def early_stopping_epochs(values, patience, min_delta=0.0, mode="min"):
        return ____

    result = nb04.q3.check(early_stopping_epochs)
    assert result == Outcome.NOT_ATTEMPTED and "`early_stopping_epochs` 中仍有占位符 ____" in result.message


@pytest.mark.parametrize("show, fragments, absent", [
    (lambda: nb04.q1.hint(), ["双输出网络的 WithLossCell", "提示", "首先调用 super().__init__(backbone, loss_fn)"],
     []),
    (nb04.q2.hint, ["再裁剪：grads = ops.clip_by_value", "先把每个梯度除以 self.loss_scale"], []),
    (nb04.q3.hint, ["轮次编号从 1 开始"], []),
    (nb04.q1.solution, ["参考答案", "# 完成 Cell 的初始化，设置 self._backbone 和 self._loss_fn",
                        "super().__init__(backbone, loss_fn)"], ["Cell set-up"]),
    (nb04.q2.solution, ["# 除非做数据并行，否则是恒等映射", "ops.clip_by_value(grads"], []),
    (nb04.q4.hint, ["遇到 NaN 损失就停止训练的回调", "调用 run_context.request_stop()"], []),
    (nb04.q4.solution, ["# NaN 或 inf", "run_context.request_stop()"], ["this step's loss"]),
], ids=["q1-hint", "q2-hint", "q3-hint", "q1-solution", "q2-solution", "q4-hint", "q4-solution"])
def test_hint_and_solution_in_chinese(zh, capsys, show, fragments, absent):
    show()
    out = capsys.readouterr().out
    assert [f for f in fragments if f not in out] == [], out
    assert [f for f in absent if f in out] == [], out


def test_translated_solutions_are_the_reference_code_with_chinese_comments(zh):
    from course_utils.exercises.base import translate_comments
    from course_utils.i18n.notebooks import code_difference

    for q in (nb04.q1, nb04.q2, nb04.q4):
        english = textwrap.dedent(q.solution_text).strip()
        chinese = translate_comments(english)                 # what solution() shows
        assert chinese != english and code_difference(english, chinese) is None


def test_every_message_of_nb04_has_a_chinese_entry_with_the_same_placeholders():
    from course_utils.i18n.zh.nb04 import MESSAGES

    tree = ast.parse(Path(nb04.__file__).read_text(encoding="utf-8"))
    texts = [node.args[0].value for node in ast.walk(tree)
             if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("tr", "N_")
             and node.args and isinstance(node.args[0], ast.Constant)]
    texts += [about for *_, about in nb04._CURVES]
    texts += [text for q in (nb04.q1, nb04.q2, nb04.q3, nb04.q4) for text in (q.title, q.hint_text)]
    assert len(texts) > 30
    assert [t for t in texts if t not in MESSAGES] == []
    fields = re.compile(r"\{(\w*)")
    for english, chinese in MESSAGES.items():
        assert set(fields.findall(english)) == set(fields.findall(chinese)), english
