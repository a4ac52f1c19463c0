"""One-off, re-runnable edits of the Chinese catalogues (i18n/zh/*.md) for issue 27: figure labels in Chinese, the
sentences that said figures stay English, and the scripts' output now in Chinese.

    python scripts/zh_catalogue_edits.py     # then: make zh, and re-execute the Chinese notebooks it names

Each edit replaces one exact string inside one cell's entry (found by cell id); an edit already applied is skipped,
so the script can run again after other branches changed the catalogues, and it stops, naming the entry, where
neither the old nor the new text is found. Code entries are checked to differ from the English code only in
strings and comments. Delete this file once the branches of issue 27 have merged.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from course_utils.i18n import notebooks as nbs  # noqa: E402

EDITS = {
 "00_environment_setup": {
  "923be889": [('fig.suptitle("The first 30 MNIST training digits")', 'fig.suptitle("MNIST 训练集的前 30 个数字")')],
  "c402db44": [("每个数字上方标有它的标签（图题保持英文）：", "每个数字上方标有它的标签：")],
 },
 "01_custom_huber_loss": {
  "0ec10d9e": [('title="loss", xlabel="error", ylabel="loss"', 'title="损失", xlabel="误差", ylabel="损失"'),
               ('title="gradient (mindspore.grad)", xlabel="error", ylabel="d loss / d prediction"',
                'title="梯度（mindspore.grad）", xlabel="误差", ylabel="d 损失 / d 预测值"')],
  "579bf00f": [('title=f"{N_OUTLIERS} outliers among {N_POINTS} points"', 'title=f"{N_POINTS} 个点中有 {N_OUTLIERS} 个离群点"'),
               ('title="training loss", xlabel="step", ylabel="loss"', 'title="训练损失", xlabel="步", ylabel="损失"')],
 },
 "02_functional_training_step": {
  "8f67d694": [('label="train, per step")', 'label="训练，每步")'),
               ('label="train, epoch mean")', 'label="训练，每轮均值")'),
               ('label="test")', 'label="测试")'),
               ('ax.set(xlabel="epoch", ylabel="Huber loss", yscale="log", title=f"epoch {epoch}/{EPOCHS}")',
                'ax.set(xlabel="轮次", ylabel="Huber 损失", yscale="log", title=f"第 {epoch}/{EPOCHS} 轮")')],
  "@浅色细线是每一步的训练损失": [("通过 display handle（先", "通过显示句柄（先"),
                        ("浅色细线是每一步的训练损失（train, per step），圆点是每轮的平均训练损失（train, epoch mean），方块是测试损失（test）。",
                         "浅色细线是每一步的训练损失，圆点是每轮的平均训练损失，方块是测试损失。")],
 },
 "04_cell_training_step": {
  "82a04764": [('xlabel="step", ylabel="training loss (batch)",\n            title="Four runs, one trajectory"',
                'xlabel="步", ylabel="训练损失（每批）",\n            title="四次运行，同一条轨迹"')],
  "95d623f8": [('"clipped run (norm before clipping)": grad_norm, "not clipped": unclipped[:, 1]',
                '"裁剪的运行（裁剪前的范数）": grad_norm, "不裁剪": unclipped[:, 1]'),
               ('xlabel="step", ylabel="global L2 norm of the gradients", title=f"Gradient norms; max_norm = {MAX_NORM}"',
                'xlabel="步", ylabel="梯度的全局 L2 范数", title=f"梯度范数；max_norm = {MAX_NORM}"'),
               ('{"clipped": (epochs_axis, ref_val), "not clipped": (epochs_axis, unclipped_val)}',
                '{"裁剪": (epochs_axis, ref_val), "不裁剪": (epochs_axis, unclipped_val)}'),
               ('xlabel="epoch", ylabel="validation MSE (clean data)", title=f"SGD, lr {CLIP_LR}, trained on outliers"',
                'xlabel="轮次", ylabel="验证集 MSE（干净数据）", title=f"SGD，学习率 {CLIP_LR}，在含离群点的数据上训练"')],
  "f79590cf": [('{"batch loss": article_losses}', '{"每批的损失": article_losses}'),
               ('xlabel="step", ylabel="training loss (batch)",\n            title="The LeNet article\'s rule stops here"',
                'xlabel="步", ylabel="训练损失（每批）",\n            title="LeNet 一文的规则在这里停止"'),
               ('"training loss (epoch mean)": (epochs_run, history["loss"])', '"训练损失（每轮均值）": (epochs_run, history["loss"])'),
               ('"validation loss": (epochs_run, history["eval_loss"])', '"验证损失": (epochs_run, history["eval_loss"])'),
               ('"validation loss, never stopped": (np.arange(1, EPOCHS + 1), full_val)}', '"验证损失，从不停止": (np.arange(1, EPOCHS + 1), full_val)}'),
               ('styles={"validation loss, never stopped": {', 'styles={"验证损失，从不停止": {'),
               ('logy=True, xlabel="epoch", ylabel="MSE", title=f"Patience {PATIENCE} on the validation loss"',
                'logy=True, xlabel="轮次", ylabel="MSE", title=f"以验证损失为准，耐心值 {PATIENCE}"'),
               ('label=f"best epoch {stopper.best_epoch}"', 'label=f"最佳轮次 {stopper.best_epoch}"'),
               ('label=f"stopped after {stopper.stopped_epoch}"', 'label=f"第 {stopper.stopped_epoch} 轮后停止"')],
  "@右图（图中标签为英文）": [("右图（图中标签为英文）：训练损失（training loss）持续下降，而验证损失（validation loss）先降到最低点",
                      "右图：训练损失持续下降，而验证损失先降到最低点"),
                     ("并恢复最佳轮次（best epoch）的权重", "并恢复最佳轮次的权重")],
 },
 "05_mnist_lenet": {
  "ad2f0212": [('titles=[f"label {int(l)}" for l in labels]', 'titles=[f"标签 {int(l)}" for l in labels]'),
               ('suptitle="MNIST training images (raw uint8 pixels)"', 'suptitle="MNIST 训练图像（原始 uint8 像素）"')],
  "f8d6d006": [('title=f"LeNet-5 on MNIST, {MODE} mode, batch {BATCH_SIZE}, Adam peak lr {LR:g}"',
                'title=f"MNIST 上的 LeNet-5，{MODE} 模式，批大小 {BATCH_SIZE}，Adam 峰值学习率 {LR:g}"')],
  "c82cc3bf": [('title=f"LeNet-5, {result.num_wrong} mistakes in 10,000 test digits"',
                'title=f"LeNet-5：10,000 个测试数字中错了 {result.num_wrong} 个"')],
  "f419db33": [('titles = [f"true {test_labels[i]} -> {result.predictions[i]}\\n{probs[i, result.predictions[i]]:.1%}" for i in worst]',
                'titles = [f"真实 {test_labels[i]} -> {result.predictions[i]}\\n{probs[i, result.predictions[i]]:.1%}" for i in worst]'),
               ('suptitle="most confidently wrong test digits (true label -> prediction, its probability)"',
                'suptitle="置信度最高的错误预测（真实标签 -> 预测，以及预测的概率）"')],
  "33c3a7a7": [('ax_bar.set_title(f"prediction {p.argmax()} ({share(p.max())}); next best {runner_up} ({share(p[runner_up])})",',
                'ax_bar.set_title(f"预测 {p.argmax()}（{share(p.max())}）；其次 {runner_up}（{share(p[runner_up])}）",'),
               ('f"test image 0 (label {test_labels[0]})"', 'f"测试图像 0（标签 {test_labels[0]}）"')],
  "b397f0bb": [('"a 7 drawn with NumPy"', '"用 NumPy 画的 7"'), ('"a 4 drawn with NumPy"', '"用 NumPy 画的 4"'),
               ('"the 7, small and off-centre"', '"缩小且偏离中心的 7"')],
  "@以及菜单 **内核 > 中断内核**": [("以及菜单 **内核 > 中断内核**（Kernel > Interrupt）：", "以及菜单 **内核 > 中断内核**：")],
  "@按停止按钮（**内核 > 中断内核**": [("按停止按钮（**内核 > 中断内核**，Kernel > Interrupt）", "按停止按钮（**内核 > 中断内核**）")],
 },
 "09_data_parallel": {
  "a4425e3a": [('titles = [f"rank {r}: {int(label)}"', 'titles = [f"rank {r}：{int(label)}"'),
               ('suptitle="First batch of each rank (label shown): different shards"', 'suptitle="每个 rank 的第一个批（标出标签）：来自不同的分片"')],
  "4ca43fca": [('label=style + (" (exactly 0)" if drift.max() == 0 else "")', 'label=style + ("（恰好为 0）" if drift.max() == 0 else "")'),
               ('left.set(title="Replicas: max |rank 0 - rank 1| per step", xlabel="step", ylabel="largest weight difference")',
                'left.set(title="副本之间：每步的 max |rank 0 - rank 1|", xlabel="步", ylabel="权重的最大差异")'),
               ('right.set(title="Rank 0 vs one process on the global batch", xlabel="step", ylabel="largest weight difference")',
                'right.set(title="rank 0 与在全局批上训练的单进程相比", xlabel="步", ylabel="权重的最大差异")')],
  "3684ef9e": [('rows = [(f"1 process, batch {BATCH_SIZE}"', 'rows = [(f"单进程，批大小 {BATCH_SIZE}"'),
               ('(f"1 process, batch {GLOBAL_BATCH} (same training)"', '(f"单进程，批大小 {GLOBAL_BATCH}（同一次训练）"'),
               ('(f"{WORKERS} workers x {BATCH_SIZE}, no all-reduce"', '(f"{WORKERS} 个 worker × {BATCH_SIZE}，不做 AllReduce"'),
               ('(f"{WORKERS} workers x {BATCH_SIZE}, data parallel"', '(f"{WORKERS} 个 worker × {BATCH_SIZE}，数据并行"'),
               ("print(f\"{'setup':<38}{'steps/s':>9}{'ms/step':>9}{'samples/s':>11}\")",
                "print(f\"{'配置':<36}{'步/秒':>7}{'毫秒/步':>6}{'样本/秒':>8}\")"),
               ('ax.set(xlabel="training samples per second (all workers)", title="Throughput on this machine")',
                'ax.set(xlabel="每秒训练的样本数（所有 worker 合计）", title="本机上的吞吐量")')],
  "efadc2f3": [('"first step done" not in child.stdout', '"第一步已完成" not in child.stdout')],
  "@解决办法是在 `init()` 之后、在由 `msrun` 启动的进程中设置并行上下文": [("（子进程打印的“training step built”意为“训练步已构建”。）", "")],
  "36ac02e6": [('phases = [("start processes", "process_start"), ("import MindSpore", "mindspore_loaded"), ("init(): connect", "connected"),\n          ("load shard", "data_ready"), ("train 3 styles (incl. compiling)", "trained"), ("benchmark", "done")]',
                'phases = [("启动进程", "process_start"), ("导入 MindSpore", "mindspore_loaded"), ("init()：连接", "connected"),\n          ("加载分片", "data_ready"), ("训练 3 种风格（含编译）", "trained"), ("基准测试", "done")]'),
               ('label="shut down, msrun exits" if r == 0 else None)', 'label="关闭，msrun 退出" if r == 0 else None)'),
               ('ax.set(xlabel="seconds since launch()", title=f"Where the {result.seconds:.0f} s of the job went")',
                'ax.set(xlabel="自 launch() 起的秒数", title=f"任务的 {result.seconds:.0f} 秒花在了哪里")')],
 },
}

for stem, cells in EDITS.items():
    english = nbs.NOTEBOOKS / f"{stem}.ipynb"
    cat = nbs.catalogue_path(english)
    en_cells = {c["id"]: c for c in nbs.load(english)["cells"]}
    for cid, reps in cells.items():
        entries = nbs.parse_catalogue(cat.read_text(encoding="utf-8"))
        if cid.startswith("@"):  # an entry named by a piece of its text (or by its first edit's result)
            found = [e for e in entries.values() if cid[1:] in e.text or (reps[0][1] and reps[0][1] in e.text)]
            if len(found) != 1:
                raise SystemExit(f"{stem}: {len(found)} entries contain {cid[1:]!r}")
            cid = found[0].cell_id
        e = entries[cid]
        text = nbs.source_of(en_cells[cid]) if e.same else e.text
        for a, b in reps:
            if a not in text:
                if b in text:
                    continue  # already done: re-runnable
                raise SystemExit(f"{stem} {cid}: not found: {a!r}")
            text = text.replace(a, b)
        if e.same:
            # a 'same' entry becomes a translated one: rewrite its header without 'same'
            s = cat.read_text(encoding="utf-8")
            old = f"<!-- cell {cid} code en:{e.en_hash} same -->"
            assert old in s
            s = s.replace(old, f"<!-- cell {cid} code en:{e.en_hash} -->\n```python\n{text}\n```")
            cat.write_text(s, encoding="utf-8")
        else:
            nbs.set_entry_text(cat, cid, text)
        if e.cell_type == "code":
            diff = nbs.code_difference(nbs.source_of(en_cells[cid]), text)
            assert diff is None, (stem, cid, diff)
print("catalogues edited; now: make zh, then re-execute notebooks/zh/ 00-04 and 06")
