"""The offline bundle (scripts/bundle.py, `make bundle`).

The fast tests check the pure parts (how wheels are sorted into folders, the lock, which hosts may use a
bundle). The slow test builds a real bundle, unpacks it, and inside a network namespace that has nothing but
loopback (``unshare -n``, root only) runs the attendee's ``make setup data`` and notebook 00 under nbval, after
showing that reaching the network fails there.

By default the slow test builds for this machine's architecture only (``make bundle PLATFORMS=host``, about
half the size); ``COURSE_BUNDLE_PLATFORMS=all`` builds what ``make bundle`` ships, and ``COURSE_BUNDLE_TAR``
tests an existing archive instead of building one.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from course_utils.pins import requirement_lines

from support import ROOT

_spec = importlib.util.spec_from_file_location("course_bundle", ROOT / "scripts" / "bundle.py")
bundle = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bundle)

NOTEBOOK_00 = "notebooks/00_environment_setup.ipynb"


# ------------------------------------------------------------------------------------------------
# Fast: the pure parts
# ------------------------------------------------------------------------------------------------

def test_split_puts_shared_files_in_any_and_the_rest_per_machine():
    per_platform = {
        "x86_64": {"pure-1.0-py3-none-any.whl": "aa", "numpy-1.26.4-cp311-cp311-manylinux2014_x86_64.whl": "n1",
                   "mindspore-2.10.0-cp311-cp311-manylinux1_x86_64.whl": "m1"},
        # MindSpore's aarch64 wheel: an any-tagged name that is not the same file everywhere
        "aarch64": {"pure-1.0-py3-none-any.whl": "aa", "numpy-1.26.4-cp311-cp311-manylinux2014_aarch64.whl": "n2",
                    "mindspore-2.10.0-cp311-none-any.whl": "m2"},
    }
    folders = bundle.split_wheelhouse(per_platform)
    assert folders["any"] == {"pure-1.0-py3-none-any.whl": "aa"}
    assert set(folders["aarch64"]) == {"numpy-1.26.4-cp311-cp311-manylinux2014_aarch64.whl",
                                       "mindspore-2.10.0-cp311-none-any.whl"}
    assert set(folders["x86_64"]) == {"numpy-1.26.4-cp311-cp311-manylinux2014_x86_64.whl",
                                      "mindspore-2.10.0-cp311-cp311-manylinux1_x86_64.whl"}


def test_same_name_different_bytes_is_not_shared():
    folders = bundle.split_wheelhouse({"x86_64": {"a-1-py3-none-any.whl": "1"},
                                       "aarch64": {"a-1-py3-none-any.whl": "2"}})
    assert folders["any"] == {}
    assert folders["x86_64"] and folders["aarch64"]


def test_lock_pins_everything_and_marks_platform_differences():
    lines = bundle.lock_lines({"x86_64": [("numpy", "1.26.4"), ("only-x", "1.0")],
                               "aarch64": [("numpy", "1.26.4"), ("only-x", "2.0")]})
    assert lines == ["numpy==1.26.4",
                     'only-x==2.0 ; platform_machine == "aarch64"',
                     'only-x==1.0 ; platform_machine == "x86_64"']


@pytest.mark.parametrize("filename, glibc", [
    ("numpy-1.26.4-cp311-cp311-manylinux_2_17_aarch64.manylinux2014_aarch64.whl", (2, 17)),
    ("mindspore-2.10.0-cp311-cp311-manylinux1_x86_64.whl", (2, 5)),
    ("x-1-cp311-cp311-manylinux_2_28_x86_64.whl", (2, 28)),
    ("tqdm-4.70.1-py3-none-any.whl", None),
])
def test_wheel_glibc(filename, glibc):
    assert bundle.wheel_glibc(filename) == glibc


MANIFEST = {"version": "t", "python": "3.11", "python_min": "3.11.5",
            "platforms": {"x86_64": {"glibc": [2, 17]}, "aarch64": {"glibc": [2, 17]}}}


@pytest.mark.parametrize("machine, python, system, glibc, expected", [
    ("x86_64", (3, 11, 7), "linux", (2, 36), None),
    ("aarch64", (3, 11, 5), "linux", (2, 17), None),
    ("x86_64", (3, 10, 12), "linux", (2, 36), "bundle's wheels are for Python 3.11"),
    ("x86_64", (3, 11, 2), "linux", (2, 36), "need Python 3.11.5 or newer"),
    ("riscv64", (3, 11, 7), "linux", (2, 36), "wheels for x86_64, aarch64 only"),
    ("x86_64", (3, 11, 7), "darwin", None, "wheels are for Linux"),
    ("x86_64", (3, 11, 7), "linux", (2, 12), "glibc is 2.12"),
])
def test_host_problems(machine, python, system, glibc, expected):
    problems = bundle.host_problems(MANIFEST, machine, python, system, glibc)
    if expected is None:
        assert problems == []
    else:
        assert len(problems) == 1 and expected in problems[0], problems


def test_check_host_refuses_a_bundle_for_other_machines(tmp_path):
    (tmp_path / "wheelhouse").mkdir()
    (tmp_path / "wheelhouse" / "BUNDLE.json").write_text(json.dumps(
        dict(MANIFEST, platforms={"riscv64": {"glibc": None}})))
    assert bundle.check_host(tmp_path) == 1
    (tmp_path / "wheelhouse" / "BUNDLE.json").write_text(json.dumps(
        dict(MANIFEST, python="%d.%d" % sys.version_info[:2], python_min="3.0",
             platforms={bundle.host_machine(): {"glibc": None}})))
    assert bundle.check_host(tmp_path) == 0


def test_closure_follows_the_installed_tree_and_refuses_what_is_missing():
    pins = bundle.closure(["nbclient"], "x86_64")
    assert {"nbclient", "jupyter-client", "nbformat", "traitlets"} <= set(pins)
    with pytest.raises(bundle.BundleError, match="not installed in this environment"):
        bundle.closure(["surely-not-an-installed-package-xyz"], "x86_64")


def test_makefile_installs_from_the_wheelhouse_without_an_index():
    """Without wheelhouse/ the install line has no --no-index; with it, every pip call has."""
    def dry_run(cwd):
        return subprocess.run(["make", "-n", "-B", "-f", str(ROOT / "Makefile"), "setup", "PYTHON=python3"],
                              cwd=cwd, capture_output=True, text=True, check=True).stdout
    online = dry_run(ROOT)
    assert "--no-index" not in online
    # a copy of the Makefile next to a fake wheelhouse
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(ROOT / "Makefile", tmp)
        for name in ("requirements.txt", "pyproject.toml"):
            shutil.copy(ROOT / name, tmp)
        (Path(tmp) / "wheelhouse").mkdir()
        (Path(tmp) / "wheelhouse" / "BUNDLE.json").write_text("{}")
        offline = dry_run(tmp)
    pip_lines = [line for line in offline.splitlines() if "-m pip install" in line]
    assert len(pip_lines) == 3 and all("--no-index --find-links wheelhouse/any" in line for line in pip_lines)
    assert "scripts/bundle.py check-host" in offline


# ------------------------------------------------------------------------------------------------
# Slow: a real bundle, installed and used with no network
# ------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def bundle_tar(tmp_path_factory):
    given = os.environ.get("COURSE_BUNDLE_TAR")
    if given:
        return Path(given), None
    out = tmp_path_factory.mktemp("dist")
    platforms = os.environ.get("COURSE_BUNDLE_PLATFORMS", "host")
    start = time.monotonic()
    subprocess.run([sys.executable, str(ROOT / "scripts" / "bundle.py"), "build", "--platforms", platforms,
                    "--out", str(out)], check=True, timeout=3600)
    seconds = time.monotonic() - start
    (tar,) = out.glob("*.tar")
    print(f"\nbundle: {tar.name}, {tar.stat().st_size / 1e6:.0f} MB, built in {seconds:.0f} s")
    return tar, seconds


def _netns_available() -> str | None:
    """None if `unshare -n` works here, else why not."""
    if os.name != "posix" or os.geteuid() != 0:
        return "needs root to create a network namespace (unshare -n); CI runs as root"
    if not shutil.which("unshare") or not shutil.which("ip"):
        return "needs unshare (util-linux) and ip (iproute2)"
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True)
    if probe.returncode:
        return f"unshare -n is not permitted here: {probe.stderr.strip()}"
    return None


# Runs inside the namespace. Brings up loopback (Jupyter's kernels talk over it), proves that the network
# is unreachable, then does what an attendee does.
OFFLINE_SCRIPT = r"""
set -euo pipefail
ip link set lo up
"$PYTHON" - <<'EOF'
import socket
for host, port in (("1.1.1.1", 443), ("pypi.org", 443)):
    try:
        socket.create_connection((host, port), timeout=5).close()
    except OSError as err:
        print(f"NETWORK BLOCKED: {host}:{port}: {type(err).__name__}: {err}")
    else:
        raise SystemExit(f"{host}:{port} is reachable inside the namespace: the test would prove nothing")
