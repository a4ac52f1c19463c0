"""The offline bundle: the whole course in one archive that installs with no network at all.

    python scripts/bundle.py build                       # what `make bundle` runs (Linux x86_64 + aarch64)
    python scripts/bundle.py build --platforms host      # only this machine's architecture (smaller, faster)
    python scripts/bundle.py check-host                  # in an unpacked bundle: can this machine use it?

``build`` writes ``dist/mindspore-course-<version>.tar`` holding, under one folder:

- the course: every git-tracked file, as it is in the working tree;
- ``data/mnist/``: the four MNIST files, re-hashed against their known checksums before they are packed;
- ``wheelhouse/``: a wheel of every package the course environment needs, for CPython 3.11 on each platform,
  at exactly the versions installed in this ``.venv`` (the tested environment; its dependency tree is
  followed with the markers of each platform), plus
  ``pip`` and the build requirements of the course package (``pip install -e .`` builds it in isolation).
  ``wheelhouse/any/`` holds the wheels that are the same file on every platform, ``wheelhouse/<machine>/`` the
  rest; ``wheelhouse/requirements-lock.txt`` is the full lock (every transitive dependency pinned, with a
  ``platform_machine`` marker where platforms differ) and ``wheelhouse/BUNDLE.json`` says what the bundle
  covers;
- ``build/site/``: the course website as ``make site`` built it (``make bundle`` builds it first), so that a
  classroom without internet can read and search the lessons: ``make site-serve`` serves it with the system
  Python, no venv needed;
- ``SHA256SUMS``: checksums of the data and wheels (``sha256sum -c SHA256SUMS`` after copying a stick).

In an unpacked bundle the Makefile sees ``wheelhouse/BUNDLE.json``, runs ``check-host`` (stdlib only, with
the system Python, before any venv exists) and then installs with ``pip --no-index`` from the wheelhouse.

Why a folder per machine: MindSpore's aarch64 wheel on PyPI is tagged ``cp311-none-any`` although it holds
aarch64 binaries, so next to the x86_64 wheel in one folder pip on any other machine would take it.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
# The course's own modules this tool uses import only the standard library (it runs before make setup, with any
# Python: `check-host`).
sys.path.insert(0, str(ROOT))
from course_utils.pins import requirement_lines

WHEELHOUSE = "wheelhouse"
MANIFEST = "BUNDLE.json"
LOCK = "requirements-lock.txt"
PYTHON_VERSION = "3.11"

#: pip ``--platform`` tags per machine, in order of preference: the oldest glibc first, so that a package
#: offering several builds gets the one that runs on the most systems.
PLATFORM_TAGS: Dict[str, Tuple[str, ...]] = {
    "x86_64": ("manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64",
               "manylinux_2_24_x86_64", "manylinux_2_27_x86_64", "manylinux_2_28_x86_64"),
    "aarch64": ("manylinux2014_aarch64", "manylinux_2_17_aarch64", "manylinux_2_24_aarch64",
                "manylinux_2_27_aarch64", "manylinux_2_28_aarch64"),
}
MACHINE_ALIASES = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64", "aarch64_be": "aarch64"}
#: glibc of the legacy manylinux names
LEGACY_GLIBC = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


class BundleError(RuntimeError):
    """The bundle cannot be built or used; the message says why and what to do."""


def host_machine() -> str:
    machine = platform.machine().lower()
    return MACHINE_ALIASES.get(machine, machine)


# --------------------------------------------------------------------------------------------
# Pure helpers (tested without the network)
# --------------------------------------------------------------------------------------------

def wheel_glibc(filename: str) -> Optional[Tuple[int, int]]:
    """The glibc a wheel needs, from its platform tag (None for a pure or non-manylinux wheel)."""
    best = None
    for tag in filename[:-len(".whl")].split("-")[-1].split("."):
        parts = tag.split("_")
        if parts[0] in LEGACY_GLIBC:
            need = LEGACY_GLIBC[parts[0]]
        elif parts[0] == "manylinux" and len(parts) > 2 and parts[1].isdigit() and parts[2].isdigit():
            need = (int(parts[1]), int(parts[2]))
        else:
            continue
        best = need if best is None else min(best, need)   # a file with several tags runs where any applies
    return best


def split_wheelhouse(per_platform: Mapping[str, Mapping[str, str]]) -> Dict[str, Dict[str, str]]:
    """{folder: {filename: sha256}}: a file that every platform resolved, with the same bytes, goes to
    ``any``; everything else to its platform's folder.

    ``per_platform`` is {machine: {filename: sha256}} as downloaded for each machine.
    """
    machines = list(per_platform)
    folders: Dict[str, Dict[str, str]] = {"any": {}, **{m: {} for m in machines}}
    for machine, files in per_platform.items():
        for name, digest in files.items():
            if all(per_platform[other].get(name) == digest for other in machines):
                folders["any"][name] = digest
            else:
                folders[machine][name] = digest
    return folders


def lock_lines(per_platform: Mapping[str, Iterable[Tuple[str, str]]]) -> List[str]:
    """``name==version`` lines for {machine: [(name, version)]}, with a marker where machines differ."""
    pins = {machine: dict(items) for machine, items in per_platform.items()}
    machines = sorted(pins)
    names = sorted({n for p in pins.values() for n in p})
    lines = []
    for name in names:
        versions = {m: pins[m].get(name) for m in machines}
        if len(set(versions.values())) == 1:
            lines.append(f"{name}=={versions[machines[0]]}")
            continue
        for machine in machines:
            if versions[machine] is not None:
                lines.append(f'{name}=={versions[machine]} ; platform_machine == "{machine}"')
    return lines


def host_problems(manifest: Mapping, machine: str, python: Tuple[int, ...], system: str,
                  glibc: Optional[Tuple[int, int]]) -> List[str]:
    """Why this machine cannot install from the bundle described by ``manifest`` (empty: it can).

    ``python`` is (major, minor, micro) of the Python that will create the venv.
    """
    problems = []
    want_python = tuple(int(x) for x in manifest["python"].split("."))
    floor = tuple(int(x) for x in manifest.get("python_min", manifest["python"]).split("."))
    if tuple(python[:2]) != want_python:
        problems.append(f"this Python is {'.'.join(map(str, python))}, the bundle's wheels are for Python "
                        f"{manifest['python']}: run make with PYTHON=python{manifest['python']}")
    elif tuple(python) < floor:
        problems.append(f"this Python is {'.'.join(map(str, python))}, but some of the bundle's pinned packages "
                        f"need Python {'.'.join(map(str, floor))} or newer")
    if system != "linux":
        problems.append(f"this is {system}, the bundle's wheels are for Linux")
    elif machine not in manifest["platforms"]:
        problems.append(f"this machine is {machine}, the bundle has wheels for "
                        f"{', '.join(manifest['platforms'])} only")
    else:
        need = manifest["platforms"][machine].get("glibc")
        if need and glibc is not None and glibc < tuple(need):
            problems.append(f"this system's glibc is {glibc[0]}.{glibc[1]}, the bundle's {machine} wheels "
                            f"need {need[0]}.{need[1]} or newer")
    return problems


def _system_glibc() -> Optional[Tuple[int, int]]:
    try:
        name, version = os.confstr("CS_GNU_LIBC_VERSION").split()
        major, minor = version.split(".")[:2]
        return int(major), int(minor)
    except (AttributeError, ValueError, OSError):
        return None


def check_host(root: Path = ROOT) -> int:
    """Exit status 0 if this machine can install from the unpacked bundle in ``root``; else say why."""
    manifest_path = root / WHEELHOUSE / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        print(f"offline bundle: cannot read {manifest_path}: {err}", file=sys.stderr)
        return 1
    problems = host_problems(manifest, host_machine(), sys.version_info[:3], sys.platform, _system_glibc())
    if problems:
        print("This offline bundle cannot install on this machine:", file=sys.stderr)
        for problem in problems:
            print(f"  - {problem}", file=sys.stderr)
        print("Use the normal online install instead (a course checkout without wheelhouse/), or a machine the "
              "bundle covers.", file=sys.stderr)
        return 1
    print(f"offline bundle {manifest['version']}: installing from wheelhouse/any and "
          f"wheelhouse/{host_machine()} (pip --no-index, no network)")
    return 0


# --------------------------------------------------------------------------------------------
# Building
# --------------------------------------------------------------------------------------------

def _run(cmd: Sequence[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(list(cmd), check=True, **kwargs)


def _sha256(path: Path) -> str:
    from course_utils.fileio import sha256_file   # (its one home; the build runs in the course's .venv)

    return sha256_file(path)


def course_version() -> str:
    """``<pyproject version>-g<commit>`` (``-dirty`` when tracked files differ from the commit)."""
    import tomllib
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    commit = _run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                  text=True).stdout.strip()
    dirty = _run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True,
                 text=True).stdout.strip()
    return f"{version}-g{commit}" + ("-dirty" if dirty else "")


def build_requirements() -> List[str]:
    import tomllib
    return list(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"])


MARKER_ENV = {"python_version": PYTHON_VERSION, "python_full_version": PYTHON_VERSION + ".0", "sys_platform": "linux",
              "platform_system": "Linux", "os_name": "posix", "implementation_name": "cpython",
              "platform_python_implementation": "CPython"}


def closure(roots: Iterable[str], machine: str) -> Dict[str, str]:
    """{name: version} of every package that ``roots`` need on ``machine``, as installed in this environment.

    The tested ``.venv`` is the lock's source of truth: each requirement is looked up in it (the installed
    version must satisfy it) and its own requirements are followed, evaluating markers for ``machine``.
    A package that ``machine`` needs but this environment lacks is an error, not a silent guess.
    """
    import importlib.metadata as md
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    env = dict(MARKER_ENV, platform_machine=machine)
    pins: Dict[str, str] = {}
    done: Dict[str, set] = {}
    todo = [(Requirement(r), "the course") for r in roots]
    while todo:
        req, needed_by = todo.pop()
        name = str(canonicalize_name(req.name))
        extras = set(req.extras)
        if name in done and extras <= done[name]:
            continue
        try:
            dist = md.distribution(req.name)
        except md.PackageNotFoundError:
            raise BundleError(f"{req} (needed by {needed_by} on {machine}) is not installed in this environment, "
                              "so its version is not tested: install it into .venv (pinned) first") from None
        if not req.specifier.contains(dist.version, prereleases=True):
            raise BundleError(f"{needed_by} needs {req}, but {dist.version} is installed: run make setup")
        pins[name] = dist.version
        done[name] = done.get(name, set()) | extras
        for line in dist.requires or []:
            dep = Requirement(line)
            if dep.marker is None or any(dep.marker.evaluate(dict(env, extra=e)) for e in ["", *sorted(extras)]):
                dep.marker = None
                todo.append((dep, f"{dist.metadata['Name']} {dist.version}"))
    return pins


def course_roots() -> List[str]:
    """requirements.txt, the course package's build requirements and pip itself, as requirement strings."""
    roots = requirement_lines()
    # The build of `pip install -e .` runs isolated: it installs these from the wheelhouse. Old setuptools
    # (< 70.1) also asks for `wheel` to build an editable wheel.
    roots += build_requirements() + ["pip", "wheel"]
    return roots


