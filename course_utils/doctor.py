"""The pre-flight check: ``make doctor`` / ``python -m course_utils.doctor [--json FILE]``.

One command an attendee runs the day before a workshop (or anyone, before a papermill run on an Ascend
notebook). It checks the machine and the course's environment and prints one table of passed / warning /
failed checks, with the fix for each problem; the exit code is 1 if anything failed. ``--json FILE`` writes the
same report for an instructor to collect.

What it checks: OS and architecture, Python, free disk and memory, CPU features (and which of the course's CPU
fixes apply), ``.venv`` and the pinned packages (NumPy 2 in particular), MindSpore: its version, a tiny
training step and its speed, MNIST present and verified, the course's Jupyter kernel, the JupyterLab port, and on
an Ascend machine: CANN sourced, CANN's version accepted by this MindSpore, and NPUs enough for the lessons.

Every fact comes from a ``Facts`` object whose probes can be replaced (``Facts(python_version=(3, 13, 0))``),
so tests provoke each failure without a broken machine. This module imports only the standard library at
the top, so it also runs before ``make setup`` (to say that ``.venv`` is missing).

Why one module of ~600 lines: a reader follows one problem from its probe (a ``Facts`` method) to its check and
the fix it prints, in one file; the probes exist only for these checks, and the checks only for this report.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional

from course_utils import ROOT, pins

PASS, WARN, FAIL, SKIP = "passed", "warning", "failed", "skipped"

#: Pythons the course's pinned environment installs on (MindSpore 2.10 itself also has 3.12 wheels).
PYTHONS = ((3, 9), (3, 11))
#: MindSpore's own accelerator wheels carry the Ascend plugin for these platforms.
PLATFORMS = {("Linux", "x86_64"), ("Linux", "aarch64")}
MIN_DISK_GB, LOW_DISK_GB = 1.0, 3.0
MIN_MEMORY_GB, LOW_MEMORY_GB = 1.0, 2.0
#: The tiny training step (LeNet-5, batch 64, GRAPH_MODE, CPU fixes on) ran ~90-120 steps/s on a quiet 2-vCPU x86
#: machine (MINDSPORE_2.10_NOTES.md). Below STEPS_PER_S_OK the doctor warns (never fails: the course still works).
STEPS_PER_S_OK, STEPS_PER_S_MIN = 40.0, 10.0
#: Where CANN installs by default; ``set_env.sh`` there sets ASCEND_HOME_PATH, LD_LIBRARY_PATH, PYTHONPATH ...
CANN_SET_ENV = "/usr/local/Ascend/ascend-toolkit/set_env.sh"


@dataclasses.dataclass
class Check:
    name: str
    status: str
    detail: str
    fix: str = ""


# --------------------------------------------------------------------------------------------
# Facts: every probe of the real machine, each replaceable in tests
# --------------------------------------------------------------------------------------------

class Facts:
    """Lazily probed facts about this machine; ``Facts(name=value)`` replaces the probe ``probe_<name>``."""

    def __init__(self, root: Path = ROOT, port: int = 8888, **overrides):
        self.root = Path(root)
        self.port = int(port)
        self._values = dict(overrides)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        values = self.__dict__.setdefault("_values", {})
        if name not in values:
            probe = getattr(type(self), "probe_" + name, None)
            if probe is None:
                raise AttributeError(name)
            values[name] = probe(self)
        return values[name]

    # ---- machine ----
    def probe_system(self):
        return platform.system()

    def probe_machine(self):
        return platform.machine()

    def probe_python_version(self):
        return tuple(sys.version_info[:3])

    def probe_python(self):
        return sys.executable

    def probe_free_disk_gb(self):
        return shutil.disk_usage(self.root).free / 1e9

    def probe_memory_gb(self):
        """MemAvailable (what can be used without swapping); None where /proc/meminfo does not exist."""
        try:
            with open("/proc/meminfo", encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("MemAvailable:"):
                        return int(line.split()[1]) * 1024 / 1e9
        except OSError:
            pass
        return None

    def probe_cpu_count(self):
        from course_utils import runtime

        return runtime.cpu_count()

    def probe_avx512(self):
        from course_utils import runtime

        return runtime.has_avx512()

    def probe_cpu_fixes(self):
        from course_utils import runtime

        return {k: v for k, (v, _) in runtime.recommended_cpu_fixes("CPU").items()}

    # ---- environment ----
    def probe_venv(self):
        return self.root / ".venv"

    def probe_venv_exists(self):
        return (self.venv / "bin" / "python").exists()

    def probe_in_venv(self):
        return Path(sys.prefix).resolve() == self.venv.resolve()

    def probe_requirements(self):
        """``{name: version}`` pinned in requirements.txt."""
        return pins.pins(self.root / "requirements.txt")

    def probe_installed(self):
        """``{name: version}`` of the packages in the Python running the doctor."""
        from importlib.metadata import distributions

        found = {}
        for dist in distributions():
            name = dist.metadata.get("Name")
            if name:
                found.setdefault(pins.canonical(name), dist.version)
        return found

    def probe_mindspore(self):
        """What MindSpore does in a fresh process of this Python: version, devices, a timed training step."""
        return _mindspore_probe(self.root)

    def probe_mnist(self):
        """``{file: status}`` ("ok", "missing", "corrupt"), or ``{"error": text}`` if the check cannot run."""
        try:
            from course_utils import data
        except Exception as exc:  # numpy missing, or a broken environment
            return {"error": f"cannot import course_utils.data: {type(exc).__name__}: {exc}"}
        status = data.verify_mnist(self.mnist_dir, trust_marker=False)
        return {name: state for name, (state, _) in status.items()}

    def probe_mnist_dir(self):
        try:
            from course_utils import data

            return str(data.default_data_dir())
        except Exception:
            return str(self.root / "data" / "mnist")

    def probe_kernel(self):
        """``(name, python)`` of the kernel the course runs on, or None: .venv's "python3" (what ``make lab`` and
        ``make run`` use); without .venv (an image's environment) a registered kernel of this Python."""
        if not self.venv_exists:
            try:
                from course_utils.run import RunError, course_kernel

                return course_kernel()
            except (ImportError, RunError):
                return None
        spec = self.venv / "share" / "jupyter" / "kernels" / "python3" / "kernel.json"
        try:
            return "python3", json.loads(spec.read_text(encoding="utf-8"))["argv"][0]
        except (OSError, ValueError, KeyError, IndexError):
            return None

    def probe_port_busy(self):
        from course_utils.ports import port_in_use

        return port_in_use(self.port)

    # ---- Ascend ----
    def probe_npu_files(self):
        from course_utils import fake_device, runtime

        fake = fake_device.active()
        if fake is not None:
            return ["/dev/davinci0"] if fake[0] == "Ascend" else []
        return runtime.ascend_device_files()

    def probe_env(self):
        return dict(os.environ)

    def probe_cann_version(self):
        """CANN's version ("8.3") from ``$ASCEND_HOME_PATH/compiler/version.info``, as MindSpore reads it."""
        home = self.env.get("ASCEND_HOME_PATH")
        if not home:
            return None
        try:
            text = (Path(home) / "compiler" / "version.info").read_text(encoding="utf-8")
        except OSError:
            return None
        m = re.search(r"^Version=(\d+)\.(\d+)", text, re.M)
        return f"{m.group(1)}.{m.group(2)}" if m else None

    def probe_cann_accepted(self):
        """The CANN versions the installed MindSpore accepts, read from its own version check (no import)."""
        return _mindspore_cann_versions()

    def probe_npus_needed(self):
        """The most NPUs one lesson needs: the largest default of a lesson's workers parameter (else 1)."""
        from course_utils import lessons

        return max(lesson.cards_needed(self.root) for lesson in lessons.LESSONS)


def _mindspore_cann_versions() -> list:
    try:
        import importlib.util

        spec = importlib.util.find_spec("mindspore")
        if spec is None or not spec.submodule_search_locations:
            return []
        src = Path(list(spec.submodule_search_locations)[0]) / "run_check" / "_check_version.py"
        text = src.read_text(encoding="utf-8")
    except (OSError, ImportError, ValueError):
        return []
    m = re.search(r"class AscendEnvChecker.*?self\.version\s*=\s*\[([^\]]*)\]", text, re.S)
    return re.findall(r"[\"']([\d.]+)[\"']", m.group(1)) if m else []


_PROBE = r"""
import json, sys, time
out = {}
try:
    from course_utils import runtime
    info = runtime.setup(verbose=False)
    import mindspore as ms
    import numpy as np
    out["version"] = ms.__version__
    out["device"] = info.device
    out["devices"] = {d: runtime.device_count(d) for d in runtime.available_devices()}
    out["plugin_error"] = runtime.plugin_error("Ascend")
    out["notes"] = info.notes
    from mindspore import nn
    from course_utils.models import LeNet5
    net = LeNet5()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), nn.SGD(net.trainable_params(), 0.01))
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((64, 1, 28, 28)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 10, 64).astype(np.int32))
    start = time.perf_counter()
    first = float(step(x, y).asnumpy())
    out["compile_s"] = time.perf_counter() - start
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < 2.0:
        loss = float(step(x, y).asnumpy())
        steps += 1
    out["steps_per_s"] = steps / (time.perf_counter() - start)
    out["loss_fell"] = loss < first
except BaseException as exc:
    out["error"] = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
print("DOCTOR " + json.dumps(out))
"""


def _mindspore_probe(root: Path, timeout: float = 180) -> dict:
    from course_utils import runtime   # standard library only, like this module

    try:
        proc = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                              env=runtime.child_env(cpu_fixes=None), timeout=timeout, cwd=str(root))
    except subprocess.TimeoutExpired:
        return {"error": f"importing MindSpore and running 20 training steps took more than {timeout:.0f} s"}
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("DOCTOR "):
            return json.loads(line[len("DOCTOR "):])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    return {"error": f"the process died (exit code {proc.returncode}): " + " / ".join(tail)}


