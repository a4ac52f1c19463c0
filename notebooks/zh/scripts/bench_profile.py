"""在当前进程中，用 MindSpore 的性能分析工具分析 LeNet-5 在静态图模式下的训练步。

    python scripts/bench_profile.py --out runs/08_bottlenecks/profile
    ONEDNN_VERBOSE=1 python scripts/bench_profile.py --out DIR     # oneDNN 还会为每个原语打印一行

性能分析数据写入 DIR/<host>_<pid>_<time>_ascend_ms/（FRAMEWORK/ 下是按算子统计的 CSV 表，
ASCEND_PROFILER_OUTPUT/trace_view.json 是时间线）。会触发编译的首次调用在性能分析工具启动之前完成。
之后由调度（schedule，wait=0、warmup=1、active=--active、repeat=1）按 prof.step() 结束的步来计数：
先预热 1 步（性能分析工具已初始化，但不采集数据），再记录 --active 步，只做一轮；
最后一步结束后写出性能分析数据。
"""

import argparse

from course_utils import runtime

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--out", required=True, help="存放性能分析数据的文件夹")
parser.add_argument("--active", type=int, default=5, help="记录的步数")
args = parser.parse_args()

runtime.setup(device="CPU", mode="graph", seed=42, cpu_fixes=False, verbose=False)   # 环境按启动时的原样

from mindspore.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler

from course_utils import bench

step = bench.cycle(bench.build_step("graph/cell", *bench.lenet_setup()), bench.mnist_batches(64, count=4))
bench.force(step())                     # 首次调用会编译：放在性能分析开始之前

plan = schedule(wait=0, warmup=1, active=args.active, repeat=1)
with profile(activities=[ProfilerActivity.CPU], schedule=plan,
             on_trace_ready=tensorboard_trace_handler(args.out)) as prof:
    for _ in range(1 + args.active):
        bench.force(step())             # 在被分析的步之内等待计算完成
        prof.step()                     # 告诉调度：一步结束了
print("性能分析数据已写入", args.out)