def download(machine: str, pins: Mapping[str, str], dest: Path, python: str, python_version: str) -> Dict[str, str]:
    """Download the wheel of each pinned package for ``machine``: {filename: sha256}."""
    dest.mkdir(parents=True, exist_ok=True)
    requirements = dest / "pins.txt"
    requirements.write_text("".join(f"{n}=={v}\n" for n, v in sorted(pins.items())), encoding="utf-8")
    _run([python, "-m", "pip", "download", "-qq", "--no-deps", "--dest", str(dest), "-r", str(requirements),
          *_target_options(machine, python_version)])
    requirements.unlink()
    wanted = {}
    for path, (name, version) in zip(sorted(dest.glob("*.whl")), _pins(p.name for p in sorted(dest.glob("*.whl")))):
        if pins.get(name) == version:
            wanted[path.name] = _sha256(path)
        else:                                  # left in the --cache folder by an earlier build
            path.unlink()
    return wanted


def python_floor(pins: Mapping[str, str]) -> str:
    """The oldest Python 3.11.x that every pinned package accepts (their Requires-Python lower bounds)."""
    import importlib.metadata as md
    from packaging.specifiers import SpecifierSet
    from packaging.version import Version
    floor = Version(PYTHON_VERSION + ".0")
    for name in pins:
        spec = SpecifierSet(md.distribution(name).metadata.get("Requires-Python") or "")
        for clause in spec:
            bound = Version(clause.version.rstrip(".*"))
            if clause.operator in (">=", ">") and bound.release[:2] == floor.release[:2] and bound > floor:
                floor = bound
    return str(floor)


