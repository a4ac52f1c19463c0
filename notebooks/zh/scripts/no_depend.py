"""一个编译后的训练步，调用优化器时没有用 ops.depend（第 02 课第 4 节）。

只有加载 MindSpore 时的日志级别允许，它才会打印编译器的警告，因此第 02 课在一个新进程中以 GLOG_v=2
运行这个文件，并展示编译器输出的内容。

    GLOG_v=2 python notebooks/scripts/no_depend.py [CPU|GPU|Ascend]
"""

import sys

import mindspore as ms
import numpy as np
from mindspore import nn

from course_utils.i18n import tr
from course_utils.losses import HuberLoss
from course_utils.models import SimpleNet

ms.set_device(sys.argv[1] if len(sys.argv) > 1 else "CPU")
ms.set_context(mode=ms.GRAPH_MODE)
net, loss_fn = SimpleNet(), HuberLoss()
optimizer = nn.Adam(net.trainable_params(), learning_rate=0.01)


def forward_fn(data, label):
    logits = net(data)
    return loss_fn(logits, label), logits


grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)


@ms.jit
def step_without_depend(data, label):
    (loss, _), grads = grad_fn(data, label)
    optimizer(grads)                     # 更新的结果没有被训练步的返回值用到
    return loss


before = net.fc1.weight.asnumpy().copy()
step_without_depend(ms.Tensor(np.ones((4, 10), np.float32)), ms.Tensor(np.zeros((4, 1), np.float32)))
changed = not np.allclose(before, net.fc1.weight.asnumpy())
print(tr("the weights changed (the update ran)") if changed  # tr()：课程的语言
      else tr("the weights did not change (the update was dropped)"))
