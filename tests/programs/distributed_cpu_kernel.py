"""Child program of tests/unit/test_distributed.py (the ``cpu_kernel`` fixture): a CPU kernel (faked 2 cores) with
the CPU fixes applied, on a machine without NPUs.

Prints, as one JSON line, the CPU fixes msrun_env gives CPU workers and Ascend workers; then the error of
require_devices(2, "Ascend").
"""

import json

from course_utils import distributed, runtime

runtime.cpu_count = lambda: 2  # a small machine, where MS_DEV_HOST_BLOCKING_RUN applies
runtime.setup(device="CPU", verbose=False)
fixes = runtime.cpu_fix_env("CPU")
assert "MS_DEV_HOST_BLOCKING_RUN" in fixes
print(json.dumps({"cpu": {k: distributed.msrun_env("CPU").get(k) for k in fixes},
                  "ascend": {k: distributed.msrun_env("Ascend").get(k) for k in fixes}}))
try:
    distributed.require_devices(2, "Ascend")
except distributed.LaunchError as err:
    print(err)