# --------------------------------------------------------------------------------------------
# The checks
# --------------------------------------------------------------------------------------------

def check_platform(f: Facts) -> Check:
    where = f"{f.system} {f.machine}"
    if (f.system, f.machine) in PLATFORMS:
        return Check("OS and architecture", PASS, where)
    return Check("OS and architecture", WARN, f"{where}: the course is tested on Linux x86_64 and aarch64",
                 "If MindSpore does not install here, use a Linux machine, WSL2, or the classroom server.")


def check_python(f: Facts) -> Check:
    v = f.python_version
    text = f"Python {'.'.join(map(str, v))} ({f.python})"
    lo, hi = PYTHONS
    if lo <= tuple(v[:2]) <= hi:
        return Check("Python", PASS, text)
    return Check("Python", FAIL, f"{text}: the course's pinned environment needs Python "
                                 f"{lo[0]}.{lo[1]}-{hi[0]}.{hi[1]}",
                 "Install Python 3.11 and run `make setup PYTHON=python3.11` (delete .venv first).")


def check_disk(f: Facts) -> Check:
    gb = f.free_disk_gb
    text = f"{gb:.1f} GB free in {f.root}"
    if gb < MIN_DISK_GB:
        return Check("Free disk", FAIL, text, f"Free at least {LOW_DISK_GB:.0f} GB (.venv ~2.5 GB, data and runs).")
    if gb < LOW_DISK_GB:
        return Check("Free disk", WARN, text + f" (less than {LOW_DISK_GB:.0f} GB)",
                     "Free some space: checkpoints and run folders grow during the course.")
    return Check("Free disk", PASS, text)


