"""Child program of tests/unit/test_distributed.py: an msrun worker that only joins MindSpore's cluster
(init()) and prints "rank R connected".
"""

from course_utils import runtime
runtime.setup(device="CPU", verbose=False)
from mindspore.communication import init, get_rank
init()
print("rank", get_rank(), "connected", flush=True)
