"""Notebook 00's exercise messages in Chinese (the English ones: tests/lessons/test_exercises_nb00.py)."""

from mindspore import nn

from course_utils.exercises import Outcome, ____, nb00
from test_exercises_nb00 import _as_if_contiguous, _lesson_loop, _milliseconds, _without_the_result


def test_q1_messages_in_chinese(zh):
    correct = nb00.q1.check(*nb00.q1.reference())
    assert correct == Outcome.CORRECT and "做得好" in correct.message
    assert "练习 00.1" in str(correct) and "用 MindSpore 写出 PyTorch 带填充的 Conv2d" in str(correct)
    not_attempted = nb00.q1.check(____)
    assert not_attempted == Outcome.NOT_ATTEMPTED and "尚未作答" in str(not_attempted)
    defaults = nb00.q1.check(lambda i, o, k, p: nn.Conv2d(i, o, k)).message
    assert defaults == "torch_like_conv(1, 6, 5, 1)：卷积层没有偏置参数，而 PyTorch 的 nn.Conv2d 有。"
    no_padding = nb00.q1.check(lambda i, o, k, p: nn.Conv2d(i, o, k, pad_mode="valid", has_bias=True)).message
    assert "输出的形状为 (1, 6, 24, 24)" in no_padding
    assert "nn.Conv2d(1, 6, 5, padding=1) 输出 (1, 6, 26, 26)" in no_padding


def test_q2_messages_in_chinese(zh):
    assert nb00.q2.check(*nb00.q2.reference()) == Outcome.CORRECT
    message = nb00.q2.check(_lesson_loop).message
    assert "期望得到一个字典，每种输入形状（[(64, 8), (16, 8)]）各占一项" in message
    message = nb00.q2.check(_milliseconds).message
    assert "请返回以秒为单位的时间" in message
    message = nb00.q2.check(_without_the_result).message
    assert message.startswith("第 1 次调用的结果在 fn 返回") and "结果回到 Host 侧，调用才算结束" in message
    message = nb00.q2.check(_as_if_contiguous).message
    assert message.startswith("形状为 (16, 8) 的第一次调用是 8 次调用中的第 2 次")


def test_q3_messages_in_chinese(zh):
    correct = nb00.q3.check(*nb00.q3.reference())
    assert correct == Outcome.CORRECT and "用 MindSpore 写出 PyTorch 的 BatchNorm 动量" in str(correct)
    copied = nb00.q3.check(lambda c, m: nn.BatchNorm2d(c, momentum=m)).message
    assert copied == ("batchnorm_like_torch(3, 0.1)：从 0 开始，经过一批各通道均值为 [1, 2, 3] 的训练数据之后，"
                      "动态均值（moving_mean）为 [0.9, 1.8, 2.7]；PyTorch 的是 [0.1, 0.2, 0.3]。")
    not_bn = nb00.q3.check(lambda c, m: nn.BatchNorm1d(c)).message
    assert not_bn == "batchnorm_like_torch(3, 0.1)：期望得到 nn.BatchNorm2d，实际得到 BatchNorm1d。"


def test_hints_and_solution_in_chinese(zh, capsys):
    nb00.q1.hint()
    nb00.q2.hint()
    nb00.q1.solution()
    nb00.q2.solution()
    nb00.q3.hint()
    nb00.q3.solution()
    shown = capsys.readouterr().out
    assert "看“从 PyTorch 迁移过来”那张表" in shown and "time.perf_counter()" in shown and "不要预热" in shown
    assert "first_and_steady" not in shown   # the hint no longer points at the lesson's loop
    assert "表中 BatchNorm 那一行" in shown
    # the solutions' comments too
    assert "# .asnumpy() 会等待结果" in shown and "# MindSpore 的动量是旧值的权重" in shown
    assert "# pad_mode=\"pad\" 按给定的值填充" in shown and "waits for" not in shown


def test_q4_messages_in_chinese(zh, capsys):
    correct = nb00.q4.check(*nb00.q4.reference())
    assert correct == Outcome.CORRECT and "把一个小的 PyTorch 模型迁移到 MindSpore" in str(correct)
    port = (lambda drop: lambda i, h, o, p: nn.SequentialCell(nn.Dense(i, h), nn.ReLU(), drop(p), nn.Dense(h, o)))
    positional = nb00.q4.check(port(lambda p: nn.Dropout(p))).message
    assert positional.startswith("port_mlp(784, 64, 10, 0.2)：在训练模式下，它的 Dropout 把 8")
    assert "旧参数 keep_prob 的含义" in positional
    deprecated = nb00.q4.check(port(lambda p: nn.Dropout(keep_prob=1 - p))).message
    assert "MindSpore 2.10 已弃用这个参数" in deprecated
    nb00.q4.hint()
    nb00.q4.solution()
    shown = capsys.readouterr().out
    assert "Sequential 和 Linear 在 MindSpore 中换了名字" in shown and "# Linear 对应 Dense" in shown
    assert "# 按名称传入：nn.Dropout 按位置的第一个参数是 keep_prob" in shown
