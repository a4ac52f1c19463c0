"""Child program of tests/test_runtime.py::test_exact_on_cpu_needs_nothing.

runtime.setup(device="CPU", exact=True): prints the exact settings applied and the fake calls (none).
"""

from course_utils import runtime
info = runtime.setup(device="CPU", exact=True, verbose=False)
print(info.exact, runtime.fake_calls())
