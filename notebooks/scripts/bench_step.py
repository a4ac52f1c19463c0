"""Time LeNet-5 training steps in THIS process, with the environment it was started with.

The performance lab (notebook 08, part 2) launches it once per environment, because the variables it
compares (ONEDNN_MAX_CPU_ISA, MS_DEV_HOST_BLOCKING_RUN, MS_DEV_JIT_PIPELINE, thread settings) are
read only when MindSpore loads:

    ONEDNN_MAX_CPU_ISA=AVX2 python scripts/bench_step.py --specs graph/cell pynative/cell --json out.json

It prints a table and writes the rows (one per configuration) as JSON.
"""

import argparse
import json
import os

from course_utils import bench, runtime
from course_utils.fileio import atomic_write

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--specs", nargs="+", default=["graph/cell"], help="e.g. graph/cell pynative/jit:O1")
parser.add_argument("--steps", type=int, default=10, help="steps per timed repeat")
parser.add_argument("--repeats", type=int, default=3, help="timed repeats, alternating between configurations")
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--json", help="write the rows here")
args = parser.parse_args()

# cpu_fixes=False: take the environment exactly as given (the launcher decides which fixes are on).
runtime.setup(device="CPU", mode="graph", seed=42, cpu_fixes=False, verbose=False)

configs = bench.step_configs(args.specs, batch_size=args.batch_size)   # a fresh LeNet-5 step per spec
timings = bench.compare(configs, steps=args.steps, repeats=args.repeats)
env = {k: os.environ.get(k, "") for k in bench.LOAD_TIME_VARS if k.startswith(("ONEDNN", "MS_DEV"))}
rows = bench.timing_rows(timings, env=env)

print(bench.format_table(timings))
if args.json:
    atomic_write(args.json, json.dumps(rows))
