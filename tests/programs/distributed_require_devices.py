"""Child program of tests/unit/test_distributed.py::test_require_devices_stops_with_how_to_run_the_lesson.

require_devices and launch on a fake one-NPU Ascend machine (argv: the training script, a log folder):
prints "kind | message" of the first refusal, then the kind of launch()'s.
"""

import sys

from course_utils import distributed
from course_utils.distributed import LaunchError
assert distributed.require_devices(2, "CPU") == 2
assert distributed.require_devices(1, "Ascend") == 1
try:
    distributed.require_devices(2, "Ascend")
except LaunchError as err:
    print(err.kind, "|", err)
try:  # launch() checks first: nothing starts
    distributed.launch(sys.argv[1], workers=2, device="Ascend", log_dir=sys.argv[2])
except LaunchError as err:
    print(err.kind)