def check_memory(f: Facts) -> Check:
    gb = f.memory_gb
    if gb is None:
        return Check("Free memory", SKIP, "cannot tell on this system")
    text = f"{gb:.1f} GB available"
    if gb < MIN_MEMORY_GB:
        return Check("Free memory", FAIL, text, "Close other programs: MindSpore and JupyterLab need about 1.5 GB.")
    if gb < LOW_MEMORY_GB:
        return Check("Free memory", WARN, text, "Close other programs before the workshop (notebook 09 runs 3 "
                                                "processes).")
    return Check("Free memory", PASS, text)


def check_cpu(f: Facts) -> Check:
    fixes = f.cpu_fixes
    text = (f"{f.cpu_count} CPUs, {'AVX-512' if f.avx512 else 'no AVX-512'}; course CPU fixes that apply: "
            + (", ".join(f"{k}={v}" for k, v in fixes.items()) or "none"))
    if f.cpu_count < 2:
        return Check("CPU", WARN, text, "One core runs the lessons, slowly; notebook 09 runs two workers on it.")
    return Check("CPU", PASS, text)


def check_venv(f: Facts) -> Check:
    if f.in_venv:
        return Check(".venv", PASS, f"running in {f.venv}")
    if f.venv_exists:
        return Check(".venv", WARN, f"{f.venv} exists, but the doctor runs in {sys.prefix}",
                     "Run `make doctor` (it uses .venv's Python).")
    if f.npu_files:  # an Ascend image: the course runs in the image's environment, by design
        return Check(".venv", PASS, f"no .venv: using this environment ({sys.prefix}), as on an Ascend image")
    return Check(".venv", FAIL, f"{f.venv} does not exist", "Run `make setup`.")


