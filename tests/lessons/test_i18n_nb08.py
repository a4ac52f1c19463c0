"""Notebook 08 in Chinese: every checker message (each typical wrong answer of tests/lessons/test_exercises_nb08.py,
plus correct and not attempted), the hints and the solutions. The lab's conclusions that 08 prints are tested in
test_i18n_nb07.py (they are course_utils.bench's, shared by both lab lessons)."""

import re

from course_utils.exercises import Outcome, ____, nb08

from test_exercises_nb08 import bit_for_bit, no_tie_rule, outputs_only

CJK = re.compile(r"[\u4e00-\u9fff]")


def english_words(text):
    """Runs of three or more English words in a row: prose the catalogue left in English."""
    return re.findall(r"\b[a-z]{3,}(?: [a-z]{2,}){2,}\b", text)


def test_q1_messages_in_chinese(zh):
    assert nb08.q1.check(*nb08.q1.reference()) == Outcome.CORRECT
    blank = nb08.q1.check(____)
    assert blank == Outcome.NOT_ATTEMPTED and "占位符" in blank.message
    blind = nb08.q1.check(outputs_only)
    assert blind == Outcome.INCORRECT and "还要比较对 x 的梯度" in blind.message
    assert "输出相同，但梯度传不回去" in blind.message
    strict = nb08.q1.check(bit_for_bit)
    assert strict == Outcome.INCORRECT and "舍入误差" in strict.message and "np.allclose" in strict.message
    text = nb08.q1.check(lambda a, b, x, atol=1e-6: "same")
    assert text == Outcome.INCORRECT and "请返回 True 或 False" in text.message
    for result in (blind, strict, text):
        assert not english_words(result.message), result.message


def test_q2_messages_in_chinese(zh):
    assert nb08.q2.check(*nb08.q2.reference()) == Outcome.CORRECT
    assert nb08.q2.check(____) == Outcome.NOT_ATTEMPTED
    hasty = nb08.q2.check(no_tie_rule)
    assert hasty == Outcome.INCORRECT and "噪声水平以内" in hasty.message and "期望 'tie'" in hasty.message
    alone_only = nb08.q2.check(lambda m, f, a, n: "bottleneck" if a < m else "tie")
    assert alone_only == Outcome.INCORRECT and "不是瓶颈" in alone_only.message
    always = nb08.q2.check(lambda m, f, a, n: "costs" if 100 * (m / f - 1) > n else "tie")
    assert always == Outcome.INCORRECT and "少于训练步每秒消耗的批数" in always.message
    other = nb08.q2.check(lambda m, f, a, n: "slow")
    assert other == Outcome.INCORRECT and "之一" in other.message
    for result in (hasty, alone_only, always, other):
        assert not english_words(result.message), result.message


def test_the_titles_hints_and_solutions_are_shown_in_chinese(zh, capsys):
    assert "相同的输出与相同的梯度" in str(nb08.q1.check(*nb08.q1.reference()))
    assert "数据处理流水线对训练步的影响" in str(nb08.q2.check(____))
    nb08.q1.hint()
    nb08.q2.hint()
    nb08.q1.solution()
    nb08.q2.solution()
    shown = capsys.readouterr().out
    assert "ms.grad(cell)(x)" in shown and "反向传播从全 1 开始" in shown and "它跟得上" in shown
    assert CJK.search(shown)
