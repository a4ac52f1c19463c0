"""Child program of tests/unit/test_runtime.py::test_user_settings_win_and_opt_out.

runtime.setup() on a faked 2-core machine, with AVX-512 or not (argv[1]: True/False): prints the CPU
fixes and MS_DEV_HOST_BLOCKING_RUN as one JSON line (the test sets ONEDNN_MAX_CPU_ISA and
COURSE_CPU_FIXES=0).
"""

import json
import os
import sys

from course_utils import runtime
runtime.has_avx512 = lambda: sys.argv[1] == "True"
runtime.cpu_count = lambda: 2
info = runtime.setup(verbose=False)
print(json.dumps([info.cpu_fixes, os.environ.get("MS_DEV_HOST_BLOCKING_RUN")]))
