"""Child program of tests/test_runtime.py::test_fake_ascend_records_device_and_exact_numerics.

runtime.setup(exact=True) twice on the fake Ascend device (COURSE_FAKE_DEVICE): prints the fake calls,
the device, the CPU fixes, MindSpore's real device and the exact settings as one JSON line.
"""

import json
from course_utils import runtime
assert runtime.available_devices() == ["Ascend", "CPU"] and runtime.device_count("Ascend") == 1
info = runtime.setup(mode="pynative", exact=True)
runtime.setup(mode="graph", exact=True)  # again: nothing is applied twice
import mindspore as ms
print(json.dumps({"calls": runtime.fake_calls(), "device": info.device, "fixes": info.cpu_fixes,
                  "real": ms.get_context("device_target"), "exact": info.exact}))
