"""Chinese messages of notebook 07: its exercises (``course_utils/exercises/nb07.py``) and the performance
lab's conclusions (``course_utils.bench``: ``report.py`` and the experiments' ``summarise`` functions).

Keys are the English templates exactly as written at the ``tr()`` / ``N_()`` call sites. In the lab's
sentences, ``common.compared`` gives "1.8 倍（更快）": the Chinese templates say "X 的速度是 Y 的 {compared}".
"""

MESSAGES = {
    # ---- the lab's verdict tables and found lines (course_utils/bench/experiments/modes.py)
    'apart: the rows below widened by its gap':
        '不含 1.00：下面各行已按两份副本的差距放宽',
    # a control that holds 1.00 with its copies more than 10% apart (common.CONTROL_LIMIT, control_reading)
    '1.00 inside, but the copies came up to {pct:.0f}% apart: only a row beyond that gap is read':
        '包含 1.00，但两份副本相差可达 {pct:.0f}%：只有超出这一差距的行才判定快慢',
    'faster than':
        '更快',
    'slower than':
        '更慢',
    'not separated from':
        '没有测出快慢差别',
    "within the copies' gap of":
        '的快慢差别在两份副本的差距之内',
    'This run found: {items}.':
        '本次运行的结论：{items}。',
    'control: {label}, A′ / A':
        '对照：{label}，A′ / A',
    'GRAPH_MODE / PyNative, TrainOneStepCell':
        'TrainOneStepCell，静态图模式 / 动态图模式',
    '@jit O0 / no jit, functional step':
        '函数式训练步，@jit O0 / 不加 jit',
    'O1 / O0, @jit functional step':
        '@jit 函数式训练步，O1 / O0',
    'TrainOneStepCell (GRAPH_MODE) / @jit O0':
        'TrainOneStepCell（静态图模式）/ @jit O0',
    'jit(TrainOneStepCell) / @jit, both O1':
        'jit(TrainOneStepCell) / @jit，均为 O1',
    'GRAPH_MODE {side} PyNative':
        '与动态图模式相比，静态图模式{side}',
    '@jit {side} no jit':
        '与不加 jit 相比，加 @jit {side}',
    'O1 {side} O0':
        '与 O0 相比，O1 {side}',
    'TrainOneStepCell {side} @jit':
        '与 @jit（O0）相比，静态图模式下的 TrainOneStepCell {side}',
    'jit(TrainOneStepCell) {side} @jit':
        '与 @jit 相比（均为 O1），jit(TrainOneStepCell) {side}',
    'TrainOneStepCell (GRAPH_MODE) / jit(TrainOneStepCell) O0':
        'TrainOneStepCell（静态图模式）/ jit(TrainOneStepCell) O0',
    'TrainOneStepCell {side} jit(TrainOneStepCell)':
        '与 jit(TrainOneStepCell)（O0）相比，静态图模式下的 TrainOneStepCell {side}',
    # the summary's advice (modes.loop_advice)
    "What this run's verdicts say for your loop, among the compiled forms:":
        '本次运行的结论对你的训练循环意味着什么（在几种编译方式之间选择）：',
    'host blocking on':
        '开启阻塞执行',
    "host blocking off (MindSpore's default)":
        '不开启阻塞执行（MindSpore 的默认设置）',
    'prefer a GRAPH_MODE Cell such as TrainOneStepCell':
        '优先用静态图模式下的 Cell，如 TrainOneStepCell',
    'prefer a Cell (GRAPH_MODE, or jit on the Cell) to a @jit function':
        '优先用 Cell（静态图模式，或对 Cell 使用 jit），而不是 @jit 函数',
    'prefer a GRAPH_MODE Cell such as TrainOneStepCell to a @jit function':
        '优先用静态图模式下的 Cell（如 TrainOneStepCell），而不是 @jit 函数',
    'prefer a jit form to a GRAPH_MODE Cell':
        '优先用 jit 的写法，而不是静态图模式下的 Cell',
    'any form that compiles the whole step':
        '任何一种把整个训练步编译起来的写法都可以',
    'undecided in this run':
        '本次运行无法判定',
    'undecided in this run: its runs point different ways':
        '本次运行无法判定：几次运行的结论不一致',
    '{where}: {body}':
        '{where}：{body}',
    '{title}: not measured in this run.':
        '{title}：本次运行没有测量。',
    '{title}: {advice}.':
        '{title}：{advice}。',
    'on':
        '开启',
    'off, {where}':
        '不开启，{where}',
    # part 4's rounds and copies (modes.slow_rounds, modes.copies_medians) and its headline (modes._paired_sweep)
    "Rounds: {slow} of {n} ran more than {pct:.0f}% below the sizes' medians (the slowest, round {i}, at "
    "{share:.0f}%); in {some} more, only some sizes did.":
        '各轮：{n} 轮里有 {slow} 轮比各批大小的中位数慢 {pct:.0f}% 以上（最慢的是第 {i} 轮，为中位数的 {share:.0f}%）；'
        '另有 {some} 轮只有部分批大小慢了这么多。',
    "A slowdown that lasts a whole round slows every size in it and cancels in that round's paired ratios; one that "
    "hits only some sizes of a round does not, and widens their intervals.":
        '持续整轮的变慢会拖慢这一轮里的每个批大小，在这一轮的配对比值里相互抵消；只落在一轮中部分批大小上的变慢则'
        '抵消不了，会让它们的区间变宽。',
    "The two copies of batch {n} have medians of {a:,.0f} and {b:,.0f} samples/s ({ratio:.2f}x), but round by round "
    "they read {lo:.2f}-{hi:.2f}: the machine's speed changed between rounds, so this run's medians are not usable; "
    "its paired ratios are.":
        '批大小 {n} 的两份副本，中位数分别是 {a:,.0f} 和 {b:,.0f} 样本/秒（{ratio:.2f} 倍），逐轮配对却是 '
        '{lo:.2f}～{hi:.2f}：机器的速度在轮与轮之间变了，所以本次运行的中位数不可用，可用的是逐轮配对的比值。',
    "Batch {top}, the reference, ranks first: no other size's paired ratio to it is above 1.00.":
        '排在第一的是基准批大小 {top}：其他批大小与它逐轮配对的比值都不高于 1.00。',
    'Batch {top} ranks first by the paired ratios: {med:.2f}x batch {ref} ({lo:.2f}-{hi:.2f}); the verdict table '
    'below says which sizes it is separated from.':
        '按逐轮配对比值的中位数，批大小 {top} 最高：为批大小 {ref} 的 {med:.2f} 倍（{lo:.2f}～{hi:.2f}）；'
        '它与哪些批大小分出了快慢，见下面的结论表。',
    'In the middle half of its rounds it ran {q1:,.0f}-{q3:,.0f} samples/s, for scale only: the training steps of one '
    'MNIST epoch in {fast:.1f}-{slow:.1f} s (in-memory batches, no data pipeline).':
        '在它中间一半的轮次里，速度为 {q1:,.0f}～{q3:,.0f} 样本/秒（仅供估计量级）：MNIST 一个 epoch 的训练步耗时 '
        '{fast:.1f}～{slow:.1f} 秒（批数据在内存中，不含数据处理流水线）。',
    '{q1:,.0f}-{q3:,.0f}': '{q1:,.0f}～{q3:,.0f}',
    'control: functional step, A′ / A':
        '对照：函数式训练步，A′ / A',
    'TrainOneStepCell / functional step, no @jit (GRAPH_MODE)':
        'TrainOneStepCell / 函数式训练步，不加 @jit（静态图模式）',
    'TrainOneStepCell / @jit functional step':
        'TrainOneStepCell / @jit 函数式训练步',
    'control, pipeline: functional loop, A′ / A':
        '对照，流水线供数：函数式训练循环，A′ / A',
    'pipeline: TrainOneStepCell / functional loop':
        '流水线供数：TrainOneStepCell / 函数式训练循环',
    'pipeline: Model.train / functional loop':
        '流水线供数：Model.train / 函数式训练循环',
    "The article's {claim:.2f}x: in memory, {mem}; fed by the pipeline, {fed}.":
        '文章所说的 {claim:.2f} 倍：内存中的批，{mem}；由数据处理流水线供数，{fed}。',
    'ruled out (above the interval)':
        '已排除（高于区间）',
    "at the interval's edge":
        '在区间边缘',
    'not decided (the copies came up to {pct:.0f}% apart)':
        '无法判定（两份副本相差多达 {pct:.0f}%）',
    "the article's {claim:.2f}x lies outside the interval, but the copies came up to {pct:.0f}% apart: not decided":
        '文章所说的 {claim:.2f} 倍在区间之外，但两份副本相差多达 {pct:.0f}%：无法判定',
    'not ruled out (inside)':
        '不能排除（在区间内）',
    'below the interval: even faster':
        '低于区间：实际更快',
    'TrainOneStepCell {side} the functional step without @jit':
        '与不加 @jit 的函数式训练步相比，TrainOneStepCell {side}',
    'TrainOneStepCell {side} the @jit functional step':
        '与 @jit 函数式训练步相比，TrainOneStepCell {side}',
    'control: batch {n}, A′ / A':
        '对照：批大小 {n}，A′ / A',
    '{part}: {title}':
        '{part}：{title}',
    '{title}: {note}':
        '{title}：{note}',
    ', widened':
        '；区间已按对照放宽',
    'control: forced every step, A′ / A':
        '对照：每步同步等待，A′ / A',
    'forced at the end of each repeat / every step':
        '只在每次重复结束时同步等待 / 每步同步等待',
    'not forced / forced every step':
        '不同步等待 / 每步同步等待',
    'batch {top} / batch {n}':
        '批大小 {top} / 批大小 {n}',
    # ---- pinning the lab lessons to one CPU (course_utils/bench/turns.py: pin_choice)
    'not pinned (PIN_CPU = False)':
        '不绑核（PIN_CPU = False）',
    'not pinned: the device is {device}, not the CPU':
        '不绑核：设备是 {device}，不是 CPU',
    'not pinned: this system cannot pin threads (Linux only)':
        '不绑核：本系统无法绑定线程（仅限 Linux）',
    'not pinned: this process may use one CPU only already':
        '不绑核：本进程本来就只能使用一个 CPU',
    'pinned to CPU {cpu} of {n} (PIN_CPU = True)':
        '已绑定到 {n} 个 CPU 中的 CPU {cpu}（PIN_CPU = True）',
    'not pinned: {env}=0 (lessons executed side by side)':
        '不绑核：{env}=0（多个课程同时执行）',
    'not pinned: a shared JupyterHub server, where every pinned kernel would share one CPU':
        '不绑核：这是共享的 JupyterHub 服务器，每个绑核的内核都会挤到同一个 CPU 上',
    'pinned to CPU {cpu} of {n} (PIN_CPU = "auto": CPU device, Linux, not a shared server)':
        '已绑定到 {n} 个 CPU 中的 CPU {cpu}（PIN_CPU = "auto"：CPU 设备、Linux、非共享服务器）',
    # ---- forced vs not forced, in words (course_utils/bench/experiments/common.py: forcing_conclusion)
    # ---- exercises (course_utils/exercises/nb07.py)
    'throughput, steps overlapping':
        '训练步相互重叠时的吞吐量',
    "The check calls throughput(step, 8, 3) on a fake asynchronous device: each call costs 4 ms on the host and "
    "queues 20 ms of work; reading a result waits for its work; the first call compiles for 0.4 s; one step of the "
    "second repeat takes 0.3 s longer. Part 1's loop, waiting after every step, gets 24 ms a step (about 42 "
    "steps/s); yours should get about 20 ms (about 49 steps/s), with a median that shrugs off the slow repeat. The "
    "check counts the calls and the reads. "
    'Call step() once and read its result before the clock starts (that call compiles). Then, for each repeat: read '
    'time.perf_counter(), run `steps` calls keeping only the last result, call .asnumpy() on that one (it waits for '
    'all the work queued before it), read the clock again. Return steps / statistics.median(repeat_times).':
        '检查会在一个模拟的异步设备上调用 throughput(step, 8, 3)：每次调用在 Host 侧耗时 4 毫秒，并下发 20 毫秒的计算；'
        '读取结果时要等它的计算完成；首次调用会“编译” 0.4 秒；第二次重复中有一步多耗时 0.3 秒。第 1 节的循环每步都等待，'
        '每步 24 毫秒（约 42 步/秒）；你的函数应测得每步约 20 毫秒（约 49 步/秒），并且中位数不受那次慢重复的影响。'
        '检查还会统计调用次数和读取次数。'
        '开始计时之前先调用一次 step() 并读取结果（这次调用会编译）。然后在每次重复中：读取 time.perf_counter()，'
        '调用 `steps` 次，只保留最后一个结果，对它调用 .asnumpy()（它会等待排在它前面的全部计算完成），'
        '再读取一次时钟。返回 steps / statistics.median(repeat_times)。',
    'throughput(...) returned {got!r}; return the steps per second as a number.':
        'throughput(...) 返回了 {got!r}；请以数值形式返回每秒步数。',
    'on a device that needs {work_ms:.0f} ms of work per step you measured {got:.0f} steps/s (at most '
    '{true_rate:.0f} is possible): the work was not waited for inside the timed region, so you timed how fast the '
    'host queues it (up to {host:.0f} steps/s here). Read the last result of each repeat with .asnumpy() before you '
    'stop the clock.':
        '设备上每步需要 {work_ms:.0f} 毫秒的计算，你却测得 {got:.0f} 步/秒（最多只可能是 {true_rate:.0f}）：'
        '计时区间内没有等待计算完成，测到的只是 Host 侧下发任务的速度（这里最多 {host:.0f} 步/秒）。'
        '请在停止计时之前，对每次重复的最后一个结果调用 .asnumpy()。',
    'you read {n} results with .asnumpy(), about one per step: that is part 1\'s measurement, forced every step, and '
    'it gives the latency ({latency:.0f} steps/s on this fake device) while the steps could overlap. Read only the '
    'last result of each repeat, inside the timed region.':
        '你用 .asnumpy() 读取了 {n} 个结果，差不多每步一个：这是第 1 节的测法，每步都同步等待，'
        '测到的是时延（在这个模拟设备上为 {latency:.0f} 步/秒），而训练步本可以相互重叠。'
        '请只在计时区间内读取每次重复的最后一个结果。',
    'recompilations from per-call times':
        '从每次调用的耗时找出重新编译',
    'Two yardsticks: the first call always compiles, so its time is what a compilation costs here; the median of all '
    'calls is the steady step. A compiling call has to stand out against both: far above the steady step, and '
    'comparable to the first call. The traces printed by nb07.q2.traces() bound k and f from both sides; '
    "part 5's real traces, checked against bench.compile_calls, narrow them further. Return the list of indices.":
        '用两把尺子衡量：首次调用总会编译，它的耗时就是这里一次编译的代价；所有调用耗时的中位数就是稳态单步耗时。'
        '发生编译的调用必须同时在两方面显得突出：远高于稳态单步耗时，并且与首次调用的耗时相当。nb07.q2.traces() '
        '打印的几条耗时记录从上下两侧限定了 k 和 f 的取值范围；第 5 节的真实耗时记录（与 bench.compile_calls 的结果比对）'
        '会把范围进一步缩小。返回这些调用的索引列表。',
    "# k = 5 with a 50 ms floor, f = 0.3: bench.compile_calls' rule":
        '# k = 5，另加 50 毫秒的下限，f = 0.3：即 bench.compile_calls 的规则',
    ("find_compiles fits the made-up traces, but on part 5's real per-call times ({label}) it finds {got} where "
     'bench.compile_calls (over 5x the median + 50 ms and over 0.3x the first call) finds {expected}: choose k and f '
     'that agree with both.'):
        'find_compiles 符合虚构的耗时记录，但在第 5 节实测的逐次耗时（{label}）上找到的是 {got}，而 bench.compile_calls'
        '（超过中位数的 5 倍再加 50 毫秒，并且超过首次调用的 0.3 倍）找到的是 {expected}：请选择与两者都一致的 k 和 f。',
    '{times} -> {expected}: {about}':
        '{times} -> {expected}：{about}',
    'find_compiles uses course_utils.bench.compile_calls (under any name), the lab\'s own detector: write the two '
    'yardsticks yourself.':
        'find_compiles 用到了 course_utils.bench.compile_calls（不论以什么名字导入），那是实验自带的检测函数：'
        '请自己写出这两把尺子。',
    'throughput uses course_utils.bench (time_steps or compare, under any name), which does the exercise for you: '
    'write the loop with time.perf_counter and statistics.median.':
        'throughput 用到了 course_utils.bench（time_steps 或 compare，不论以什么名字导入），它们替你完成了这道练习：'
        '请用 time.perf_counter 和 statistics.median 自己写出计时循环。',
    'faster_variant uses course_utils.bench (paired_ratio or interval_side, under any name): pair the rounds '
    'yourself, as check 2\'s paired_interval does.':
        'faster_variant 用到了 course_utils.bench（paired_ratio 或 interval_side，不论以什么名字导入）：'
        '请像检查 2 的 paired_interval 那样，自己逐轮配对。',
    'find_compiles should be a function of the per-call times, got {type}.':
        'find_compiles 应当是以每次调用耗时为参数的函数，得到的却是 {type}。',
    'find_compiles({times}) returned the number {got!r}; return the list of call indices that compiled (expected '
    '{expected}).':
        'find_compiles({times}) 返回了数值 {got!r}；请返回发生编译的调用索引列表（期望 {expected}）。',
    'find_compiles(...) returned {got!r}; return a list of call indices.':
        'find_compiles(...) 返回了 {got!r}；请返回调用索引的列表。',
    ' The first call (index 0) always compiles.':
        '首次调用（索引 0）总会编译。',
    ' A call a few times slower than the others is noise, not a compilation.':
        '比其他调用慢几倍的调用只是噪声，而不是编译。',
    'for per-call seconds {times} ({about}) expected {expected}, got {got}.{extra}':
        '每次调用耗时（秒）为 {times}（{about}）时，期望 {expected}，得到 {got}。{extra}',
    'one recompilation, the call at index 3':
        '重新编译了一次，即索引 3 的调用',
    'a busy machine: the calls at indices 2 and 4 are about 4x the median but nowhere near a compilation':
        '机器繁忙：索引 2 和 4 的调用约为中位数的 4 倍，但远不到一次编译的耗时',
    'a longer hiccup: the call at index 3 is over 7x the median, yet about a twentieth of the first call: noise, not '
    'a compilation':
        '一次较长的卡顿：索引 3 的调用超过中位数的 7 倍，却只有首次调用的二十分之一左右，因此是噪声，不是编译',
    'three new shapes first, then steady':
        '先是三种新形状，之后进入稳态',
    'only the first call compiled':
        '只有首次调用发生了编译',
    'a short first call: the call at index 2 is a noise spike, under 5x the median, yet above a third of the first':
        '首次调用很短：索引 2 的调用只是一次噪声尖峰，不到中位数的 5 倍，却超过了首次调用耗时的三分之一',
    'the faster variant, by the paired interval':
        '按配对区间判定哪个变体更快',
    "Repeat i of a and repeat i of b ran back to back (Timing.repeat_s: seconds per repeat), so a's rate over b's "
    "in round i is b.repeat_s[i] / a.repeat_s[i]. Check 2's paired_interval does the rest: resample the rounds, take "
    "the middle 95% of the resampled medians, round both ends to two decimals and read them: above 1.00, a.name; "
    "below 1.00, b.name; holding 1.00, None.":
        'a 的第 i 次重复与 b 的第 i 次重复紧挨着运行（Timing.repeat_s：每次重复的秒数），所以第 i 轮中 a 的速率与 '
        'b 的速率之比是 b.repeat_s[i] / a.repeat_s[i]。其余的交给检查 2 的 paired_interval：对各轮重抽样，'
        '每次重抽样求一个中位数，取这些中位数中间的 95%，把两端舍入到两位小数再读：高于 1.00 返回 a.name，'
        '低于 1.00 返回 b.name，包含 1.00 返回 None。',
    'faster_variant should be a function, got {type}.':
        'faster_variant 应当是一个函数，得到的却是 {type}。',
    '{what}: expected {expected!r}, got {got!r}.{why}':
        '{what}：期望 {expected!r}，得到 {got!r}。{why}',
    "a 5% faster in every round, while the load moves both by up to 30%: the medians' ranges overlap, the paired "
    "interval lies above 1.00":
        'a 每一轮都快 5%，而负载让两者的速度一起变化多达 30%：两者中位数的范围相互重叠，配对区间却高于 1.00',
    'b 6% faster in every round: the interval of a over b lies below 1.00':
        'b 每一轮都快 6%：a 与 b 之比的区间低于 1.00',
    'b 40% faster in some rounds and 30% slower in others: the medians lie apart, the interval holds 1.00: not '
    'separated':
        'b 有几轮快 40%，另几轮慢 30%：两者的中位数相差不小，区间却包含 1.00：分不出快慢',
    ("a 0.35% faster in every round: a real gap, but inside the lab's margin of equivalence: read as printed, with "
     'two decimals, the interval is 1.00-1.00, so it holds 1.00: not separated'):
        'a 每一轮都快 0.35%：差距确实存在，但落在本课的等效范围之内：按打印出来的两位小数读，区间是 1.00～1.00，'
        '包含 1.00：分不出快慢',
    'a at {ra} steps/s, b at {rb} steps/s, round by round ({about}): expected {expected!r}, got {got!r}.':
        '逐轮来看，a 为 {ra} 步/秒，b 为 {rb} 步/秒（{about}）：期望 {expected!r}，得到 {got!r}。',
    ('def faster_variant(a, b):\n'
     '    import numpy as np\n'
     '\n'
     "    ratios = np.array(b.repeat_s) / np.array(a.repeat_s)   # a's rate over b's, round by round\n"
     '    picks = np.random.default_rng(0).integers(0, len(ratios), size=(2000, len(ratios)))\n'
     '    lo, hi = np.percentile(np.median(ratios[picks], axis=1), [2.5, 97.5]).round(2)   # as printed\n'
     '    return a.name if lo > 1 else b.name if hi < 1 else None'):
        ('def faster_variant(a, b):\n'
         '    import numpy as np\n'
         '\n'
         '    ratios = np.array(b.repeat_s) / np.array(a.repeat_s)   # 逐轮计算 a 的速率与 b 的速率之比\n'
         '    picks = np.random.default_rng(0).integers(0, len(ratios), size=(2000, len(ratios)))\n'
         '    lo, hi = np.percentile(np.median(ratios[picks], axis=1), [2.5, 97.5]).round(2)   # 按打印出来的两位小数\n'
         '    return a.name if lo > 1 else b.name if hi < 1 else None'),
    # q1's solution with its comments in Chinese (keyed by the dedented English solution)
    ('def throughput(step, steps, repeats):\n'
     '    step().asnumpy()                      # warm-up: the first call compiles, not timed\n'
     '    times = []\n'
     '    for _ in range(repeats):\n'
     '        start = time.perf_counter()\n'
     '        for _ in range(steps):\n'
     '            result = step()               # queued: the next call does not wait for it\n'
     '        result.asnumpy()                  # inside the timed region: waits for all the work queued\n'
     '        times.append(time.perf_counter() - start)\n'
     '    return steps / statistics.median(times)'):
        ('def throughput(step, steps, repeats):\n'
         '    step().asnumpy()                      # 预热：首次调用会编译，不计时\n'
         '    times = []\n'
         '    for _ in range(repeats):\n'
         '        start = time.perf_counter()\n'
         '        for _ in range(steps):\n'
         '            result = step()               # 只下发任务：下一次调用不必等它完成\n'
         '        result.asnumpy()                  # 仍在计时区间内：等待已下发的全部计算完成\n'
         '        times.append(time.perf_counter() - start)\n'
         '    return steps / statistics.median(times)'),
    # ---- the performance lab's conclusions (course_utils/bench)
    '{seconds:.0f} s on 1 CPU, 1-min load average {before} before / {after} after':
        '用时 {seconds:.0f} 秒，1 个 CPU；1 分钟平均负载：测量前 {before}，测量后 {after}',
    '{seconds:.0f} s on {cpus} CPUs, 1-min load average {before} before / {after} after':
        '用时 {seconds:.0f} 秒，{cpus} 个 CPU；1 分钟平均负载：测量前 {before}，测量后 {after}',
    ', other processes used {cores:.2f} cores meanwhile':
        '；期间其他进程平均占用 {cores:.2f} 个 CPU',
    ', other processes used {cores:.2f} of that CPU meanwhile':
        '；期间其他进程平均占用了该 CPU 的 {cores:.0%}',
    'WARNING: the machine was busy ({facts}). Other processes competed for the CPU: these timings are single, '
    'unalternated calls, so their times are too high and noisy to compare; re-run on a quiet machine for the times.':
        '警告：机器繁忙（{facts}）。其他进程在争用 CPU：这些耗时来自单次、未交替的调用，偏高且噪声大，不能相互比较；'
        '要得到可引用的耗时，请在空闲（负载低）的机器上重新运行。',
    'conditions: {facts}':
        '测量条件：{facts}',
    'WARNING: the machine was busy ({facts}). Other processes competed for the cores: absolute rates are too low '
    'and noisy; only ratios between configurations measured in alternation in this run mean something. Re-run on a '
    'quiet machine for the figures.':
        '警告：机器繁忙（{facts}）。其他进程在争用 CPU 核：绝对速率偏低且噪声大，只有本次运行中交替测量的各配置之间'
        '的比值才有意义。要得到可引用的数值，请在空闲（负载低）的机器上重新运行。',
    '[{name}] skipped: {reason}':
        '[{name}] 已跳过：{reason}',
    '{shown} of {total} rows shown (largest {key} first); all of them in {path}':
        '共 {total} 行，此处显示 {shown} 行（按“{key}”列从大到小）；全部行见 {path}',
    'configuration':
        '配置',
    'first call s':
        '首次调用（秒）',
    'steps/s':
        '步/秒',
    'min-max':
        '最小～最大',
    '{lo:.1f}-{hi:.1f}':
        '{lo:.1f}～{hi:.1f}',
    'samples/s':
        '样本/秒',
    'x {baseline}':
        '相对 {baseline} 的倍数',
    '{shown} of {total} rows shown; all of them in {path}':
        '共 {total} 行，此处显示 {shown} 行；全部行见 {path}',
    '{name} is measured on {devices} only, not {device}':
        '{name} 只在 {devices} 上测量，不在 {device} 上测量',
    '{r:.2f}x, within the repeat-to-repeat spread of':
        '{r:.2f} 倍，两者各次重复的范围有重叠，无法确定存在差距',
    '{r:.1f}x, faster than':
        '{r:.1f} 倍（更快）',
    '{r:.2f}x, slower than':
        '{r:.2f} 倍（更慢）',
    'Fastest: {label} at {rate:.1f} steps/s.':
        '最快：{label}，{rate:.1f} 步/秒。',
    'a tie within the noise floor of {noise:.1f}%':
        '在 {noise:.1f}% 的噪声水平之内，视为持平',
    "undecided: the repeats' ranges overlap":
        '无法判定（两者各次重复的范围有重叠）',
    'faster':
        '超出噪声水平且各次重复互不重叠，判定为更快',
    'slower':
        '超出噪声水平且各次重复互不重叠，判定为更慢',
    '{label}, second copy':
        '{label}（第二份副本）',
    'noise floor of the 15% test (%)':
        '检验 15% 说法所用的噪声水平（%）',
    'noise floor of the modes grid (%)':
        '第 2 节执行模式对比的噪声水平（%）',
    'noise floor of the batch-size sweep (%)':
        '第 4 节批大小对比的噪声水平（%）',
    'faster (paired, above 1.00)':
        '更快（逐轮配对，区间高于 1.00）',
    'slower (paired, below 1.00)':
        '更慢（逐轮配对，区间低于 1.00）',
    'a difference of zero not ruled out (1.00 inside)':
        '不能排除两者没有差别（1.00 在区间内）',
    'the two paired intervals together {lo:.2f}-{hi:.2f}, above 1.00: faster':
        '两个配对区间合起来为 {lo:.2f}～{hi:.2f}，高于 1.00：更快',
    'the two paired intervals together {lo:.2f}-{hi:.2f}, below 1.00: slower':
        '两个配对区间合起来为 {lo:.2f}～{hi:.2f}，低于 1.00：更慢',
    '95% paired interval {lo:.2f}-{hi:.2f}, above 1.00: faster':
        '95% 配对区间 {lo:.2f}～{hi:.2f}，高于 1.00：更快',
    '95% paired interval {lo:.2f}-{hi:.2f}, below 1.00: slower':
        '95% 配对区间 {lo:.2f}～{hi:.2f}，低于 1.00：更慢',
    'the two paired intervals together {lo:.2f}-{hi:.2f}, 1.00 inside: not separated; differences up to {pct:.0f}% '
    'not ruled out':
        '两个配对区间合起来为 {lo:.2f}～{hi:.2f}，包含 1.00，分不出快慢（{pct:.0f}% 以内的差别不能排除）',
    '95% paired interval {lo:.2f}-{hi:.2f}, 1.00 inside: not separated; differences up to {pct:.0f}% not ruled out':
        '95% 配对区间 {lo:.2f}～{hi:.2f}，包含 1.00，分不出快慢（{pct:.0f}% 以内的差别不能排除）',
    'lowest-highest paired ratio {lo:.2f}-{hi:.2f}, 1.00 inside: not separated; differences up to {pct:.0f}% not '
    'ruled out':
        '各轮比值的最低到最高 {lo:.2f}～{hi:.2f}，包含 1.00，分不出快慢（{pct:.0f}% 以内的差别不能排除）',
    '95% paired interval {lo:.2f}-{hi:.2f}, 1.00 inside: a tie':
        '95% 配对区间 {lo:.2f}～{hi:.2f}，包含 1.00：持平',
    'medians: a tie': '按中位数持平',
    'undecided': '无法判定',
    'medians: undecided': '按中位数无法判定',
    'medians: faster': '按中位数更快',
    'medians: slower': '按中位数更慢',
    'widened by the control (the copy against its original {lo:.2f}-{hi:.2f})':
        '已按对照放宽（副本与原配置之比为 {lo:.2f}～{hi:.2f}）',
    '1.00 inside the two paired intervals together, {lo:.2f}-{hi:.2f}: a tie':
        '1.00 落在两个配对区间合起来的范围 {lo:.2f}～{hi:.2f} 之内：持平',
    'PyNative functional step, with @jit / without, paired round by round (x)':
        '动态图模式下的函数式训练步：加 @jit / 不加，逐轮配对（倍）',
    "The naive baseline ({naive} without the CPU settings) ran at {naive_rate:.1f} steps/s; with the course's two "
    "fixes the same configuration ran at {fixed_rate:.1f}, {speedup:.2f}x the naive rate.":
        '未调优的默认配置（不加 CPU 优化设置）下，{naive} 为 {naive_rate:.1f} 步/秒；加上本课程的两项 CPU 优化设置后，'
        '同一配置为 {fixed_rate:.1f} 步/秒，是前者的 {speedup:.2f} 倍。',
    " With both fixes the highest median was {best}'s ({best_rate:.1f} steps/s), a tie within the noise floor of "
    "{noise:.1f}% with {others}":
        '加上两项优化设置后，中位数最高的是{best}，为 {best_rate:.1f} 步/秒，但与 {others} 相差在 {noise:.1f}% 的'
        '噪声水平之内，视为持平',
    " With both fixes the highest median was {best}'s ({best_rate:.1f} steps/s), beyond the noise floor of "
    "{noise:.1f}% above {runner}'s but with overlapping repeats: undecided":
        '加上两项优化设置后，中位数最高的是{best}，为 {best_rate:.1f} 步/秒，领先{runner} 的幅度超过 {noise:.1f}% 的'
        '噪声水平，但两者各次重复的范围有重叠，无法判定快慢',
    " With both fixes {best} ran fastest ({best_rate:.1f} steps/s)":
        '加上两项优化设置后，最快的是{best}（{best_rate:.1f} 步/秒）',
    ". With neither fix, no configuration ran faster than {best_no:.1f} steps/s.":
        '。两项设置都不加时，没有一种配置超过 {best_no:.1f} 步/秒。',
    " The highest median in the whole table, {rate:.1f} steps/s, is {label} with {case} alone: against {best} with "
    "both fixes, {verdict}.":
        '整张表中最高的中位数是 {rate:.1f} 步/秒，来自只加 {case} 的{label}；与加上两项设置的{best}相比，{verdict}。',
    '.':
        '。',
    '; ':
        '；',
    'the ISA cap':
        '限制指令集',
    'host blocking':
        '阻塞执行',
    '{fix} {a:.1f} -> {b:.1f} steps/s ({x:.2f}x), {verdict}':
        '{fix}使速率从 {a:.1f} 变为 {b:.1f} 步/秒（{x:.2f} 倍），{verdict}',
    '- {label}: {said}':
        '- {label}：{said}',
    'Each fix on top of the other (noise floor {noise:.1f}%):':
        '在已启用另一项设置的基础上，再单独加上这一项（噪声水平 {noise:.1f}%）：',
    'a tie':
        '持平',
    'undecided (beyond the floor, the repeats overlap)':
        '无法判定（超出噪声水平，但各次重复的范围有重叠）',
    'faster (beyond the floor, repeats apart)':
        '更快（超出噪声水平，且各次重复的范围不重叠）',
    'slower (beyond the floor, repeats apart)':
        '更慢（超出噪声水平，且各次重复的范围不重叠）',
    '{layer} takes {share:.0f}% of the {total:.1f} ms.':
        '{layer} 占总共 {total:.1f} 毫秒的 {share:.0f}%。',
    'ONEDNN_VERBOSE and the AVX-512 convolution path concern the CPU backend, not {device}':
        'ONEDNN_VERBOSE 和 AVX-512 卷积路径只涉及 CPU 后端，与 {device} 无关',
    'Without the cap the two convolutions take {conv:.1f} ms of {total:.1f} ms ({pct:.0f}%) and oneDNN reports '
    "'{impl}' as its main convolution; with ONEDNN_MAX_CPU_ISA=AVX2 they take {conv_capped:.1f} ms "
    "('{impl_capped}'), ":
        '不限制指令集时，两个卷积层占 {total:.1f} 毫秒中的 {conv:.1f} 毫秒（{pct:.0f}%），oneDNN 报告的主要卷积实现是 '
        "'{impl}'；设置 ONEDNN_MAX_CPU_ISA=AVX2 后，它们耗时 {conv_capped:.1f} 毫秒（'{impl_capped}'），",
    '{x:.1f}x less.':
        '不限制时的耗时是限制后的 {x:.1f} 倍。',
    'no less: the cap does not help on this CPU (no AVX-512 convolution trap here).':
        '并没有减少：在本机 CPU 上限制指令集无济于事（这里没有 AVX-512 卷积陷阱）。',
    # ---- the cap's price: pooling (traps.summarise_pool_cap), and lesson 08's part 3 in words (traps.explain_*)
    "the ISA cap concerns MindSpore's CPU backend, not {device}":
        '限制指令集只涉及 MindSpore 的 CPU 后端，与 {device} 无关',
    'undecided (the repeats overlap)':
        '无法判定（各次重复的范围有重叠）',
    " oneDNN's log names the pooling implementation: {off} without the cap, {on} with it.":
        'oneDNN 的日志给出了池化所用的实现：不限制指令集时为 {off}，限制后为 {on}。',
    "This CPU {has} AVX-512; oneDNN used '{impl_a}' without the cap and '{impl_b}' with it. The profiler puts "
    '{share_a:.0f}% of operator time in the convolution operators without the cap ({ms_a:.1f} ms per step) and '
    '{share_b:.0f}% with it ({ms_b:.1f} ms): ':
        "本机 CPU {has} AVX-512；oneDNN 不限制指令集时使用 '{impl_a}'，限制后使用 '{impl_b}'。性能分析工具显示："
        '不限制时，算子耗时的 {share_a:.0f}% 花在卷积算子上（每步 {ms_a:.1f} 毫秒），限制后为 {share_b:.0f}%'
        '（{ms_b:.1f} 毫秒）。',
    'has':
        '支持',
    'does not have':
        '不支持',
    'the trap is here, and the three tools divide the work: the per-layer timing says where (the conv layers), the '
    "profiler which operators and how much of the step, and only oneDNN's log says why (the implementation it "
    'switched away from).':
        '陷阱就在这里，三种工具各有分工：逐层计时指出位置（卷积层），性能分析工具指出是哪些算子、占一步的多少，'
        '而只有 oneDNN 的日志能说明原因（限制指令集后它不再选用的那种慢实现）。',
    "no trap on this CPU. {cause} oneDNN's choice, so the {x:.1f}x between the two profiles is run-to-run noise "
    "(noise floor {noise:.1f}%). Only oneDNN's log can tell the two cases apart: the implementation name.":
        '本机 CPU 上没有陷阱。{cause} oneDNN 的选择，因此两次性能分析之间 {x:.1f} 倍的差别是运行之间的噪声'
        '（噪声水平 {noise:.1f}%）。只有 oneDNN 的日志能区分这两种情况：看实现的名称。',
    'Without AVX-512 the cap cannot change':
        '不支持 AVX-512 时，限制指令集无法改变',
    'The cap did not change':
        '限制指令集没有改变',
    'Keep {base}: neither equivalent formulation was measurably faster here.':
        '保留 {base}：两种等价写法在这里都没有可测出的速度优势。',
    '{label}, {case} (fresh process)':
        '{label}，{case}，在新进程中运行',
    '{label} (this kernel, CPU settings on)':
        '{label}，在当前内核中运行（已启用 CPU 优化设置）',
    "WARNING: {n} of {total} experiments ran on a busy machine (their conditions above say which): their absolute "
    "figures are not this machine's; re-run the lab on a quiet machine before quoting them.":
        '警告：{total} 个实验中有 {n} 个是在繁忙的机器上运行的（见上面各自的测量条件）：它们的绝对数值不代表这台机器；'
        '引用之前，请在空闲（负载低）的机器上重新运行本课。',
    'figure': '指标',
    'value': '数值',
    'verdict': '结论',
    'tie (within the noise floor)': '持平（在噪声水平之内）',
    'undecided (repeats overlap)': '无法判定（各次重复有重叠）',
    'faster (beyond the noise floor)': '更快（超出噪声水平）',
    'slower (beyond the noise floor)': '更慢（超出噪声水平）',
    "{script} failed (environment {env}):": "{script} 运行失败（环境 {env}）：",
    ' The course settings took {x:.1f}x as long: SLOWER, they did not speed training up here.':
        '推荐配置的耗时反而是它的 {x:.1f} 倍：推荐配置在这里没有加快训练。',
    'tie':
        '持平',
    'faster (repeats apart)':
        '更快（重复不重叠）',
    'slower (repeats apart)':
        '更慢（重复不重叠）',
    'costs':
        '拖慢',
    'bottleneck':
        '瓶颈',
    '{med:.2f}x ({lo:.2f}-{hi:.2f}), {where}':
        '{med:.2f} 倍（{lo:.2f}～{hi:.2f}），{where}',
    'verdict: paired ratio (lowest-highest)':
        '结论：配对比值（最低～最高）',
    'verdict: paired ratio (95% interval)':
        '结论：配对比值（95% 区间）',
    'verdict vs {a}':
        '对比 {a} 的结论',
    'about {s:.1f} s':
        '约 {s:.1f} 秒',
    '{low:.1f}-{high:.1f} s':
        '为 {low:.1f}～{high:.1f} 秒',
    '{s} s':
        '为 {s} 秒',
    ' The course settings were {x:.1f}x faster.':
        '推荐配置的速度是它的 {x:.1f} 倍。',
    'The noise floor for passes of {n} batches, from the same in-memory pass timed twice in the alternation '
    '({a:.1f} and {b:.1f} batches/s), the larger of the chance gap between two such medians and their actual gap, '
    'as in part 1: {noise:.1f}%. ':
        '以 {n} 个批为一遍时的噪声水平：同一遍内存中的批在交替计时中测了两次（{a:.1f} 和 {b:.1f} 批/秒），'
        '与第 1 节一样，取两个这样的中位数之间的偶然差距与两者实际差距中的较大者：{noise:.1f}%。',
    'Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} on in-memory batches ({x:.2f}x): ':
        '由流水线供数时，训练步为 {fed:.0f} 步/秒，使用内存中的批时为 {mem:.0f} 步/秒（{x:.2f} 倍）：',
    'faster fed by the pipeline, beyond the noise floor of {noise:.1f}%. Feeding a step cannot make it faster, so the '
    'machine changed under the measurement; this run detects no cost of the pipeline. ':
        '由流水线供数时反而更快，超出了 {noise:.1f}% 的噪声水平。供数不可能让训练步变快，所以是测量期间机器的状态变了；'
        '本次运行没有测出流水线的开销。',
    'a tie within the noise floor of {noise:.1f}%: by the medians this run cannot tell the difference from noise, so '
    'it says neither that the pipeline costs the step nothing nor that any cost is smaller than {noise:.1f}%. ':
        '两者之差在 {noise:.1f}% 的噪声水平以内，视为持平。仅凭中位数，本次运行无法把这一差别与噪声区分开，所以它既不说明'
        '流水线对训练步毫无开销，也不说明开销一定小于 {noise:.1f}%。',
    "The pipeline alone delivered {rate:.0f} batches/s ({how}), {x:.1f}x the in-memory step's rate: it keeps up, so "
    "it is not the bottleneck. ":
        '流水线单独运行时每秒产出 {rate:.0f} 个批（{how}），是使用内存中的批的训练步速率的 {x:.1f} 倍：它跟得上，'
        '所以它不是瓶颈。',
    "The pipeline alone delivered only {rate:.0f} batches/s ({how}), {x:.2f}x the in-memory step's rate: alone it "
    "could not keep up. ":
        '流水线单独运行时每秒只产出 {rate:.0f} 个批（{how}），是使用内存中的批的训练步速率的 {x:.2f} 倍：'
        '单靠它跟不上训练步。',
    'on in-memory batches it ran {gap:.1f}% faster, beyond the noise floor of {noise:.1f}%, and the pipeline alone '
    'delivers only {rate:.0f} batches/s ({how}), fewer than the step consumes: the pipeline IS the bottleneck. ':
        '使用内存中的批时快 {gap:.1f}%，超出 {noise:.1f}% 的噪声水平；而流水线单独运行时每秒只送出 {rate:.0f} 个批'
        '（{how}），少于训练步的消耗：流水线就是瓶颈。',
    'on in-memory batches it ran {gap:.1f}% faster, beyond the noise floor of {noise:.1f}%, although the pipeline '
    'alone delivers {rate:.0f} batches/s ({how}), {x:.1f}x what the step consumes: it keeps up, but feeding the step '
    'costs it {cost:.0f}% of its rate. ':
        '使用内存中的批时快 {gap:.1f}%，超出 {noise:.1f}% 的噪声水平。流水线单独运行时每秒能送出 {rate:.0f} 个批'
        '（{how}），是训练步消耗速度的 {x:.1f} 倍，足以供数；但由它供数会使训练步速率降低 {cost:.0f}%。',
    "on in-memory batches it ran {gap:.1f}% faster, beyond the noise floor of {noise:.1f}%, but the repeats' ranges "
    "overlap: undecided, this run does not say whether the pipeline costs the step anything. ":
        '使用内存中的批时快 {gap:.1f}%，超出 {noise:.1f}% 的噪声水平，但各次重复的范围有重叠：无法判定，'
        '本次运行说明不了流水线是否拖慢了训练步。',
    'a cost beyond the floor':
        '超出噪声水平的拖慢',
    '; on CPU MindSpore falls back to the normal loop with only an INFO-level log.':
        '。CPU 不支持数据下沉，MindSpore 只在 INFO 级日志中提示一句就改用普通循环。',
    'Sink mode on {device} ran at {r:.2f}x the rate of sink mode off ({verdict})':
        '在 {device} 上，开启数据下沉模式的速度是关闭时的 {r:.2f} 倍，{verdict}',
    'On {device}, O0 ran {rate:.0f} steps/s and reached {acc:.1f}% after {steps} steps':
        '在 {device} 上，O0 为 {rate:.0f} 步/秒，训练 {steps} 步后准确率为 {acc:.1f}%',
    'Without sink mode Model.train ran {rate:.0f} batches/s on {device}; ':
        '在 {device} 上，不使用数据下沉模式时 Model.train 为 {rate:.0f} 批/秒；',
    'the fastest was {best} at {rate:.0f} ({compared} sink off).':
        '最快的是 {best}，为 {rate:.0f} 批/秒，是关闭下沉时的 {compared}。',
    'no sink size beat it here.':
        '这里没有哪种下沉大小比它更快。',
    ', ':
        '，',
    '{pct:.1f}% after {s:.0f} s':
        '{s:.0f} 秒后达到 {pct:.1f}%',
    'Reached {reached}.':
        '{reached}。',
    'No target reached within {limit:.0f} s.':
        '在 {limit:.0f} 秒内没有达到任何目标。',
    'measured':
        '实测',
    'estimated':
        '估算',
    'naive defaults':
        '未调优的默认配置',
    '{spec} (no CPU fixes exist on {device})':
        '{spec}（{device} 上没有 CPU 优化设置）',
    'The {pct:.1f}% target was not reached within the {limit:.0f} s limit; raise time_limit.':
        '在 {limit:.0f} 秒的时间限制内没有达到 {pct:.1f}% 的目标；请调高 time_limit。',
    'The course settings reached {pct:.1f}% after {s:.0f} s of training; the naive defaults did not within the limit.':
        '推荐配置训练 {s:.0f} 秒后达到 {pct:.1f}%；未调优的默认配置在时间限制内没有达到。',
    'To {pct:.1f}% test accuracy the course settings ({spec}, {env}) needed {best_s:.1f} s of training ({steps} '
    'steps) against {naive_s:.1f} s for the {naive} ({how}): ':
        '要达到 {pct:.1f}% 的测试准确率，推荐配置（{spec}，{env}）需要训练 {best_s:.1f} 秒（{steps} '
        '步），{naive}则需要 {naive_s:.1f} 秒（{how}）：',
    'no CPU settings':
        '不加 CPU 优化设置',
    " The course settings took {lo:.1f}-{hi:.1f}x as long: SLOWER, they did not speed training up here.":
        '推荐配置的耗时反而是它的 {lo:.1f}～{hi:.1f} 倍：推荐配置在这里没有加快训练。',
    ' The course settings were {lo:.1f}-{hi:.1f}x faster.':
        '推荐配置的速度是它的 {lo:.1f}～{hi:.1f} 倍。',
    '{x:.1f}x faster.':
        '速度是后者的 {x:.1f} 倍。',
    '{x:.1f}x SLOWER: the course settings did not speed training up here.':
        '耗时反而是后者的 {x:.1f} 倍：推荐配置在这里没有加快训练。',
    # ---- the lab's tables (course_utils.bench: report.COLUMN_TITLES, the names of cases, inputs and labels)
    'label': '配置',
    'config': '配置',
    'case': '情形',
    'input': '输入',
    'layer': '层',
    'output': '输出形状',
    'wrapper': '返回的网络类型',
    'accuracy': '准确率',
    'first_call_s': '首次调用（秒）',
    'steps_per_s': '步/秒',
    'min_steps_per_s': '最小步/秒',
    'max_steps_per_s': '最大步/秒',
    'samples_per_s': '样本/秒',
    'min_samples_per_s': '最小样本/秒',
    'max_samples_per_s': '最大样本/秒',
    'steps_per_round': '每轮步数',
    'middle_half': '中间一半轮次的样本/秒',
    'vs_reference': '相对基准的倍数（逐轮配对）',
    'batches_per_s': '批/秒',
    'min_batches_per_s': '最小批/秒',
    'max_batches_per_s': '最大批/秒',
    'epoch_s': '每个 epoch 耗时（秒）',
    'share_pct': '占比（%）',
    'vs_baseline': '相对首行的倍数',
    'vs_naive': '中位数之比',
    'vs_O0': '相对 O0',
    'final_loss': '最终损失',
    'calls': '调用次数',
    'shapes': '形状数',
    'compiles': '编译次数',
    'compile_s': '编译（秒）',
    'total_s': '总计（秒）',
    'mean_batch': '平均批大小',
    'steady_ms': '稳态（毫秒）',
    'ms': '耗时（毫秒）',
    'min_ms': '最短（毫秒）',
    'max_ms': '最长（毫秒）',
    'processes': '进程数',
    'accuracy_pct': '准确率（%）',
    'us_per_sample': '每样本（微秒）',
    'target_pct': '目标（%）',
    'best_steps': '推荐配置步数',
    'best_s': '推荐配置用时（秒）',
    'naive_steps': '默认配置步数',
    'naive_s': '默认配置（秒）',
    'naive_how': '来源',
    'naive_s_range': '默认配置用时（秒）',
    'speedup_range': '加速比',
    'speedup': '加速比',
    'naive_s_high': '默认配置（秒，上端）',
    'speedup_high': '加速比（上端）',
    'op_type': '算子类型',
    'calls_per_step': '每步调用次数',
    'mean_ms': '平均（毫秒）',
    'total_ms': '总计（毫秒）',
    'implementation': '实现',
    'propagation': '传播方向',
    'primitive': '原语',
    'functional step':
        '函数式训练步',
    '@jit functional step':
        '@jit 函数式训练步',
    '{mode}, {style}':
        '{mode}下的 {style}',
    '{mode}, {style} {level}':
        '{mode}下的 {style}（{level}）',
    'GRAPH_MODE':
        '静态图模式',
    'PyNative':
        '动态图模式',
    'no fixes':
        '不加优化设置',
    'both fixes':
        '两项 CPU 优化设置',
    'both + MS_DEV_JIT_PIPELINE=0':
        '两项 CPU 优化设置 + MS_DEV_JIT_PIPELINE=0',
    'flatten':
        '展平',
    'relu 1':
        'ReLU 1',
    'relu 2':
        'ReLU 2',
    'relu+pool 1':
        'ReLU+池化 1',
    'relu+pool 2':
        'ReLU+池化 2',
    'no ISA cap':
        '不限制指令集',
    'pipeline alone, 1 worker':
        '仅流水线，1 个工作线程',
    'pipeline alone, {n} workers':
        '仅流水线，{n} 个工作线程',
    '1 worker':
        '1 个工作线程',
    '{n} workers':
        '{n} 个工作线程',
    'training step, in-memory batches (A)':
        '训练步，内存中的批（A）',
    'training step, in-memory batches (A′, the control)':
        '训练步，内存中的批（A′，对照）',
    'training step fed by the pipeline':
        '训练步，由流水线供数',
    'Model.train, sink mode on':
        'Model.train，开启数据下沉',
    'Model.train, sink mode off':
        'Model.train，关闭数据下沉',
    'in-memory batches':
        '内存中的批',
    '{label}, {input}':
        '{label}，{input}',
    'data pipeline':
        '数据处理流水线',
    'batch {n}':
        '批大小 {n}',
    '{n} batch sizes in turn, a new one every call at first':
        '{n} 种批大小轮流使用，前 {n} 次调用各是一种新的批大小',
    'dynamic batch dim ({how})':
        '动态批维度（{how}）',
    'not declared: no way for this step':
        '未声明：这种训练步无法声明',
    'sink off':
        '关闭下沉',
    'sink on, sink_size {size}':
        '开启下沉，sink_size {size}',
    'estimated: a range (see below)':
        '估算：一个范围（见下文）',
    'not reached':
        '未达到',
    # ---- the experiments' titles (course_utils/bench/experiments/__init__.py)
    'PyNative vs GRAPH_MODE vs @jit (functional and on a Cell), jit_level O0 vs O1':
        '动态图模式、静态图模式与 @jit（函数式训练步和 Cell）对比，jit_level O0 与 O1 对比',
    'Functional step vs TrainOneStepCell vs Model.train (the source\'s "15% faster" claim)':
        '函数式训练步、TrainOneStepCell 与 Model.train 对比（原文“快约 15%”的说法）',
    'Samples/s and time per epoch against the batch size':
        '样本/秒和每个 epoch 的耗时随批大小的变化',
    'The two CPU traps: every combination of the two fixes, each in its own process':
        '两个 CPU 陷阱：两项 CPU 优化设置的每种组合，各在独立的进程中运行',
    "The ISA cap's price: the pooling layers' forward and backward, with and without the cap":
        '限制指令集的代价：池化层的正向与反向，限制与不限制指令集对比',
    'Finding the oneDNN trap: per-layer timing and ONEDNN_VERBOSE, with and without the cap':
        '找出 oneDNN 陷阱：逐层计时和 ONEDNN_VERBOSE，限制与不限制指令集',
    'The input pipeline: the step fed by it vs on in-memory batches; dataset sink mode':
        '数据处理流水线：由它供数的训练步与使用内存中批的训练步对比；数据下沉模式',
    # ---- the headline tables of notebooks 07 and 08 (report.METRIC_TITLES)
    'highest step rate of the experiments named below (steps/s)': '下文所列实验中最高的训练速度（步/秒）',
    'GRAPH_MODE TrainOneStepCell (steps/s)': '静态图模式下的 TrainOneStepCell（步/秒）',
    '@jit functional step, O1 / O0, paired round by round (x)':
        '@jit 函数式训练步，O1 / O0，逐轮配对（倍）',
    'GRAPH_MODE TrainOneStepCell / @jit functional step O0, paired round by round (x)':
        '静态图模式下的 TrainOneStepCell / @jit 函数式训练步 O0，逐轮配对（倍）',
    'jit(TrainOneStepCell) / @jit functional step, both O1, paired round by round (x)':
        'jit(TrainOneStepCell) / @jit 函数式训练步，均为 O1，逐轮配对（倍）',
    'TrainOneStepCell / @jit functional step (part 3), paired round by round (x)':
        'TrainOneStepCell / @jit 函数式训练步（第 3 节），逐轮配对（倍）',
    'GRAPH_MODE / PyNative TrainOneStepCell, paired round by round (x)':
        'TrainOneStepCell：静态图模式 / 动态图模式，逐轮配对（倍）',
    'PyNative TrainOneStepCell (steps/s)': '动态图模式下的 TrainOneStepCell（步/秒）',
    'Model.train fed by the pipeline (steps/s)': 'Model.train，流水线供数（步/秒）',
    'naive defaults (steps/s)': '未调优的默认配置（步/秒）',
    'naive configuration with the two CPU settings (steps/s)': '同一训练步加上两项 CPU 优化设置（步/秒）',
    'course settings to 98.5% (training s)': '推荐配置达到 98.5%（训练秒数）',
    'naive defaults to 98.5% (training s)': '未调优的默认配置达到 98.5%（训练秒数）',
    'course settings to 99.0% (training s)': '推荐配置达到 99.0%（训练秒数）',
    'naive defaults to 99.0% (training s)': '未调优的默认配置达到 99.0%（训练秒数）',
    'naive defaults to 98.5%, estimated range (training s)': '未调优的默认配置达到 98.5%，估算范围（训练秒数）',
    'naive defaults to 99.0%, estimated range (training s)': '未调优的默认配置达到 99.0%，估算范围（训练秒数）',
    'naive defaults to 98.5%, estimated (training s)': '未调优的默认配置达到 98.5%，估算值（训练秒数）',
    'naive defaults to 99.0%, estimated (training s)': '未调优的默认配置达到 99.0%，估算值（训练秒数）',
    "naive defaults to 98.5%, step count's uncertainty included (training s)":
        '未调优的默认配置达到 98.5%，计入步数的不确定性（训练秒数）',
    "naive defaults to 99.0%, step count's uncertainty included (training s)":
        '未调优的默认配置达到 99.0%，计入步数的不确定性（训练秒数）',
    "course settings' speed-up to 98.5%, step count's uncertainty included (x, range)":
        '推荐配置达到 98.5% 的加速比，计入步数的不确定性（倍，范围）',
    "course settings' speed-up to 99.0%, step count's uncertainty included (x, range)":
        '推荐配置达到 99.0% 的加速比，计入步数的不确定性（倍，范围）',
    'naive defaults to 98.5%, estimated low end (training s)': '未调优的默认配置达到 98.5%，估算下限（训练秒数）',
    'naive defaults to 98.5%, estimated high end (training s)': '未调优的默认配置达到 98.5%，估算上限（训练秒数）',
    'naive defaults to 99.0%, estimated low end (training s)': '未调优的默认配置达到 99.0%，估算下限（训练秒数）',
    'naive defaults to 99.0%, estimated high end (training s)': '未调优的默认配置达到 99.0%，估算上限（训练秒数）',
    'noise floor of part 1 (%)': '第 1 节的噪声水平（%）',
    'lesson run time (s)': '本课运行时间（秒）',
    'amp {level}': '混合精度 {level}',
    'auto_mixed_precision O0-O3: steps/s and accuracy after the same number of steps':
        'auto_mixed_precision O0-O3：训练相同步数后的步/秒和准确率',
    'Recompilation on every new batch shape, measured, and two fixes':
        '每遇到新的批形状就重新编译：实测，以及两种解决办法',
    "Training time to 98.5% / 99.0% test accuracy: course's CPU settings vs naive defaults":
        '达到 98.5% / 99.0% 测试准确率所需的训练时间：课程的 CPU 设置与未调优的默认配置对比',
    'Model.train with dataset sink mode off and on, several sink sizes':
        'Model.train 关闭与开启数据下沉模式，多种下沉大小',
    'AMP O2/O3 with a fixed loss scale (TrainOneStepWithLossScaleCell) vs O0':
        '使用固定损失缩放（TrainOneStepWithLossScaleCell）的混合精度 O2/O3 与 O0 对比',
    'jit_level O0 vs O1 for the functional step and the Cell, vs GRAPH_MODE':
        '函数式训练步和 Cell 的 jit_level O0 与 O1 对比，并与 GRAPH_MODE 对比',
    # ---- round 4 (reader round of lesson 07): one finding, one short sentence, per line
    # forced vs not forced (common.forcing_conclusion) and rule 2 in a fresh process (modes.measure_forcing)
    # part 1's two readings of one step (common.warmup_reading, common.two_readings)
    'calls 1-{last}: median {median:.1f} ms, range {lo:.1f}-{hi:.1f} ms; more than twice that median: {spikes}; ':
        '索引 1～{last} 的调用：中位数 {median:.1f} 毫秒，范围 {lo:.1f}～{hi:.1f} 毫秒；超过该中位数两倍的调用：{spikes}；',
    'call 1 no more than 20% above the level of calls {n}-{last} ({settled:.1f} ms): the warm-up was the compiling '
    'call alone.':
        '索引 1 的调用与索引 {n}～{last} 的水平（{settled:.1f} 毫秒）相差不到 20%：需要预热的只有编译的那一次。',
    'call 1 ran more than 20% above the level of calls {n}-{last} ({settled:.1f} ms): here the warm-up took one call '
    'beyond the compiling one.':
        '索引 1 的调用比索引 {n}～{last} 的水平（{settled:.1f} 毫秒）高出 20% 以上：除编译那次外，预热还多用了 1 次调用。',
    'calls 1-{k} in a row ran more than 20% above the level of calls {n}-{last} ({settled:.1f} ms): here the warm-up '
    'took {k} call(s) beyond the compiling one.':
        '索引 1～{k} 的调用连续比索引 {n}～{last} 的水平（{settled:.1f} 毫秒）高出 20% 以上：除编译那次外，预热还多用了 '
        '{k} 次调用。',
    'Within 10% of each other.':
        '两者相差不到 10%。',
    'The median repeat was slower than even the slowest single call.':
        '重复的中位数比最慢的一次单独调用还慢。',
    " The fastest repeat ({fast:.1f} ms a step) kept the single calls' pace: the other repeats ran in a slow stretch "
    "of the machine that the single calls missed.":
        '最快的一次重复（每步 {fast:.1f} 毫秒）与单次调用的节奏相当：其余几次重复赶上了机器一段偏慢的时间，'
        '单次调用恰好没有碰上。',
    ' Every repeat was: the machine ran slower for the seconds the repeats took.':
        '每一次重复都是如此：在这几次重复所用的几秒里，机器整体变慢了。',
    " A step's speed can also shift between levels for a second or more (check 2's optional section).":
        '训练步的速度还可能在几个档位之间切换，每个档位可持续一秒以上（见检查 2 的选读部分）。',
    'The repeats were slower. A repeat counts every step in it, slow moments included, which the median of single '
    'calls leaves out.':
        '多次重复测得的速度更慢。一次重复计入其中的每一步，包括机器偏慢的时刻，单次调用的中位数则把这些时刻'
        '排除在外。',
    'The repeats were faster, although a repeat counts its slow moments too. The single calls ran just before them, '
    'right after the compiling call: a slower moment of the machine, or a step not yet at its steady pace.':
        '多次重复反而更快，虽然每次重复也把其间偏慢的时刻算了进去。单次调用就在它们之前、紧跟编译那次调用运行，'
        '可能赶上了机器偏慢的时刻，也可能训练步还没有进入稳定的节奏。',
    "one step, two readings: the median repeat's time per step is {gap:.2f}x the single calls' median. {why}":
        '同一训练步的两种读数：多次重复测得的每步耗时（中位数）是单次调用耗时中位数的 {gap:.2f} 倍。{why}',
    # forced vs not forced, read by the paired interval (common.forcing_conclusion, modes.summarise_forcing)
    'above 1.00: faster': '高于 1.00：更快',
    'below 1.00: slower': '低于 1.00：更慢',
    '1.00 inside: not separated; differences up to {pct:.0f}% not ruled out':
        '包含 1.00，分不出快慢（{pct:.0f}% 以内的差别不能排除）',
    'below 1.00: inconclusive. Skipping a wait cannot make the same work slower, so something else differed between '
    'the two (the load within a round, or the code around the step)':
        '低于 1.00：无法下结论。省去等待不可能让同样的计算变慢，所以两者之间还有别的差异（同一轮之内负载有变化，或训练步之外的代码不同）',
    'Not forced over forced, steps/s over steps/s round by round: {med:.2f}x (95% interval {lo:.2f}-{hi:.2f}), '
    '{side}.':
        '逐轮计算不同步等待与同步等待的每秒步数之比：{med:.2f} 倍（95% 区间 {lo:.2f}～{hi:.2f}），{side}。',
    ' The calls returned before their work was done.':
        '调用在计算完成之前就已返回。',
    "without 1.00 although they are one configuration, so every interval read with this control is widened by the "
    "copies' gap, x{lo:.2f} at its low end and x{hi:.2f} at its high end, before it is read":
        '两者本是同一种配置，区间却不包含 1.00，所以凡是与这项对照一起解读的区间，都要先按两份副本之间的差距放宽：'
        '下端乘以 {lo:.2f}，上端乘以 {hi:.2f}，然后再解读',
    'This kernel runs with MS_DEV_HOST_BLOCKING_RUN=1: the next cell says what it does and measures without it.':
        '当前内核设置了 MS_DEV_HOST_BLOCKING_RUN=1：下一个单元格说明它的作用，并在不设置它的情况下再测一次。',
    'forced every step':
        '每步同步等待',
    'forced every step, second copy':
        '每步同步等待（第二份副本）',
    'forced at the end of each repeat':
        '只在每次重复结束时同步等待',
    'not forced':
        '不同步等待',
    # modes
    'Noise floor of this grid: {floor:.1f}%, from {label} timed twice (the second copy is no contestant).':
        '本组对比的噪声水平为 {floor:.1f}%，由{label} 计时两次得出（第二份副本只用作对照）。',
    '{best} has the highest median, {rate:.1f} steps/s, {gap:.0f}% above {runner}, but their repeats overlap: '
    'undecided.':
        '{best}的中位数最高（{rate:.1f} 步/秒），比{runner}高 {gap:.0f}%，但两者各次重复有重叠，无法判定。',
    'Fastest beyond the noise floor: {best}, {rate:.1f} steps/s, {ratio:.1f}x the slowest.':
        '超出噪声水平、判定最快的是{best}，{rate:.1f} 步/秒，是最慢者的 {ratio:.1f} 倍。',
    'Tied at the top, within the noise floor ({lo:.1f}-{hi:.1f} steps/s): {names}.':
        '以下配置并列最快，彼此相差在噪声水平之内（{lo:.1f}～{hi:.1f} 步/秒）：{names}。',
    'Undecided against the highest median (beyond the floor, repeats overlapping): {names}.':
        '与中位数最高者相比超出噪声水平、但各次重复有重叠，因而无法判定的有：{names}。',
    'Slowest: {slow}, {slow_rate:.1f} steps/s.':
        '最慢的是{slow}，{slow_rate:.1f} 步/秒。',
    'Tied at the bottom, within the noise floor ({lo:.1f}-{hi:.1f} steps/s): {names}.':
        '以下配置并列最慢，彼此相差在噪声水平之内（{lo:.1f}～{hi:.1f} 步/秒）：{names}。',
    ('Biggest first call: {first_s:.2f} s ({first}), as long as {first_steps:.0f} steady-state steps (second copies '
     'left out).'):
        '首次调用耗时最长的是{first}，{first_s:.2f} 秒，相当于 {first_steps:.0f} 个稳态训练步（不计第二份副本）。',
    'GRAPH_MODE against PyNative, TrainOneStepCell: {r:.2f}x, {verdict}.':
        '静态图模式下 TrainOneStepCell 的速度是动态图模式下的 {r:.2f} 倍，{verdict}。',
    '@jit ({level}) on the PyNative functional step: {r:.2f}x ({jit_rate:.1f} vs {plain_rate:.1f} steps/s), '
    '{verdict}.':
        '动态图模式下的函数式训练步加上 @jit（{level}）后，速度是不加时的 {r:.2f} 倍'
        '（{jit_rate:.1f} 步/秒对 {plain_rate:.1f} 步/秒），{verdict}。',
    'jit_level O1 against O0, same step: {r:.2f}x ({o1:.1f} vs {o0:.1f} steps/s), {verdict}.':
        '同一训练步使用 jit_level O1 时的速度是 O0 的 {r:.2f} 倍（{o1:.1f} 步/秒对 {o0:.1f} 步/秒），{verdict}。',
    # styles
    '{said}; {zero}.':
        '{said}；{zero}。',
    '{said}.':
        '{said}。',
    "the article's {claim:.2f}x lies above the interval, ruled out here":
        '文章所说的 {claim:.2f} 倍高于区间，在这里可以排除',
    "the article's {claim:.2f}x lies at the interval's upper edge, not firmly ruled out":
        '文章所说的 {claim:.2f} 倍恰在区间上沿，不能确定地排除',
    "the article's {claim:.2f}x lies below the interval: TrainOneStepCell was even faster":
        '文章所说的 {claim:.2f} 倍低于区间，TrainOneStepCell 比文章说的还快',
    "the article's {claim:.2f}x lies at the interval's lower edge: about as fast as claimed":
        '文章所说的 {claim:.2f} 倍恰在区间下沿，TrainOneStepCell 大致与文章说的一样快',
    "the article's {claim:.2f}x lies inside the interval, not ruled out":
        '文章所说的 {claim:.2f} 倍落在区间之内，不能排除',
    '1.00 (no difference) lies below it, ruled out':
        '1.00（两者没有差别）低于区间，可以排除',
    '1.00 lies above it: TrainOneStepCell was slower':
        '1.00 高于区间，TrainOneStepCell 更慢',
    '1.00 (no difference) lies inside it, not ruled out':
        '1.00（两者没有差别）落在区间之内，不能排除',
    'Part 2, same alternation: {cell_label} {cell:.1f} vs {jit_label} {jit:.1f} steps/s, {r:.2f}x, {judged}.':
        '第 2 节在同一次交替运行中测得{cell_label}为 {cell:.1f} 步/秒，{jit_label}为 {jit:.1f} 步/秒，'
        '前者是后者的 {r:.2f} 倍，{judged}。',
    '1.00 inside, as it should be':
        '包含 1.00，符合预期',
    # batch sizes
    'Noise floor of this sweep: {floor:.1f}%, from {label} timed twice (the second copy is no contestant).':
        '本组批大小对比的噪声水平为 {floor:.1f}%，由{label} 计时两次得出（第二份副本只用作对照）。',
    'This run cannot rank the sizes: each is within the noise floor of batch {top} or undecided against it.':
        '本次运行无法给这几个批大小排出快慢：每个批大小与批大小 {top} 相比，要么在噪声水平之内，要么无法判定。',
    ('Batch {top} has the highest median throughput: {rate:,.0f} samples/s; at that rate the training steps of one '
     'MNIST epoch take {epoch:.1f} s (in-memory batches, no data pipeline).'):
        '批大小 {top} 的吞吐量中位数最高：{rate:,.0f} 样本/秒；按这个速度，MNIST 一个 epoch 的训练步共需 {epoch:.1f} 秒'
        '（批数据在内存中，不含数据处理流水线）。',
    ("The same step, {label} at batch {batch}: {rate:.1f} steps/s in the sweep, {others}. The sweep's rounds are "
     "timed differently from those of {parts} (steps a round, batches cycled, warm-up): compare rates only within "
     "the sweep."):
        '同一个训练步（{label}，批大小 {batch}）：扫描中为 {rate:.1f} 步/秒，{others}。扫描每轮的计时方式与{parts}不同'
        '（每轮步数、循环使用的批、预热），速度只在扫描内部相互比较。',
    '{rate:.1f} in {part}':
        '{part}中为 {rate:.1f}',
    'faster than batch {sizes} (intervals above 1.00)':
        '比批大小 {sizes} 快（区间都高于 1.00）',
    'not separated from batch {sizes} (intervals containing 1.00)':
        '与批大小 {sizes} 分不出快慢（区间包含 1.00）',
    "within the copies' gap of batch {sizes} (beyond 1.00 by no more than the control's own spread)":
        '与批大小 {sizes} 的差别在两份副本的差距之内（区间虽不含 1.00，但靠近 1.00 的一端离 1.00 不超过对照的差距）',
    'slower than batch {sizes} round by round (intervals below 1.00)':
        '逐轮比较却比批大小 {sizes} 慢（区间低于 1.00）',
    'faster than batch {sizes} (interval above 1.00)':
        '比批大小 {sizes} 快（区间高于 1.00）',
    'not separated from batch {sizes} (interval containing 1.00)':
        '与批大小 {sizes} 分不出快慢（区间包含 1.00）',
    'slower than batch {sizes} round by round (interval below 1.00)':
        '逐轮比较却比批大小 {sizes} 慢（区间低于 1.00）',
    'batch {top}, the reference, ranked first':
        '逐轮配对比值最高的就是基准批大小 {top} 本身',
    "batch {top} ranked first, at {med:.2f}x batch {ref}'s samples/s ({lo:.2f}-{hi:.2f}, paired)":
        '按逐轮配对比值的中位数，批大小 {top} 最高，每秒样本数为批大小 {ref} 的 {med:.2f} 倍（配对区间 {lo:.2f}～{hi:.2f}）',
    'Batch size (part 4): {head}; it is {parts}.':
        '批大小（第 4 节）：{head}；它{parts}。',
    'Verdict, from the paired intervals: batch {top} is {parts}.':
        '按配对区间得出的结论：批大小 {top} {parts}。',
    '; it is ':
        '；',
    'Slower than it, beyond the noise floor with repeats apart: batch {sizes}.':
        '比它慢、超出噪声水平且各次重复互不重叠的有：批大小 {sizes}。',
    'Within the noise floor of it, a tie: batch {sizes}.':
        '与它相差在噪声水平之内、视为持平的有：批大小 {sizes}。',
    'Undecided against it (beyond the floor, repeats overlapping): batch {sizes}.':
        '与它相比超出噪声水平、但各次重复有重叠，因而无法判定的有：批大小 {sizes}。',
    # the best of everything measured
    'The highest step rate: {rate:.1f} steps/s, {best}, in {exp}.':
        '最高的训练速度为 {rate:.1f} 步/秒，来自{exp}的{best}。',
    'The highest step rate of the experiments {exps}: {rate:.1f} steps/s, {best}, in {exp}.':
        '实验 {exps} 中最高的训练速度为 {rate:.1f} 步/秒，来自 {exp} 中的{best}。',
    'The highest step rate of experiment {exp}: {rate:.1f} steps/s, {best}.':
        '{exp}的实验中，最高的训练速度为 {rate:.1f} 步/秒，来自{best}。',
    ' It is the highest of {n} rates on in-memory batches; second copies, pipeline passes and timings outside these '
    'experiments are not counted.':
        '它是内存中的批上测得的 {n} 个速率中最高的一个，不计第二份副本、流水线供数的各遍，也不计这些实验之外的计时。',
    "{label} also ran at {other:.1f} steps/s in {other_exp}, {gap:.1f}% apart: two separate alternations, so the "
    "two figures are not compared (the machine's speed moves between them).":
        '{label}在{other_exp}中测得 {other:.1f} 步/秒，两者相差 {gap:.1f}%：两者分属两次不同的交替运行，所以不拿来比较'
        '（两次运行之间机器的速度会有变化）。',
    'A figure, not a winner: a configuration is called the fastest only within one alternated comparison (the lines '
    'under each experiment).':
        '这只是一个数字，不代表胜出者。只有在同一次交替运行之内（各实验下方的结论），才能判定某种配置最快。',
    'TrainOneStepCell / functional step without @jit (GRAPH_MODE), paired round by round (x)':
        'TrainOneStepCell / 不加 @jit 的函数式训练步（静态图模式），逐轮配对（倍）',
    # dynamic shapes
    'one fixed batch of {n} (as drop_remainder / padding give)':
        '固定批大小 {n}（drop_remainder / 填充的效果）',
    '{shapes} batch shapes ({sizes}) cost {compiles} compilations: {compile_s:.2f} s of {total_s:.2f} s over '
    '{calls} calls.':
        '{shapes} 种批形状（{sizes}）导致 {compiles} 次编译，{calls} 次调用共 {total_s:.2f} 秒，其中编译占 {compile_s:.2f} 秒。',
    'Compilations with a dynamic batch dimension: {dyn}; with one fixed shape: {one} ({dyn_total_s:.2f} s and '
    '{one_total_s:.2f} s for all {calls} calls).':
        '声明动态批维度时编译 {dyn} 次，固定单一形状时编译 {one} 次（{calls} 次调用的总耗时分别为 {dyn_total_s:.2f} 秒'
        '和 {one_total_s:.2f} 秒）。',
    'Compilations with a dynamic batch dimension: {dyn}; with one fixed shape: {one} ({total_s:.2f} s for all '
    '{calls} calls, either way).':
        '声明动态批维度时编译 {dyn} 次，固定单一形状时编译 {one} 次（两种写法 {calls} 次调用的总耗时均为 {total_s:.2f} 秒）。',
    'Changing shapes did not recompile here: this step style does not specialise on shapes.':
        '这里改变形状并没有引起重新编译，因为这种训练步写法不针对形状做特化。',
    # exercise 1
    'with 3 repeats of 8 steps of {work_ms:.0f} ms you measured {got:.0f} steps/s (expected about {true_rate:.0f}): '
    'the first call, which takes 0.4 s here, is inside the timed region. Call step() once before starting the clock.':
        '3 次重复、每次 8 步、每步 {work_ms:.0f} 毫秒，你测得 {got:.0f} 步/秒（应约为 {true_rate:.0f}）。'
        '这里耗时 0.4 秒的首次调用落在了计时区间之内。请在开始计时之前先调用一次 step()。',
    'throughput(step, 8, 3) called step() {n} times, expected 25: one warm-up call, then 3 repeats of 8 steps each.':
        'throughput(step, 8, 3) 调用了 {n} 次 step()，应为 25 次：一次预热调用，然后计时 3 次重复，每次 8 步。',
    "one of the 3 repeats had a 0.3 s hiccup and you measured {got:.0f} steps/s (expected about {true_rate:.0f}): one "
    "slow repeat pulled the result down. Return steps divided by the median of the repeats' times, not their mean or "
    "total.":
        '3 次重复中有一次多停顿了 0.3 秒，你测得 {got:.0f} 步/秒（应约为 {true_rate:.0f}），一次慢的重复拉低了结果。'
        '请返回步数除以各次重复耗时的中位数，而不是平均值或总和。',
}
