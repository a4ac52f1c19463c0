"""Notebook 08 in Chinese: every typical wrong answer of tests/lessons/test_exercises_nb08.py gets its message in
Chinese, and so do the titles, hints and solutions. The lab's conclusions that 08 prints are tested in
test_i18n_nb07.py (they are course_utils.bench's, shared by both lab lessons)."""

import pytest

from course_utils.exercises import Outcome, nb08

from test_exercises_nb08 import REJECTED
from test_i18n_nb07 import CJK, english_words

#: what each message of REJECTED says in Chinese, in the same order
SAYS_ZH = ["还要比较对 x 的梯度", "还要比较输出", "舍入误差", "请返回 True 或 False",
           "与中位数", "机器状态变了", "不是瓶颈", "少于训练步每秒消耗的批数", "两份副本之间的差距", "之一",
           "而不是 share_pct", "记录的步数不同", "每步运行 9 次", "不到 min_ms", "顺序不对", "只出现在第二份",
           "算子类型名组成的列表"]


@pytest.mark.parametrize("case, says", zip(REJECTED, SAYS_ZH))
def test_each_typical_wrong_answer_is_refused_in_chinese(zh, case, says):
    exercise, answer, _ = case
    result = exercise.check(answer)
    assert result == Outcome.INCORRECT and says in result.message, result.message
    assert not english_words(result.message), result.message


def test_the_titles_hints_and_solutions_are_shown_in_chinese(zh, capsys):
    assert "相同的输出与相同的梯度" in str(nb08.q1.check(*nb08.q1.reference()))
    assert "数据处理流水线对训练步的影响" in str(nb08.q2.check(*nb08.q2.reference()))
    assert "哪些算子变慢了" in str(nb08.q3.check(*nb08.q3.reference()))
    nb08.q1.hint()
    nb08.q2.hint()
    nb08.q1.solution()
    nb08.q2.solution()
    nb08.q3.hint()
    nb08.q3.solution()
    shown = capsys.readouterr().out
    assert "ms.grad(cell)(x)" in shown and "反向传播从全 1 开始" in shown and "它跟得上" in shown
    assert "每步耗时（毫秒）" in shown
    assert CJK.search(shown)
