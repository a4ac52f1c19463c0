"""Child program of tests/unit/test_distributed.py: a tiny msrun worker (no MindSpore) that does what the
environment tells it: FAIL_RANK raises, KILL_RANK is killed by SIGKILL, HANG_RANK / HANG_ALL sleep for
10 minutes. It prints "rank R of N started" and "rank R done"; msrun's scheduler process runs the same
file (MS_ROLE=MS_SCHED) and simply exits.
"""

import os
import sys
import time

role, rank = os.environ.get("MS_ROLE"), os.environ.get("RANK_ID")
if role != "MS_WORKER":
    sys.exit(0)
print(f"rank {rank} of {os.environ['MS_WORKER_NUM']} started", flush=True)
if rank == os.environ.get("FAIL_RANK"):
    raise RuntimeError(f"rank {rank} gives up")
if rank == os.environ.get("KILL_RANK"):
    time.sleep(2)  # a real worker dies after start-up; one that dies at once may not be named
    os.kill(os.getpid(), 9)
if rank == os.environ.get("HANG_RANK") or os.environ.get("HANG_ALL"):
    time.sleep(600)
print(f"rank {rank} done", flush=True)
