"""在当前进程中、以启动时的环境为 LeNet-5 的训练步计时。

第 08 课第 2 节的实验为每种环境各启动它一次，因为它所比较的变量（ONEDNN_MAX_CPU_ISA、
MS_DEV_HOST_BLOCKING_RUN、MS_DEV_JIT_PIPELINE、线程设置）只在 MindSpore 加载时读取：

    ONEDNN_MAX_CPU_ISA=AVX2 python scripts/bench_step.py --specs graph/cell pynative/cell --json out.json

它打印一张表，并把各行（每种配置一行）写成 JSON。
"""

import argparse
import json
import os

from course_utils import bench, runtime
from course_utils.fileio import atomic_write

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--specs", nargs="+", default=["graph/cell"], help="例如 graph/cell pynative/jit:O1")
parser.add_argument("--steps", type=int, default=10, help="每次计时重复的步数")
parser.add_argument("--repeats", type=int, default=3, help="计时重复的次数，各配置交替进行")
parser.add_argument("--batch-size", type=int, default=64)
parser.add_argument("--json", help="把各行写入这个文件")
args = parser.parse_args()

# cpu_fixes=False：完全按给定的环境运行（由启动者决定打开哪些优化设置）。
runtime.setup(device="CPU", mode="graph", seed=42, cpu_fixes=False, verbose=False)

configs = bench.step_configs(args.specs, batch_size=args.batch_size)   # 每种配置一个全新的 LeNet-5 训练步
timings = bench.compare(configs, steps=args.steps, repeats=args.repeats)
env = {k: os.environ.get(k, "") for k in bench.LOAD_TIME_VARS if k.startswith(("ONEDNN", "MS_DEV"))}
rows = bench.timing_rows(timings, env=env)

print(bench.format_table(timings))
if args.json:
    atomic_write(args.json, json.dumps(rows))
