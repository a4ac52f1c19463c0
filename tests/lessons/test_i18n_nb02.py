"""Notebook 02's checker in Chinese: every typical wrong answer that ``test_exercises_nb02.py`` rejects gets its
message in Chinese (expected vs got, the same numbers), and correct, not attempted, hints and solutions are shown in
Chinese. The wrong answers are the English tests' own (imported), so both languages check the same mistakes."""

import pytest

from course_utils import i18n
from course_utils.exercises import Outcome, ____, nb02
from course_utils.i18n.zh.nb02 import MESSAGES
from test_exercises_nb02 import assert_incorrect, from_source, step_source

pytestmark = pytest.mark.usefixtures("pynative")   # no compile per Cell: the messages do not depend on the mode

ENGLISH_WORDS = ("expected", "got ", "returned", "weights", "the update", "call ")


def assert_chinese(result, *fragments):
    """Incorrect, with each fragment in the message, and none of the English message's words left in it."""
    assert_incorrect(result, *fragments)
    left = [w for w in ENGLISH_WORDS if w in result.message]
    assert not left, f"English words {left} in the Chinese message: {result.message}"


# ---- q1: has_aux ----

def test_q1_missing_has_aux_in_chinese(zh):
    wrong = from_source(step_source(has_aux="False"), "build_train_step", "<nb02-zh-q1-no-aux>")
    assert_chinese(nb02.q1.check(wrong), "执行一步之后：期望得到 SGD 更新（lr=0.1）", "loss + logits.sum() 的梯度",
                   "而不是损失的梯度")


def test_q1_forgotten_depend_in_chinese(zh):
    wrong = from_source(step_source(update="optimizer(grads)", result="loss"), "build_train_step",
                        "<nb02-zh-q1-nodep>")
    # MindSpore's warning stays in English: it is what the learner will see in MindSpore's log.
    assert_incorrect(nb02.q1.check(wrong), "权重是对的", "没有本练习要求的 ops.depend", "eliminated by mistake",
                     "第 4 节")


def test_q1_no_update_and_tuple_result_in_chinese(zh):
    no_update = from_source(step_source(result="loss"), "build_train_step", "<nb02-zh-q1-noupdate>")
    assert_chinese(nb02.q1.check(no_update), "期望得到 SGD 更新", "权重最多变化", "实际权重没有变化")
    as_tuple = from_source(step_source(result="loss, ops.depend(loss, optimizer(grads))"), "build_train_step",
                           "<nb02-zh-q1-tuple>")
    assert_chinese(nb02.q1.check(as_tuple), "step(data, label) 返回了一个含 2 个元素的 tuple", "期望只返回损失",
                   "标量 Tensor")


def test_q1_builder_returning_a_number_in_chinese(zh):
    def build_train_step(net, loss_fn, optimizer):
        return 1.0

    assert_chinese(nb02.q1.check(build_train_step), "你的构建函数返回了一个 float，它不是函数",
                   "期望返回一个函数 step(data, label)")


# ---- correct, not attempted, hints, solutions ----

@pytest.mark.parametrize("exercise", [nb02.q1, nb02.q2, nb02.q3], ids=["q1", "q2", "q3"])
def test_correct_and_not_attempted_in_chinese(zh, exercise):
    assert_correct_and_not_attempted_in_chinese(exercise, MESSAGES)


def assert_correct_and_not_attempted_in_chinese(exercise, messages):
    """The reference is correct and the placeholder not attempted, both said in Chinese (lesson 03's tests too)."""
    correct = exercise.check(*exercise.reference())
    assert correct == Outcome.CORRECT
    assert str(correct).startswith(f"{exercise.label}——正确") and "做得好" in correct.message
    assert exercise.label == f"练习 {exercise.number}（{messages[exercise.title]}）"
    missing = exercise.check(____)
    assert missing == Outcome.NOT_ATTEMPTED
    assert "尚未作答" in str(missing) and "占位符 ____" in missing.message


def test_hints_and_solutions_in_chinese(zh, capsys):
    nb02.q1.hint()
    shown = capsys.readouterr().out
    assert "练习 02.1（使用 has_aux 的训练步）——提示" in shown
    assert "在 build_train_step 内部" in shown
    assert "Inside build_train_step" not in shown
    nb02.q1.solution()
    solution = capsys.readouterr().out
    assert "练习 02.1（使用 has_aux 的训练步）——参考答案" in solution
    assert "has_aux=True" in solution  # the solution is code: shown as it is tested


