"""Chinese messages (nb00)."""

MESSAGES = {
    # titles and hints (translated when shown)
    "PyTorch's padded Conv2d in MindSpore": "用 MindSpore 写出 PyTorch 带填充的 Conv2d",
    "Two Conv2d defaults differ from PyTorch's (the table \"Coming from PyTorch\"). For the "
    "padding: which pad_mode of nn.Conv2d takes an explicit padding? Its reference page lists them.":
        "Conv2d 有两个默认值与 PyTorch 不同（见“从 PyTorch 迁移过来”那张表）。至于填充：nn.Conv2d 的哪一种 "
        "pad_mode 接受显式给出的 padding？它的 API 文档列出了所有取值。",
    "first and steady call time of each input shape": "每种输入形状的首次调用时间与稳定调用时间",
    "Keep a dict from tuple(x.shape) to the list of that shape's times. Time each call on its own, "
    "from just before fn(x) until its result is on the host (call .asnumpy() on what fn returns "
    "before you stop the clock); call fn exactly once per input, with no warm-up call. Then each "
    "shape's pair is its list's first time and the median of the rest (numpy.median).":
        "用一个字典，把 tuple(x.shape) 映射到该形状各次调用的时间列表。每次调用单独计时，从调用 fn(x) 之前开始，"
        "到结果回到 Host 侧为止（停止计时之前，对 fn 的返回值调用 .asnumpy()）；每个输入只调用 fn 一次，不要预热调用。"
        "最后，每种形状的一对数值就是其列表中的第一个时间，以及其余时间的中位数（numpy.median）。",
    # check results
    "{call}: expected an nn.Conv2d, got {got}.": "{call}：期望得到 nn.Conv2d，实际得到 {got}。",
    "{call}: the convolution has no bias parameter; PyTorch's nn.Conv2d has one.":
        "{call}：卷积层没有偏置参数，而 PyTorch 的 nn.Conv2d 有。",
    "{call}: on a {side}x{side} input it gives shape {got}; PyTorch's "
    "nn.Conv2d({in_c}, {out_c}, {k}, padding={padding}) gives {want}.":
        "{call}：对 {side}x{side} 的输入，它输出的形状为 {got}；PyTorch 的 "
        "nn.Conv2d({in_c}, {out_c}, {k}, padding={padding}) 输出 {want}。",
    "shape_timings(fn, inputs) called fn on inputs of shapes {got}; expected one call "
    "per input, in order: {want}.":
        "shape_timings(fn, inputs) 调用 fn 时输入的形状依次为 {got}；期望每个输入按顺序各调用一次：{want}。",
    "shape_timings(fn, inputs) returned {got}; expected a dict with one entry per input "
    "shape, {keys}, each a pair (first, steady) of positive numbers of seconds.":
        "shape_timings(fn, inputs) 返回了 {got}；期望得到一个字典，每种输入形状（{keys}）各占一项，"
        "每项是一对以秒为单位的正数 (first, steady)。",
    "one of the times is {largest:.3g}, but the whole shape_timings(fn, inputs) took "
    "{elapsed:.3g} s: return seconds, as time.perf_counter() differences are.":
        "其中一个时间为 {largest:.3g}，而整个 shape_timings(fn, inputs) 只用了 {elapsed:.3g} 秒：请返回以秒为单位的时间，"
        "即 time.perf_counter() 的差值。",
    "the result of call {n} reached the host {delay:.2g} s after fn returned, and nothing "
    "read it before the next call: a call is over only when its result is on the host. "
    "Stop the clock after reading the result.":
        "第 {n} 次调用的结果在 fn 返回 {delay:.2g} 秒之后才回到 Host 侧，而在下一次调用之前没有读取它：结果回到 Host 侧，"
        "调用才算结束。请在读取结果之后再停止计时。",
    "the first call with shape {shape} is call {n} of {total}, and it took between "
    "{low:.3g} s and {high:.3g} s; you report {first:.3g} s. The shapes come in mixed "
    "order: the first call of a shape is not always the first call overall.":
        "形状为 {shape} 的第一次调用是 {total} 次调用中的第 {n} 次，用时在 {low:.3g} 秒到 {high:.3g} 秒之间；"
        "你给出的是 {first:.3g} 秒。各种形状是交错出现的：某种形状的第一次调用不一定是全部调用中的第一次。",
    "for shape {shape} you report a steady time of {steady:.2g} s, but its later "
    "calls each took between {low:.2g} s and {high:.2g} s: the steady time is the "
    "median of the calls after the first, which compiles.":
        "对于形状 {shape}，你给出的稳定调用时间为 {steady:.2g} 秒，而它之后的每次调用用时都在 {low:.2g} 秒到 "
        "{high:.2g} 秒之间：稳定调用时间是第一次调用（它要编译）之后各次调用的中位数。",
    "for shape {shape} the first call took {first:.2g} s and the steady time is "
    "{steady:.2g} s: the first call of a new shape compiles and must be clearly "
    "slower.":
        "对于形状 {shape}，第一次调用用了 {first:.2g} 秒，稳定调用时间为 {steady:.2g} 秒：新形状的第一次调用要编译，"
        "理应明显更慢。",
    "PyTorch's BatchNorm momentum in MindSpore": "用 MindSpore 写出 PyTorch 的 BatchNorm 动量",
    "The BatchNorm row of \"Coming from PyTorch\" and the BatchNorm check after the table: does "
    "each framework's momentum weigh the old running value or the new batch?":
        "看“从 PyTorch 迁移过来”那张表中 BatchNorm 那一行，以及表后对 BatchNorm 的检查：两个框架的动量"
        "分别是旧的动态均值和动态方差的权重，还是新一批数据的权重？",
    "{call}: expected an nn.BatchNorm2d, got {got}.": "{call}：期望得到 nn.BatchNorm2d，实际得到 {got}。",
    "{call}: after one training batch with channel means {means}, starting from 0, "
    "the running mean is {got}; PyTorch's is {want}.":
        "{call}：从 0 开始，经过一批各通道均值为 {means} 的训练数据之后，动态均值（moving_mean）为 {got}；PyTorch 的是 {want}。",
    "Port a small PyTorch model to MindSpore": "把一个小的 PyTorch 模型迁移到 MindSpore",
    "The table of \"Coming from PyTorch\": Sequential and Linear have other names in MindSpore. "
    "For the Dropout, the cell after the defaults: which parameter of MindSpore's nn.Dropout does a "
    "number passed by position fill in, and what does it mean?":
        "看“从 PyTorch 迁移过来”那张表：Sequential 和 Linear 在 MindSpore 中换了名字。至于 Dropout，看检查默认值之后的"
        "那个单元格：按位置传给 MindSpore 的 nn.Dropout 的数值，落到了哪个参数上？这个参数是什么含义？",
    "{call}: expected an nn.SequentialCell (PyTorch's nn.Sequential), got {got}.":
        "{call}：期望得到 nn.SequentialCell（对应 PyTorch 的 nn.Sequential），实际得到 {got}。",
    "{call}: expected the 4 layers of the PyTorch model, in its order (Linear, ReLU, "
    "Dropout, Linear), got {n}: {names}.":
        "{call}：期望按 PyTorch 模型的顺序包含 4 层（Linear、ReLU、Dropout、Linear），实际有 {n} 层：{names}。",
    "{call}: a batch of shape {inp} came out of the first layer as {got0} and of "
    "the model as {got1}; PyTorch's model gives {want0} and {want1}.":
        "{call}：形状为 {inp} 的一批输入，经过第一层后形状为 {got0}，经过整个模型后为 {got1}；"
        "PyTorch 的模型分别给出 {want0} 和 {want1}。",
    "{call}: the second layer turned [-1, 2] into {got}; PyTorch's ReLU gives [0, 2].":
        "{call}：第二层把 [-1, 2] 变成了 {got}；PyTorch 的 ReLU 给出 [0, 2]。",
    "{call}: in training mode its dropout zeroed {share:.1%} of the values; "
    "PyTorch's nn.Dropout({p}) zeroes {p:.0%}. Your layer took {p} as the "
    "probability to keep a value: the old keep_prob meaning, not PyTorch's drop "
    "probability.":
        "{call}：在训练模式下，它的 Dropout 把 {share:.1%} 的值置零了；PyTorch 的 nn.Dropout({p}) 置零 {p:.0%}。"
        "你的层把 {p} 当成了保留一个值的概率：这是旧参数 keep_prob 的含义，而不是 PyTorch 的丢弃概率。",
    "{call}: in training mode (set_train(True) on the model) its dropout zeroed "
    "{share:.1%} of the values; PyTorch's nn.Dropout({p}) zeroes about {p:.0%}.":
        "{call}：在训练模式下（对整个模型调用 set_train(True)），它的 Dropout 把 {share:.1%} 的值置零了；"
        "PyTorch 的 nn.Dropout({p}) 大约置零 {p:.0%}。",
    "{call}: in training mode the values its dropout kept (all ones before) became "
    "{got}; PyTorch scales them by 1/(1 - p) = {want:.4g}, so that the mean stays 1.":
        "{call}：在训练模式下，它的 Dropout 保留下来的值（原本全为 1）变成了 {got}；PyTorch 会把它们乘以 "
        "1/(1 - p) = {want:.4g}，使均值保持为 1。",
    "{call}: in evaluation mode (set_train(False)) its dropout changed its input; "
    "dropout must then pass the input through unchanged.":
        "{call}：在评估模式（set_train(False)）下，它的 Dropout 改变了输入；此时 Dropout 应原样输出输入。",
    "{call}: its dropout drops as PyTorch's does, but through keep_prob, the "
    "parameter MindSpore 2.10 deprecates (its warning is a log line the course's "
    "quiet logs hide). Give the drop probability itself.":
        "{call}：它的 Dropout 丢弃行为与 PyTorch 一致，但用的是 keep_prob，MindSpore 2.10 已弃用这个参数"
        "（课程把日志级别设为只输出错误，所以看不到这条弃用警告）。请直接给出丢弃概率。",
    # comments of the solutions (solution() shows the reference's source)
    "# pad_mode=\"pad\" takes the padding as given: zeros on every side, as PyTorch pads":
        "# pad_mode=\"pad\" 按给定的值填充：四周补零，与 PyTorch 相同",
    "# .asnumpy() waits for the result": "# .asnumpy() 会等待结果",
    "# MindSpore's momentum weighs the old value": "# MindSpore 的动量是旧值的权重",
    "# Linear is Dense, with the same weight layout and init": "# Linear 对应 Dense，权重布局和初始化方式都相同",
    "# by name: the first positional parameter of nn.Dropout is keep_prob":
        "# 按名称传入：nn.Dropout 按位置的第一个参数是 keep_prob",
}
