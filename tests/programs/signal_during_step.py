"""Child program of tests/mindspore/test_reload_storage.py and scripts/signal_crash_rate.py: GRAPH_MODE training
steps run back to back until a handled signal arrives.

argv: the names of the signals to handle (e.g. SIGINT SIGTERM), and ``--unheld`` to run each step without
``signals_held`` (course_utils.training.loop: SIGINT and SIGTERM held back from this thread while a step runs).
Prints READY once the handlers are in place and a first step has run, and STOPPED with the signals received when a
handled signal ended the loop, then leaves with os._exit(0); an unhandled signal ends the process instead.

Why os._exit: what is checked ends at STOPPED (the loop survived the signal and stopped after its step), not at
the interpreter's teardown with MindSpore's threads still up.
"""

import os
import signal
import sys

import numpy as np

import mindspore as ms
from mindspore import nn

from course_utils.training import signals_held

ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
net = nn.Dense(256, 256)
step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 1e-3))
x = ms.Tensor(np.ones((512, 256), np.float32))
stop = []
for sig in [getattr(signal, name) for name in sys.argv[1:] if name != "--unheld"]:
    signal.signal(sig, lambda signum, frame: stop.append(signum))
step(x, x)   # the first step compiles and sets MindSpore's runtime up (with its SIGINT handler)
print("READY", flush=True)
while not stop:
    if "--unheld" in sys.argv:
        step(x, x)
    else:
        with signals_held():
            step(x, x)
print("STOPPED", *(signal.Signals(n).name for n in stop), flush=True)
os._exit(0)
