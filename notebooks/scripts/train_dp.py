"""Data-parallel training of LeNet-5 on MNIST, one copy of this script per worker (rank).

Launch it with MindSpore's launcher, e.g. two CPU workers on this machine:

    msrun --worker_num=2 --local_worker_num=2 --master_addr=127.0.0.1 --master_port=8118 \
          --log_dir=runs/dp/logs --join=True scripts/train_dp.py --out runs/dp --steps 20

or from Python with ``course_utils.distributed.launch`` (notebook 09). msrun starts a scheduler
process and the workers; each runs this file. ``init()`` connects them, after which every worker
knows its rank and the number of workers.

Each worker trains the same network on its own shard of every global batch, in up to three styles,
each from the same initial weights on the same batches:

* ``cell``       - ``nn.TrainOneStepCell``: in DATA_PARALLEL mode it averages the gradients across
                   workers by itself;
* ``functional`` - ``value_and_grad`` + an explicit ``nn.DistributedGradReducer`` (all-reduce);
* ``no_reducer`` - the functional step with the reducer forgotten (the mistake to see).

Written to ``<out>/rank_<r>/``: a checkpoint per style (``<style>.ckpt``, the per-rank checkpoint
of a real job), the initial weights (``init.ckpt``), and ``trace.npz`` (the batches this rank
trained on, its losses, its flattened weights after every step; ``--no-trace`` skips it, as a long
run should). ``<out>/metrics_rank<r>.json``
has the timings: when each phase of the worker's life ended, and with ``--bench-steps`` the
steps/s of ``--bench-styles`` (by default the ``cell`` step with and without its all-reduce).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from course_utils.i18n import tr  # what a worker prints, in the course's language (COURSE_LANG)

#: Wall-clock moments of this worker's life, for the notebook's "where the time goes".
TIMELINE = {"process_start": time.time()}

STYLES = ("cell", "functional", "no_reducer")
#: Timed only: the cell step built outside the parallel context (same compute, no all-reduce).
BENCH_ONLY = ("cell_local",)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, type=Path, help="run folder (per-rank results go below it)")
    p.add_argument("--steps", type=int, default=20, help="training steps per style")
    p.add_argument("--batch-size", type=int, default=32, help="samples per worker per step")
    p.add_argument("--lr", type=float, default=0.05, help="SGD learning rate")
    p.add_argument("--momentum", type=float, default=0.9, help="SGD momentum")
    p.add_argument("--seed", type=int, default=42, help="same on every rank: identical initial weights")
    p.add_argument("--styles", default="cell,functional,no_reducer",
                   help=f"comma-separated, from {', '.join(STYLES)}; empty for a benchmark-only run")
    p.add_argument("--bench-steps", type=int, default=0,
                   help="afterwards, time each --bench-styles style: --bench-repeats blocks of this many steps")
    p.add_argument("--bench-repeats", type=int, default=5, help="timed blocks per style, alternated (medians)")
    p.add_argument("--turns", type=Path, default=None,
                   help="folder for taking turns with the process that started the job: in the benchmark, "
                        "the workers also pause while it times its own steps (go_<k>, done_<k>)")
    p.add_argument("--bench-styles", default="cell,cell_local",
                   help="styles to time (cell_local: the cell step without communication)")
    p.add_argument("--no-trace", dest="trace", action="store_false",
                   help="do not keep trace.npz (every batch, and the weights after every step): a long run's is large")
    p.add_argument("--device", default="CPU", help="CPU, GPU or Ascend")
    p.add_argument("--threads", type=int, default=0, help="CPU kernel threads per worker (0: MindSpore's default)")
    p.add_argument("--fail-rank", type=int, default=-1, help="make this rank fail (the failure demo)")
    p.add_argument("--fail-step", type=int, default=3, help="...at this step of the first style")
    args = p.parse_args(argv)
    args.styles = [s for s in args.styles.split(",") if s]
    args.bench_styles = [s for s in args.bench_styles.split(",") if s]
    unknown = sorted((set(args.styles) - set(STYLES)) | (set(args.bench_styles) - set(STYLES + BENCH_ONLY)))
    if unknown:
        p.error(f"unknown style(s) {unknown}: choose from {', '.join(STYLES)}")
    if args.steps < 1 or args.batch_size < 1 or args.bench_steps < 0 or args.bench_repeats < 1:
        p.error("--steps, --batch-size and --bench-repeats must be >= 1, --bench-steps >= 0")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if "MS_ROLE" not in os.environ:
        sys.exit(tr("train_dp.py is one worker of a distributed job: start it with msrun "
                    "(or course_utils.distributed.launch), which sets MS_ROLE, MS_SCHED_HOST/PORT and RANK_ID."))

    # Quiet logs and the CPU speed fixes must be in place before MindSpore loads.
    from course_utils import runtime
    runtime.setup(device=args.device, mode="graph", seed=args.seed, verbose=False, exact=True)

    import mindspore as ms
    from mindspore.communication import get_group_size, get_rank, init

    TIMELINE["mindspore_loaded"] = time.time()
    started = time.perf_counter()
    # Connect to the scheduler and the other workers (MCCL on CPU, HCCL on Ascend, NCCL on GPU).
    # In the scheduler process init() runs the scheduler and never returns.
    init()
    rank, size = get_rank(), get_group_size()
    # Gradients are averaged over workers (gradients_mean) by whoever reduces them: the
    # TrainOneStepCell by itself, or the DistributedGradReducer we add to the functional step.
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    if args.threads and args.device == "CPU":
        ms.device_context.cpu.op_tuning.threads_num(args.threads)
    init_seconds = time.perf_counter() - started
    TIMELINE["connected"] = time.time()
    print(tr("rank {rank} of {size}: connected in {seconds:.1f} s", rank=rank, size=size, seconds=init_seconds),
          flush=True)

    rank_dir = args.out / f"rank_{rank}"
    rank_dir.mkdir(parents=True, exist_ok=True)
    batches, passes = load_shard(args, rank, size)
    print(tr("rank {rank}: {n} batches of {batch} from shard {rank} of {size}", rank=rank, n=len(batches),
             batch=args.batch_size, size=size)
          + (tr(", {passes} passes over it (reshuffled on each)", passes=passes) if passes > 1 else ""), flush=True)
    TIMELINE["data_ready"] = time.time()

    from course_utils import checkpoint
    from course_utils.callbacks import snapshot_weights

    # The trace holds every batch and the weights after every step, for the lesson's checks: at 1000 steps
    # that is hundreds of MB per rank, so a real run passes --no-trace.
    trace = {"images": np.stack([b[0] for b in batches[:args.steps]]),
             "labels": np.stack([b[1] for b in batches[:args.steps]])} if args.trace else None
    metrics = {"rank": rank, "size": size, "batch_size": args.batch_size, "steps": args.steps,
               "init_seconds": init_seconds, "styles": {}}
    steps = {}
    for n, style in enumerate(args.styles):
        net, step = steps[style] = build(style, args, size)
        if n == 0:
            checkpoint.save(rank_dir / "init.ckpt", net)
        weights = [flatten(snapshot_weights(net))] if args.trace else None
        losses = []
        t0 = time.perf_counter()
        for i in range(args.steps):
            if rank == args.fail_rank and n == 0 and i == args.fail_step:
                # The failure demo: this worker dies mid-training while the others wait for it
                # in the next all-reduce.
                raise RuntimeError(tr("rank {rank} failed on purpose at step {step} (--fail-rank)", rank=rank, step=i))
            x, y = (ms.Tensor(a) for a in batches[i])
            losses.append(float(step(x, y).asnumpy()))
            if args.trace:
                weights.append(flatten(snapshot_weights(net)))
        seconds = time.perf_counter() - t0
        checkpoint.save(rank_dir / f"{style}.ckpt", net)
        if args.trace:
            trace[f"loss_{style}"] = np.array(losses, dtype=np.float32)
            trace[f"weights_{style}"] = np.stack(weights)
        metrics["styles"][style] = {"seconds_incl_compile": seconds, "final_loss": losses[-1]}
        print(tr("rank {rank}: {style} {steps} steps, loss {first:.4f} -> {last:.4f}", rank=rank, style=f"{style:<10}",
                 steps=args.steps, first=losses[0], last=losses[-1]), flush=True)
    if args.trace:
        np.savez(rank_dir / "trace.npz", **trace)
    TIMELINE["trained"] = time.time()

    if args.bench_steps:
        metrics["bench"] = bench(args, rank, size, batches, steps)
        for style, b in metrics["bench"].items():
            print(tr("rank {rank}: {style} {rate:.1f} steps/s, {samples:.0f} samples/s on this worker", rank=rank,
                     style=f"{style:<10}", rate=b["steps_per_s"], samples=b["samples_per_s"]), flush=True)
    TIMELINE["done"] = time.time()
    metrics["timeline"] = TIMELINE
    (args.out / f"metrics_rank{rank}.json").write_text(json.dumps(metrics, indent=1))
    return 0


def load_shard(args, rank: int, size: int) -> tuple:
    """This rank's batches as NumPy arrays, one per step, and how many passes over its shard they take:
    shard ``rank`` of ``size`` of the (shuffled) training set.

    Every rank shuffles with the same seed, so the shards are disjoint and together form the global
    batches. When the steps need more batches than the shard holds, it is read again (``repeat``),
    reshuffled on every pass, the same way on every rank. Materialising the batches once lets every
    style train on exactly the same data.
    """
    from course_utils.data import mnist_dataset

    # one batch per training step; the timing job (--bench-steps) cycles through at most 20 distinct batches
    needed = max(args.steps, min(args.bench_steps, 20))
    # with shards, subset is each shard's number of samples: one pass holds at most the batches needed
    dataset = mnist_dataset("train", batch_size=args.batch_size, shuffle=True, num_shards=size,
                            shard_id=rank, seed=args.seed, subset=needed * args.batch_size)
    per_pass = dataset.get_dataset_size()   # whole batches in one pass over the shard
    if per_pass == 0:
        sys.exit(tr("--batch-size {batch} is larger than shard {rank} of {size}: it holds fewer samples than "
                    "one batch. Use a smaller --batch-size or fewer workers.", batch=args.batch_size, rank=rank,
                    size=size))
    passes = -(-needed // per_pass)
    stream = dataset.repeat(passes).create_tuple_iterator(num_epochs=1, output_numpy=True)
    return [(x, y) for x, y in itertools.islice(stream, needed)], passes


def build(style: str, args, size: int):
    """A fresh LeNet-5 (same seed, so the same initial weights on every rank and in every style)
    and its training step for ``style``."""
    import mindspore as ms
    from mindspore import nn, ops

    from course_utils.models import LeNet5

    ms.set_seed(args.seed)
    net = LeNet5()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=args.lr, momentum=args.momentum)

    if style == "cell":
        # TrainOneStepCell reads the parallel mode when it is built and adds the all-reduce itself.
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
        step.set_train()
        return net, step
    if style == "cell_local":
        # Built outside the parallel context, so it has no all-reduce: what a step costs here
        # without communication (for the benchmark only; these replicas would drift apart).
        ms.reset_auto_parallel_context()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        step.set_train()
        return net, step

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
    # Averages each gradient over the workers (an all-reduce per gradient, fused into buckets).
    reducer = nn.DistributedGradReducer(optimizer.parameters, mean=True, degree=size)
    use_reducer = style == "functional"

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        if use_reducer:  # a Python constant: decided once, when the step compiles
            grads = reducer(grads)
        return ops.depend(loss, optimizer(grads))

    return net, step


def bench(args, rank: int, size: int, batches: list, trained: dict) -> dict:
    """Steps/s of each of ``args.bench_styles``: warm-up first (the compile is not a step), then
    ``args.bench_repeats`` blocks of ``args.bench_steps`` steps, alternating the styles, medians
    (course_utils.bench).

    Every rank runs the same sequence of calls, so the all-reduces of the ``cell`` step pair up.
    A barrier (untimed) starts every timed block on all ranks together: otherwise a rank that
    finished its ``cell_local`` block early would count its wait for the others as all-reduce time.
    With ``--turns``, one more "style" takes its place in the alternation: all ranks pause while the
    process that started the job times its one-process baseline, so both sides see the same load
    (``course_utils.bench.worker_pause`` and ``time_alongside``).
    """
    import mindspore as ms
    from mindspore import ops

    from course_utils.bench import Config, compare, cycle, kernel_threads, worker_pause

    # The barrier: an all-reduce of one number, read back; no rank has its result before every rank
    # sent its own. (mindspore.ops.communication.barrier() works too, but on CPU it logs
    # "[ERROR] CPU device is not supported" from its stream synchronisation, which has no CPU version.)
    all_reduce, one = ops.AllReduce(), ms.Tensor(np.ones(1, np.float32))

    def barrier():
        all_reduce(one).asnumpy()

    data = [tuple(ms.Tensor(a) for a in b) for b in batches]
    configs = {}
    for style in args.bench_styles:
        # A step trained above is already compiled; it simply goes on training.
        _, step = trained[style] if style in trained else build(style, args, size)
        configs[style] = Config(step=cycle(step, data), before=barrier, batch_size=args.batch_size)
    if args.turns:
        # All ranks pause while the process that started the job times its one-process baseline.
        configs["pause"] = worker_pause(args.turns, rank, barrier)
    timings = compare(configs, steps=args.bench_steps, repeats=args.bench_repeats, warmup=2)
    timings.pop("pause", None)   # the pause itself is not a step
    result = {name: t.as_dict() for name, t in timings.items()}
    for row in result.values():
        row["kernel_threads"] = kernel_threads()   # MindSpore's CPU runtime threads in this worker, counted
    return result


def flatten(weights: dict) -> np.ndarray:
    return np.concatenate([weights[k].ravel() for k in sorted(weights)]).astype(np.float32)


if __name__ == "__main__":
    sys.exit(main())
