"""The probes behind lesson 06, section 4: which storage a call uses after a parameter got new storage.

``ms.load_param_into_net`` gives every parameter new storage with ``Parameter.set_data``. Whether a call made after
that reads (or updates) the new storage depends on how the call was compiled. The lesson prints these probes in both
modes; ``tests/mindspore/test_reload_storage.py`` asserts them, so that a MindSpore release that changes them fails a
test before the lesson's explanation goes stale.
"""

import numpy as np

import mindspore as ms
from mindspore import nn


class Scale(nn.Cell):
    """One parameter ``w = [1, 1, 1]``; ``Scale()(x) = w * x``."""

    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")

    def construct(self, x):
        return self.w * x


def reads_new_storage(call, cell: Scale) -> bool:
    """Call once, give ``cell.w`` new storage holding 2s (``set_data``), call again: did the second call read the 2s?"""
    x = ms.Tensor(np.ones(3, np.float32))
    call(x)
    cell.w.set_data(ms.Tensor(np.full(3, 2, np.float32)))
    return float(call(x).asnumpy().ravel()[0]) == 2.0


def sgd_updates_new_storage() -> bool:
    """Two ``nn.SGD`` steps (its ``construct`` carries ``@jit``) with gradient 1 and learning rate 1, ``w`` given new
    storage holding 5s in between: did the second step update the new storage (5 -> 4)?"""
    cell = Scale()
    sgd = nn.SGD(cell.trainable_params(), learning_rate=1.0)
    grads = (ms.Tensor(np.ones(3, np.float32)),)
    sgd(grads)
    cell.w.set_data(ms.Tensor(np.full(3, 5, np.float32)))
    sgd(grads)
    return float(cell.w.asnumpy()[0]) == 4.0
