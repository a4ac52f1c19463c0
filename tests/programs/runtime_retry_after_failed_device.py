"""Child program of tests/test_runtime.py::test_setup_can_be_retried_after_a_failed_device.

runtime.setup(device="Ascend") fails, then setup(device="CPU") works: prints both outcomes.
"""

from course_utils import runtime
try:
    runtime.setup(device="Ascend", verbose=False)
except runtime.DeviceUnavailableError as exc:
    print("first:", str(exc).splitlines()[0][:40])
info = runtime.setup(device="CPU")
print("second:", info.device)
