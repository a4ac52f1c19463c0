"""course_utils.fresh_process runs a lesson's script in a new interpreter with the course's environment."""

import pytest

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


def test_a_failing_script_raises_with_its_output(tmp_path):
    script = tmp_path / "fail.py"
    script.write_text("print('before the error')\nraise SystemExit('it broke')\n")
    with pytest.raises(ScriptFailed, match=r"fail.py exited with code 1:[\s\S]*before the error[\s\S]*it broke"):
        run_script(script)
    assert run_script(script, check=False).returncode == 1


def test_a_missing_script_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="no script at"):
        run_script(tmp_path / "nope.py")
