"""The gap to PyTorch: notebook 05's LeNet-5 step in MindSpore and in PyTorch eager, timed in ONE process in
alternation (so a busy machine slows both alike and their ratio still means something).

    python scripts/bench_torch.py --json runs/08_bottlenecks/torch.json
    python scripts/bench_torch.py --profile          # also: per-operator times from both frameworks' profilers
    python scripts/bench_torch.py --recipe 4         # instead: notebook 05's whole recipe, trained end to end

Both steps: LeNet-5, Adam (lr 2e-3), batch 64, the same in-memory MNIST batches, loss read back (forced)
every step. With ``--recipe N`` it trains notebook 05's recipe instead (N epochs, Adam 2e-3 with warm-up +
cosine, batch 64) three times, one after the other: MindSpore as notebook 05 runs it (``fit`` on the
``mnist_dataset`` pipeline), MindSpore fed in-memory batches, and PyTorch fed the same in-memory batches.
PyTorch is not a course dependency: without it the script says so and exits with code 3.
Both frameworks run with the course's CPU settings (``runtime.setup()``'s ONEDNN_MAX_CPU_ISA=AVX2 and
MS_DEV_HOST_BLOCKING_RUN=1, set before either loads, so oneDNN is capped alike in both), except a variable you set
yourself; COURSE_CPU_FIXES=0 leaves them all out. The header above each table prints the environment used.
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
parser.add_argument("--specs", nargs="+", default=["graph/cell"], help="MindSpore configurations to time")
parser.add_argument("--steps", type=int, default=20)
parser.add_argument("--repeats", type=int, default=5)
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--profile", action="store_true", help="also per-operator times (kernel time vs step time)")
parser.add_argument("--dispatch-threads", type=int, help="mindspore.runtime.dispatch_threads_num(N)")
parser.add_argument("--affinity", action="store_true", help="mindspore.runtime.set_cpu_affinity(True)")
parser.add_argument("--torch-threads", type=int, help="torch.set_num_threads(N) (default: PyTorch's choice)")
parser.add_argument("--recipe", type=int, metavar="EPOCHS", help="train notebook 05's recipe for EPOCHS instead")
parser.add_argument("--json", help="write the rows here")
args = parser.parse_args()

TORCH_CPU_INDEX = "https://download.pytorch.org/whl/cpu"   # the CPU-only wheels (plain pip fetches the CUDA build)

if importlib.util.find_spec("torch") is None:
    hint = f"pip install torch --index-url {TORCH_CPU_INDEX}"
    print(f"PyTorch is not installed; the comparison is optional. Install the CPU build to run it:\n    {hint}")
    sys.exit(3)

# the course's CPU settings, set before MindSpore and PyTorch load (oneDNN reads its ISA cap once, in both)
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
    """course_utils.models.LeNet5, layer for layer."""

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
    """Notebook 05's recipe in three runs; one row each: training seconds, steps/s, test accuracy."""
    images, labels = data.load_mnist_arrays("train")
    x_all, y_all = data.normalize_images(images), labels.astype(np.int32)
    test_images, test_y = data.load_mnist_arrays("test")
    test_x = data.normalize_images(test_images)
    per_epoch = len(x_all) // batch_size
    lr = warmup_cosine_lr(2e-3, epochs * per_epoch, warmup_steps=epochs * per_epoch // 20)   # as notebook 05

    def order(epoch):   # every run sees the same shuffled batches in the same order
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
        opt = torch.optim.Adam(net.parameters(), lr=1.0)   # x lr[step], the same per-step schedule
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
    for name, run in (("MindSpore, notebook 05 (mnist_dataset)", lambda: mindspore_run(False)),
                      ("MindSpore, in-memory batches", lambda: mindspore_run(True)),
                      ("PyTorch eager, in-memory batches", pytorch_run)):
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
                            {"train_s": "training s", "steps_per_s": "steps/s", "accuracy": "test accuracy",
                             "x_pytorch": "time x PyTorch", "load": "1-min load"}))
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
    return loss.item()            # the value, as MindSpore's steps are forced with .asnumpy()


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

if args.profile:   # kernel (operator) time per step from each framework's own profiler
    from mindspore.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler
    from torch.profiler import profile as torch_profile

    from course_utils.bench import profile as msprof

    out = tempfile.mkdtemp(prefix="bench_torch_profile_")   # only its tables are read back
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
        # operator time is CPU time summed over the threads the operators ran on, so it can exceed the step
        row["overhead_ms_per_step"] = row["median_step_ms"] - row["kernel_ms_per_step"]
    shutil.rmtree(out, ignore_errors=True)

print(bench.header())
print(bench.format_table(timings, baseline="PyTorch eager"))
for row in rows:
    if "kernel_ms_per_step" in row:
        rest = row["overhead_ms_per_step"]
        print(f"{row['config']:24s} step {row['median_step_ms']:.2f} ms; operators {row['kernel_ms_per_step']:.2f} ms "
              + (f"(+ {rest:.2f} ms outside them)" if rest >= 0 else "(CPU time on several threads at once)")
              + f"; top: {row['top_ops']}")
if args.json:
    atomic_write(args.json, json.dumps(rows, default=str))
