"""Child program of tests/test_runtime.py::test_fake_ascend_perf_lab_skips_cpu_only_experiments_without_a_process.

On the fake Ascend device, the performance lab's CPU-only experiments (quick) with every way to start
a process forbidden: prints "name | why it skipped" for each.
"""

import subprocess
from course_utils import bench, runtime
info = runtime.setup(verbose=False)

def no_process(*args, **kwargs):
    raise AssertionError(f"a process was started: {args[0] if args else kwargs}")

subprocess.run = subprocess.Popen = subprocess.check_output = no_process
for name in ("cpu_traps", "find_trap"):
    result = bench.run_experiment(name, device=info.device, quick=True)
    print(name, "|", result.skipped)
