"""Chinese messages (nb00)."""

MESSAGES = {
    # titles and hints (translated when shown)
    "the compiled mode": "编译执行的模式",
    "MindSpore has two mode constants: ms.PYNATIVE_MODE and ms.GRAPH_MODE. Which one compiles?":
        "MindSpore 有两个模式常量：ms.PYNATIVE_MODE 和 ms.GRAPH_MODE。哪一个会先编译？",
    "count a digit": "统计某个数字",
    "Compare the array with the digit (labels == digit) and count the True values; int() makes it a "
    "Python int.":
        "把数组与该数字比较（labels == digit），再统计其中 True 的个数；用 int() 把结果转成 Python 的 int。",
    # check results
    "expected one of MindSpore's mode constants (ms.SOMETHING_MODE), got the string {got}.":
        "期望 MindSpore 的某个模式常量（ms.SOMETHING_MODE），实际得到字符串 {got}。",
    "expected the mode that compiles construct before running it, got ms.PYNATIVE_MODE, "
    "which runs each operation eagerly, as Python reaches it.":
        "期望的是先编译 construct 再运行的模式，实际得到 ms.PYNATIVE_MODE："
        "它在 Python 执行到每个操作时立即运行该操作。",
    "expected one of MindSpore's mode constants (ms.SOMETHING_MODE), got {got}.":
        "期望 MindSpore 的某个模式常量（ms.SOMETHING_MODE），实际得到 {got}。",
    "count_digit(labels, {digit}): expected a Python int, got {got} of type {type}.":
        "count_digit(labels, {digit})：期望返回 Python 的 int，实际得到类型为 {type} 的 {got}。",
    "for labels {labels} and digit {digit} expected {expected}, got {got}.":
        "对于标签 {labels} 和数字 {digit}，期望 {expected}，实际得到 {got}。",
}
