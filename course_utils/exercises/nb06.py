"""Exercises of notebook 06 (data parallel training)."""

from __future__ import annotations

import inspect
import math

import numpy as np

from course_utils.exercises import Exercise, Incorrect, describe, register


def _shard_indices_solution(n_samples, num_shards, shard_id):
    per_shard = math.ceil(n_samples / num_shards)
    return [(shard_id + j * num_shards) % n_samples for j in range(per_shard)]


def _global_gradient_solution(rank_grads, rank_sizes):
    total = sum(rank_sizes)
    return sum(g * (n / total) for g, n in zip(rank_grads, rank_sizes))


class ShardIndices(Exercise):
    names = ("shard_indices",)
    title = "which samples a rank reads"
    hint_text = ("Shards are interleaved: shard r starts at sample r and takes every num_shards-th sample. Every shard "
                 "gets the same number of samples, ceil(n_samples / num_shards); when the data runs out, MindSpore "
                 "starts again at sample 0 (use % n_samples).")

    @property
    def solution_text(self) -> str:
        return "import math\n\n" + inspect.getsource(_shard_indices_solution).replace(
            "_shard_indices_solution", "shard_indices")

    def reference(self):
        return (_shard_indices_solution,)

    # (n_samples, num_shards): divisible, not divisible, more shards than a multiple, more shards than samples
    CASES = ((12, 2), (10, 3), (10, 4), (5, 8))

    def _check(self, shard_indices):
        for n, k in self.CASES:
            expected = [_shard_indices_solution(n, k, r) for r in range(k)]
            got = []
            for r in range(k):
                answer = self.call(shard_indices, n, k, r)
                try:
                    got.append([int(i) for i in answer])
                except (TypeError, ValueError):
                    raise Incorrect(f"shard_indices({n}, {k}, {r}) returned {describe(answer)}; return a list of "
                                    "sample indices (ints).") from None
            if got == expected:
                continue
            case = f"with {n} samples and {k} shards"
            if all(sorted(g) == sorted(e) for g, e in zip(got, expected)):
                raise Incorrect(f"{case} the right samples come back in another order: {got}. Keep the order in "
                                f"which the shard reads them: {expected}.")
            if [len(g) for g in got] != [len(e) for e in expected]:
                raise Incorrect(
                    f"{case} your shards have {[len(g) for g in got]} samples, MindSpore's "
                    f"{[len(e) for e in expected]}. Every shard must get the same number, ceil(n / num_shards): a rank "
                    "with fewer batches would stop early while the others wait for it in the next all-reduce. "
                    "MindSpore fills the short shards by starting again at sample 0.")
            if got[0] == list(range(len(got[0]))):
                raise Incorrect(f"{case} you cut the data into contiguous blocks ({got}). MindSpore interleaves: "
                                f"shard r reads samples r, r + num_shards, r + 2 * num_shards, ... -> {expected}.")
            raise Incorrect(f"{case} expected the shards {expected}, got {got}.")


class GlobalGradient(Exercise):
    names = ("global_gradient",)
    title = "the gradient of the global batch"
    hint_text = ("Each rank's gradient is a mean over its own samples. The global batch's mean gradient weights each "
                 "rank's gradient by its share of the samples: n_r / sum(n). With equal shards that is the plain "
                 "average, which is what gradients_mean=True computes.")

    @property
    def solution_text(self) -> str:
        return inspect.getsource(_global_gradient_solution).replace("_global_gradient_solution", "global_gradient")

    def reference(self):
        return (_global_gradient_solution,)

    def _check(self, global_gradient):
        rng = np.random.default_rng(6)
        # per-sample gradients of a 3-parameter model; each rank's gradient is the mean over its samples
        per_sample = rng.normal(size=(10, 3))
        for sizes in ((5, 5), (6, 4), (7, 2, 1)):
            bounds = np.cumsum((0,) + sizes)
            rank_grads = [per_sample[a:b].mean(axis=0) for a, b in zip(bounds[:-1], bounds[1:])]
            expected = per_sample[:bounds[-1]].mean(axis=0)
            got = self.call(global_gradient, [g.copy() for g in rank_grads], list(sizes))
            try:
                got_arr = np.asarray(got, dtype=np.float64)
            except (TypeError, ValueError):
                raise Incorrect(f"global_gradient(...) returned {describe(got)}; return one array, the mean "
                                "gradient of the global batch.") from None
            if got_arr.shape != expected.shape:
                raise Incorrect(f"for shards of sizes {list(sizes)} expected one gradient of shape {expected.shape}, "
                                f"got shape {got_arr.shape}: combine the ranks' gradients into one.")
            if np.allclose(got_arr, expected, rtol=1e-6, atol=1e-9):
                continue
            plain = np.mean(rank_grads, axis=0)
            if np.allclose(got_arr, plain):
                raise Incorrect(f"for shards of sizes {list(sizes)} you took the plain average of the ranks' gradients. "
                                "That is only the global mean when all shards are equal (and it is what "
                                "gradients_mean=True does, which is why training drops incomplete batches). Weight each "
                                "rank by its number of samples.")
            if np.allclose(got_arr, np.sum(rank_grads, axis=0)):
                raise Incorrect(f"for shards of sizes {list(sizes)} you summed the ranks' gradients: that is what "
                                "gradients_mean=False gives, N times too large a step with equal shards. Average, "
                                "weighted by the shard sizes.")
            raise Incorrect(f"for shards of sizes {list(sizes)} expected {np.round(expected, 4).tolist()}, "
                            f"got {np.round(got_arr, 4).tolist()}.")


q1 = ShardIndices()
q2 = GlobalGradient()
register(globals(), "06")
