"""Chinese messages (nb09): the exercises of lesson 09 (data parallel) and what its scripts print."""

# The solution of 09.3 as solution() shows it (dedented, stripped); its Chinese entry is the same code with the
# comments in Chinese (below).
_Q3_SOLUTION = (
    "def replicas_agree(weights_by_rank):\n"
    "    first = weights_by_rank[0]\n"
    "    return [all(np.array_equal(w[s], first[s]) for w in weights_by_rank[1:]) for s in range(len(first))]\n"
    "\n"
    "\n"
    "for name, ranks in JOBS.items():\n"
    "    print(name, replicas_agree(ranks))\n"
    "# job A: apart already at the start (different initial weights); job B: equal throughout;\n"
    "# job C: equal at the start, apart from the first update on: no reducer.\n"
    'WITHOUT_REDUCER = "job C"'
)

MESSAGES = {
    # titles
    "which samples a rank reads": "rank 读取哪些样本",
    "the gradient of the global batch": "全局批的梯度",
    "which job forgot the reducer": "哪个任务漏掉了梯度聚合",
    # hints
    "Shards are interleaved: shard r starts at sample r and takes every num_shards-th sample. Every shard gets the "
    "same number of samples, ceil(n_samples / num_shards); when the data runs out, MindSpore starts again at sample 0 "
    "(use % n_samples). Why it wraps around: a rank with one batch fewer would finish its epoch early, while the "
    "others would hang in their next all-reduce, waiting for it.":
        "各分片是交错的：分片 r 从第 r 个样本开始，每隔 num_shards 个样本取一个。每个分片得到的样本数相同，都是 "
        "ceil(n_samples / num_shards)；数据取完时，MindSpore 会从第 0 个样本重新开始（用 % n_samples）。为什么要绕回开头："
        "少一个批的 rank 会提前结束这个轮次，其余 rank 则会卡在下一次 AllReduce 里一直等它。",
    "Each rank's gradient is a mean over its own samples. The global batch's mean gradient weights each rank's "
    "gradient by its share of the samples: n_r / sum(n). With equal shards that is the plain average, which is what "
    "gradients_mean=True computes.":
        "每个 rank 的梯度是它自身样本上的平均值。全局批的平均梯度按各 rank 所占的样本比例 n_r / sum(n) 对其梯度"
        "加权。各分片大小相等时，这就是简单平均，也就是 gradients_mean=True 计算的结果。",
    "Compare every rank with rank 0, step by step, with np.array_equal: the replicas of a correct job are the same "
    "bits, so a tolerance (np.allclose) would hide the very drift you are looking for. Then print replicas_agree for "
    "each job. A forgotten reducer cannot show before the first gradient is applied; a difference that is there "
    "before any step has another cause.":
        "逐步把每个 rank 与 rank 0 比较，用 np.array_equal：正确任务的各副本逐位相同，用容差比较（np.allclose）反而"
        "会掩盖你要找的偏离。然后对每个任务打印 replicas_agree 的结果。漏掉梯度聚合的后果，在第一次应用梯度之前不可"
        "能显现；训练开始前就已存在的差异，另有原因。",
    _Q3_SOLUTION: _Q3_SOLUTION.replace(
        "# job A: apart already at the start (different initial weights); job B: equal throughout;\n"
        "# job C: equal at the start, apart from the first update on: no reducer.",
        "# job A：一开始就不同（初始权重不同）；job B：始终一致；\n"
        "# job C：开始时一致，从第一次更新起分开：没有梯度聚合。"),
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
    "for {job}": "对于 {job}",
    "for two ranks one bit apart in one weight at step 2": "对于在第 2 步有一个权重相差一个比特的两个 rank",
    "for three ranks where only rank 2 differs (from step 4 on)": "对于只有 rank 2 不同（从第 4 步起）的三个 rank",
    "replicas_agree(...) returned {got}; return one True/False per step (the start included).":
        "replicas_agree(...) 返回了 {got}；应为每一步返回一个 True/False（包括开始时）。",
    "{case}: replicas_agree returned {n} values, expected one per step, the start included: {expected}.":
        "{case}：replicas_agree 返回了 {n} 个值，期望每步一个（包括开始时），共 {expected} 个。",
    "{case}: expected {expected}, got {got}.": "{case}：期望 {expected}，实际得到 {got}。",
    "WITHOUT_REDUCER is {got}; name one of the jobs: {names}.":
        "WITHOUT_REDUCER 是 {got}；请填写其中一个任务的名称：{names}。",
    "the replicas of {job} agree at every step, bit for bit: it has its reducer.":
        "{job} 的各副本每一步都逐位相同：它有梯度聚合。",
    "the replicas of {job} differ already at the start, before any gradient was exchanged, and never come "
    "together: look at which job starts equal.":
        "{job} 的各副本在开始时、尚未交换任何梯度之前就已不同，之后也从未一致：看看哪个任务开始时是一致的。",

    # course_utils/bench/data_parallel.py: section 5's table and verdicts
    "setup": "配置",
    "threads": "线程",
    "ms/step": "毫秒/步",
    "1 process, batch {b}": "单进程，批大小 {b}",
    "1 process, batch {b}, 1 CPU (same training)": "单进程，批大小 {b}，1 个 CPU（同一次训练）",
    "1 process, batch {b} (same training)": "单进程，批大小 {b}（同一次训练）",
    "{n} workers × {b}, no all-reduce": "{n} 个 Worker 进程 × {b}，不做 AllReduce",
    "{n} workers × {b}, data parallel": "{n} 个 Worker 进程 × {b}，数据并行",
    "x{med:.2f}, faster (95% interval {lo:.2f}-{hi:.2f})": "{med:.2f} 倍，更快（95% 区间 {lo:.2f}～{hi:.2f}）",
    "x{med:.2f}, slower (95% interval {lo:.2f}-{hi:.2f})": "{med:.2f} 倍，更慢（95% 区间 {lo:.2f}～{hi:.2f}）",
    "x{med:.2f}, a tie (95% interval {lo:.2f}-{hi:.2f})": "{med:.2f} 倍，持平（95% 区间 {lo:.2f}～{hi:.2f}）",
    "x{med:.2f}, inconclusive in this run ({rounds} rounds; 95% interval {lo:.2f}-{hi:.2f})":
        "{med:.2f} 倍，本次运行无法判断（{rounds} 个计时轮；95% 区间 {lo:.2f}～{hi:.2f}）",
    "the same": "相同",
    "different": "不同",
    "threads: processes × MindSpore runtime threads in each ({kernel} in this kernel, {worker} in each worker: "
    "{same})":
        "线程一列为“进程数 × 每个进程中 MindSpore 运行时的线程数”（本内核 {kernel} 个，每个 Worker 进程 {worker} 个：{same}）",
    "Each ratio below is the median of the per-round ratios ({rounds} rounds), with its 95% interval: an interval "
    "above 1 is faster, below 1 slower; one that holds 1 is a tie when it stays within {tie_lo:.2f}-{tie_hi:.2f}, "
    "and inconclusive when it is wider.":
        "下面每个倍数都是各计时轮比值的中位数（共 {rounds} 个计时轮），括号里是它的 95% 区间：区间整体大于 1 判为更快，整体小于 1 "
        "判为更慢；包含 1 时，若区间落在 {tie_lo:.2f}～{tie_hi:.2f} 之内判为持平，更宽则判为无法判断。",
    "{workers} workers in samples/s, against one process doing the same training: with MindSpore's defaults "
    "{dp_global}; pinned to 1 CPU {dp_1cpu}.":
        "{workers} 个 Worker 进程与做同一次训练的单进程相比，每秒样本数：对比使用 MindSpore 默认设置的单进程为 "
        "{dp_global}；对比绑定到 1 个 CPU 的单进程为 {dp_1cpu}。",
    "One process on all {cpus} CPUs against pinned to 1 CPU: {setups_said}; {note}":
        "单进程使用全部 {cpus} 个 CPU 与绑定到 1 个 CPU 相比：{setups_said}；{note}",
    "the second CPU made it faster.": "第二个 CPU 让它变快了。",
    "it ran faster pinned to 1 CPU: here the second CPU cost more than it gave, which depends on the machine "
    "(threads that move between CPUs can lose their caches, and helper threads that spin while they wait take CPU "
    "time).":
        "绑定到 1 个 CPU 时反而更快：在这里，第二个 CPU 带来的开销超过了收益，这取决于机器（线程在 CPU 之间迁移可能"
        "丢掉缓存，忙等的辅助线程也会占用 CPU 时间）。",
    "the second CPU made no measurable difference.": "第二个 CPU 没有带来可测出的差别。",
    "so whether the second CPU helps one process stays open.": "因此第二个 CPU 对单进程是否有帮助，仍无定论。",
    "Did the second worker put the idle CPU to work? Without the all-reduce, against one process pinned to 1 CPU: "
    "{vs_1cpu}; against one process with MindSpore's defaults, which may use both CPUs: {vs_global}.":
        "第二个 Worker 进程有没有让闲置的 CPU 干起活来？不做 AllReduce 时，对比绑定到 1 个 CPU 的单进程：{vs_1cpu}；"
        "对比使用 MindSpore 默认设置、可能用上两个 CPU 的单进程：{vs_global}。",
    "yes, {said}": "有，{said}",
    "no, {said}": "没有，{said}",
    "not measurably, {said}": "没有可测出的收益，{said}",
    "On this {cpus}-CPU machine data parallel was faster than one process doing the same training, in both "
    "comparisons (x{a:.2f} against MindSpore's defaults, x{b:.2f} pinned to 1 CPU)":
        "在这台 {cpus} 个 CPU 的机器上，数据并行在两种比较中都比做同一次训练的单进程更快（对比 MindSpore 默认设置为 "
        "{a:.2f} 倍，对比绑定到 1 个 CPU 为 {b:.2f} 倍）",
    "On this {cpus}-CPU machine data parallel was slower than one process doing the same training, in both "
    "comparisons (x{a:.2f} against MindSpore's defaults, x{b:.2f} pinned to 1 CPU)":
        "在这台 {cpus} 个 CPU 的机器上，数据并行在两种比较中都比做同一次训练的单进程更慢（对比 MindSpore 默认设置为 "
        "{a:.2f} 倍，对比绑定到 1 个 CPU 为 {b:.2f} 倍）",
    "On this {cpus}-CPU machine data parallel against one process doing the same training: {a} with MindSpore's "
    "defaults, {b} pinned to 1 CPU":
        "在这台 {cpus} 个 CPU 的机器上，数据并行与做同一次训练的单进程相比：对比 MindSpore 默认设置为 {a}，对比绑定到 "
        "1 个 CPU 为 {b}",
    "{head}; the all-reduce took {share:.0f}% of each data-parallel step.":
        "{head}；AllReduce 占每个数据并行训练步的 {share:.0f}%。",
    "The all-reduce took {share:.0f}% of each data-parallel step (95% interval {lo:.0f}-{hi:.0f}%; {ms:.1f} ms, per "
    "worker {by_rank} ms), for a gradient of {n:,} float32 numbers ({kib:.0f} KiB).":
        "AllReduce 占每个数据并行训练步的 {share:.0f}%（95% 区间 {lo:.0f}%～{hi:.0f}%；{ms:.1f} 毫秒，各 Worker 进程"
        "分别为 {by_rank} 毫秒），梯度共 {n:,} 个 float32 数（{kib:.0f} KiB）。",

    # notebooks/scripts/train_dp.py: what each msrun worker logs (the lesson shows the logs)
    "rank {rank} of {size}: connected in {seconds:.1f} s": "rank {rank}（共 {size} 个）：用 {seconds:.1f} 秒完成连接",
    "rank {rank}: {n} batches of {batch} from shard {rank} of {size}":
        "rank {rank}：来自分片 {rank}（共 {size} 个）的 {n} 个批，每批 {batch} 个样本",
    ", {passes} passes over it (reshuffled on each)": "，共遍历该分片 {passes} 遍（每遍重新混洗）",
    "--batch-size {batch} is larger than shard {rank} of {size}: it holds fewer samples than one batch. Use a "
    "smaller --batch-size or fewer workers.":
        "--batch-size {batch} 超过了分片 {rank}（共 {size} 个）的样本数：它连一个批都凑不满。请减小 --batch-size，"
        "或减少 Worker 进程数。",
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