EOF
echo "INTERFACES: $(ip -o link | awk -F': ' '{print $2}' | tr '\n' ' ')"
start=$(date +%s)
make setup data PYTHON="$PYTHON"
echo "OFFLINE_INSTALL_SECONDS=$(( $(date +%s) - start ))"
# notebook 00 alone (ZH_LESSONS= : the Chinese edition is not part of what this proves, and costs minutes)
make test-notebooks LESSONS=__NOTEBOOK__ ZH_LESSONS= ARGS="-q -rA -p no:cacheprovider"
"""


@pytest.mark.slow
def test_bundle_contents(bundle_tar):
    tar, _ = bundle_tar
    with tarfile.open(tar) as archive:
        names = archive.getnames()
        prefix = names[0].split("/")[0]
        manifest = json.load(archive.extractfile(f"{prefix}/wheelhouse/BUNDLE.json"))
        sums = archive.extractfile(f"{prefix}/SHA256SUMS").read().decode()
        lock = archive.extractfile(f"{prefix}/wheelhouse/requirements-lock.txt").read().decode()
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    assert {f"{prefix}/{f}" for f in tracked if (ROOT / f).is_file()} <= set(names)
    # the Chinese edition's own scripts travel as files (the zh lessons launch scripts/...: notebooks/zh/scripts/)
    with tarfile.open(tar) as archive:
        script = archive.getmember(f"{prefix}/notebooks/zh/scripts/train_dp.py")
    assert script.isfile()
    assert not any("/.venv/" in n or n.endswith("/.verified") for n in names)
    for name in bundle._mnist_names():
        assert f"{prefix}/data/mnist/{name}" in names and f"data/mnist/{name}" in sums
    wheels = [n for n in names if n.endswith(".whl")]
    assert len(wheels) == sum(len(v) for v in manifest["folders"].values()) == len(sums.splitlines()) - 4
    # every requirements.txt pin is in the lock at the same version, and the lock has the build tools
    for pin in requirement_lines():
        assert re.search(rf"^{re.escape(pin.lower())}\b", lock.lower(), re.M), pin
    assert re.search(r"^setuptools==", lock, re.M) and re.search(r"^pip==", lock, re.M)


@pytest.mark.slow
def test_offline_install_and_notebook_00_without_network(bundle_tar, tmp_path):
    reason = _netns_available()
    if reason:
        pytest.skip(reason)
    tar, build_seconds = bundle_tar
    with tarfile.open(tar) as archive:
        prefix = archive.getnames()[0].split("/")[0]
        archive.extractall(tmp_path, filter="tar")
    course = tmp_path / prefix
    assert (course / "wheelhouse" / "BUNDLE.json").is_file()

    python = getattr(sys, "_base_executable", None) or shutil.which("python3.11") or "python3"
    # A clean attendee: no pip configuration (this machine's find-links and indexes), no caches, no venv.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "JUPYTER", "COURSE_", "VIRTUAL_ENV", "PYTHON", "MS_", "ONEDNN"))}
    env.update(PIP_CONFIG_FILE=os.devnull, HOME=str(tmp_path / "home"), XDG_CACHE_HOME=str(tmp_path / "cache"),
               PYTHON=python, PATH=os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if ".venv" not in p))
    script = OFFLINE_SCRIPT.replace("__NOTEBOOK__", NOTEBOOK_00)
    start = time.monotonic()
    result = subprocess.run(["unshare", "-n", "bash", "-c", script], cwd=course, env=env, capture_output=True,
                            text=True, timeout=3600)
    seconds = time.monotonic() - start
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    # the network really was gone ...
    assert output.count("NETWORK BLOCKED") == 2, output
    assert re.search(r"INTERFACES: lo\s*$", output, re.M), output
    # ... and everything came from the bundle
    assert "check-host" not in output or "cannot install" not in output
    assert "installing from wheelhouse" in output and "--no-index" in output
    # notebook 00 ran under nbval, every code cell of it (one item each), and nothing else
    cells = sum(c["cell_type"] == "code" for c in json.loads((ROOT / NOTEBOOK_00).read_text())["cells"])
    passed = re.findall(r"^PASSED (\S+)::Cell \d+", output, re.M)
    assert passed == [NOTEBOOK_00] * cells, output[-3000:]
    assert re.search(rf"\b{cells} passed\b", output) and not re.search(r"\b\d+ (failed|error)", output), \
        output[-3000:]
    install = float(re.search(r"OFFLINE_INSTALL_SECONDS=([\d.]+)", output).group(1))
    print("\n" + "\n".join(line for line in output.splitlines() if line.startswith(("NETWORK BLOCKED", "INTERFACES"))))
    print(f"offline: install (make setup data) {install:.0f} s, with notebook 00 {seconds:.0f} s"
          + (f"; bundle built in {build_seconds:.0f} s" if build_seconds else ""))
