"""Notebook 00's exercise messages in Chinese (the English ones: tests/test_exercises_nb00.py)."""

import numpy as np

from course_utils.exercises import Outcome, ____, nb00


def test_q1_messages_in_chinese(zh):
    import mindspore as ms

    correct = nb00.q1.check(*nb00.q1.reference())
    assert correct == Outcome.CORRECT and "做得好" in correct.message
    assert "练习 00.1" in str(correct) and "编译执行的模式" in str(correct) and "正确" in str(correct)
    not_attempted = nb00.q1.check(____)
    assert not_attempted == Outcome.NOT_ATTEMPTED and "尚未作答" in str(not_attempted)
    assert "占位符 ____" in not_attempted.message
    eager = nb00.q1.check(ms.PYNATIVE_MODE)
    assert eager == Outcome.INCORRECT and "先编译 construct 再运行" in eager.message
    assert "实际得到字符串 'GRAPH_MODE'" in nb00.q1.check("GRAPH_MODE").message
    other = nb00.q1.check(7).message
    assert "期望 MindSpore 的某个模式常量" in other and "实际得到 7" in other
    for answer in (ms.PYNATIVE_MODE, "GRAPH_MODE", 7):   # still no answer given away
        assert "GRAPH_MODE" not in nb00.q1.check(answer).message.replace("'GRAPH_MODE'", "")


def test_q2_messages_in_chinese(zh):
    assert nb00.q2.check(*nb00.q2.reference()) == Outcome.CORRECT
    assert nb00.q2.check(lambda labels, digit: ____) == Outcome.NOT_ATTEMPTED
    as_numpy = nb00.q2.check(lambda labels, digit: np.sum(labels == digit)).message
    assert "期望返回 Python 的 int" in as_numpy and "int()" not in as_numpy
    off_by_one = nb00.q2.check(lambda labels, digit: int(np.sum(labels == digit)) + 1).message
    assert off_by_one == "对于标签 [3, 1, 3, 0, 9, 3, 1] 和数字 3，期望 3，实际得到 4。"
    crashing = nb00.q2.check(lambda labels, digit: labels.count(digit)).message
    assert "你的代码抛出了 AttributeError" in crashing


def test_hints_and_solution_in_chinese(zh, capsys):
    nb00.q1.hint()
    nb00.q2.hint(1)
    nb00.q2.solution()
    out = capsys.readouterr().out
    assert "练习 00.1" in out and "提示" in out and "MindSpore 有两个模式常量" in out
    assert "统计其中 True 的个数" in out
    assert "统计某个数字" in out and "参考答案" in out and "int(np.sum(labels == digit))" in out
