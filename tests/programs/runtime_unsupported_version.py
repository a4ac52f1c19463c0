"""Child program of tests/unit/test_runtime.py::test_setup_refuses_an_unsupported_version.

runtime.setup() with the installed MindSpore faked to 2.6.0: prints "ERR" and the error.
"""

from course_utils import runtime
runtime.installed_mindspore_version = lambda: "2.6.0"
try:
    runtime.setup()
except runtime.UnsupportedVersionError as exc:
    print("ERR", exc)
