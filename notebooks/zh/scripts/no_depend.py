"""一个编译后的训练步，调用优化器时没有用 ops.depend，以及用了 ops.depend 的对照训练步
（第 02 课第 4 节）。

只有加载 MindSpore 时的日志级别允许，它才会打印编译器的警告，因此第 02 课在新进程中以 GLOG_v=2
运行这个文件两次，一次不带 --depend，一次带 --depend，并展示每次编译器输出的内容。

    GLOG_v=2 python notebooks/scripts/no_depend.py [CPU|GPU|Ascend] [--depend]
"""

import sys

import mindspore as ms
import numpy as np
from mindspore import nn, ops

from course_utils.i18n import tr
from course_utils.losses import HuberLoss
from course_utils.models import SimpleNet

args = [a for a in sys.argv[1:] if a != "--depend"]
ms.set_device(args[0] if args else "CPU")
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


@ms.jit
def step_with_depend(data, label):
    (loss, _), grads = grad_fn(data, label)
    loss = ops.depend(loss, optimizer(grads))   # 对照：损失等待参数更新完成
    return loss


step = step_with_depend if "--depend" in sys.argv else step_without_depend
before = net.fc1.weight.asnumpy().copy()
step(ms.Tensor(np.ones((4, 10), np.float32)), ms.Tensor(np.zeros((4, 1), np.float32)))
changed = not np.allclose(before, net.fc1.weight.asnumpy())
print(tr("the weights changed (the update ran)") if changed  # tr()：课程的语言
      else tr("the weights did not change (the update was dropped)"))
