"""course_utils.runtime: device and mode selection, idempotence, CPU fixes, quiet logs.
setup() runs in fresh interpreters because MindSpore reads its environment when it loads; a child program that
tells several facts of one process is run once per module (a fixture) and each test reads its part."""

import json

import pytest

from support import run_python
from course_utils import runtime


def _ok(out):
    assert out.returncode == 0, out.stdout + out.stderr
    return out


@pytest.fixture(scope="module")
def first_setup():
    """setup() before MindSpore loads, again with mode switches, then with exact=True (one process)."""
    return run_python(["tests/programs/runtime_first_setup.py"], env={"COURSE_LANG": "en"})


@pytest.fixture(scope="module")
def device_errors():
    """setup() on a missing Ascend, then on CPU, then on GPU (one process)."""
    return run_python(["tests/programs/runtime_device_errors.py"], env={"COURSE_LANG": "en"})


@pytest.fixture(scope="module")
def fake_ascend():
    """setup(exact=True) twice and the performance lab's CPU-only experiments on the fake Ascend (one process)."""
    return run_python(["tests/programs/runtime_fake_ascend.py"],
                      env={"COURSE_FAKE_DEVICE": "Ascend:1", "COURSE_LANG": "en"})


@pytest.mark.parametrize("avx512, cores, expected", [
    (True, 2, {"ONEDNN_MAX_CPU_ISA": "AVX2", "MS_DEV_HOST_BLOCKING_RUN": "1"}),
    (False, 8, {"MS_DEV_HOST_BLOCKING_RUN": "1"}),
    (True, 9, {"ONEDNN_MAX_CPU_ISA": "AVX2"}),
    (False, 64, {}),
], ids=["avx512-2cores", "avx2-8cores", "avx512-9cores", "avx2-64cores"])
def test_recommended_fixes_follow_the_cpu_and_only_for_cpu(monkeypatch, avx512, cores, expected):
    """The facts of this host are faked, so every branch is tested on every host."""
    monkeypatch.setattr(runtime, "has_avx512", lambda: avx512)
    monkeypatch.setattr(runtime, "cpu_count", lambda: cores)
    fixes = runtime.recommended_cpu_fixes("CPU")
    assert {k: v for k, (v, _) in fixes.items()} == expected
    # a child also gets the ISA cap under oneDNN's older name (MindSpore 2.7.1's oneDNN reads only that one)
    assert runtime.cpu_fix_env("CPU") == {**expected, **({"DNNL_MAX_CPU_ISA": "AVX2"} if avx512 else {})}
    assert all(reason for _, reason in fixes.values())
    if "MS_DEV_HOST_BLOCKING_RUN" in fixes:
        assert fixes["MS_DEV_HOST_BLOCKING_RUN"][1].startswith(f"{cores} cores:")
    assert runtime.recommended_cpu_fixes("Ascend") == {} == runtime.recommended_cpu_fixes("GPU")


@pytest.mark.parametrize("machine, flags, expected", [
    ("x86_64", {"avx2", "avx512f"}, True), ("x86_64", {"avx2"}, False), ("aarch64", {"avx512f"}, False)])
def test_avx512_is_read_from_the_cpu_flags_of_an_x86_cpu(monkeypatch, machine, flags, expected):
    monkeypatch.setattr(runtime.platform, "machine", lambda: machine)
    monkeypatch.setattr(runtime, "cpu_flags", lambda: flags)
    assert runtime.has_avx512() is expected


def test_setup_applies_fixes_before_mindspore_loads(first_setup):
    out = _ok(first_setup)
    result = json.loads(out.stdout.strip().splitlines()[0])
    assert result["device"] == "CPU" and result["mode"] == "GRAPH_MODE"
    assert result["fixes"] == {k: v for k, (v, _) in runtime.recommended_cpu_fixes("CPU").items()}
    assert result["env"] == runtime.cpu_fix_env("CPU")   # the fixes, the ISA cap under both of its names
    assert "[WARNING]" not in out.stderr and "[ERROR]" not in out.stderr


def test_setup_is_idempotent_and_switches_mode(first_setup):
    out = _ok(first_setup)
    assert "setup() called again: still on CPU" in out.stdout
    assert "mode switched from PYNATIVE_MODE to GRAPH_MODE" in out.stdout


