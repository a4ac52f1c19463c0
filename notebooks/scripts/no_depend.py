"""A compiled training step that calls the optimizer without ops.depend (notebook 02, section 4).

MindSpore prints its compiler's warnings only if the log level allowed them when it loaded, so
notebook 02 runs this file in a fresh process with GLOG_v=2 and shows what the compiler said.

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
    optimizer(grads)                     # the update's result is not used by what the step returns
    return loss


before = net.fc1.weight.asnumpy().copy()
step_without_depend(ms.Tensor(np.ones((4, 10), np.float32)), ms.Tensor(np.zeros((4, 1), np.float32)))
changed = not np.allclose(before, net.fc1.weight.asnumpy())
print(tr("the weights changed (the update ran)") if changed  # tr(): the course's language
      else tr("the weights did not change (the update was dropped)"))
