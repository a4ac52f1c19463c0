"""Chinese messages (nb09): the exercises of lesson 09 (data parallel) and their worker (nb09_worker.py)."""

# The solution of 09.3 as solution() shows it (dedented, stripped); its Chinese entry is the same code with the
# comment in Chinese (below).
_Q3_SOLUTION = (
    "def make_dp_step(net, loss_fn, optimizer, group_size):\n"
    "    def forward(x, y):\n"
    "        return loss_fn(net(x), y)\n"
    "\n"
    "    grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)\n"
    "    reducer = nn.DistributedGradReducer(optimizer.parameters, mean=True, degree=group_size)\n"
    "\n"
    "    def step(x, y):\n"
    "        loss, grads = grad_fn(x, y)\n"
    "        grads = reducer(grads)            # all-reduce: every rank now holds the mean gradient\n"
    "        return ops.depend(loss, optimizer(grads))\n"
    "\n"
    "    return step"
)

MESSAGES = {
    # titles
    "which samples a rank reads": "rank 读取哪些样本",
    "the gradient of the global batch": "全局批的梯度",
    "a functional data-parallel step, on two workers": "在两个 Worker 进程上运行的函数式数据并行训练步",
    # hints
    "Shards are interleaved: shard r starts at sample r and takes every num_shards-th sample. Every shard gets the "
    "same number of samples, ceil(n_samples / num_shards); when the data runs out, MindSpore starts again at sample 0 "
    "(use % n_samples).":
        "各分片是交错的：分片 r 从第 r 个样本开始，每隔 num_shards 个样本取一个。每个分片得到的样本数相同，都是 "
        "ceil(n_samples / num_shards)；数据取完时，MindSpore 会从第 0 个样本重新开始（用 % n_samples）。",
    "Each rank's gradient is a mean over its own samples. The global batch's mean gradient weights each rank's "
    "gradient by its share of the samples: n_r / sum(n). With equal shards that is the plain average, which is what "
    "gradients_mean=True computes.":
        "每个 rank 的梯度是它自身样本上的平均值。全局批的平均梯度按各 rank 所占的样本比例 n_r / sum(n) 对其梯度"
        "加权。各分片大小相等时，这就是简单平均，也就是 gradients_mean=True 计算的结果。",
    "value_and_grad gives each rank the gradient of its own shard. Something must turn those into the same gradient "
    "on every rank before the optimizer runs: nn.DistributedGradReducer(parameters, mean=..., degree=...), called on "
    "the gradients.":
        "value_and_grad 给每个 rank 的是它自己分片上的梯度。在优化器运行之前，必须有一步把这些梯度变成每个 rank 上"
        "都相同的梯度：nn.DistributedGradReducer(parameters, mean=..., degree=...)，作用在梯度上。",
    _Q3_SOLUTION: _Q3_SOLUTION.replace("# all-reduce: every rank now holds the mean gradient",
                                       "# AllReduce：此后每个 rank 持有的都是平均梯度"),
    # 09.1 check
    "shard_indices({n}, {k}, {r}) returned {got}; return a list of sample indices (ints).":
        "shard_indices({n}, {k}, {r}) 返回了 {got}；应返回由样本索引（整数）组成的列表。",
    "with {n} samples and {k} shards": "在 {n} 个样本、{k} 个分片的情况下",
    "{case} the right samples come back in another order: expected {expected}, got {got}.":
        "{case}，样本是对的，但顺序不同：期望 {expected}，实际得到 {got}。",
    "{case} your shards have {sizes} samples, MindSpore's {expected_sizes}: expected {expected}, got {got}.":
        "{case}，你的各分片分别有 {sizes} 个样本，而 MindSpore 的是 {expected_sizes} 个：期望 {expected}，"
        "实际得到 {got}。",
    "{case} your shards are contiguous blocks: expected {expected}, got {got}.":
        "{case}，你的分片是连续的块：期望 {expected}，实际得到 {got}。",
    "{case} expected the shards {expected}, got {got}.":
        "{case}，期望的分片为 {expected}，实际得到 {got}。",
    # 09.2 check
    "global_gradient(...) returned {got}; return one array, the mean gradient of the global batch.":
        "global_gradient(...) 返回了 {got}；应返回一个数组，即全局批的平均梯度。",
    "for shards of sizes {sizes} expected one gradient of shape {expected}, got shape {got}.":
        "分片大小为 {sizes} 时，期望得到一个形状为 {expected} 的梯度，实际形状为 {got}。",
    "for shards of sizes {sizes} you returned the plain average of the ranks' gradients, {got}; the mean over all "
    "samples is {expected}.":
        "分片大小为 {sizes} 时，你返回的是各 rank 梯度的简单平均 {got}；而所有样本上的平均梯度是 {expected}。",
    "for shards of sizes {sizes} you returned the sum of the ranks' gradients, {got}; the mean over all samples is "
    "{expected}.":
        "分片大小为 {sizes} 时，你返回的是各 rank 梯度之和 {got}；而所有样本上的平均梯度是 {expected}。",
    "for shards of sizes {sizes} expected {expected}, got {got}.":
        "分片大小为 {sizes} 时，期望 {expected}，实际得到 {got}。",
    # 09.3 check
    "make_dp_step is {got}, not a function.": "make_dp_step 是 {got}，不是函数。",
    "the source of make_dp_step cannot be read: define it with def in a notebook cell or a file.":
        "无法读取 make_dp_step 的源代码：请在 Notebook 单元格或文件中用 def 定义它。",
    "running make_dp_step on {workers} msrun workers (this takes a few seconds)...":
        "正在用 msrun 启动 {workers} 个 Worker 进程，运行 make_dp_step（需要几秒钟）……",
    "on {workers} workers, make_dp_step did not run to the end ({kind}{rank}): {detail}":
        "在 {workers} 个 Worker 进程上，make_dp_step 没有运行完（{kind}{rank}）：{detail}",
    "after {steps} steps the weights are unchanged on every rank (expected them to move).":
        "{steps} 步之后，每个 rank 上的权重都没有变化（期望权重会更新）。",
    "after {steps} steps on different shards, rank 0 and rank 1 hold different weights (largest difference "
    "{drift:.3g}); expected identical replicas.":
        "在不同分片上训练 {steps} 步之后，rank 0 和 rank 1 的权重不同（最大绝对差 {drift:.3g}）；期望各副本完全相同。",
    "both ranks agree, but after {steps} steps their weights differ from one process trained on the combined "
    "batches by up to {gap:.3g}: first weights expected {expected}, got {got}.":
        "两个 rank 一致，但 {steps} 步之后，它们的权重与单进程在合并后的批上训练的结果相差最多 {gap:.3g}：前几个权重"
        "期望为 {expected}，实际得到 {got}。",
    # nb09_worker.py (runs in the msrun workers; COURSE_LANG carries the language there)
    "make_dp_step(...) returned {type}, not a function step(x, y)":
        "make_dp_step(...) 返回了 {type}，而不是函数 step(x, y)",
    "rank {rank} of {size}: {steps} steps done": "rank {rank}（共 {size} 个）：{steps} 步已完成",

    # notebooks/scripts/train_dp.py: what each msrun worker logs (the lesson shows the logs)
    "rank {rank} of {size}: connected in {seconds:.1f} s": "rank {rank}（共 {size} 个）：用 {seconds:.1f} 秒完成连接",
    "rank {rank}: {n} batches of {batch} from shard {rank} of {size}":
        "rank {rank}：来自分片 {rank}（共 {size} 个）的 {n} 个批，每批 {batch} 个样本",
    "rank {rank}: {style} {steps} steps, loss {first:.4f} -> {last:.4f}":
        "rank {rank}：{style} {steps} 步，损失 {first:.4f} -> {last:.4f}",
    "rank {rank}: {style} {rate:.1f} steps/s, {samples:.0f} samples/s on this worker":
        "rank {rank}：{style} 本 Worker 进程每秒 {rate:.1f} 步、{samples:.0f} 个样本",
    "rank {rank} failed on purpose at step {step} (--fail-rank)": "rank {rank} 按要求在第 {step} 步故意失败（--fail-rank）",
    "train_dp.py is one worker of a distributed job: start it with msrun (or course_utils.distributed.launch), which "
    "sets MS_ROLE, MS_SCHED_HOST/PORT and RANK_ID.":
        "train_dp.py 是分布式任务中的一个 Worker 进程：请用 msrun（或 course_utils.distributed.launch）启动它，"
        "它们会设置 MS_ROLE、MS_SCHED_HOST/PORT 和 RANK_ID。",
    # notebooks/scripts/dp_without_init.py
    "training step built": "训练步已构建",
    "first step done": "第一步已完成",
}
