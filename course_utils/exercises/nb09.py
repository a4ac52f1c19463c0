"""Exercises of notebook 09 (data parallel training)."""

from __future__ import annotations

import inspect
import math

import numpy as np

from course_utils.exercises import Exercise, Incorrect, describe, register
from course_utils.i18n import tr


def _shard_indices_solution(n_samples, num_shards, shard_id):
    per_shard = math.ceil(n_samples / num_shards)
    return [(shard_id + j * num_shards) % n_samples for j in range(per_shard)]


def _global_gradient_solution(rank_grads, rank_sizes):
    total = sum(rank_sizes)
    return sum(g * (n / total) for g, n in zip(rank_grads, rank_sizes))


def _source_as(fn, name: str) -> str:
    """A reference solution's source, under the name the learner writes."""
    return inspect.getsource(fn).replace(fn.__name__, name)


class ShardIndices(Exercise):
    names = ("shard_indices",)
    title = "which samples a rank reads"
    hint_text = ("Shards are interleaved: shard r starts at sample r and takes every num_shards-th sample. Every shard "
                 "gets the same number of samples, ceil(n_samples / num_shards); when the data runs out, MindSpore "
                 "starts again at sample 0 (use % n_samples). Why it wraps around: a rank with one batch fewer would "
                 "finish its epoch early, while the others would hang in their next all-reduce, waiting for it.")

    @property
    def solution_text(self) -> str:
        return "import math\n\n" + _source_as(_shard_indices_solution, "shard_indices")

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
                    raise Incorrect(tr("shard_indices({n}, {k}, {r}) returned {got}; return a list of sample "
                                       "indices (ints).", n=n, k=k, r=r, got=describe(answer))) from None
            if got == expected:
                continue
            case = tr("with {n} samples and {k} shards", n=n, k=k)
            if all(sorted(g) == sorted(e) for g, e in zip(got, expected)):
                raise Incorrect(tr("{case} the right samples come back in another order: expected {expected}, "
                                   "got {got}.", case=case, expected=expected, got=got))
            if [len(g) for g in got] != [len(e) for e in expected]:
                raise Incorrect(tr("{case} your shards have {sizes} samples, MindSpore's {expected_sizes}: "
                                   "expected {expected}, got {got}.", case=case, sizes=[len(g) for g in got],
                                   expected_sizes=[len(e) for e in expected], expected=expected, got=got))
            if got[0] == list(range(len(got[0]))):
                raise Incorrect(tr("{case} your shards are contiguous blocks: expected {expected}, got {got}.",
                                   case=case, expected=expected, got=got))
            raise Incorrect(tr("{case} expected the shards {expected}, got {got}.", case=case, expected=expected,
                               got=got))


class GlobalGradient(Exercise):
    names = ("global_gradient",)
    title = "the gradient of the global batch"
    hint_text = ("Each rank's gradient is a mean over its own samples. The global batch's mean gradient weights each "
                 "rank's gradient by its share of the samples: n_r / sum(n). With equal shards that is the plain "
                 "average, which is what gradients_mean=True computes.")

    @property
    def solution_text(self) -> str:
        return _source_as(_global_gradient_solution, "global_gradient")

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
                raise Incorrect(tr("global_gradient(...) returned {got}; return one array, the mean gradient of "
                                   "the global batch.", got=describe(got))) from None
            if got_arr.shape != expected.shape:
                raise Incorrect(tr("for shards of sizes {sizes} expected one gradient of shape {expected}, got "
                                   "shape {got}.", sizes=list(sizes), expected=expected.shape, got=got_arr.shape))
            if np.allclose(got_arr, expected, rtol=1e-6, atol=1e-9):
                continue
            plain = np.mean(rank_grads, axis=0)
            values = dict(sizes=list(sizes), expected=np.round(expected, 4).tolist(),
                          got=np.round(got_arr, 4).tolist())
            if np.allclose(got_arr, plain):
                raise Incorrect(tr("for shards of sizes {sizes} you returned the plain average of the ranks' "
                                   "gradients, {got}; the mean over all samples is {expected}.", **values))
            if np.allclose(got_arr, np.sum(rank_grads, axis=0)):
                raise Incorrect(tr("for shards of sizes {sizes} you returned the sum of the ranks' gradients, "
                                   "{got}; the mean over all samples is {expected}.", **values))
            raise Incorrect(tr("for shards of sizes {sizes} expected {expected}, got {got}.", **values))


# ---- 09.3: which job forgot the reducer? -------------------------------------------------------------------------

def _replicas_agree_solution(weights_by_rank):
    first = weights_by_rank[0]
    return [all(np.array_equal(w[s], first[s]) for w in weights_by_rank[1:]) for s in range(len(first))]


IN, OUT, PER_RANK, STEPS, LR = 4, 2, 4, 6, 0.1