def _no_environment(f: Facts) -> bool:
    """No .venv and not an image's environment: the environment checks would only repeat "run make setup"."""
    return not f.in_venv and not f.venv_exists and not f.npu_files


def check_packages(f: Facts) -> Check:
    from course_utils import runtime

    if _no_environment(f):
        return Check("Pinned packages", SKIP, "no .venv yet (see above)")

    pins, have = f.requirements, f.installed
    numpy = have.get("numpy")
    if numpy and runtime.parse_version(numpy)[:1] >= (2,):
        return Check("Pinned packages", FAIL, f"NumPy {numpy} installed: MindSpore is built against NumPy 1.x and "
                                              "fails at run time under NumPy 2",
                     f"`{f.python} -m pip install numpy=={pins.get('numpy', '1.26.4')}` (or `make setup`).")
    missing = sorted(n for n in pins if n not in have)
    wrong = sorted(n for n in pins if n in have and have[n] != pins[n])
    ms_other = "mindspore" in wrong
    if ms_other:
        wrong.remove("mindspore")
    problems = [f"{n} missing" for n in missing] + [f"{n} {have[n]} (pinned {pins[n]})" for n in wrong]
    if problems:
        core = {"mindspore", "numpy", "ipykernel", "jupyterlab", "papermill", "nbclient"}
        status = FAIL if any(p.split()[0] in core for p in problems) else WARN
        return Check("Pinned packages", status, "; ".join(problems),
                     "Run `make setup` (reinstalls from requirements.txt); on an image: "
                     f"`{f.python} -m pip install -r requirements.txt --no-deps` for what is missing.")
    text = f"{len(pins)} pins match"
    if ms_other:
        try:
            note = runtime.check_version(have["mindspore"])
        except runtime.UnsupportedVersionError as exc:
            return Check("Pinned packages", FAIL, str(exc), "Install a supported MindSpore (`make setup`).")
        return Check("Pinned packages", WARN if note else PASS,
                     f"{text} except MindSpore {have['mindspore']} (pinned {pins['mindspore']}; supported "
                     f"{runtime.SUPPORTED_RANGE})" + (f": {note}" if note else ""))
    return Check("Pinned packages", PASS, text)


def check_mindspore(f: Facts) -> List[Check]:
    from course_utils import runtime

    if _no_environment(f):
        return [Check("MindSpore", SKIP, "no .venv yet (see above)")]
    ms = f.mindspore
    if "version" not in ms:
        return [Check("MindSpore", FAIL, f"does not import: {ms.get('error', 'unknown error')}",
                      "Run `make setup`; if it persists, `make doctor` output and the error go to the instructor.")]
    checks = []
    try:
        note = runtime.check_version(ms["version"])
        checks.append(Check("MindSpore", WARN if note else PASS, f"{ms['version']} imports; device {ms['device']}"
                            + (f"; {note}" if note else "")))
    except runtime.UnsupportedVersionError as exc:
        checks.append(Check("MindSpore", FAIL, str(exc), f"Install MindSpore {runtime.SUPPORTED_RANGE}."))
    if "error" in ms:
        checks.append(Check("Training step", FAIL, ms["error"], "Run `make setup`; then `make test-unit`."))
        return checks
    rate = ms["steps_per_s"]
    text = (f"LeNet-5, batch 64, GRAPH_MODE on {ms['device']}: {rate:.0f} steps/s (first step incl. compiling "
            f"{ms['compile_s']:.1f} s)")
    if not ms.get("loss_fell", True):
        checks.append(Check("Training step", FAIL, text + "; the loss did not fall", "Report it: this is a bug."))
    elif ms["device"] != "CPU":
        checks.append(Check("Training step", PASS, text))
    elif rate >= STEPS_PER_S_OK:
        checks.append(Check("Training step", PASS, text + f" (expected >= {STEPS_PER_S_OK:.0f} on 2+ cores)"))
    else:
        why = ("the course's CPU fixes are off (COURSE_CPU_FIXES=0)" if os.environ.get(runtime.OPT_OUT_VAR) == "0"
               else "a busy machine (other programs, power saving) or a CPU trap the course does not fix")
        # slow is a warning, never a failure: the course still works, it only takes longer
        slow = f" (lessons take about {90 / rate:.0f}x their stated time)" if rate < STEPS_PER_S_MIN else ""
        checks.append(Check("Training step", WARN,
                            text + f"; a quiet 2-core laptop runs ~90-120, expected >= {STEPS_PER_S_OK:.0f}{slow}",
                            f"Likely {why}: close other programs, plug in the laptop, run `make doctor` again."))
    return checks


