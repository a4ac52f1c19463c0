"""Child program of tests/unit/test_runtime.py::test_auto_says_when_the_ascend_plugin_did_not_load.

runtime.setup() (auto) on a faked 2-core machine with NPU device files but no Ascend plugin: its
summary is printed (setup's verbose output).
"""

from course_utils import runtime
runtime.ascend_device_files = lambda: ["/dev/davinci0"]
runtime.cpu_count = lambda: 2
info = runtime.setup()