@pytest.mark.parametrize("avx512", [True, False], ids=["avx512", "avx2"])
def test_user_settings_win_and_opt_out(python, avx512):
    """On a (faked) 2-core machine, with or without AVX-512: the user's ONEDNN_MAX_CPU_ISA is kept and named
    where the course would set it, and COURSE_CPU_FIXES=0 leaves MS_DEV_HOST_BLOCKING_RUN unset."""
    out = python(["tests/programs/runtime_user_settings.py", str(avx512)],
                 env={"ONEDNN_MAX_CPU_ISA": "AVX512_CORE", "COURSE_CPU_FIXES": "0"})
    assert out.returncode == 0, out.stderr
    fixes, blocking = json.loads(out.stdout.strip().splitlines()[-1])
    assert fixes == ({"ONEDNN_MAX_CPU_ISA": "AVX512_CORE (set by you)"} if avx512 else {})
    assert blocking is None, "opt-out must leave MS_DEV_HOST_BLOCKING_RUN unset"


def test_unavailable_device_names_what_was_found(device_errors):
    out = _ok(device_errors)
    assert "first: Device 'Ascend' is not available" in out.stdout
    assert "devices found: CPU" in out.stdout


def test_switching_device_later_says_restart(device_errors):
    out = _ok(device_errors)
    switch = out.stdout.split("switch: ", 1)[-1]
    assert "This kernel already runs on CPU" in switch and "Restart the kernel" in switch, out.stdout


def test_bad_arguments_are_explained():
    import pytest

    with pytest.raises(ValueError, match="Unknown device 'TPU'"):
        runtime.setup(device="TPU")
    with pytest.raises(ValueError, match="Unknown mode 'eager'"):
        runtime.setup(mode="eager")


def test_machine_header_names_versions():
    header = runtime.machine_header()
    assert f"MindSpore {runtime.installed_mindspore_version()} |" in header  # 2.10.0 here, 2.7.1 in test-compat
    assert "CPUs" in header and "NumPy" in header


def test_setup_can_be_retried_after_a_failed_device(device_errors):
    """A failed setup(device="Ascend") must not break the next call (it used to raise KeyError('device'))."""
    out = _ok(device_errors)
    assert "first: Device 'Ascend' is not available" in out.stdout
    assert "second: CPU" in out.stdout.splitlines()


def test_auto_says_when_the_ascend_plugin_did_not_load(python):
    """NPU device files present but the plugin failed (CANN not sourced): auto falls back to CPU *and says so*,
    with MindSpore's own plugin error; the CPU fixes it could not apply are named."""
    out = python(["tests/programs/runtime_ascend_plugin_missing.py"])
    assert out.returncode == 0, out.stderr
    assert "device CPU" in out.stdout
    assert "has Ascend NPUs (/dev/davinci0) but MindSpore's Ascend plugin did not load" in out.stdout
    assert "set_env.sh" in out.stdout and "MindSpore said: Load dynamic library: libmindspore_ascend" in out.stdout
    assert "MS_DEV_HOST_BLOCKING_RUN=1 recommended" in out.stdout


def test_auto_without_npu_files_says_nothing_about_ascend(python):
    out = python(["tests/programs/runtime_auto_setup.py"],
                 env={"ASCEND_HOME_PATH": "/usr/local/Ascend/ascend-toolkit/latest"})
    assert out.returncode == 0, out.stderr
    assert "Ascend" not in out.stdout, "CANN installed without NPUs is a CPU machine"
    assert "CPU fixes:" in out.stdout


def test_fake_ascend_records_device_and_exact_numerics(fake_ascend):
    out = _ok(fake_ascend)
    got = json.loads(next(line for line in out.stdout.splitlines() if line.startswith("{")))
    assert got["calls"] == [["set_device", "Ascend"], ["exact", "set_deterministic(True)"],
                            ["exact", "conv_allow_hf32(False)"]]
    assert got["device"] == "Ascend" and got["real"] == "CPU" and got["fixes"] == {}
    assert "FAKE DEVICE for tests" in out.stdout
    assert "exact numerics: set_deterministic(True), conv_allow_hf32(False)" in out.stdout
    assert "CPU fixes" not in out.stdout


