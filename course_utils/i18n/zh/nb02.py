"""Chinese messages (nb02): the checks of notebook 02's exercises (the functional training step)."""

MESSAGES = {
    # titles and hints (translated when shown)
    "a training step with has_aux": "使用 has_aux 的训练步",
    "clip by the global norm": "按全局范数裁剪梯度",
    "gradient accumulation": "梯度累加",
    "Inside build_train_step: define forward_fn(data, label) returning (loss, logits); grad_fn = "
    "ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True); then a @ms.jit train_step(data, label) "
    "that unpacks (loss, _), grads = grad_fn(data, label), applies the optimizer with ops.depend and returns the "
    "loss. Return train_step.":
        "在 build_train_step 内部：定义返回 (loss, logits) 的 forward_fn(data, label)；"
        "grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)；再定义一个带 @ms.jit 的 "
        "train_step(data, label)：用 (loss, _), grads = grad_fn(data, label) 解包，通过 ops.depend 调用优化器，"
        "并返回损失。最后返回 train_step。",
    "Start from your step of exercise 1 and insert one line between the gradients and the update: grads = "
    "ops.clip_by_global_norm(grads, max_norm). It rescales all gradients by the same factor min(1, max_norm / "
    "global_norm), so their direction is kept.":
        "从练习 1 的训练步出发，在求梯度与参数更新之间插入一行：grads = ops.clip_by_global_norm(grads, max_norm)。"
        "它把所有梯度乘以同一个系数 min(1, max_norm / global_norm)，因此梯度的方向保持不变。",
    "Clone zero buffers: accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros') (not 'accum': SGD "
    "uses that name). Compile two functions: one adds grad / k to every buffer (ops.assign_add), one applies "
    "optimizer(accum) and then zeroes the buffers (ops.assign). Count the calls in Python and run the second one "
    "every k-th call.":
        "克隆出全零的缓冲区：accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros')"
        "（不要用 'accum'：SGD 已经占用了这个名字）。编译两个函数：一个把 grad / k 累加到每个缓冲区"
        "（ops.assign_add），另一个先调用 optimizer(accum)，再将缓冲区清零（ops.assign）。在 Python 中统计调用次数，"
        "每到第 k 次调用就运行第二个函数。",
    # what a step returned
    "{what} returned a {kind} of {n} items; expected only the loss, a scalar Tensor.":
        "{what} 返回了一个含 {n} 个元素的 {kind}；期望只返回损失，即一个标量 Tensor。",
    "{what} returned {result}; expected the loss, a scalar Tensor.":
        "{what} 返回了 {result}；期望返回损失，即一个标量 Tensor。",
    "your builder returned a {kind}; expected a function step(data, label) (not a function).":
        "你的构建函数返回了一个 {kind}，它不是函数；期望返回一个函数 step(data, label)。",
    "calling step(data, label) raised RuntimeError: {message}":
        "调用 step(data, label) 时抛出了 RuntimeError：{message}",
    "the weights are right, but the step's code has no ops.depend, which this exercise asks for: compiled that way, "
    "MindSpore 2.10 warns 'Some side effect nodes were eliminated by mistake' (section 4).":
        "权重是对的，但训练步的代码中没有本练习要求的 ops.depend：这样编译时，MindSpore 2.10 会警告"
        "“Some side effect nodes were eliminated by mistake”（见第 4 节）。",
    # the update, compared with the expected SGD update
    "{what}: expected the SGD update (lr={lr}, weights moving by up to {moved:.3g}), got weights that did not change.":
        "{what}：期望得到 SGD 更新（lr={lr}，权重最多变化 {moved:.3g}），实际权重没有变化。",
    "{what}: expected the SGD update (lr={lr}); got {message}":
        "{what}：期望得到 SGD 更新（lr={lr}），实际得到的是{message}",
    "{what}: the weights differ from the expected SGD update (lr={lr}) by up to {diff:.3g}.":
        "{what}：权重与期望的 SGD 更新（lr={lr}）最多相差 {diff:.3g}。",
    # exercise 1
    "the update with the gradients of loss + logits.sum() instead of the loss's.":
        "用 loss + logits.sum() 的梯度（而不是损失的梯度）所做的更新。",
    "after one step": "执行一步之后",
    "the second step(data, label)": "第二次调用 step(data, label)",
    "the first call returned loss {loss:.6f}, expected {expected:.6f} (the Huber loss of the batch before the "
    "update).": "第一次调用返回的损失为 {loss:.6f}，期望为 {expected:.6f}（更新之前这批数据的 Huber 损失）。",
    "the second call returned loss {loss:.6f}, expected {expected:.6f} (the loss with the weights after the first "
    "update).": "第二次调用返回的损失为 {loss:.6f}，期望为 {expected:.6f}（第一次更新之后的权重下的损失）。",
    # exercise 2
    "the update with the gradients not clipped (their global norm is {norm:.3g} > max_norm {max_norm}).":
        "用未经裁剪的梯度所做的更新（梯度的全局范数为 {norm:.3g} > max_norm {max_norm}）。",
    "the update with each gradient tensor clipped on its own to max_norm (its direction differs from the global-norm "
    "clipped one).": "每个梯度张量各自裁剪到 max_norm 后所做的更新（其方向与按全局范数裁剪的结果不同）。",
    "with max_norm={max_norm}": "max_norm={max_norm} 时",
    "with max_norm={max_norm} (far above the gradient norm, so the update must be the unclipped one)":
        "max_norm={max_norm} 时（远大于梯度的范数，因此更新必须与未裁剪时相同）",
    # exercise 3
    "call {n}": "第 {n} 次调用",
    "call {n} returned loss {loss:.6f}, expected the micro-batch's loss {expected:.6f}.":
        "第 {n} 次调用返回的损失为 {loss:.6f}，期望为该微批的损失 {expected:.6f}。",
    "with k={k}: expected the weights unchanged until call {k}, got changed weights after call {n}.":
        "k={k} 时：期望权重在第 {k} 次调用之前保持不变，实际在第 {n} 次调用后权重已经改变。",
    "an update {k} times too large.": "大了 {k} 倍的更新。",
    "the update of only the last micro-batch's gradient.": "只用最后一个微批的梯度所做的更新。",
    "after {k} micro-batches (one batch of {size} split in {k})":
        "{k} 个微批之后（把一个大小为 {size} 的批拆成 {k} 份）",
    "an update that also contains the first round's gradients.": "还包含了第一轮梯度的更新。",
    "after {n} micro-batches (the second update)": "{n} 个微批之后（第二次更新）",

    # notebooks/scripts/no_depend.py (run by the lesson in a fresh process)
    "weights changed:": "权重是否改变：",
}
