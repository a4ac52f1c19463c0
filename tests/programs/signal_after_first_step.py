"""Child program of tests/mindspore/test_capstone_facts.py: which signal a Python handler receives when the process
gets a SIGINT (a Ctrl-C) before the first GRAPH_MODE training step and at three moments after it.

Handles SIGINT and SIGTERM, sends itself one SIGINT at each moment, and prints one line per moment,
``MOMENT SIGNAL`` with the name of the signal the handler received (``none`` if none arrived).
"""

import os
import signal
import time

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
net = nn.Dense(16, 16)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 1e-3))
step.set_train()
x = ms.Tensor(np.ones((8, 16), np.float32))
received = []
for sig in (signal.SIGINT, signal.SIGTERM):
    signal.signal(sig, lambda signum, frame: received.append(signum))


def probe(moment):
    os.kill(os.getpid(), signal.SIGINT)
    deadline = time.monotonic() + 5
    while not received and time.monotonic() < deadline:
        time.sleep(0.05)
    print(moment, signal.Signals(received[0]).name if received else "none", flush=True)
    received.clear()


probe("before_the_first_step")
step(x, x)
probe("between_steps")
time.sleep(1)
probe("one_second_later")
batches = ds.NumpySlicesDataset({"x": np.ones((64, 16), np.float32)}, shuffle=False).batch(8)
for _ in batches.create_tuple_iterator(num_epochs=1):
    pass
probe("after_a_data_pipeline")
