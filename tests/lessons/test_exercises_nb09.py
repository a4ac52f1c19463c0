"""Notebook 09's exercise checks accept the reference and reject typical wrong answers, the reference sharding is
MindSpore's own, and 09.3's simulated jobs are what they claim to be."""

import math

import numpy as np
import pytest

from course_utils.exercises import Outcome, ____, nb09

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


# ---- q3: which job forgot the reducer ------------------------------------------------------------------------

def _pairwise(weights_by_rank):            # compares rank 0 with rank 1 only
    return [np.array_equal(weights_by_rank[0][s], weights_by_rank[1][s]) for s in range(len(weights_by_rank[0]))]


def _tolerant(weights_by_rank):            # np.allclose: hides a one-bit drift
    first = weights_by_rank[0]
    return [all(np.allclose(w[s], first[s]) for w in weights_by_rank[1:]) for s in range(len(first))]


def _final_only(weights_by_rank):          # one answer for the whole run
    return all(np.array_equal(w[-1], weights_by_rank[0][-1]) for w in weights_by_rank)


def _no_start(weights_by_rank):            # forgets the start (row 0)
    first = weights_by_rank[0]
    return [all(np.array_equal(w[s], first[s]) for w in weights_by_rank) for s in range(1, len(first))]


def test_q3_the_jobs_show_what_they_are():
    agree = {name: nb09._replicas_agree_solution(ranks) for name, ranks in nb09.q3.jobs().items()}
    steps = nb09.STEPS + 1
    assert agree == {"job A": [False] * steps, "job B": [True] * steps, "job C": [True] + [False] * (steps - 1)}


def test_q3_the_correct_job_is_one_process_on_the_combined_batch():
    """The simulated data parallelism is the real thing: rank 0 of the correct job follows plain SGD on the global
    batch (float64 reference, float32 rounding)."""
    rank0 = nb09.q3.jobs()["job B"][0]
    rng = np.random.default_rng(909)
    w = 0.5 * rng.normal(size=(nb09.OUT, nb09.IN)).astype(np.float32).astype(np.float64)
    b = 0.1 * rng.normal(size=nb09.OUT).astype(np.float32).astype(np.float64)
    x = rng.normal(size=(nb09.STEPS, 2 * nb09.PER_RANK, nb09.IN)).astype(np.float32)
    y = rng.normal(size=(nb09.STEPS, 2 * nb09.PER_RANK, nb09.OUT)).astype(np.float32)
    for s in range(nb09.STEPS):
        err = x[s] @ w.T + b - y[s]
        w, b = w - nb09.LR * 2 / err.size * err.T @ x[s], b - nb09.LR * 2 / err.size * err.sum(axis=0)
        np.testing.assert_allclose(rank0[s + 1], np.concatenate([w.ravel(), b]), rtol=1e-5, atol=1e-6)


def test_q3_accepts_the_reference_and_a_numpy_form():
    assert nb09.q3.check(*nb09.q3.reference()) == Outcome.CORRECT

    def replicas_agree(weights_by_rank):
        stacked = np.stack(weights_by_rank)                  # (ranks, steps + 1, parameters)
        return (stacked == stacked[0]).all(axis=(0, 2)).tolist()

    assert nb09.q3.check(replicas_agree, " job C ") == Outcome.CORRECT


def test_q3_not_attempted():
    def replicas_agree(weights_by_rank):
        return ____

    assert nb09.q3.check(replicas_agree, "job C") == Outcome.NOT_ATTEMPTED
    assert nb09.q3.check(nb09._replicas_agree_solution, ____) == Outcome.NOT_ATTEMPTED


REJECTED_Q3 = [
    ((_tolerant, "job C"), "one bit apart in one weight at step 2"),
    ((_pairwise, "job C"), "only rank 2 differs"),
    ((_final_only, "job C"), "return one True/False per step"),
    ((_no_start, "job C"), "returned 6 values, expected one per step, the start included: 7"),
    ((nb09._replicas_agree_solution, "job B"), "agree at every step, bit for bit"),
    ((nb09._replicas_agree_solution, "job A"), "differ already at the start"),
    ((nb09._replicas_agree_solution, "C"), "name one of the jobs"),
]


@pytest.mark.parametrize("answers, message", REJECTED_Q3,
                         ids=["allclose", "pairwise", "final_only", "no_start", "correct_job", "different_start",
                              "bad_name"])
def test_q3_typical_mistakes_get_a_specific_message(answers, message):
    result = nb09.q3.check(*answers)
    assert (result.outcome, message in result.message) == (Outcome.INCORRECT, True), result.message
