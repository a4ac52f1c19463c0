"""course_utils.runtime: device and mode selection, idempotence, CPU fixes, quiet logs.
Each case runs in a fresh interpreter because MindSpore reads its environment when it loads."""

import json

from course_utils import runtime


def test_recommended_fixes_only_for_cpu():
    assert runtime.recommended_cpu_fixes("Ascend") == {}
    assert runtime.recommended_cpu_fixes("GPU") == {}
    fixes = runtime.recommended_cpu_fixes("CPU")
    if runtime.has_avx512():
        assert fixes["ONEDNN_MAX_CPU_ISA"][0] == "AVX2"
    if runtime.cpu_count() <= 8:
        assert fixes["MS_DEV_HOST_BLOCKING_RUN"][0] == "1"
    assert runtime.cpu_fix_env("CPU") == {k: v for k, (v, _) in fixes.items()}


def test_setup_applies_fixes_before_mindspore_loads(python):
    out = python("""
        import json, os, sys
        from course_utils import runtime
        assert "mindspore" not in sys.modules
        info = runtime.setup(verbose=False)
        print(json.dumps({"fixes": info.cpu_fixes, "env": {k: os.environ.get(k) for k in info.cpu_fixes},
                          "device": info.device, "mode": info.mode}))
    """)
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["device"] == "CPU" and result["mode"] == "GRAPH_MODE"
    assert result["fixes"] == {k: v for k, v in runtime.cpu_fix_env("CPU").items()}
    assert result["env"] == result["fixes"]
    assert "[WARNING]" not in out.stderr and "[ERROR]" not in out.stderr


def test_setup_is_idempotent_and_switches_mode(python):
    out = python("""
        from course_utils import runtime
        import numpy as np
        runtime.setup(seed=1)
        import mindspore as ms
        a = ms.ops.ones((2,), ms.float32) * 2
        info = runtime.setup(mode="pynative", seed=2)
        assert ms.get_context("mode") == ms.PYNATIVE_MODE
        info = runtime.setup(mode="graph")
        assert ms.get_context("mode") == ms.GRAPH_MODE
        print(info.summary())
    """)
    assert out.returncode == 0, out.stderr
    assert "setup() called again: still on CPU" in out.stdout
    assert "mode switched from PYNATIVE_MODE to GRAPH_MODE" in out.stdout


def test_user_settings_win_and_opt_out(python):
    out = python("""
        import os
        from course_utils import runtime
        info = runtime.setup(verbose=False)
        print(info.cpu_fixes, os.environ.get("MS_DEV_HOST_BLOCKING_RUN"))
    """, env={"ONEDNN_MAX_CPU_ISA": "AVX512_CORE", "COURSE_CPU_FIXES": "0"})
    assert out.returncode == 0, out.stderr
    if runtime.has_avx512():
        assert "AVX512_CORE (set by you)" in out.stdout
    assert out.stdout.strip().endswith("None"), "opt-out must leave MS_DEV_HOST_BLOCKING_RUN unset"


def test_unavailable_device_names_what_was_found(python):
    out = python("""
        from course_utils import runtime
        try:
            runtime.setup(device="Ascend", verbose=False)
        except runtime.DeviceUnavailableError as exc:
            print("ERR", exc)
    """)
    assert out.returncode == 0, out.stderr
    assert "ERR Device 'Ascend' is not available" in out.stdout
    assert "devices found: CPU" in out.stdout


def test_switching_device_later_says_restart(python):
    out = python("""
        from course_utils import runtime
        runtime.setup(verbose=False)
        try:
            runtime.setup(device="GPU", verbose=False)
        except runtime.DeviceUnavailableError as exc:
            print("ERR", exc)
    """)
    assert "Restart the kernel" in out.stdout, out.stdout + out.stderr


def test_bad_arguments_are_explained():
    import pytest

    with pytest.raises(ValueError, match="Unknown device 'TPU'"):
        runtime.setup(device="TPU")
    with pytest.raises(ValueError, match="Unknown mode 'eager'"):
        runtime.setup(mode="eager")


def test_machine_header_names_versions():
    header = runtime.machine_header()
    assert "MindSpore 2.10" in header and "CPUs" in header and "NumPy" in header
