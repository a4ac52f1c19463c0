"""Chinese messages (nb03): the checks of notebook 03's exercises (a clipping bound, an accumulating step, a loss-scaled
step that clips, parameter groups).

What both lessons' step builders say (the expected SGD update, ``ops.depend``, ...) is in ``nb02``."""

MESSAGES = {
    # titles and hints (translated when shown)
    "choose a clipping bound": "选定梯度裁剪上限",
    "gradient accumulation": "梯度累加",
    "Section 1 read the bound off one epoch. Here the log keeps growing and the norm drifts, so which steps of the "
    "log still describe a typical step now? Which single number describes them, whatever a burst of spikes does (a "
    "mean and a maximum both jump with it)? The bound then sits a margin above that number: below it, clipping "
    "shrinks ordinary steps like a smaller learning rate; too far above, the smaller spikes get through.":
        "第 1 节根据一轮数据读出了上限。这里的记录不断变长，范数也在漂移：记录里哪些步仍能代表眼下普通的一步？"
        "用哪一个数来概括它们，才不会被一串尖峰带偏（均值和最大值都会随之跳高）？上限就设在这个数之上，留出一定余量："
        "设得比它低，裁剪会把普通的训练步也缩短，相当于调低了学习率；设得过高，较小的尖峰又会漏过去。",
    "Clone zero buffers: accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros') (not 'accum': SGD "
    "uses that name). Compile two functions: one adds grad / k to every buffer (ops.assign_add), one applies "
    "optimizer(accum) and then zeroes the buffers (ops.assign). Count the calls in Python and run the second one "
    "every k-th call.":
        "克隆出全零的缓冲区：accum = optimizer.parameters.clone(prefix='grad_accum', init='zeros')"
        "（不要用 'accum'：SGD 已经占用了这个名字）。编译两个函数：一个把 grad / k 累加到每个缓冲区"
        "（ops.assign_add），另一个先调用 optimizer(accum)，再将缓冲区清零（ops.assign）。在 Python 中统计调用次数，"
        "每到第 k 次调用就运行第二个函数。",
    # exercise 03.1
    "log {n} ({steps} steps; ordinary norms fall from about {start:.3g} to {end:.3g}; {s} spikes in bursts, 2 to 12 "
    "times the ordinary norm)":
        "第 {n} 份记录（{steps} 步；普通训练步的范数从约 {start:.3g} 降到 {end:.3g}；{s} 个尖峰成串出现，"
        "是普通范数的 2 到 12 倍）",
    "{log}, step {i} (your rule given steps 0 to {last})": "{log}，第 {i} 步（传给你的规则的是第 0 到第 {last} 步）",
    "{what}: choose_clip_norm returned {result}; expected one positive number.":
        "{what}：choose_clip_norm 返回了 {result}；期望返回一个正数。",
    "{what}: choose_clip_norm returned {bound:.4g}; expected a positive, finite bound.":
        "{what}：choose_clip_norm 返回了 {bound:.4g}；期望得到一个有限的正数上限。",
    "{what}: the bound {bound:.4g} lets a spike of {norm:.4g} through unclipped (the ordinary norm there is about "
    "{typical:.3g}); expected every spike cut.":
        "{what}：上限 {bound:.4g} 放过了一个 {norm:.4g} 的尖峰，未加裁剪（此处普通训练步的范数约为 {typical:.3g}）；"
        "期望每个尖峰都被截断。",
    "{log}: the bounds clip {k} of the {m} ordinary steps ({share:.1%}), which then act as steps with a smaller "
    "learning rate; expected at most {limit:.0%} of them clipped.":
        "{log}：这些上限裁剪了 {m} 个普通训练步中的 {k} 个（{share:.1%}），这些步相当于用更小的学习率在训练；"
        "期望被裁剪的普通训练步不超过 {limit:.0%}。",
    "# the norm drifts as the loss falls: only recent steps say what is typical":
        "# 范数随损失下降而漂移：只有最近的训练步才能说明眼下的典型值",
    "# the median ignores a burst of spikes; a margin above it": "# 中位数不受一串尖峰影响；在它之上留出余量",
    # exercise 03.2
    "call {n}": "第 {n} 次调用",
    "call {n} returned loss {loss:.6f}, expected the micro-batch's loss {expected:.6f}.":
        "第 {n} 次调用返回的损失为 {loss:.6f}，期望为该微批的损失 {expected:.6f}。",
    "with k={k}: expected the weights unchanged until call {k}, got changed weights after call {n}.":
        "k={k} 时：期望权重在第 {k} 次调用之前保持不变，实际在第 {n} 次调用后权重已经改变。",
    "an update {k} times too large.": "是正确更新 {k} 倍的更新。",
    "the update of only the last micro-batch's gradient.": "只用最后一个微批的梯度所做的更新。",
    "after {k} micro-batches (one batch of {size} split in {k})":
        "{k} 个微批之后（把一个大小为 {size} 的批拆成 {k} 份）",
    "an update that also contains the first window's gradients.": "还包含了第一个累加窗口梯度的更新。",
    "after {n} micro-batches (the second update)": "{n} 个微批之后（第二次更新）",
    # exercise 03.3
    "a loss-scaled, clipped step": "使用损失缩放并裁剪梯度的训练步",
    "Section 5's scaled_step is the pattern, and the \"Putting them together\" cell gives the order: differentiate "
    "scaler.scale(loss) (with has_aux=True the true loss rides along), undo the scale on the gradients before "
    "anything looks at them, ask ms.amp.all_finite, clip, and only then let the optimizer run. Tell the scaler what "
    "happened (tied to the returned loss with ops.depend, like every update).":
        "照第 5 节的 scaled_step 来写，顺序见“组合起来”一节：对 scaler.scale(loss) 求导（用 has_aux=True "
        "把真实的损失一并带出），在检查梯度之前先对梯度去缩放，再用 ms.amp.all_finite 检查，然后裁剪，"
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
    "the update with the gradients not clipped (their global norm is {norm:.3g} > clip_norm {clip_norm}).":
        "用未经裁剪的梯度所做的更新（梯度的全局范数为 {norm:.3g} > clip_norm {clip_norm}）。",
    "an update {scale:.0f} times too short: the gradients were clipped while they still carried the scale.":
        "缩短为 1/{scale:.0f} 的更新：梯度在仍带着缩放系数时就被裁剪了。",
    "the update with each gradient tensor clipped on its own to clip_norm (its direction differs from the global-norm "
    "clipped one).": "每个梯度张量各自裁剪到 clip_norm 后所做的更新（其方向与按全局范数裁剪的结果不同）。",
    "with clip_norm={clip_norm} and the scale {scale:.0f}": "clip_norm={clip_norm}、缩放系数为 {scale:.0f} 时",
    "# the true gradients, before anything looks at them": "# 先得到真实的梯度，再做任何检查",
    "# the bound is meant for the true gradients": "# 上限是为真实的梯度设定的",
    "# check, then clip and update": "# 先检查，再裁剪、更新",
    # exercise 03.4
    "parameter groups": "参数分组",
    "Section 4 built such a list by hand for bn_net; a group dict may also carry its own \"lr\". Four questions "
    "decide it. Which parameters may the optimizer hold at all (section 3: what does a frozen parameter leave)? What "
    "tells a weight matrix from a bias, gamma or beta without reading its name? How do you tell the backbone's "
    "parameters from the head's? In which order does value_and_grad return the gradients, and how does a group list "
    "keep it?":
        "第 4 节已经为 bn_net 手写过这样一个列表；分组字典还可以带上自己的 \"lr\"。要写对它，先回答四个问题："
        "优化器究竟应该持有哪些参数（第 3 节：被冻结的参数会从哪里消失）？不看参数名，靠什么区分权重矩阵与偏置、"
        "gamma、beta？怎样区分骨干网络的参数和头部的参数？value_and_grad 按什么顺序返回梯度，分组列表又怎样保持这个顺序？",
    "build_param_groups(net, net.backbone, {wd}, {lr}) returned {result}; expected a list of dicts (each with "
    "\"params\", or one with \"order_params\").":
        "build_param_groups(net, net.backbone, {wd}, {lr}) 返回了 {result}；期望返回由字典组成的列表（每个字典含 "
        "\"params\"，或者是含 \"order_params\" 的那一个）。",
    "a group's \"params\" holds something that is not a Parameter; expected the network's Parameters.":
        "某个分组的 \"params\" 中有不是 Parameter 的对象；期望其中都是网络的 Parameter。",
    "these parameters are in more than one group: {names}; expected each in exactly one.":
        "这些参数出现在不止一个分组中：{names}；期望每个参数恰好属于一个分组。",
    "the groups hold {names}, which are not trainable (a frozen layer, BatchNorm's moving statistics); expected only "
    "net.trainable_params(): {trainable}.":
        "分组中含有 {names}，它们不可训练（被冻结的层、BatchNorm 的动态均值和动态方差）；期望只含 net.trainable_params() "
        "中的参数：{trainable}。",
    "these trainable parameters are in no group, so the optimizer would never update them: {names}.":
        "这些可训练参数不在任何分组中，优化器永远不会更新它们：{names}。",
    "{optimizer} built from your groups holds the parameters in the order {held}; value_and_grad(forward_fn, None, "
    "net.trainable_params()) returns the gradients in the order {grads}, so a gradient would update another "
    "parameter.":
        "用你的分组构建的 {optimizer} 按 {held} 的顺序持有参数；而 value_and_grad(forward_fn, None, "
        "net.trainable_params()) 按 {grads} 的顺序返回梯度，于是梯度会被用来更新别的参数。",
    "nn.Momentum (lr={lr}) built from your groups, one call with zero gradients":
        "用你的分组构建的 nn.Momentum（lr={lr}），以全零梯度调用一次",
    "{what}: weight decay reached {names}; expected it to spare the biases, gamma and beta ({spared}).":
        "{what}：权重衰减作用到了 {names}；期望偏置、gamma 和 beta（{spared}）不受衰减。",
    "{what}: expected each weight matrix to shrink by its lr * weight_decay ({expected}); got {got}.":
        "{what}：期望每个权重矩阵缩小各自的 lr * weight_decay（{expected}）；实际为 {got}。",
    "nn.Adam (lr={lr}) built from your groups, one call with gradients of ones: each parameter moves by its learning "
    "rate. Expected {backbone_lr} for the backbone's parameters ({backbone}) and {lr} for the head's ({head}); got "
    "{got}.":
        "用你的分组构建的 nn.Adam（lr={lr}），以全 1 梯度调用一次：每个参数的变化量等于它的学习率。期望骨干网络的参数"
        "（{backbone}）为 {backbone_lr}，头部的参数（{head}）为 {lr}；实际为 {got}。",
    # course_utils.step_tables: the tables and figures the lesson's cells print
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
        "  微批梯度的总和与大批梯度相比：最大绝对差 = {gap:.3f}（未除以 k 的错误）",
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
    "ceiling: FP16_MAX / largest |gradient|": "溢出临界值：FP16_MAX / 最大的 |梯度|",
    "training step": "训练步",
    "DynamicLossScaler: the scale each step used": "DynamicLossScaler：每一步使用的缩放系数",
    "ordinary batches (one epoch)": "一轮中的普通批",
    "clip_norm": "裁剪上限 clip_norm",
    "global gradient norm (MSE)": "全局梯度范数（MSE 损失）",
    # Solutions are code: only their comments are translated.
    "# frozen parameters are not in it": "# 被冻结的参数不在其中",
    "# pretrained: a smaller lr": "# 预训练的部分：较小的学习率",
    "# the head: the optimizer's lr": "# 头部：优化器的学习率",
    "# weight matrices and kernels decay; biases, gamma and beta (one per unit) do not":
        "# 权重矩阵和卷积核做权重衰减；偏置、gamma 和 beta（每个单元一个）不做",
    "# the order of the gradients": "# 梯度的顺序",
}
