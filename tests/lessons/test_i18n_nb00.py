"""Notebook 00's exercise messages in Chinese (the English ones: tests/lessons/test_exercises_nb00.py)."""

import mindspore as ms
from mindspore import nn

from course_utils.exercises import Outcome, ____, nb00


def test_q1_messages_in_chinese(zh):
    correct = nb00.q1.check(*nb00.q1.reference())
    assert correct == Outcome.CORRECT and "做得好" in correct.message
    assert "练习 00.1" in str(correct) and "用 MindSpore 写出 PyTorch 的 Conv2d 和 MaxPool2d" in str(correct)
    not_attempted = nb00.q1.check(____)
    assert not_attempted == Outcome.NOT_ATTEMPTED and "尚未作答" in str(not_attempted)
    defaults = nb00.q1.check(lambda i, o, k: (nn.Conv2d(i, o, k), nn.MaxPool2d(k))).message
    assert defaults == "torch_like_layers(1, 6, 5)：卷积层没有偏置参数，而 PyTorch 的 nn.Conv2d 有。"
    stride_one = nb00.q1.check(lambda i, o, k: (nn.Conv2d(i, o, k, pad_mode="valid", has_bias=True), nn.MaxPool2d(k)))
    assert "池化输出的形状为 (1, 1, 24, 24)" in stride_one.message


def test_q2_messages_in_chinese(zh):
    assert nb00.q2.check(*nb00.q2.reference()) == Outcome.CORRECT

    def no_restore(mode, fn):
        ms.set_context(mode=mode)
        return fn()

    message = nb00.q2.check(no_restore).message
    assert "期望恢复到调用前的模式 GRAPH_MODE" in message
    assert "期望只运行一次" in nb00.q2.check(lambda mode, fn: fn()).message


def test_hints_and_solution_in_chinese(zh, capsys):
    nb00.q1.hint()
    nb00.q2.hint()
    nb00.q2.solution()
    shown = capsys.readouterr().out
    assert "看“从 PyTorch 迁移过来”那张表" in shown and "先用 ms.get_context" in shown
