"""Runtime setup for every notebook: device, mode, seed, quiet logs and the CPU speed traps.

``setup()`` is the first call of every lesson. It must run before ``import mindspore`` in a fresh
kernel, because three things are read only once: the log level when MindSpore loads, the two CPU variables the
first time MindSpore runs an operation that uses them (measured on 2.10: set after the import they still count,
after the first operation not), so before the import is the safe place:

* ``GLOG_v`` and friends: MindSpore's log level (C++ and Python side);
* ``ONEDNN_MAX_CPU_ISA``: on CPUs with AVX-512, MindSpore's bundled oneDNN picks a convolution path
  for MindSpore's plain tensor layouts that is many times slower than its AVX2 path;
* ``MS_DEV_HOST_BLOCKING_RUN``: on machines with few cores MindSpore's asynchronous host pipeline
  busy-waits and starves the compute threads; the blocking run mode avoids it.

Calling ``setup()`` again in the same kernel (re-running a cell, switching mode) is safe: it switches
what can be switched (mode, seed) and says what it could not change without a kernel restart.

Supported MindSpore versions: ``SUPPORTED_RANGE`` (``check_version()``; ``setup()`` refuses others).
On Ascend, ``setup(exact=True)`` turns on the documented controls a lesson needs for exact comparisons.

``setup()`` is a sequence of steps, each a function below in the order it runs: ``_prepare_process`` (once per
process, before MindSpore loads: version check, quiet logs, the CPU fixes), ``_resolve_auto``, ``_select_device``,
``_exact``, ``_set_mode``, ``_seed``. ``child_env()`` is the one recipe for the environment of a child process that
runs MindSpore (a script, a benchmark worker, msrun's workers).

Tests can pretend an Ascend NPU or a GPU is there (``course_utils.fake_device``, test-only, in its own module):
the device probe and ``setup()`` consult it at the few places marked ``fake_device.active()``.

Why one module of ~650 lines: every section (versions, CPU facts, devices, the kernel's cell files, the steps of
setup, the child environment) is a fact or a step of ``setup()``, read in the order ``setup()`` uses them, and tests
and child programs replace those facts on this module (``runtime.cpu_flags``, ``runtime.installed_mindspore_version``),
which a split would silently bypass.
"""

from __future__ import annotations

import contextlib
import dataclasses
import glob
import importlib
import os
import platform
import random
import re
import sys
import warnings
from pathlib import Path
from typing import Iterator, Mapping, Optional

from course_utils import ROOT, fake_device
from course_utils.i18n import N_, set_language, tr
from course_utils.i18n.figures import use_language

DEVICES = ("Ascend", "GPU", "CPU")
MODES = {"graph": "GRAPH_MODE", "pynative": "PYNATIVE_MODE"}
#: How a sentence names each mode (``RuntimeInfo.mode_name``): the constant in English, 静态图模式 in Chinese.
MODE_NAMES = {"GRAPH_MODE": N_("GRAPH_MODE"), "PYNATIVE_MODE": N_("PYNATIVE_MODE")}

#: Environment variable a user can set to "0" to turn off the CPU speed fixes globally.
OPT_OUT_VAR = "COURSE_CPU_FIXES"

#: MindSpore versions the course runs on: the oldest is tested by ``make test-compat``, the newest by ``make test``.
MINDSPORE_MIN = (2, 7, 1)
MINDSPORE_NEWEST_TESTED = (2, 10)
SUPPORTED_RANGE = N_("2.7.1 to 2.10.x")  # tr() it where it is shown


def listing(items, labels: bool = False) -> str:
    """``items`` joined as a list in the current language ("a, b" in English, "a、b" in Chinese); "" if none.
    ``labels=True`` for items with commas of their own (configuration labels: "GRAPH_MODE, TrainOneStepCell"):
    "a; b" in English."""
    out = ""
    for item in items:
        out = (tr("{items}; {item}", items=out, item=item) if labels else
               tr("{items}, {item}", items=out, item=item)) if out else str(item)
    return out


