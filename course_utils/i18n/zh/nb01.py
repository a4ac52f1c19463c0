"""Chinese messages (nb01): the checks of notebook 01's exercises, their titles, hints and solutions."""

MESSAGES = {
    # titles (shown in "练习 01.N (...)")
    "weighted Huber": "加权 Huber",
    "log-cosh loss": "log-cosh 损失",
    "find the bugs": "找出错误",

    # what a check reports: which call, which input, expected vs got
    "{call} failed with TypeError: {error}. The constructor must accept {names} as keyword arguments.":
        "{call} 失败，抛出 TypeError：{error}。构造函数必须接受关键字参数 {names}。",
    "{label} returned a {kind} of {n} values; expected one tensor.":
        "{label} 返回了含 {n} 个值的 {kind}；期望返回一个张量。",
    "{label} returned {value} ({kind}); expected a MindSpore tensor.":
        "{label} 返回了 {value}（{kind}）；期望返回一个 MindSpore 张量。",
    "`{name}` should be a class (class {name}(nn.LossBase): ...), got a {kind}.":
        "`{name}` 应当是一个类（class {name}(nn.LossBase): ...），实际是 {kind}。",
    "{name} should derive from nn.LossBase (it gives you reduction and self.get_loss); its bases are {bases}.":
        "{name} 应当继承 nn.LossBase（它提供 reduction 和 self.get_loss）；它的基类是 {bases}。",
    " (reduction='none' keeps one loss per element)": "（reduction='none' 为每个元素保留一个损失）",
    "{label} on {inputs}: expected shape {expected}, got shape {got}{what}.":
        "{label} 在输入 {inputs} 上：期望形状为 {expected}，实际形状为 {got}{what}。",
    "{label} on {inputs}: expected the weighted losses {expected}, got the unweighted losses {got}: the weights "
    "have no effect.":
        "{label} 在输入 {inputs} 上：期望得到加权后的损失 {expected}，实际得到未加权的损失 {got}：权重没有起作用。",
    "{label}, element {i} (logits {logits}, labels {labels}, error {error}{weight}): expected {expected}, got "
    "{got}. {where}":
        "{label}，第 {i} 个元素（logits {logits}，labels {labels}，误差 {error}{weight}）：期望 {expected}，"
        "实际为 {got}。{where}",
    ", its sample's weight {weight}": "，所在样本的权重 {weight}",
    "{label} on logits and labels of shape {shape} and weights of shape {wshape} (one weight per sample): expected "
    "a loss, got {error}: {message}":
        "{label} 在形状为 {shape} 的 logits 和 labels、形状为 {wshape} 的 weights（每个样本一个权重）上：期望得到损失，"
        "实际抛出了 {error}：{message}",
    "This is exactly |error| == delta ({delta}), where the Huber loss is 0.5 * delta**2 = {value}.":
        "这里恰好 |error| == delta（{delta}），此处的 Huber 损失为 0.5 * delta**2 = {value}。",
    "Here |error| < delta = {delta}.": "这里 |error| < delta = {delta}。",
    "Here |error| > delta = {delta}.": "这里 |error| > delta = {delta}。",
    "{label} on {inputs}: expected a scalar (shape ()), got shape {shape}.":
        "{label} 在输入 {inputs} 上：期望得到标量（形状为 ()），实际形状为 {shape}。",
    " That is the sum of the per-element losses, not their mean.": "这是各元素损失之和，而不是它们的均值。",
    " That is the mean of the per-element losses, not their sum.": "这是各元素损失的均值，而不是它们的和。",
    " That is the sum of weight * loss divided by the number of elements ({n}), not by the sum of the elements' "
    "weights ({total}): that mean grows with the weights (every weight times 10, the loss times 10).":
        "这是 weight * loss 之和除以元素个数（{n}），而不是除以各元素权重之和（{total}）：这样的均值随权重变大"
        "（所有权重乘以 10，损失也乘以 10）。",
    " That is the sum of weight * loss divided by the sum of the {k} sample weights ({samples}), which counts each "
    "sample once; each has {outputs} elements, so the elements' weights add up to {total}.":
        "这是 weight * loss 之和除以 {k} 个样本权重之和（{samples}），每个样本只算了一次；而每个样本有 {outputs} "
        "个元素，各元素权重之和为 {total}。",
    "{name} calls the course's own Huber loss (course_utils.losses) while the check runs; this exercise is a loss "
    "written out in your class, as MyHuberLoss is in section 2, plus the weights.":
        "{name} 在检查过程中调用了课程自带的 Huber 损失（course_utils.losses）；本练习要求像第 2 节的 MyHuberLoss "
        "那样，在你自己的类中写出损失函数，再加上权重。",
    "{label} on {inputs}: expected {expected}, got {got}.{detail}":
        "{label} 在输入 {inputs} 上：期望 {expected}，实际为 {got}。{detail}",
    "{label} with float16 logits and labels: expected a Float16 loss (the dtype of its input, as nn.HuberLoss "
    "returns), got a {dtype} loss.":
        "{label} 在 float16 的 logits 和 labels 上：期望得到 Float16 的损失（与输入的 dtype 相同，nn.HuberLoss "
        "也是如此），实际得到 {dtype} 的损失。",
    "{label} with float16 inputs, element {i} (error {error}): expected {expected}, got {got}.":
        "{label} 在 float16 输入上，第 {i} 个元素（误差 {error}）：期望 {expected}，实际为 {got}。",
    " Section 7 of the notebook ('Common mistakes') shows a loss with this symptom.":
        "本课第 7 节（“常见错误”）展示了一个有同样症状的损失函数。",
    "the gradient of {label} with respect to logits on {inputs}: expected {expected}, got all zeros.{pointer}":
        "{label} 在输入 {inputs} 上对 logits 的梯度：期望 {expected}，实际全为零。{pointer}",
    "the gradient of {label} with respect to logits on {inputs}: expected {expected}, got {got}.":
        "{label} 在输入 {inputs} 上对 logits 的梯度：期望 {expected}，实际为 {got}。",
    "calling {name} on the check's inputs raised {error}: {message} Section 7 of the notebook ('Common mistakes') "
    "shows a loss with this symptom.":
        "用检查的输入调用 {name} 时抛出了 {error}：{message} 本课第 7 节（“常见错误”）展示了一个有同样症状的"
        "损失函数。",
    "{name} derives from {bases}, BuggyHuberLoss from nn.LossBase: the exercise is BuggyHuberLoss with its faulty "
    "lines corrected, not a subclass of another loss.":
        "{name} 继承自 {bases}，而 BuggyHuberLoss 继承自 nn.LossBase：本练习要的是改正了错误代码行的 "
        "BuggyHuberLoss，而不是另一个损失函数的子类。",
    "{name} differs from BuggyHuberLoss in {n} lines (comments and layout aside); each of the three bugs sits in "
    "one line, so a corrected BuggyHuberLoss differs in at most {most}. Start from BuggyHuberLoss's code, not from "
    "another loss such as MyHuberLoss.":
        "{name} 与 BuggyHuberLoss 有 {n} 行不同（不计注释和排版）；三个错误各在一行，改正后的 BuggyHuberLoss "
        "最多只有 {most} 行不同。请在 BuggyHuberLoss 的代码上修改，而不是从 MyHuberLoss 等其他损失函数出发。",

    # hints
    "The elementwise loss is MyHuberLoss's (float32 inside, ops.where). The loss has shape (batch, outputs), "
    "weights (batch,): give weights a trailing axis of size 1 (reshape) so that it broadcasts over each sample's "
    "outputs. get_loss's 'mean' divides by the number of elements, not by the weights, so reduce in construct: "
    "keep reduction in __init__ as an attribute of your own (LossBase keeps only two flags); an if on that string "
    "compiles, it is a constant of the graph. 'mean' is sum(weight * loss) over the sum of every element's weight. "
    "Cast the result to logits.dtype.":
        "逐元素损失与 MyHuberLoss 相同（内部用 float32 计算，ops.where 选择）。损失的形状为 (batch, outputs)，"
        "weights 的形状为 (batch,)：给 weights 加一个长度为 1 的末尾维度（reshape），它就会在每个样本的各个输出上"
        "广播。get_loss 的 'mean' 除以的是元素个数，而不是权重，所以要在 construct 中自己规约：在 __init__ 中把 "
        "reduction 另存为自己的属性（LossBase 只保存两个标志位）；对这个字符串写 if 可以编译，因为它是图中的常量。"
        "'mean' 等于 sum(weight * loss) 除以所有元素的权重之和。最后把结果转换为 logits.dtype。",
    "log(cosh(e)) is about e**2 / 2 for small errors and |e| - log(2) for large ones, like a smooth Huber. "
    "ops.log(ops.cosh(e)) overflows: cosh(e) is inf above |e| ~ 89 in float32 and ~ 11 in float16. Rewrite it: "
    "log(cosh(e)) = |e| + log(1 + exp(-2|e|)) - log(2), where exp(-2|e|) <= 1 never overflows (ops.log1p, "
    "ops.exp). Compute in float32, cast back to logits.dtype, and reduce with self.get_loss.":
        "log(cosh(e)) 在误差小时约为 e**2 / 2，误差大时约为 |e| - log(2)，相当于平滑版的 Huber。"
        "ops.log(ops.cosh(e)) 会溢出：float32 下 |e| 超过约 89、float16 下超过约 11 时，cosh(e) 就是 inf。"
        "把它改写为 log(cosh(e)) = |e| + log(1 + exp(-2|e|)) - log(2)，其中 exp(-2|e|) <= 1，永远不会溢出"
        "（ops.log1p、ops.exp）。用 float32 计算，转换回 logits.dtype，再用 self.get_loss 做规约。",
    "There are three bugs. (1) Which reduction does super().__init__() get when called without arguments? "
    "(2) Evaluate the linear piece at |error| == delta: it must equal the quadratic piece there, 0.5 * delta**2. "
    "(3) Call it with float16 tensors and look at the dtype of the result.":
        "一共有三个错误。（1）不带参数调用 super().__init__() 时，得到的是哪种规约方式？"
        "（2）在 |error| == delta 处计算线性段：它必须等于二次段在这里的值 0.5 * delta**2。"
        "（3）用 float16 张量调用它，看看结果的 dtype。",
}

# Solutions are code: only their comments are translated (the framework looks up each "# comment").
MESSAGES.update({
    "# checks reduction": "# 检查 reduction",
    "# construct reduces itself: get_loss has no weighted mean": "# 由 construct 自己规约：get_loss 不提供加权均值",
    "# one weight per sample: (batch,) -> (batch, 1) -> each element gets its sample's weight":
        "# 每个样本一个权重：(batch,) -> (batch, 1) -> 每个元素得到所在样本的权重",
    "# a Python string: fixed when the graph compiles": "# Python 字符串：编译图时就已确定",
    "# normalised: scaling every weight changes nothing": "# 归一化：所有权重同乘一个数，结果不变",
    "# log(cosh(e)) without computing cosh(e), which overflows for large |e|":
        "# 计算 log(cosh(e)) 而不计算 cosh(e)：|e| 较大时 cosh(e) 会溢出",
    "# bug 1: reduction was not passed on": "# 错误 1：原来没有把 reduction 传下去",
    "# bug 2: was (abs_error - self.delta)": "# 错误 2：原来是 (abs_error - self.delta)",
    "# bug 3: the loss stayed float32": "# 错误 3：原来损失一直是 float32",
})
