"""Child program of tests/unit/test_distributed.py::test_msrun_env_follows_the_fake_ascend_kernel.

In a kernel on the fake Ascend device: prints the job's default device and the CPU fixes msrun_env
would pass (none).
"""

from course_utils import distributed, runtime
runtime.setup(verbose=False)
env = distributed.msrun_env()
print(distributed.job_device(), sorted(k for k in runtime.cpu_fix_env("CPU") if k in env))