def _target_options(machine: str, python_version: str) -> List[str]:
    options = ["--only-binary=:all:", "--python-version", python_version, "--implementation", "cp",
               "--abi", "cp" + PYTHON_VERSION.replace(".", "")]
    for tag in PLATFORM_TAGS[machine]:
        options += ["--platform", tag]
    return options


def check_complete(machine: str, wheels: Path, python: str, python_version: str) -> None:
    """pip itself resolves requirements.txt for ``machine`` from ``wheels`` alone (--no-index)."""
    with tempfile.TemporaryDirectory() as target:
        result = subprocess.run(
            [python, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed", "--no-index",
             "--isolated", "--find-links", str(wheels), "--target", target, *_target_options(machine, python_version),
             "-r", str(ROOT / "requirements.txt"), *build_requirements()],
            capture_output=True, text=True)
    if result.returncode:
        raise BundleError(f"the {machine} wheelhouse is incomplete, pip says:\n{result.stderr.strip()}")


def _pins(filenames: Iterable[str]) -> List[Tuple[str, str]]:
    from packaging.utils import canonicalize_name, parse_wheel_filename
    pins = []
    for filename in filenames:
        name, version, _, _ = parse_wheel_filename(filename)
        pins.append((str(canonicalize_name(name)), str(version)))
    return pins


