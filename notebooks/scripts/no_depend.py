"""A compiled training step that calls the optimizer without ops.depend, and its control with it
(notebook 02, section 4).

MindSpore prints its compiler's warnings only if the log level allowed them when it loaded, so
notebook 02 runs this file in a fresh process with GLOG_v=2, once without and once with --depend,
and shows what the compiler said each time.

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
    optimizer(grads)                     # the update's result is not used by what the step returns
    return loss


@ms.jit
def step_with_depend(data, label):
    (loss, _), grads = grad_fn(data, label)
    loss = ops.depend(loss, optimizer(grads))   # the control: the loss waits for the update
    return loss


step = step_with_depend if "--depend" in sys.argv else step_without_depend
before = net.fc1.weight.asnumpy().copy()
step(ms.Tensor(np.ones((4, 10), np.float32)), ms.Tensor(np.zeros((4, 1), np.float32)))
changed = not np.allclose(before, net.fc1.weight.asnumpy())
print(tr("the weights changed (the update ran)") if changed  # tr(): the course's language
      else tr("the weights did not change (the update was dropped)"))
