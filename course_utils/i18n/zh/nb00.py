"""Chinese messages (nb00)."""

MESSAGES = {
    # titles and hints (translated when shown)
    "PyTorch's padded Conv2d in MindSpore": "用 MindSpore 写出 PyTorch 带填充的 Conv2d",
    "Two Conv2d defaults differ from PyTorch's (the table \"Coming from PyTorch\"). For the "
    "padding: which pad_mode of nn.Conv2d takes an explicit padding? Its reference page lists them.":
        "Conv2d 有两个默认值与 PyTorch 不同（见“从 PyTorch 迁移过来”那张表）。至于填充：nn.Conv2d 的哪一种 "
        "pad_mode 接受显式给出的 padding？它的 API 文档列出了所有取值。",
    "time each call of a compiled function": "为编译后的函数的每次调用计时",
    "One time.perf_counter() before and one after each call, as first_and_steady does; the call is "
    "over when its result is on the host, so call .asnumpy() on what fn returns before you stop "
    "the clock. Call fn exactly once per input, with no warm-up call.":
        "像 first_and_steady 那样，在每次调用之前和之后各取一次 time.perf_counter()；结果回到 Host 侧时调用才算结束，"
        "所以停止计时之前要对 fn 的返回值调用 .asnumpy()。每个输入只调用 fn 一次，不要预热调用。",
    # check results
    "{call}: expected an nn.Conv2d, got {got}.": "{call}：期望得到 nn.Conv2d，实际得到 {got}。",
    "{call}: the convolution has no bias parameter; PyTorch's nn.Conv2d has one.":
        "{call}：卷积层没有偏置参数，而 PyTorch 的 nn.Conv2d 有。",
    "{call}: on a {side}x{side} input it gives shape {got}; PyTorch's "
    "nn.Conv2d({in_c}, {out_c}, {k}, padding={padding}) gives {want}.":
        "{call}：对 {side}x{side} 的输入，它输出的形状为 {got}；PyTorch 的 "
        "nn.Conv2d({in_c}, {out_c}, {k}, padding={padding}) 输出 {want}。",
    "call_times(fn, inputs) called fn on inputs of shapes {got}; expected one call per "
    "input, in order: {want}.":
        "call_times(fn, inputs) 调用 fn 时输入的形状依次为 {got}；期望每个输入按顺序各调用一次：{want}。",
    "call_times(fn, inputs) with {n} inputs returned {got}; expected a list of {n} "
    "positive numbers of seconds, one per call.":
        "call_times(fn, inputs) 对 {n} 个输入返回了 {got}；期望得到 {n} 个正数组成的列表，即每次调用的秒数。",
    "the times add up to {total:.3g}, but the whole call_times(fn, inputs) took "
    "{elapsed:.3g} s: return seconds, as time.perf_counter() differences are.":
        "这些时间之和为 {total:.3g}，而整个 call_times(fn, inputs) 只用了 {elapsed:.3g} 秒：请返回以秒为单位的时间，"
        "即 time.perf_counter() 的差值。",
    "the first call with {rows} rows took {first:.2g} s and the next ones {later}: "
    "the first call of a new shape compiles and must be clearly slower. Time each "
    "call on its own, from just before it to its result.":
        "输入为 {rows} 行时，第一次调用用了 {first:.2g} 秒，之后几次用了 {later}：新形状的第一次调用要编译，"
        "理应明显更慢。请单独为每次调用计时，从调用之前一直到拿到结果。",
    "call {n} took {took:.2g} s, but its result reached the host {delay:.2g} s after fn "
    "returned: a call is over only when its result is on the host. Stop the clock after "
    "reading the result.":
        "第 {n} 次调用只用了 {took:.2g} 秒，而它的结果在 fn 返回 {delay:.2g} 秒之后才回到 Host 侧：结果回到 Host 侧，"
        "调用才算结束。请在读取结果之后再停止计时。",
    "PyTorch's BatchNorm momentum in MindSpore": "用 MindSpore 写出 PyTorch 的 BatchNorm 动量",
    "The BatchNorm row of \"Coming from PyTorch\" and the BatchNorm check after the table: does "
    "each framework's momentum weigh the old running value or the new batch?":
        "看“从 PyTorch 迁移过来”那张表中 BatchNorm 那一行，以及表后对 BatchNorm 的检查：两个框架的动量"
        "分别是旧的滑动统计量的权重，还是新一批数据的权重？",
    "{call}: expected an nn.BatchNorm2d, got {got}.": "{call}：期望得到 nn.BatchNorm2d，实际得到 {got}。",
    "{call}: after one training batch with channel means {means}, starting from 0, "
    "the running mean is {got}; PyTorch's is {want}.":
        "{call}：从 0 开始，经过一批各通道均值为 {means} 的训练数据之后，滑动均值为 {got}；PyTorch 的是 {want}。",
    # comments of the solutions (solution() shows the reference's source)
    "# pad_mode=\"pad\" takes the padding as given: zeros on every side, as PyTorch pads":
        "# pad_mode=\"pad\" 按给定的值填充：四周补零，与 PyTorch 相同",
    "# .asnumpy() waits for the result": "# .asnumpy() 会等待结果",
    "# MindSpore's momentum weighs the old value": "# MindSpore 的动量是旧值的权重",
}
