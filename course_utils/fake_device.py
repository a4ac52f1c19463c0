"""Tests only: a pretend Ascend NPU or GPU, so the course's device logic is tested on a machine without one.

``COURSE_FAKE_DEVICE=Ascend:1`` (``VAR``) makes ``course_utils.runtime``'s device probe report that device with that
many cards (``available_devices``, ``device_count``, ``auto``'s choice), and makes ``runtime.setup()`` record the
device calls it would make (``calls()``: ``set_device``, the exact-numerics settings) while MindSpore really runs on
CPU; ``setup()`` says so in a note. Without the variable nothing here is used: ``runtime`` asks ``active()`` at
each of those places and otherwise goes its own way. No lesson sets it.
"""

from __future__ import annotations

import os
from typing import List, Optional, Tuple

__all__ = ["VAR", "active", "calls", "record"]

VAR = "COURSE_FAKE_DEVICE"

_calls: List[Tuple[str, str]] = []


def active() -> Optional[Tuple[str, int]]:
    """``(device, count)`` from ``COURSE_FAKE_DEVICE`` (e.g. ``("Ascend", 1)``), or None (always, outside tests)."""
    spec = os.environ.get(VAR, "").strip()
    if not spec:
        return None
    from course_utils.runtime import device_name

    name, _, count = spec.partition(":")
    device = device_name(name)
    if device in ("auto", "CPU"):
        raise ValueError(f"{VAR}={spec!r}: fake only 'Ascend' or 'GPU', e.g. 'Ascend:1'.")
    try:
        n = int(count or 1)
    except ValueError:
        raise ValueError(f"{VAR}={spec!r}: the count after ':' must be a whole number.") from None
    return device, n


def record(kind: str, value: str) -> None:
    """Note a device call ``setup()`` would have made (``("set_device", "Ascend")``)."""
    _calls.append((kind, value))


def calls() -> list:
    """The device calls ``setup()`` recorded instead of making them: ``[(kind, value)]``."""
    return list(_calls)
