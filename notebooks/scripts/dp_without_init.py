"""The tutorials' one line, run where it does not belong: DATA_PARALLEL in a plain process, no init().

Notebook 09 (section 7.3) runs this file in a child process, because MindSpore 2.10 builds the
training step and then dies with a segmentation fault at the first step: in the notebook's own
kernel that would kill the kernel. Expected output: "training step built", then the process is
killed by signal 11 before "first step done" (both in the course's language: ``COURSE_LANG``).
"""

from course_utils import runtime

runtime.setup(device="CPU", verbose=False)

# after runtime.setup: it sets variables MindSpore reads at import (pyproject.toml lets scripts do that: E402)
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
