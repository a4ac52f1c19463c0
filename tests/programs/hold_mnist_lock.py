"""Hold course_utils.data's lock on a folder, as a fetch in another process does: prints "locked", then sleeps.

    python tests/programs/hold_mnist_lock.py FOLDER SECONDS
"""

import sys
import time
from pathlib import Path

from course_utils.data import fetch

with fetch._lock(Path(sys.argv[1])):
    print("locked", flush=True)
    time.sleep(float(sys.argv[2]))
