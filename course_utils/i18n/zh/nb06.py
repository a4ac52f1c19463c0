"""Chinese messages (nb06): the exercises of notebook 06 (checkpoints, resume and inference).

Keys are the English texts of ``course_utils/exercises/nb06.py`` exactly (titles, hints and the solutions' comments
are translated when shown; check messages at their ``tr()`` call sites).
Terminology: the glossary in README.zh.md."""

MESSAGES = {
    'a checkpoint round trip for resuming':
        '为断点续训保存和恢复检查点',
    'predict a batch and restore the mode':
        '预测一批图像并恢复模式',
    'reload a checkpoint into a step that has already run':
        '把检查点重新加载到已经运行过的训练步中',
    ('Save the training step, not the network: its parameters are the weights and the optimizer\'s state (moment1.*, '
     'moment2.*, beta1_power, global_step ...). save_state: ms.save_checkpoint(train_step, path, '
     'format="safetensors", append_dict={"epoch": epoch, "step_in_epoch": step_in_epoch}). The format comes from '
     'format=, not from the file name (without it MindSpore writes a ckpt file and appends .ckpt to the name). '
     'restore_state: params = ms.load_checkpoint(path, format="safetensors"), then '
     'ms.load_param_into_net(train_step, params); the position comes back as entries of params: '
     'int(params["epoch"].asnumpy()).'):
        ('保存训练步，而不是网络：训练步的参数包括权重和优化器的状态（moment1.*、moment2.*、beta1_power、global_step ……）。'
         'save_state：ms.save_checkpoint(train_step, path, format="safetensors", append_dict={"epoch": epoch, '
         '"step_in_epoch": step_in_epoch})。格式由 format= 决定，而不是由文件名决定'
         '（不传它时，MindSpore 会写入 ckpt 文件，并在文件名后追加 .ckpt）。restore_state：params = '
         'ms.load_checkpoint(path, format="safetensors")，然后调用 ms.load_param_into_net(train_step, params)；'
         '训练进度作为 params 中的条目读回：int(params["epoch"].asnumpy())。'),
    ('Remember the mode first: was_training = network.training. Prepare the images as the pipeline does, '
     '(images.astype(np.float32) / 255.0 - data.MNIST_MEAN) / data.MNIST_STD, with a channel axis: x[:, None] is '
     '(N, 1, 28, 28) (the lesson\'s normalise prepares one image). network.set_train(False), then '
     'ops.softmax(network(ms.Tensor(x)), axis=-1) and argmax(axis=1). Put the mode back with '
     'network.set_train(was_training): it sets every sub-cell (Dropout, BatchNorm), which assigning '
     'network.training does not; in a finally: block, an error cannot leave the mode changed either.'):
        ('先记下原来的模式：was_training = network.training。像流水线那样准备图像：'
         '(images.astype(np.float32) / 255.0 - data.MNIST_MEAN) / data.MNIST_STD，再加上通道轴：x[:, None] 的形状为 '
         '(N, 1, 28, 28)（本课的 normalise 只处理单张图像）。调用 network.set_train(False)，然后 '
         'ops.softmax(network(ms.Tensor(x)), axis=-1)，再取 argmax(axis=1)。用 network.set_train(was_training) '
         '恢复模式：它会设置每一个子 Cell（Dropout、BatchNorm），而直接给 network.training 赋值做不到这一点；'
         '把它放在 finally: 块中，即使出错，也能把模式恢复原样。'),
    '# the step: weights and optimizer state':
        '# 训练步：权重和优化器状态',
    '# the same format= as when saving':
        '# 与保存时相同的 format=',
    '# and the position':
        '# 以及训练进度',
    '# safe: this fresh step has not run yet':
        '# 可以放心使用：这个全新的训练步还没有运行过',
    '# a dict: name -> Parameter':
        '# 一个字典：名称 -> Parameter',
    '# into the storage the step already uses':
        '# 写入训练步已经在使用的存储',
    '# the network\'s names':
        '# 换成网络中的参数名',
    ('The step keeps using the storage its parameters had when it ran: a reload must write the values into that '
     'storage, not give the parameters new storage as ms.load_param_into_net (and set_data) does. Read the file '
     'with ms.load_checkpoint(path) and print its names: they carry a prefix that the network\'s names lack. Then, '
     'for every name, param in network.parameters_and_names(), copy the matching stored value into param with '
     'Parameter.copy_.'):
        ('训练步会一直使用它运行时参数所在的存储：重新加载必须把数值写进这块存储，而不能像 ms.load_param_into_net'
         '（以及 set_data）那样给参数换上新的存储。先用 ms.load_checkpoint(path) 读取文件并打印其中的名称：'
         '它们带有一个网络参数名中没有的前缀。然后对 network.parameters_and_names() 中的每一对 name, param，'
         '用 Parameter.copy_ 把对应的保存值复制进 param。'),
    '# the mode to put back':
        '# 之后要恢复的模式',
    '# as the pipeline prepares them':
        '# 与流水线的处理方式相同',
    '# evaluation mode':
        '# 评估模式',
    '# a batch (N, 1, 28, 28)':
        '# 一个批：(N, 1, 28, 28)',
    '# every sub-cell, even after an error':
        '# 每一个子 Cell，出错时也会恢复',
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
    ("state.safetensors holds only the training step's parameters: the position (epoch {epoch}, step_in_epoch "
     "{step}) is not in the file."):
        'state.safetensors 中只有训练步的参数：训练进度（epoch {epoch}，step_in_epoch {step}）不在文件中。',
    ("save_state(train_step, path, {epoch}, {step}) then restore_state(fresh_step, path) returned {got}; expected "
     "the position read from the file, ({epoch}, {step})."):
        ('先调用 save_state(train_step, path, {epoch}, {step})，再调用 restore_state(fresh_step, path)，'
         '返回的是 {got}；期望返回从文件中读回的训练进度 ({epoch}, {step})。'),
    ("your function called course_utils.checkpoint (save, load or read), which does the exercise for you: write "
     "it with MindSpore's own calls (save_checkpoint, load_checkpoint)."):
        '你的函数调用了 course_utils.checkpoint（save、load 或 read），它替你完成了这道练习：请用 MindSpore 自带的接口'
        '（save_checkpoint、load_checkpoint）来写。',
    # q2
    ("predict_batch called course_utils.evaluate (predict_logits or softmax, under any name), which does the "
     "exercise for you: write it with MindSpore's own calls."):
        ('predict_batch 调用了 course_utils.evaluate（predict_logits 或 softmax，无论以什么名字导入），它替你完成了'
         '这道练习：请用 MindSpore 自带的接口来写。'),
    '`predict_batch` should be a function, got {got}.':
        '`predict_batch` 应当是一个函数，实际得到的是 {got}。',
    'predict_batch(network, {n} images), network in training mode':
        'predict_batch(network, {n} 张图像)，网络处于训练模式',
    'predict_batch(network, {n} images), network in evaluation mode':
        'predict_batch(network, {n} 张图像)，网络处于评估模式',
    '{what} returned {got}; return two values: (labels, probabilities).':
        '{what} 返回了 {got}；请返回两个值：(labels, probabilities)。',
    '{what}: the probabilities are {got}; expected an array of shape ({n}, 10).':
        '{what}：概率是 {got}；期望是形状为 ({n}, 10) 的数组。',
    '{what}: the probabilities have shape {shape}; expected ({n}, 10), a row of 10 per image.':
        '{what}：概率的形状为 {shape}；期望为 ({n}, 10)，每张图像一行 10 个数。',
    ('{what}: the rows of the probabilities sum to {sums}, not 1 (logits rather than probabilities, or a softmax '
     'over the wrong axis?).'):
        '{what}：概率各行之和为 {sums}，而不是 1（返回的是 logits 而不是概率，或者 softmax 用错了轴？）。',
    " The network was in training mode while it predicted (Dropout active, BatchNorm on the batch's statistics).":
        '网络在预测时处于训练模式（Dropout 生效，BatchNorm 使用当前批的统计量）。',
    ' (These are the probabilities for the pixels scaled to [0, 1] but not normalised with MNIST_MEAN and MNIST_STD.)':
        '（这是像素缩放到 [0, 1] 之后、但没有用 MNIST_MEAN 和 MNIST_STD 归一化时的概率。）',
    ' (These are the probabilities for the raw 0-255 pixels.)':
        '（这是直接使用 0-255 原始像素时的概率。）',
    ('{what}: the probabilities differ from the expected ones by up to {diff:.3g}; image {index}: expected '
     '{expected}, got {got}.{hint}'):
        '{what}：概率与期望值最多相差 {diff:.3g}；图像 {index}：期望 {expected}，实际得到 {got}。{hint}',
    '{what}: the labels are {got}; expected {n} integers, one per image.':
        '{what}：标签是 {got}；期望是 {n} 个整数，每张图像一个。',
    '{what}: the labels are {got}, but the largest probabilities are those of {best}.':
        '{what}：标签是 {got}，但概率最大的类别是 {best}。',
    '{what}: afterwards network.training is {got}; it was {was} before the call.':
        '{what}：调用之后 network.training 为 {got}；调用之前它是 {was}。',
    ('{what}: afterwards network.training is {was} again, but {n} of its sub-cells are not, e.g. '
     '{examples}.'):
        '{what}：调用之后 network.training 恢复成了 {was}，但有 {n} 个子 Cell 没有恢复，例如 {examples}。',
    # q3
    '`reload_from_file` should be a function, got {got}.':
        '`reload_from_file` 应当是一个函数，实际得到的是 {got}。',
    '{style} step in {mode}':
        '{mode}下的“{style}”训练步',
    'functional, @jit':
        '函数式，@jit',
    'functional, no jit':
        '函数式，不用 jit',
    'PYNATIVE_MODE':
        '动态图模式',
    ("{what}: reload_from_file(network, path) raised KeyError: {key}. The file's entries are named {stored}, the "
     "network's parameters {names}."):
        '{what}：reload_from_file(network, path) 引发了 KeyError: {key}。文件中的条目名为 {stored}，网络的参数名为 {names}。',
    ("{what}: after reload_from_file(network, path), {n} of the network's {total} parameters do not hold the "
     "file's values, e.g. {examples}."):
        '{what}：调用 reload_from_file(network, path) 之后，网络的 {total} 个参数中有 {n} 个不是文件中的值，例如 {examples}。',
    "the loss a fresh network's first step gives, {got:.6f}":
        '与全新网络第一步相同的损失 {got:.6f}',
    'the loss {got:.6f} instead of {expected:.6f}':
        '损失 {got:.6f}，而不是 {expected:.6f}',
    "the ones a fresh network's first step leaves":
        '与全新网络第一步之后相同',
    "still the file's values: the step's update did not reach them":
        '仍是文件中的值：训练步的更新没有作用到它们上',
    "changed, but not as a fresh network's first step changes them (by up to {diff:.2g} off)":
        '变了，但与全新网络第一步的更新不同（最多相差 {diff:.2g}）',
    "{what}: the step after the reload gave {loss}, and the network's parameters after it were {weights}.":
        '{what}：重新加载之后的那一步得到了{loss}，而这一步之后网络的参数{weights}。',
}
