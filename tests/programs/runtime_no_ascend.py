"""Child program of tests/test_runtime.py::test_unavailable_device_names_what_was_found.

runtime.setup(device="Ascend") on a machine without one: prints "ERR" and the error.
"""

from course_utils import runtime
try:
    runtime.setup(device="Ascend", verbose=False)
except runtime.DeviceUnavailableError as exc:
    print("ERR", exc)
