"""Child program of tests/unit/test_runtime.py (the ``device_errors`` fixture): the device errors of one process.

runtime.setup(device="Ascend") on a machine without one fails ("first: ..."), then setup(device="CPU") works
("second: ..."; it used to raise KeyError('device') after the failed call), then setup(device="GPU") asks for a
restart ("switch: ..."): each outcome on its own lines.
"""

from course_utils import runtime

try:
    runtime.setup(device="Ascend", verbose=False)
except runtime.DeviceUnavailableError as exc:
    print("first:", exc)
info = runtime.setup(device="CPU", verbose=False)
print("second:", info.device)
try:
    runtime.setup(device="GPU", verbose=False)
except runtime.DeviceUnavailableError as exc:
    print("switch:", exc)
