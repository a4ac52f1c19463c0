"""Chinese messages (nb10): the capstone's checks, their titles and hints.

Keys are the English templates of ``course_utils/exercises/nb10.py`` exactly; placeholders are kept. Command
lines, file names, option names and log keys stay as they are (the learner types and reads them as code). The
solutions are the reference script's own code (English, shared by both editions): only the two comment lines
the check adds around it are translated.
"""

MESSAGES = {
    # titles
    "runs, logs every epoch, checkpoints atomically": "能运行，为每轮记录日志，原子写入检查点",
    "resumes after an interruption": "中断后能断点续训",
    "reaches 92% on a small run": "小规模运行达到 92%",
    "exports a MindIR model that loads": "导出一个能加载的 MindIR 模型",
    # hints
    "Run it yourself in a terminal first, in the notebooks folder: python my_capstone.py --data-dir ../data/mnist "
    "--out runs/try --epochs 2 --batch-size 32 --train-subset 256 --test-subset 256. After each epoch: save the "
    "training step (it holds the network and the optimizer) with append_dict={'epoch': ..., 'step_in_epoch': ..., "
    "'loss_sum': ..., **settings} to a temporary name, fsync, os.replace it over checkpoint.ckpt; then append one JSON line to log.jsonl and "
    "print one line.":
        "先在终端里（notebooks/zh 文件夹中）亲自运行一次：python my_capstone.py --data-dir ../../data/mnist --out runs/try "
        "--epochs 2 --batch-size 32 --train-subset 256 --test-subset 256。每轮结束后：用 append_dict={'epoch': "
        "..., 'step_in_epoch': ..., 'loss_sum': ..., **settings} 把训练步（它同时持有网络和优化器）保存到一个临时文件名下，fsync，再用 os.replace "
        "覆盖 checkpoint.ckpt；然后向 log.jsonl 追加一行 JSON，并打印一行。",
    "On --resume, build everything as usual, copy the checkpoint's values into the training step's parameters (all "
    "of them: weights and optimizer state), read epoch, step_in_epoch and loss_sum, and start the epoch loop there; in "
    "the interrupted epoch, skip the batches already trained and continue its loss sum. Append to the log, do not start "
    "a new one.":
        "使用 --resume 时，照常构建所有对象，把检查点中的值复制到训练步的参数中（全部参数：权重和优化器状态），读出 "
        "epoch、step_in_epoch 和 loss_sum，并让轮次循环从那里开始；在被中断的轮次中，跳过已经训练过的批，并接着累加"
        "该轮次的损失总和。日志要追加写入，不要新建。",
    "If the loss falls but the test accuracy stays low, compare what the test images look like with what training "
    "sees (augmentation parameters, normalisation), and evaluate in eval mode. If the loss hardly falls, check that "
    "every batch reaches the step, and the learning rate: --lr's default, 2e-3, is meant for Adam (SGD needs a far "
    "larger one). Just below the target, at 91.x%? Appendix A shows how much the seed alone moves the reference's "
    "result, so do not tune the seed: compare your build_model and build_dataset with .solution() (the reference has "
    "two blocks of 16 and 32 channels, Adam at 2e-3, and the augmentation with moderate ranges: up to 10 degrees, "
    "+-10% shift, 0.9 to 1.1 zoom); a wider model (more channels) gives you room.":
        "如果损失下降而测试准确率仍然很低，请比较测试图像与训练时看到的图像有何不同（数据增强参数、归一化），并确保"
        "评估时网络处于评估模式。如果损失几乎不下降，请检查每个批是否都送进了训练步，再检查学习率：--lr 的默认值 "
        "2e-3 是给 Adam 用的（SGD 需要大得多的学习率）。只差一点没达到目标，停在 91.x%？附录 A 展示了仅仅更换随机"
        "种子就会让参考答案的结果浮动多少，所以不要去调种子，而是用 .solution() 对照你的 build_model 和 "
        "build_dataset（参考答案有两个卷积块，分别为 16 和 32 个通道，使用学习率 2e-3 的 Adam，数据增强的幅度适中："
        "旋转不超过 10 度，平移 ±10%，缩放 0.9～1.1）；换一个更宽的模型（更多通道）能给你留出余量。",
    "At the end of training, switch the network to eval mode and call mindspore.export with an input whose batch "
    "dimension is None (mindspore.Tensor(shape=[None, 1, 28, 28], dtype=mindspore.float32)), file_format='MINDIR', "
    "into --out as model.mindir.":
        "训练结束时，把网络切换到评估模式，然后调用 mindspore.export：输入的批维度为 None"
        "（mindspore.Tensor(shape=[None, 1, 28, 28], dtype=mindspore.float32)），file_format='MINDIR'，"
        "保存到 --out 中的 model.mindir。",
    # solutions: the comment lines around the reference's code
    "# from {path}": "# 摘自 {path}",
    "# in main():": "# main() 中：",
    # the file
    "set MY_SCRIPT to the path of your script, run that cell, then check again.":
        "请把 MY_SCRIPT 设为你的脚本的路径，运行该单元格，然后再检查。",
    "there is no file {path!r} yet: run the cell that copies the skeleton, fill in the TODOs, then check again.":
        "文件 {path!r} 还不存在。请运行复制脚本模板的单元格，填写其中的 TODO，然后再检查。",
    "{name} still has blanks ____ in TODO{todos}: fill them in, save the file, then check again.":
        "{name} 的 TODO{todos} 中仍有占位符 ____，请填写它们，保存文件，然后再检查。",
    "{name} does not parse: {error} on line {line}: {text!r}": "{name} 无法解析：第 {line} 行 {error}：{text!r}",
    "{name} imports course_utils (line {line}): the capstone script must stand alone, with MindSpore and NumPy "
    "only, so that it runs outside the course.":
        "{name} 导入了 course_utils（第 {line} 行）：结课项目的脚本必须独立运行，只依赖 MindSpore 和 NumPy，"
        "这样它才能在课程之外运行。",
    "{name} never renames a file (os.replace): a checkpoint written in place is lost when the process dies in the "
    "middle of writing it.":
        "{name} 从不重命名文件（os.replace）：直接原地写入的检查点，会在进程于写入过程中终止时丢失。",
    # running it
    "`python {name} {args}` did not finish within {timeout:.0f} s; last output: {output}":
        "`python {name} {args}` 未能在 {timeout:.0f} 秒内结束；最后的输出：{output}",
    "(nothing)": "（无）",
    "(no output)": "（没有输出）",
    " (raised at {file}, line {line})": "（在 {file} 第 {line} 行抛出）",
    "`{command}`{what} failed with exit code {code}: {error}{at}": "`{command}`{what} 失败，退出码 {code}：{error}{at}",
    " (the resume)": "（断点续训）",
    "line {n} of {log} is not JSON: {text!r}": "{log} 的第 {n} 行不是 JSON：{text!r}",
    "no {name} in the output folder after the run.": "运行结束后，输出文件夹中没有 {name}。",
    "{name} is not a checkpoint MindSpore can read: {error}": "{name} 不是 MindSpore 能读取的检查点：{error}",
    "{name} has no {entries} entry: the checkpoint must say where training stood (the epoch in progress, 0-based, "
    "and how many of its steps are done).":
        "{name} 中没有 {entries} 条目：检查点必须说明训练进行到了哪里（正在进行的轮次，从 0 开始计数，以及这一轮中"
        "已完成的步数）。",
    " and no ": " 和 ",
    "{name} has no optimizer state (no global_step, no moments): it holds the weights only, so a resumed run would "
    "restart the optimizer from scratch.":
        "{name} 中没有优化器状态（没有 global_step，也没有动量）：它只保存了权重，因此断点续训时优化器会从头开始。",
    # q1
    "`{command}` wrote no {log} (one JSON object per finished epoch) in --out.":
        "`{command}` 没有在 --out 中写入 {log}（每完成一轮写一个 JSON 对象）。",
    "the first line of {log} lacks {missing}; it has {keys}.": "{log} 的第一行缺少 {missing}；现有的键为 {keys}。",
    "`{command}` (2 epochs) logged the epochs {epochs}, expected [1, 2].":
        "`{command}`（2 轮）在日志中记录的轮次是 {epochs}，期望为 [1, 2]。",
    "`{command}` printed {n} line(s) mentioning the epoch; expected one per epoch. Its output: {output}":
        "`{command}` 打印了 {n} 行提到 epoch 的内容；期望每轮一行。它的输出：{output}",
    "after 2 finished epochs the checkpoint says epoch={epoch}, step_in_epoch={step}; expected epoch=2, "
    "step_in_epoch=0 (the next epoch to run, none of its steps done).":
        "完成 2 轮后，检查点记录的是 epoch={epoch}、step_in_epoch={step}；期望为 epoch=2、step_in_epoch=0"
        "（即下一个要运行的轮次，其中还没有完成任何一步）。",
    "after 2 epochs of {steps} steps the optimizer's global_step in the checkpoint is {got}, expected {expected}.":
        "训练 2 轮（每轮 {steps} 步）后，检查点中优化器的 global_step 为 {got}，期望为 {expected}。",
    "the run left {stray} in --out: temporary files should be renamed or removed.":
        "运行在 --out 中留下了 {stray}：临时文件应当被重命名或删除。",
    # q2
    "`{command}` should stop after {stop} steps (in epoch 2, with {steps} steps per epoch); it logged the epochs "
    "{epochs} and its checkpoint counts {got} optimizer steps.":
        "`{command}` 应当在 {stop} 步后停止（在第 2 轮中，每轮 {steps} 步）；它在日志中记录的轮次是 {epochs}，"
        "检查点中的优化器步数为 {got}。",
    "after --stop-after {stop} the checkpoint says epoch={epoch}, step_in_epoch={step}; expected "
    "epoch={expected_epoch} (0-based), step_in_epoch={expected_step}.":
        "使用 --stop-after {stop} 后，检查点记录的是 epoch={epoch}、step_in_epoch={step}；期望为 "
        "epoch={expected_epoch}（从 0 开始计数）、step_in_epoch={expected_step}。",
    "after --resume the log starts again at epoch 1 ({epochs}): the run began from scratch instead of continuing "
    "where the checkpoint stood.":
        "使用 --resume 后，日志又从第 1 轮开始（{epochs}）：这次运行从头开始了，而不是从检查点所在的位置继续。",
    "after the stop and --resume the log has the epochs {epochs}, expected [1, 2] (the first epoch from before the "
    "stop, the second from the resumed run).":
        "停止并使用 --resume 后，日志中的轮次为 {epochs}，期望为 [1, 2]（第 1 轮来自停止之前，第 2 轮来自断点续训的"
        "运行）。",
    "after resuming at step {stop} the optimizer's global_step is {total}: it counted only the steps of the resumed "
    "run, so the optimizer state (global_step, moments) was not restored from the checkpoint.":
        "从第 {stop} 步断点续训后，优化器的 global_step 为 {total}：它只计入了续训运行中的步数，说明优化器状态"
        "（global_step、动量）没有从检查点恢复。",
    "the run was stopped after {stop} of {steps} steps, so the resumed run should train {left} more; the "
    "optimizer's global_step ends at {total} ({after} steps after the resume). Were the batches already trained in "
    "the interrupted epoch trained again?":
        "运行在全部 {steps} 步中的第 {stop} 步后停止，因此断点续训的运行应当再训练 {left} 步；但优化器的 global_step "
        "最终为 {total}（续训后走了 {after} 步）。被中断的轮次中已经训练过的批，是否又训练了一遍？",
    " (the same run without the stop)": "（未中断的同一次运行）",
    "epoch {epoch}'s train_loss after the stop and --resume is {got!r}, the same run without the stop logs "
    "{expected!r}: the mean must cover every step of the epoch, the ones before the stop included (the checkpoint's "
    "loss_sum, stored as float64).":
        "停止并 --resume 之后，第 {epoch} 轮的 train_loss 为 {got!r}，而未中断的同一次运行记录的是 {expected!r}："
        "平均值必须覆盖该轮次的每一步，包括停止之前的那些步（即检查点中以 float64 保存的 loss_sum）。",
    "epoch {epoch}'s train_loss after the stop and --resume is {got!r}, the same run without the stop logs "
    "{expected!r}, and {name} uses dropout (line {line}): dropout's random masks are not part of the checkpoint, so "
    "the resumed process draws other masks than the run without the stop (on some machines two fresh runs do not "
    "even draw the same ones). Remove the dropout: this check compares the logs bit for bit (section 3, \"The "
    "model\").":
        "停止并 --resume 之后，第 {epoch} 轮的 train_loss 为 {got!r}，而未中断的同一次运行记录的是 {expected!r}；"
        "{name} 用到了 Dropout（第 {line} 行）：Dropout 的随机掩码不在检查点中，续训的进程抽到的掩码与未中断的训练"
        "不同（在有些机器上，甚至两次全新的运行抽到的也不一样）。请去掉 Dropout：本项检查逐位比较两份日志（第 3 节“模型”）。",
    "the weights after the resumed run are exactly the ones in the checkpoint it resumed from: it stepped the "
    "optimizer but training did not change the network.":
        "断点续训运行结束后的权重与它所恢复的检查点中的权重完全相同：优化器的步数增加了，但训练没有改变网络。",
    # q3
    "`{command}` logged no test_accuracy in {log}.": "`{command}` 没有在 {log} 中记录 test_accuracy。",
    "the log reports test_accuracy={accuracy}: log a fraction between 0 and 1, not percent.":
        "日志中的 test_accuracy={accuracy}：请记录 0 到 1 之间的小数，而不是百分数。",
    "`{command}` reached {accuracy:.2%} on all {n:,} test images; the target is {target:.0%} (training loss "
    "per epoch: {losses}).":
        "`{command}` 在全部 {n:,} 张测试图像上达到 {accuracy:.2%}；目标是 {target:.0%}（每轮的训练损失：{losses}）。",
    # q4
    "`{command}` finished but left no {model} in --out.": "`{command}` 运行结束，但没有在 --out 中留下 {model}。",
    "{model} does not load with mindspore.load + nn.GraphCell: {error}":
        "{model} 无法用 mindspore.load + nn.GraphCell 加载：{error}",
    "{model} fails on a batch of {batch} image(s) of shape (1, 28, 28): {error}":
        "{model} 在一批 {batch} 张形状为 (1, 28, 28) 的图像上运行失败：{error}",
    "{model} returns shape {shape} for a batch of {batch}; expected ({batch}, 10).":
        "{model} 对一批 {batch} 张图像返回的形状为 {shape}；期望为 ({batch}, 10)。",
    "{model} gives an image different outputs alone and in a batch of 64 (largest difference {difference:.3g}): "
    "it was exported in training mode, where BatchNorm uses the batch's statistics and dropout is active.":
        "{model} 对同一张图像单独输入和放在 64 张的批中输入时给出不同的输出（最大绝对差 {difference:.3g}）：它是在训练"
        "模式下导出的，此时 BatchNorm 使用当前批的统计量，Dropout 也处于生效状态。",
    "the log's last test_accuracy is {logged:.2%}, but {model} scores {accuracy:.2%} on the same first {n} test "
    "images (normalised as in the course): the exported network is not the trained one, or expects other inputs.":
        "日志中最后的 test_accuracy 为 {logged:.2%}，但 {model} 在同样的前 {n} 张测试图像（按课程的方式归一化）上"
        "得分为 {accuracy:.2%}：导出的网络不是训练好的那个，或者它期望的是另一种输入。",
    # q0: each TODO on its own (course_utils/exercises/nb10_parts.py)
    "each TODO on its own, as you fill it": "逐个检查已填写的 TODO",
    "Each line names the function the TODO is in and what was tried on it; the message says what was expected and "
    "what came back. Fix one, save the file, run this check again. The docstring at the top of your file and of "
    "each function says what the function must do.":
        "每一行给出该 TODO 所在的函数以及检查时对它做了什么；说明中写明了期望的结果和实际得到的结果。改好一处，保存"
        "文件，再运行一次本检查。文件开头的文档字符串以及每个函数的文档字符串说明了该函数必须做什么。",
    "options --resume and --stop-after": "--resume 和 --stop-after 选项",
    "the augmentation": "数据增强",
    "scaling, normalisation, channels first": "缩放、归一化、通道优先",
    "the model": "模型",
    "the atomic checkpoint": "原子写入检查点",
    "the restore": "恢复检查点",
    "the MindIR export": "导出 MindIR",
    "evaluation": "评估",
    "loss, optimizer, training step": "损失函数、优化器、训练步",
    "the inner training loop": "内层训练循环",
    "{done} of {total} TODOs correct:": "{total} 个 TODO 中有 {done} 个正确。",
    "TODO {todo} ({what}, {function}): {outcome}": "TODO({todo}) {what}（位于 {function}）：{outcome}",
    "TODO {todo} ({what}, {function}): {outcome} - {message}":
        "TODO({todo}) {what}（位于 {function}）：{outcome}——{message}",
    "correct": "正确",
    "incorrect": "不正确",
    "not attempted": "尚未作答",
    "blanks ____ left": "仍有占位符 ____",
    "checked once TODO 3, in the same function, is correct": "待同一函数中的 TODO(3) 正确后再检查",
    "Now the end-to-end checks: exercises 10.1 to 10.4 run the whole script.":
        "接下来是端到端检查：练习 10.1 到 10.4 会运行整个脚本。",
    "importing the script raised {error}: {message}": "导入脚本时抛出了 {error}：{message}",
    "the script has no function main().": "脚本中没有 main() 函数。",
    "cannot find TODO {todo}'s code in main() (the skeleton's layout around it was changed).":
        "在 main() 中找不到 TODO({todo}) 的代码（脚本模板中它周围的代码结构被改动了）。",
    "parse_args() returns no `{name}`: the options are --resume and --stop-after (argparse turns - into _).":
        "parse_args() 返回的结果中没有 `{name}`：选项名为 --resume 和 --stop-after（argparse 会把 - 变成 _）。",
    "without the options, expected resume=False, stop_after=0; got resume={resume!r}, stop_after={stop!r}.":
        "不带这两个选项时，期望 resume=False、stop_after=0；实际为 resume={resume!r}、stop_after={stop!r}。",
    "--stop-after 7: expected stop_after=7 (an int), got {got!r}.":
        "--stop-after 7：期望 stop_after=7（int 类型），实际为 {got!r}。",
    "--resume: expected resume=True (a flag, no value), got {got!r}.":
        "--resume：期望 resume=True（一个开关选项，不带值），实际为 {got!r}。",
    "parse_args({argv}) exited: {error}": "parse_args({argv}) 退出了：{error}",
    "build_dataset returned an empty dataset.": "build_dataset 返回了一个空数据集。",
    "a test batch of 16: expected images (16, 1, 28, 28) Float32, got {got}.":
        "一批 16 张测试图像：期望图像为 (16, 1, 28, 28) Float32，实际为 {got}。",
    "a test batch of 16: expected labels (16,) Int32, got {got}.":
        "一批 16 张测试图像：期望标签为 (16,) Int32，实际为 {got}。",
    "the first test image should be scaled to [0, 1] and normalised with MNIST_MEAN and MNIST_STD: expected values "
    "from {lo:.4f} to {hi:.4f} (mean {mean:.4f}), got from {glo:.4f} to {ghi:.4f} (mean {gmean:.4f}).":
        "第一张测试图像应先缩放到 [0, 1]，再用 MNIST_MEAN 和 MNIST_STD 归一化：期望取值范围为 {lo:.4f} 到 {hi:.4f}"
        "（均值 {mean:.4f}），实际为 {glo:.4f} 到 {ghi:.4f}（均值 {gmean:.4f}）。",
    "an augmented training batch of {n}: expected images ({n}, 1, 28, 28) Float32, got {got}.":
        "一批 {n} 张经过数据增强的训练图像：期望图像为 ({n}, 1, 28, 28) Float32，实际为 {got}。",
    "{unchanged} of {n} augmented training images are exactly an original image: the augmentation does not change "
    "them.":
        "{n} 张经过数据增强的训练图像中有 {unchanged} 张与某张原图完全相同：数据增强没有改变它们。",
    "on average the augmentation moves the digits by {dx:+.1f} pixels to the right and {dy:+.1f} down; expected "
    "about 0 (shifts in both directions). In MindSpore, translate's numbers are the ranges of the shift, not its "
    "largest size: read the docs of RandomAffine.":
        "数据增强平均把数字向右移动 {dx:+.1f} 个像素、向下移动 {dy:+.1f} 个像素；期望约为 0（向两个方向平移）。"
        "在 MindSpore 中，translate 的各个数字是平移量的取值范围，而不是最大平移量：请查阅 RandomAffine 的文档。",
    "TODO(2) and TODO(3) still have blanks ____.": "TODO(2) 和 TODO(3) 中还有占位符 ____。",
    "build_model() returned {type}, expected an nn.Cell.": "build_model() 返回了 {type}，期望为 nn.Cell。",
    "the model has no BatchNorm layer (nn.BatchNorm2d or nn.BatchNorm1d).":
        "模型中没有 BatchNorm 层（nn.BatchNorm2d 或 nn.BatchNorm1d）。",
    "for a batch of 2 images (2, 1, 28, 28): expected logits (2, 10) Float32, got {got}.":
        "对一批 2 张图像 (2, 1, 28, 28)：期望 logits 为 (2, 10) Float32，实际为 {got}。",
    "save_checkpoint never renames a file (os.replace): a checkpoint written in place is lost when the process "
    "dies in the middle of writing it.":
        "save_checkpoint 从不重命名文件（os.replace）：直接写入目标位置的检查点，在进程写到一半时终止就会损坏丢失。",
    "after save_checkpoint(state, <folder>/checkpoint.ckpt, ...) the folder holds {files}, expected "
    "['checkpoint.ckpt'] alone.":
        "调用 save_checkpoint(state, <folder>/checkpoint.ckpt, ...) 之后，文件夹中有 {files}，期望只有 "
        "['checkpoint.ckpt']。",
    "save_checkpoint(..., epoch={epoch}, step_in_epoch={step}, settings): expected {name}={value} in the file, got "
    "{got}.":
        "save_checkpoint(..., epoch={epoch}, step_in_epoch={step}, settings)：期望文件中 {name}={value}，实际为 "
        "{got}。",
    "no such entry": "没有该条目",
    "the checkpoint lacks {n} of the state's {total} parameters, e.g. {names}: save the whole training step "
    "(network and optimizer).":
        "检查点缺少 state 的 {total} 个参数中的 {n} 个，例如 {names}：请保存整个训练步（网络和优化器）。",
    "the checkpoint's {name} differs from the state's.": "检查点中的 {name} 与 state 中的不一致。",
    "for a checkpoint with epoch=1, step_in_epoch=5, loss_sum={loss_sum!r}: expected the return value (1, 5, "
    "{loss_sum!r}), two ints and a float; got {got!r}.":
        "对于 epoch=1、step_in_epoch=5、loss_sum={loss_sum!r} 的检查点：期望返回值为 (1, 5, {loss_sum!r})，即两个 int "
        "和一个 float；实际为 {got!r}。",
    "save_checkpoint(..., loss_sum={expected!r}, ...): expected loss_sum={expected!r} in the file, got {got}. A Python "
    "float in append_dict is stored as float32: store loss_sum as a float64 Tensor, so that the resumed epoch's mean "
    "is exact.":
        "save_checkpoint(..., loss_sum={expected!r}, ...)：期望文件中 loss_sum={expected!r}，实际为 {got}。"
        "append_dict 中的 Python float 会以 float32 保存：请把 loss_sum 存为 float64 的 Tensor，这样续训轮次的平均损失"
        "才能分毫不差。",
    "restore_checkpoint replaced parameters of the state by new objects: copy the values into the existing ones "
    "(Parameter.copy_).":
        "restore_checkpoint 用新对象替换了 state 的参数：请把值复制到已有的参数中（Parameter.copy_）。",
    "after the restore {n} of {total} parameters do not hold the checkpoint's values, e.g. {name}: expected "
    "{expected}, got {got}.":
        "恢复之后，{total} 个参数中有 {n} 个的值与检查点不一致，例如 {name}：期望 {expected}，实际为 {got}。",
    "the parameters hold the checkpoint's values, but the training step that had run before the restore did not "
    "train them: after one more step {n} of {total} values differ from a step on the checkpoint's values (e.g. "
    "{name}). Copy each value into the existing parameter in place (Parameter.copy_).":
        "参数中已是检查点的值，但恢复之前已运行过的训练步并没有训练这些值：再训练一步后，{total} 个值中有 {n} 个"
        "与从检查点的值出发训练一步的结果不同（例如 {name}）。请把每个值原地复制到已有的参数中（Parameter.copy_）。",
    "export_mindir(net, <folder>/model.mindir) wrote {files}, not model.mindir.":
        "export_mindir(net, <folder>/model.mindir) 写出的是 {files}，而不是 model.mindir。",
    "model.mindir does not load with mindspore.load + nn.GraphCell: {error}":
        "model.mindir 无法用 mindspore.load + nn.GraphCell 加载：{error}",
    "the exported model fails on a batch of {n}: {error} (export with a batch dimension None).":
        "导出的模型在一批 {n} 张图像上运行失败：{error}（导出时请把批维度设为 None）。",
    "for a batch of {n} the exported model returns shape {got}, expected {expected}.":
        "对一批 {n} 张图像，导出的模型返回的形状为 {got}，期望为 {expected}。",
    "the exported model's outputs differ from the network's in eval mode (largest difference {difference:.3g}): "
    "export in eval mode.":
        "导出模型的输出与评估模式下网络的输出不同（最大绝对差 {difference:.3g}）：请在评估模式下导出。",
    "evaluate called the network in training mode: set_train(False) first.":
        "evaluate 在训练模式下调用了网络：请先调用 set_train(False)。",
    "after evaluate the network is still in eval mode: set_train(True) before returning.":
        "evaluate 结束后网络仍处于评估模式：返回之前请调用 set_train(True)。",
    "evaluate returned {type}; the log needs a number: return a Python float.":
        "evaluate 返回了 {type}；日志需要一个数：请返回 Python float。",
    "{right} of {n} images right, in batches of 8 (the last one of 4): expected {expected}, got {got!r}.":
        "{n} 张图像中 {right} 张分类正确，每批 8 张（最后一批 4 张）：期望 {expected}，实际为 {got!r}。",
    "`optimizer` is {type}, expected a MindSpore optimizer (nn.Adam, nn.SGD, ...).":
        "`optimizer` 是 {type}，期望为 MindSpore 优化器（nn.Adam、nn.SGD 等）。",
    "with --lr {lr} the optimizer's learning rate is {got}.": "指定 --lr {lr} 时，优化器的学习率却是 {got}。",
    "`state` is {type}, expected a Cell that holds the network and the optimizer.":
        "`state` 是 {type}，期望为一个同时持有网络和优化器的 Cell。",
    "`state` lacks {names}: it must hold the network and the optimizer (a checkpoint of it restores both).":
        "`state` 中缺少 {names}：它必须同时持有网络和优化器（用它保存的检查点才能把两者一起恢复）。",
    "after TODO(9) the network's BatchNorm layers are in eval mode, the mode every Cell starts in: call "
    "train_step.set_train() (net.set_train() for a functional step), or they train with their stored statistics "
    "instead of each batch's.":
        "TODO(9) 执行完后，网络的 BatchNorm 层仍处于评估模式（每个 Cell 创建时都处于该模式）：请调用 "
        "train_step.set_train()（函数式训练步则调用 net.set_train()），否则训练时它们用的是存储的统计量，"
        "而不是每一批自身的统计量。",
    "train_step(images, labels) should return the loss, one finite number; got {got}.":
        "train_step(images, labels) 应返回损失，即一个有限的数；实际为 {got}。",
    "one call of train_step did not advance the optimizer's global_step by 1.":
        "调用一次 train_step 后，优化器的 global_step 没有加 1。",
    "one call of train_step left the network's weights unchanged.": "调用一次 train_step 后，网络的权重没有变化。",
    "8 batches, skip=3: expected train_step on batches [3, 4, 5, 6, 7], got {got}.":
        "共 8 个批，skip=3：期望在第 [3, 4, 5, 6, 7] 批上调用 train_step，实际为 {got}。",
    "without --stop-after (0) the loop saved a checkpoint: {got}.": "不带 --stop-after（0）时，循环却保存了检查点：{got}。",
    "without --stop-after (0) the loop returned {got!r} before the epoch ended.":
        "不带 --stop-after（0）时，循环在轮次结束前就返回了 {got!r}。",
    "5 steps of loss 0.5 trained from global_step=10 and loss_sum=1.25: expected global_step=15 and loss_sum=3.75, "
    "got global_step={step} and loss_sum={loss_sum!r}.":
        "从 global_step=10、loss_sum=1.25 开始训练 5 步，每步损失 0.5：期望 global_step=15、loss_sum=3.75，实际为 "
        "global_step={step}、loss_sum={loss_sum!r}。",
    "from global_step=10 with --stop-after 13: expected train_step on batches [0, 1, 2], then stop; got {got}.":
        "从 global_step=10 开始、--stop-after 13：期望在第 [0, 1, 2] 批上调用 train_step 后停止；实际为 {got}。",
    "stopping after 3 steps of loss 0.5 in epoch 1, from loss_sum=1.25: expected one save_checkpoint(state, "
    "ckpt_path, 1, 3, 2.75, settings), got {got}.":
        "从 loss_sum=1.25 开始，在轮次 1 训练 3 步（每步损失 0.5）后停止：期望调用一次 save_checkpoint(state, "
        "ckpt_path, 1, 3, 2.75, settings)，实际为 {got}。",
    "no call": "没有调用",
    "the ink centres of the augmented images spread {sx:.2f} pixels horizontally and {sy:.2f} vertically (standard "
    "deviation; about 0.3 for images that are not shifted): expected random shifts in both directions, left-right "
    "and up-down, so at least {least} in each. Read what each number of RandomAffine's translate means.":
        "增强后图像的笔画中心在水平方向上分散 {sx:.2f} 像素，在竖直方向上分散 {sy:.2f} 像素（标准差；未平移的图像约为 "
        "0.3）：期望在两个方向上（左右和上下）都有随机平移，因此每个方向至少为 {least}。请查阅 RandomAffine 的 translate "
        "中每个数的含义。",
    "after --stop-after the loop should return 0; it returned {got!r}.": "--stop-after 生效后循环应返回 0；实际返回了 {got!r}。",
    # the notebook's plumbing (show_function)
    "the body is your {todos}; the checks' .solution() shows the reference's":
        "函数体就是你的 {todos}；各项检查的 .solution() 会展示参考答案的写法",
    # appendix B's study: the variants
    "as is": "原样",
    "with dropout": "带 Dropout",
    # appendix A: rank_from_lowest
    "the lowest": "最低",
    "the second lowest": "倒数第 2",
    "the third lowest": "倒数第 3",
    "the fourth lowest": "倒数第 4",
    "the highest": "最高",
    "number {rank} from the lowest": "倒数第 {rank}",
}
