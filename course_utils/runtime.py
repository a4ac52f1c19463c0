"""Runtime setup for every notebook: device, mode, seed, quiet logs and the CPU speed traps.

``setup()`` is the first call of every lesson. It must run before ``import mindspore`` in a fresh
kernel, because three things are read only once, when MindSpore loads:

* ``GLOG_v`` and friends: MindSpore's log level (C++ and Python side);
* ``ONEDNN_MAX_CPU_ISA``: on CPUs with AVX-512, MindSpore's bundled oneDNN picks a convolution path
  for MindSpore's plain tensor layouts that is many times slower than its AVX2 path;
* ``MS_DEV_HOST_BLOCKING_RUN``: on machines with few cores MindSpore's asynchronous host pipeline
  busy-waits and starves the compute threads; the blocking run mode avoids it.

Calling ``setup()`` again in the same kernel (re-running a cell, switching mode) is safe: it switches
what can be switched (mode, seed) and says what it could not change without a kernel restart.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import platform
import random
import sys
import warnings
from typing import Optional

DEVICES = ("Ascend", "GPU", "CPU")
MODES = {"graph": "GRAPH_MODE", "pynative": "PYNATIVE_MODE"}

#: Environment variable a user can set to "0" to turn off the CPU speed fixes globally.
OPT_OUT_VAR = "COURSE_CPU_FIXES"

# What MindSpore logs below this level stays out of notebooks (3 = ERROR).
_QUIET_ENV = {"GLOG_v": "3", "GLOG_stderrthreshold": "3"}

_state: dict = {}


class DeviceUnavailableError(RuntimeError):
    """The requested device is not usable in this process."""


@dataclasses.dataclass
class RuntimeInfo:
    """What ``setup()`` chose; printed in one line and returned for notebooks to record."""

    device: str
    mode: str
    seed: Optional[int]
    mindspore_version: str
    cpu_fixes: dict
    notes: list

    def summary(self) -> str:
        fixes = ", ".join(f"{k}={v}" for k, v in self.cpu_fixes.items()) or "none"
        parts = [
            f"MindSpore {self.mindspore_version}",
            f"device {self.device}",
            self.mode,
            f"seed {self.seed}" if self.seed is not None else "no seed",
            f"CPU fixes: {fixes}",
        ]
        text = " | ".join(parts)
        if self.notes:
            text += "\n" + "\n".join(f"  note: {n}" for n in self.notes)
        return text


# --------------------------------------------------------------------------------------------
# Facts about the machine, read without importing MindSpore
# --------------------------------------------------------------------------------------------

def cpu_flags() -> set:
    """The CPU feature flags from /proc/cpuinfo (empty where that file does not exist)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def has_avx512() -> bool:
    """True on x86 CPUs that report AVX-512 (where oneDNN's slow path is picked)."""
    return platform.machine().lower() in ("x86_64", "amd64") and "avx512f" in cpu_flags()


