"""Chinese messages (nb04): the checks, titles, hints and commented solutions of lesson 04's exercises."""

MESSAGES = {
    # ---- shared by the checks
    "`{name}` should be a class (class {name}({base_name}): ...), got {got}.":
        "`{name}` 应该是一个类（class {name}({base_name}): ...），实际得到 {got}。",
    "{name} should derive from {base_name}: {why}.": "{name} 应该继承 {base_name}：{why}。",
    "it stores the backbone and the loss, and Model/TrainOneStepCell know how to use it":
        "它保存主干网络和损失函数，Model 和 TrainOneStepCell 都知道如何使用它",
    "reuse its self.network, self.weights, self.optimizer and gradient operations":
        "这样才能复用它的 self.network、self.weights、self.optimizer 和求梯度的操作",
    "{label} returned a {kind} of {n} values; expected one scalar tensor, the loss.":
        "{label} 返回了一个包含 {n} 个值的 {kind}；期望的是一个标量张量，即损失。",
    "{label} returned {value} ({kind}); return a MindSpore tensor.":
        "{label} 返回了 {value}（{kind}）；请返回一个 MindSpore 张量。",
    "{label} returned shape {shape}; expected a scalar loss (shape ()).":
        "{label} 返回的形状是 {shape}；期望的是标量损失（形状为 ()）。",

    # ---- q1: WithLossCell for two outputs
    "WithLossCell for two outputs": "双输出网络的 WithLossCell",
    "Subclass nn.WithLossCell. In __init__(self, backbone, loss_fn, aux_weight=0.4) call "
    "super().__init__(backbone, loss_fn) first (it sets up the Cell and stores self._backbone and "
    "self._loss_fn), then keep aux_weight. In construct(self, data, label): main, aux = "
    "self._backbone(data); return self._loss_fn(main, label) + self.aux_weight * self._loss_fn(aux, label).":
        "继承 nn.WithLossCell。在 __init__(self, backbone, loss_fn, aux_weight=0.4) 中首先调用 "
        "super().__init__(backbone, loss_fn)（它完成 Cell 的初始化，并保存 self._backbone 和 self._loss_fn），"
        "然后保存 aux_weight。在 construct(self, data, label) 中：main, aux = self._backbone(data)；"
        "return self._loss_fn(main, label) + self.aux_weight * self._loss_fn(aux, label)。",
    "TwoHeadWithLoss({args}) failed: {msg} (the error of section 3's ForgotSuperInit).":
        "TwoHeadWithLoss({args}) 失败：{msg}（就是第 3 节 ForgotSuperInit 的那个错误）。",
    "TwoHeadWithLoss({args}) failed with TypeError: {msg}.":
        "TwoHeadWithLoss({args}) 失败，抛出 TypeError：{msg}。",
    "TwoHeadWithLoss(net, ...).backbone_network is not the network passed in; expected the same object.":
        "TwoHeadWithLoss(net, ...).backbone_network 不是传入的网络；期望是同一个对象。",
    "the loss cell's trainable parameters: expected exactly the network's {expected}, got {got}.":
        "损失 Cell 的可训练参数：期望恰好是网络的 {expected}，实际得到 {got}。",
    " (That is the main head's loss alone.)": "（这只是主输出头的损失。）",
    " (That is main + aux with weight 1.)": "（这是权重为 1 时的 main + aux。）",
    " (That is aux_weight times the main loss, plus the aux loss.)":
        "（这是 aux_weight 乘以主输出头的损失，再加上辅助输出头的损失。）",
    "{label}: expected main loss {main} + {weight} * aux loss {aux} = {expected}, got {got}.{hint}":
        "{label}：期望主输出头损失 {main} + {weight} * 辅助输出头损失 {aux} = {expected}，实际得到 {got}。{hint}",
    "without aux_weight the loss should use the default 0.4: expected {expected}, got {got}.":
        "不传 aux_weight 时，损失应使用默认值 0.4：期望 {expected}，实际得到 {got}。",
    "one training step left the auxiliary head unchanged: its output does not reach the loss.":
        "训练一步之后，辅助输出头没有变化：它的输出没有进入损失。",
    "the second training step": "第二个训练步",
    "training with your loss cell did not lower the loss ({first} -> {second}).":
        "用你的损失 Cell 训练没有降低损失（{first} -> {second}）。",

    # ---- q2: clip gradient values in a TrainOneStepCell
    "clip gradient values in a TrainOneStepCell": "在 TrainOneStepCell 中按值裁剪梯度",
    "Subclass nn.TrainOneStepCell: __init__ calls super().__init__(network, optimizer, sens=loss_scale) and keeps "
    "clip_value and loss_scale. construct(self, *inputs) starts like the parent's (loss, sens = ops.fill(...), "
    "grads = self.grad(self.network, self.weights)(*inputs, sens)); those gradients are loss_scale times the real "
    "ones: divide each by self.loss_scale first, then grads = ops.clip_by_value(grads, -self.clip_value, "
    "self.clip_value); finally loss = ops.depend(loss, self.optimizer(grads)); return loss.":
        "继承 nn.TrainOneStepCell：__init__ 调用 super().__init__(network, optimizer, sens=loss_scale)，并保存 "
        "clip_value 和 loss_scale。construct(self, *inputs) 的开头与父类相同（loss、sens = ops.fill(...)、"
        "grads = self.grad(self.network, self.weights)(*inputs, sens)）；这些梯度是真实梯度的 loss_scale 倍："
        "先把每个梯度除以 self.loss_scale，再裁剪：grads = ops.clip_by_value(grads, -self.clip_value, "
        "self.clip_value)；最后 loss = ops.depend(loss, self.optimizer(grads))；return loss。",
    "ClipValueTrainStep{args} failed with TypeError: {msg}. The class takes "
    "(network, optimizer, clip_value=1.0, loss_scale=1.0).":
        "ClipValueTrainStep{args} 失败，抛出 TypeError：{msg}。这个类的参数是 "
        "(network, optimizer, clip_value=1.0, loss_scale=1.0)。",
    "ClipValueTrainStep{args}.sens is {got}; expected {scale}: pass sens=loss_scale to nn.TrainOneStepCell.__init__, "
    "so that backpropagation starts from the loss scale.":
        "ClipValueTrainStep{args}.sens 为 {got}；期望 {scale}：把 sens=loss_scale 传给 nn.TrainOneStepCell.__init__，"
        "让反向传播从损失缩放系数开始。",
    " (That is the update with gradients clipped while still scaled, then divided by the scale: divide first, "
    "then clip.)":
        "（这是在梯度仍处于缩放状态时裁剪、再除以缩放系数得到的更新：应当先除回，再裁剪。）",
    " (That is the update with the scaled gradients: divide them by loss_scale before clipping.)":
        "（这是用缩放后的梯度做的更新：裁剪之前要先除以 loss_scale。）",
    "ClipValueTrainStep{args}(x, y) returned {got}; expected the loss before the update, {expected}, as "
    "TrainOneStepCell does.":
        "ClipValueTrainStep{args}(x, y) 返回了 {got}；期望像 TrainOneStepCell 一样返回更新之前的损失 {expected}。",
    "after ClipValueTrainStep{args}(x, y) the weights did not change; expected an SGD update with the clipped "
    "gradients.":
        "执行 ClipValueTrainStep{args}(x, y) 之后权重没有变化；期望用裁剪后的梯度做一次 SGD 更新。",
    " (That is the update with the unclipped gradients.)": "（这是用未裁剪的梯度做的更新。）",
    " (That is the update with the gradients clipped by their global norm.)":
        "（这是按全局范数裁剪梯度后做的更新。）",
    " (Without a clip_value argument the clipping bound should be 1.0.)":
        "（不传 clip_value 参数时，裁剪边界应为 1.0。）",
    "after ClipValueTrainStep{args}(x, y), parameter {name} moved by {got}; expected -lr * clip(gradient, {low}, "
    "{high}) = {expected}.{hint}":
        "执行 ClipValueTrainStep{args}(x, y) 之后，参数 {name} 的变化量为 {got}；期望 -lr * clip(gradient, {low}, "
        "{high}) = {expected}。{hint}",

    # ---- q3: early stopping on a recorded curve
    "early stopping on a recorded curve": "在记录下来的曲线上判断早停",
    "Walk through the curve with a best value and a counter. Epoch numbers start at 1. With mode='min' an "
    "epoch improves when value < best - min_delta, with mode='max' when value > best + min_delta (or: "
    "multiply the values by -1 and treat them like a loss). On an improvement best = value, best_epoch = "
    "epoch and the counter goes back to 0; otherwise the counter grows by one, and when it reaches "
    "patience, that epoch is where training stops. If the curve ends first, stop_epoch is None.":
        "遍历曲线，维护一个最佳值和一个计数器。轮次编号从 1 开始。mode='min' 时，value < best - min_delta "
        "的轮次有改善；mode='max' 时，value > best + min_delta 的轮次有改善（也可以把数值乘以 -1，当作损失处理）。"
        "有改善时令 best = value、best_epoch = epoch，计数器归 0；否则计数器加 1，当它达到 patience 时，"
        "训练就在这个轮次之后停止。如果曲线先结束，stop_epoch 为 None。",
    "{call} failed with TypeError: {msg}. The function takes (values, patience, min_delta=0.0, mode=\"min\").":
        "{call} 失败，抛出 TypeError：{msg}。这个函数的参数是 (values, patience, min_delta=0.0, mode=\"min\")。",
    " (That is the answer for mode='min': with mode='max' a higher value is better.)":
        "（这是 mode='min' 时的答案：mode='max' 时数值越大越好。）",
    "`early_stopping_epochs` should be a function, got {got}.": "`early_stopping_epochs` 应该是一个函数，实际得到 {got}。",
    "{call} returned {got}; return a pair (best_epoch, stop_epoch).":
        "{call} 返回了 {got}；请返回一个二元组 (best_epoch, stop_epoch)。",
    " (Each epoch number is one less than expected.)": "（每个轮次编号都比期望值小 1。）",
    " This case: {about}.": "本例考查的是：{about}。",
    "{call}: expected (best_epoch, stop_epoch) = {expected}, got {got}.{hint}":
        "{call}：期望 (best_epoch, stop_epoch) = {expected}，实际得到 {got}。{hint}",
    "a typical U-shaped validation curve": "一条典型的 U 形验证曲线",
    "an improvement resets the count": "一次改善会让计数归零",
    "a tie (equal value) is not an improvement": "持平（数值相等）不算改善",
    "a curve that keeps improving: never stops": "一条持续改善的曲线：永远不停止",
    "min_delta: 0.95 and 0.93 are not better than 1.0 by more than 0.1":
        "min_delta：0.95 和 0.93 都没有比 1.0 好出 0.1 以上",
    "patience=1: stop at the first epoch without improvement": "patience=1：在第一个没有改善的轮次停止",
    "an accuracy curve, mode='max': higher is better": "一条准确率曲线，mode='max'：数值越大越好",
    "mode='max' with min_delta: an epoch improves when it is above best + min_delta; a tie does not":
        "mode='max' 加 min_delta：数值高于 best + min_delta 的轮次才算有改善；持平不算",

    # ---- q4: a callback that stops on a NaN loss
    "a callback that stops on a NaN loss": "遇到 NaN 损失就停止训练的回调",
    "Subclass mindspore.train.Callback and define on_train_step_end(self, run_context). The step's loss is "
    "run_context.original_args().net_outputs (a tensor); when not np.isfinite(loss.asnumpy()).all() (NaN or "
    "inf), call run_context.request_stop(). Model.train checks the request right after every step, so do not "
    "raise: an exception escapes Model.train.":
        "继承 mindspore.train.Callback，定义 on_train_step_end(self, run_context)。这一步的损失是 "
        "run_context.original_args().net_outputs（一个张量）；当 not np.isfinite(loss.asnumpy()).all()（NaN 或 "
        "inf）时，调用 run_context.request_stop()。Model.train 在每一步之后立即检查这个请求，所以不要抛出异常："
        "异常会穿出 Model.train。",
    "Model.train calls the hooks of Callback objects": "Model.train 调用的是 Callback 对象的钩子方法",
    "Model.train raised {kind}: {msg}. An exception escapes Model.train, like section "
    "7.1's StopIteration; call run_context.request_stop() instead.":
        "Model.train 抛出了 {kind}：{msg}。异常会穿出 Model.train，就像 7.1 节的 StopIteration 一样；"
        "请改为调用 run_context.request_stop()。",
    "on a run whose losses are all finite, training stopped after step {got} of {total}; "
    "stop only on a NaN or infinite loss.":
        "在损失全部有限的一次训练中，训练在第 {got} 步（共 {total} 步）之后就停止了；"
        "只应在损失为 NaN 或无穷大时停止。",
    "a NaN loss": "损失为 NaN",
    "an infinite loss": "损失为无穷大",
    " (It stopped on a finite loss.)": "（它在损失有限时就停止了。）",
    " (The inf loss itself did not stop it: test np.isfinite, which is False for NaN and "
    "for inf, not only np.isnan.)":
        "（无穷大的损失本身没有让它停下：请用 np.isfinite 判断，它对 NaN 和 inf 都返回 False，"
        "不要只用 np.isnan。）",
    " (It never stopped: call run_context.request_stop() when the loss is not finite.)":
        "（它始终没有停止：损失不是有限值时，请调用 run_context.request_stop()。）",
    " (That is the end of the epoch: check the loss in on_train_step_end, not in "
    "on_train_epoch_end.)":
        "（这是轮次结束的位置：请在 on_train_step_end 中检查损失，而不是在 on_train_epoch_end 中。）",
    "step {bad} has {what}; expected training to stop right after it (steps run: {bad}), "
    "but {got} of {total} steps ran.{hint}":
        "第 {bad} 步{what}；期望训练在这一步之后立即停止（运行 {bad} 步），"
        "实际运行了 {got} 步（共 {total} 步）。{hint}",

    # ---- the lesson's figure (plot_early_stopping, section 7.2)
    "batch loss": "每批的损失",
    "step": "步",
    "training loss (batch)": "训练损失（每批）",
    "The article's rule stops here": "LeNet 文章的规则在这里停止",
    "StopIteration (step {step})": "StopIteration（第 {step} 步）",
    "validation loss, never stopped": "验证损失，从不停止",
    "training loss (epoch mean)": "训练损失（每轮均值）",
    "validation loss": "验证损失",
    "epoch": "轮次",
    "Patience {patience} on the validation loss": "以验证损失为准，耐心值 {patience}",
    "best epoch {epoch}": "最佳轮次 {epoch}",
    "stopped after {epoch}": "第 {epoch} 轮后停止",
}

# Solutions are code: only their comments are translated (the framework looks up each "# comment").
MESSAGES.update({
    '# Cell set-up, self._backbone, self._loss_fn': '# 完成 Cell 的初始化，设置 self._backbone 和 self._loss_fn',
    '# identity unless data parallel': '# 除非做数据并行，否则是恒等映射',
    '# backprop starts from the loss scale': '# 反向传播从损失缩放系数开始',
    '# gradients * loss_scale': '# 梯度 * loss_scale',
    '# unscale first ...': '# 先除回缩放系数……',
    '# ... then clip the real gradients': '# ……再裁剪真实梯度',
    '# "max": compare -accuracy the way a loss is compared': '# "max"：把 -准确率 当作损失来比较',
    '# this step\'s loss (a tensor)': '# 这一步的损失（一个张量）',
    '# NaN or inf': '# NaN 或 inf',
    '# Model.train stops after this step': '# Model.train 在这一步之后停止',
})
