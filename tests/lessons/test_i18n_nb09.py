"""Notebook 09's exercises speak Chinese when the lesson does: every typical wrong answer that
tests/lessons/test_exercises_nb09.py checks in English gets its message in Chinese, and so do correct, not attempted,
the hints and 09.3's solution."""

import pytest

from course_utils.exercises import Outcome, ____, nb09

# The English tests' wrong answers (pytest puts tests/ on sys.path): each gets its Chinese message here.
from test_exercises_nb09 import REJECTED, REJECTED_Q3, _blocks

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


@pytest.mark.parametrize("exercise", [nb09.q1, nb09.q2, nb09.q3], ids=["q1", "q2", "q3"])
def test_correct_in_chinese(zh, exercise):
    result = exercise.check(*exercise.reference())
    assert result.outcome == Outcome.CORRECT
    assert "正确" in str(result) and "做得好" in str(result), str(result)


@pytest.mark.parametrize("exercise, title", [(nb09.q1, "rank 读取哪些样本"), (nb09.q2, "全局批的梯度"),
                                             (nb09.q3, "哪个任务漏掉了梯度聚合")],
                         ids=["q1", "q2", "q3"])
def test_not_attempted_in_chinese(zh, exercise, title):
    def answer(*args):
        return ____

    result = exercise.check(answer)
    assert result.outcome == Outcome.NOT_ATTEMPTED
    assert "尚未作答" in str(result) and "占位符 ____" in result.message and title in str(result), str(result)


# A Chinese fragment of the message for each of REJECTED_Q3, in its order.
FRAGMENTS_Q3 = [
    "对于在第 2 步有一个权重相差一个比特的两个 rank：期望",
    "对于只有 rank 2 不同（从第 4 步起）的三个 rank",
    "应为每一步返回一个 True/False（包括开始时）",
    "replicas_agree 返回了 6 个值，期望每步一个（包括开始时），共 7 个",
    "job B 的各副本每一步都逐位相同：它有梯度聚合",
    "job A 的各副本在开始时、尚未交换任何梯度之前就已不同",
    "请填写其中一个任务的名称：'job A', 'job B', 'job C'",
]


@pytest.mark.parametrize("answers, fragment", [(answers, fragment) for (answers, _), fragment
                                               in zip(REJECTED_Q3, FRAGMENTS_Q3)])
def test_q3_mistakes_in_chinese(zh, answers, fragment):
    assert len(FRAGMENTS_Q3) == len(REJECTED_Q3)
    result = nb09.q3.check(*answers)
    assert result.outcome == Outcome.INCORRECT and fragment in result.message, result.message
    for english in ("expected", "returned", "replicas of", "name one"):
        assert english not in result.message, result.message


@pytest.mark.parametrize("exercise, fragment", [
    (nb09.q1, "各分片是交错的"),
    (nb09.q2, "按各 rank 所占的样本比例"),
    (nb09.q3, "用容差比较（np.allclose）反而会掩盖你要找的偏离"),
], ids=["q1", "q2", "q3"])
def test_hints_in_chinese(zh, capsys, exercise, fragment):
    exercise.hint()
    out = capsys.readouterr().out
    assert "提示" in out and fragment in out, out


def test_solutions_in_chinese(zh, capsys):
    nb09.q3.solution()
    out = capsys.readouterr().out
    assert "参考答案" in out and "# job C：开始时一致，从第一次更新起分开：没有梯度聚合。" in out, out
    assert 'WITHOUT_REDUCER = "job C"' in out and "np.array_equal(w[s], first[s])" in out, out
    nb09.q1.solution()
    out = capsys.readouterr().out
    assert "参考答案" in out and "def shard_indices(n_samples, num_shards, shard_id):" in out, out
