"""Child program of tests/unit/test_runtime.py::test_auto_without_npu_files_says_nothing_about_ascend.

runtime.setup() (auto, verbose): prints its summary.
"""

from course_utils import runtime
runtime.setup()
