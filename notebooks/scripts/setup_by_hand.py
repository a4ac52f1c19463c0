"""What course_utils.runtime.setup() does, as the plain calls you would write at the top of your own script.

Notebook 00 shows this file and runs it in a fresh Python process (the two environment variables only
work in a process that has not imported MindSpore yet):

    python notebooks/scripts/setup_by_hand.py [CPU|GPU|Ascend] [graph|pynative]
"""

import os
import sys

# 1. CPU performance settings. MindSpore reads them once, while `import mindspore` runs: set them first.
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")       # AVX-512 CPUs: oneDNN's fast convolution path
os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")    # few cores: no busy-waiting host pipeline
os.environ.setdefault("GLOG_v", "3")                      # MindSpore's C++ log: errors only

import mindspore as ms   # after the environment, on purpose

device = sys.argv[1] if len(sys.argv) > 1 else "CPU"
mode = sys.argv[2] if len(sys.argv) > 2 else "graph"

ms.set_device(device)                                                            # 2. the device
ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)      # 3. the execution mode
ms.set_seed(42)                                                                  # 4. seeds for weights and random ops

x = ms.ops.ones((2, 3))
print(f"MindSpore {ms.__version__} | device_target={ms.get_context('device_target')} | mode={mode} | "
      f"ONEDNN_MAX_CPU_ISA={os.environ['ONEDNN_MAX_CPU_ISA']} | ops.ones((2, 3)).sum() = {float(x.sum())}")
