"""What the MNIST files must be, and how to check and read them.

Nothing here downloads anything: the official sizes and checksums (``MNIST_FILES``), the errors, the
``.verified`` marker that spares re-hashing 55 MB on every call, and the IDX parser.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import struct
from pathlib import Path
from typing import Dict, Mapping, Optional, Tuple, Union

import numpy as np

from course_utils import ROOT
from course_utils.fileio import atomic_write
from course_utils.i18n import tr

__all__ = [
    "ChecksumError", "FileSpec", "IdxFormatError", "MnistError", "MNIST_FILES", "SPLITS", "default_data_dir",
    "read_idx",
]

PathLike = Union[str, os.PathLike]


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

DATA_DIR_ENV = "COURSE_MNIST_DIR"       # where the four files live (default data/mnist in the repo)
MARKER_NAME = ".verified"
FETCH_COMMAND = "'make data' or 'python -m course_utils.data fetch'"


class MnistError(RuntimeError):
    """MNIST could not be made available; the message says what was tried and what to do."""


class ChecksumError(MnistError):
    """A file's bytes are not the official ones."""

    def __init__(self, name: str, where: str, expected: FileSpec, size: int, md5: str):
        self.name, self.where, self.expected, self.size, self.md5 = name, where, expected, size, md5
        super().__init__(tr(
            "{name} from {where} is not the official file: expected md5 {expected_md5} "
            "({expected_size} bytes), got md5 {md5} ({size} bytes)", name=name, where=where,
            expected_md5=expected.md5, expected_size=expected.size, md5=md5, size=size))


class IdxFormatError(ValueError):
    """A file is not a well-formed IDX file."""


def default_data_dir() -> Path:
    """``$COURSE_MNIST_DIR`` if set, else ``data/mnist`` in the repository."""
    env = os.environ.get(DATA_DIR_ENV)
    return Path(env).expanduser() if env else ROOT / "data" / "mnist"


# --------------------------------------------------------------------------------------------
# Checksums and the .verified marker
# --------------------------------------------------------------------------------------------

def digest(data: Optional[bytes] = None, path: Optional[Path] = None) -> Tuple[int, str, str]:
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


def check(name: str, where: str, spec: FileSpec, size: int, md5: str, sha: str) -> None:
    """Raise ChecksumError unless (size, md5, sha256) are the ones ``spec`` expects."""
    if size != spec.size or md5 != spec.md5 or (spec.sha256 and sha != spec.sha256):
        raise ChecksumError(name, where, spec, size, md5)


def read_marker(data_dir: Path) -> dict:
    try:
        with open(data_dir / MARKER_NAME, encoding="utf-8") as fh:
            marker = json.load(fh)
        return marker.get("files", {}) if isinstance(marker, dict) else {}
    except (OSError, ValueError):
        return {}


def write_marker(data_dir: Path, checksums: Mapping[str, FileSpec]) -> None:
    files = {}
    for name, spec in checksums.items():
        st = (data_dir / name).stat()
        files[name] = {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "md5": spec.md5}
    text = json.dumps({"note": "written by course_utils.data after a full md5 check; delete to force one",
                       "files": files}, indent=1, sort_keys=True)
    atomic_write(data_dir / MARKER_NAME, text.encode())


def marker_vouches(path: Path, spec: FileSpec, entry: Optional[dict]) -> bool:
    """True if the marker recorded this very file (same size and mtime) as verified with this md5."""
    if not entry:
        return False
    try:
        st = path.stat()
    except OSError:
        return False
    return (entry.get("md5") == spec.md5 and entry.get("size") == st.st_size == spec.size
            and entry.get("mtime_ns") == st.st_mtime_ns)


def file_status(path: Path, spec: FileSpec, marker_entry: Optional[dict], trust_marker: bool
                ) -> Tuple[str, Optional[ChecksumError]]:
    """("ok" | "missing" | "corrupt", error) for one file."""
    if not path.is_file():
        return "missing", None
    if trust_marker and marker_vouches(path, spec, marker_entry):
        return "ok", None
    size = path.stat().st_size
    if size != spec.size:       # no need to hash a file of the wrong size
        return "corrupt", ChecksumError(path.name, str(path), spec, size, digest(path=path)[1])
    try:
        check(path.name, str(path), spec, *digest(path=path))
    except ChecksumError as err:
        return "corrupt", err
    return "ok", None


def strays(data_dir: Path, names) -> list:
    """Files in ``data_dir`` whose name contains an official name without being it (``x.corrupt``,
    ``.x.123.tmp`` of a killed write): MnistDataset matches file names by substring and would read them."""
    try:
        entries = list(data_dir.iterdir())
    except OSError:
        return []
    return sorted(p for p in entries if p.name not in names and any(n in p.name for n in names))


# --------------------------------------------------------------------------------------------
# The IDX format
# --------------------------------------------------------------------------------------------

_IDX_DTYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path: PathLike) -> np.ndarray:
    """Parse an IDX file (the format of the MNIST files) into a numpy array, checking its header."""
    path = Path(path)
    with open(path, "rb") as fh:
        raw = fh.read()
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise IdxFormatError(tr("{path}: not an IDX file (magic {magic}; expected "
                                "00 00 <type> <ndim>). Run {command} to restore it.",
                                path=path, magic=raw[:4].hex() or "empty", command=FETCH_COMMAND))
    code, ndim = raw[2], raw[3]
    if code not in _IDX_DTYPES or ndim == 0:
        raise IdxFormatError(f"{path}: unsupported IDX type 0x{code:02x} / {ndim} dimensions")
    header = 4 + 4 * ndim
    if len(raw) < header:
        raise IdxFormatError(tr("{path}: truncated header ({n} bytes)", path=path, n=len(raw)))
    shape = struct.unpack(f">{ndim}I", raw[4:header])
    dtype = np.dtype(_IDX_DTYPES[code])
    expected = header + int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) != expected:
        raise IdxFormatError(tr("{path}: {n} bytes, but its header {shape} says {expected} "
                                "(truncated or damaged). Run {command} to restore it.",
                                path=path, n=len(raw), shape=shape, expected=expected, command=FETCH_COMMAND))
    return np.frombuffer(raw, dtype=dtype, offset=header).reshape(shape).astype(dtype.newbyteorder("="))


def idx_bytes(array: np.ndarray) -> bytes:
    """An unsigned-byte IDX file holding ``array`` (magic 0x0000_08_ndim, big-endian dims, data)."""
    array = np.ascontiguousarray(array, dtype=np.uint8)
    header = struct.pack(">HBB", 0, 0x08, array.ndim) + struct.pack(f">{array.ndim}I", *array.shape)
    return header + array.tobytes()
