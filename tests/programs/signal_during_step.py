"""Child program of tests/mindspore/test_reload_storage.py: GRAPH_MODE training steps run back to back until a
handled signal arrives.

argv: the names of the signals to handle (e.g. SIGINT SIGTERM). Prints READY once the handlers are in place and
STOPPED when a handled signal ended the loop; an unhandled signal ends the process instead.
"""

import signal
import sys

import numpy as np

import mindspore as ms
from mindspore import nn

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
net = nn.Dense(256, 256)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 1e-3))
x = ms.Tensor(np.ones((512, 256), np.float32))
stop = []
for sig in [getattr(signal, name) for name in sys.argv[1:]]:
    signal.signal(sig, lambda signum, frame: stop.append(signum))
print("READY", flush=True)
while not stop:
    step(x, x)
print("STOPPED", flush=True)
