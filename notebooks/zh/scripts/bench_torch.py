"""与 PyTorch 的差距：第 05 课的 LeNet-5 训练步分别用 MindSpore 和 PyTorch eager 运行，在“同一个”进程中
交替计时（这样机器繁忙时两者受到同样的拖累，它们的比值仍然有意义）。

    python scripts/bench_torch.py --json runs/08_bottlenecks/torch.json
    python scripts/bench_torch.py --profile          # 另外：两个框架各自的性能分析工具给出的每个算子的耗时
    python scripts/bench_torch.py --recipe 4         # 改为：把第 05 课的完整训练方案从头到尾训练一遍

两个训练步：LeNet-5、Adam（lr 2e-3）、批大小 64、内存中同样的 MNIST 批，每一步都读回损失值（强制完成）。
使用 ``--recipe N`` 时，它改为把第 05 课的训练方案（N 个轮次，Adam 2e-3，带预热和余弦退火，批大小 64）
依次训练三遍：按第 05 课的方式运行的 MindSpore（在 ``mnist_dataset`` 流水线上调用 ``fit``）、
用内存中的批供数的 MindSpore，以及用同样的内存中的批供数的 PyTorch。
PyTorch 不是课程的依赖：没有安装它时，脚本会说明这一点，并以退出码 3 结束。
两个框架都使用课程的 CPU 优化设置运行（即 ``runtime.setup()`` 设置的 ONEDNN_MAX_CPU_ISA=AVX2 和
MS_DEV_HOST_BLOCKING_RUN=1，在两个框架加载之前设置，因此 oneDNN 在两者中受到同样的限制），你自己设置的变量除外；
设置 COURSE_CPU_FIXES=0 则一项都不设置。每张表格上方的信息行会打印所用的环境。
"""

import argparse
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time

from course_utils import runtime

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--specs", nargs="+", default=["graph/cell"], help="要计时的 MindSpore 配置")
parser.add_argument("--steps", type=int, default=20)
parser.add_argument("--repeats", type=int, default=5)
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--profile", action="store_true", help="另外给出每个算子的耗时（算子耗时与单步耗时对比）")
parser.add_argument("--dispatch-threads", type=int, help="mindspore.runtime.dispatch_threads_num(N)")
parser.add_argument("--affinity", action="store_true", help="mindspore.runtime.set_cpu_affinity(True)")
parser.add_argument("--torch-threads", type=int, help="torch.set_num_threads(N)（默认：由 PyTorch 决定）")
parser.add_argument("--recipe", type=int, metavar="EPOCHS", help="改为按第 05 课的训练方案训练 EPOCHS 个轮次")
parser.add_argument("--json", help="把各行写入这个文件")
args = parser.parse_args()

TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"   # 仅含 CPU 的安装包（直接用 pip 安装会下载 CUDA 版）

if importlib.util.find_spec("torch") is None:
    hint = f"pip install torch --index-url {TORCH_CPU_INDEX}"
    print(f"没有安装 PyTorch；这项比较是可选的，安装 CPU 版后即可运行：\n    {hint}")
    sys.exit(3)

# 课程的 CPU 优化设置，要在 MindSpore 和 PyTorch 加载之前设置（两者中的 oneDNN 都只读取一次指令集限制）
runtime.setup(device="CPU", mode="graph", seed=42, verbose=False)

import mindspore as ms
import numpy as np
import torch
from mindspore import nn

from course_utils import bench, data
from course_utils.fileio import atomic_write
from course_utils.models import LeNet5
from course_utils.training import fit, warmup_cosine_lr

if args.dispatch_threads:
    ms.runtime.dispatch_threads_num(args.dispatch_threads)
if args.affinity:
    ms.runtime.set_cpu_affinity(True)