def test_exact_on_cpu_needs_nothing(first_setup):
    out = _ok(first_setup)
    assert out.stdout.strip().splitlines()[-1] == "exact: [] []"


def test_exact_settings_exist_in_this_mindspore():
    """The calls setup(exact=True) makes on Ascend are public API of the installed MindSpore."""
    import mindspore as ms

    assert callable(ms.set_deterministic)
    assert callable(ms.device_context.ascend.op_precision.conv_allow_hf32)
    assert callable(ms.device_context.ascend.device_count)


def test_fake_device_is_off_without_the_variable(monkeypatch):
    from course_utils import fake_device

    monkeypatch.delenv(fake_device.VAR, raising=False)
    assert fake_device.active() is None
    monkeypatch.setenv(fake_device.VAR, "Ascend:2")
    assert fake_device.active() == ("Ascend", 2) and runtime.device_count("Ascend") == 2
    monkeypatch.setenv(fake_device.VAR, "CPU:1")
    with pytest.raises(ValueError, match="fake only 'Ascend' or 'GPU'"):
        fake_device.active()


def test_version_range():
    import pytest

    assert runtime.parse_version("2.10.0") == (2, 10, 0) and runtime.parse_version("2.7.1rc1") == (2, 7, 1)
    assert runtime.check_version("2.10.0") is None and runtime.check_version("2.7.1") is None
    assert runtime.check_version("2.8.0") is None
    assert "newer than the versions this course was tested on" in runtime.check_version("2.11.0")
    for old in ("2.7.0", "2.6.0", "1.10.1", "garbage"):
        with pytest.raises(runtime.UnsupportedVersionError, match="2.7.1 to 2.10.x"):
            runtime.check_version(old)
    assert runtime.check_version() is None, "the installed MindSpore must be in the supported range"


def test_setup_refuses_an_unsupported_version(python):
    out = python(["tests/programs/runtime_unsupported_version.py"])
    assert out.returncode == 0, out.stderr
    assert "ERR MindSpore 2.6.0 is older than this course supports (2.7.1 to 2.10.x)" in out.stdout


def test_fake_ascend_perf_lab_skips_cpu_only_experiments_without_a_process(fake_ascend):
    """On (fake) Ascend the performance lab's CPU-only experiments say why they skip and start no process
    (notebook 07 passes info.device to bench.Options)."""
    out = _ok(fake_ascend)
    lines = out.stdout.strip().splitlines()[-2:]
    assert lines[0].startswith("cpu_traps | ") and lines[0].endswith("not Ascend")
    assert lines[1].startswith("find_trap | ") and lines[1].endswith("not Ascend")


def test_temporary_mode_restores_the_mode_also_after_an_error():
    ms = pytest.importorskip("mindspore")
    before = ms.get_context("mode")
    other, name = (ms.PYNATIVE_MODE, "pynative") if before == ms.GRAPH_MODE else (ms.GRAPH_MODE, "graph")
    with runtime.temporary_mode(name):
        assert ms.get_context("mode") == other
    assert ms.get_context("mode") == before
    with pytest.raises(KeyError), runtime.temporary_mode(other):
        assert ms.get_context("mode") == other
        raise KeyError("inside the block")
    assert ms.get_context("mode") == before
    with pytest.raises(ValueError, match="Unknown mode"), runtime.temporary_mode("eager"):
        pass


def test_mode_name_accepts_every_spelling_of_a_mode_and_follows_the_language():
    from course_utils import i18n

    ms = pytest.importorskip("mindspore")
    with i18n.speaking("en"):
        for mode in ("graph", "GRAPH_MODE", ms.GRAPH_MODE):
            assert runtime.mode_name(mode) == "GRAPH_MODE"
        assert runtime.mode_name(ms.PYNATIVE_MODE) == runtime.mode_name("pynative") == "PYNATIVE_MODE"
    with i18n.speaking("zh"):
        assert (runtime.mode_name("graph"), runtime.mode_name(ms.PYNATIVE_MODE)) == ("静态图模式", "动态图模式")
    with pytest.raises(ValueError, match="Unknown mode"):
        runtime.mode_name("eager")
