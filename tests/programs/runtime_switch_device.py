"""Child program of tests/test_runtime.py::test_switching_device_later_says_restart.

runtime.setup() on CPU, then again with device="GPU": prints "ERR" and the error (restart the kernel).
"""

from course_utils import runtime
runtime.setup(verbose=False)
try:
    runtime.setup(device="GPU", verbose=False)
except runtime.DeviceUnavailableError as exc:
    print("ERR", exc)