def supported_range() -> str:
    """``SUPPORTED_RANGE`` in the current language (what a lesson prints: "2.7.1 到 2.10.x" in Chinese)."""
    return tr("{oldest} to {newest}.x", oldest=".".join(map(str, MINDSPORE_MIN)),
              newest=".".join(map(str, MINDSPORE_NEWEST_TESTED)))

# What MindSpore logs below this level stays out of notebooks (3 = ERROR).
_QUIET_ENV = {"GLOG_v": "3", "GLOG_stderrthreshold": "3"}

_state: dict = {}


class DeviceUnavailableError(RuntimeError):
    """The requested device is not usable in this process."""


class UnsupportedVersionError(RuntimeError):
    """The installed MindSpore is outside ``SUPPORTED_RANGE``."""


# --------------------------------------------------------------------------------------------
# MindSpore version
# --------------------------------------------------------------------------------------------

def parse_version(text: str) -> tuple:
    """``"2.10.0"`` -> ``(2, 10, 0)``; ``"2.7.1rc1"`` -> ``(2, 7, 1)`` (the leading numbers)."""
    parts = []
    for piece in str(text).split("."):
        digits = ""
        for ch in piece:
            if not ch.isdigit():
                break
            digits += ch
        if not digits:
            break
        parts.append(int(digits))
        if len(digits) != len(piece):
            break
    return tuple(parts)