def test_messages_stay_english_by_default():
    """Without a language set, the checker speaks English exactly as before (the English tests rely on it)."""
    assert i18n.language() == "en"
    result = nb02.q1.check(lambda net, loss_fn, optimizer: 1.0)
    assert result.message == ("your builder returned a float; expected a function step(data, label) "
                              "(not a function).")


def test_every_chinese_message_keeps_the_placeholders():
    assert_placeholders_kept(MESSAGES)


def assert_placeholders_kept(messages):
    import string

    for english, chinese in messages.items():
        fields = sorted(f for _, f, _, _ in string.Formatter().parse(english) if f)
        assert fields == sorted(f for _, f, _, _ in string.Formatter().parse(chinese) if f), english


FIX_WORDS_ZH = ("请", "应该", "应当", "需要", "改为", "改成", "换成", "加上", "去掉", "除以")


@pytest.mark.slow
def test_chinese_messages_report_symptoms_not_fixes(zh):
    """As in English: expected vs got; the fix is in .hint() and .solution(), not in the message."""
    wrong = [
        (nb02.q1, from_source(step_source(has_aux="False"), "build_train_step", "<nb02-zh-fx-1>")),
        (nb02.q1, from_source(step_source(result="loss"), "build_train_step", "<nb02-zh-fx-2>")),
    ]
    for exercise, answer in wrong:
        result = exercise.check(answer)
        assert result == Outcome.INCORRECT
        named = [w for w in FIX_WORDS_ZH if w in result.message]
        assert not named, f"the message names a fix ({named}): {result.message}"


# ---- q1: compiled, written out ----

def test_q1_no_jit_and_borrowed_step_in_chinese(zh):
    from course_utils.training import make_train_step

    without_jit = from_source(step_source().replace("    @ms.jit\n", ""), "build_train_step", "<nb02-zh-q1-nojit>")
    assert_chinese(nb02.q1.check(without_jit), "权重是对的", "没有经过编译", "@ms.jit")
    assert_chinese(nb02.q1.check(make_train_step), "make_train_step", "本练习要求自己写出训练步")


# ---- q2: the most sensitive features ----

def test_q2_messages_in_chinese(zh):
    from test_exercises_nb02 import _input_gradient, _ranked

    def signed(net, loss_fn, data, label, k=3):
        return _ranked(_input_gradient(net, loss_fn, data, label).mean(axis=0), k)

    def the_gradient(net, loss_fn, data, label, k=3):
        return _input_gradient(net, loss_fn, data, label)

    assert nb02.q2.check(*nb02.q2.reference()) == Outcome.CORRECT
    assert_chinese(nb02.q2.check(signed), "k=3 时：期望", "带符号的平均梯度", "相互抵消")
    assert_chinese(nb02.q2.check(the_gradient), "期望返回由 3 个特征下标（整数）组成的列表")


# ---- q3: the epoch loop ----

def test_q3_messages_in_chinese(zh):
    from test_exercises_nb02 import epoch_loop

    assert_chinese(nb02.q3.check(epoch_loop(before="pass", per_epoch="iterator = dataset.create_tuple_iterator()")),
                   "每一轮看到的批顺序都相同", "第 5 节")
    assert_chinese(nb02.q3.check(epoch_loop(reduce="sum(losses)")), "期望的每轮平均值为 [1.8, 4.8, 7.8]",
                   "每轮损失之和")
    assert_chinese(nb02.q3.check(epoch_loop(reduce="sum(losses) / len(losses)")), "各批损失的简单平均值",
                   "最后一批只有 2 个样本")


def test_q1_return_logits_messages_in_chinese(zh):
    copied = from_source(step_source(), "build_train_step", "<nb02-zh-q1-copied>")
    assert_incorrect(nb02.q1.check(copied), "return_logits=True 时", "抛出了 TypeError")
    from test_exercises_nb02 import logits_variant

    ignored = logits_variant("loss", "<nb02-zh-q1-ignored>")
    assert_chinese(nb02.q1.check(ignored), "return_logits=True 时", "期望返回二元组 (loss, logits)")
    after = logits_variant("loss, net(data)", "<nb02-zh-q1-after>")
    assert_chinese(nb02.q1.check(after), "更新之后的预测值", "最多相差")
