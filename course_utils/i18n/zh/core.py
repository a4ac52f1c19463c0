"""Chinese messages of the shared modules: the exercise framework, runtime, data, training, ...

Keys are the English templates exactly as written at the ``tr()`` call sites; keep every ``{placeholder}``.
"""

MESSAGES = {
    # course_utils.exercises (base, display)
    "Exercise {number}": "练习 {number}",
    " ({title})": "（{title}）",
    "{label} - {kind}": "{label} — {kind}",
    ": ": "：",
    ":": "：",
    "Correct": "正确",
    "Incorrect": "不正确",
    "Not attempted yet": "尚未作答",
    "Hint": "提示",
    "Hint {n} of {total}": "提示 {n}/{total}",
    "(a further hint: hint({next}))": "（还有进一步的提示：hint({next})）",
    "there is 1 hint: hint(1).": "本题只有 1 条提示：hint(1)。",
    "there are {total} hints: hint(1) to hint({total}).": "本题共有 {total} 条提示：hint(1) 到 hint({total})。",
    "Solution": "参考答案",
    "well done.": "做得好。",
    "No hint for this one.": "本题没有提示。",
    "your answer": "你的答案",
    "replace the placeholder ____ with your answer, run the cell, then run this check again.":
        "请把占位符 ____ 换成你的答案，运行该单元格，然后重新运行这项检查。",
    "define `{name}` (the exercise cell above), run it, then check again.":
        "请先在上方的练习单元格中定义 `{name}` 并运行，然后再检查。",
    "{label} still contains the placeholder ____: replace it with your code, run the cell, then check again.":
        "{label} 中仍有占位符 ____：请换成你的代码，运行该单元格，然后再检查。",
    "your code raised {error}: {message}": "你的代码抛出了 {error}：{message}",
}
