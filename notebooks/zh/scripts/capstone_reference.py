"""在经过数据增强的 MNIST 上训练一个带批归一化（BatchNorm）的小型 CNN：从数据一直到导出的 MindIR 模型。

结课项目（第 10 课）的参考答案。它是一个独立的文件：只导入 MindSpore 和 NumPy，不依赖课程的任何代码，
因此在任何能运行 MindSpore 2.10 的地方都能运行。在终端中：

    cd notebooks/zh
    python scripts/capstone_reference.py --data-dir ../../data/mnist --out runs/capstone --epochs 3
    python scripts/capstone_reference.py ... --stop-after 100     # 训练 100 步后停止，如同被中断
    python scripts/capstone_reference.py ... --resume              # 从 <out>/checkpoint.ckpt 继续

它写入 ``--out`` 的内容（第 10 课的检查所依赖的约定）：

* ``checkpoint.ckpt``：训练步（权重、BatchNorm 统计量、优化器状态），加上当前位置 ``epoch``（进行中的轮次，
  从 0 开始）、``step_in_epoch``（该轮次中已训练的批数）和 ``loss_sum``（这些批的训练损失之和，float64），以及决定这些批是哪些的设置（``batch_size``、
  ``train_subset``、``seed``）；每个轮次结束后以及中途停止时原子写入；
* ``log.jsonl``：每个完成的轮次一个 JSON 对象，字段为 ``epoch``（从 1 开始）、``global_step``、``train_loss``、
  ``test_accuracy``、``seconds``；同时打印同样的一行；
* ``model.mindir``：评估模式下训练好的网络，输入为 float32 ``(N, 1, 28, 28)``，批大小 N 任意，
  按课程中的方式归一化（像素 / 255，再用均值 0.1307、标准差 0.3081）；在最后一个轮次结束时写入。

Ctrl-C（SIGINT）、``kill``（SIGTERM）和 ``--stop-after`` 都会保存精确的位置后退出（退出码为 128 + 信号编号，``--stop-after`` 则为 0）；``--resume`` 从该位置继续，训练的批与未中断的
运行完全相同（每个轮次的混洗和数据增强都以 ``seed + epoch`` 为随机种子），并拒绝用其他 ``--batch-size``、
``--train-subset`` 或 ``--seed`` 写入的检查点（那样位置指向的是另一些批）。
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
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
    p.add_argument("--lr", type=float, default=2e-3, help="Adam 的学习率")
    p.add_argument("--seed", type=int, default=42, help="用于权重初始化、混洗和数据增强的随机种子")
    p.add_argument("--train-subset", type=int, default=0, help="只用前 N 张训练图像（0：全部）")
    p.add_argument("--test-subset", type=int, default=0, help="只在前 N 张测试图像上评估（0：全部）")
    p.add_argument("--resume", action="store_true", help="从 <out>/checkpoint.ckpt 继续")
    p.add_argument("--stop-after", type=int, default=0,
                   help="总共训练这么多步后停止，如同被中断（0：从不停止）")
    p.add_argument("--device", default="CPU", choices=["CPU", "GPU", "Ascend"], help="运行设备")
    p.add_argument("--mode", default="graph", choices=["graph", "pynative"],
                   help="执行模式：graph（静态图模式）或 pynative（动态图模式）")
    args = p.parse_args(argv)
    for name in ("epochs", "batch_size"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} 必须 >= 1")
    for name in ("train_subset", "test_subset", "stop_after"):
        if getattr(args, name) < 0:
            p.error(f"--{name.replace('_', '-')} 必须 >= 0")
    if not (args.data_dir / "train-images-idx3-ubyte").is_file():
        p.error(f"{args.data_dir} 中没有 MNIST 文件（应有 train-images-idx3-ubyte 及另外三个文件）；"
                "请传入 --data-dir")
    if args.resume and not (args.out / CHECKPOINT).is_file():
        p.error(f"--resume：没有可以继续的 {args.out / CHECKPOINT}；不带 --resume 运行即可从头开始")
    return args


def cpu_speed_fixes(device: str) -> None:
    """第 08 课的 CPU 优化设置。MindSpore 只在加载时读取一次：请在导入它之前调用。"""
    if device != "CPU":
        return
    if platform.machine().lower() in ("x86_64", "amd64"):
        os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")   # 一个上限：没有 AVX-512 时也无害
        os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")     # 旧的变量名：MindSpore 2.7.1 自带的 oneDNN 只读取这个名字
    if (os.cpu_count() or 1) <= 8:
        os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")
    os.environ.setdefault("GLOG_v", "3")                       # MindSpore 的 C++ 日志：只输出错误


# ---- 数据 ------------------------------------------------------------------------------------------------

def build_dataset(data_dir, split, batch_size, subset=0, augment=False, seed=0):
    """MNIST 的批：float32 (B, 1, 28, 28) 的图像和 int32 (B,) 的标签。"""
    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.dataset import transforms, vision

    workers = max(1, min(2, os.cpu_count() or 1))
    ds.config.set_seed(seed)             # 本轮次的混洗和数据增强
    if split == "train":
        # 在前 `subset` 张图像内混洗（num_samples + shuffle 每个轮次都会抽到新的图像）
        sampler = ds.SubsetRandomSampler(list(range(subset))) if subset else ds.RandomSampler()
        dataset = ds.MnistDataset(str(data_dir), usage="train", sampler=sampler)
    else:
        dataset = ds.MnistDataset(str(data_dir), usage="test", shuffle=False, num_samples=subset or None)
    image_ops = []
    if augment:
        # 对 uint8 (28, 28, 1) 图像做小幅随机旋转、平移和缩放
        image_ops.append(vision.RandomAffine(degrees=10, translate=(-0.1, 0.1, -0.1, 0.1), scale=(0.9, 1.1)))
    image_ops += [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize(mean=[MNIST_MEAN], std=[MNIST_STD]),
                  vision.HWC2CHW()]
    dataset = dataset.map(operations=image_ops, input_columns="image", num_parallel_workers=workers)
    dataset = dataset.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    # 训练批大小一致，训练步只编译一次；测试集保留每一张图像
    return dataset.batch(batch_size, drop_remainder=split == "train")


# ---- 模型 ------------------------------------------------------------------------------------------------

def build_model():
    """两个带批归一化的卷积块，再接一个 Dense 层。"""
    from mindspore import nn

    class SmallCNN(nn.Cell):
        def __init__(self, num_classes=10):
            super().__init__()
            self.features = nn.SequentialCell(
                nn.Conv2d(1, 16, 3, pad_mode="same", has_bias=False), nn.BatchNorm2d(16), nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2),                        # 16 x 14 x 14
                nn.Conv2d(16, 32, 3, pad_mode="same", has_bias=False), nn.BatchNorm2d(32), nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2),                        # 32 x 7 x 7
            )
            # 不用 Dropout：使用 MindSpore 2.10 的 CPU Dropout 时，同一条命令的两次运行（以及断点续训的运行）
            # 可能训练出不同的结果：种子相同的不同进程抽取的掩码可能不同（scripts/capstone_margin.py）
            self.flatten = nn.Flatten()
            self.classifier = nn.Dense(32 * 7 * 7, num_classes)

        def construct(self, x):
            return self.classifier(self.flatten(self.features(x)))

    return SmallCNN()


# ---- 检查点、日志、导出 ----------------------------------------------------------------------------------

def save_checkpoint(state, path: Path, epoch: int, step_in_epoch: int, loss_sum: float, settings: dict) -> None:
    """原子写入权重 + 优化器状态 + 位置 + 设置：先写临时文件，fsync，os.replace，再对文件夹 fsync。"""
    import mindspore as ms

    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.ckpt")  # 同一个文件夹：重命名才是原子的
    try:
        # loss_sum 存为 float64 的 Tensor：append_dict 会把 Python float 存成 float32，
        # 而续训轮次的平均损失必须与未中断的训练分毫不差
        ms.save_checkpoint(state, str(tmp), append_dict={"epoch": epoch, "step_in_epoch": step_in_epoch,
                                                         "loss_sum": ms.Tensor(np.float64(loss_sum)), **settings})
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)         # MindSpore 会把它设为只读；改回普通权限，才能删除它
        os.replace(tmp, path)        # 在这一刻之前，旧的检查点始终完整
        if os.name == "posix":       # 再刷写文件夹本身，让这次重命名在断电后也能保留
            folder = os.open(path.parent, os.O_RDONLY)
            os.fsync(folder)
            os.close(folder)
    finally:
        if tmp.exists():
            tmp.unlink()


def restore_checkpoint(state, path: Path) -> tuple:
    """把保存的值复制到 `state` 的参数中；返回 (epoch, step_in_epoch, loss_sum)。"""
    import mindspore as ms

    stored = ms.load_checkpoint(str(path))
    missing = [p.name for p in state.get_parameters() if p.name not in stored]
    if missing:
        sys.exit(f"{path} 与这个模型/优化器不匹配：缺少 {missing[:3]}")
    for param in state.get_parameters():
        # 原地复制：恢复之前编译好的训练步会继续训练的正是这些缓冲区
        param.copy_(stored[param.name])
    return (int(stored["epoch"].asnumpy()), int(stored["step_in_epoch"].asnumpy()),
            float(stored["loss_sum"].asnumpy()))


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
    line = json.dumps(record)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def export_mindir(net, path: Path) -> None:
    """评估模式下的网络，批大小任意，导出为 MindIR；与检查点一样原子写入。"""
    import mindspore as ms

    net.set_train(False)     # BatchNorm 用保存的统计量，而不是当前批的（如有 Dropout，也会关闭）
    stem = path.with_name(f".{path.stem}.{os.getpid()}.tmp")
    ms.export(net, ms.Tensor(shape=[None, 1, 28, 28], dtype=ms.float32), file_name=str(stem), file_format="MINDIR")
    os.chmod(f"{stem}.mindir", 0o644)
    os.replace(f"{stem}.mindir", path)


# ---- 训练与评估 ------------------------------------------------------------------------------------------

def evaluate(net, dataset) -> float:
    """评估模式下的网络正确分类的图像所占的比例。"""
    net.set_train(False)
    correct = total = 0
    for images, labels in dataset.create_tuple_iterator(num_epochs=1):
        predicted = net(images).asnumpy().argmax(axis=1)
        correct += int((predicted == labels.asnumpy()).sum())
        total += len(predicted)
    net.set_train(True)
    return correct / total


def install_stop_handler() -> list:
    """Ctrl-C（SIGINT）或 ``kill``（SIGTERM）只是请求停止：循环做完当前这一步，保存，然后退出。

    返回一个接收信号编号的列表；列表为空表示“继续”。两个信号都需要处理：在 MindSpore 2.10 中，第一个训练步之后
    按下的 Ctrl-C 会以 SIGTERM 的形式到达脚本（原因见第 10 课第 4 节）。
    """
    requested: list = []

    def ask_to_stop(signum, frame):
        requested.append(signum)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, ask_to_stop)
    return requested


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
    optimizer = nn.Adam(net.trainable_params(), learning_rate=args.lr)
    train_step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), optimizer)
    train_step.set_train()
    state = train_step                       # 包含网络和优化器：检查点保存的就是它
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

    stop = install_stop_handler()
    for epoch in range(start_epoch, args.epochs):
        train_set = build_dataset(args.data_dir, "train", args.batch_size, subset=args.train_subset,
                                  augment=True, seed=args.seed + epoch)
        # 本轮次累计的损失总和：被中断的轮次接着第一个进程保存的总和继续累加
        started, loss_sum = time.perf_counter(), carried
        for step_in_epoch, (images, labels) in enumerate(train_set.create_tuple_iterator(num_epochs=1)):
            if step_in_epoch < skip:
                continue                     # 中断之前已训练过
            loss_sum += float(train_step(images, labels).asnumpy())
            global_step += 1
            if stop or global_step == args.stop_after:
                # 在两步之间：位置是精确的（本轮次，已完成 step_in_epoch + 1 个批）
                save_checkpoint(state, ckpt_path, epoch, step_in_epoch + 1, loss_sum, settings)
                why = signal.Signals(stop[0]).name if stop else "--stop-after"
                print(f"共训练 {global_step} 步后停止（{why}）；已保存 {ckpt_path}；用 --resume 继续",
                      flush=True)
                return 128 + stop[0] if stop else 0     # shell 约定的信号退出码：SIGINT 为 130，SIGTERM 为 143
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
