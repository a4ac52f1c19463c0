"""Exercises of notebook 09 (data parallel training)."""

from __future__ import annotations

import inspect
import math
import tempfile
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from course_utils.distributed import LaunchError, launch
from course_utils.exercises import Exercise, Incorrect, describe, register
from course_utils.exercises import nb09_worker
from course_utils.i18n import tr

if TYPE_CHECKING:   # the names nb09_worker.MODULE_HEADER imports where the reference step runs (see below)
    import mindspore as ms
    from mindspore import nn, ops


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
                 "starts again at sample 0 (use % n_samples).")

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


# Runs only inside the workers, in a file that starts with nb09_worker.MODULE_HEADER (which imports
# ms, nn and ops there); this module does not import MindSpore.
def _make_dp_step_solution(net, loss_fn, optimizer, group_size):
    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
    reducer = nn.DistributedGradReducer(optimizer.parameters, mean=True, degree=group_size)

    def step(x, y):
        loss, grads = grad_fn(x, y)
        grads = reducer(grads)            # all-reduce: every rank now holds the mean gradient
        return ops.depend(loss, optimizer(grads))

    return step


class DataParallelStep(Exercise):
    """The learner's functional data-parallel step, run for real on two msrun workers.

    The function is never called in the learner's kernel (a parallel context without ``init()``
    would crash it): its source goes into a file that ``nb09_worker.py`` imports on each rank.
    """

    names = ("make_dp_step",)
    title = "a functional data-parallel step, on two workers"
    workers = 2
    timeout = 240.0
    hint_text = ("value_and_grad gives each rank the gradient of its own shard. Something must turn those into the "
                 "same gradient on every rank before the optimizer runs: nn.DistributedGradReducer(parameters, "
                 "mean=..., degree=...), called on the gradients.")

    def reference(self):
        return (_make_dp_step_solution,)

    @property
    def solution_text(self) -> str:
        return _source_as(_make_dp_step_solution, "make_dp_step")

    def _check(self, make_dp_step):
        if not callable(make_dp_step):
            raise Incorrect(tr("make_dp_step is {got}, not a function.", got=describe(make_dp_step)))
        try:
            source = textwrap.dedent(inspect.getsource(make_dp_step))
        except (OSError, TypeError):
            raise Incorrect(tr("the source of make_dp_step cannot be read: define it with def in a notebook cell "
                               "or a file.")) from None
        source = source.replace(f"def {make_dp_step.__name__}(", "def make_dp_step(", 1)
        print(tr("running make_dp_step on {workers} msrun workers (this takes a few seconds)...",
                 workers=self.workers), flush=True)
        with tempfile.TemporaryDirectory(prefix="nb09_q3_") as tmp:
            folder = Path(tmp)
            module = folder / "learner_step.py"
            module.write_text(nb09_worker.MODULE_HEADER + source)
            try:
                launch(nb09_worker.__file__, ["--module", module, "--out", folder / "out"], workers=self.workers,
                       log_dir=folder / "logs", timeout=self.timeout)
            except LaunchError as err:
                lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
                detail = lines[1] if err.kind == "worker_failed" and len(lines) > 1 else lines[0]
                raise Incorrect(tr("on {workers} workers, make_dp_step did not run to the end ({kind}{rank}): "
                                   "{detail}", workers=self.workers, kind=err.kind,
                                   rank="" if err.rank is None else f", rank {err.rank}", detail=detail)) from None
            ranks = [np.load(folder / "out" / f"rank_{r}.npz") for r in range(self.workers)]
            weights = [r["weights"] for r in ranks]
        w0, b0, _, _ = nb09_worker.problem(self.workers)
        start = nb09_worker.flat(w0, b0)
        expected = nb09_worker.reference_weights(self.workers)
        steps = nb09_worker.STEPS
        if all(np.array_equal(w[-1], start) for w in weights):
            raise Incorrect(tr("after {steps} steps the weights are unchanged on every rank (expected them to "
                               "move).", steps=steps))
        drift = float(np.abs(weights[0] - weights[1]).max())
        if drift > 0:
            raise Incorrect(tr("after {steps} steps on different shards, rank 0 and rank 1 hold different weights "
                               "(largest difference {drift:.3g}); expected identical replicas.", steps=steps,
                               drift=drift))
        gap = float(np.abs(weights[0][-1] - expected[-1]).max())
        if gap > 1e-5:
            raise Incorrect(tr("both ranks agree, but after {steps} steps their weights differ from one process "
                               "trained on the combined batches by up to {gap:.3g}: first weights expected "
                               "{expected}, got {got}.", steps=steps, gap=gap,
                               expected=np.round(expected[-1][:3], 4).tolist(),
                               got=np.round(weights[0][-1][:3], 4).tolist()))


q1 = ShardIndices()
q2 = GlobalGradient()
q3 = DataParallelStep()
register(globals(), "09")
