"""Child program of tests/unit/test_runtime.py (the ``first_setup`` fixture): one process's setup() calls.

1. runtime.setup() before MindSpore is imported: its CPU fixes, the environment they set, the device and the
   mode, as one JSON line;
2. setup() again, switching the mode (PyNative, then graph): the last call's summary;
3. setup(device="CPU", exact=True): "exact:", the exact settings applied and the fake calls (none).
"""

import json
import os
import sys

from course_utils import fake_device, runtime

assert "mindspore" not in sys.modules
info = runtime.setup(seed=1, verbose=False)
names = runtime.with_legacy_names(info.cpu_fixes)   # the ISA cap is also set under oneDNN's older name
print(json.dumps({"fixes": info.cpu_fixes, "env": {k: os.environ.get(k) for k in names},
                  "device": info.device, "mode": info.mode}))

import mindspore as ms  # noqa: E402  (after setup(), as a lesson does)

a = ms.ops.ones((2,), ms.float32) * 2
info = runtime.setup(mode="pynative", seed=2, verbose=False)
assert ms.get_context("mode") == ms.PYNATIVE_MODE
info = runtime.setup(mode="graph", verbose=False)
assert ms.get_context("mode") == ms.GRAPH_MODE
print(info.summary())

info = runtime.setup(device="CPU", exact=True, verbose=False)
print("exact:", info.exact, fake_device.calls())
