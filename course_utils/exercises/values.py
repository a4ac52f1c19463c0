"""Turning tensors and numbers into what a message shows: ``to_numpy``, ``describe``."""

from __future__ import annotations

from course_utils.exercises.placeholder import is_placeholder
from course_utils.i18n import tr

__all__ = ["describe", "to_numpy"]


def to_numpy(value):
    """A NumPy array from a MindSpore tensor, NumPy array, number or nested list."""
    import numpy as np

    if hasattr(value, "asnumpy"):
        return value.asnumpy()
    return np.asarray(value)


def describe(value, max_items: int = 8) -> str:
    """Short text for a message: values (rounded), and shape and dtype for tensors/arrays."""
    import numpy as np

    if is_placeholder(value):
        return tr("____ (the placeholder)")
    try:
        arr = to_numpy(value)
    except Exception:
        return repr(value)
    if arr.dtype.kind not in "fciub":
        return repr(value)
    dtype = str(value.dtype) if hasattr(value, "dtype") else str(arr.dtype)
    with np.printoptions(precision=5, suppress=True, threshold=max_items, edgeitems=3):
        text = np.array2string(arr, separator=", ") if arr.ndim else f"{arr.item():.6g}"
    if arr.ndim == 0 and not hasattr(value, "shape"):
        return text
    return tr("{text} (shape {shape}, {dtype})", text=text, shape=tuple(arr.shape), dtype=dtype)