def cpu_count() -> int:
    """CPUs this process may use (respects affinity masks and containers' cpusets)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _looks_like_ascend() -> bool:
    return bool(glob.glob("/dev/davinci[0-9]*")) or "ASCEND_HOME_PATH" in os.environ


def _looks_like_gpu() -> bool:
    return bool(glob.glob("/dev/nvidia[0-9]*"))


def recommended_cpu_fixes(device: str = "CPU") -> dict:
    """The environment variables that make MindSpore fast on this CPU, with the reason for each.

    Returns ``{name: (value, reason)}``. Empty for non-CPU devices (the variables only matter for
    CPU kernels and the CPU host pipeline).
    """
    if device != "CPU":
        return {}
    fixes = {}
    if has_avx512():
        fixes["ONEDNN_MAX_CPU_ISA"] = (
            "AVX2", "AVX-512 CPU: oneDNN's AVX-512 convolution path is far slower for MindSpore's layouts")
    if cpu_count() <= 8:
        fixes["MS_DEV_HOST_BLOCKING_RUN"] = (
            "1", f"{cpu_count()} cores: the asynchronous host pipeline busy-waits and starves compute "
                 "(PyNative steps ran 4-6x faster with it on 2 cores; GRAPH_MODE unchanged)")
    return fixes


def cpu_fix_env(device: str = "CPU") -> dict:
    """``{name: value}`` of the recommended fixes, for launching subprocesses (benchmarks, msrun)."""
    return {k: v for k, (v, _) in recommended_cpu_fixes(device).items()}


def quiet_env() -> dict:
    """The log settings ``setup()`` applies, for subprocesses that import MindSpore.

    Besides the log level, ``MS_OM_PATH`` sends the compiler's failure dumps (``rank_0/om/analyze_fail.ir``,
    written when a graph fails to compile) to ``logs/mindspore/`` instead of the notebook's folder.
    """
    from course_utils import ROOT

    return {**_QUIET_ENV, "MS_OM_PATH": str(ROOT / "logs" / "mindspore")}


# --------------------------------------------------------------------------------------------
# Device detection (imports MindSpore)
# --------------------------------------------------------------------------------------------

def available_devices() -> list:
    """Devices MindSpore can use in this process, best first, e.g. ``["CPU"]``."""
    import mindspore as ms

    found = []
    for dev in DEVICES:
        try:
            if ms.hal.is_available(dev):
                found.append(dev)
        except Exception:  # a plugin that fails to load means "not available"
            pass
    return found or ["CPU"]


def _normalise_device(device: str) -> str:
    if device is None or str(device).lower() == "auto":
        return "auto"
    for dev in DEVICES:
        if str(device).lower() == dev.lower():
            return dev
    raise ValueError(f"Unknown device {device!r}: use 'auto', 'CPU', 'GPU' or 'Ascend'.")


def _normalise_mode(mode: str) -> str:
    key = str(mode).lower().replace("_mode", "")
    if key not in MODES:
        raise ValueError(f"Unknown mode {mode!r}: use 'graph' (GRAPH_MODE) or 'pynative' (PYNATIVE_MODE).")
    return key


# --------------------------------------------------------------------------------------------
# Jupyter: give MindSpore the cell source files it looks for
# --------------------------------------------------------------------------------------------

def _install_cell_source_files() -> bool:
    """Write each executed cell to the file name ipykernel gives it.

    When MindSpore compiles a function (GRAPH_MODE, ``@jit``) it reads the function's source file
    for debug information. In a Jupyter kernel that "file" is a name like
    ``/tmp/ipykernel_<pid>/<hash>.py`` that exists only in Python's line cache, so MindSpore logs
    ERROR lines ("Get realpath failed") into the notebook on every compile. Writing the cell there
    (what ipykernel's own debugger does) fixes the cause: no log lines, and MindSpore's error
    messages can quote the learner's source line.
    """
    try:
        shell = get_ipython()  # type: ignore[name-defined]  # noqa: F821
    except NameError:
        return False
    compiler = getattr(shell, "compile", None)
    if compiler is None or getattr(compiler, "_course_writes_files", False):
        return compiler is not None
    import linecache
    import tempfile

    tmp_root = os.path.realpath(tempfile.gettempdir())
    original_cache = compiler.cache

    def cache(transformed_code, number=0, raw_code=None):
        name = original_cache(transformed_code, number, raw_code)
        try:
            if os.path.realpath(name).startswith(tmp_root) and not os.path.exists(name):
                os.makedirs(os.path.dirname(name), exist_ok=True)
                with open(name, "w", encoding="utf-8") as fh:
                    fh.writelines(linecache.cache[name][2])
        except (OSError, KeyError):
            pass  # debug info only: never break the learner's cell over it
        return name

    compiler.cache = cache
    compiler._course_writes_files = True
    return True


def _silence_python_warnings() -> None:
    # MindSpore's own deprecation notices about APIs it uses internally are not the learner's.
    warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"mindspore(\..*)?")
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"mindspore(\..*)?")


# --------------------------------------------------------------------------------------------
# setup()
# --------------------------------------------------------------------------------------------

def setup(device: str = "auto", mode: str = "graph", seed: Optional[int] = 42,
          cpu_fixes: Optional[bool] = None, quiet: bool = True, verbose: bool = True) -> RuntimeInfo:
    """Choose the device and mode, seed everything, keep logs quiet, fix the CPU speed traps.

    Parameters
    ----------
    device: "auto" (Ascend > GPU > CPU), "CPU", "GPU" or "Ascend".
    mode: "graph" (GRAPH_MODE, compiled) or "pynative" (eager).
    seed: seeds MindSpore, NumPy and ``random``; ``None`` leaves them alone.
    cpu_fixes: apply ``recommended_cpu_fixes()`` before MindSpore loads. ``None`` means "yes, unless
        the environment variable COURSE_CPU_FIXES=0". A variable the user already set is never
        overwritten.
    quiet: keep MindSpore's INFO/WARNING log lines out of the output.
    verbose: print the one-line summary.
    """
    device = _normalise_device(device)
    mode_key = _normalise_mode(mode)
    notes = []
    first_call = not _state
    already_loaded = "mindspore" in sys.modules

    if cpu_fixes is None:
        cpu_fixes = os.environ.get(OPT_OUT_VAR, "1") != "0"

    # The device we expect, decided before MindSpore loads (the env fixes depend on it).
    if device == "auto":
        expected = "Ascend" if _looks_like_ascend() else "GPU" if _looks_like_gpu() else "CPU"
    else:
        expected = device

    applied = {}
    if first_call:
        if quiet:
            for k, v in quiet_env().items():
                os.environ.setdefault(k, v)
        for name, (value, reason) in recommended_cpu_fixes(expected).items():
            if name in os.environ:
                applied[name] = os.environ[name] + " (set by you)"
            elif not cpu_fixes:
                notes.append(f"{name} not set (CPU fixes turned off); would set {value}: {reason}")
            elif already_loaded:
                notes.append(f"{name}={value} recommended ({reason}) but MindSpore was imported before "
                             "setup(): restart the kernel and call setup() first")
            else:
                os.environ[name] = value
                applied[name] = value
        _state["cpu_fixes"] = applied
        if quiet:
            _silence_python_warnings()
    else:
        applied = _state["cpu_fixes"]

    import mindspore as ms

    if quiet:
        _install_cell_source_files()

    # ---- device ----
    if device == "auto":
        device = available_devices()[0]
    if first_call:
        try:
            ms.set_device(device)
        except RuntimeError as exc:
            found = ", ".join(available_devices())
            msg = str(exc).strip().splitlines()[0]
            if "initialized" in msg or "modified" in msg:
                raise DeviceUnavailableError(
                    f"Cannot select {device}: MindSpore already ran something on another device in this "
                    f"kernel ({msg}). Restart the kernel and run setup() before any MindSpore code."
                ) from None
            raise DeviceUnavailableError(
                f"Device {device!r} is not available in this process (devices found: {found}). "
                f"Use device='auto' or one of: {found}. MindSpore said: {msg}"
            ) from None
        _state["device"] = device
    elif device != _state["device"]:
        raise DeviceUnavailableError(
            f"This kernel already runs on {_state['device']}; MindSpore cannot switch a process to "
            f"{device}. Restart the kernel (Kernel > Restart) and call setup(device={device!r}) first."
        )
    else:
        notes.append(f"setup() called again: still on {device}")

    # ---- mode ----
    old_mode = _state.get("mode")
    ms.set_context(mode=getattr(ms, MODES[mode_key]))
    if old_mode is not None and old_mode != mode_key:
        notes.append(f"mode switched from {MODES[old_mode]} to {MODES[mode_key]}")
    _state["mode"] = mode_key

    # ---- seed ----
    if seed is not None:
        ms.set_seed(seed)
        import numpy as np

        np.random.seed(seed)
        random.seed(seed)

    info = RuntimeInfo(device=device, mode=MODES[mode_key], seed=seed,
                       mindspore_version=ms.__version__, cpu_fixes=dict(applied), notes=notes)
    _state["info"] = info
    if verbose:
        print(info.summary())
    return info


def current() -> Optional[RuntimeInfo]:
    """The ``RuntimeInfo`` of the last ``setup()`` call in this process, or None."""
    return _state.get("info")


def machine_header() -> str:
    """One line naming the machine and versions, printed with every measurement."""
    import numpy as np

    parts = [platform.machine(), f"{cpu_count()} CPUs", f"Python {platform.python_version()}",
             f"NumPy {np.__version__}"]
    try:
        from importlib.metadata import version

        parts.insert(0, f"MindSpore {version('mindspore')}")
    except Exception:  # not installed: say so rather than fail a report
        parts.insert(0, "MindSpore not installed")
    if "mindspore" in sys.modules:
        info = current()
        if info is not None:
            parts.append(f"device {info.device}, {info.mode}")
    if has_avx512():
        parts.append("AVX-512")
    fixes = {k: os.environ[k] for k in ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN") if k in os.environ}
    parts.append("env: " + (", ".join(f"{k}={v}" for k, v in fixes.items()) or "no CPU fixes"))
    return " | ".join(parts)
