"""教程里的那一行，用在了不该用的地方：在普通进程中设置 DATA_PARALLEL，却没有调用 init()。

第 09 课（第 7.3 节）在子进程中运行这个文件，因为 MindSpore 2.10 会构建好训练步，然后在第一步时因段错误
而崩溃：如果在 Notebook 自己的内核中运行，内核就会被杀死。预期输出：先是“训练步已构建”，然后进程在
“第一步已完成”之前被信号 11 杀死（两条消息都使用课程的语言：``COURSE_LANG``）。
"""

from course_utils import runtime

runtime.setup(device="CPU", verbose=False)

# 放在 runtime.setup 之后：它设置的变量 MindSpore 在导入时读取（pyproject.toml 允许脚本这样做：E402）
import mindspore as ms
import numpy as np
from mindspore import nn

from course_utils.i18n import tr
from course_utils.models import LeNet5

ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
net = LeNet5()
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params()))
print(tr("training step built"), flush=True)
step(ms.Tensor(np.zeros((4, 1, 28, 28), np.float32)), ms.Tensor(np.zeros(4, np.int32)))
print(tr("first step done"), flush=True)
