"""The gap to PyTorch: notebook 04's LeNet-5 step in MindSpore and in PyTorch eager, timed in ONE process in
alternation (so a busy machine slows both alike and their ratio still means something).

    python scripts/bench_torch.py --json runs/05_performance_lab/torch.json
    python scripts/bench_torch.py --profile          # also: per-operator times from both frameworks' profilers

Both steps: LeNet-5, Adam (lr 2e-3), batch 64, the same in-memory MNIST batches, loss read back (forced)
every step. PyTorch is not a course dependency: without it the script says so and exits with code 3.
MindSpore runs with the environment it was started with (the lab launches it with the course's CPU fixes).
"""

import argparse
import json
import shutil
import sys
import tempfile

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
parser.add_argument("--json", help="write the rows here")
args = parser.parse_args()

try:
    import torch
except ImportError as exc:
    print(f"PyTorch is not installed ({exc}); the comparison is optional: pip install torch to run it.")
    sys.exit(3)

runtime.setup(device="CPU", mode="graph", seed=42, cpu_fixes=False, verbose=False)   # env as launched

import mindspore as ms  # noqa: E402

from course_utils import bench  # noqa: E402
from course_utils.fileio import atomic_write  # noqa: E402

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
torch.manual_seed(42)
net = TorchLeNet5()
opt = torch.optim.Adam(net.parameters(), lr=2e-3)
loss_fn = torch.nn.CrossEntropyLoss()
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
