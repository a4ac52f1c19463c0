"""Child program: importing course_utils.data uses no network, starts no process and loads no MindSpore.

Prints "ok" when that holds (an AssertionError otherwise).
"""

import importlib
import subprocess
import sys
import urllib.request


def refuse(*args, **kwargs):
    raise AssertionError("network or subprocess used at import")


urllib.request.urlopen = subprocess.run = refuse

importlib.import_module("course_utils.data")   # the import is what is tested, after the traps are set

assert "mindspore" not in sys.modules
print("ok")
