"""course_utils.fresh_process runs a lesson's script in a new interpreter with the course's environment."""

import pytest

from course_utils import runtime
from course_utils.fresh_process import ScriptFailed, run_script


def test_runs_with_the_course_environment_and_overrides(tmp_path):
    script = tmp_path / "show.py"
    script.write_text("import os, sys\nprint(os.environ.get('GLOG_v'), os.environ.get('EXTRA'), "
                      "'REMOVED' in os.environ, ','.join(sys.argv[1:]), os.getcwd())\n")
    result = run_script(script, "a", 2, env={"EXTRA": "x", "REMOVED": None})
    glog, extra, removed, args, cwd = result.stdout.split(" ", 4)
    assert (glog, extra, removed) == ("3", "x", "False") and args == "a,2"
    assert cwd.strip() == str(tmp_path)
    assert run_script(script, env={"GLOG_v": "2"}).stdout.startswith("2 ")


def test_a_child_without_the_cpu_fixes_inherits_none_of_them_under_any_name(tmp_path, monkeypatch):
    """Lesson 00 runs setup_by_hand.py "without any of the course's CPU fixes": removing ``LOAD_TIME_VARS`` must leave
    none of them in the child, the oneDNN cap's older name (which child_env adds beside the new one) included; and
    removing a variable by its new name removes its older name too (child_env applies ``with_legacy_names``)."""
    fixes = runtime.with_legacy_names({"ONEDNN_MAX_CPU_ISA": "AVX2", "MS_DEV_HOST_BLOCKING_RUN": "1"})
    for name, value in fixes.items():   # this process after setup(): the fixes are in its environment
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(runtime, "cpu_fix_env", lambda device="CPU": dict(fixes))   # whatever this CPU is
    script = tmp_path / "env.py"
    script.write_text(f"import os\nprint(sorted(set({list(runtime.LOAD_TIME_VARS)!r}) & set(os.environ)))\n")
    assert run_script(script, env={name: None for name in runtime.CPU_FIX_VARS}).stdout.strip() == "[]"
    assert run_script(script, env={name: None for name in runtime.LOAD_TIME_VARS}).stdout.strip() == "[]"


def test_a_failing_script_raises_with_its_output(tmp_path):
    script = tmp_path / "fail.py"
    script.write_text("print('before the error')\nraise SystemExit('it broke')\n")
    with pytest.raises(ScriptFailed, match=r"fail.py exited with code 1:[\s\S]*before the error[\s\S]*it broke"):
        run_script(script)
    assert run_script(script, check=False).returncode == 1


def test_a_missing_script_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no script at"):
        run_script(tmp_path / "nope.py")


def test_setup_by_hand_sets_the_cpu_fixes_the_course_recommends():
    """Lesson 00 shows notebooks/scripts/setup_by_hand.py as the plain calls of ``setup()``: run without the course's
    CPU fixes, in either mode, it must set exactly the ones ``recommended_cpu_fixes`` names for this machine."""
    script = runtime.ROOT / "notebooks" / "scripts" / "setup_by_hand.py"
    no_fixes = {name: None for name in runtime.LOAD_TIME_VARS}
    for mode in ("graph", "pynative"):
        printed = run_script(script, "CPU", mode, env=no_fixes).stdout
        wanted = runtime.recommended_cpu_fixes("CPU", mode=mode)
        for name in runtime.CPU_FIX_VARS:
            assert f"{name} = {wanted[name][0] if name in wanted else '(not set)'}" in printed, (mode, name)
