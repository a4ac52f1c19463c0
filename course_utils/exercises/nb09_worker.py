"""One worker of exercise 09.3's check: the learner's ``make_dp_step`` on this rank's shard.

``nb09.q3.check()`` writes the learner's function to a file and starts two copies of this script
with msrun (``course_utils.distributed.launch``)::

    python nb09_worker.py --module <dir>/learner_step.py --out <dir>

Each rank trains a small linear layer (``PROBLEM``: 4 -> 2, MSE, SGD) for a few steps on its own
contiguous shard of every global batch and writes ``<out>/rank_<r>.npz`` (weights after every step,
losses). The check compares the ranks with each other and with one process trained on the combined
batches (``reference_weights``, NumPy), so nothing distributed ever runs in the learner's kernel.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

import numpy as np

IN, OUT, PER_RANK, STEPS, LR = 4, 2, 4, 3, 0.1

#: What the learner's module can use without importing it (it is written into a file of its own).
MODULE_HEADER = """import mindspore as ms
import numpy as np
from mindspore import nn, ops
from mindspore.communication import get_group_size, get_rank

"""


def problem(size: int):
    """Initial weights and the global batches (``size * PER_RANK`` samples per step)."""
    rng = np.random.default_rng(63)
    w0 = (0.5 * rng.normal(size=(OUT, IN))).astype(np.float32)
    b0 = (0.1 * rng.normal(size=(OUT,))).astype(np.float32)
    x = rng.normal(size=(STEPS, size * PER_RANK, IN)).astype(np.float32)
    y = rng.normal(size=(STEPS, size * PER_RANK, OUT)).astype(np.float32)
    return w0, b0, x, y


def flat(weight, bias) -> np.ndarray:
    return np.concatenate([np.asarray(weight).ravel(), np.asarray(bias).ravel()])


def reference_weights(size: int, lr: float = LR) -> np.ndarray:
    """Weights after each step of one process training on the combined batches (mean MSE, SGD)."""
    w, b, x, y = problem(size)
    w, b = w.astype(np.float64), b.astype(np.float64)
    out = []
    for s in range(STEPS):
        err = x[s] @ w.T + b - y[s]
        scale = 2.0 / err.size                      # d mean(err**2) / d err
        w = w - lr * scale * err.T @ x[s]
        b = b - lr * scale * err.sum(axis=0)
        out.append(flat(w, b))
    return np.stack(out)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", required=True, type=Path, help="file with the learner's make_dp_step")
    parser.add_argument("--out", required=True, type=Path, help="folder for rank_<r>.npz")
    args = parser.parse_args(argv)

    from course_utils import runtime
    from course_utils.i18n import tr  # the language of the check that started this job (COURSE_LANG)

    runtime.setup(device="CPU", mode="graph", seed=0, verbose=False)
    import mindspore as ms
    from mindspore import nn
    from mindspore.communication import get_group_size, get_rank, init

    init()  # the scheduler process stays in here; workers continue
    rank, size = get_rank(), get_group_size()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)

    spec = importlib.util.spec_from_file_location("learner_step", args.module)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # the graph compiler looks the learner's functions up by module name
    spec.loader.exec_module(module)

    w0, b0, x, y = problem(size)
    net = nn.Dense(IN, OUT, weight_init=ms.Tensor(w0), bias_init=ms.Tensor(b0))
    optimizer = nn.SGD(net.trainable_params(), learning_rate=LR)
    step = module.make_dp_step(net, nn.MSELoss(), optimizer, size)
    if not callable(step):
        raise TypeError(tr("make_dp_step(...) returned {type}, not a function step(x, y)", type=type(step).__name__))
    shard = slice(rank * PER_RANK, (rank + 1) * PER_RANK)
    weights, losses = [], []
    for s in range(STEPS):
        loss = step(ms.Tensor(x[s, shard]), ms.Tensor(y[s, shard]))
        value = loss.asnumpy() if hasattr(loss, "asnumpy") else loss
        losses.append(float(np.asarray(value, dtype=np.float64).reshape(-1)[0]))
        weights.append(flat(net.weight.asnumpy(), net.bias.asnumpy()))
    args.out.mkdir(parents=True, exist_ok=True)
    np.savez(args.out / f"rank_{rank}.npz", weights=np.stack(weights), losses=np.array(losses))
    print(tr("rank {rank} of {size}: {steps} steps done", rank=rank, size=size, steps=STEPS), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