def _check_top_level_pins(pins: Mapping[str, Iterable[Tuple[str, str]]]) -> None:
    """Every ``name==version`` of requirements.txt must be what each platform got."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    for line in requirement_lines():
        req = Requirement(line)
        want = {s.version for s in req.specifier if s.operator == "=="}
        for machine, items in pins.items():
            got = dict(items).get(str(canonicalize_name(req.name)))
            if want and got not in want:
                raise BundleError(f"{machine}: requirements.txt pins {line} but the wheelhouse got {got}")


def _course_files() -> List[str]:
    out = _run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True).stdout.decode()
    # symlinks too, should the course track one: tar stores them as links, which unpack as they were
    return [f for f in out.split("\0") if f and ((ROOT / f).is_file() or (ROOT / f).is_symlink())]


def site_files(root: Path = ROOT) -> List[str]:
    """The built website's files (``build/site/``, relative to ``root``), or [] when it was not built. Regular files
    only: a symlink could point outside the site on the attendee's machine."""
    site = root / "build" / "site"
    if not (site / "index.html").is_file():
        return []
    return sorted(p.relative_to(root).as_posix() for p in site.rglob("*") if p.is_file() and not p.is_symlink())


def _verified_mnist() -> Path:
    from course_utils.data import MNIST_FILES, default_data_dir, verify_mnist
    data_dir = default_data_dir()
    status = verify_mnist(data_dir, trust_marker=False)      # re-hash: what goes on the sticks must be right
    bad = {name: state for name, (state, _) in status.items() if state != "ok"}
    if bad or set(status) != set(MNIST_FILES):
        raise BundleError(f"MNIST in {data_dir} is not complete and verified ({bad}): run make data first")
    return data_dir


