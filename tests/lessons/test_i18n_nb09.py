"""Notebook 09's exercises speak Chinese when the lesson does: every typical wrong answer that
tests/lessons/test_exercises_nb09.py checks in English gets its message in Chinese, and so do correct, not attempted,
the hints, 09.3's solution and the messages of the msrun workers that check 09.3 (COURSE_LANG)."""

import pytest

from course_utils.exercises import Outcome, ____, nb09

# The English tests' wrong answers (pytest puts tests/ on sys.path): each gets its Chinese message here.
from test_exercises_nb09 import REJECTED, _blocks, _no_reducer

# A Chinese fragment of the message for each of REJECTED, in its order.
FRAGMENTS = [
    "你的各分片分别有 [4, 3, 3] 个样本，而 MindSpore 的是 [4, 4, 4] 个",
    "你的分片是连续的块",
    "样本是对的，但顺序不同",
    "期望的分片为",
    "应返回由样本索引（整数）组成的列表",
    "你返回的是各 rank 梯度的简单平均",
    "你返回的是各 rank 梯度之和",
    "期望得到一个形状为 (3,) 的梯度",
    "实际得到",
    "应返回一个数组",
]
REJECTED_ZH = [(exercise, answer, fragment) for (exercise, answer, _), fragment in zip(REJECTED, FRAGMENTS)]


def test_every_typical_mistake_has_a_chinese_fragment():
    assert len(FRAGMENTS) == len(REJECTED)


@pytest.mark.parametrize("exercise, answer, fragment", REJECTED_ZH)
def test_typical_mistakes_get_a_chinese_message(zh, exercise, answer, fragment):
    result = exercise.check(answer)
    assert result.outcome == Outcome.INCORRECT
    assert fragment in result.message, result.message
    assert "不正确" in str(result) and "练习 09." in str(result), str(result)
    for english in ("expected", "returned", "shards", "samples"):  # no English sentence left in the message
        assert english not in result.message, result.message


def test_q1_message_names_the_case_in_chinese(zh):
    message = nb09.q1.check(_blocks).message
    assert message.startswith("在 12 个样本、2 个分片的情况下，"), message
    assert "期望 [[0, 2, 4, 6, 8, 10], [1, 3, 5, 7, 9, 11]]，" in message, message
    assert "实际得到 [[0, 1, 2, 3, 4, 5], [6, 7, 8, 9, 10, 11]]。" in message, message


def test_the_english_messages_are_unchanged():
    result = nb09.q1.check(_blocks)
    assert result.message.startswith("with 12 samples and 2 shards your shards are contiguous blocks: expected "), \
        result.message


@pytest.mark.parametrize("exercise", [nb09.q1, nb09.q2], ids=["q1", "q2"])
def test_correct_in_chinese(zh, exercise):
    result = exercise.check(*exercise.reference())
    assert result.outcome == Outcome.CORRECT
    assert "正确" in str(result) and "做得好" in str(result), str(result)


@pytest.mark.parametrize("exercise, title", [(nb09.q1, "rank 读取哪些样本"), (nb09.q2, "全局批的梯度"),
                                             (nb09.q3, "在两个 Worker 进程上运行的函数式数据并行训练步")],
                         ids=["q1", "q2", "q3"])
def test_not_attempted_in_chinese(zh, exercise, title):
    def answer(*args):
        return ____

    result = exercise.check(answer)
    assert result.outcome == Outcome.NOT_ATTEMPTED
    assert "尚未作答" in str(result) and "占位符 ____" in result.message and title in str(result), str(result)


def test_q3_not_a_function_or_no_source_in_chinese(zh):
    result = nb09.q3.check(5)
    assert result.outcome == Outcome.INCORRECT and "不是函数" in result.message, result.message
    result = nb09.q3.check(len)  # a builtin: no source to send to the workers
    assert result.outcome == Outcome.INCORRECT and "无法读取 make_dp_step 的源代码" in result.message, result.message


@pytest.mark.parametrize("exercise, fragment", [
    (nb09.q1, "各分片是交错的"),
    (nb09.q2, "按各 rank 所占的样本比例"),
    (nb09.q3, "在优化器运行之前"),
], ids=["q1", "q2", "q3"])
def test_hints_in_chinese(zh, capsys, exercise, fragment):
    exercise.hint()
    out = capsys.readouterr().out
    assert "提示" in out and fragment in out, out


def test_solutions_in_chinese(zh, capsys):
    nb09.q3.solution()
    out = capsys.readouterr().out
    assert "参考答案" in out and "# AllReduce：此后每个 rank 持有的都是平均梯度" in out, out
    assert "nn.DistributedGradReducer(optimizer.parameters, mean=True, degree=group_size)" in out, out
    nb09.q1.solution()
    out = capsys.readouterr().out
    assert "参考答案" in out and "def shard_indices(n_samples, num_shards, shard_id):" in out, out


# Each check below launches two msrun workers; the workers' messages come back in Chinese too.
def _returns_nothing(net, loss_fn, optimizer, group_size):
    def step(x, y):
        return loss_fn(net(x), y)


@pytest.mark.slow
@pytest.mark.parametrize("answer, fragments", [
    (_no_reducer, ("rank 0 和 rank 1 的权重不同", "期望各副本完全相同")),
    (_returns_nothing, ("make_dp_step 没有运行完", "make_dp_step(...) 返回了 NoneType，而不是函数 step(x, y)")),
], ids=["no_reducer", "worker_message"])
def test_q3_on_two_workers_in_chinese(zh, capsys, answer, fragments):
    result = nb09.q3.check(answer)
    assert result.outcome == Outcome.INCORRECT
    for fragment in fragments:
        assert fragment in result.message, result.message
    assert "正在用 msrun 启动 2 个 Worker 进程，运行 make_dp_step" in capsys.readouterr().out
