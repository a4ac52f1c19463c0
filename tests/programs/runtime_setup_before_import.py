"""Child program of tests/test_runtime.py::test_setup_applies_fixes_before_mindspore_loads.

runtime.setup() in a fresh process, before MindSpore is imported: prints its CPU fixes, the environment
they set, the device and the mode, as one JSON line.
"""

import json
import os
import sys
from course_utils import runtime
assert "mindspore" not in sys.modules
info = runtime.setup(verbose=False)
print(json.dumps({"fixes": info.cpu_fixes, "env": {k: os.environ.get(k) for k in info.cpu_fixes},
                  "device": info.device, "mode": info.mode}))
