"""course_utils.runtime.setup() 所做的事，写成你在自己脚本开头会写的普通调用。

第 00 课展示这个文件，并在一个新的 Python 进程中运行它（那个 Notebook 的内核已经运行过算子，在那里设置这些
环境变量为时已晚）：

    python notebooks/zh/scripts/setup_by_hand.py [CPU|GPU|Ascend] [graph|pynative]
"""

import os
import sys
from pathlib import Path

device = sys.argv[1] if len(sys.argv) > 1 else "CPU"
mode = sys.argv[2] if len(sys.argv) > 2 else "graph"

# 1. CPU 优化设置，只在有帮助时设置。MindSpore 在第一次运行用到它们的算子时读取，且只读取一次：先设置它们。
if device == "CPU":
    cpuinfo = Path("/proc/cpuinfo")
    # 只在支持 AVX-512 的 CPU 上：oneDNN 的 AVX-512 卷积对 MindSpore 很慢，把它限制在 AVX2。
    if cpuinfo.exists() and "avx512f" in cpuinfo.read_text():
        os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
        os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")   # 旧的变量名：MindSpore 2.7.1 自带的 oneDNN 只读取这个名字
    # 只用于 8 个及以下 CPU 上从动态图模式启动的训练步（逐算子执行或 @jit）：Host 侧等待时阻塞，而不是空转。
    if mode == "pynative" and len(os.sched_getaffinity(0)) <= 8:
        os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")
# 2. MindSpore 的日志级别（C++ 和 Python 两侧），只在导入时读取一次：3 表示只输出错误。
os.environ.setdefault("GLOG_v", "3")

import mindspore as ms   # 有意放在设置环境变量之后

ms.set_device(device)                                                            # 3. 设备
ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)      # 4. 执行模式
ms.set_seed(42)                                                                  # 5. 随机种子

x = ms.ops.ones((2, 3))
print(f"MindSpore {ms.__version__} | device_target={ms.get_context('device_target')} | mode={mode} | "
      f"ops.ones((2, 3)).sum() = {float(x.sum())}")
for name in ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN"):
    print(f"{name} = {os.environ.get(name, '（未设置）')}")
