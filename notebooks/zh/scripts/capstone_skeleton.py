"""我的结课项目：在经过数据增强的 MNIST 上训练一个带批归一化的小型 CNN，保存检查点，导出模型。

这是第 10 课的脚本模板。第 10 课会把它复制成你自己的文件（my_capstone.py）：请编辑那份副本，而不是这个文件。
填好每一处占位符 ``____``（TODO(1) 到 TODO(10)）；其余部分已经替你写好。这个文件必须能独立运行：只用 MindSpore
和 NumPy，不用 ``course_utils``。在 notebooks/zh 文件夹中从终端试运行：

    python my_capstone.py --data-dir ../../data/mnist --out runs/mine --epochs 2 --train-subset 6400 --test-subset 0

Notebook 中的检查正是这样运行它，并期望 ``--out`` 中有以下内容（约定）：

* ``checkpoint.ckpt``：训练步（权重、BatchNorm 统计量、优化器状态），加上当前位置 ``epoch``（进行中的轮次，
  从 0 开始）、``step_in_epoch``（该轮次中已训练的批数）和 ``loss_sum``（这些批的训练损失之和，float64），以及决定这些批是哪些的设置（``batch_size``、
  ``train_subset``、``seed``）；每个轮次结束后以及中途停止时原子写入；
* ``log.jsonl``：每个完成的轮次一个 JSON 对象，字段为 ``epoch``（从 1 开始）、``global_step``、``train_loss``、
  ``test_accuracy``（一个比例）、``seconds``；每个轮次也打印一行；
* ``model.mindir``：评估模式下训练好的网络，输入为 float32 ``(N, 1, 28, 28)``，批大小 N 任意，
  按课程中的方式归一化（像素 / 255，再用均值 0.1307、标准差 0.3081）；在最后一个轮次结束时写入。

``--stop-after N`` 在总共训练 N 步后停止（如同被中断），停止前先保存检查点；``--resume`` 从该检查点继续，
并拒绝用其他 ``--batch-size``、``--train-subset`` 或 ``--seed`` 写入的检查点（这部分已替你写好）。
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

MNIST_MEAN, MNIST_STD = 0.1307, 0.3081
CHECKPOINT, LOG, MODEL = "checkpoint.ckpt", "log.jsonl", "model.mindir"
# 决定位置（epoch, step_in_epoch）指向哪些批的设置：每个检查点都会保存它们；
# 用其他取值断点续训会跳过错误的样本，因此会被拒绝。
POSITION_SETTINGS = ("batch_size", "train_subset", "seed")


class HelpFormatter(argparse.HelpFormatter):
    """argparse 的帮助信息；它的两个标题写在这里，这样中文脚本就能用中文显示它们。"""

    def add_usage(self, usage, actions, groups, prefix=None):
        super().add_usage(usage, actions, groups, "用法：" if prefix is None else prefix)

    def start_section(self, heading):
        super().start_section("选项")   # 唯一显示的一节：本脚本没有位置参数

    def format_help(self):
        # argparse 在标题后加的是半角冒号；中文标题要用全角冒号
        return super().format_help().replace("选项" + ":\n", "选项：\n", 1)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], add_help=False, formatter_class=HelpFormatter)
    p.add_argument("-h", "--help", action="help", help="显示此帮助信息并退出")
    p.add_argument("--data-dir", type=Path, default=Path(os.environ.get("COURSE_MNIST_DIR", "data/mnist")),
                   help="存放四个 MNIST IDX 文件的文件夹")
    p.add_argument("--out", type=Path, default=Path("runs/capstone"), help="检查点、日志和模型写到这里")
    p.add_argument("--epochs", type=int, default=3, help="训练的轮次数")
    p.add_argument("--batch-size", type=int, default=64, help="每个训练步的图像数")
    p.add_argument("--lr", type=float, default=2e-3, help="学习率")
    p.add_argument("--seed", type=int, default=42, help="用于权重初始化、混洗和数据增强的随机种子")
    p.add_argument("--train-subset", type=int, default=0, help="只用前 N 张训练图像（0：全部）")
    p.add_argument("--test-subset", type=int, default=0, help="只在前 N 张测试图像上评估（0：全部）")
    # TODO(1)：再加两个选项，--resume（一个开关，表示从 <out>/checkpoint.ckpt 继续）和
    #          --stop-after（整数，总共训练这么多步后停止；默认值 0 表示从不停止）
    ____
    ____
    p.add_argument("--device", default="CPU", choices=["CPU", "GPU", "Ascend"], help="运行设备")
    p.add_argument("--mode", default="graph", choices=["graph", "pynative"],
                   help="执行模式：graph（静态图模式）或 pynative（动态图模式）")
    args = p.parse_args(argv)
    if args.resume and not (args.out / CHECKPOINT).is_file():
        p.error(f"--resume：没有可以继续的 {args.out / CHECKPOINT}；不带 --resume 运行即可从头开始")
    return args


def cpu_speed_fixes(device: str) -> None:
    """第 08 课的 CPU 优化设置。MindSpore 只在加载时读取一次：请在导入它之前调用。"""
    if device != "CPU":
        return
    if platform.machine().lower() in ("x86_64", "amd64"):
        os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
        os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")     # 旧的变量名：MindSpore 2.7.1 自带的 oneDNN 只读取这个名字
    if (os.cpu_count() or 1) <= 8:
        os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")
    os.environ.setdefault("GLOG_v", "3")


# ---- 数据 ------------------------------------------------------------------------------------------------

def build_dataset(data_dir, split, batch_size, subset=0, augment=False, seed=0):
    """MNIST 的批：float32 (B, 1, 28, 28) 的图像和 int32 (B,) 的标签。"""
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.dataset import transforms, vision

    workers = max(1, min(2, os.cpu_count() or 1))
    ds.config.set_seed(seed)             # 本轮次的混洗和数据增强
    if split == "train":
        sampler = ds.SubsetRandomSampler(list(range(subset))) if subset else ds.RandomSampler()
        dataset = ds.MnistDataset(str(data_dir), usage="train", sampler=sampler)
    else:
        dataset = ds.MnistDataset(str(data_dir), usage="test", shuffle=False, num_samples=subset or None)
    image_ops = []
    if augment:
        # TODO(2)：用一个数据增强算子处理 uint8 (28, 28, 1) 图像，做小幅的随机旋转（最多 10 度）、
        #          平移（每个方向最多 10%）和缩放（0.9～1.1）。请阅读你所选算子的文档。
        image_ops.append(____)
    # TODO(3)：每张图像都要经过的算子，即缩放到 [0, 1]、用 MNIST_MEAN / MNIST_STD 归一化、把通道放到最前
    image_ops += ____
    dataset = dataset.map(operations=image_ops, input_columns="image", num_parallel_workers=workers)
    dataset = dataset.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    return dataset.batch(batch_size, drop_remainder=split == "train")


# ---- 模型 ------------------------------------------------------------------------------------------------

def build_model():
    """由你设计的小型 CNN，带批归一化（输出 10 个 logits）。"""
    from mindspore import nn

    class SmallCNN(nn.Cell):
        def __init__(self, num_classes=10):
            super().__init__()
            # TODO(4)：定义各层，例如两个 Conv2d -> BatchNorm2d -> ReLU -> MaxPool2d 块，再接一个分类器；
            #          不要用 Dropout：练习 10.2 逐位比较两份日志
            ____

        def construct(self, x):
            return ____

    return SmallCNN()


# ---- 检查点、日志、导出 ----------------------------------------------------------------------------------

def save_checkpoint(state, path: Path, epoch: int, step_in_epoch: int, loss_sum: float, settings: dict) -> None:
    """原子写入权重 + 优化器状态 + 位置 + 设置。"""
    import mindspore as ms

    # TODO(5)：把 `state` 连同位置（epoch、step_in_epoch、loss_sum）和 `settings`（append_dict）保存到
    #          同一文件夹中的一个临时文件，将其刷写到磁盘（os.fsync），再把它重命名覆盖 `path`（os.replace），
    #          最后（在 POSIX 系统上）对文件夹执行 fsync，让重命名在断电后也能保留，与第 06 课相同。
    #          注意后缀：文件名不以 ".ckpt" 结尾时，MindSpore 会自动加上它。还要注意 loss_sum：
    #          append_dict 会把 Python float 存成 float32，请把它存为 float64 的 Tensor。
    ____


def restore_checkpoint(state, path: Path) -> tuple:
    """把保存的值复制到 `state` 的参数中；返回 (epoch, step_in_epoch, loss_sum)。"""
    import mindspore as ms

    # TODO(6)：加载文件，把每个保存的值*原地*复制到同名参数中（Parameter.copy_），
    #          并返回保存的位置：epoch 和 step_in_epoch 为 int，loss_sum 为 float
    ____


def position_settings(args) -> dict:
    """检查点中的位置所依赖的设置，与 save_checkpoint 保存的形式相同。"""
    return {name: getattr(args, name) for name in POSITION_SETTINGS}


def refuse_other_settings(path: Path, args) -> None:
    """如果检查点是用与本次运行不同的 POSITION_SETTINGS 写入的，给出说明并退出。"""
    import mindspore as ms

    stored = ms.load_checkpoint(str(path), choice_func=lambda name: name in POSITION_SETTINGS)
    for name, given in position_settings(args).items():
        option = "--" + name.replace("_", "-")
        if name not in stored:
            sys.exit(f"--resume：{path} 没有记录 {option}，因此其中的位置不可信；"
                     "请不带 --resume 重新开始")
        saved = int(stored[name].asnumpy().reshape(-1)[0])
        if saved != given:
            sys.exit(f"--resume：{path} 是用 {option} {saved} 写入的，本次运行用的是 {option} {given}。"
                     f"若按检查点记录的位置续训，跳过的将是另一些样本。请用 {option} {saved} 续训，或不带 --resume 重新开始")


def append_log(path: Path, record: dict) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def export_mindir(net, path: Path) -> None:
    """评估模式下的网络，批大小任意，导出为 MindIR。"""
    import mindspore as ms

    # TODO(7)：切换到评估模式，再用批维度为 None 的输入调用 mindspore.export，写到 `path`
    ____


# ---- 训练与评估 ------------------------------------------------------------------------------------------

def evaluate(net, dataset) -> float:
    """评估模式下的网络正确分类的图像所占的比例。"""
    # TODO(8)：切换到评估模式（BatchNorm 用保存的统计量，不启用 Dropout），统计所有批上预测正确的个数，
    #          切换回训练模式，返回正确的比例
    ____


def main(argv=None) -> int:
    args = parse_args(argv)
    cpu_speed_fixes(args.device)

    import mindspore as ms
    from mindspore import nn

    ms.set_device(args.device)
    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_seed(args.seed)
    np.random.seed(args.seed)
    args.out.mkdir(parents=True, exist_ok=True)
    ckpt_path, log_path = args.out / CHECKPOINT, args.out / LOG

    net = build_model()
    # TODO(9)：损失函数、学习率为 args.lr 的优化器（用 nn.Adam 时，--lr 的默认值 2e-3 正是 Adam 的学习率；
    #          练习 10.3 不传 --lr，所以换用别的优化器时要改成它自己的默认值）和训练步
    #          train_step(images, labels) -> loss，风格任选：Cell（WithLossCell + TrainOneStepCell）
    #          或函数式（value_and_grad + 优化器）。`state` 是检查点保存和恢复的对象：一个包含网络和
    #          优化器的 Cell（Cell 风格的训练步就是这样的 Cell；函数式训练步则自己写一个 Cell，用
    #          super().__init__(auto_prefix=False) 构建，把两者存为属性，见 Notebook 第 3 节：
    #          nn.CellList 会给它们的参数改名）。
    #          然后切换到训练模式：每个 Cell 创建时都处于评估模式，此时 BatchNorm 用的是存储的统计量，
    #          所以要调用 train_step.set_train()（函数式训练步则调用 net.set_train()）。
    optimizer = ____
    train_step = ____
    ____
    state = ____
    test_set = build_dataset(args.data_dir, "test", 256, subset=args.test_subset)

    start_epoch, skip, carried = 0, 0, 0.0
    settings = position_settings(args)
    if args.resume:
        refuse_other_settings(ckpt_path, args)
        start_epoch, skip, carried = restore_checkpoint(state, ckpt_path)
        print(f"已从 {ckpt_path} 恢复：第 {start_epoch + 1} 轮，其中 {skip} 步已完成", flush=True)
    else:
        for stale in (log_path, args.out / MODEL):   # 新的运行从新的日志和模型开始
            stale.unlink(missing_ok=True)
    global_step = int(optimizer.global_step.asnumpy().reshape(-1)[0])

    for epoch in range(start_epoch, args.epochs):
        train_set = build_dataset(args.data_dir, "train", args.batch_size, subset=args.train_subset,
                                  augment=True, seed=args.seed + epoch)
        # 本轮次累计的损失总和：被中断的轮次接着第一个进程保存的总和继续累加
        started, loss_sum = time.perf_counter(), carried
        for step_in_epoch, (images, labels) in enumerate(train_set.create_tuple_iterator(num_epochs=1)):
            # TODO(10)：跳过中断之前已训练的批；训练一步，把它的损失加到 loss_sum 上并计数；
            #          总共训练 --stop-after 步之后，用精确的位置（以及 `settings`）保存检查点，然后返回 0
            ____
        skip, carried = 0, 0.0
        accuracy = evaluate(net, test_set)
        seconds = time.perf_counter() - started
        save_checkpoint(state, ckpt_path, epoch + 1, 0, 0.0, settings)
        record = {"epoch": epoch + 1, "global_step": global_step, "train_loss": loss_sum / train_set.get_dataset_size(),
                  "test_accuracy": accuracy, "seconds": seconds}
        append_log(log_path, record)
        print(f"第 {epoch + 1}/{args.epochs} 轮  损失 {record['train_loss']:.4f}  "
              f"测试准确率 {accuracy:.2%}  {seconds:.1f} 秒", flush=True)

    export_mindir(net, args.out / MODEL)
    print(f"已导出 {args.out / MODEL}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