def build(platforms: Sequence[str], out_dir: Path, python: str = sys.executable,
          cache: Optional[Path] = None) -> Path:
    """Build the archive; returns its path. ``cache`` keeps the per-platform downloads between builds."""
    started = time.monotonic()
    unknown = [m for m in platforms if m not in PLATFORM_TAGS]
    if unknown:
        raise BundleError(f"unknown platform(s) {unknown}; known: {sorted(PLATFORM_TAGS)} or 'host'")
    version = course_version()
    if version.endswith("-dirty"):
        print("note: tracked files have uncommitted changes; the bundle packs the working tree", file=sys.stderr)
    data_dir = _verified_mnist()
    website = site_files()
    if not website:
        print("note: no build/site/ (make site): the bundle carries no website; make bundle builds it first",
              file=sys.stderr)

    work = Path(tempfile.mkdtemp(prefix="bundle-"))
    try:
        downloads = cache or work / "downloads"
        per_platform: Dict[str, Dict[str, str]] = {}
        floors: Dict[str, str] = {}
        for machine in platforms:
            t0 = time.monotonic()
            print(f"resolving and downloading the wheels for {machine}, CPython {PYTHON_VERSION} ...", flush=True)
            dest = downloads / machine
            pins = closure(course_roots(), machine)
            floors[machine] = python_floor(pins)
            per_platform[machine] = download(machine, pins, dest, python, floors[machine])
            check_complete(machine, dest, python, floors[machine])
            print(f"  {len(per_platform[machine])} wheels in {time.monotonic() - t0:.0f} s", flush=True)
        pins = {m: _pins(files) for m, files in per_platform.items()}
        _check_top_level_pins(pins)
        folders = split_wheelhouse(per_platform)
        lock = ("# Every package of the course environment, pinned (written by scripts/bundle.py; the versions are\n"
                "# those of the .venv the bundle was built from, resolved for each platform).\n"
                + "".join(line + "\n" for line in lock_lines(pins)))
        manifest = {
            "version": version,
            "python": PYTHON_VERSION,
            "python_min": max(floors.values(), key=lambda v: tuple(int(x) for x in v.split("."))),
            "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "platforms": {m: {"glibc": max((g for g in map(wheel_glibc, per_platform[m]) if g), default=None),
                              "wheels": len(per_platform[m])} for m in platforms},
            "folders": {folder: sorted(files) for folder, files in folders.items()},
        }

        prefix = f"mindspore-course-{version}"
        suffix = "" if sorted(platforms) == sorted(PLATFORM_TAGS) else "-" + "-".join(platforms)
        out_dir.mkdir(parents=True, exist_ok=True)
        target = out_dir / f"{prefix}{suffix}.tar"
        sums = []
        from course_utils.fileio import fsync_path, temporary_sibling
        tmp = temporary_sibling(target)
        try:
            with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as tar:
                for rel in _course_files() + website:
                    tar.add(ROOT / rel, f"{prefix}/{rel}", recursive=False)
                for name in sorted(p.name for p in data_dir.iterdir() if p.name in _mnist_names()):
                    tar.add(data_dir / name, f"{prefix}/data/mnist/{name}")
                    sums.append((_sha256(data_dir / name), f"data/mnist/{name}"))
                for folder, files in folders.items():
                    for name, digest in sorted(files.items()):
                        source = next(downloads / m / name for m in platforms if (downloads / m / name).exists()
                                      and per_platform[m].get(name) == digest)
                        tar.add(source, f"{prefix}/{WHEELHOUSE}/{folder}/{name}")
                        sums.append((digest, f"{WHEELHOUSE}/{folder}/{name}"))
                _add_text(tar, f"{prefix}/{WHEELHOUSE}/{LOCK}", lock)
                _add_text(tar, f"{prefix}/{WHEELHOUSE}/{MANIFEST}", json.dumps(manifest, indent=1) + "\n")
                _add_text(tar, f"{prefix}/SHA256SUMS", "".join(f"{d}  {p}\n" for d, p in sums))
            fsync_path(tmp)
            os.replace(tmp, target)
            fsync_path(target.parent, directory=True)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    size = target.stat().st_size
    print(f"wrote {target} ({size / 1e6:.0f} MB, {sum(len(f) for f in folders.values())} wheels for "
          f"{', '.join(platforms)}, CPython {PYTHON_VERSION}) in {time.monotonic() - started:.0f} s")
    return target


def _mnist_names() -> List[str]:
    from course_utils.data import MNIST_FILES
    return list(MNIST_FILES)


def _add_text(tar: tarfile.TarFile, name: str, text: str) -> None:
    data = text.encode("utf-8")
    info = tarfile.TarInfo(name)
    info.size, info.mtime, info.mode = len(data), int(time.time()), 0o644
    tar.addfile(info, io.BytesIO(data))


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="write dist/mindspore-course-<version>.tar")
    b.add_argument("--platforms", default="all",
                   help="comma-separated machines (x86_64, aarch64), 'host' for this one, or 'all' (default)")
    b.add_argument("--out", type=Path, default=ROOT / "dist", help="output folder (default dist/)")
    b.add_argument("--cache", type=Path, default=None, help="keep the downloads here between builds")
    sub.add_parser("check-host", help="can this machine install from the unpacked bundle here?")
    args = parser.parse_args(argv)
    if args.command == "check-host":
        return check_host()
    if args.platforms == "all":
        platforms = sorted(PLATFORM_TAGS)
    elif args.platforms == "host":
        platforms = [host_machine()]
    else:
        platforms = [MACHINE_ALIASES.get(p.strip(), p.strip()) for p in args.platforms.split(",") if p.strip()]
    try:
        build(platforms, args.out, cache=args.cache)
    except (BundleError, subprocess.CalledProcessError) as err:
        print(f"make bundle failed: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
