"""Chinese messages (nb02): the checks of notebook 02's exercises and what ``exercises.step_builders`` says for lessons
02 and 03 (the functional training step)."""

MESSAGES = {
    # titles and hints (translated when shown)
    "a training step with has_aux": "使用 has_aux 的训练步",
    "Inside build_train_step: define forward_fn(data, label) returning (loss, logits); grad_fn = "
    "ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True); then a @ms.jit train_step(data, label) "
    "that unpacks (loss, logits), grads = grad_fn(data, label), applies the optimizer with ops.depend and returns "
    "(loss, logits) if return_logits, else the loss. Return train_step.":
        "在 build_train_step 内部：定义返回 (loss, logits) 的 forward_fn(data, label)；"
        "grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)；再定义一个带 @ms.jit 的 "
        "train_step(data, label)：用 (loss, logits), grads = grad_fn(data, label) 解包，通过 ops.depend 调用优化器；"
        "return_logits 为真时返回 (loss, logits)，否则只返回损失。最后返回 train_step。",
    "the step comes from the course (make_train_step, or this exercise's own solution, called while the check ran); "
    "this exercise asks for the step written out: forward_fn, value_and_grad and the update (section 3).":
        "这个训练步来自课程（make_train_step，或本练习自带的参考答案，在检查过程中被调用了）；本练习要求自己写出"
        "训练步：forward_fn、value_and_grad 和参数更新（第 3 节）。",
    # exercise 02.1 with return_logits=True
    "with return_logits=True: build_train_step(net, loss_fn, optimizer, return_logits=True) raised TypeError: "
    "{message}":
        "return_logits=True 时：build_train_step(net, loss_fn, optimizer, return_logits=True) 抛出了 "
        "TypeError：{message}",
    "with return_logits=True: step(data, label) returned {got}; expected a pair (loss, logits).":
        "return_logits=True 时：step(data, label) 返回了 {got}；期望返回二元组 (loss, logits)。",
    "with return_logits=True, step(data, label)[0]": "return_logits=True 时，step(data, label)[0]",
    "with return_logits=True: the first call returned loss {loss:.6f}, expected {expected:.6f} (the Huber loss of "
    "the batch before the update).":
        "return_logits=True 时：第一次调用返回的损失为 {loss:.6f}，期望为 {expected:.6f}（更新前这一批的 Huber 损失）。",
    "with return_logits=True: the second item has shape {shape}; expected the logits, shape {want}.":
        "return_logits=True 时：第二个元素的形状为 {shape}；期望是 logits，形状为 {want}。",
    "the predictions after the update (a second forward pass), not those the loss was computed from.":
        "更新之后的预测值（又做了一次正向计算），而不是计算损失时用的预测值。",
    "values that are not the network's predictions for the batch.": "这些值不是网络对这一批的预测值。",
    "with return_logits=True: the logits differ from the batch's predictions before the update by up to "
    "{diff:.3g}: {which}":
        "return_logits=True 时：返回的 logits 与更新前这一批的预测值最多相差 {diff:.3g}，它们是{which}",
    "with return_logits=True, after one step": "return_logits=True 时，执行一步之后",
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
    # exercises 03.2 and 03.3 (step_builders.refuse_course_step): the step written out
    "the weights are right, but the step is the course's make_train_step (a TrainStep); this exercise asks for the "
    "step written out, as in section {section}.":
        "权重是对的，但这个训练步是课程封装好的 make_train_step（一个 TrainStep）；本练习要求像第 {section} 节那样"
        "自己写出训练步。",
    # exercise 02.1: the step written out, compiled
    "the weights are right, but the step is the course's make_train_step (a TrainStep); this exercise asks for the "
    "step written out: forward_fn, value_and_grad and the update (section 3).":
        "权重是对的，但这个训练步是课程封装好的 make_train_step（一个 TrainStep）；本练习要求自己写出训练步："
        "forward_fn、value_and_grad 和参数更新（见第 3 节）。",
    "the weights are right, but the step is not compiled: build_train_step returned {kind} {name!r} without "
    "@ms.jit; expected a function compiled with @ms.jit (section 3).":
        "权重是对的，但训练步没有经过编译：build_train_step 返回的是不带 @ms.jit 的 {kind} {name!r}；"
        "期望返回一个用 @ms.jit 编译的函数（见第 3 节）。",

    # exercise 02.2: the most sensitive features
    "the features the loss is most sensitive to": "损失最敏感的特征",
    "Section 2 shows the input gradient: a function of (data, label) that returns only the loss, differentiated "
    "with grad_position=0 and weights=None. Its gradient has data's shape (one row per sample): take the "
    "magnitude, average each column over the batch, and sort the columns (np.argsort sorts in increasing order).":
        "第 2 节展示了对输入的梯度：写一个只返回损失的函数 (data, label)，取 grad_position=0、weights=None 求导。"
        "得到的梯度与 data 形状相同（每个样本一行）：先取绝对值，再对每一列在这批数据上求平均，最后给各列排序"
        "（np.argsort 按从小到大排序）。",
    "the features with the largest signed mean gradient: gradients of opposite sign cancel in a signed mean.":
        "这是带符号的平均梯度最大的那些特征：符号相反的梯度在带符号的平均值中会相互抵消。",
    "the ranking by the magnitude of the mean gradient, |mean|: gradients of opposite sign cancel before the "
    "magnitude is taken.":
        "这是按平均梯度的绝对值 |mean| 排出的顺序：取绝对值之前，符号相反的梯度已经相互抵消了。",
    "the ranking by the largest magnitude in each column, not by the mean over the batch.":
        "这是按每列中绝对值的最大值排出的顺序，而不是按这批数据上的平均值。",
    "the ranking of the first sample's gradient only, not of the batch.":
        "这只是第一个样本的梯度的排序，而不是在这批数据上求平均后的排序。",
    "the ranking by the gradients of loss + logits.sum(): the function you differentiated returns two outputs, "
    "and MindSpore differentiates their sum (section 2).":
        "这是按 loss + logits.sum() 的梯度排出的顺序：你求导的函数返回了两个输出，MindSpore 对它们的和求导（见第 2 节）。",
    "the least sensitive features first.": "最不敏感的特征排在了最前。",
    "most_sensitive_features(..., k={k}) returned {got}; expected a list of {k} feature indices (ints), most "
    "sensitive first.":
        "most_sensitive_features(..., k={k}) 返回了 {got}；期望返回由 {k} 个特征下标（整数）组成的列表，最敏感的排在最前。",
    "a value of type {kind} with shape {shape}": "一个形状为 {shape} 的 {kind} 值",
    "most_sensitive_features(..., k={k}) returned {n} indices {got}; expected {k}.":
        "most_sensitive_features(..., k={k}) 返回了 {n} 个下标 {got}；期望 {k} 个。",
    "with k={k}: expected {want}, got {got}, {message}": "k={k} 时：期望 {want}，实际得到 {got}，{message}",
    "with k={k}: expected the features {want} (mean |d loss / d data| over the batch, largest first), got {got}.":
        "k={k} 时：期望得到特征 {want}（按这批数据上 |d loss / d data| 的平均值从大到小排列），实际得到 {got}。",
    "# d loss / d data, data's shape": "# d loss / d data，形状与 data 相同",
    "# one number per feature": "# 每个特征一个数",

    # exercise 02.3: the epoch loop
    "the epoch loop": "轮次循环",
    "Section 5 shows the trap and its fix: how many iterators does the whole run need, for how many epochs, and "
    "where is it made? Each `for data, label in ...` over it is one epoch; float(loss) turns a step's loss into a "
    "number. A step's loss is the mean over its batch, and the last batch is smaller: weight each loss by "
    "label.shape[0] and divide by the epoch's samples.":
        "第 5 节展示了这个陷阱及其解决办法：整个训练需要几个迭代器？它要覆盖多少轮？应该在哪里创建？"
        "对它的每一次 `for data, label in ...` 遍历就是一轮；float(loss) 把一个训练步的损失变成数值。"
        "一个训练步的损失是这一批样本的平均值，而最后一批更小：用 label.shape[0] 给每个损失加权，再除以这一轮的样本数。",
    "after {n} steps the data set raised RuntimeError: 'User tries to fetch data beyond the specified number of "
    "epochs': the iterator was made for fewer epochs than the loop runs ({epochs}).":
        "执行 {n} 步之后，数据集抛出了 RuntimeError：“User tries to fetch data beyond the specified number of "
        "epochs”：创建迭代器时指定的轮次数少于循环实际运行的轮次数（{epochs}）。",
    "the step ran {n} times; expected {want} ({epochs} epochs of {batches} batches).":
        "训练步运行了 {n} 次；期望 {want} 次（{epochs} 轮，每轮 {batches} 批）。",
    "every epoch saw the batches in the same order (first labels {order}): the seeded shuffle started again each "
    "epoch, as with a new iterator per epoch (section 5).":
        "每一轮看到的批顺序都相同（各批的第一个标签为 {order}）：带种子的混洗每轮都从头开始，"
        "就像每轮新建一个迭代器那样（见第 5 节）。",
    "run_epochs returned {got}; expected a list of {epochs} numbers, the mean loss of each epoch.":
        "run_epochs 返回了 {got}；期望返回由 {epochs} 个数组成的列表，即每轮的平均损失。",
    "the plain mean of the epoch's batch losses: the last batch has {last} samples, not {batch}, and a step's loss "
    "is the mean over its batch, so each batch counts as many times as it has samples.":
        "这一轮各批损失的简单平均值：最后一批只有 {last} 个样本，而不是 {batch} 个；一个训练步的损失是这一批样本的"
        "平均值，所以每一批应按它的样本数计入。",
    "the sum of each epoch's losses, not their mean.": "每轮损失之和，而不是平均值。",
    "the loss of each epoch's last step, not the mean.": "每轮最后一步的损失，而不是平均值。",
    "the mean of all losses so far, not of the epoch's.": "到目前为止所有损失的平均值，而不是这一轮的平均值。",
    "the stand-in step returned the losses {losses}; expected the epoch means {want}, got {got}, {message}":
        "替身训练步返回的损失依次为 {losses}；期望的每轮平均值为 {want}，实际得到 {got}，这是{message}",
    "the stand-in step returned the losses {losses}; expected the epoch means {want}, got {got}.":
        "替身训练步返回的损失依次为 {losses}；期望的每轮平均值为 {want}，实际得到 {got}。",
    "# one iterator for the whole run": "# 整个训练只用一个迭代器",
    "# one pass = one epoch": "# 遍历一次 = 一轮",
}