def check_mnist(f: Facts) -> Check:
    if _no_environment(f):
        return Check("MNIST", SKIP, "no .venv yet (see above); `make lab` fetches it")
    status = f.mnist
    if "error" in status:
        return Check("MNIST", FAIL, status["error"], "Run `make setup`, then `make data`.")
    missing = [n for n, s in status.items() if s == "missing"]
    corrupt = [n for n, s in status.items() if s == "corrupt"]
    if corrupt:
        return Check("MNIST", FAIL, f"damaged (checksum mismatch): {', '.join(corrupt)} in {f.mnist_dir}",
                     "Run `make data`: it sets the damaged files aside and fetches good copies.")
    if missing:
        return Check("MNIST", FAIL, f"missing: {', '.join(missing)} in {f.mnist_dir}",
                     "Run `make data` (needs the network once; the offline bundle carries the files).")
    return Check("MNIST", PASS, f"{len(status)} files verified (size, md5, sha256) in {f.mnist_dir}")


def check_kernel(f: Facts) -> Check:
    kernel = f.kernel
    if not f.venv_exists and not f.npu_files:
        return Check("Course kernel", SKIP, "no .venv yet (see above)")
    if kernel is None:
        if f.npu_files and not f.venv_exists:
            return Check("Course kernel", WARN, "no .venv kernel: on an image, register this environment",
                         f"`{f.python} -m ipykernel install --user --name mindspore-course "
                         "--display-name \"MindSpore course\"`")
        return Check("Course kernel", FAIL, "the course's Jupyter kernel is not registered in .venv",
                     "Run `make setup` (it registers .venv's Python as the kernel `python3` for `make lab`).")
    name, python = kernel
    expected = (f.venv / "bin") if f.venv_exists else Path(f.python).parent
    if python not in ("python", "python3") and Path(python).parent.resolve() != expected.resolve():
        return Check("Course kernel", FAIL, f"kernel {name} runs {python}, not {expected}/python",
                     "Delete .venv/.course-installed and run `make setup`.")
    return Check("Course kernel", PASS, f"{name} -> {python}")


def check_port(f: Facts) -> Check:
    if f.port_busy:
        return Check("JupyterLab port", FAIL, f"127.0.0.1:{f.port} is in use",
                     f"Stop what holds it, or start the course on another port: `make lab PORT={f.port + 1}`.")
    return Check("JupyterLab port", PASS, f"127.0.0.1:{f.port} is free")