def _simulate(ranks: int = 2, reducer: bool = True, same_start: bool = True, steps: int = STEPS) -> list:
    """Per-rank weight traces of a small data-parallel job (a 4 -> 2 linear layer, mean squared error, SGD), in
    float32 as a worker computes them: ``[rank 0 weights, rank 1 weights, ...]``, each ``(steps + 1, 10)`` (the
    start, then after every step). ``reducer``: every rank applies the mean of the ranks' gradients;
    ``same_start``: every rank starts from the same weights (the same seed)."""
    rng = np.random.default_rng(909)
    w0 = (0.5 * rng.normal(size=(OUT, IN))).astype(np.float32)
    b0 = (0.1 * rng.normal(size=OUT)).astype(np.float32)
    x = rng.normal(size=(steps, ranks * PER_RANK, IN)).astype(np.float32)
    y = rng.normal(size=(steps, ranks * PER_RANK, OUT)).astype(np.float32)
    starts = [(w0, b0)] + [(w0, b0) if same_start else
                           ((w0 + 0.05 * rng.normal(size=w0.shape)).astype(np.float32), b0) for _ in range(ranks - 1)]
    weights = [[w.copy(), b.copy()] for w, b in starts]
    traces = [[np.concatenate([w.ravel(), b])] for w, b in weights]
    for s in range(steps):
        grads = []
        for r, (w, b) in enumerate(weights):
            xs, ys = x[s, r * PER_RANK:(r + 1) * PER_RANK], y[s, r * PER_RANK:(r + 1) * PER_RANK]
            err = xs @ w.T + b - ys
            scale = np.float32(2.0 / err.size)
            grads.append((scale * err.T @ xs, scale * err.sum(axis=0)))
        if reducer:
            mean = (sum(g[0] for g in grads) / np.float32(ranks), sum(g[1] for g in grads) / np.float32(ranks))
            grads = [mean] * ranks
        for r, (gw, gb) in enumerate(grads):
            weights[r][0] = (weights[r][0] - np.float32(LR) * gw).astype(np.float32)
            weights[r][1] = (weights[r][1] - np.float32(LR) * gb).astype(np.float32)
            traces[r].append(np.concatenate([weights[r][0].ravel(), weights[r][1]]))
    return [np.stack(t) for t in traces]


#: The three jobs of 09.3, by name: what each did (kept from the learner until the check explains a wrong pick).
_JOB_KINDS = {"job A": "different_start", "job B": "correct", "job C": "no_reducer"}
_JOB_SETTINGS = {"different_start": dict(same_start=False), "correct": {}, "no_reducer": dict(reducer=False)}


def jobs() -> dict:
    """Three two-worker jobs' weight traces: ``{"job A": [rank 0, rank 1], ...}``, each rank's array
    ``(steps + 1, parameters)``: the weights at the start and after every step."""
    return {name: _simulate(**_JOB_SETTINGS[kind]) for name, kind in _JOB_KINDS.items()}


class WhichJobForgot(Exercise):
    """Diagnosis from per-rank weight traces: a bit-for-bit replica check, then the job without a reducer."""

    names = ("replicas_agree", "WITHOUT_REDUCER")
    title = "which job forgot the reducer"
    hint_text = ("Compare every rank with rank 0, step by step, with np.array_equal: the replicas of a correct job "
                 "are the same bits, so a tolerance (np.allclose) would hide the very drift you are looking for. "
                 "Then print replicas_agree for each job. A forgotten reducer cannot show before the first gradient "
                 "is applied; a difference that is there before any step has another cause.")
    solution_text = (_source_as(_replicas_agree_solution, "replicas_agree") + "\n\n"
                     "for name, ranks in JOBS.items():\n"
                     "    print(name, replicas_agree(ranks))\n"
                     "# job A: apart already at the start (different initial weights); job B: equal throughout;\n"
                     "# job C: equal at the start, apart from the first update on: no reducer.\n"
                     'WITHOUT_REDUCER = "job C"\n')

    def reference(self):
        return (_replicas_agree_solution, "job C")

    @staticmethod
    def jobs() -> dict:
        """The three jobs to diagnose (see ``jobs``)."""
        return jobs()

    def _cases(self):
        """(description, weights_by_rank, expected) for replicas_agree: the three jobs, then traps."""
        cases = [(tr("for {job}", job=name), ranks, _replicas_agree_solution(ranks)) for name, ranks in jobs().items()]
        tiny = [t.copy() for t in _simulate()]
        tiny[1][2, 0] = np.nextafter(tiny[1][2, 0], np.float32(np.inf))   # one weight, one bit, at step 2
        cases.append((tr("for two ranks one bit apart in one weight at step 2"), tiny, _replicas_agree_solution(tiny)))
        three = _simulate(ranks=3)
        three[2] = three[2].copy()
        three[2][4:] += np.float32(0.01)                # rank 2 alone leaves the others after step 3
        cases.append((tr("for three ranks where only rank 2 differs (from step 4 on)"), three,
                      _replicas_agree_solution(three)))
        return cases

    def _check(self, replicas_agree, without_reducer):
        for description, ranks, expected in self._cases():
            answer = self.call(replicas_agree, [r.copy() for r in ranks])
            try:
                got = [bool(a) for a in answer]
            except (TypeError, ValueError):
                shown = repr(answer) if isinstance(answer, bool) else describe(answer)
                raise Incorrect(tr("replicas_agree(...) returned {got}; return one True/False per step (the start "
                                   "included).", got=shown)) from None
            if len(got) != len(expected):
                raise Incorrect(tr("{case}: replicas_agree returned {n} values, expected one per step, the start "
                                   "included: {expected}.", case=description, n=len(got), expected=len(expected)))
            if got != expected:
                raise Incorrect(tr("{case}: expected {expected}, got {got}.", case=description, expected=expected,
                                   got=got))
        if not isinstance(without_reducer, str) or without_reducer.strip() not in _JOB_KINDS:
            raise Incorrect(tr("WITHOUT_REDUCER is {got}; name one of the jobs: {names}.",
                               got=describe(without_reducer), names=", ".join(repr(n) for n in _JOB_KINDS)))
        kind = _JOB_KINDS[without_reducer.strip()]
        if kind == "correct":
            raise Incorrect(tr("the replicas of {job} agree at every step, bit for bit: it has its reducer.",
                               job=without_reducer.strip()))
        if kind == "different_start":
            raise Incorrect(tr("the replicas of {job} differ already at the start, before any gradient was "
                               "exchanged, and never come together: look at which job starts equal.",
                               job=without_reducer.strip()))


q1 = ShardIndices()
q2 = GlobalGradient()
q3 = WhichJobForgot()
register(globals(), "09")
