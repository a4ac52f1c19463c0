"""Child program of tests/test_distributed.py::test_require_devices_without_an_npu_says_zero.

require_devices(2, "Ascend") on a machine without NPUs: prints the error.
"""

from course_utils import distributed
try:
    distributed.require_devices(2, "Ascend")
except distributed.LaunchError as err:
    print(err)