def check_ascend(f: Facts) -> List[Check]:
    """Only on a machine with NPUs (or CANN installed): is CANN sourced, accepted, and are there NPUs enough?"""
    env = f.env
    if not f.npu_files and "ASCEND_HOME_PATH" not in env:
        return []
    checks = []
    sourced = "ASCEND_HOME_PATH" in env and "ASCEND_OPP_PATH" in env
    set_env = CANN_SET_ENV if Path(CANN_SET_ENV).exists() else "<CANN folder>/set_env.sh"
    if not sourced:
        checks.append(Check("CANN environment", FAIL, "CANN's environment is not set (ASCEND_HOME_PATH, "
                            "ASCEND_OPP_PATH missing): MindSpore cannot load its Ascend plugin",
                            f"`source {set_env}` in the shell that starts Jupyter or papermill."))
    else:
        checks.append(Check("CANN environment", PASS, f"ASCEND_HOME_PATH={env['ASCEND_HOME_PATH']}"))
        version, accepted = f.cann_version, f.cann_accepted
        ms_version = f.installed.get("mindspore", "?")
        if version is None:
            checks.append(Check("CANN version", WARN, f"no Version= in {env['ASCEND_HOME_PATH']}/compiler/version.info",
                                "Check that ASCEND_HOME_PATH points at the CANN toolkit (ascend-toolkit/latest)."))
        elif accepted and version not in accepted:
            checks.append(Check("CANN version", FAIL, f"CANN {version}; MindSpore {ms_version} accepts CANN "
                                f"{', '.join(accepted)}",
                                "Use the image whose CANN matches, or install the MindSpore release built for this "
                                "CANN (https://www.mindspore.cn/install/en)."))
        else:
            checks.append(Check("CANN version", PASS, f"CANN {version}, accepted by MindSpore {ms_version}"
                                + (f" ({', '.join(accepted)})" if accepted else "")))
    ms = f.mindspore
    npus = ms.get("devices", {}).get("Ascend", 0) if "version" in ms else 0
    need = f.npus_needed
    if npus == 0:
        why = ms.get("plugin_error") or ms.get("error") or "no reason given"
        checks.append(Check("NPUs", FAIL, f"MindSpore sees no NPU ({len(f.npu_files)} device files); it said: {why}",
                            f"`source {set_env}`, then check `npu-smi info`."))
    elif npus < need:
        checks.append(Check("NPUs", WARN, f"{npus} NPU; notebook 09 starts {need} workers, one NPU each",
                            "Run notebook 09 with CPU workers: `-p DEVICE_TARGET CPU` (the others use one NPU)."))
    else:
        checks.append(Check("NPUs", PASS, f"{npus} NPUs (the lessons need at most {need})"))
    return checks


CHECKS: List[Callable] = [check_platform, check_python, check_disk, check_memory, check_cpu, check_venv,
                          check_packages, check_mindspore, check_mnist, check_kernel, check_port, check_ascend]


def run_checks(facts: Optional[Facts] = None, checks: Optional[List[Callable]] = None) -> List[Check]:
    """Run every check; a check that crashes is reported as failed (the doctor itself never stops)."""
    facts = facts or Facts()
    results = []
    for check in checks or CHECKS:
        try:
            out = check(facts)
        except Exception as exc:
            out = Check(check.__name__.replace("check_", ""), FAIL, f"the check crashed: {type(exc).__name__}: {exc}",
                        "Report it to the instructor with this output.")
        results.extend(out if isinstance(out, list) else [out])
    return results


def format_table(results: List[Check]) -> str:
    mark = {PASS: "ok", WARN: "WARN", FAIL: "FAIL", SKIP: "-"}
    width = max(len(r.name) for r in results)
    lines = [f"{mark[r.status]:<5} {r.name:<{width}}  {r.detail}" for r in results]
    fixes = [r for r in results if r.fix and r.status in (FAIL, WARN)]
    if fixes:
        lines += ["", "How to fix:"] + [f"  {r.name}: {r.fix}" for r in fixes]
    counts = {s: sum(r.status == s for r in results) for s in (PASS, WARN, FAIL)}
    lines += ["", f"{counts[PASS]} passed, {counts[WARN]} warnings, {counts[FAIL]} failed"]
    return "\n".join(lines)


def report(results: List[Check], seconds: float) -> dict:
    return {"ok": not any(r.status == FAIL for r in results), "seconds": round(seconds, 1),
            "machine": f"{platform.node()} {platform.system()} {platform.machine()}",
            "python": sys.executable, "root": str(ROOT),
            "checks": [dataclasses.asdict(r) for r in results]}


def main(argv=None, facts: Optional[Facts] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m course_utils.doctor", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8888)),
                        help="the JupyterLab port to check (default: $PORT or 8888)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = run_checks(facts or Facts(port=args.port))
    seconds = time.perf_counter() - start
    print(format_table(results))
    print(f"(checked in {seconds:.0f} s)")
    if args.json:
        from course_utils.fileio import atomic_write

        atomic_write(args.json, json.dumps(report(results, seconds), indent=1))
        print(f"report written to {args.json}")
    return 1 if any(r.status == FAIL for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