class TorchLeNet5(torch.nn.Module):
    """与 course_utils.models.LeNet5 逐层相同。"""

    def __init__(self):
        super().__init__()
        self.conv1, self.conv2 = torch.nn.Conv2d(1, 6, 5), torch.nn.Conv2d(6, 16, 5)
        self.fc1, self.fc2, self.fc3 = torch.nn.Linear(256, 120), torch.nn.Linear(120, 84), torch.nn.Linear(84, 10)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.conv1(x)), 2)
        x = torch.max_pool2d(torch.relu(self.conv2(x)), 2)
        x = torch.relu(self.fc1(x.flatten(1)))
        return self.fc3(torch.relu(self.fc2(x)))


if args.torch_threads:
    torch.set_num_threads(args.torch_threads)
loss_fn = torch.nn.CrossEntropyLoss()


def train_recipe(epochs: int, batch_size: int) -> list:
    """第 05 课的训练方案，运行三遍；每遍一行：训练秒数、步/秒、测试准确率。"""
    images, labels = data.load_mnist_arrays("train")
    x_all, y_all = data.normalize_images(images), labels.astype(np.int32)
    test_images, test_y = data.load_mnist_arrays("test")
    test_x = data.normalize_images(test_images)
    per_epoch = len(x_all) // batch_size
    lr = warmup_cosine_lr(2e-3, epochs * per_epoch, warmup_steps=epochs * per_epoch // 20)   # 与第 05 课相同

    def order(epoch):   # 每次运行都以相同的顺序看到相同的混洗后的批
        return np.random.default_rng(42 + epoch).permutation(len(x_all))[:per_epoch * batch_size] \
            .reshape(per_epoch, batch_size)

    def mindspore_run(in_memory: bool) -> tuple:
        ms.set_seed(42)
        net = LeNet5()
        step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()),
                                   nn.Adam(net.trainable_params(), learning_rate=lr))
        if in_memory:
            def batches(epoch):
                return ((ms.Tensor(x_all[i]), ms.Tensor(y_all[i])) for i in order(epoch))
        else:
            def batches(epoch):
                return data.mnist_dataset("train", batch_size=batch_size, seed=42 + epoch)
        result = fit(step, batches, epochs, network=net, eval_data=(test_x, test_y), progress=False)
        return result.train_seconds, result.final_accuracy

    def pytorch_run() -> tuple:
        torch.manual_seed(42)
        net = TorchLeNet5()
        opt = torch.optim.Adam(net.parameters(), lr=1.0)   # 乘以 lr[step]：相同的逐步学习率调度
        schedule = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: lr[min(s, len(lr) - 1)])
        x, y, seconds = torch.from_numpy(x_all), torch.from_numpy(y_all).long(), 0.0
        for epoch in range(epochs):
            for idx in order(epoch):
                start = time.perf_counter()
                opt.zero_grad()
                loss = loss_fn(net(x[idx]), y[idx])
                loss.backward()
                opt.step()
                schedule.step()
                loss.item()
                seconds += time.perf_counter() - start
        with torch.no_grad():
            predicted = net(torch.from_numpy(test_x)).argmax(1).numpy()
        return seconds, float((predicted == test_y).mean())

    rows = []
    for name, run in (("MindSpore，第 05 课的方式（mnist_dataset）", lambda: mindspore_run(False)),
                      ("MindSpore，内存中的批", lambda: mindspore_run(True)),
                      ("PyTorch eager，内存中的批", pytorch_run)):
        load_before = os.getloadavg()[0]
        seconds, accuracy = run()
        rows.append({"config": name, "train_s": seconds, "steps_per_s": epochs * per_epoch / seconds,
                     "accuracy": accuracy, "load": f"{load_before:.1f} -> {os.getloadavg()[0]:.1f}"})
    for row in rows:
        row["x_pytorch"] = row["train_s"] / rows[-1]["train_s"]
    return rows


if args.recipe:
    rows = train_recipe(args.recipe, args.batch_size)
    print(bench.header())
    print(bench.format_rows(rows, ["config", "train_s", "steps_per_s", "accuracy", "x_pytorch", "load"],
                            {"train_s": "训练 s", "steps_per_s": "步/秒", "accuracy": "测试准确率",
                             "x_pytorch": "耗时是 PyTorch 的倍数", "load": "1 分钟平均负载"}))
    if args.json:
        atomic_write(args.json, json.dumps(rows, default=str))
    sys.exit(0)


