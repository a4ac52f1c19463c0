"""course_utils.runtime.setup() 所做的事，写成你在自己脚本开头会写的普通调用。

第 00 课展示这个文件，并在一个新的 Python 进程中运行它（这两个环境变量只在尚未导入 MindSpore 的
进程中才起作用）：

    python notebooks/scripts/setup_by_hand.py [CPU|GPU|Ascend] [graph|pynative]
"""

import os
import sys

# 1. CPU 优化设置。MindSpore 只在 `import mindspore` 执行时读取一次：先设置它们。
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")       # AVX-512 CPU：oneDNN 的快速卷积路径
os.environ.setdefault("MS_DEV_HOST_BLOCKING_RUN", "1")    # 核数少：Host 流水线不忙等
os.environ.setdefault("GLOG_v", "3")                      # MindSpore 的 C++ 日志：只输出错误

import mindspore as ms   # 有意放在设置环境变量之后

device = sys.argv[1] if len(sys.argv) > 1 else "CPU"
mode = sys.argv[2] if len(sys.argv) > 2 else "graph"

ms.set_device(device)                                                            # 2. 设备
ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)      # 3. 执行模式
ms.set_seed(42)                                                                  # 4. 权重和随机算子的随机种子

x = ms.ops.ones((2, 3))
print(f"MindSpore {ms.__version__} | device_target={ms.get_context('device_target')} | mode={mode} | "
      f"ONEDNN_MAX_CPU_ISA={os.environ['ONEDNN_MAX_CPU_ISA']} | ops.ones((2, 3)).sum() = {float(x.sum())}")
