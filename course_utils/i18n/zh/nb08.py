"""Chinese messages of notebook 08: its exercises (``course_utils/exercises/nb08.py``).

Keys are the English templates exactly as written at the ``tr()`` / ``N_()`` call sites. The lab's conclusions
that lesson 08 prints come from ``course_utils.bench``; their messages are in ``nb07.py`` with the rest of the
lab's.
"""

MESSAGES = {
    # ---- q1: the same function
    'the same outputs and the same gradients':
        '相同的输出与相同的梯度',
    "Compute both outputs with cell(x) and compare them with np.allclose(..., atol=atol). Then the gradient with "
    "respect to x: ms.grad(cell)(x) (for an output with many elements the backward pass starts from ones, i.e. the "
    "gradient of the output's sum). Return True only if the outputs AND the gradients agree.":
        '先用 cell(x) 算出两个输出，用 np.allclose(..., atol=atol) 比较。再求对 x 的梯度：ms.grad(cell)(x)'
        '（输出有多个元素时，反向传播从全 1 开始，即输出之和的梯度）。只有输出和梯度都一致时才返回 True。',
    'two formulations of the same pooling':
        '同一种池化的两种写法',
    'another pooling: other outputs':
        '另一种池化：输出不同',
    'the same outputs, but no gradient flows back':
        '输出相同，但梯度传不回去',
    'the same up to float32 rounding':
        '只差 float32 的舍入误差',
    'the same gradient, but other outputs':
        '梯度相同，但输出不同',
    ' Their gradients are equal; compare the outputs too.':
        '两者的梯度相同；还要比较输出。',
    'same_function should be a function of two Cells and an input, got {type}.':
        'same_function 应当是一个以两个 Cell 和一个输入为参数的函数，得到的却是 {type}。',
    'same_function({a}, {b}, x) returned {got!r}; return True or False.':
        'same_function({a}, {b}, x) 返回了 {got!r}；请返回 True 或 False。',
    ' Their outputs are equal; compare the gradients with respect to x too (ms.grad): a rewrite that trains '
    'differently is not the same layer.':
        '两者的输出相同；还要比较对 x 的梯度（ms.grad）：训练结果不同的改写，不是同一个层。',
    ' The two differ by float32 rounding only: compare within atol (np.allclose), not bit for bit.':
        '两者只差 float32 的舍入误差：请在 atol 之内比较（np.allclose），而不是逐位比较。',
    'same_function({a}, {b}, x) ({about}): expected {expected}, got {got}.{why}':
        'same_function({a}, {b}, x)（{about}）：期望 {expected}，得到 {got}。{why}',
    # q1's solution with its comments in Chinese (keyed by the dedented English solution)
    ('def same_function(cell_a, cell_b, x, atol=1e-6):\n'
     '    if not np.allclose(cell_a(x).asnumpy(), cell_b(x).asnumpy(), atol=atol):\n'
     '        return False                # other outputs\n'
     '    grad_a = ms.grad(cell_a)(x)     # d sum(output) / d input: backward from ones\n'
     '    grad_b = ms.grad(cell_b)(x)\n'
     '    return bool(np.allclose(grad_a.asnumpy(), grad_b.asnumpy(), atol=atol))'):
        ('def same_function(cell_a, cell_b, x, atol=1e-6):\n'
         '    if not np.allclose(cell_a(x).asnumpy(), cell_b(x).asnumpy(), atol=atol):\n'
         '        return False                # 输出不同\n'
         '    grad_a = ms.grad(cell_a)(x)     # d sum(output) / d input：反向传播从全 1 开始\n'
         '    grad_b = ms.grad(cell_b)(x)\n'
         '    return bool(np.allclose(grad_a.asnumpy(), grad_b.asnumpy(), atol=atol))'),
    # ---- q2: what the pipeline does to the step
    'what the pipeline does to the step':
        '数据处理流水线对训练步的影响',
    "First the paired verdict: the per-round ratios (fed rate over in-memory rate) span an interval from the lowest "
    "to the highest. If 1.0 lies inside it (min(ratios) <= 1 <= max(ratios)), answer 'not separated'. Then the "
    "control: the copies' gap is max(max(copies), 1 / min(copies)), how far two passes of one configuration came "
    "apart; if the interval's near end (max(ratios) below 1.0, min(ratios) above) is no farther from 1.0 than that "
    "gap (1 / max(ratios) <= gap, or min(ratios) <= gap), answer 'not separated' too. If every ratio is above 1.0 "
    "beyond the gap, answer 'recheck' (feeding cannot speed a step up: the machine changed, so time again). Only "
    "when every ratio is below 1.0 beyond the gap does the pipeline cost the step something; then look at the "
    "pipeline alone: fewer batches per second than the step runs on in-memory batches means 'bottleneck', "
    "otherwise 'costs'.":
        '先做配对判定：各轮比值（供数速率除以内存中批的速率）从最小到最大构成一个区间。'
        '1.0 落在区间内（min(ratios) <= 1 <= max(ratios)），回答 \'not separated\'（即第 4 节表中的“分不出快慢”）。'
        '再看对照：副本差距是 max(max(copies), 1 / min(copies))，即同一配置的两遍相差多远；区间靠近 1.0 的一端'
        '（低于 1.0 时是 max(ratios)，高于时是 min(ratios)）离 1.0 不比这个差距更远（1 / max(ratios) <= gap，'
        '或 min(ratios) <= gap），同样回答 \'not separated\'。超出这个差距且每一轮的比值都大于 1.0，回答 \'recheck\''
        '（供数不可能让训练步变快，是机器状态变了，需要重新计时）。只有超出这个差距且每一轮的比值都小于 1.0，'
        '流水线才算拖慢了训练步；这时再看流水线单独运行的速度：每秒产出的批数少于训练步使用内存中的批时每秒运行的步数，'
        '就是 \'bottleneck\'，否则是 \'costs\'。',
    'pipeline_verdict should be a function, got {type}.':
        'pipeline_verdict 应当是一个函数，得到的却是 {type}。',
    'pipeline_verdict(...) returned {got!r}; return one of {answers}.':
        'pipeline_verdict(...) 返回了 {got!r}；请返回 {answers} 之一。',
    'per-round ratios {ratios}, the step {mem:g} steps/s on in-memory batches, the pipeline alone {alone:g} '
    "batches/s, the copies' ratios {copies}":
        '各轮比值为 {ratios}，训练步使用内存中的批时为 {mem:g} 步/秒，流水线单独运行为 {alone:g} 批/秒，'
        '两份副本的各轮比值为 {copies}',
    " The interval's near end is no farther from 1.00 than the copies came apart (max(max(copies), 1 / "
    "min(copies))): two passes of one configuration differ that much too, so the difference is not separated.":
        '区间靠近 1.00 的一端离 1.00 不比两份副本之间的差距（max(max(copies), 1 / min(copies))）更远：'
        '同一配置的两遍也会相差这么多，所以分不出快慢。',
    ' 1.00 lies between the lowest and the highest ratio: not separated, no cost detected, whatever the median and '
    'the pipeline\'s own rate.':
        '1.00 落在最小比值与最大比值之间：分不出快慢，没有检测到开销，与中位数和流水线自身的速度都无关。',
    " Every round ran faster fed than in memory: feeding cannot make a step faster, so the machine changed; answer "
    "'recheck' (time again), not a cost.":
        "每一轮都是由流水线供数时更快：供数不可能让训练步变快，说明机器状态变了；应回答 'recheck'（需要重新计时），"
        "而不是开销。",
    ' Every ratio is below 1.00, and the pipeline alone delivers more batches than the step consumes: it keeps up, '
    'so it is not the bottleneck, yet feeding the step costs it part of its rate.':
        '每一轮的比值都低于 1.00，而流水线单独运行时产出的批数多于训练步的消耗：它跟得上，所以不是瓶颈，'
        '但为训练步供数时仍会拖慢它。',
    ' Every ratio is below 1.00, and the pipeline alone delivers fewer batches per second than the step consumes.':
        '每一轮的比值都低于 1.00，而流水线单独运行时每秒产出的批数少于训练步每秒消耗的批数。',
    # q2's solution with its comments in Chinese
    ('def pipeline_verdict(ratios, in_memory, alone, copies):\n'
     '    lo, hi = min(ratios), max(ratios)\n'
     '    gap = max(max(copies), 1 / min(copies))   # how far apart two copies of one pass came\n'
     '    if lo <= 1 <= hi:\n'
     '        return "not separated"  # 1.00 inside the paired interval: no cost detected\n'
     '    if (1 / hi if hi < 1 else lo) <= gap:\n'
     '        return "not separated"  # the near end within the copies\' gap: the control shows as much\n'
     '    if lo > 1:\n'
     '        return "recheck"        # faster in every round: the machine changed; time again\n'
     '    if alone < in_memory:\n'
     '        return "bottleneck"     # it cannot deliver what the step consumes\n'
     '    return "costs"              # it keeps up, yet the fed step is slower in every round'):
        ('def pipeline_verdict(ratios, in_memory, alone, copies):\n'
         '    lo, hi = min(ratios), max(ratios)\n'
         '    gap = max(max(copies), 1 / min(copies))   # 同一遍的两份副本相差多远\n'
         '    if lo <= 1 <= hi:\n'
         '        return "not separated"  # 1.00 落在配对区间内：分不出快慢，没有检测到开销\n'
         '    if (1 / hi if hi < 1 else lo) <= gap:\n'
         '        return "not separated"  # 靠近 1.00 的一端在副本差距以内：对照也会差这么多\n'
         '    if lo > 1:\n'
         '        return "recheck"        # 每一轮都更快：变的是机器，需要重新计时\n'
         '    if alone < in_memory:\n'
         '        return "bottleneck"     # 它产出的批数跟不上训练步的消耗\n'
         '    return "costs"              # 它跟得上，但由它供数的训练步每一轮都更慢'),
    # ---- q3: which operators got slower
    'which operators got slower':
        '哪些算子变慢了',
    "An operator type's time per step is mean_ms x calls_per_step. Build {op_type: time per step} for each profile; "
    "keep the types present in both whose time in `after` is at least min_ms and more than factor times their time "
    "in `before`; sort them by their time in `after`, largest first. Neither share_pct (a share of a total that "
    "changed too) nor total_ms (it grows with the number of steps recorded) answers the question.":
        '一类算子每步的耗时是 mean_ms x calls_per_step。先为两份性能数据各建一个 {op_type: 每步耗时} 的字典；'
        '只保留两份数据中都有、在 `after` 中每步耗时不少于 min_ms、且超过 `before` 中 factor 倍的算子类型；'
        '再按它们在 `after` 中的每步耗时从大到小排序。share_pct 是占总耗时的比例，而总耗时本身也变了；'
        'total_ms 随记录的步数增长。这两列都回答不了这个问题。',
    "MaxPoolGrad slowed down; MatMul's share rose only because Conv2D got faster":
        'MaxPoolGrad 变慢了；MatMul 的占比上升只是因为 Conv2D 变快了',
    'the first profile recorded 10 steps, the second 3':
        '第一份性能数据记录了 10 步，第二份只记录了 3 步',
    "MatMul runs 9 times a step; Cast's time is too small to judge":
        'MatMul 每步运行 9 次；Cast 的耗时太小，无法判断',
    'two slower operators, largest first; ReLU is in the second profile only':
        '两个变慢的算子，耗时大的在前；ReLU 只出现在第二份性能数据中',
    'slower_ops should be a function of two profiles, got {type}.':
        'slower_ops 应当是一个以两份性能数据为参数的函数，得到的却是 {type}。',
    'slower_ops(...) returned {got!r}; return a list of operator type names.':
        'slower_ops(...) 返回了 {got!r}；请返回由算子类型名组成的列表。',
    ' The right operators in the wrong order: sort by time per step in `after`, largest first.':
        '算子找对了，但顺序不对：请按 `after` 中的每步耗时从大到小排序。',
    " MatMul's time per step did not change; its share rose because Conv2D got faster. Compare time per step, not "
    "share_pct.":
        'MatMul 每步的耗时没有变化，它的占比上升是因为 Conv2D 变快了。请比较每步耗时，而不是 share_pct。',
    ' The two profiles recorded different numbers of steps, so their total_ms cannot be compared: use time per step '
    '(mean_ms x calls_per_step).':
        '两份性能数据记录的步数不同，它们的 total_ms 不能直接比较，请改用每步耗时（mean_ms x calls_per_step）。',
    ' Cast takes less than min_ms per step: too little to judge from a few profiled steps.':
        'Cast 每步的耗时不到 min_ms，只凭几步性能数据无法判断它是否变慢。',
    ' MatMul runs 9 times a step: its time per step is mean_ms x calls_per_step, and that is what min_ms applies '
    'to.':
        'MatMul 每步运行 9 次，它每步的耗时是 mean_ms x calls_per_step，min_ms 针对的正是这个值。',
    ' ReLU is in the second profile only: there is nothing to compare it with.':
        'ReLU 只出现在第二份性能数据中，没有可以比较的对象。',
    'slower_ops(before, after) ({about}): expected {expected}, got {got}.{why}':
        'slower_ops(before, after)（{about}）：期望 {expected}，得到 {got}。{why}',
    # q3's solution with its comments in Chinese
    ('def slower_ops(before, after, factor=1.5, min_ms=0.1):\n'
     '    def per_step(rows):         # op type -> ms per step\n'
     '        return {r["op_type"]: r["mean_ms"] * r["calls_per_step"] for r in rows}\n'
     '    old, new = per_step(before), per_step(after)\n'
     '    slower = [op for op in new if op in old and new[op] >= min_ms and new[op] > factor * old[op]]\n'
     '    return sorted(slower, key=lambda op: -new[op])'):
        ('def slower_ops(before, after, factor=1.5, min_ms=0.1):\n'
         '    def per_step(rows):         # 算子类型 -> 每步耗时（毫秒）\n'
         '        return {r["op_type"]: r["mean_ms"] * r["calls_per_step"] for r in rows}\n'
         '    old, new = per_step(before), per_step(after)\n'
         '    slower = [op for op in new if op in old and new[op] >= min_ms and new[op] > factor * old[op]]\n'
         '    return sorted(slower, key=lambda op: -new[op])'),
    # ---- the lab's lesson-08 conclusions added in round l08c (bench/experiments: pipeline, amp, traps, accuracy)
    # paired readings (pipeline.paired_reading / paired_words), the pipeline's and amp's
    '{n} rounds: lowest-highest ratio {lo:.2f}-{hi:.2f}':
        '{n} 轮：各轮比值最低 {lo:.2f}，最高 {hi:.2f}',
    '{n} rounds, widened by the control: {lo:.2f}-{hi:.2f}':
        '{n} 轮，按对照放宽后为 {lo:.2f}～{hi:.2f}',
    "Control, {b} over {a} (one configuration timed twice), paired round by round ({spread}): {said}.":
        '对照：{b} 与 {a} 之比（同一配置计时两次），逐轮配对（{spread}）：{said}。',
    'verdict: paired ratio (widened by the control)':
        '结论：配对比值（按对照放宽）',
    '95% interval {lo:.2f}-{hi:.2f}, {n} rounds':
        '{n} 轮，95% 区间 {lo:.2f}～{hi:.2f}',
    'below 1.00 in every round':
        '每一轮都低于 1.00',
    'the interval below 1.00':
        '区间整个低于 1.00',
    'above 1.00 in every round':
        '每一轮都高于 1.00',
    'the interval above 1.00':
        '区间整个高于 1.00',
    '1.00 inside':
        '区间包含 1.00',
    '{where}: slower':
        '{where}：更慢',
    '{where}: faster':
        '{where}：更快',
    '{where}: no difference detected':
        '{where}：未测出差别',
    '{med:.2f}x ({spread}), {where}':
        '{med:.2f} 倍（{spread}），{where}',
    'Paired round by round with {refs} (the passes of a round ran back to back), the fed step ran at {said}':
        '逐轮配对（与{refs}；每一轮里的各遍紧挨着运行），由流水线供数的训练步速率是其 {said}',
    "both copies of the in-memory pass, A and A'":
        '使用内存中的批的那一遍的两份副本 A 和 A′',
    'the in-memory pass':
        '使用内存中的批的那一遍',
    ': the pipeline costs the step. ':
        '：流水线拖慢了训练步。',
    ': no cost detected. ':
        '：没有测出开销。',
    ', which feeding cannot cause: the machine changed under the measurement; no cost detected. ':
        '，而供数不可能让训练步变快，说明测量期间机器的状态变了；没有测出开销。',
    "against A, {a}; against A' ({again:.0f} batches/s), {b}; the two disagree: undecided. ":
        '与 A 相比为{a}；与 A′（{again:.0f} 批/秒）相比为{b}；两者不一致，无法判定。',
    'a tie: the medians cannot tell a difference below {noise:.1f}% from noise; the paired intervals below are '
    'sharper':
        '持平：按中位数，低于 {noise:.1f}% 的差别与噪声无法区分；下面的配对区间更精确',
    "undecided: beyond the noise floor of {noise:.1f}%, but the repeats' ranges overlap":
        '无法判定：超出 {noise:.1f}% 的噪声水平，但各次重复的范围有重叠',
    'faster: beyond the noise floor, repeats apart':
        '更快：超出噪声水平，且各次重复的范围不重叠',
    'slower: beyond the noise floor, repeats apart':
        '更慢：超出噪声水平，且各次重复的范围不重叠',
    '{verdict}, by the medians':
        '{verdict}（按中位数判定）',
    '{med:.2f}x ({lo:.2f}-{hi:.2f}), {n} pairs':
        '{med:.2f} 倍（{lo:.2f}～{hi:.2f}），{n} 对',
    'ms, cap':
        '毫秒（限制）',
    'ms, no cap':
        '毫秒（不限制）',
    "medians' ratio":
        '中位数之比',
    'with the cap':
        '限制后',
    "O0's copy":
        'O0 的副本',
    'The fastest level here was {level}.':
        '这里最快的级别是 {level}。',
    'O0 itself was the fastest level here.':
        '这里最快的就是 O0 本身。',
    'No level ran measurably faster than O0 here.':
        '这里没有哪个级别明显快于 O0。',
    'amp O0, second copy':
        '混合精度 O0（第二份副本）',
    "; O0 timed twice, the same step: its copy ran {copy:.0f} steps/s, {x:.2f}x O0's rate ({verdict})":
        '；O0 测了两次，是同一个训练步：副本为 {copy:.0f} 步/秒，是 O0 的 {x:.2f} 倍（{verdict}）',
    ': the same step landed beyond the floor, so each level is judged against both, and a level whose two verdicts '
    'disagree is undecided':
        '：同一个训练步的两次结果相差超出了噪声水平，所以每个级别都要与两者分别比较，两个结论不一致的级别判为无法判定',
    '{n} (assumed)':
        '{n}（假定）',
    "To {pct:.1f}% test accuracy the course settings ({spec}, {env}) needed {best_s:.1f} s of training ({steps} steps, "
    "{fit_rate:.1f} steps/s on fit's clock); assuming the {naive} need as many steps, this run estimates them at "
    "{estimate} from the two step rates.":
        '要达到 {pct:.1f}% 的测试准确率，推荐配置（{spec}，{env}）需要训练 {best_s:.1f} 秒（{steps} 步，按 fit 的计时为 '
        '{fit_rate:.1f} 步/秒）；假定{naive}需要同样多的步数，本次运行由两种单步速率估算其耗时{estimate}。',
    # the naive estimate as one table (accuracy.estimate_table)
    'estimate':
        '估算',
    'naive s':
        '默认配置用时（秒）',
    'speed-up (x)':
        '加速比',
    'direct: {steps} steps / {naive_rate:.1f} steps/s':
        '直接法：{steps} 步 ÷ {naive_rate:.1f} 步/秒',
    'scaled: {best_s:.1f} s x {best_rate:.1f} / {naive_rate:.1f} steps/s':
        '缩放法：{best_s:.1f} 秒 × {best_rate:.1f} ÷ {naive_rate:.1f} 步/秒',
    '{lo_steps}-{hi_steps} steps (one evaluation either way)':
        '{lo_steps}～{hi_steps} 步（前后各差一次评估）',
    '{lo:.0f}-{hi:.0f}':
        '{lo:.0f}～{hi:.0f}',
    "and part 1's noise floor ({noise:.0f}%) either way":
        '再计入第 1 节的噪声水平（{noise:.0f}%）',
    " The course settings were {x}x faster (the last row of the table below, with the step count's "
    "uncertainty{noise}); by the two methods alone, {two} and {two_x}x.":
        '推荐配置的速度是它的 {x} 倍（即下表最后一行，已计入步数的不确定性{noise}）；仅按两种算法估算，耗时{two}，'
        '速度是它的 {two_x} 倍。',
    " and part 1's noise floor":
        '和第 1 节的噪声水平',
    "The last row widens by part 1's noise floor because the naive step rate is one reading in a fresh process, "
    "paired with nothing.":
        '最后一行再按第 1 节的噪声水平放宽，因为默认配置的单步速率只是新进程中的一次读数，没有与任何读数配对。',
    " At least one rate moved by more than the {noise:.0f}% noise floor the estimate's last row widens by: the "
    "conditions differ, so this measures no noise, but it shows how far a single unpaired rate can move; read part "
    "6's range as the size of the gain, not as firm bounds.":
        '至少有一个速率的变化超过了估算表最后一行所用的 {noise:.0f}% 噪声水平：两节的条件不同，这并不是在测量噪声，'
        '但它说明一次未配对的速率读数可以偏离多远；所以第 6 节的范围只说明收益的量级，不是确定的上下界。',
    'naive defaults to 98.5%, widened by the noise floor (training s, two figures)':
        '未调优的默认配置达到 98.5%，按噪声水平放宽（训练秒数，两位有效数字）',
    'naive defaults to 99.0%, widened by the noise floor (training s, two figures)':
        '未调优的默认配置达到 99.0%，按噪声水平放宽（训练秒数，两位有效数字）',
    "course settings' speed-up to 98.5%, widened by the noise floor (x, two figures)":
        '推荐配置达到 98.5% 的加速比，按噪声水平放宽（倍，两位有效数字）',
    "course settings' speed-up to 99.0%, widened by the noise floor (x, two figures)":
        '推荐配置达到 99.0% 的加速比，按噪声水平放宽（倍，两位有效数字）',
    "Against part 2: part 6's step-rate ratio is {g6:.1f}x, part 2's ratio of medians {g2:.1f}x. Fed by the pipeline "
    "in a fresh process, the naive step ran at {xn:.2f}x its part 2 rate ({n2:.1f} -> {n6:.1f} steps/s), the step "
    "with the two CPU settings at {xb:.2f}x ({b2:.1f} -> {b6:.1f}). Why the two changed by different factors is not "
    "measured (the pipeline's threads, the fresh process and the machine's load are candidates).":
        '与第 2 节对照：第 6 节的步速比为 {g6:.1f} 倍，第 2 节的中位数之比为 {g2:.1f} 倍。在新进程中由流水线供数时，'
        '未调优配置的训练步速率是第 2 节的 {xn:.2f} 倍（{n2:.1f} → {n6:.1f} 步/秒），两项 CPU 优化设置都开的训练步是 '
        '{xb:.2f} 倍（{b2:.1f} → {b6:.1f}）。两者变化的倍数为何不同，本课没有测量（流水线的线程、新进程、当时的机器负载'
        '都有可能）。',
    '{name}: the paired median ({x:.2f}x) and the medians ({a:.1f} -> {b:.1f} ms per step) disagree in direction: '
    'the block drifted during the alternation, so no saving in ms is read.':
        '{name}：逐轮配对比值的中位数（{x:.2f} 倍）与两个中位数（每步 {a:.1f} -> {b:.1f} 毫秒）方向相反，'
        '说明这段计时在交替运行中发生了漂移，因此不按毫秒解读节省了多少。',
    'with ONEDNN_MAX_CPU_ISA={cap}, on this CPU':
        '在本机 CPU 上、设置 ONEDNN_MAX_CPU_ISA={cap} 时',
    'on this CPU':
        '在本机 CPU 上',
    'on this {device}':
        '在这台 {device} 设备上',
    "Worth trying {where}: {names} (faster, paired interval above 1.00, in this alternation, by more than "
    "pooling's kernel time: remeasure before relying on the size; checked equal for LeNet-5's weights on one batch "
    "only).":
        '{where}值得一试：{names}（在本次交替计时中更快，配对区间高于 1.00，但快出的部分超过了池化的内核耗时，'
        '要依赖这个幅度之前请重新测量；只在一个批上检查过它对 LeNet-5 权重的梯度相等）。',
    # ---- lesson 08's results read together (course_utils/bench/experiments/findings.py)
    '{fix} {a:.1f} -> {b:.1f} steps/s, paired {med:.2f}x ({lo:.2f}-{hi:.2f}), {where}':
        '{fix}使速率从 {a:.1f} 变为 {b:.1f} 步/秒；逐轮配对为 {med:.2f} 倍（{lo:.2f}～{hi:.2f}），{where}',
    "Each fix on top of the other, paired round by round (repeat i of a case's process against repeat i of the "
    "other case's process in the same round; 95% interval):":
        '在已启用另一项设置的基础上，再单独加上这一项（逐轮配对：同一轮中，一种情形进程的第 i 次重复对另一种情形进程的'
        '第 i 次重复；95% 区间）：',
    'a tie (within the noise floor)':
        '持平（在噪声水平之内）',
    'undecided (beyond the noise floor, but the repeats overlap)':
        '无法判定（超出噪声水平，但各次重复的范围有重叠）',
    'faster (beyond the noise floor, repeats apart)':
        '更快（超出噪声水平，且各次重复的范围不重叠）',
    'slower (beyond the noise floor, repeats apart)':
        '更慢（超出噪声水平，且各次重复的范围不重叠）',
    'slower in this run':
        '本次运行中更慢',
    'faster in this run':
        '本次运行中更快',
    'no difference detected (1.00 inside the interval)':
        '没有测出差别（1.00 在区间之内）',
    "In part 2 ({case}), PyNative's TrainOneStepCell, where MindSpore 2.x starts, ran at {med:.2f}x the rate of "
    "{graph} (paired repeat by repeat, both timed in alternation in the same processes: {spread}): {where}.":
        '第 2 节（{case}）中，动态图模式（MindSpore 2.x 的默认模式）下的 TrainOneStepCell 的速度是{graph} 的 '
        '{med:.2f} 倍（两者在同一批进程中交替计时，逐次重复配对：{spread}）：{where}。',
    'In part 2 this configuration ran at {rate:.1f} steps/s, the fastest row.':
        '第 2 节中，这一配置为 {rate:.1f} 步/秒，是最快的一行。',
    '{label}, {case}':
        '{label}，{case}',
    "In part 2 this configuration ran at {rate:.1f} steps/s; the fastest row, {where}: {top:.1f}; "
    "the two differ in host blocking only, and "
    "part 2 paired them round by round: {said}":
        '第 2 节中，这一配置为 {rate:.1f} 步/秒；最快的一行是{where}，为 {top:.1f} 步/秒；两者只差在阻塞执行，第 2 节已把它们逐轮配对：{said}',
    "In part 2 this configuration ran at {rate:.1f} steps/s; the fastest row, {where}: {top:.1f}; "
    "the two ran in alternation in the same "
    "processes: paired repeat by repeat, the fastest row's rate over this one's, {said}":
        '第 2 节中，这一配置为 {rate:.1f} 步/秒；最快的一行是{where}，为 {top:.1f} 步/秒；两者在同一批进程中交替计时，'
        '逐次配对，最快一行的速度与这一行之比为 {said}',
    "With both fixes, {best} against {runner} (timed in alternation in the same processes), paired repeat by "
    "repeat: {said}.":
        '加上两项优化设置后，{best} 与{runner}相比（两者在同一批进程中交替计时），逐次配对：{said}。',
    "In part 2 this configuration ran at {rate:.1f} steps/s; the fastest row, {where}: {top:.1f}; "
    "part 2 did not pair these two, so only the "
    "medians against the noise floor compare them: {said}":
        '第 2 节中，这一配置为 {rate:.1f} 步/秒；最快的一行是{where}，为 {top:.1f} 步/秒；第 2 节没有把这两者配对，'
        '只能按噪声水平的判定（比较中位数）：{said}',
    'target {t:.1f}%':
        '目标 {t:.1f}%',
    'naive defaults':
        '未调优的默认配置',
    'naive: {s:.0f} s (measured)':
        '默认配置：{s:.0f} 秒（实测）',
    'naive: {s:.0f} s (estimated)':
        '默认配置：{s:.0f} 秒（估算）',
    'naive defaults to {t:.1f}%, estimated: {lo}-{hi} s (widened by the noise floor)':
        '默认配置达到 {t:.1f}%：估算 {lo}～{hi} 秒（按噪声水平放宽）',
    'the estimate before widening: about {s:.0f} s':
        '放宽前的估算：约 {s:.0f} 秒',
    'the estimate before widening: {lo:.0f}-{hi:.0f} s':
        '放宽前的估算：{lo:.0f}～{hi:.0f} 秒',
    'naive: {lo:.0f}-{hi:.0f} s (estimated)':
        '默认配置：{lo:.0f}～{hi:.0f} 秒（估算）',
    'training seconds':
        '训练时间（秒）',
    'test accuracy %':
        '测试准确率（%）',
    'Test accuracy vs training time':
        '测试准确率与训练时间',
    "A'":
        'A′',
    '{lo}-{hi}':
        '{lo}～{hi}',
    '{x:.1f}x':
        '{x:.1f} 倍',
    '{lo:.1f}-{hi:.1f}x':
        '{lo:.1f}～{hi:.1f} 倍',
    "{lo}-{hi}x": '{lo}～{hi} 倍',
    ", with the step count's own uncertainty and part 1's noise floor, to two figures":
        '，计入步数本身的不确定性和第 1 节的噪声水平，保留两位有效数字',
    "; {lo:.1f}-{hi:.1f}x with the step count's own uncertainty":
        '；计入步数本身的不确定性则为 {lo:.1f}～{hi:.1f} 倍',
    "Part 6: to {target:.1f}% the naive defaults needed about {x} the course settings' training time (estimated{wide}).":
        '第 6 节：达到 {target:.1f}% 时，未调优的默认配置的训练时间约为推荐配置的 {x}（估算值{wide}）。',
    "Part 6: to {target:.1f}% the naive defaults needed {x:.1f}x the course settings' training time (measured).":
        '第 6 节：达到 {target:.1f}% 时，未调优的默认配置的训练时间是推荐配置的 {x:.1f} 倍（实测）。',
    # ---- the lab, lesson 08's own sentences
    '95% interval {lo:.2f}-{hi:.2f}':
        '95% 区间 {lo:.2f}～{hi:.2f}',
    # ---- a paired interval named as it is: with few pairs, the lowest to the highest ratio
    '{n} pairs: lowest-highest ratio {lo:.2f}-{hi:.2f}':
        '{n} 对：各对的比值最低 {lo:.2f}，最高 {hi:.2f}',
    '{n} pairs, lowest-highest ratio {lo:.2f}-{hi:.2f}':
        '{n} 对，各对的比值最低 {lo:.2f}，最高 {hi:.2f}',
    '{n} pairs, 95% interval {lo:.2f}-{hi:.2f}':
        '{n} 对，95% 区间 {lo:.2f}～{hi:.2f}',
    "Each fix on top of the other, paired round by round (repeat i of a case's process against repeat i of the "
    "other case's process in the same round; {n} pairs, lowest-highest ratio):":
        '在已启用另一项设置的基础上，再单独加上这一项（逐轮配对：同一轮中，一种情形进程的第 i 次重复对另一种情形进程的'
        '第 i 次重复；共 {n} 对，括号内为各对的比值的最低～最高）：',
    'lowest-highest paired ratio {lo:.2f}-{hi:.2f}, above 1.00: faster':
        '配对比值最低 {lo:.2f}，最高 {hi:.2f}，高于 1.00：更快',
    'lowest-highest paired ratio {lo:.2f}-{hi:.2f}, below 1.00: slower':
        '配对比值最低 {lo:.2f}，最高 {hi:.2f}，低于 1.00：更慢',
    'lowest-highest paired ratio {lo:.2f}-{hi:.2f}, 1.00 inside: a tie':
        '配对比值最低 {lo:.2f}，最高 {hi:.2f}，包含 1.00：未测出差别',
    # ---- session 17: the verdict tables without floor columns; the fed step against both copies; sink mode
    'x {a} / {b}':
        '相对 {a} / {b} 的倍数',
    "; on CPU MindSpore falls back to the normal loop with only an INFO-level log, so the two rows run one loop: this "
    "gap is not sink mode's (it may come from the two Model instances or from their places in the alternation).":
        '。CPU 不支持数据下沉，MindSpore 只在 INFO 级日志中提示一句就改用普通循环，所以这两行跑的是同一个循环：'
        '这个差别不能归因于数据下沉（它可能来自两个 Model 实例本身，或它们在交替顺序中的位置）。',
    "Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} and {again:.0f} on the in-memory "
    "passes A and A' ({x:.2f}x A, {y:.2f}x A'): ":
        '由流水线供数时，训练步为 {fed:.0f} 步/秒；使用内存中的批的两遍 A 和 A′ 分别为 {mem:.0f} 和 {again:.0f} 步/秒'
        '（是 A 的 {x:.2f} 倍、A′ 的 {y:.2f} 倍）：',
    # ---- fix-l08l: one verdict line per experiment (the paired reading), the closing list one line each
    "the oneDNN and host-blocking traps concern MindSpore's CPU backend, not {device}":
        'oneDNN 陷阱和阻塞执行陷阱只涉及 MindSpore 的 CPU 后端，与 {device} 无关',
    "The naive baseline ({naive} without the CPU settings) ran at {naive_rate:.1f} steps/s; with the course's two "
    "fixes the same configuration ran at {fixed_rate:.1f}.":
        '未调优的默认配置（不加 CPU 优化设置）下，{naive} 为 {naive_rate:.1f} 步/秒；加上本课程的两项 CPU 优化设置后，'
        '同一配置为 {fixed_rate:.1f} 步/秒。',
    ' Paired round by round, the fixes made it {med:.2f}x as fast ({spread}), {where}.':
        '逐轮配对比较，两项设置使它的速度提高到 {med:.2f} 倍（{spread}），{where}。',
    "Faster here {where}: {names}, a candidate, not a default (paired interval above 1.00; checked equal for "
    "LeNet-5's weights on one batch only).":
        '{where}更快的是 {names}：可以作为候选，但不宜作为默认做法（配对区间高于 1.00；只在一个批上检查过它对 '
        'LeNet-5 权重的梯度相等）。',
    "Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} and {again:.0f} on the in-memory "
    "passes A and A'. ":
        '由流水线供数时，训练步为 {fed:.0f} 步/秒；使用内存中的批的两遍 A 和 A′ 分别为 {mem:.0f} 和 {again:.0f} 步/秒。',
    'Fed by the pipeline, the step ran at {fed:.0f} steps/s against {mem:.0f} on in-memory batches. ':
        '由流水线供数时，训练步为 {fed:.0f} 步/秒，使用内存中的批时为 {mem:.0f} 步/秒。',
    'Sink mode on against off, on {device}, paired round by round: {said}':
        '在 {device} 上，开启数据下沉模式与关闭时逐轮配对比较：{said}',
    'two CPU settings / naive defaults, same configuration (x, median of paired ratios)':
        '同一配置：两项 CPU 优化设置 / 未调优的默认配置（逐轮配对比值的中位数，倍）',
    "These are medians of the ratios paired round by round; the lines below are ratios of medians, each "
    "configuration over itself with no fixes: on a noisy machine the two can differ a lot.":
        '判定表中的“比值”是逐轮配对比值的中位数；下面几行则是中位数之比，即每种配置的速率中位数除以同一配置“不加优化设置”时的'
        '速率中位数：机器噪声大时，两者可能相差很多。',
    'lowest-highest ratio {lo:.2f}-{hi:.2f}':
        '比值最低 {lo:.2f}，最高 {hi:.2f}',
    '{name} {med:.2f}x ({spread}), {where}':
        '{name}：{med:.2f} 倍（{spread}），{where}',
    '{name}: -':
        '{name}：-',
    "Part 2, both CPU settings against neither, the naive configuration's step rate: {said}.":
        '第 2 节，静态图模式下的 TrainOneStepCell 加上两项 CPU 优化设置后，速度是不加时的 {said}。',
    "What this run can resolve: by part 1, two medians of one step can land up to {noise:.0f}% apart by chance, so "
    "read by their medians, differences below {noise:.0f}% cannot be resolved in this run; paired round by round, "
    "part 1's copies of one step still left up to {widest:.0f}% not ruled out.":
        '本次运行能分辨多大的差别：按第 1 节，同一个训练步两组重复的中位数仅凭偶然就可能相差 {noise:.0f}%，所以只比较中位数时，'
        '本次运行分辨不出小于 {noise:.0f}% 的差别；逐轮配对时，第 1 节同一个训练步的几份副本之间仍有最多 {widest:.0f}% '
        '的差别不能排除。',
    '{name} {x:.2f}x, {said}':
        '{name}：{x:.2f} 倍，{said}',
    'Part 2, host blocking on top of the ISA cap, step rate: {said}.':
        '第 2 节，在限制指令集的基础上再加阻塞执行，训练步速度：{said}。',
    'part 2: both CPU settings / neither (naive configuration)':
        '第 2 节：两项 CPU 优化设置 / 不加优化设置（静态图模式下的 TrainOneStepCell）',
    'part 2: + host blocking, {label}':
        '第 2 节：+ 阻塞执行，{label}',
    'part 3: {layer}, with the cap / without':
        '第 3 节：{layer}，限制指令集 / 不限制',
    'part 3: {name} / nn.MaxPool2d':
        '第 3 节：{name} / nn.MaxPool2d',
    'part 4: fed by the pipeline / in-memory':
        '第 4 节：由流水线供数 / 使用内存中的批',
    'part 5: {level} / O0':
        '第 5 节：{level} / O0',
    'part 5: O2 and O3 / O0 (one network)':
        '第 5 节：O2 与 O3 / O0（同一个网络）',
    '‡ five rounds or fewer: the interval is their lowest to highest ratio.':
        '‡ 不超过 5 轮：区间为各轮比值的最低～最高。',
    "above 1.00: feeding cannot do that, the machine changed (time again); part 4's verdict: 'recheck'":
        "高于 1.00：供数不可能让训练步变快，是机器状态变了（需要重新计时）；第 4 节的判定为 'recheck'",
    'Part 4, the step fed by the pipeline against the in-memory step: {said}':
        '第 4 节，由流水线供数的训练步与使用内存中的批相比：{said}',
    "Part 5, float16 on {device}, step rate over O0's: {said}.":
        '第 5 节，{device} 上的 float16，训练步速度相对 O0 的倍数：{said}。',
    # ---- lesson 08's verdict tables (one table per experiment, lesson 07's reading)
    '1.00 inside: not separated':
        '包含 1.00：分不出快慢',
    "in-memory pass A' / A (control)":
        "内存中的批 A′ / A（对照）",
    "apart: the rows against A and A' widened by its gap":
        '不含 1.00：与 A 和 A′ 比较的各行已按两份副本的差距放宽',
    "fed by the pipeline / in-memory (A and A')":
        "流水线供数 / 内存中的批（A 与 A′）",
    'Model.train, sink mode on / off (one loop on CPU: a control)':
        'Model.train，数据下沉开 / 关（CPU 上是同一个循环：对照）',
    'apart: a failed control':
        '不含 1.00：对照失败',
    "On CPU sink mode runs the normal loop, so 'sink mode on / off' is a second control, one loop timed twice: it "
    "held 1.00.":
        'CPU 上数据下沉运行的是普通循环，所以“数据下沉开 / 关”是第二个对照，即同一个循环计时两次：区间包含 1.00。',
    "On CPU sink mode runs the normal loop, so 'sink mode on / off' is a second control, one loop timed twice, and it "
    "left out 1.00 (copies up to {pct:.0f}% apart): noise or drift, since nothing differs between the two.":
        'CPU 上开启数据下沉运行的仍是普通循环，所以“数据下沉开 / 关”是同一个循环计时两次，即第二个对照。本次它的区间不含 1.00'
        '（两者相差可达 {pct:.0f}%）；两边本是同一个循环，这个差别只能来自噪声或漂移。',
    "Part 4 reads no difference smaller than its controls' larger distance from 1.00: {pct:.0f}%.":
        '两个对照中离 1.00 较远的那个相差 {pct:.0f}%，第 4 节不解读比这更小的差别。',
    "The verdict in one word (exercise 2's): 'not separated'. The interval's near end lies within the controls' "
    "{pct:.0f}%: this run cannot tell that difference from the gap between two runs of one configuration.":
        "判定词（练习 08.2 要返回的词）：'not separated'。区间靠近 1.00 的一端落在对照的 {pct:.0f}% 以内："
        '本次运行分不清这个差别与同一配置两次运行之间的差距。',
    "The interval's near end lies beyond the controls' {pct:.0f}%.":
        '区间靠近 1.00 的一端超出了对照的 {pct:.0f}%。',
    'Model.train, sink mode on / off':
        'Model.train，数据下沉开 / 关',
    "O0's copy / O0 (control)":
        'O0 的副本 / O0（对照）',
    '{level} / O0 and its copy':
        '{level} / O0 及其副本',
    '{level} {said}':
        '{level} {said}',
    'O2 and O3 are one network here (LeNet-5 has no normalisation layer for O2 to keep in float32; the next cell '
    'checks it), so their rows are two measurements of one step, read together as lesson 07 reads two copies: '
    '{lo:.2f}-{hi:.2f}, {said}.':
        'O2 和 O3 在这里是同一个网络（LeNet-5 没有需要 O2 保留为 float32 的归一化层；下一个单元格会验证），'
        '所以这两行是对同一个训练步的两次测量，按第 07 课对待两份副本的方式合起来读：{lo:.2f}～{hi:.2f}，{said}。',
    '{low}: accuracy {acc:.1f}% ({drop:.1f} points lower: check accuracy, not only speed)':
        '{low}：准确率 {acc:.1f}%（低了 {drop:.1f} 个百分点：不要只看速度，也要检查准确率）',
    'both fixes / no fixes: {label}':
        '两项 CPU 优化设置 / 不加优化设置：{label}',
    '+ ISA cap':
        '+ 限制指令集',
    '+ host blocking':
        '+ 阻塞执行',
    '{fix}: {label}':
        '{fix}：{label}',
    '{best} / {runner}, both fixes':
        '{best} / {runner}，两项 CPU 优化设置',
    "Each ratio is a step rate over a step rate, paired round by round: '+ ISA cap' adds the cap to host blocking, "
    "'+ host blocking' the reverse; the last row pairs two configurations timed in the same processes.":
        '每个比值都是两个训练步速率之比，逐轮配对：“+ 限制指令集”是在阻塞执行之上再限制指令集，'
        '“+ 阻塞执行”则反过来；最后一行配对的是在同一批进程中计时的两种配置。',
    "Each fix alone and both, step rate over the same configuration's with no fixes (ratios of medians):":
        '单独使用每项设置和两项同时使用时，训练步速率是同一配置“不加优化设置”时的几倍（中位数之比）：',
    '- {label}: the ISA cap alone {cap:.2f}x, host blocking alone {blocking:.2f}x, both {both:.2f}x':
        '- {label}：只限制指令集 {cap:.2f} 倍，只开阻塞执行 {blocking:.2f} 倍，两项都开 {both:.2f} 倍',
    '{layer}: with the cap / without':
        '{layer}：限制指令集 / 不限制',
    '{name} / {base}':
        '{name} / {base}',
    ' -> ':
        ' → ',
    '{name} / {base} (control)':
        '{name} / {base}（对照）',
    'apart: a rewrite within this gap is not read':
        '不含 1.00：落在这个差距以内的改写不作解读',
    "{name} saves {saved:.1f} ms per step here ({a:.1f} -> {b:.1f} ms, the medians of this block). All pooling "
    "(MaxPool and MaxPoolGrad) takes {pool:.1f} ms per step in the profile with the cap, ":
        '{name} 在这里每步节省 {saved:.1f} 毫秒（{a:.1f} → {b:.1f} 毫秒，本单元计时的中位数）。限制指令集的性能数据中，'
        '全部池化（MaxPool 和 MaxPoolGrad）每步耗时 {pool:.1f} 毫秒，',
    "so the saving is larger than all of pooling's kernel time. A rewrite also changes the compiled graph and its "
    "dispatch, and rates drift during an alternation.":
        '节省的时间比池化算子的全部耗时还多，不能全算作池化变快。改写还会改变编译后的图及其下发，而且一次交替计时之内速率也会漂移。',
    'and the saving is within it.':
        '节省的时间没有超出这个上限。',
    '{name}: {said}, so no saving is read.':
        '{name}：{said}，不解读它节省的时间。',
    "Pooling takes {share:.0f}% of operator time in the profile with the cap, so even free pooling kernels make the "
    "step at most 1 / (1 - {frac:.2f}) = {bound:.2f}x as fast; {name}'s {x:.2f}x ":
        '在限制指令集的性能数据中，池化占算子时间的 {share:.0f}%，所以即使池化算子完全不耗时，训练步最多也只能快到 '
        '1 / (1 - {frac:.2f}) = {bound:.2f} 倍；{name} 的 {x:.2f} 倍',
    'is more: a rewrite also changes the compiled graph and its dispatch, and rates drift during an alternation.':
        '超过了这个上限：改写还会改变编译后的图及其下发，而且在一次交替计时中速率也会漂移。',
    'reaches that bound.':
        '正好达到这个上限。',
    'stays under it.':
        '低于这个上限。',
    'fed by the pipeline / in-memory':
        '流水线供数 / 内存中的批',
    'above 1.00: feeding cannot do that, the machine changed (time again)':
        '高于 1.00：供数不可能让训练步变快，是机器状态变了（需要重新计时）',
    "Part 2 read host blocking on this step as slower ({med:.2f}x, {lo:.2f}-{hi:.2f}): there the ISA cap alone ran "
    "{cap:.1f} steps/s and both settings {both:.1f} (medians). Part 6 still trains with both, runtime.setup()'s "
    "defaults, as a learner's script would; its time to accuracy is that setting's.":
        '第 2 节判定阻塞执行让这个训练步变慢了（{med:.2f} 倍，{lo:.2f}-{hi:.2f}）：那里只限制指令集时为 {cap:.1f} 步/秒，'
        '两项设置都开时为 {both:.1f} 步/秒（中位数）。第 6 节仍按 runtime.setup() 的默认做法两项都开，与学习者自己的脚本一样；'
        '它的达标时间就是这种设置下的时间。',
    "The verdict in one word (exercise 2's): '{word}'.":
        "判定词（练习 08.2 要返回的词）：'{word}'。",
    "The verdict in one word (exercise 2's): 'costs'. The pipeline keeps up, yet the step it feeds ran {pct:.0f}% "
    "slower than on in-memory batches (the paired median). A likely cause, not measured here: the pipeline's worker "
    "threads run on the {cpus} cores the step computes on.":
        "判定词（练习 08.2 要返回的词）：'costs'。流水线跟得上，但由它供数的训练步比使用内存中的批时慢了 {pct:.0f}%"
        "（配对中位数）。一个可能的原因（本课未测量）：流水线的工作线程与训练步共用同样的 {cpus} 个核。",
    'MMACs':
        '百万次乘加',
    '% of MACs':
        '乘加占比（%）',
    '% time, no cap':
        '耗时占比（%，不限制）',
    'ns/MAC, no cap':
        '纳秒/乘加（不限制）',
    '% time, cap':
        '耗时占比（%，限制）',
    'ns/MAC, cap':
        '纳秒/乘加（限制）',
    'operator':
        '算子',
    'oneDNN primitives':
        'oneDNN 原语',
    'profiler ms/step':
        '性能分析工具，每步毫秒数',
    'oneDNN log ms/step':
        'oneDNN 日志，每步毫秒数',
    'Per MAC, the convolutions took {c0:.2f} ns without the cap and {c1:.2f} ns with it; the dense layers {d0:.2f} '
    'and {d1:.2f} ns.':
        '按每次乘加计，卷积层不限制指令集时用 {c0:.2f} 纳秒，限制时用 {c1:.2f} 纳秒；全连接层分别为 {d0:.2f} 和 {d1:.2f} 纳秒。',
    "Model.train, sink mode off / in-memory (A and A')":
        "Model.train，数据下沉关 / 内存中的批（A 与 A′）",
    'Model.train, sink mode off / in-memory':
        'Model.train，数据下沉关 / 内存中的批',
}
