"""Writing files so that nothing is lost: the one home of the course's atomic write.

A file written with ``atomic_write`` is, at every moment, either the complete old file or the complete
new one: the data goes to a uniquely named temporary file in the same folder, is flushed to the disk
(``fsync``), and only then renamed over the target (``os.replace`` is atomic on POSIX and Windows).
The temporary name carries the process id and random bytes, so two writers never share it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path
from typing import Union

__all__ = ["atomic_write", "fsync_path", "sha256_file", "temporary_sibling"]


def temporary_sibling(path: Union[str, Path], suffix: str = ".tmp") -> Path:
    """A fresh hidden name beside ``path``: ``.<name>.<pid>.<random><suffix>``."""
    path = Path(path)
    return path.parent / f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}{suffix}"


def fsync_path(path: Union[str, Path], directory: bool = False) -> None:
    """Flush a file's data, or a folder's entries (which makes a rename durable), to the disk."""
    if directory and os.name != "posix":  # Windows cannot open a directory like this
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Union[str, Path], data: Union[bytes, str], encoding: str = "utf-8") -> None:
    """Write ``data`` (bytes, or text in ``encoding``) to ``path`` atomically and durably."""
    path = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_sibling(path)
    # Not mkstemp: its files are private (0600); this honours the umask like any ordinary file.
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError, AttributeError):  # not possible on every platform
        fsync_path(path.parent, directory=True)


def sha256_file(path: Union[str, Path]) -> str:
    """The SHA-256 of a file's bytes (hex), read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