torch.manual_seed(42)
net = TorchLeNet5()
opt = torch.optim.Adam(net.parameters(), lr=2e-3)
ms_batches = bench.mnist_batches(args.batch_size, count=8)
torch_batches = [(torch.from_numpy(x.asnumpy()), torch.from_numpy(y.asnumpy()).long()) for x, y in ms_batches]


def torch_step(x, y):
    opt.zero_grad()
    loss = loss_fn(net(x), y)
    loss.backward()
    opt.step()
    return loss.item()            # 取出数值，就像 MindSpore 的训练步用 .asnumpy() 强制完成一样


configs = {}
for spec in args.specs:
    s = bench.Spec.parse(spec)
    bench.set_mode(s.mode)
    step = bench.build_step(s, *bench.lenet_setup("adam", 2e-3))
    configs[f"MindSpore {spec}"] = bench.Config(step=bench.cycle(step, ms_batches),
                                                before=lambda m=s.mode: bench.set_mode(m))
configs["PyTorch eager"] = bench.cycle(torch_step, torch_batches)
timings = bench.compare(configs, steps=args.steps, repeats=args.repeats)
rows = bench.timing_rows(timings, torch_threads=torch.get_num_threads(), torch_version=torch.__version__)

if args.profile:   # 每步的算子（kernel）耗时，取自各框架自己的性能分析工具
    from mindspore.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler
    from torch.profiler import profile as torch_profile

    from course_utils.bench import profile as msprof

    out = tempfile.mkdtemp(prefix="bench_torch_profile_")   # 只读回其中的表格
    for row in rows:
        n = 10
        if row["config"].startswith("MindSpore"):
            step = configs[row["config"]].step
            bench.set_mode(bench.Spec.parse(row["config"].split()[1]).mode)
            with profile(activities=[ProfilerActivity.CPU], schedule=schedule(wait=0, warmup=1, active=n, repeat=1),
                         on_trace_ready=tensorboard_trace_handler(out)) as prof:
                for _ in range(n + 1):
                    bench.force(step())
                    prof.step()
            ops = msprof.op_type_times(msprof.latest_run(out))
            row["kernel_ms_per_step"] = sum(r["total_ms"] for r in ops) / n
            row["top_ops"] = [(r["op_type"], round(r["total_ms"] / n, 3)) for r in ops[:5]]
        else:
            step = configs[row["config"]]
            with torch_profile(activities=[torch.profiler.ProfilerActivity.CPU]) as tprof:
                for _ in range(n):
                    step()
            ops = [e for e in tprof.key_averages() if e.key.startswith("aten::") and e.self_cpu_time_total > 0]
            row["kernel_ms_per_step"] = sum(e.self_cpu_time_total for e in ops) / 1e3 / n
            top = sorted(ops, key=lambda e: -e.self_cpu_time_total)[:5]
            row["top_ops"] = [(e.key, round(e.self_cpu_time_total / 1e3 / n, 3)) for e in top]
        # 算子耗时是算子所在各线程的 CPU 时间之和，因此可能超过单步耗时
        row["overhead_ms_per_step"] = row["median_step_ms"] - row["kernel_ms_per_step"]
    shutil.rmtree(out, ignore_errors=True)

print(bench.header())
print(bench.format_table(timings, baseline="PyTorch eager"))
for row in rows:
    if "kernel_ms_per_step" in row:
        rest = row["overhead_ms_per_step"]
        print(f"{row['config']:24s} 单步 {row['median_step_ms']:.2f} ms；算子 {row['kernel_ms_per_step']:.2f} ms "
              + (f"（另有 {rest:.2f} ms 在算子之外）" if rest >= 0 else "（多个线程同时消耗的 CPU 时间）")
              + f"；最耗时：{row['top_ops']}")
if args.json:
    atomic_write(args.json, json.dumps(rows, default=str))
