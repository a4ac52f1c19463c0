"""Notebook 09's exercise checks accept the reference and reject typical wrong answers, and the
reference sharding is MindSpore's own."""

import math
from typing import TYPE_CHECKING

import numpy as np
import pytest

from course_utils.exercises import Outcome, ____, nb09

if TYPE_CHECKING:   # the wrong answers below run in the workers, whose file starts with nb09_worker.MODULE_HEADER
    import mindspore as ms
    from mindspore import nn, ops


# ---- q1: which samples a rank reads -------------------------------------------------------------------

def test_q1_reference_is_what_mindspore_does():
    import mindspore.dataset as ds

    for n, k in nb09.ShardIndices.CASES:
        for r in range(k):
            data = ds.NumpySlicesDataset(np.arange(n), column_names=["i"], shuffle=False, num_shards=k, shard_id=r)
            real = [int(row[0]) for row in data.create_tuple_iterator(output_numpy=True)]
            assert nb09.q1.reference()[0](n, k, r) == real, (n, k, r)


def test_q1_accepts_the_reference_and_other_correct_forms():
    assert nb09.q1.check(*nb09.q1.reference()) == Outcome.CORRECT

    def shard_indices(n_samples, num_shards, shard_id):  # a NumPy array is fine too
        return (shard_id + num_shards * np.arange(-(-n_samples // num_shards))) % n_samples

    assert nb09.q1.check(shard_indices) == Outcome.CORRECT


def test_q1_not_attempted():
    assert nb09.q1.check(____) == Outcome.NOT_ATTEMPTED

    def shard_indices(n_samples, num_shards, shard_id):
        return ____

    assert nb09.q1.check(shard_indices) == Outcome.NOT_ATTEMPTED


def _blocks(n, k, r):
    per = math.ceil(n / k)
    return [(r * per + j) % n for j in range(per)]


# ---- q2: the gradient of the global batch ----------------------------------------------------------------

def test_q2_accepts_the_reference_and_a_numpy_solution():
    assert nb09.q2.check(*nb09.q2.reference()) == Outcome.CORRECT

    def global_gradient(rank_grads, rank_sizes):
        return np.average(np.stack(rank_grads), axis=0, weights=rank_sizes)

    assert nb09.q2.check(global_gradient) == Outcome.CORRECT


def test_q2_not_attempted():
    def global_gradient(rank_grads, rank_sizes):
        return ____

    assert nb09.q2.check(global_gradient) == Outcome.NOT_ATTEMPTED


# Messages name the input, what came back and what was expected: symptoms, never the fix.
REJECTED = [
    (nb09.q1, lambda n, k, r: list(range(r, n, k)), "your shards have [4, 3, 3] samples, MindSpore's [4, 4, 4]"),
    (nb09.q1, _blocks, "contiguous blocks"),
    (nb09.q1, lambda n, k, r: sorted(nb09.q1.reference()[0](n, k, r)), "another order"),
    (nb09.q1, lambda n, k, r: [r + j * k for j in range(math.ceil(n / k))], "expected the shards"),
    (nb09.q1, lambda n, k, r: 3, "list of sample indices"),
    (nb09.q2, lambda g, n: np.mean(g, axis=0), "plain average"),
    (nb09.q2, lambda g, n: np.sum(g, axis=0), "the sum of the ranks' gradients"),
    (nb09.q2, lambda g, n: g, "one gradient of shape"),
    (nb09.q2, lambda g, n: np.average(g, axis=0, weights=n[::-1]), "expected"),
    (nb09.q2, lambda g, n: "gradient", "return one array"),
]


@pytest.mark.parametrize("exercise, answer, message", REJECTED)
def test_typical_mistakes_get_a_specific_message(exercise, answer, message):
    result = exercise.check(answer)
    assert (result.outcome, message in result.message) == (Outcome.INCORRECT, True), result.message


# ---- q3: a functional data-parallel step on two msrun workers ------------------------------------------

def test_q3_reference_weights_are_one_mindspore_process_on_the_combined_batch():
    import mindspore as ms
    from mindspore import nn

    from course_utils.exercises import nb09_worker as w

    w0, b0, x, y = w.problem(2)
    net = nn.Dense(w.IN, w.OUT, weight_init=ms.Tensor(w0), bias_init=ms.Tensor(b0))
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), w.LR))
    got = []
    for s in range(w.STEPS):
        step(ms.Tensor(x[s]), ms.Tensor(y[s]))
        got.append(w.flat(net.weight.asnumpy(), net.bias.asnumpy()))
    np.testing.assert_allclose(np.stack(got), w.reference_weights(2), rtol=1e-5, atol=1e-6)


def test_q3_not_attempted_without_launching():
    def make_dp_step(net, loss_fn, optimizer, group_size):
        return ____

    assert nb09.q3.check(make_dp_step) == Outcome.NOT_ATTEMPTED


# Each check below launches two msrun workers.
def _no_reducer(net, loss_fn, optimizer, group_size):
    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        return ops.depend(loss, optimizer(grads))

    return step


def _summed(net, loss_fn, optimizer, group_size):
    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
    reducer = nn.DistributedGradReducer(optimizer.parameters, mean=False)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        return ops.depend(loss, optimizer(reducer(grads)))

    return step


def _no_update(net, loss_fn, optimizer, group_size):
    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)

    def step(x, y):
        return grad_fn(x, y)[0]

    return step


def _raises(net, loss_fn, optimizer, group_size):
    raise ValueError("a mistake in the learner's code")


@pytest.mark.slow
@pytest.mark.parametrize("answer, message", [
    (None, None),
    (_no_reducer, "rank 0 and rank 1 hold different weights"),
    (_summed, "differ from one process trained on the combined batches"),
    (_no_update, "the weights are unchanged on every rank"),
    (_raises, "ValueError: a mistake in the learner's code"),
], ids=["reference", "no_reducer", "sum_not_mean", "no_update", "raises"])
def test_q3_runs_the_step_on_two_workers(answer, message, capsys):
    if answer is None:
        assert nb09.q3.check(*nb09.q3.reference()) == Outcome.CORRECT
        return
    result = nb09.q3.check(answer)
    assert result == Outcome.INCORRECT
    assert message in str(result), str(result)
