"""Notebook 06's exercise checks accept the reference and reject typical wrong answers, and the
reference sharding is MindSpore's own."""

import math

import numpy as np
import pytest

from course_utils.exercises import Outcome, ____, nb06


# ---- q1: which samples a rank reads -------------------------------------------------------------------

def test_q1_reference_is_what_mindspore_does():
    import mindspore.dataset as ds

    for n, k in nb06.ShardIndices.CASES:
        for r in range(k):
            data = ds.NumpySlicesDataset(np.arange(n), column_names=["i"], shuffle=False, num_shards=k, shard_id=r)
            real = [int(row[0]) for row in data.create_tuple_iterator(output_numpy=True)]
            assert nb06.q1.reference()[0](n, k, r) == real, (n, k, r)


def test_q1_accepts_the_reference_and_other_correct_forms():
    assert nb06.q1.check(*nb06.q1.reference()) == Outcome.CORRECT

    def shard_indices(n_samples, num_shards, shard_id):  # a NumPy array is fine too
        return (shard_id + num_shards * np.arange(-(-n_samples // num_shards))) % n_samples

    assert nb06.q1.check(shard_indices) == Outcome.CORRECT


def test_q1_not_attempted():
    assert nb06.q1.check(____) == Outcome.NOT_ATTEMPTED

    def shard_indices(n_samples, num_shards, shard_id):
        return ____

    assert nb06.q1.check(shard_indices) == Outcome.NOT_ATTEMPTED


def _blocks(n, k, r):
    per = math.ceil(n / k)
    return [(r * per + j) % n for j in range(per)]


# ---- q2: the gradient of the global batch ----------------------------------------------------------------

def test_q2_accepts_the_reference_and_a_numpy_solution():
    assert nb06.q2.check(*nb06.q2.reference()) == Outcome.CORRECT

    def global_gradient(rank_grads, rank_sizes):
        return np.average(np.stack(rank_grads), axis=0, weights=rank_sizes)

    assert nb06.q2.check(global_gradient) == Outcome.CORRECT


def test_q2_not_attempted():
    def global_gradient(rank_grads, rank_sizes):
        return ____

    assert nb06.q2.check(global_gradient) == Outcome.NOT_ATTEMPTED


REJECTED = [
    (nb06.q1, lambda n, k, r: list(range(r, n, k)), "same number"),
    (nb06.q1, _blocks, "contiguous blocks"),
    (nb06.q1, lambda n, k, r: sorted(nb06.q1.reference()[0](n, k, r)), "another order"),
    (nb06.q1, lambda n, k, r: [r + j * k for j in range(math.ceil(n / k))], "expected the shards"),
    (nb06.q1, lambda n, k, r: 3, "list of sample indices"),
    (nb06.q2, lambda g, n: np.mean(g, axis=0), "plain average"),
    (nb06.q2, lambda g, n: np.sum(g, axis=0), "summed"),
    (nb06.q2, lambda g, n: g, "one gradient of shape"),
    (nb06.q2, lambda g, n: np.average(g, axis=0, weights=n[::-1]), "expected"),
    (nb06.q2, lambda g, n: "gradient", "return one array"),
]


@pytest.mark.parametrize("exercise, answer, message", REJECTED)
def test_typical_mistakes_get_a_specific_message(exercise, answer, message):
    result = exercise.check(answer)
    assert (result.outcome, message in result.message) == (Outcome.INCORRECT, True), result.message
