"""Notebook 03's checker in Chinese: every typical wrong answer that ``test_exercises_nb03.py`` rejects gets its
message in Chinese (expected vs got, the same numbers), and correct, not attempted, hints and solutions are shown in
Chinese. The wrong answers are the English tests' own (imported), so both languages check the same mistakes."""

import pytest

from course_utils.exercises import Outcome, nb03
from course_utils.i18n.zh.nb03 import MESSAGES
from test_exercises_nb02 import assert_incorrect
from test_exercises_nb03 import CLIP_LINE, WRONG_Q1, WRONG_Q4, accumulating, bound_rule, grouped, scaled
from test_i18n_nb02 import (FIX_WORDS_ZH, assert_chinese, assert_correct_and_not_attempted_in_chinese,
                            assert_placeholders_kept)

pytestmark = pytest.mark.usefixtures("pynative")   # no compile per Cell: the messages do not depend on the mode

# ---- q1: a clipping bound from a log of gradient norms ----

#: the Chinese message of each of q1's typical wrong rules (the English tests' own), by name
Q1_ZH = {
    "max": ("第 1 份记录（300 步；普通训练步的范数从约 0.02 降到 0.002；12 个尖峰成串出现",
            "第 81 步（传给你的规则的是第 0 到第 80 步）", "放过了一个 0.06251 的尖峰", "期望每个尖峰都被截断"),
    "mean-recent": ("第 82 步", "放过了一个 0.02662 的尖峰"),
    "median-whole-log": ("第 153 步", "此处普通训练步的范数约为 0.00616"),
    "mean-whole-log": ("第 153 步", "放过了一个"),
    "wide-margin": ("第 82 步", "放过了一个 0.02662 的尖峰"),
    "no-margin": ("裁剪了 268 个普通训练步中的 45 个（16.8%）", "相当于用更小的学习率在训练", "不超过 2%"),
    "mean-3-std": ("放过了一个",),
    "constant": ("第 1 份记录", "上限 1 放过了一个"),
    "negative": ("第 20 步（传给你的规则的是第 0 到第 19 步）", "返回了 -0.01874", "有限的正数上限"),
    "text": ("返回了 '1.5 x median'", "期望返回一个正数"),
}


def test_q1_covers_every_english_wrong_rule():
    assert sorted(Q1_ZH) == sorted(WRONG_Q1)


@pytest.mark.parametrize("name", sorted(Q1_ZH))
def test_q1_typical_mistakes_in_chinese(zh, name):
    expression, _ = WRONG_Q1[name]
    result = nb03.q1.check(bound_rule(expression, f"<nb03-zh-q1-{name}>"))
    assert_chinese(result, *Q1_ZH[name])
    named = [w for w in FIX_WORDS_ZH if w in result.message]
    assert not named, f"the message names a fix ({named}): {result.message}"


# ---- q2: accumulation ----

@pytest.mark.slow
@pytest.mark.parametrize("replacements, fragments", [
    ([("grad / k", "grad")], ("4 个微批之后（把一个大小为 16 的批拆成 4 份）", "是正确更新 4 倍的更新")),
    ([('prefix="grad_accum"', 'prefix="accum"')], ("调用 step(data, label) 时抛出了 RuntimeError", "already exists")),
    ([("if calls[\"n\"] % k == 0:", "if True:")], ("k=4 时", "第 4 次调用之前保持不变", "第 1 次调用后权重已经改变")),
    ([("done = ops.depend(done, ops.assign(buf, ops.depend(ops.zeros_like(buf), done)))", "pass")],
     ("8 个微批之后（第二次更新）", "还包含了第一个累加窗口梯度的更新")),
    ([("ops.assign_add(buf, grad / k)", "ops.assign(buf, grad)")], ("只用最后一个微批的梯度所做的更新",)),
], ids=["summed", "accum-prefix", "updates-every-call", "never-zeroed", "overwrites"])
def test_q2_typical_mistakes_in_chinese(zh, replacements, fragments):
    wrong = accumulating(*replacements, name=f"<nb03-zh-q2-{len(fragments[0])}-{len(replacements[0][1])}>")
    result = nb03.q2.check(wrong)
    assert_incorrect(result, *fragments)
    assert "expected" not in result.message and "got " not in result.message, result.message


def test_q2_wrong_loss_in_chinese(zh):
    """A step that returns the loss of the whole accumulated mean instead of its micro-batch's."""
    wrong = accumulating(("return loss\n\n    @ms.jit", "return loss * 2\n\n    @ms.jit"), name="<nb03-zh-q2-loss>")
    assert_chinese(nb03.q2.check(wrong), "第 1 次调用返回的损失为", "期望为该微批的损失")


# ---- q3: loss scaling ----

@pytest.mark.parametrize("replacements, fragments", [
    ([("grads = scaler.unscale(grads)", "grads = grads")], ("缩放系数为 1024、梯度有限的一步", "大了 1024 倍的更新")),
    ([("if finite:", "if True:")], ("含有 NaN 特征值", "实际权重改变了")),
    ([("ops.depend(loss, scaler.adjust(finite))", "loss")], ("缩放系数为 1024；期望为 512（减半）",)),
    ([("(_, loss), grads", "(loss, _), grads")], ("期望得到真实的（未缩放的）损失",)),
    ([(CLIP_LINE, ""), ("grads = scaler.unscale(grads)",
                        "grads = scaler.unscale(ops.clip_by_global_norm(grads, clip_norm))")],
     ("clip_norm=0.05、缩放系数为 1024 时", "缩短为 1/1024 的更新", "梯度在仍带着缩放系数时就被裁剪了")),
    ([(CLIP_LINE, "")], ("clip_norm=0.05、缩放系数为 1024 时", "用未经裁剪的梯度所做的更新", "> clip_norm 0.05")),
    ([(CLIP_LINE, "            grads = tuple([ops.clip_by_norm(g, clip_norm) for g in grads])\n")],
     ("每个梯度张量各自裁剪到 clip_norm", "按全局范数裁剪")),
], ids=["not-unscaled", "always-updates", "no-adjust", "scaled-loss", "clipped-before-unscaling", "not-clipped",
        "per-tensor"])
