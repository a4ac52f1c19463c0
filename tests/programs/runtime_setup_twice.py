"""Child program of tests/test_runtime.py::test_setup_is_idempotent_and_switches_mode.

runtime.setup() called again, switching the mode (PyNative, then graph): prints the last setup's
summary.
"""

from course_utils import runtime
runtime.setup(seed=1)
import mindspore as ms
a = ms.ops.ones((2,), ms.float32) * 2
info = runtime.setup(mode="pynative", seed=2)
assert ms.get_context("mode") == ms.PYNATIVE_MODE
info = runtime.setup(mode="graph")
assert ms.get_context("mode") == ms.GRAPH_MODE
print(info.summary())
