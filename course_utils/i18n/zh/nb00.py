"""Chinese messages (nb00)."""

MESSAGES = {
    # titles and hints (translated when shown)
    "PyTorch's Conv2d and MaxPool2d in MindSpore": "用 MindSpore 写出 PyTorch 的 Conv2d 和 MaxPool2d",
    "Look at the table \"Coming from PyTorch\": which two Conv2d defaults differ, and which "
    "MaxPool2d default? Then nn.Conv2d(in_channels, out_channels, kernel_size, pad_mode=..., "
    "has_bias=...) and nn.MaxPool2d(kernel_size, stride).":
        "看“从 PyTorch 迁移过来”那张表：Conv2d 有哪两个默认值不同？MaxPool2d 又有哪个默认值不同？然后写出 "
        "nn.Conv2d(in_channels, out_channels, kernel_size, pad_mode=..., has_bias=...) 和 "
        "nn.MaxPool2d(kernel_size, stride)。",
    "run in another mode, then come back": "切换到另一种模式运行，然后切换回来",
    "Read the current mode with ms.get_context(\"mode\") before you change it with "
    "ms.set_context(mode=...), and put it back in try: return fn() / finally:, so that an error "
    "in fn cannot leave the kernel in the wrong mode.":
        "先用 ms.get_context(\"mode\") 读出当前模式，再用 ms.set_context(mode=...) 修改它；并在 "
        "try: return fn() / finally: 中把它恢复，这样即使 fn 出错，内核也不会停留在错误的模式中。",
    # check results
    "{call}: expected a pair (conv, pool), got {got}.": "{call}：期望返回一对 (conv, pool)，实际得到 {got}。",
    "{call}: expected (nn.Conv2d, nn.MaxPool2d), got ({conv}, {pool}).":
        "{call}：期望得到 (nn.Conv2d, nn.MaxPool2d)，实际得到 ({conv}, {pool})。",
    "{call}: the convolution has no bias parameter; PyTorch's nn.Conv2d has one.":
        "{call}：卷积层没有偏置参数，而 PyTorch 的 nn.Conv2d 有。",
    "{call}: on a {side}x{side} input the convolution gives shape {got}; PyTorch's "
    "gives {want} (no padding).":
        "{call}：对 {side}x{side} 的输入，卷积输出的形状为 {got}；PyTorch 的卷积（不填充）输出 {want}。",
    "{call}: on a {side}x{side} input the pooling gives shape {got}; PyTorch's "
    "nn.MaxPool2d({k}) gives {want}.":
        "{call}：对 {side}x{side} 的输入，池化输出的形状为 {got}；PyTorch 的 nn.MaxPool2d({k}) 输出 {want}。",
    "{call}: fn ran {n} time(s), in {modes}; expected once, in {wanted}.":
        "{call}：fn 运行了 {n} 次，所在模式为 {modes}；期望只运行一次，且在 {wanted} 下运行。",
    "{call}: returned {got}; expected what fn returned, {want}.":
        "{call}：返回了 {got}；期望返回 fn 的返回值 {want}。",
    "{call}: afterwards the kernel is in {now}; expected the mode from before, "
    "{before}.":
        "{call}：调用之后内核处于 {now}；期望恢复到调用前的模式 {before}。",
    "in_mode(ms.PYNATIVE_MODE, fn) with an fn that raises ValueError: the error "
    "disappeared; let it reach the caller.":
        "in_mode(ms.PYNATIVE_MODE, fn) 中的 fn 抛出了 ValueError，但这个错误消失了：应让它传给调用者。",
    "in_mode(ms.PYNATIVE_MODE, fn) in GRAPH_MODE, with an fn that raises: afterwards "
    "the kernel is left in PYNATIVE_MODE; put the mode back even when fn fails.":
        "在 GRAPH_MODE 下调用 in_mode(ms.PYNATIVE_MODE, fn)，且 fn 抛出错误：之后内核停留在 PYNATIVE_MODE；"
        "即使 fn 失败，也要恢复原来的模式。",
}
