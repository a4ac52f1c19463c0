"""The docstrings and comments of the code that lessons 06, 07 and 08 print with ``bench.show(obj)``, in
Chinese (``course_utils.i18n.shown``).

Keys are the English texts as ``shown.pieces`` reads them: a docstring's text between its quotes, continuation
lines without the indentation of the opening quotes; a comment without its ``#`` and one space, the lines of a
block joined with ``\\n``. A value is written the same way and may break its lines elsewhere (a comment after code
stays one line). Identifiers, parameter names and ``code`` spans stay as they are. An English text that changes
loses its entry and prints in English until it has one (tests/unit/test_i18n_shown.py lists it).
"""

SHOWN = {
    # ---- bench.Lab (course_utils/bench/notebook.py)
    "One lesson's lab run: where its files go (``run_dir``), the kernel's mode, and the results so far.":
        "一课的性能实验：文件存放的位置（``run_dir``）、内核的执行模式，以及到目前为止的结果。",
    "experiment name -> its Result":
        "实验名称 -> 它的 Result",
    "a block timed in the kernel outside run() -> its conditions":
        "在本内核中、不经 run() 计时的一段代码 -> 它的计时条件",
    "``with lab.measuring(name) as m:``: ``Measuring`` around a block timed in this kernel outside ``run``, its\n"
    "conditions kept under ``name`` so that ``headline``'s busy-machine warning counts it as an experiment.":
        "``with lab.measuring(name) as m:``：用 ``Measuring`` 包住一段在本内核中、不经 ``run`` 计时的代码，\n"
        "并以 ``name`` 为名保存它的计时条件，使 ``headline`` 的“机器繁忙”警告把它也算作一个实验。",
    "Measure (in this kernel, or in the processes the experiment launches), summarise, print the table and\n"
    "its conclusion. Every row goes to ``run_dir/<name>.json``; the screen shows ``max_rows`` of them (the largest\n"
    "``key`` first), or none (``table=False``: a later cell shows them). The kernel's mode comes back afterwards\n"
    "(experiments switch modes).\n"
    "``env``: measure in a fresh process with exactly these settings instead (nothing of the CPU settings but\n"
    "``env``); the result is kept, and saved, under ``label`` (default ``name``).":
        "测量（在本内核中，或在实验启动的进程中），汇总，然后打印结果表及其结论。每一行都写入\n"
        "``run_dir/<name>.json``；屏幕上只显示其中 ``max_rows`` 行（``key`` 最大的在前），或者一行都不显示\n"
        "（``table=False``：由后面的单元格显示）。结束后内核恢复原来的执行模式（实验会切换模式）。\n"
        "``env``：改为在全新进程中、只按这些设置测量（CPU 优化设置只保留 ``env`` 中的）；结果以 ``label``\n"
        "（默认为 ``name``）为名保存。",
    "Run ``script`` in a fresh process whose environment is this one's without the CPU settings, plus ``env``;\n"
    "return what it printed. A failure raises with the last lines of its error output.":
        "在一个全新的进程中运行 ``script``：它的环境变量是当前进程的环境变量去掉 CPU 优化设置，再加上\n"
        "``env``；返回它打印的内容。运行失败时抛出异常，并附上其错误输出的最后几行。",
    "Print the lesson's headline figures: the highest step rate measured (a figure, not a winner), the numeric\n"
    "metrics of ``experiments``, the noise floor (``noise_pct``, if not None) and the lesson's run time (since\n"
    "``started``, a ``time.perf_counter()``), with a warning if any experiment ran on a busy machine. Returns them\n"
    "as a dict (for ``record()``). ``titles``: a figure's label in this lesson's words, instead of its usual one;\n"
    "``parts``: what the lesson calls an experiment (\"part 2\"), instead of its name. ``best=False``: without the\n"
    "highest step rate (a lesson whose experiments already name their fastest configuration, paired).\n"
    "``bound=True``: an interval that holds 1.00 reads \"not separated\" with the largest difference it does not rule\n"
    "out (lesson 07's reading), instead of \"a tie\". ``short=True`` (lesson 07): the paired ratios as one verdict\n"
    "table (``verdict_table``: comparison | ratio | 95% interval | verdict, each named by its experiment's part and\n"
    "``SHORT_TITLES``), the other figures as a figure | value table above it: narrow enough for a notebook.\n"
    "``claims`` (with ``short``): the paired ratios (metric keys) the verdict table keeps, in their order here\n"
    "(lesson 07: the two claims' rows, already printed with the rest by their experiments), each row's note\n"
    "printed under the table; all of them, without notes, by default. ``hide``: prefixes of metric keys not printed\n"
    "(a lesson that already gives them, lesson 08's closing table), still returned for ``record()``.":
        "打印本课的主要数据：测得的最高训练速度（只是一个数据，不代表谁胜出）、``experiments`` 的各项\n"
        "数值指标、噪声水平（``noise_pct`` 不为 None 时），以及本课的运行时间（从 ``started`` 算起，它是一个 ``time.perf_counter()``\n"
        "读数）；若有实验是在繁忙的机器上运行的，还会给出警告。以字典形式返回这些数据（供 ``record()``\n"
        "使用）。``titles``：按本课的说法给某个数据另起的名称，用来代替它通常的名称；\n"
        "``parts``：本课对某个实验的称呼（如“第 2 节”），用来代替实验名称。``best=False``：不列最高训练速度\n"
        "（适用于各实验已通过配对比较指出最快配置的课程）。\n"
        "``bound=True``：包含 1.00 的区间读作“分不出快慢”，并给出它不能排除的最大差别（第 07 课的读法），\n"
        "而不是“持平”。``short=True``（第 07 课）：把配对比值列成一张结论表（``verdict_table``：比较 | 比值 |\n"
        "95% 区间 | 结论，每行以所属实验的小节和 ``SHORT_TITLES`` 命名），其余数据列成“指标 | 数值”表放在它上面：\n"
        "宽度适合在 Notebook 中阅读。``claims``（与 ``short`` 同用）：结论表保留的配对比值（指标键），按这里的顺序排列\n"
        "（第 07 课：两种说法对应的行，各实验已连同其余各行打印过），每行的附注打印在表下；默认保留全部，不打印附注。\n"
        "``hide``：不打印的指标键前缀（本课其他地方已经给出的数据，如第 08 课的结论汇总表），仍随返回值交给 ``record()``。",
    "given elsewhere in the lesson":
        "本课其他地方已经给出",
    "a claim's own sentence (the \"15%\" ruling of part 3), under the table":
        "某种说法自带的一句话（第 3 节对“15%”的判定），打印在表下",
    "(``parts`` is reused below)":
        "（下面会复用 ``parts`` 这个名字）",
    "the figures, then the paired ratios as one verdict table":
        "先列数据，再把配对比值列成一张结论表",
    'a ratio\'s verdict (the lab\'s two rules, or where 1.00 lies against a paired interval), stored beside\n'
    'it as "<metric>_verdict"':
        '对比值作出的判定（按本课的两条规则，或看 1.00 落在配对区间的哪一侧），\n'
        '以 "<metric>_verdict" 为名存放在该比值旁边',
    "a paired ratio's verdict names its interval (kept as <metric>_low/_high)":
        "逐轮配对比值的判定写出它的区间（区间存为 <metric>_low/_high）",
    'a sentence the verdict carries too (the "15%" ruling of part 3): "<metric>_note"':
        '结论中还要附上的一句话（第 3 节对“快约 15%”的判定）："<metric>_note"',
    "a medians' noise floor is no figure of this table: its verdicts are the paired intervals":
        "中位数的噪声水平不列入这张表：表中的结论都来自配对区间",
    "the A/A' control: in its ratio's verdict, not a row":
        "A/A′ 对照：写进它所属比值的结论里，不单列一行",
    "an estimate widened by the noise floor too: only that widest range is quoted":
        "还按噪声水平放宽过的估计值：只引用那个最宽的范围",
    "to two figures: no more is known":
        "保留两位有效数字：更多的位数并无依据",
    'an estimate given only as its two ends (<metric>_low/_high, no <metric>): one row, "low-high"':
        '只以两端给出的估算值（有 <metric>_low/_high，没有 <metric>）：合为一行，写作“下限-上限”',
    'a ratio "(x)" with two decimals, as the sentences under the experiments print it (1.05, not 1.1)':
        '比值（“(x)”）保留两位小数，与各实验下面的句子一致（印作 1.05，而不是 1.1）',

    # ---- bench.build_step, bench.step_configs (course_utils/bench/steps.py)
    "The training step of ``spec`` for ``net``: a callable ``step(images, labels) -> loss``.\n"
    "\n"
    "* functional: notebook 02's step, ``course_utils.training.make_train_step(..., jit=False)``;\n"
    "* jit:        the same step compiled with ``mindspore.jit(..., jit_level=...)``;\n"
    "* cell:       notebook 04's ``nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)``;\n"
    "* jit_cell:   that Cell wrapped in ``mindspore.jit``.\n"
    "The execution mode (GRAPH_MODE/PyNative) is whatever is set when the step runs. Extra keyword\n"
    "arguments go to ``mindspore.jit`` (e.g. ``dynamic=1``).\n":
        "按 ``spec`` 为 ``net`` 构建的训练步：一个可调用对象 ``step(images, labels) -> loss``。\n"
        "\n"
        "* functional：第 02 课的训练步，``course_utils.training.make_train_step(..., jit=False)``；\n"
        "* jit：       同一个训练步，用 ``mindspore.jit(..., jit_level=...)`` 编译；\n"
        "* cell：      第 04 课的 ``nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)``；\n"
        "* jit_cell：  用 ``mindspore.jit`` 包装的上述 Cell。\n"
        "执行模式（GRAPH_MODE/PyNative）取决于训练步运行时的设置。其余关键字参数传给\n"
        "``mindspore.jit``（例如 ``dynamic=1``）。\n",
    "``{spec: Config}`` for ``harness.compare``: a fresh LeNet-5 step per configuration, cycling\n"
    "over the same in-memory batches, its mode switched back on before each of its repeats.":
        "供 ``harness.compare`` 使用的 ``{spec: Config}``：每个配置一个全新的 LeNet-5 训练步，循环使用\n"
        "内存中的同一组批，并在该配置的每次重复之前切换回它的执行模式。",

    # ---- bench.naive_time (course_utils/bench/harness.py)
    "What a naive benchmark reports: steps/s of the first ``steps`` calls, compile included and\n"
    "nothing forced. Shown in the lab next to the honest number; do not use it for anything else.":
        "常见的简单基准测试报告的数字：前 ``steps`` 次调用的步/秒，计入编译，且不同步等待。\n"
        "本课把它放在如实测得的数字旁边作对照；不要把它用于其他任何用途。",

    # ---- bench.compare (course_utils/bench/harness.py)
    "Time several configurations fairly; returns ``{name: Timing}`` in the given order.\n"
    "\n"
    "Each configuration is warmed up first (its first call timed separately), then the timed\n"
    "repeats alternate between configurations, reversing the order every round (A B C, C B A,\n"
    "...) so that drift in machine load is shared out evenly. ``sync`` forces completion of each\n"
    "step's result inside the timed region (``sync_each=False``: only the last step of a repeat).\n":
        "公平地为多个配置计时；按给定的顺序返回 ``{name: Timing}``。\n"
        "\n"
        "每个配置先预热（其首次调用单独计时），然后各配置轮流进行计时的重复，每一轮都把顺序\n"
        "反过来（A B C，C B A，...），使机器负载的漂移均匀地分摊到各个配置上。``sync`` 在计时区间内\n"
        "强制每个训练步的结果计算完成（``sync_each=False``：只强制每次重复的最后一步）。\n",

    # ---- lab.StopWhen, lab.measure_train_to_accuracy (course_utils/bench/experiments/accuracy.py)
    "``fit(..., stop_when=StopWhen(targets, time_limit))``: True (stop) once the evaluations have\n"
    "reached every target, or training took ``time_limit`` seconds; records when each target fell.":
        "``fit(..., stop_when=StopWhen(targets, time_limit))``：评估结果达到所有目标，或训练用时达到\n"
        "``time_limit`` 秒后，返回 True（停止）；并记录每个目标是在何时达到的。",
    "called right after an evaluation":
        "紧接在一次评估之后调用",
    "Train LeNet-5 (``p.optimizer``, ``p.lr``, batch ``p.batch_size``) with ``p.spec`` on the MNIST\n"
    "pipeline until every target is reached or ``p.time_limit``; one row per target, plus the curve.":
        "以 ``p.spec`` 在 MNIST 数据处理流水线上训练 LeNet-5（``p.optimizer``、``p.lr``，批大小\n"
        "``p.batch_size``），直到达到所有目标或用时达到 ``p.time_limit``；每个目标一行，另附准确率曲线。",

    # ---- lab.measure_amp (course_utils/bench/experiments/amp.py)
    "Steps/s of every level in alternation (O0 twice, the second as ``COPY``), then each trained on to\n"
    "``p.train_steps`` steps in all (the warm-up and timed steps included) and evaluated.":
        "交替测量每个混合精度级别的训练速率（步/秒；O0 测两次，第二份为 ``COPY``），然后把每个级别继续训练到\n"
        "总共 ``p.train_steps`` 步（含预热和计时的步数）并评估。",
    "configuration -> its amp level":
        "配置 -> 它的混合精度级别",
    "a second instance, last in the order: O0 and its copy":
        "第二个实例，排在顺序的最后：O0 及其副本",
    "the same initial weights for every level":
        "每个级别的初始权重都相同",
    "warm-up and timed steps already trained (p.train_steps >= done)":
        "预热和计时时已经训练过的步数（p.train_steps >= done）",

    # ---- lab.measure_batch_sizes, lab.measure_modes, lab.measure_styles (course_utils/bench/experiments/modes.py)
    "``p.spec`` at every batch size in ``p.batch_sizes``, in alternation, with a second copy of batch\n"
    "``p.copy_size`` in the same alternation (one configuration timed twice: the noise floor of this sweep). Every\n"
    "size runs enough steps a round to last about ``p.round_s`` seconds (at least ``p.steps``), so that no size's\n"
    "repeat is a few milliseconds that one busy moment decides.":
        "以 ``p.batch_sizes`` 中的每个批大小交替测量 ``p.spec``，并在同一次交替运行中加入批大小\n"
        "``p.copy_size`` 的第二份副本（同一种配置计时两次：这组批大小对比的噪声水平）。每个批大小\n"
        "每轮跑足够多的步数，约持续 ``p.round_s`` 秒（至少 ``p.steps`` 步），免得某个批大小的一次重复\n"
        "只有几毫秒，机器忙一下就决定了结果。",
    "the first call compiles: reported apart":
        "首次调用会编译：单独报告",
    "a first estimate of this size's step time":
        "初步估计这个批大小每步的耗时",
    "the same configuration as its original: its step count too":
        "与原配置是同一种配置：每轮步数也与原配置相同",
    "already compiled: one warm-up call":
        "已经编译过：只预热一次",
    "A and A': one size twice":
        "A 与 A′：同一个批大小计时两次",
    "Every configuration in ``p.specs``, timed in this process in alternation, with a second copy of ``p.copy``\n"
    "in the same alternation (one configuration timed twice: the noise floor of this grid).":
        "在本进程中交替为 ``p.specs`` 中的每个配置计时，并在同一次交替运行中加入 ``p.copy`` 的第二份副本\n"
        "（同一种配置计时两次：这组对比的噪声水平）。",
    "The functional step, TrainOneStepCell and the functional step under @jit on in-memory batches, with a second\n"
    "copy of the functional step (one configuration timed twice: the noise floor of exactly these settings),\n"
    "``p.claim_repeats`` rounds; then the first two and Model.train fed by the same MNIST pipeline, one pass of\n"
    "``p.steps`` batches per repeat, with a second copy of the functional loop (the floor of the pipeline passes).":
        "先用内存中的批测量函数式训练步、TrainOneStepCell 和加 @jit 的函数式训练步，同时运行函数式训练步的\n"
        "第二份副本（同一种配置计时两次：正是这组设置下的噪声水平），共交替 ``p.claim_repeats`` 轮；再由同一条\n"
        "MNIST 数据处理流水线为前两者和 Model.train 供数，每次重复遍历 ``p.steps`` 个批，同时运行函数式训练循环的\n"
        "第二份副本（由流水线供数这一组的噪声水平）。",
    "the functional loop twice: A and A' of the pipeline passes":
        "函数式训练循环运行两份：由流水线供数这一组的 A 与 A′",
    "A and A': one configuration twice":
        "A 与 A′：同一种配置计时两次",

    # ---- lab.measure_forcing (course_utils/bench/experiments/modes.py)
    "One compiled step in this process (whose environment the parent chose), timed four ways in alternation:\n"
    "forced every step (twice: A and A', the floor), forced only at the end of each repeat, and not forced; whatever a\n"
    "repeat left queued finishes before the next one, untimed.":
        "在本进程中（环境由父进程决定）对同一个编译好的训练步按四种方式交替计时：每步同步等待\n"
        "（计时两份，即 A 与 A′，得出噪声水平）、只在每次重复结束时同步等待、不同步等待；每次重复留在队列中的\n"
        "计算，都在下一次重复开始之前执行完毕，不计时。",
    "before each repeat, untimed: let the work a repeat left queued finish":
        "每次重复之前，不计时：让上一次重复留在队列中的计算执行完毕",
    "returns None: compare's force() has nothing to wait for":
        "返回 None：compare 的 force() 无需等待任何结果",
    "the repeat's last step waits inside the timed region: the whole repeat's work counted":
        "每次重复的最后一步在计时区间内等待完成：整次重复的计算都计入在内",

    # ---- lab.measure_data_pipeline (course_utils/bench/experiments/pipeline.py)
    "Batches/s of: the pipeline alone (1, 2, 4 workers, capped at the CPU count), the step on in-memory batches, the\n"
    "step fed by the pipeline, and Model.train with sink mode off and on; one pass of n batches (200 in QUICK runs,\n"
    "20 x steps otherwise) per repeat, the first (compiling) pass untimed. The in-memory pass is timed twice, as\n"
    "two configurations (A and A'), for this part's own noise floor: passes scatter differently from short repeats.":
        "测量以下各项每秒处理的批数：仅数据处理流水线（1、2、4 个工作线程，不超过 CPU 核数）、使用内存中的批的训练步、\n"
        "由流水线供数的训练步，以及关闭和开启数据下沉模式的 Model.train；每次重复遍历 n 个批（QUICK\n"
        "运行时为 200，否则为 20 x steps），第一遍（包含编译）不计时。使用内存中的批的那一遍计时两次，\n"
        "当作两种配置（A 和 A′），以得出本节自己的噪声水平：整遍遍历的离散程度与短的重复不同。",
    "A': the same pass again, last in the order (first in every other round)":
        "A′：同一遍再测一次，排在顺序的最后（每隔一轮排在最前）",
    "passes of at least 200 batches: the pipeline's start-up (its threads, the first batch) is paid once per pass\n"
    "and must not pass for its steady cost":
        "每遍至少 200 个批：流水线的启动开销（启动线程、产出第一个批）每遍都要付出一次，\n"
        "不能让它冒充流水线的稳态开销",
    "configuration (the key rows are picked by) -> its pass; -> its label as shown":
        "配置（用来挑选结果行的键）-> 它的一遍遍历；-> 它显示出来的标签",
    "a Model refuses a dataset another Model has trained on: one each":
        "Model 不接受另一个 Model 训练过的数据集：每个 Model 各用一个",
    'one "step" of compare is a pass of n batches':
        "compare 的一“步”是遍历 n 个批的一遍",

    # ---- lab.measure_dynamic_shapes (course_utils/bench/experiments/shapes.py)
    "Per-call seconds of a fresh step for: changing shapes; the same with a dynamic batch dimension;\n"
    "one shape throughout.":
        "一个全新训练步每次调用的耗时（秒），分三种情况：形状不断变化；形状同样变化，但批维度声明为动态；\n"
        "始终只有一种形状。",
    "what declared the batch dimension dynamic: the row's label names it":
        "是什么把批维度声明成了动态：这一行的标签会写明",
    "ask jit for dynamic shapes":
        "让 jit 按动态shape编译",
    "a Cell: declare the batch dim dynamic":
        "是 Cell：把批维度声明为动态",

    # ---- lab.layer_grad, lab.measure_layer_times (course_utils/bench/experiments/traps.py)
    "The backward pass training runs for one layer, of the sum of its output: the gradients for its weights (if it\n"
    "has any) and for its input, except the first layer's input (the images: a training step never computes that one,\n"
    "part 3's profile shows it). A function without weights (ReLU + pooling, flatten): its input's gradient only.":
        "训练时某一层要做的反向传播，对该层输出之和求导：求对其权重（如果有）和对其输入的梯度，但第一层的输入除外\n"
        "（那是图像：训练步从不计算它的梯度，第 3 节的性能分析数据可以证明）。没有权重的函数（ReLU + 池化、展平）：\n"
        "只求对输入的梯度。",

    "Time of each LeNet-5 layer on its own, forward and the backward pass training runs for it (``layer_grad``), in\n"
    "PyNative (``p.compiled``: under ``mindspore.jit``).":
        "在动态图模式下单独计时 LeNet-5 的每一层：正向计算，以及训练时该层要做的反向传播（``layer_grad``）；\n"
        "``p.compiled`` 为真时在 ``mindspore.jit`` 下计时。",
    "not timed: only its output, the next layer's input":
        "不计时：只需要它的输出，作为下一层的输入",
    "weights and input; conv1: its weights only":
        "对权重和输入求梯度；conv1 只对权重求梯度",
    "at least steps // 3 calls per repeat (a convolution without the cap takes tens of ms), and enough calls\n"
    "for a repeat of MIN_REPEAT_S: a repeat of a few 1-ms calls is undone by one time slice of another process":
        "每次重复至少调用 steps // 3 次（不限制指令集时，一次卷积要几十毫秒），且调用次数要让一次重复持续\n"
        "MIN_REPEAT_S：只有几次 1 毫秒调用的重复，其他进程的一个时间片就会让它失去意义",

    # ---- lab.amp_step (course_utils/bench/experiments/amp.py)
    "``(net, step)``: a fresh LeNet-5 at amp ``level``; with ``loss_scale`` (float16 levels) a\n"
    "``TrainOneStepWithLossScaleCell`` with a fixed scale, whatever the spec's style.":
        "返回 ``(net, step)``：一个按混合精度级别 ``level`` 新建的 LeNet-5；给出 ``loss_scale`` 时（float16 各级别），\n"
        "无论 spec 是哪种写法，训练步都是使用固定损失缩放系数的 ``TrainOneStepWithLossScaleCell``。",

    # ---- lab.layer_macs (course_utils/bench/experiments/traps.py)
    "Multiply-accumulates of one layer's forward pass, its weights' gradient and its input's gradient (the first\n"
    "layer: no input gradient, as ``layer_grad`` times it); 0 for a layer without weights (ReLU, pooling and flatten\n"
    "only compare or copy).":
        "一层的正向计算、权重梯度和输入梯度的乘加次数（第一层不求输入梯度，与 ``layer_grad`` 的计时一致）；\n"
        "没有权重的层为 0（ReLU、池化和展平只做比较或复制）。",

    # ---- the storage probes lesson 06 prints (course_utils/storage_probes.py)
    "One parameter ``w = [1, 1, 1]``; ``Scale()(x) = w * x``.":
        "只有一个参数 ``w = [1, 1, 1]``；``Scale()(x) = w * x``。",
    "Call once, give ``cell.w`` new storage holding 2s (``set_data``), call again: did the second call read the 2s?":
        "调用一次，给 ``cell.w`` 换上值全为 2 的新存储（``set_data``），再调用一次：第二次调用读到 2 了吗？",
    "Two ``nn.SGD`` steps (its ``construct`` carries ``@jit``) with gradient 1 and learning rate 1, ``w`` given new\n"
    "storage holding 5s in between: did the second step update the new storage (5 -> 4)?":
        "两次 ``nn.SGD`` 更新（它的 ``construct`` 带有 ``@jit``），梯度为 1、学习率为 1，两次之间给 ``w`` 换上\n"
        "值全为 5 的新存储：第二次更新的是新的存储吗（5 -> 4）？",
}
