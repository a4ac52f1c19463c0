"""Notebook 06's exercise checks speak Chinese in the Chinese edition: typical wrong answers of
tests/lessons/test_exercises_nb06.py get their message in Chinese (what was written, which parameters differ,
expected vs got), as do the correct and not-attempted outcomes, the hints and the solutions."""

import pytest

from course_utils.exercises import Outcome, ____, nb06
from course_utils.i18n.zh.nb06 import MESSAGES
from test_exercises_nb06 import _load_param_into_net, _predict, _restore, _save, _weights_only
from test_i18n_nb05 import chinese

pytestmark = pytest.mark.usefixtures("pynative")   # no compile per Cell: the messages do not depend on the mode


def test_q1_correct_and_not_attempted(zh):
    result = nb06.q1.check(*nb06.q1.reference())
    assert result == Outcome.CORRECT and "练习 06.1" in str(result) and "为断点续训保存和恢复检查点" in str(result)

    def restore_state(train_step, path):
        ____

    assert nb06.q1.check(nb06.q1.reference()[0], restore_state) == Outcome.NOT_ATTEMPTED


@pytest.mark.parametrize("save, restore, fragments", [
    (_save(fmt=None), _restore(fmt=None), ["写入的是 ['state.safetensors.ckpt']", "而不是 state.safetensors"]),
    (_save(network_only=True), _restore(), ["缺少训练步 28 个参数中的 20 个", "文件中没有优化器的状态"]),
    (_save(), _restore(into_net=False), ["仍有 27 个与保存的不同", "权重，例如"]),
    (lambda step, path, epoch, step_in_epoch: None, _restore(), ["写入的是 没有任何文件"]),
    (_save(position=False), _restore(position=False), ["训练进度（epoch 1，step_in_epoch 37）不在文件中"]),
    (_save(), _restore(position=False), ["返回的是 None；期望返回从文件中读回的训练进度 (1, 37)"]),
])
def test_q1_typical_mistakes_in_chinese(zh, save, restore, fragments):
    result = nb06.q1.check(save, restore)
    assert result == Outcome.INCORRECT and "不正确" in str(result)
    for fragment in fragments:
        assert fragment in result.message, result.message


def test_q2_correct_and_not_attempted(zh):
    result = nb06.q2.check(*nb06.q2.reference())
    assert result == Outcome.CORRECT and "预测一批图像并恢复模式" in str(result)
    assert nb06.q2.check(____) == Outcome.NOT_ATTEMPTED


@pytest.mark.parametrize("answer, fragments", [
    (_predict(normalise=False), ["predict_batch(network, 4 张图像)，网络处于训练模式", "概率与期望值最多相差",
                                 "没有用 MNIST_MEAN 和 MNIST_STD 归一化"]),
    (_predict(eval_mode=False), ["网络在预测时处于训练模式"]),
    (_predict(restore=None), ["调用之后 network.training 为 False；调用之前它是 True"]),
    (_predict(restore="attribute"), ["恢复成了 True，但有 11 个子 Cell 没有恢复"]),
    (_predict(restore="always_train"), ["网络处于评估模式", "调用之后 network.training 为 True"]),
    (_predict(logits=True), ["返回的是 logits 而不是概率"]),
    (_predict(one_image=True), ["概率的形状为 (10,)", "每张图像一行 10 个数"]),
    (_predict(labels_as_float=True), ["期望是 4 个整数"]),
    (lambda network, images: 3, ["请返回两个值"]),
])
def test_q2_typical_mistakes_in_chinese(zh, answer, fragments):
    result = nb06.q2.check(answer)
    assert result == Outcome.INCORRECT
    for fragment in fragments:
        assert fragment in result.message, result.message


def test_q3_correct_and_not_attempted(zh):
    result = nb06.q3.check(*nb06.q3.reference())
    assert result == Outcome.CORRECT and "练习 06.3" in str(result)
    assert "把检查点重新加载到已经运行过的训练步中" in str(result)
    assert nb06.q3.check(____) == Outcome.NOT_ATTEMPTED


@pytest.mark.parametrize("answer, fragments", [
    (_load_param_into_net, ["动态图模式下的“函数式，@jit”训练步", "重新加载之后的那一步得到了损失",
                            "仍是文件中的值：训练步的更新没有作用到它们上"]),
    (_weights_only, ["网络的 4 个参数中有 2 个不是文件中的值，例如 ['fc1.bias', 'fc2.bias']"]),
])
def test_q3_typical_mistakes_in_chinese(zh, answer, fragments):
    result = nb06.q3.check(answer)
    assert result == Outcome.INCORRECT and "不正确" in str(result)
    for fragment in fragments:
        assert fragment in result.message, result.message


@pytest.mark.parametrize("exercise, hint, solution", [
    (nb06.q1, "格式由 format= 决定，而不是由文件名决定", "# 与保存时相同的 format="),
    (nb06.q2, "而直接给 network.training 赋值做不到这一点", "# 每一个子 Cell，出错时也会恢复"),
    (nb06.q3, "用 Parameter.copy_ 把对应的保存值复制进 param", "# 写入训练步已经在使用的存储"),
])
def test_hints_and_solutions_in_chinese(zh, capsys, exercise, hint, solution):
    exercise.hint()
    exercise.solution()
    out = capsys.readouterr().out
    assert "——提示：" in out and hint in out, out
    assert "——参考答案：" in out and solution in out, out


def test_every_nb06_message_is_chinese_with_the_english_placeholders():
    from string import Formatter

    for english, translated in MESSAGES.items():
        assert chinese(translated), english
        assert ({name for _, name, _, _ in Formatter().parse(english) if name}
                == {name for _, name, _, _ in Formatter().parse(translated) if name}), english
