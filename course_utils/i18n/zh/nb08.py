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
    "First the tie rule: the pipeline costs the step something only if the step on in-memory batches is faster than "
    "the fed step by more than noise_pct percent (bench.faster_beyond). If it does not, answer 'tie'. If it does, "
    "look at the pipeline alone: fewer batches per second than the step runs on in-memory batches means "
    "'bottleneck', otherwise 'costs'.":
        '先用持平规则：只有当使用内存中的批的训练步比由流水线供数的训练步快出 noise_pct%（相对差）以上时'
        '（bench.faster_beyond），流水线才算拖慢了训练步；否则回答 \'tie\'。如果确实拖慢了，再看流水线单独运行的速度：'
        '每秒产出的批数少于训练步使用内存中的批时每秒运行的步数，就是 \'bottleneck\'，否则是 \'costs\'。',
    'pipeline_verdict should be a function, got {type}.':
        'pipeline_verdict 应当是一个函数，得到的却是 {type}。',
    'pipeline_verdict(...) returned {got!r}; return one of {answers}.':
        'pipeline_verdict(...) 返回了 {got!r}；请返回 {answers} 之一。',
    'step {mem:g} steps/s on in-memory batches, {fed:g} fed by the pipeline, the pipeline alone {alone:g} '
    'batches/s, noise floor {noise:g}%':
        '训练步使用内存中的批时为 {mem:g} 步/秒，由流水线供数时为 {fed:g} 步/秒，流水线单独运行为 {alone:g} 批/秒，'
        '噪声水平 {noise:g}%',
    ' The fed step is within the noise floor of the in-memory one: a tie, whatever the pipeline\'s own rate.':
        '由流水线供数的训练步与使用内存中的批的训练步相差在噪声水平以内：持平，无论流水线自身的速度如何。',
    ' The pipeline alone delivers more batches than the step consumes: it keeps up, so it is not the bottleneck, '
    'yet feeding the step costs it part of its rate.':
        '流水线单独运行时产出的批数多于训练步的消耗：它跟得上，所以不是瓶颈，但为训练步供数时仍会拖慢它。',
    ' The pipeline alone delivers fewer batches per second than the step consumes.':
        '流水线单独运行时每秒产出的批数少于训练步每秒消耗的批数。',
    # q2's solution with its comments in Chinese
    ('def pipeline_verdict(in_memory, fed, alone, noise_pct):\n'
     '    if not bench.faster_beyond(in_memory, fed, noise_pct):\n'
     '        return "tie"            # within the noise floor: no measurable cost\n'
     '    if alone < in_memory:\n'
     '        return "bottleneck"     # it cannot deliver what the step consumes\n'
     '    return "costs"              # it keeps up, but its threads share the cores with the step'):
        ('def pipeline_verdict(in_memory, fed, alone, noise_pct):\n'
         '    if not bench.faster_beyond(in_memory, fed, noise_pct):\n'
         '        return "tie"            # 在噪声水平以内：没有可测量的代价\n'
         '    if alone < in_memory:\n'
         '        return "bottleneck"     # 它产出的批数跟不上训练步的消耗\n'
         '    return "costs"              # 它跟得上，但它的线程与训练步共用 CPU 核'),
}
