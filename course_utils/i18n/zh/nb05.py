"""Chinese messages (nb05): the exercises of notebook 05 (MNIST + LeNet-5).

Keys are the English texts of ``course_utils/exercises/nb05.py`` exactly (titles, hints and
solutions are translated when shown; check messages at their ``tr()`` call sites), then those of
``course_utils/bench/lenet_study.py`` (section 3's stored recipe study: its table and strip plot).
Terminology: the glossary in README.zh.md."""

MESSAGES = {
    'flatten size for any input size':
        '任意输入尺寸下的展平尺寸',
    'add batch normalisation and dropout':
        '加入批归一化和 Dropout',
    'a confusion matrix from an evaluation loop':
        '用评估循环求混淆矩阵',
    ("Follow the side length s through the four shrinking layers. A 5x5 'valid' convolution keeps only the "
     'positions where the whole kernel fits: s -> s - 5 + 1. A 2x2 max-pool with stride 2 halves it, rounding down: '
     's -> s // 2. Do conv, pool, conv, pool, then multiply by the 16 channels of the second convolution: 16 * s * '
     's.'):
        ('跟踪边长 s 经过四个使其缩小的层。valid 模式的 5×5 卷积只保留卷积核能完整放下的位置：s -> s - 5 + 1。'
         '步长为 2 的 2×2 最大池化把边长减半并向下取整：s -> s // 2。依次做卷积、池化、卷积、池化，'
         '再乘以第二个卷积的 16 个通道：16 * s * s。'),
    ('Start from the LeNet5 of this notebook. In __init__ add self.bn1 = nn.BatchNorm2d(6) and self.bn2 = '
     "nn.BatchNorm2d(16) (num_features = the convolution's output channels) and self.dropout = "
     'nn.Dropout(p=dropout) (p is the fraction dropped). In construct: x = '
     'self.pool(self.relu(self.bn1(self.conv1(x)))), the same with conv2/bn2, flatten, fc1, relu, fc2, relu, then x '
     '= self.dropout(x) right before self.fc3(x).'):
        ('从本 Notebook 中的 LeNet5 出发。在 __init__ 中加入 self.bn1 = nn.BatchNorm2d(6) 和 self.bn2 = '
         'nn.BatchNorm2d(16)（num_features = 卷积的输出通道数），以及 self.dropout = nn.Dropout(p=dropout)（p '
         '是丢弃的比例）。在 construct 中：x = self.pool(self.relu(self.bn1(self.conv1(x))))，conv2/bn2 同理，'
         '然后依次是 flatten、fc1、relu、fc2、relu，最后在 self.fc3(x) 之前紧接着执行 x = self.dropout(x)。'),
    ('network.set_train(False) first (dropout off, batch norm uses its running statistics). Start from counts = '
     'np.zeros((10, 10), dtype=int). Then loop over start = 0, batch_size, 2 * batch_size, ...: logits = '
     'network(ms.Tensor(images[start:start + batch_size])); predictions = logits.asnumpy().argmax(axis=1); for '
     'every pair (true, predicted) of labels[start:start + batch_size] and predictions add 1 to counts[true, '
     'predicted]. Row = the true digit, column = the prediction; the last batch may be smaller, and every image '
     'counts once.'):
        ('先调用 network.set_train(False)（关闭 Dropout，BatchNorm 使用动态均值和动态方差）。从 counts = '
         'np.zeros((10, 10), dtype=int) 开始，然后按 start = 0、batch_size、2 * batch_size …… 循环：logits = '
         'network(ms.Tensor(images[start:start + batch_size]))；predictions = logits.asnumpy().argmax(axis=1)；'
         '对 labels[start:start + batch_size] 与 predictions 中的每一对 (true, predicted)，给 counts[true, '
         'predicted] 加 1。行是真实数字，列是预测；最后一个批可能更小，每张图像恰好计数一次。'),
    ('def flatten_size(image_size):\n    side = image_size\n    for _ in range(2):                 # (valid 5x5 '
     'conv, 2x2 pool) twice\n        side = (side - 5 + 1) // 2\n    return 16 * side * side'):
        ('def flatten_size(image_size):\n    side = image_size\n    for _ in range(2):                 # '
         '两次（valid 5×5 卷积，2×2 池化）\n        side = (side - 5 + 1) // 2\n    return 16 * side * side'),
    ('class LeNet5BN(nn.Cell):\n    def __init__(self, num_classes=10, dropout=0.5):\n        super().__init__()\n  '
     '      self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")\n        self.bn1 = nn.BatchNorm2d(6)\n        '
     'self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")\n        self.bn2 = nn.BatchNorm2d(16)\n        self.relu '
     '= nn.ReLU()\n        self.pool = nn.MaxPool2d(kernel_size=2, stride=2)\n        self.flatten = nn.Flatten()\n '
     '       self.fc1 = nn.Dense(16 * 4 * 4, 120)    # 256 features for 28x28 inputs\n        self.fc2 = '
     'nn.Dense(120, 84)\n        self.dropout = nn.Dropout(p=dropout)\n        self.fc3 = nn.Dense(84, '
     'num_classes)\n\n    def construct(self, x):\n        x = self.pool(self.relu(self.bn1(self.conv1(x))))\n      '
     '  x = self.pool(self.relu(self.bn2(self.conv2(x))))\n        x = self.flatten(x)\n        x = '
     'self.relu(self.fc1(x))\n        x = self.relu(self.fc2(x))\n        return self.fc3(self.dropout(x))'):
        ('class LeNet5BN(nn.Cell):\n    def __init__(self, num_classes=10, dropout=0.5):\n        '
         'super().__init__()\n        self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")\n        self.bn1 = '
         'nn.BatchNorm2d(6)\n        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")\n        self.bn2 = '
         'nn.BatchNorm2d(16)\n        self.relu = nn.ReLU()\n        self.pool = nn.MaxPool2d(kernel_size=2, '
         'stride=2)\n        self.flatten = nn.Flatten()\n        self.fc1 = nn.Dense(16 * 4 * 4, 120)    # 28×28 '
         '的输入对应 256 个特征\n        self.fc2 = nn.Dense(120, 84)\n        self.dropout = '
         'nn.Dropout(p=dropout)\n        self.fc3 = nn.Dense(84, num_classes)\n\n    def construct(self, x):\n      '
         '  x = self.pool(self.relu(self.bn1(self.conv1(x))))\n        x = '
         'self.pool(self.relu(self.bn2(self.conv2(x))))\n        x = self.flatten(x)\n        x = '
         'self.relu(self.fc1(x))\n        x = self.relu(self.fc2(x))\n        return self.fc3(self.dropout(x))'),
    'a validation split with the same number of rows per class':
        '每个类别行数相同的验证集划分',
    ('rng = np.random.default_rng(seed) once. For every class c in np.unique(labels): the rows of that class are '
     'np.flatnonzero(labels == c), and rng.choice(those_rows, per_class, replace=False) picks per_class of them. The '
     'validation rows are all the picks together (np.sort them), the training rows every other row '
     '(np.setdiff1d(np.arange(len(labels)), val_rows)). Return (make_source(ds.SubsetRandomSampler(...)), '
     'make_source(ds.SubsetSampler(...))): the first sampler reshuffles its rows every epoch, the second reads them '
     'in order.'):
        ('先创建一次 rng = np.random.default_rng(seed)。对 np.unique(labels) 中的每个类别 c：该类别的行是 '
         'np.flatnonzero(labels == c)，rng.choice(those_rows, per_class, replace=False) 从中选出 per_class 行。'
         '所有选出的行合在一起就是验证集的行（用 np.sort 排序），其余的行是训练集的行'
         '（np.setdiff1d(np.arange(len(labels)), val_rows)）。返回 (make_source(ds.SubsetRandomSampler(...)), '
         'make_source(ds.SubsetSampler(...)))：前一个采样器每个轮次都重新混洗它的行，后一个按顺序读取。'),
    '# the choice, fixed by the seed':
        '# 选择由随机种子固定',
    '# per_class rows of every class':
        '# 每个类别 per_class 行',
    '# every other row':
        '# 其余所有行',
    '# reshuffled every epoch':
        '# 每个轮次重新混洗',
    '# always in the same order':
        '# 始终按同一顺序',
    '`flatten_size` should be a function of the image size, got {got}.':
        '`flatten_size` 应当是一个以图像尺寸为参数的函数，实际得到的是 {got}。',
    ("`flatten_size` calls lenet_flatten_size, the course's own answer; work the size out from the layers "
     'instead.'):
        '`flatten_size` 调用了课程自己给出答案的 lenet_flatten_size；请根据各层自己推算尺寸。',
    ("`flatten_size` uses the course's lenet_flatten_size (directly, under another name or through "
     'course_utils.models.LeNet5); work the size out from the layers instead.'):
        ('`flatten_size` 用到了课程自己的 lenet_flatten_size（直接调用、换名调用或经由 '
         'course_utils.models.LeNet5）；请根据各层自己推算尺寸。'),
    ("LeNet5BN(num_classes=84) has no Dense(84, 84) layer; expected the last Dense layer to map LeNet-5's 84 "
     'features to num_classes.'):
        'LeNet5BN(num_classes=84) 中没有 Dense(84, 84) 层；期望最后一个 Dense 层把 LeNet-5 的 84 个特征映射到 num_classes。',
    ('in training mode the input of the last Dense layer changes from call to call in entries that dropout kept; '
     "expected the nn.Dropout right before the last Dense layer, so that what that layer receives is the dropout's "
     'output.'):
        ('训练模式下，最后一个 Dense 层的输入在 Dropout 保留的元素上也随调用而变化；期望 nn.Dropout 紧接在最后一个 '
         'Dense 层之前，使该层接收的正是 Dropout 的输出。'),
    ("`confusion_counts` uses the course's evaluation (course_utils.evaluate: evaluate, predict_logits, "
     'confusion_matrix or mnist_test_accuracy); write the loop itself: the mode, the batches and the counts.'):
        ('`confusion_counts` 用到了课程自己的评估函数（course_utils.evaluate 中的 evaluate、predict_logits、'
         'confusion_matrix 或 mnist_test_accuracy）；请自己写出这个循环：切换模式、分批、计数。'),
    'flatten_size({size}) returned {got}; return a whole number (int).':
        'flatten_size({size}) 返回了 {got}；请返回一个整数（int）。',
    'flatten_size({size}) returned {got!r}, a float; expected the int {expected}.':
        'flatten_size({size}) 返回了 {got!r}，这是一个浮点数；期望的是整数 {expected}。',
    ' (400 is the size for 32x32 inputs.)':
        '（400 是 32×32 输入的尺寸。）',
    ' ({got} is the size of one channel.)':
        '（{got} 是单个通道的尺寸。）',
    ' (That is the size if each convolution removed 5 pixels per side length instead of 4.)':
        '（这是每次卷积使边长减少 5 而不是 4 时的尺寸。）',
    ' (That is the size with padded convolutions, which keep the side length.)':
        '（这是带填充的卷积（保持边长不变）时的尺寸。）',
    ' (A float: the pooled side lengths were not rounded down.)':
        '（得到了浮点数：池化后的边长没有向下取整。）',
    'flatten_size({size}): expected {expected} (16 channels x {side} x {side}), got {got!r}.{hint}':
        'flatten_size({size})：期望 {expected}（16 个通道 × {side} × {side}），实际得到 {got!r}。{hint}',
    '`LeNet5BN` should be a class derived from nn.Cell, got {got}.':
        '`LeNet5BN` 应当是一个继承自 nn.Cell 的类，实际得到的是 {got}。',
    'LeNet5BN(num_classes=10, dropout=0.3) failed: {error}.':
        'LeNet5BN(num_classes=10, dropout=0.3) 执行失败：{error}。',
    'LeNet5BN() has no batch normalisation layer among its cells; expected two nn.BatchNorm2d layers.':
        'LeNet5BN() 的各层中没有批归一化层；期望有两个 nn.BatchNorm2d 层。',
    'expected exactly two nn.BatchNorm2d layers (one per convolution), found {n2d} BatchNorm2d and {n1d} BatchNorm1d.':
        '期望恰好有两个 nn.BatchNorm2d 层（每个卷积一个），实际找到 {n2d} 个 BatchNorm2d 和 {n1d} 个 BatchNorm1d。',
    "the batch-norm layers normalise {sizes} channels; expected [6, 16], the convolutions' output channels.":
        '批归一化层归一化的通道数为 {sizes}；期望为 [6, 16]，即两个卷积的输出通道数。',
    'expected one nn.Dropout layer (before the last Dense layer), found {n}.':
        '期望有一个 nn.Dropout 层（位于最后一个 Dense 层之前），实际找到 {n} 个。',
    ' (0.70 is the fraction kept.)':
        '（0.70 是保留的比例。）',
    'LeNet5BN(dropout=0.3) drops a fraction {rate:.2f} of the activations; expected 0.30.{hint}':
        'LeNet5BN(dropout=0.3) 丢弃的激活值比例为 {rate:.2f}；期望为 0.30。{hint}',
    "keep LeNet-5's layers: 2 convolutions and 3 Dense layers (found {convs} and {denses}).":
        '请保留 LeNet-5 的各层：2 个卷积层和 3 个 Dense 层（实际找到 {convs} 个和 {denses} 个）。',
    'the first Dense layer should take 16 * 4 * 4 = 256 features for 28x28 inputs, got {got}.':
        '对于 28×28 的输入，第一个 Dense 层应当接收 16 * 4 * 4 = 256 个特征，实际各 Dense 层的输入特征数为 {got}。',
    'LeNet5BN()(x) for x of shape (4, 1, 28, 28) returned shape {shape}; expected (4, 10).':
        '对形状为 (4, 1, 28, 28) 的 x，LeNet5BN()(x) 返回的形状为 {shape}；期望为 (4, 10)。',
    ('in evaluation mode (net.set_train(False)) two calls of LeNet5BN(dropout=0.3) on the same input differ by up '
     'to {difference:.3g}; expected identical outputs.'):
        ('在评估模式下（net.set_train(False)），对同一输入两次调用 LeNet5BN(dropout=0.3)，结果最多相差 '
         '{difference:.3g}；期望输出完全相同。'),
    ('in training mode (net.set_train(True)) two calls of LeNet5BN(dropout=0.3) on the same input gave the same '
     'output; expected dropout to make them differ.'):
        ('在训练模式下（net.set_train(True)），对同一输入两次调用 LeNet5BN(dropout=0.3) 得到了相同的输出；期望 '
         'Dropout 使两次输出不同。'),
    'LeNet5BN(num_classes=3)(x) for x of shape (4, 1, 28, 28) returned shape {shape}; expected (4, 3).':
        '对形状为 (4, 1, 28, 28) 的 x，LeNet5BN(num_classes=3)(x) 返回的形状为 {shape}；期望为 (4, 3)。',
    '`confusion_counts` should be a function, got {got}.':
        '`confusion_counts` 应当是一个函数，实际得到的是 {got}。',
    'confusion_counts(network, images, labels, batch_size={batch_size}) on fixed case {case} (ten images)':
        '在固定用例 {case}（十张图像）上运行的 confusion_counts(network, images, labels, batch_size={batch_size})',
    '{what} returned {got}; return a (10, 10) array of counts.':
        '{what} 返回了 {got}；请返回一个 (10, 10) 的计数数组。',
    ("{what} returned one number, {got}: an accuracy, as section 3's `accuracy` returns? Return the confusion "
     'matrix instead: a (10, 10) array whose entry [t, p] counts the images of true digit t predicted as p.'):
        ('{what} 返回了一个数 {got}：这是准确率吗，就像第 3 节的 `accuracy` 返回的那样？请改为返回混淆矩阵：'
         '一个 (10, 10) 的数组，元素 [t, p] 是真实数字为 t、被预测为 p 的图像张数。'),
    '{what} returned shape {shape}; expected (10, 10): one row per true digit, one column per predicted digit.':
        '{what} 返回的形状为 {shape}；期望为 (10, 10)：每个真实数字一行，每个预测数字一列。',
    '{what} returned fractions (row sums {sums}); return counts of images, whole numbers, not rates.':
        '{what} 返回的是比例（各行之和为 {sums}）；请返回图像张数，即整数，而不是比率。',
    ('{what} differs from the expected counts: the network was in training mode while it predicted (it was handed '
     'over in training mode).'):
        '{what} 与期望的计数不同：网络在预测时处于训练模式（传入的网络处于训练模式）。',
    '{what} has rows and columns swapped: expected row = the true digit (labels), column = the prediction.':
        '{what} 的行与列颠倒了：期望行是真实数字（labels），列是预测。',
    '{what} counts {total} images; there are {n}: every image once, the smaller last batch included.':
        '{what} 统计了 {total} 张图像；实际共有 {n} 张：每张图像计数一次，包括较小的最后一个批。',
    '{what}: the counts differ at [true, predicted] {cells}: expected {expected}, got {got}.':
        '{what}：计数在 [真实, 预测] 位置 {cells} 处不同：期望 {expected}，实际得到 {got}。',
    '`split_train_validation` should be a function, got {got}.':
        '`split_train_validation` 应当是一个函数，实际得到的是 {got}。',
    '{call} returned {got}; expected two datasets, (train, validation).':
        '{call} 返回了 {got}；期望返回两个数据集：(train, validation)。',
    '{call}: the training part has {n_train} rows and the validation part {n_val}; expected {e_train} and {e_val}.':
        '{call}：训练部分有 {n_train} 行，验证部分有 {n_val} 行；期望分别为 {e_train} 行和 {e_val} 行。',
    '{call}: {n} rows are in both parts (e.g. row {row}); expected none.':
        '{call}：有 {n} 行同时出现在两部分中（例如第 {row} 行）；期望没有任何重叠。',
    '{call}: a row appears twice within one part; expected every row of the source exactly once.':
        '{call}：某一行在同一部分中出现了两次；期望数据源的每一行恰好出现一次。',
    '{call}: the validation part has {counts} rows of the classes 0 to {last}; expected {per_class} of each.':
        '{call}：验证部分中类别 0 到 {last} 的行数分别为 {counts}；期望每个类别各 {per_class} 行。',
    ('{call}: the validation rows are the first (or the last) {per_class} rows of every class; expected rows chosen '
     'at random.'):
        '{call}：验证集的行是每个类别的前（或后）{per_class} 行；期望是随机选出的行。',
    'two calls with seed=7 chose different validation rows; expected the same rows for the same seed.':
        '两次以 seed=7 调用选出了不同的验证行；期望相同的随机种子选出相同的行。',
    'seed=7 and seed=8 chose the same validation rows; expected the seed to choose them.':
        'seed=7 和 seed=8 选出了相同的验证行；期望由随机种子决定选出哪些行。',
    ('{call}: the validation part yields its rows in a new order every epoch; expected the same order every '
     'epoch.'):
        '{call}：验证部分每个轮次给出各行的顺序都不同；期望每个轮次的顺序都相同。',
    '{call}: the training part yields its rows in the same order in two epochs; expected a new order every epoch.':
        '{call}：训练部分在两个轮次中按相同的顺序给出各行；期望每个轮次都是新的顺序。',
    # section 3: course_utils/bench/lenet_study.py (print_study, plot_study)
    'stored study: {header}':
        '保存的实验结果：{header}',
    'this run:     {header}':
        '本次运行：      {header}',
    ("this run's recipe (TRAIN_SUBSET, EPOCHS, BATCH_SIZE, LR, VALIDATION) is not the one the study measured: "
     'section 4 checks nothing against it'):
        '本次训练方案（TRAIN_SUBSET、EPOCHS、BATCH_SIZE、LR、VALIDATION）不在对比实验之列：第 4 节不做检查',
    ("the study ran under this run's conditions (the two lines agree): section 4 holds this run to the study's "
     'results'):
        '这项对比实验的运行条件与本次运行相同（上面两行一致）：第 4 节按实验结果检查本次运行',
    ('the study ran on another machine or with other settings than this run (compare the two lines): its choice '
     'carries over, but its accuracies may differ slightly here, so section 4 checks only a floor'):
        ('这项对比实验运行在另一台机器上，或者设置与本次运行不同（对比上面两行）：它的选择可以沿用，'
         '但它的准确率在这里可能略有不同，所以第 4 节只检查一个下限'),
    'epochs':
        '轮次',
    'peak lr':
        '峰值学习率',
    'seeds':
        '种子数',
    'validation accuracy: median, min-max':
        '验证准确率：中位数，最小～最大',
    ("{n_val:,} training images held out; chosen on validation: {chosen} epochs (at peak lr {chosen_lr:g}); this "
     "notebook's parameters: {epochs} epochs at {lr:g}"):
        '留出 {n_val:,} 张训练图像作验证；根据验证集选定：{chosen} 个轮次（峰值学习率 {chosen_lr:g}）；本 Notebook 的参数：{epochs} 个轮次，{lr:g}',
    'validation accuracy (%)':
        '验证准确率（%）',
    "the study's {n} runs: one dot per seed, a bar at each median (red: chosen)":
        '对比实验的 {n} 次运行：每个种子一个点，横线为中位数（红色：选中的方案）',
}
