"""Chinese messages (nb06): the exercises of notebook 06 (checkpoints, resume and inference).

Keys are the English texts of ``course_utils/exercises/nb06.py`` exactly (titles, hints and the solutions' comments
are translated when shown; check messages at their ``tr()`` call sites). A message nb05 already has (the network
handed over in training mode) is not repeated here. Terminology: the glossary in README.zh.md."""

MESSAGES = {
    'a checkpoint round trip for resuming':
        '用于断点续训的检查点往返',
    'predict one image':
        '预测单张图像',
    ('Save the training step, not the network: its parameters are the weights and the optimizer\'s state (moment1.*, '
     'moment2.*, beta1_power, global_step ...). save_state: ms.save_checkpoint(train_step, path, '
     'format="safetensors"). The format comes from format=, not from the file name (without it MindSpore writes a '
     'ckpt file and appends .ckpt to the name). restore_state: params = ms.load_checkpoint(path, '
     'format="safetensors"), then ms.load_param_into_net(train_step, params).'):
        ('保存训练步，而不是网络：训练步的参数包括权重和优化器的状态（moment1.*、moment2.*、beta1_power、global_step ……）。'
         'save_state：ms.save_checkpoint(train_step, path, format="safetensors")。格式由 format= 决定，而不是由文件名决定'
         '（不传它时，MindSpore 会写入 ckpt 文件，并在文件名后追加 .ckpt）。restore_state：params = '
         'ms.load_checkpoint(path, format="safetensors")，然后调用 ms.load_param_into_net(train_step, params)。'),
    ('Prepare the pixels as the pipeline does: x = (pixels.astype(np.float32) / 255.0 - data.MNIST_MEAN) / '
     'data.MNIST_STD. The network takes a batch (N, 1, 28, 28): x[None, None]. Call network.set_train(False) before '
     'predicting. ops.softmax(logits, axis=-1) turns the logits into probabilities; take row 0 as a NumPy array, and '
     'the digit is int(probabilities.argmax()).'):
        ('像流水线那样准备像素：x = (pixels.astype(np.float32) / 255.0 - data.MNIST_MEAN) / data.MNIST_STD。'
         '网络接收的是一个批 (N, 1, 28, 28)：x[None, None]。预测之前调用 network.set_train(False)。'
         'ops.softmax(logits, axis=-1) 把 logits 变成概率；取第 0 行并转成 NumPy 数组，预测的数字就是 '
         'int(probabilities.argmax())。'),
    '# the step: weights and optimizer state':
        '# 训练步：权重和优化器状态',
    '# the same format= as when saving':
        '# 与保存时相同的 format=',
    '# as the pipeline prepares it':
        '# 与流水线的处理方式相同',
    '# evaluation mode':
        '# 评估模式',
    '# a batch of one: (1, 1, 28, 28)':
        '# 大小为 1 的批：(1, 1, 28, 28)',
    # q1
    '`{name}` should be a function, got {got}.':
        '`{name}` 应当是一个函数，实际得到的是 {got}。',
    "save_state(train_step, '.../state.safetensors') wrote {written}, not state.safetensors.":
        "save_state(train_step, '.../state.safetensors') 写入的是 {written}，而不是 state.safetensors。",
    'no file':
        '没有任何文件',
    ("state.safetensors is not a safetensors file: MindSpore cannot read it with format='safetensors' (was it "
     "written in the ckpt format?)."):
        ("state.safetensors 不是 safetensors 文件：MindSpore 无法用 format='safetensors' 读取它"
         "（它是否是以 ckpt 格式写入的？）。"),
    ("state.safetensors lacks {n} of the training step's {total} parameters, e.g. {examples}: the optimizer's state "
     "is not in the file."):
        'state.safetensors 缺少训练步 {total} 个参数中的 {n} 个，例如 {examples}：文件中没有优化器的状态。',
    'the weights, e.g. {examples}':
        '权重，例如 {examples}',
    "the optimizer's state, e.g. {examples}":
        '优化器的状态，例如 {examples}',
    ('after restore_state, {n} of the {total} parameters of the fresh training step still differ from the saved '
     'ones: {what}.'):
        '调用 restore_state 之后，全新训练步的 {total} 个参数中仍有 {n} 个与保存的不同：{what}。',
    ("after one more training step on the same batch, {n} parameters of the restored step differ from the "
     "original's, e.g. {examples}."):
        '在同一个批上再训练一步之后，恢复出的训练步有 {n} 个参数与原训练步不同，例如 {examples}。',
    # q2
    '`predict_digit` should be a function, got {got}.':
        '`predict_digit` 应当是一个函数，实际得到的是 {got}。',
    'predict_digit(network, image {index})':
        'predict_digit(network, 图像 {index})',
    '{what} returned {got}; return two values: (digit, probabilities).':
        '{what} 返回了 {got}；请返回两个值：(digit, probabilities)。',
    '{what}: the digit is {got}; expected an int.':
        '{what}：数字是 {got}；期望是一个 int。',
    '{what}: the probabilities are {got}; expected 10 numbers.':
        '{what}：概率是 {got}；期望是 10 个数。',
    " (Row 0 of the batch's result is the image's.)":
        '（批的结果中第 0 行才是这张图像的。）',
    '{what}: the probabilities have shape {shape}; expected (10,).{hint}':
        '{what}：概率的形状为 {shape}；期望为 (10,)。{hint}',
    '{what}: the probabilities sum to {total:.4g}, not 1 (logits rather than probabilities?).':
        '{what}：概率之和为 {total:.4g}，而不是 1（返回的是 logits 而不是概率？）。',
    ' (These are the probabilities for the pixels scaled to [0, 1] but not normalised with MNIST_MEAN and MNIST_STD.)':
        '（这是像素缩放到 [0, 1] 之后、但没有用 MNIST_MEAN 和 MNIST_STD 归一化时的概率。）',
    ' (These are the probabilities for the raw 0-255 pixels.)':
        '（这是直接使用 0-255 原始像素时的概率。）',
    ('{what}: the probabilities differ from the expected ones by up to {diff:.3g} (expected {expected}, got '
     '{got}).{hint}'):
        '{what}：概率与期望值最多相差 {diff:.3g}（期望 {expected}，实际得到 {got}）。{hint}',
    '{what}: the digit is {digit}, but the largest probability is that of {best}.':
        '{what}：数字是 {digit}，但概率最大的是 {best}。',
}
