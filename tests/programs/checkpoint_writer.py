"""Child program of tests/unit/test_checkpoint.py: a checkpoint writer to be killed mid-save.

argv: target path, how ("before_rename": write and flush one save, create <target>.ready, then hang where
os.replace would rename it; "loop": create <target>.ready, then save a Parameter of argv[3] float32s over
and over). Prints nothing: the test watches the files.
"""

import os
import sys
import time

from course_utils import runtime
runtime.setup(verbose=False)
import mindspore as ms
import numpy as np
from mindspore import nn
from course_utils import checkpoint


class Big(nn.Cell):
    def __init__(self, n):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.full(n, 7.0, np.float32)), name="w")

target, how = sys.argv[1], sys.argv[2]
if how == "before_rename":
    # everything written and flushed, then the process dies before os.replace
    def stuck(*args, **kwargs):
        open(target + ".ready", "w").close()
        time.sleep(600)
    os.replace = stuck
    checkpoint.save(target, Big(1000))
else:
    open(target + ".ready", "w").close()
    while True:                      # big saves until killed, one of them half-way
        checkpoint.save(target, Big(int(sys.argv[3])))
