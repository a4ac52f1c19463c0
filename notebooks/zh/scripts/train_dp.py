"""在 MNIST 上对 LeNet-5 做数据并行训练，每个 Worker 进程（rank）运行这个脚本的一份副本。

用 MindSpore 的启动器启动它，例如在本机上启动两个 CPU Worker 进程：

    msrun --worker_num=2 --local_worker_num=2 --master_addr=127.0.0.1 --master_port=8118 \
          --log_dir=runs/dp/logs --join=True scripts/train_dp.py --out runs/dp --steps 20

或者在 Python 中用 ``course_utils.distributed.launch`` 启动（第 09 课）。msrun 会启动一个 Scheduler 进程和各个
Worker 进程；每个 Worker 进程都运行这个文件。``init()`` 完成组网，此后每个 Worker 进程都知道自己的 rank 和 Worker 进程的总数。

每个 Worker 进程在每个全局批中属于自己的分片上训练同一个网络，最多采用三种写法，每种写法都从相同的初始权重
出发、在相同的批上训练：

* ``cell``       - ``nn.TrainOneStepCell``：在 DATA_PARALLEL 模式下，它会自己在各 Worker 进程之间对梯度求平均；
* ``functional`` - ``value_and_grad`` + 显式的 ``nn.DistributedGradReducer``（AllReduce）；
* ``no_reducer`` - 忘了加 reducer 的函数式训练步（要观察的错误）。

写入 ``<out>/rank_<r>/`` 的内容：每种写法一个检查点（``<style>.ckpt``，即真实任务中每个 rank 的检查点）、
初始权重（``init.ckpt``），以及 ``trace.npz``（这个 rank 训练过的批、它的损失、每一步之后展平的权重；
长时间的运行应当用 ``--no-trace`` 跳过它）。
``<out>/metrics_rank<r>.json`` 记录耗时：Worker 进程生命周期中每个阶段结束的时刻；使用 ``--bench-steps`` 时，
还有 ``--bench-styles`` 中各写法的每秒步数（默认是带与不带 AllReduce 的 ``cell`` 训练步）。
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

from course_utils.i18n import tr  # Worker 进程打印的内容使用课程的语言（COURSE_LANG）

#: 这个 Worker 进程生命周期中各时刻的挂钟时间，供 Notebook 中“时间花在哪里”使用。
TIMELINE = {"process_start": time.time()}

STYLES = ("cell", "functional", "no_reducer")
#: 只用于计时：在并行上下文之外构建的 cell 训练步（计算相同，没有 AllReduce）。
BENCH_ONLY = ("cell_local",)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, type=Path, help="运行文件夹（每个 rank 的结果写在它下面）")
    p.add_argument("--steps", type=int, default=20, help="每种写法的训练步数")
    p.add_argument("--batch-size", type=int, default=32, help="每个 Worker 进程每步的样本数")
    p.add_argument("--lr", type=float, default=0.05, help="SGD 的学习率")
    p.add_argument("--momentum", type=float, default=0.9, help="SGD 的动量")
    p.add_argument("--seed", type=int, default=42, help="每个 rank 上都相同：初始权重完全一致")
    p.add_argument("--styles", default="cell,functional,no_reducer",
                   help=f"逗号分隔，可选 {', '.join(STYLES)}；留空则只做基准测试")
    p.add_argument("--bench-steps", type=int, default=0,
                   help="训练之后，对 --bench-styles 中的每种写法计时：--bench-repeats 个计时段，每段这么多步")
    p.add_argument("--bench-repeats", type=int, default=5, help="每种写法的计时段数，交替进行（取中位数）")
    p.add_argument("--turns", type=Path, default=None,
                   help="与启动任务的进程轮流计时所用的目录：基准测试中，"
                        "Worker 进程还会暂停，让它为自己的训练步计时（go_<k>、done_<k>）")
    p.add_argument("--bench-styles", default="cell,cell_local",
                   help="要计时的写法（cell_local：不带通信的 cell 训练步）")
    p.add_argument("--no-trace", dest="trace", action="store_false",
                   help="不保存 trace.npz（每一个批，以及每一步之后的权重）：长时间运行时它会很大")
    p.add_argument("--device", default="CPU", help="CPU、GPU 或 Ascend")
    p.add_argument("--threads", type=int, default=0, help="每个 Worker 进程的 CPU 算子线程数（0：MindSpore 的默认值）")
    p.add_argument("--fail-rank", type=int, default=-1, help="让这个 rank 失败（故障演示）")
    p.add_argument("--fail-step", type=int, default=3, help="……在第一种写法的这一步失败")
    args = p.parse_args(argv)
    args.styles = [s for s in args.styles.split(",") if s]
    args.bench_styles = [s for s in args.bench_styles.split(",") if s]
    unknown = sorted((set(args.styles) - set(STYLES)) | (set(args.bench_styles) - set(STYLES + BENCH_ONLY)))
    if unknown:
        p.error(f"未知的写法 {unknown}：请从 {', '.join(STYLES)} 中选择")
    if args.steps < 1 or args.batch_size < 1 or args.bench_steps < 0 or args.bench_repeats < 1:
        p.error("--steps、--batch-size 和 --bench-repeats 必须 >= 1，--bench-steps 必须 >= 0")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if "MS_ROLE" not in os.environ:
        sys.exit(tr("train_dp.py is one worker of a distributed job: start it with msrun "
                    "(or course_utils.distributed.launch), which sets MS_ROLE, MS_SCHED_HOST/PORT and RANK_ID."))

    # 安静的日志和 CPU 优化设置必须在 MindSpore 加载之前就位。
    from course_utils import runtime
    runtime.setup(device=args.device, mode="graph", seed=args.seed, verbose=False, exact=True)

    import mindspore as ms
    from mindspore.communication import get_group_size, get_rank, init

    TIMELINE["mindspore_loaded"] = time.time()
    started = time.perf_counter()
    # 连接 Scheduler 和其他 Worker 进程，完成组网（CPU 上用 MCCL，昇腾上用 HCCL，GPU 上用 NCCL）。
    # 在 Scheduler 进程中，init() 运行 Scheduler，不会返回。
    init()
    rank, size = get_rank(), get_group_size()
    # 梯度由负责规约的一方在各 Worker 进程之间求平均（gradients_mean）：要么是 TrainOneStepCell
    # 自己，要么是我们加到函数式训练步中的 DistributedGradReducer。
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

    # 训练轨迹保存了每一个批和每一步之后的权重，供本课的检查使用：1000 步时每个 rank 就有几百 MB，
    # 所以真正的训练要传入 --no-trace。
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
                # 故障演示：这个 Worker 进程在训练中途退出，而其他 Worker 进程在下一次 AllReduce 中
                # 等待它。
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
    """这个 rank 的批（NumPy 数组，每步一个），以及它们需要把分片遍历几遍：
    （混洗后的）训练集的 ``size`` 个分片中的第 ``rank`` 个。

    每个 rank 都用相同的随机种子混洗，因此各分片互不重叠，合起来就是全局批。训练步数所需的批多于
    分片所含的批时，就再读一遍分片（``repeat``），每遍都重新混洗，各 rank 的混洗方式相同。先一次性
    读成数组，就能让每种写法都在完全相同的数据上训练。
    """
    from course_utils.data import mnist_dataset

    # 训练每一步用一个批；计时任务（--bench-steps）最多循环使用 20 个不同的批
    needed = max(args.steps, min(args.bench_steps, 20))
    # 使用分片时，subset 是每个分片的样本数：遍历一遍最多只含所需的批
    dataset = mnist_dataset("train", batch_size=args.batch_size, shuffle=True, num_shards=size,
                            shard_id=rank, seed=args.seed, subset=needed * args.batch_size)
    per_pass = dataset.get_dataset_size()   # 遍历分片一遍能凑满的批数
    if per_pass == 0:
        sys.exit(tr("--batch-size {batch} is larger than shard {rank} of {size}: it holds fewer samples than "
                    "one batch. Use a smaller --batch-size or fewer workers.", batch=args.batch_size, rank=rank,
                    size=size))
    passes = -(-needed // per_pass)
    stream = dataset.repeat(passes).create_tuple_iterator(num_epochs=1, output_numpy=True)
    return [(x, y) for x, y in itertools.islice(stream, needed)], passes


def build(style: str, args, size: int):
    """一个新的 LeNet-5（随机种子相同，因此在每个 rank 上、每种写法中初始权重都相同），
    以及它在 ``style`` 写法下的训练步。"""
    import mindspore as ms
    from mindspore import nn, ops

    from course_utils.models import LeNet5

    ms.set_seed(args.seed)
    net = LeNet5()
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(net.trainable_params(), learning_rate=args.lr, momentum=args.momentum)

    if style == "cell":
        # TrainOneStepCell 在构建时读取并行模式，并自己加上 AllReduce。
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
        step.set_train()
        return net, step
    if style == "cell_local":
        # 在并行上下文之外构建，因此没有 AllReduce：用来测量不带通信时一步的开销
        # （仅用于基准测试；各副本会逐渐偏离）。
        ms.reset_auto_parallel_context()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), optimizer)
        ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
        step.set_train()
        return net, step

    def forward(x, y):
        return loss_fn(net(x), y)

    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
    # 在各 Worker 进程之间对每个梯度求平均（每个梯度一次 AllReduce，合并成若干桶）。
    reducer = nn.DistributedGradReducer(optimizer.parameters, mean=True, degree=size)
    use_reducer = style == "functional"

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        if use_reducer:  # 一个 Python 常量：在训练步编译时就确定了
            grads = reducer(grads)
        return ops.depend(loss, optimizer(grads))

    return net, step


def bench(args, rank: int, size: int, batches: list, trained: dict) -> dict:
    """``args.bench_styles`` 中每种写法的每秒步数：先预热（编译不算一步），再运行 ``args.bench_repeats``
    个计时段，每段 ``args.bench_steps`` 步，各写法交替进行，取中位数（course_utils.bench）。

    每个 rank 都执行相同的调用序列，因此 ``cell`` 训练步的 AllReduce 能一一配对。
    每个计时段开始前先过一道屏障（不计时），让所有 rank 同时开始：否则先跑完 ``cell_local``
    计时段的 rank 会把等待其他 rank 的时间算作 AllReduce 的耗时。
    指定 ``--turns`` 时，交替序列中还多出一种“写法”：所有 rank 暂停，让启动任务的进程为单进程基准计时，
    这样两边经历的是同样的负载（``course_utils.bench.worker_pause`` 和 ``time_alongside``）。
    """
    import mindspore as ms
    from mindspore import ops

    from course_utils.bench import Config, compare, cycle, kernel_threads, worker_pause

    # 屏障：对一个数做一次 AllReduce 并读回结果；在每个 rank 都发出自己的数之前，没有哪个 rank 能拿到结果。
    # （mindspore.ops.communication.barrier() 也能用，但在 CPU 上它的流同步没有 CPU 实现，
    # 会打印一行 "[ERROR] CPU device is not supported"。）
    all_reduce, one = ops.AllReduce(), ms.Tensor(np.ones(1, np.float32))

    def barrier():
        all_reduce(one).asnumpy()

    data = [tuple(ms.Tensor(a) for a in b) for b in batches]
    configs = {}
    for style in args.bench_styles:
        # 上面训练过的训练步已经编译好了；它只是继续训练。
        _, step = trained[style] if style in trained else build(style, args, size)
        configs[style] = Config(step=cycle(step, data), before=barrier, batch_size=args.batch_size)
    if args.turns:
        # 所有 rank 暂停，让启动任务的进程为单进程基准计时。
        configs["pause"] = worker_pause(args.turns, rank, barrier)
    timings = compare(configs, steps=args.bench_steps, repeats=args.bench_repeats, warmup=2)
    timings.pop("pause", None)   # 暂停本身不算一步
    result = {name: t.as_dict() for name, t in timings.items()}
    for row in result.values():
        row["kernel_threads"] = kernel_threads()   # 统计本 Worker 进程中 MindSpore CPU 运行时的线程数
    return result


def flatten(weights: dict) -> np.ndarray:
    return np.concatenate([weights[k].ravel() for k in sorted(weights)]).astype(np.float32)


if __name__ == "__main__":
    sys.exit(main())