def installed_mindspore_version() -> Optional[str]:
    """The installed MindSpore's version string, read without importing it (None if not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mindspore")
    except PackageNotFoundError:
        return None


def check_version(version: Optional[str] = None) -> Optional[str]:
    """Check a MindSpore version (default: the installed one) against ``SUPPORTED_RANGE``.

    Raises ``UnsupportedVersionError`` for a version older than the range (or none installed); returns a
    note for one newer than the newest tested minor release, else None.
    """
    version = installed_mindspore_version() if version is None else version
    if version is None:
        raise UnsupportedVersionError(tr(
            "MindSpore is not installed in this Python ({python}). The course supports MindSpore "
            "{supported}: run `make setup`, or on an Ascend image use the image's own environment.",
            python=sys.executable, supported=supported_range()))
    parsed = parse_version(version)
    if len(parsed) < 2 or parsed < MINDSPORE_MIN:
        raise UnsupportedVersionError(tr(
            "MindSpore {version} is older than this course supports ({supported}). Install a supported "
            "version (`make setup` installs the pinned one), or on an Ascend image pick the image with "
            "MindSpore 2.7.1 or newer.", version=version, supported=supported_range()))
    if parsed[:2] > MINDSPORE_NEWEST_TESTED:
        return tr("MindSpore {version} is newer than the versions this course was tested on ({supported}); "
                  "it will probably work, but report what breaks.", version=version, supported=supported_range())
    return None


@dataclasses.dataclass
class RuntimeInfo:
    """What ``setup()`` chose; printed in one line and returned for notebooks to record."""

    device: str
    mode: str
    seed: Optional[int]
    mindspore_version: str
    cpu_fixes: dict
    notes: list
    exact: list = dataclasses.field(default_factory=list)  # the exact-numerics settings applied

    @property
    def mode_name(self) -> str:
        """The mode as prose names it: GRAPH_MODE / PYNATIVE_MODE in English, 静态图模式 / 动态图模式 in Chinese."""
        return mode_name(self.mode) if self.mode in MODE_NAMES else self.mode

    def summary(self) -> str:
        parts = [
            f"MindSpore {self.mindspore_version}",
            tr("device {device}", device=self.device),
            self.mode,
            tr("seed {seed}", seed=self.seed) if self.seed is not None else tr("no seed"),
        ]
        if self.device == "CPU" or self.cpu_fixes:
            fixes = listing(f"{k}={v}" for k, v in self.cpu_fixes.items()) or tr("none")
            parts.append(tr("CPU fixes: {fixes}", fixes=fixes))
        if self.exact:
            parts.append(tr("exact numerics: {settings}", settings=listing(self.exact)))
        text = " | ".join(parts)
        if self.notes:
            text += "\n" + "\n".join(tr("  note: {note}", note=n) for n in self.notes)
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


def ascend_device_files() -> list:
    """The NPU device nodes a container or machine exposes (``/dev/davinci0`` ...)."""
    return sorted(glob.glob("/dev/davinci[0-9]*"))


def _looks_like_ascend() -> bool:
    fake = fake_device.active()
    if fake is not None:
        return fake[0] == "Ascend"
    # Only the NPU device nodes count: CANN installed on a machine without NPUs (ASCEND_HOME_PATH set) runs on CPU.
    return bool(ascend_device_files())


def _looks_like_gpu() -> bool:
    fake = fake_device.active()
    if fake is not None:
        return fake[0] == "GPU"
    return bool(glob.glob("/dev/nvidia[0-9]*"))


def recommended_cpu_fixes(device: str = "CPU", mode: Optional[str] = None) -> dict:
    """The environment variables that make MindSpore fast on this CPU, with the reason for each.

    Returns ``{name: (value, reason)}``. Empty for non-CPU devices (the variables only matter for
    CPU kernels and the CPU host pipeline). ``mode`` ("graph" or "pynative") asks what helps steps of that mode:
    on few cores the host blocking helps every step run from PyNative, eager or a ``@jit`` function (which is still
    called through PyNative's host pipeline), while what it does to a GRAPH_MODE step varies with the machine and the
    run (from about 0.75x to about 1.3x the rate without it on the course's 2-core machines:
    docs/performance-reference.md), so ``mode="graph"`` leaves it out. ``None``: what a kernel that runs both needs
    (what ``setup()`` applies).
    """
    if device != "CPU":
        return {}
    fixes = {}
    if has_avx512():
        fixes["ONEDNN_MAX_CPU_ISA"] = (
            "AVX2", tr("AVX-512 CPU: oneDNN's AVX-512 convolution path is far slower for MindSpore's layouts"))
    if cpu_count() <= 8 and mode != "graph":
        fixes["MS_DEV_HOST_BLOCKING_RUN"] = (
            "1", tr("{cores} cores: the asynchronous host pipeline busy-waits and starves compute "
                    "(measured on 2-core CPUs: steps run from PyNative, eager or @jit, several times faster with it; "
                    "GRAPH_MODE steps, no consistent effect)", cores=cpu_count()))
    return fixes


#: Older names a oneDNN variable must also be set under: the oneDNN that MindSpore 2.7.1 bundles (v2.2, before
#: oneDNN 3) reads only ``DNNL_MAX_CPU_ISA`` and ``DNNL_VERBOSE`` and ignores the ``ONEDNN_`` names (measured: with
#: ``ONEDNN_MAX_CPU_ISA=AVX2`` its log says "isa:Intel AVX-512", with ``DNNL_MAX_CPU_ISA=AVX2`` "isa:Intel AVX2";
#: ``ONEDNN_VERBOSE=1`` prints nothing, ``DNNL_VERBOSE=1`` prints ``dnnl_verbose,...`` lines); 2.10's oneDNN reads
#: either name.
LEGACY_NAMES = {"ONEDNN_MAX_CPU_ISA": "DNNL_MAX_CPU_ISA", "ONEDNN_VERBOSE": "DNNL_VERBOSE"}


def with_legacy_names(fixes: Mapping[str, str]) -> dict:
    """``fixes`` plus each variable's older name (``LEGACY_NAMES``) with the same value, unless that one is set."""
    out = dict(fixes)
    for name, old in LEGACY_NAMES.items():
        if name in out and old not in out:
            out[old] = out[name]
    return out


def cpu_fix_env(device: str = "CPU") -> dict:
    """``{name: value}`` of the recommended fixes, for launching subprocesses (benchmarks, msrun); each also under
    its older name (``LEGACY_NAMES``)."""
    return with_legacy_names({k: v for k, (v, _) in recommended_cpu_fixes(device).items()})


#: Variables MindSpore reads once (at load or at its first operation) that a child process must never inherit by
#: accident: the two CPU fixes, oneDNN's verbose log and the jit pipeline switch (the performance lab sets them per
#: measurement).
LOAD_TIME_VARS = ("ONEDNN_MAX_CPU_ISA", "MS_DEV_HOST_BLOCKING_RUN", "ONEDNN_VERBOSE", "MS_DEV_JIT_PIPELINE",
                  *LEGACY_NAMES.values())
#: The two of them behind the CPU speed traps (``recommended_cpu_fixes``).
CPU_FIX_VARS = LOAD_TIME_VARS[:2]
#: The runner's metrics file (``course_utils.run``): a child's ``record()`` would overwrite the notebook's.
_NOT_INHERITED = LOAD_TIME_VARS + ("COURSE_METRICS_FILE",)


def child_env(device: str = "CPU", cpu_fixes: Optional[bool] = True,
              env: Optional[Mapping[str, Optional[str]]] = None) -> dict:
    """The environment of a child process that runs MindSpore: a lesson's script, a benchmark worker, msrun's workers.

    The one recipe of the course. From this process's environment it drops every variable MindSpore reads at load
    time (``LOAD_TIME_VARS``) and the runner's metrics file, keeps MindSpore quiet (``quiet_env()``), puts this
    Python's folder first on ``PATH`` (msrun starts its workers as plain ``python``), and then:

    * ``cpu_fixes=True``: the CPU fixes of a ``device`` "CPU" child (``cpu_fix_env``; none for Ascend or GPU, where
      they would slow the host side down), except that a value the user set before ``setup()`` wins;
    * ``cpu_fixes=False``: none, and ``COURSE_CPU_FIXES=0`` so that the child's own ``setup()`` adds none either
      (the "without" of a measurement);
    * ``cpu_fixes=None``: none set here: the child's ``setup()`` decides, as in a fresh kernel.

    ``env`` goes on top (a value ``None`` removes that variable), each oneDNN variable also under its older name
    (``with_legacy_names``: MindSpore 2.7.1's oneDNN reads only that one).
    """
    out = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
    out.update(quiet_env())
    out["PATH"] = str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", "")
    if cpu_fixes:
        out.update(cpu_fix_env(_normalise_device(device)))
        mine = (_state.get("cpu_fixes") or {})
        out.update({k: os.environ[k] for k, v in mine.items() if str(v).endswith("(set by you)") and k in os.environ})
    elif cpu_fixes is False:
        out[OPT_OUT_VAR] = "0"
    for name, value in with_legacy_names(env or {}).items():
        if value is None:
            out.pop(name, None)
        else:
            out[name] = str(value)
    return out


def quiet_env() -> dict:
    """The log settings ``setup()`` applies, for subprocesses that import MindSpore.

    Besides the log level, ``MS_OM_PATH`` sends the compiler's failure dumps (``rank_0/om/analyze_fail.ir``,
    written when a graph fails to compile) to ``logs/mindspore/`` instead of the notebook's folder.
    """
    return {**_QUIET_ENV, "MS_OM_PATH": str(ROOT / "logs" / "mindspore")}


# --------------------------------------------------------------------------------------------
# Device detection (imports MindSpore)
# --------------------------------------------------------------------------------------------

def available_devices() -> list:
    """Devices MindSpore can use in this process, best first, e.g. ``["CPU"]``.

    Asks ``mindspore.device_context.<device>.is_available()`` (2.7.1 to 2.10; ``mindspore.hal.is_available``, which
    does the same, is marked for removal in 2.10): True when the device's plugin loaded, not that a card is there.
    """
    fake = fake_device.active()
    if fake is not None:
        return [fake[0], "CPU"]
    import mindspore as ms

    found = []
    for dev in DEVICES:
        try:
            if getattr(ms.device_context, dev.lower()).is_available():
                found.append(dev)
        except Exception:  # a plugin that fails to load means "not available"
            pass
    return found or ["CPU"]


def plugin_error(device: str = "Ascend") -> str:
    """Why MindSpore's plugin for ``device`` did not load (its own message), or "" if it loaded or we cannot tell."""
    if fake_device.active() is not None:
        return ""
    importlib.import_module("mindspore")   # loading MindSpore loads the plugins and records their errors

    try:
        from mindspore._c_expression import MSContext

        text = MSContext.get_instance().load_plugin_error()
    except Exception:  # a private API: absent in some version, then we only know "not available"
        return ""
    lines = [line.strip() for line in str(text).splitlines() if device.lower() in line.lower()]
    return "; ".join(lines)


def device_count(device: str) -> int:
    """How many cards of ``device`` MindSpore sees (0 if its plugin did not load); for "CPU" the CPU count.

    Ascend: ``mindspore.device_context.ascend.device_count()``, which counts NPUs (``is_available()`` only
    says whether the plugin loaded).
    """
    device = _normalise_device(device)
    if device == "CPU":
        return cpu_count()
    fake = fake_device.active()
    if fake is not None:
        return fake[1] if fake[0] == device else 0
    if device not in available_devices():
        return 0
    import mindspore as ms

    ctx = getattr(ms.device_context, device.lower())
    return int(ctx.device_count())


def device_name(device: str) -> str:
    """``device`` as MindSpore spells it ("cpu" -> "CPU", "ascend" -> "Ascend"; "auto" stays "auto"), or a
    ``ValueError`` naming the devices there are (``DEVICES``): the one list of the course's devices."""
    return _normalise_device(device)


def _normalise_device(device: str) -> str:
    if device is None or str(device).lower() == "auto":
        return "auto"
    for dev in DEVICES:
        if str(device).lower() == dev.lower():
            return dev
    raise ValueError(tr("Unknown device {device}: use 'auto', 'CPU', 'GPU' or 'Ascend'.", device=repr(device)))


def mode_name(mode) -> str:
    """How prose names a mode: GRAPH_MODE / PYNATIVE_MODE in English, 静态图模式 / 动态图模式 in Chinese.

    ``mode``: "graph" or "pynative" (as in ``setup``), "GRAPH_MODE" / "PYNATIVE_MODE", or ``mindspore.GRAPH_MODE`` /
    ``mindspore.PYNATIVE_MODE`` (what ``ms.get_context("mode")`` returns)."""
    if not isinstance(mode, str):
        import mindspore as ms

        mode = "graph" if mode == ms.GRAPH_MODE else "pynative"
    return tr(MODE_NAMES[MODES[_normalise_mode(mode)]])


def _normalise_mode(mode: str) -> str:
    key = str(mode).lower().replace("_mode", "")
    if key not in MODES:
        raise ValueError(tr("Unknown mode {mode}: use 'graph' (GRAPH_MODE) or 'pynative' (PYNATIVE_MODE).",
                            mode=repr(mode)))
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
        shell = get_ipython()  # type: ignore[name-defined]
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
          cpu_fixes: Optional[bool] = None, quiet: bool = True, verbose: bool = True,
          exact: bool = False, lang: Optional[str] = None) -> RuntimeInfo:
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
    exact: the lesson compares results exactly (bit-identical resume, two runs that must agree). On CPU
        nothing is needed. On Ascend this turns on ``mindspore.set_deterministic(True)`` and turns off CANN's
        default HF32 convolutions (``device_context.ascend.op_precision.conv_allow_hf32(False)``); on GPU it
        turns on ``set_deterministic``. Both are slower and cannot be turned off again in this process.
    lang: the language of everything ``course_utils`` prints from here on ("en" or "zh"), also in the
        scripts the lesson launches (``COURSE_LANG``); ``None`` keeps the current one (English by default).
    """
    if lang is not None:
        set_language(lang)
        use_language(lang)  # figures too: a CJK font for Chinese labels (course_utils.i18n.figures)
    device, mode_key = _normalise_device(device), _normalise_mode(mode)
    if cpu_fixes is None:
        cpu_fixes = os.environ.get(OPT_OUT_VAR, "1") != "0"
    notes: list = []
    expected = _expected_device(device)
    # the CPU fixes are in place only if this first call prepared the process for CPU
    fixes_in_place = "cpu_fixes" not in _state and expected == "CPU"
    applied = _prepare_process(expected, cpu_fixes, quiet, notes)   # once per process, before MindSpore loads

    import mindspore as ms

    if quiet:
        _install_cell_source_files()
    if fake_device.active() is not None:
        notes.append(tr("FAKE DEVICE for tests ({setting}): MindSpore really runs on CPU",
                        setting=f"{fake_device.VAR}={os.environ[fake_device.VAR]}"))
    device = _resolve_auto(device, notes, verbose)
    _select_device(ms, device, cpu_fixes and not fixes_in_place, notes)
    _exact(ms, device, exact, notes)
    _set_mode(ms, mode_key, notes)
    _seed(ms, seed)

    info = RuntimeInfo(device=device, mode=MODES[mode_key], seed=seed,
                       mindspore_version=ms.__version__, cpu_fixes=dict(applied), notes=notes,
                       exact=list(_state.get("exact") or []))
    _state["info"] = info
    if verbose:
        print(info.summary())
    return info


# The steps of setup(), in its order. Each adds what the learner should know to ``notes``.

def _expected_device(device: str) -> str:
    """The device ``setup()`` will pick, decided before MindSpore loads (the environment fixes depend on it)."""
    if device != "auto":
        return device
    return "Ascend" if _looks_like_ascend() else "GPU" if _looks_like_gpu() else "CPU"


def _prepare_process(expected: str, cpu_fixes: bool, quiet: bool, notes: list) -> dict:
    """Once per process, before MindSpore loads: the version check, quiet logs, the CPU fixes for ``expected``.
    Returns the fixes in force (``{name: value}``, "(set by you)" for a variable the user had set)."""
    if "cpu_fixes" in _state:
        return _state["cpu_fixes"]
    too_new = check_version()  # raises UnsupportedVersionError outside SUPPORTED_RANGE
    if too_new:
        notes.append(too_new)
    if quiet:
        for k, v in quiet_env().items():
            os.environ.setdefault(k, v)
    already_loaded = "mindspore" in sys.modules
    applied = {}
    for name, (value, reason) in recommended_cpu_fixes(expected).items():
        if name in os.environ:
            applied[name] = os.environ[name] + " (set by you)"
        elif not cpu_fixes:
            notes.append(tr("{name} not set (CPU fixes turned off); would set {value}: {reason}",
                            name=name, value=value, reason=reason))
        elif already_loaded:
            notes.append(tr("{name}={value} recommended ({reason}) but MindSpore was imported before "
                            "setup(): restart the kernel and call setup() first",
                            name=name, value=value, reason=reason))
        else:
            for key, val in with_legacy_names({name: value}).items():
                os.environ.setdefault(key, val)
            applied[name] = value
    _state["cpu_fixes"] = applied
    if quiet:
        _silence_python_warnings()
    return applied


def _resolve_auto(device: str, notes: list, verbose: bool) -> str:
    """``auto`` -> the best device MindSpore can use; says so when NPUs are there but the Ascend plugin did not
    load (usually CANN's environment is not set)."""
    if device != "auto":
        return device
    found = available_devices()
    device = found[0]
    if "device" not in _state and "Ascend" not in found and ascend_device_files():
        why = plugin_error("Ascend") or tr("(MindSpore gave no reason)")
        warning = tr("This machine has Ascend NPUs ({npus}) but MindSpore's "
                     "Ascend plugin did not load, so the course runs on {device}. Usually CANN's environment "
                     "is not set: run `source /usr/local/Ascend/ascend-toolkit/set_env.sh` before starting "
                     "Jupyter (see the README's Ascend section). MindSpore said: {why}",
                     npus=", ".join(ascend_device_files()), device=device, why=why)
        notes.append(warning)
        if not verbose:
            warnings.warn(warning, RuntimeWarning, stacklevel=3)
    return device


def _select_device(ms, device: str, fixes_missing: bool, notes: list) -> None:
    """``mindspore.set_device`` once per process (only a successful call counts: a failed one may be retried);
    a later call may only repeat it. ``fixes_missing``: the process was not prepared for CPU (a broken Ascend, or
    an earlier failed setup()), so a CPU choice lacks the CPU fixes: say so."""
    if "device" in _state:
        if device != _state["device"]:
            raise DeviceUnavailableError(tr(
                "This kernel already runs on {current}; MindSpore cannot switch a process to "
                "{device}. Restart the kernel (Kernel > Restart) and call setup(device={device_repr}) first.",
                current=_state["device"], device=device, device_repr=repr(device)))
        notes.append(tr("setup() called again: still on {device}", device=device))
        return
    fake = fake_device.active()
    try:
        if fake is not None and device == fake[0]:
            fake_device.record("set_device", device)
            ms.set_device("CPU")
        else:
            ms.set_device(device)
    except RuntimeError as exc:
        raise _device_error(device, exc) from None
    _state["device"] = device
    if device == "CPU" and fixes_missing:
        for name, (value, reason) in recommended_cpu_fixes("CPU").items():
            if name not in os.environ:
                notes.append(tr("{name}={value} recommended ({reason}) but MindSpore was loaded for "
                                "another device: restart the kernel to apply it",
                                name=name, value=value, reason=reason))


def _device_error(device: str, exc: RuntimeError) -> DeviceUnavailableError:
    """What a failed ``set_device`` means for the learner, with MindSpore's own words."""
    found = ", ".join(available_devices())
    msg = str(exc).strip().splitlines()[0]
    if "initialized" in msg or "modified" in msg:
        return DeviceUnavailableError(tr(
            "Cannot select {device}: MindSpore already ran something on another device in this "
            "kernel ({msg}). Restart the kernel and run setup() before any MindSpore code.",
            device=device, msg=msg))
    why = plugin_error(device) if device != "CPU" else ""
    return DeviceUnavailableError(
        tr("Device {device} is not available in this process (devices found: {found}). "
           "Use device='auto' or one of: {found}. MindSpore said: {msg}",
           device=repr(device), found=found, msg=msg)
        + ("\n" + tr("Why its plugin did not load: {why}", why=why) if why else ""))


#: What ``setup(exact=True)`` turns on, per device: (name shown to the learner, how to call it).
EXACT_SETTINGS = {
    "Ascend": (("set_deterministic(True)", lambda ms: ms.set_deterministic(True)),
               ("conv_allow_hf32(False)", lambda ms: ms.device_context.ascend.op_precision.conv_allow_hf32(False))),
    "GPU": (("set_deterministic(True)", lambda ms: ms.set_deterministic(True)),),
    "CPU": (),  # CPU kernels compute in fp32 and gave bit-identical repeats in every test of the course
}


def _exact(ms, device: str, exact: bool, notes: list) -> None:
    """``EXACT_SETTINGS[device]`` once asked for (after ``set_device``: the Ascend calls check the device; with the
    fake device only recorded); they cannot be turned off again."""
    if exact and not _state.get("exact"):
        done = []
        for name, call in EXACT_SETTINGS[device]:
            if fake_device.active() is not None:
                fake_device.record("exact", name)
            else:
                call(ms)
            done.append(name)
        _state["exact"] = done
    elif not exact and _state.get("exact"):
        notes.append(tr("exact numerics stay on: they cannot be turned off in a running process"))


def _set_mode(ms, mode_key: str, notes: list) -> None:
    old_mode = _state.get("mode")
    ms.set_context(mode=getattr(ms, MODES[mode_key]))
    if old_mode is not None and old_mode != mode_key:
        notes.append(tr("mode switched from {old} to {new}", old=MODES[old_mode], new=MODES[mode_key]))
    _state["mode"] = mode_key


def _seed(ms, seed: Optional[int]) -> None:
    """Seed MindSpore, NumPy and ``random`` (``None``: leave them alone)."""
    if seed is None:
        return
    ms.set_seed(seed)
    import numpy as np

    np.random.seed(seed)
    random.seed(seed)


def current() -> Optional[RuntimeInfo]:
    """The ``RuntimeInfo`` of the last ``setup()`` call in this process, or None."""
    return _state.get("info")


@contextlib.contextmanager
def temporary_mode(mode) -> Iterator[None]:
    """Run the block in another execution mode; the mode before it comes back when the block ends, also on an error.

    ``mode``: "graph" or "pynative" (as in ``setup``), or ``mindspore.GRAPH_MODE`` / ``mindspore.PYNATIVE_MODE``.
    A lesson runs a sweep over many new Cells eagerly this way (GRAPH_MODE would compile each of them)::

        with runtime.temporary_mode("pynative"):
            ...
    """
    import mindspore as ms

    target = getattr(ms, MODES[_normalise_mode(mode)]) if isinstance(mode, str) else mode
    saved = ms.get_context("mode")
    ms.set_context(mode=target)
    try:
        yield
    finally:
        ms.set_context(mode=saved)


# the parts of a machine_header() (and of bench.header()) that are words, in English: each is tr()-ed when printed,
# and localize_header() re-renders them from a stored English line (a placeholder stands for any value)
HEADER_CPUS = N_("{n} CPUs")
HEADER_CPUS_OF = N_("{n} of {total} CPUs")   # this process may use fewer than the machine has (taskset, PIN_CPU)
HEADER_DEVICE = N_("device {device}, {mode}")
HEADER_NO_FIXES = N_("env: no CPU fixes")
HEADER_ENV = N_("env: {variables}")
HEADER_LOAD = N_("load {values}")
HEADER_NO_MINDSPORE = N_("MindSpore not installed")
_HEADER_PARTS = (HEADER_CPUS_OF, HEADER_CPUS, HEADER_DEVICE, HEADER_NO_FIXES, HEADER_ENV, HEADER_LOAD,
                 HEADER_NO_MINDSPORE)


def machine_header(env: bool = True) -> str:
    """One line naming the machine and versions, printed with every measurement (in the course's language);
    ``env=False`` leaves out the CPU-fix variables."""
    import numpy as np

    usable, total = cpu_count(), os.cpu_count() or cpu_count()
    cpus = tr(HEADER_CPUS, n=usable) if usable >= total else tr(HEADER_CPUS_OF, n=usable, total=total)
    parts = [platform.machine(), cpus, f"Python {platform.python_version()}",
             f"NumPy {np.__version__}"]
    try:
        from importlib.metadata import version

        parts.insert(0, f"MindSpore {version('mindspore')}")
    except Exception:  # not installed: say so rather than fail a report
        parts.insert(0, tr(HEADER_NO_MINDSPORE))
    if "mindspore" in sys.modules:
        info = current()
        if info is not None:
            parts.append(tr(HEADER_DEVICE, device=info.device, mode=info.mode))
    if has_avx512():
        parts.append("AVX-512")
    if env:
        fixes = {k: os.environ[k] for k in CPU_FIX_VARS if k in os.environ}
        parts.append(tr(HEADER_ENV, variables=listing(f"{k}={v}" for k, v in fixes.items()))
                     if fixes else tr(HEADER_NO_FIXES))
    return " | ".join(parts)


def _template_pattern(message: str) -> str:
    """A message template as a regular expression: its words literal, each ``{name}`` a named group."""
    pieces = re.split(r"\{(\w+)\}", message)
    return "".join(re.escape(piece) if i % 2 == 0 else f"(?P<{piece}>.+?)" for i, piece in enumerate(pieces))


_HEADER_PATTERNS = [(message, re.compile(_template_pattern(message))) for message in _HEADER_PARTS]


def localize_header(text: str) -> str:
    """A header line stored by an English run (``machine_header()``, ``bench.header()``, say in a results
    JSON) in the course's language: its known parts translated, names, versions and values kept. The CPU-fix
    variables are listed again as ``machine_header()`` lists them, so that a stored line can equal this run's."""
    parts = []
    for part in str(text).split(" | "):
        for message, pattern in _HEADER_PATTERNS:
            m = pattern.fullmatch(part)
            if m:
                values = m.groupdict()
                if message == HEADER_ENV:
                    values["variables"] = listing(values["variables"].split(", "))
                if message == HEADER_LOAD:
                    values["values"] = listing(values["values"].split(", "))
                part = tr(message, **values)
                break
        parts.append(part)
    return " | ".join(parts)
