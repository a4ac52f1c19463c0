"""Profile LeNet-5's GRAPH_MODE training step with MindSpore's profiler, in THIS process.

    python scripts/bench_profile.py --out runs/08_bottlenecks/profile
    ONEDNN_VERBOSE=1 python scripts/bench_profile.py --out DIR     # oneDNN also prints one line per primitive

The profile lands in DIR/<host>_<pid>_<time>_ascend_ms/ (per-operator CSV tables under FRAMEWORK/,
a timeline in ASCEND_PROFILER_OUTPUT/trace_view.json). The compiling first call runs before the profiler
starts. The schedule (wait=0, warmup=1, active=--active, repeat=1) then counts the steps that prof.step()
ends: one warm-up step (the profiler initialised, nothing collected), --active recorded steps, one cycle;
the profile is written after the last.
"""

import argparse

from course_utils import runtime

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--out", required=True, help="folder for the profile")
parser.add_argument("--active", type=int, default=5, help="steps recorded")
args = parser.parse_args()

runtime.setup(device="CPU", mode="graph", seed=42, cpu_fixes=False, verbose=False)   # env as launched

from mindspore.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler

from course_utils import bench

step = bench.cycle(bench.build_step("graph/cell", *bench.lenet_setup()), bench.mnist_batches(64, count=4))
bench.force(step())                     # the first call compiles: before the profiler starts

plan = schedule(wait=0, warmup=1, active=args.active, repeat=1)
with profile(activities=[ProfilerActivity.CPU], schedule=plan,
             on_trace_ready=tensorboard_trace_handler(args.out)) as prof:
    for _ in range(1 + args.active):
        bench.force(step())             # completion inside the profiled step
        prof.step()                     # tell the schedule a step ended
print("profile written under", args.out)