def test_q3_typical_mistakes_in_chinese(zh, replacements, fragments):
    wrong = scaled(*replacements, name=f"<nb03-zh-q3-{len(fragments[0])}-{len(replacements[0][1])}>")
    assert_chinese(nb03.q3.check(wrong), *fragments)


# ---- q4: parameter groups ----

#: the Chinese message of each of q4's typical wrong answers (the English tests' own), by name
Q4_ZH = {
    "by-name": ("以全零梯度调用一次：权重衰减作用到了 backbone.1.gamma, backbone.1.beta, backbone.4.gamma, "
                "backbone.4.beta", "不受衰减"),
    "all-decayed": ("权重衰减作用到了 backbone.1.gamma, backbone.1.beta, backbone.3.bias",),
    "get-parameters": ("分组中含有 backbone.0.weight, backbone.0.bias, backbone.1.moving_mean, "
                       "backbone.1.moving_variance，它们不可训练",),
    "no-order": ("用你的分组构建的 nn.Adam 按 backbone.3.weight, backbone.1.gamma", "梯度会被用来更新别的参数"),
    "fixed-decay": ("缩小各自的 lr * weight_decay（backbone.3.weight 0.0005, head.weight 0.005）；实际为 "
                    "backbone.3.weight 0.001, head.weight 0.01",),
    "biases-left-out": ("不在任何分组中", "backbone.1.gamma, backbone.1.beta, backbone.3.bias"),
    "twice": ("出现在不止一个分组中：backbone.3.weight, head.weight",),
    "no-backbone-lr": ("以全 1 梯度调用一次", "期望骨干网络的参数", "为 0.01", "实际为 backbone.1.gamma 0.1"),
    "backbone-lr-everywhere": ("头部的参数（head.weight, head.bias）为 0.1", "实际为 head.weight 0.01, head.bias 0.01"),
    "lr-on-matrices-only": ("实际为 backbone.1.gamma 0.1, backbone.1.beta 0.1, backbone.3.bias 0.1",),
}


def test_q4_covers_every_english_wrong_answer():
    assert sorted(Q4_ZH) == sorted(WRONG_Q4)


@pytest.mark.parametrize("name", sorted(Q4_ZH))
def test_q4_typical_mistakes_in_chinese(zh, name):
    replacements, _ = WRONG_Q4[name]
    result = nb03.q4.check(grouped(*replacements, name=f"<nb03-zh-q4-{name}>"))
    assert_chinese(result, *Q4_ZH[name])
    named = [w for w in FIX_WORDS_ZH if w in result.message]
    assert not named, f"the message names a fix ({named}): {result.message}"


# ---- correct, not attempted, hints, solutions ----

@pytest.mark.parametrize("exercise", [nb03.q1, nb03.q2, nb03.q3, nb03.q4], ids=["q1", "q2", "q3", "q4"])
def test_correct_and_not_attempted_in_chinese(zh, exercise):
    assert_correct_and_not_attempted_in_chinese(exercise, MESSAGES)


def test_hints_and_solutions_in_chinese(zh, capsys):
    for exercise in (nb03.q1, nb03.q2, nb03.q3, nb03.q4):
        exercise.hint()
    nb03.q1.solution()
    nb03.q2.solution()
    nb03.q3.solution()
    nb03.q4.solution()
    shown = capsys.readouterr().out
    expected = ("练习 03.1（选定梯度裁剪上限）——提示", "第 1 节根据一轮数据读出了上限",
                "均值和最大值都会随之跳高",
                "不要用 'accum'：SGD 已经占用了这个名字", "练习 03.2（梯度累加）——参考答案",
                "练习 03.3（使用损失缩放并裁剪梯度的训练步）——提示", "照第 5 节的 scaled_step 来写",
                "再用 ms.amp.all_finite 检查，然后裁剪",
                'prefix="grad_accum"',   # the solution is code, shown as it is tested
                "练习 03.4（参数分组）——提示", "不看参数名，靠什么区分权重矩阵", "怎样区分骨干网络的参数和头部的参数",
                "练习 03.4（参数分组）——参考答案", "# 被冻结的参数不在其中", "# 预训练的部分：较小的学习率",
                '{"order_params": params}]', "# 中位数不受一串尖峰影响", "# 上限是为真实的梯度设定的")
    assert [text for text in expected if text not in shown] == []
    assert "Section 1 read the bound" not in shown and "only recent steps" not in shown


def test_every_chinese_message_keeps_the_placeholders():
    assert_placeholders_kept(MESSAGES)


@pytest.mark.slow
def test_chinese_messages_report_symptoms_not_fixes(zh):
    """As in English: expected vs got; the fix is in .hint() and .solution(), not in the message."""
    wrong = [
        (nb03.q3, scaled((CLIP_LINE, ""), name="<nb03-zh-fx-1>")),
        (nb03.q2, accumulating(("grad / k", "grad"), name="<nb03-zh-fx-2>")),
        (nb03.q2, accumulating(('prefix="grad_accum"', 'prefix="accum"'), name="<nb03-zh-fx-3>")),
    ]
    for exercise, answer in wrong:
        result = exercise.check(answer)
        assert result == Outcome.INCORRECT
        named = [w for w in FIX_WORDS_ZH if w in result.message]
        assert not named, f"the message names a fix ({named}): {result.message}"
