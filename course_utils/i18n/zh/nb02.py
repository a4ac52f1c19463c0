"""Chinese messages (nb02): the checks of notebook 02's exercise and what ``exercises.step_builders`` says for lessons
02 and 03 (the functional training step)."""

MESSAGES = {
    # titles and hints (translated when shown)
    "a training step with has_aux": "使用 has_aux 的训练步",
    "Inside build_train_step: define forward_fn(data, label) returning (loss, logits); grad_fn = "
    "ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True); then a @ms.jit train_step(data, label) "
    "that unpacks (loss, _), grads = grad_fn(data, label), applies the optimizer with ops.depend and returns the "
    "loss. Return train_step.":
        "在 build_train_step 内部：定义返回 (loss, logits) 的 forward_fn(data, label)；"
        "grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)；再定义一个带 @ms.jit 的 "
        "train_step(data, label)：用 (loss, _), grads = grad_fn(data, label) 解包，通过 ops.depend 调用优化器，"
        "并返回损失。最后返回 train_step。",
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
    "MindSpore 2.10 warns 'Some side effect nodes were eliminated by mistake' (lesson 02, section 4).":
        "权重是对的，但训练步的代码中没有本练习要求的 ops.depend：这样编译时，MindSpore 2.10 会警告"
        "“Some side effect nodes were eliminated by mistake”（见第 02 课第 4 节）。",
    # the update, compared with the expected SGD update
    "{what}: expected the SGD update (lr={lr}, weights moving by up to {moved:.3g}), got weights that did not change.":
        "{what}：期望得到 SGD 更新（lr={lr}，权重最多变化 {moved:.3g}），实际权重没有变化。",
    "{what}: expected the SGD update (lr={lr}); got {message}":
        "{what}：期望得到 SGD 更新（lr={lr}），实际得到的是{message}",
    "{what}: the weights differ from the expected SGD update (lr={lr}) by up to {diff:.3g}.":
        "{what}：权重与期望的 SGD 更新（lr={lr}）最多相差 {diff:.3g}。",
    # exercise 02.1
    "the update with the gradients of loss + logits.sum() instead of the loss's.":
        "用 loss + logits.sum() 的梯度（而不是损失的梯度）所做的更新。",
    "after one step": "执行一步之后",
    "the second step(data, label)": "第二次调用 step(data, label)",
    "the first call returned loss {loss:.6f}, expected {expected:.6f} (the Huber loss of the batch before the "
    "update).": "第一次调用返回的损失为 {loss:.6f}，期望为 {expected:.6f}（更新之前这批数据的 Huber 损失）。",
    "the second call returned loss {loss:.6f}, expected {expected:.6f} (the loss with the weights after the first "
    "update).": "第二次调用返回的损失为 {loss:.6f}，期望为 {expected:.6f}（第一次更新之后的权重下的损失）。",

    # notebooks/scripts/no_depend.py (run by the lesson in a fresh process)
    "the weights changed (the update ran)": "权重改变了（参数更新执行了）",
    "the weights did not change (the update was dropped)": "权重没有改变（参数更新被丢弃了）",
    "the gradient with respect to the input": "对输入的梯度",
    "Write a function of (data, label) that returns only the loss, then ms.value_and_grad with "
    "grad_position=0 (data is input 0) and weights=None; it returns (loss, gradient).":
        "写一个只返回损失的函数 (data, label)，再对它调用 ms.value_and_grad，取 grad_position=0（data 是第 0 个输入）、"
        "weights=None；它返回 (loss, gradient)。",
    "input_gradient(net, loss_fn, data, label) returned {got}; expected one Tensor of "
    "data's shape {shape}.":
        "input_gradient(net, loss_fn, data, label) 返回了 {got}；期望返回一个形状与 data 相同（{shape}）的 Tensor。",
    "the gradient has shape {got}, expected data's shape {shape} (label's shape is "
    "{label}).":
        "梯度的形状为 {got}，期望与 data 的形状 {shape} 相同（label 的形状为 {label}）。",
    "these are the gradients of loss + logits.sum(): the function you differentiated "
    "returns two outputs, and MindSpore differentiates their sum (section 2).":
        "这是 loss + logits.sum() 的梯度：你求导的函数返回了两个输出，MindSpore 对它们的和求导（见第 2 节）。",
    "the gradient differs from d loss / d data by up to {gap:.3g}.":
        "该梯度与 d loss / d data 最多相差 {gap:.3g}。",
}
