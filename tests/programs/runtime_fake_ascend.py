"""Child program of tests/unit/test_runtime.py (the ``fake_ascend`` fixture), run with COURSE_FAKE_DEVICE=Ascend:1.

1. runtime.setup(exact=True) twice: the fake calls, the device, the CPU fixes, MindSpore's real device and the
   exact settings as one JSON line (setup's summary is printed before it);
2. the performance lab's CPU-only experiments (quick) with every way to start a process forbidden:
   "name | why it skipped" for each.
"""

import json
import subprocess

from course_utils import bench, fake_device, runtime

assert runtime.available_devices() == ["Ascend", "CPU"] and runtime.device_count("Ascend") == 1
info = runtime.setup(mode="pynative", exact=True)
runtime.setup(mode="graph", exact=True)  # again: nothing is applied twice
import mindspore as ms  # noqa: E402

print(json.dumps({"calls": fake_device.calls(), "device": info.device, "fixes": info.cpu_fixes,
                  "real": ms.get_context("device_target"), "exact": info.exact}))


def no_process(*args, **kwargs):
    raise AssertionError(f"a process was started: {args[0] if args else kwargs}")


subprocess.run = subprocess.Popen = subprocess.check_output = no_process
for name in ("cpu_traps", "find_trap"):
    result = bench.run_experiment(name, device=info.device, quick=True)
    print(name, "|", result.skipped)
