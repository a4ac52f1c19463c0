"""What course_utils.runtime.setup() does, as the plain calls you would write at the top of your own script.

Notebook 00 shows this file and runs it in a fresh Python process (its kernel has already run operations, so there
the environment variables would come too late):

    python notebooks/scripts/setup_by_hand.py [CPU|GPU|Ascend] [graph|pynative]
"""

import os
import sys
from pathlib import Path

device = sys.argv[1] if len(sys.argv) > 1 else "CPU"
mode = sys.argv[2] if len(sys.argv) > 2 else "graph"

# 1. CPU fixes, only where they help. MindSpore reads them once, at the first operation that uses them: set them first.
if device == "CPU":
    cpuinfo = Path("/proc/cpuinfo")
    # Only on CPUs with AVX-512: there oneDNN's AVX-512 convolutions are slow for MindSpore; cap it at AVX2.
    if cpuinfo.exists() and "avx512f" in cpuinfo.read_text():
        os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
        os.environ.setdefault("DNNL_MAX_CPU_ISA", "AVX2")   # older name, the only one MindSpore 2.7.1's oneDNN reads
    # Only for steps launched from PyNative (eager or @jit) on 8 CPUs or fewer: the host blocks as it waits, not spins.
    if mode == "pynative" and len(os.sched_getaffinity(0)) <= 8:
        os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")
# 2. MindSpore's log level (C++ and Python), read once, at the import: 3 = errors only.
os.environ.setdefault("GLOG_v", "3")

import mindspore as ms   # after the environment, on purpose

ms.set_device(device)                                                            # 3. the device
ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)      # 4. the execution mode
ms.set_seed(42)                                                                  # 5. the seed

x = ms.ops.ones((2, 3))
print(f"MindSpore {ms.__version__} | device_target={ms.get_context('device_target')} | mode={mode} | "
      f"ops.ones((2, 3)).sum() = {float(x.sum())}")
for name in ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN"):
    print(f"{name} = {os.environ.get(name, '(not set)')}")
