"""Chinese messages (nb03): the checks of notebook 03's exercises (a clipping bound, an accumulating step, a loss-scaled
step that clips, parameter groups).

What both lessons' step builders say (the expected SGD update, ``ops.depend``, ...) is in ``nb02``."""

MESSAGES = {
    # titles and hints (translated when shown)
    "choose a clipping bound": "选定梯度裁剪上限",
    "gradient accumulation": "梯度累加",
    "Section 1 did this for one epoch. Which single number describes a typical step of the log, whatever a few spikes "
    "do (the mean and the maximum both move with them)? The bound then sits a margin above that number: below it, "
    "clipping shrinks ordinary steps like a smaller learning rate; far above, it never acts.":
        "第 1 节已经在一轮数据上做过这件事。日志里哪一个数最能代表普通的一步，而且几个尖峰几乎动不了它"
        "（均值和最大值都会被尖峰拉动）？上限就设在这个数之上，留出一定余量：设得比它低，裁剪会把普通的训练步也缩短，"
        "相当于调低了学习率；设得远高于它，裁剪又永远不起作用。",
    "Clone zero buffers: accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros') (not 'accum': SGD "
    "uses that name). Compile two functions: one adds grad / k to every buffer (ops.assign_add), one applies "
    "optimizer(accum) and then zeroes the buffers (ops.assign). Count the calls in Python and run the second one "
    "every k-th call.":
        "克隆出全零的缓冲区：accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros')"
        "（不要用 'accum'：SGD 已经占用了这个名字）。编译两个函数：一个把 grad / k 累加到每个缓冲区"
        "（ops.assign_add），另一个先调用 optimizer(accum)，再将缓冲区清零（ops.assign）。在 Python 中统计调用次数，"
        "每到第 k 次调用就运行第二个函数。",
    # exercise 03.1
    "log {n} ({steps} steps, ordinary norms around {level:.3g}, {spikes} spikes of {low:.3g} to {high:.3g})":
        "第 {n} 份日志（{steps} 步，普通训练步的范数在 {level:.3g} 上下，另有 {spikes} 个 {low:.3g} 到 {high:.3g} 的尖峰）",
    "{what}: choose_clip_norm returned {result}; expected one positive number.":
        "{what}：choose_clip_norm 返回了 {result}；期望返回一个正数。",
    "{what}: choose_clip_norm returned {bound}; expected a positive, finite bound.":
        "{what}：choose_clip_norm 返回了 {bound}；期望得到一个有限的正数上限。",
    "{what}: the bound {bound:.4g} clips {k} of the {m} ordinary steps ({share:.0%}), which then act as steps with a "
    "smaller learning rate; expected at most {limit:.0%} of them clipped.":
        "{what}：上限 {bound:.4g} 裁剪了 {m} 个普通训练步中的 {k} 个（{share:.0%}），这些步相当于用更小的学习率在训练；"
        "期望被裁剪的普通训练步不超过 {limit:.0%}。",
    "{what}: the bound {bound:.4g} lets {k} of the {s} spikes through unclipped (the largest {largest:.4g}); expected "
    "every spike cut.":
        "{what}：上限 {bound:.4g} 放过了 {s} 个尖峰中的 {k} 个，未加裁剪（其中最大的为 {largest:.4g}）；"
        "期望每个尖峰都被截断。",
    "# the spikes barely move the median": "# 几个尖峰几乎动不了中位数",
    "# a margin above it: ordinary steps pass, spikes are cut": "# 在它之上留出余量：普通的训练步通过，尖峰被截断",
    # exercise 03.2
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
    # exercise 03.3
    "a loss-scaled, clipped step": "使用损失缩放并裁剪梯度的训练步",
    "Section 5's scaled_step is the pattern, and the \"Putting them together\" cell gives the order: differentiate "
    "scaler.scale(loss) (with has_aux=True the true loss rides along), undo the scale on the gradients before "
    "anything looks at them, ask ms.amp.all_finite, clip, and only then let the optimizer run. Tell the scaler what "
    "happened (tied to the returned loss with ops.depend, like every update).":
        "照第 5 节的 scaled_step 来写，顺序见“组合起来”一节：对 scaler.scale(loss) 求导（用 has_aux=True "
        "把真实的损失一并带出），在检查梯度之前先去掉梯度上的缩放，再用 ms.amp.all_finite 检查，然后裁剪，"
        "最后才运行优化器。别忘了把结果告诉缩放器（和每次更新一样，用 ops.depend 把这次调用绑定到返回的损失上）。",
    "a finite step with the scale {scale:.0f}": "缩放系数为 {scale:.0f}、梯度有限的一步",
    "{what}: step(data, label) returned {loss:.6g}; expected the true (unscaled) loss {expected:.6g}.":
        "{what}：step(data, label) 返回 {loss:.6g}；期望得到真实的（未缩放的）损失 {expected:.6g}。",
    "an update {scale:.0f} times too large (the gradients still carry the scale).":
        "大了 {scale:.0f} 倍的更新（梯度上仍带着缩放系数）。",
    "a batch with a NaN feature (its gradients are not finite): expected the update skipped and the weights "
    "unchanged; got weights that changed ({n} of them NaN).":
        "一批含有 NaN 特征值的数据（其梯度不是有限值）：期望跳过这次更新、权重保持不变；实际权重改变了（其中 {n} 个为 NaN）。",
    "after the step with non-finite gradients the scale is {got:.0f}; expected {expected:.0f} (halved).":
        "梯度非有限的一步之后，缩放系数为 {got:.0f}；期望为 {expected:.0f}（减半）。",
    "the update with the gradients not clipped (their global norm is {norm:.3g} > max_norm {max_norm}).":
        "用未经裁剪的梯度所做的更新（梯度的全局范数为 {norm:.3g} > max_norm {max_norm}）。",
    "an update {scale:.0f} times too short: the gradients were clipped while they still carried the scale.":
        "缩短为 1/{scale:.0f} 的更新：梯度在仍带着缩放系数时就被裁剪了。",
    "the update with each gradient tensor clipped on its own to max_norm (its direction differs from the global-norm "
    "clipped one).": "每个梯度张量各自裁剪到 max_norm 后所做的更新（其方向与按全局范数裁剪的结果不同）。",
    "with max_norm={max_norm} and the scale {scale:.0f}": "max_norm={max_norm}、缩放系数为 {scale:.0f} 时",
    "# the true gradients, before anything looks at them": "# 先得到真实的梯度，再做任何检查",
    "# the bound is meant for the true gradients": "# 上限是为真实的梯度设定的",
    # exercise 03.4
    "parameter groups": "参数分组",
    "Section 4 built such a list by hand for bn_net. Three questions decide it. Which parameters may the optimizer "
    "hold at all (section 3: what does a frozen parameter leave)? What tells a weight matrix from a bias, gamma or "
    "beta without reading its name? In which order does value_and_grad return the gradients, and how does a group "
    "list keep it?":
        "第 4 节已经为 bn_net 手写过这样一个列表。要写对它，先回答三个问题：优化器究竟应该持有哪些参数"
        "（第 3 节：被冻结的参数会从哪里消失）？不看参数名，靠什么区分权重矩阵与偏置、gamma、beta？"
        "value_and_grad 按什么顺序返回梯度，分组列表又怎样保持这个顺序？",
    "build_param_groups(net, {wd}) returned {result}; expected a list of dicts (each with \"params\", or one with "
    "\"order_params\").":
        "build_param_groups(net, {wd}) 返回了 {result}；期望返回由字典组成的列表（每个字典含 \"params\"，"
        "或者是含 \"order_params\" 的那一个）。",
    "a group's \"params\" holds something that is not a Parameter; expected the network's Parameters.":
        "某个分组的 \"params\" 中有不是 Parameter 的对象；期望其中都是网络的 Parameter。",
    "these parameters are in more than one group: {names}; expected each in exactly one.":
        "这些参数出现在不止一个分组中：{names}；期望每个参数恰好属于一个分组。",
    "the groups hold {names}, which are not trainable (a frozen layer, BatchNorm's moving statistics); expected only "
    "net.trainable_params(): {trainable}.":
        "分组中含有 {names}，它们不可训练（被冻结的层、BatchNorm 的滑动统计量）；期望只含 net.trainable_params() "
        "中的参数：{trainable}。",
    "these trainable parameters are in no group, so the optimizer would never update them: {names}.":
        "这些可训练参数不在任何分组中，优化器永远不会更新它们：{names}。",
    "{optimizer} built from your groups holds the parameters in the order {held}; value_and_grad(forward_fn, None, "
    "net.trainable_params()) returns the gradients in the order {grads}, so a gradient would update another "
    "parameter.":
        "用你的分组构建的 {optimizer} 按 {held} 的顺序持有参数；而 value_and_grad(forward_fn, None, "
        "net.trainable_params()) 按 {grads} 的顺序返回梯度，于是梯度会被用来更新别的参数。",
    "nn.Momentum (lr={lr}) built from build_param_groups(net, {wd}), one call with zero gradients":
        "用 build_param_groups(net, {wd}) 构建的 nn.Momentum（lr={lr}），以全零梯度调用一次",
    "{what}: weight decay reached {names}; expected it to spare the biases, gamma and beta ({spared}).":
        "{what}：权重衰减作用到了 {names}；期望偏置、gamma 和 beta（{spared}）不受衰减。",
    "{what}: expected the weight matrices ({names}) to shrink by lr * weight_decay = {expected:.4g}; got {got}.":
        "{what}：期望权重矩阵（{names}）缩小 lr * weight_decay = {expected:.4g}；实际为 {got}。",
    "nn.Adam built from the same groups, one call with zero gradients: the parameters that moved are {got}; expected "
    "exactly the weight matrices {names}.":
        "用同一组分组构建的 nn.Adam，以全零梯度调用一次：发生变化的参数是 {got}；期望恰好是权重矩阵 {names}。",
    # the lesson's helpers (tables and plots its cells print)
    "global gradient norm": "全局梯度范数",
    "this batch": "这批数据",
    "one target +100": "一个目标值 +100",
    "global norm": "全局范数",
    "per-tensor norms": "各张量的范数",
    "cosine with the raw gradients": "与原始梯度的余弦相似度",
    "{batch} (bound {bound:.4f}):": "{batch}（上限 {bound:.4f}）：",
    "a second value_and_grad call on the big batch: max |diff| to the first = {gap:.1e} (fresh, not added up)":
        "对大批再调用一次 value_and_grad：与第一次相比的最大绝对差 = {gap:.1e}（全新的梯度，没有累加）",
    "{k} micro-batches of {micro} vs one batch of {size}:": "{k} 个大小为 {micro} 的微批与一个大小为 {size} 的大批相比：",
    "  mean of micro gradients - big-batch gradient: max |diff| = {gap:.1e}":
        "  微批梯度的均值与大批梯度相比：最大绝对差 = {gap:.1e}",
    "  sum  of micro gradients - big-batch gradient: max |diff| = {gap:.3f}   (the scaling mistake)":
        "  微批梯度的总和与大批梯度相比：最大绝对差 = {gap:.3f}（缩放错误）",
    "  one {name:4} step with the sum instead of the mean: the weights move {ratio:.2f}x as far":
        "  用总和代替均值，{name} 执行一步：权重移动的距离是用均值时的 {ratio:.2f} 倍",
    "largest float32 gradient {largest:.1e}, smallest nonzero {smallest:.1e}; {zeros} of {n} are 0":
        "float32 梯度：最大为 {largest:.1e}，最小的非零值为 {smallest:.1e}；{n} 个中有 {zeros} 个为 0",
    "loss scale": "缩放系数",
    "gradient values that are 0": "为 0 的梯度值",
    "relative error vs float32": "与 float32 相比的相对误差",
    "{zeros} of {n}": "{n} 个中有 {zeros} 个",
    "yes": "是",
    "no": "否",
    "finite grads": "梯度有限",
    "updated": "已更新",
    "finite gradients: updated": "梯度有限：已更新",
    "overflow: update skipped": "溢出：跳过更新",
    "ceiling: FP16_MAX / largest |gradient|": "上限：FP16_MAX / 最大的 |梯度|",
    "training step": "训练步",
    "DynamicLossScaler: the scale each step used": "DynamicLossScaler：每一步使用的缩放系数",
    # Solutions are code: only their comments are translated.
    "# frozen parameters are not in it": "# 被冻结的参数不在其中",
    "# weight matrices and convolution kernels": "# 权重矩阵和卷积核",
    "# biases, gamma and beta: one value per unit": "# 偏置、gamma 和 beta：每个单元一个值",
    "# the order of the gradients": "# 梯度的顺序",
}
