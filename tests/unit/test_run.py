"""course_utils.run: parameter planning, fail-fast checks, the runner (course_utils.execute) and its summary.
The command line is tested in-process (``run.main([...])``): it needs no fresh interpreter."""

import json
from pathlib import Path

import nbformat
import pytest

from course_utils import run
from course_utils.lessons import Lesson


def _lesson(number, slug, **kwargs):
    return Lesson(number, slug, {"en": slug}, {"en": slug}, **kwargs)


#: The lessons of the small course the tests run (notebooks written by the ``nbdir`` fixture and the tests).
MANIFEST = (_lesson("00", "alpha"), _lesson("01", "beta"))
WITH_DEVICES = MANIFEST + (_lesson("02", "dev"), _lesson("03", "dp", workers_parameter="WORKERS"))


def find(selection=None, root=None, manifest=MANIFEST):
    return run.find_notebooks(selection, root=root, manifest=manifest)


def make_notebook(path, params_src, body_src):
    nb = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell(params_src)
    params.metadata["tags"] = ["parameters"]
    nb.cells = [nbformat.v4.new_markdown_cell("# test"), params, nbformat.v4.new_code_cell(body_src)]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


@pytest.fixture
def nbdir(tmp_path):
    """A course of two lessons (``MANIFEST``) in ``tmp_path/notebooks``; returns that folder."""
    (tmp_path / "notebooks").mkdir()
    make_notebook(tmp_path / "notebooks" / "00_alpha.ipynb", "EPOCHS: int = 1\nQUICK: bool = True",
                  "from course_utils.run import record\nrecord(epochs=EPOCHS, quick=QUICK)")
    make_notebook(tmp_path / "notebooks" / "01_beta.ipynb", "LR: float = 0.1",
                  "from course_utils.run import record\nassert LR > 0, 'LR must be positive'\nrecord(lr=LR)")
    return tmp_path / "notebooks"


def test_parse_parameters():
    g, s = run.parse_parameters(["EPOCHS=3", "LR=0.5", "NAME=abc", "04:QUICK=False", "X=a=b"])
    assert g == {"EPOCHS": "3", "LR": "0.5", "NAME": "abc", "X": "a=b"}, "text: each notebook's declaration converts it"
    assert s == {"04": {"QUICK": "False"}}
    with pytest.raises(run.RunError, match="not NAME=VALUE"):
        run.parse_parameters(["EPOCHS"])


def test_find_notebooks(nbdir):
    assert find(None, nbdir.parent) == [nbdir / "00_alpha.ipynb", nbdir / "01_beta.ipynb"]
    assert [p.name for p in find(["1", "00_alpha", "01"])] == ["01_beta.ipynb", "00_alpha.ipynb"]
    with pytest.raises(run.RunError, match="no lesson '07': the lessons are 00_alpha, 01_beta"):
        find(["07"])
    assert run.find_notebooks(["5"], "zh")[0].relative_to(run.ROOT).as_posix() == "notebooks/zh/05_mnist_lenet.ipynb"


def test_undeclared_parameter_is_an_error(nbdir):
    nbs = find(None, nbdir.parent)
    with pytest.raises(run.RunError, match="'EPOCH' is not declared by any selected notebook"):
        run.plan_parameters(nbs, {"EPOCH": 3}, {})
    with pytest.raises(run.RunError, match="01_beta does not declare parameter 'EPOCHS'"):
        run.plan_parameters(nbs, {}, {"01": {"EPOCHS": 3}})


def test_plan_routes_parameters_and_full(nbdir):
    a, b = find(None, nbdir.parent)
    plan = run.plan_parameters([a, b], {"EPOCHS": 3, "LR": 0.2}, {}, full=True)
    assert plan[a] == {"EPOCHS": 3, "QUICK": False}
    assert plan[b] == {"LR": 0.2}


def test_missing_device_fails_fast(nbdir, monkeypatch):
    """Without ``found``, the machine is asked once (probe_devices, faked here: asking MindSpore in a child
    process is test_probe_devices_reports_the_fake_npu's part)."""
    probes = []
    monkeypatch.setattr(run, "probe_devices", lambda: probes.append(1) or {"CPU": 2})
    make_notebook(nbdir / "02_dev.ipynb", 'DEVICE_TARGET: str = "auto"', "pass")
    nbs = find(["02"], nbdir.parent, WITH_DEVICES)
    with pytest.raises(run.RunError, match=r"02_dev: DEVICE_TARGET='Ascend' is not available on this machine "
                                           r"\(MindSpore found: CPU\)"):
        run.check_devices(nbs, {nbs[0]: {"DEVICE_TARGET": "Ascend"}})
    assert probes == [1]
    assert run.check_devices(nbs, {nbs[0]: {"DEVICE_TARGET": "cpu"}}) == {nbs[0]: "CPU"}
    assert run.check_devices(nbs, {}, found={"Ascend": 8, "CPU": 2}) == {nbs[0]: "Ascend"}, "auto: the best found"
    assert run.check_devices(find(["00"], nbdir.parent, WITH_DEVICES), {}) == {}, "no DEVICE_TARGET, nothing to check"


def test_every_notebook_device_is_checked_not_only_the_last(nbdir):
    """Each notebook's own DEVICE_TARGET counts (its parameter, else its default), and a notebook with WORKERS on
    Ascend needs one NPU per worker."""
    make_notebook(nbdir / "02_dev.ipynb", 'DEVICE_TARGET: str = "Ascend"', "pass")
    make_notebook(nbdir / "03_dp.ipynb", 'DEVICE_TARGET: str = "auto"\nWORKERS: int = 2', "pass")
    a, b = find(["02", "03"], nbdir.parent, WITH_DEVICES)
    with pytest.raises(run.RunError, match="02_dev: DEVICE_TARGET='Ascend' is not available"):
        run.check_devices([a, b], {b: {"DEVICE_TARGET": "CPU"}}, found={"CPU": 2}, manifest=WITH_DEVICES)
    one_npu = {"Ascend": 1, "CPU": 2}
    needs_two = r"03_dp: 2 workers on Ascend need 2 NPUs .* has 1\. .*-p 03:DEVICE_TARGET=CPU"
    with pytest.raises(run.RunError, match=needs_two):
        run.check_devices([a, b], {}, found=one_npu, manifest=WITH_DEVICES)
    assert run.check_devices([a, b], {b: {"DEVICE_TARGET": "CPU"}}, found=one_npu,
                             manifest=WITH_DEVICES) == {a: "Ascend", b: "CPU"}
    assert run.check_devices([b], {b: {"WORKERS": 1}}, found=one_npu, manifest=WITH_DEVICES) == {b: "Ascend"}


def test_probe_devices_reports_the_fake_npu(monkeypatch):
    from course_utils import runtime

    monkeypatch.setenv("COURSE_FAKE_DEVICE", "Ascend:1")
    assert run.probe_devices() == {"Ascend": 1, "CPU": runtime.cpu_count()}


def test_cli_stops_on_a_one_npu_machine_before_running(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("COURSE_FAKE_DEVICE", "Ascend:1")
    assert run.main(["-n", "09", "--out", str(tmp_path)]) == 2
    assert "09_data_parallel: 2 workers on Ascend need 2 NPUs" in capsys.readouterr().err
    assert not list(tmp_path.iterdir()), "nothing may run"


def test_summary_names_cpu_fixes_only_for_cpu_notebooks(nbdir):
    a, b = find(None, nbdir.parent)
    ascend = run.run_header("now", {a: "Ascend", b: "Ascend"}, "python3", "/x/python", False)
    assert ascend["device"] == "Ascend" and not any("CPU fixes" in k for k in ascend)
    assert ascend["kernel"] == "python3 (/x/python)"
    mixed = run.run_header("now", {a: "Ascend", b: "CPU"}, "python3", "/x/python", False)
    assert mixed["device"] == "00: Ascend, 01: CPU" and "CPU fixes (CPU notebooks)" in mixed


def test_kernel_is_one_that_runs_this_python(tmp_path, monkeypatch):
    import sys

    name, python = run.course_kernel()
    assert run._same_python(python), (name, python)
    # an image whose "python3" kernel is another environment: refused, with the command that fixes it
    other = tmp_path / "kernels" / "python3"
    other.mkdir(parents=True)
    (other / "kernel.json").write_text(json.dumps({"argv": ["/opt/other-env/bin/python", "-m", "ipykernel_launcher",
                                                            "-f", "{connection_file}"],
                                                   "display_name": "Other", "language": "python"}))
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path))
    monkeypatch.setenv("JUPYTER_DATA_DIR", str(tmp_path / "nothing"))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "noprefix"))
    with pytest.raises(run.RunError, match=r"No Jupyter kernel runs this Python .*python3 -> /opt/other-env/bin/python"
                                           r".*ipykernel install --user --name mindspore-course"):
        run.course_kernel()
    with pytest.raises(run.RunError, match="No Jupyter kernel named 'nope'"):
        run.course_kernel("nope")


def test_runner_executes_records_and_summarises(nbdir, tmp_path):
    nbs = find(None, nbdir.parent)
    plan = run.plan_parameters(nbs, {"EPOCHS": 4, "LR": -1.0}, {})
    out = tmp_path / "out"
    rows = run.run_notebooks(nbs, plan, out, timeout=120, log=lambda *_: None)
    assert rows[0]["status"] == "ok" and rows[0]["metrics"] == {"epochs": 4, "quick": True}
    assert rows[1]["status"] == "failed" and "LR must be positive" in rows[1]["error"]
    text = run.write_summary(rows, out, {"started": "now", "machine": "test"})
    assert "| 00_alpha | ok |" in text and "epochs=4" in text
    assert json.loads((out / "summary.json").read_text())["notebooks"][1]["status"] == "failed"
    assert (out / "00_alpha.ipynb").exists(), "the executed notebook is kept in the run folder"


def test_relative_out_dir_still_collects_metrics(nbdir, tmp_path, monkeypatch):
    """--out runs/x is relative to where the runner starts, not to the notebook's folder (the kernel's cwd)."""
    start = tmp_path / "elsewhere"  # not the notebooks' folder
    start.mkdir()
    monkeypatch.chdir(start)
    nbs = find(["00"], nbdir.parent, WITH_DEVICES)
    rows = run.run_notebooks(nbs, {}, Path("rel") / "out", timeout=120, log=lambda *_: None)
    assert rows[0]["metrics"] == {"epochs": 1, "quick": True}
    assert (start / "rel" / "out" / "00_alpha.metrics.json").exists()


def test_record_rejects_non_scalars():
    with pytest.raises(TypeError, match="numbers or short strings"):
        run.record(bad=[1, 2])


def test_cli_rejects_undeclared_parameter_before_running(capsys):
    assert run.main(["-n", "00", "-p", "NOPE=1"]) == 2
    assert "'NOPE' is not declared" in capsys.readouterr().err


@pytest.mark.slow
def test_notebook_00_takes_non_default_parameters(tmp_path):
    """papermill run of the real notebook 00 with non-default parameters: they must take effect."""
    nb = run.find_notebooks(["00"])
    plan = run.plan_parameters(nb, {"MODE": "pynative", "SEED": 7}, {})
    rows = run.run_notebooks(nb, plan, tmp_path, timeout=600, log=lambda *_: None)
    assert rows[0]["status"] == "ok", rows[0]["error"]
    assert rows[0]["metrics"]["mode"] == "PYNATIVE_MODE"
    assert rows[0]["metrics"]["seed"] == 7
    executed = nbformat.read(tmp_path / nb[0].name, as_version=4)
    text = "".join(o.get("text", "") for c in executed.cells if c.cell_type == "code" for o in c.outputs)
    assert "PYNATIVE_MODE | seed 7" in text


def test_values_are_converted_to_the_declared_type_or_refused(nbdir):
    """-p 00:QUICK=false is the bool False (not the truthy string "false"); -p 00:EPOCHS=2.5 is refused for an int,
    naming the parameter, its declared type and the value."""
    a, b = find(None, nbdir.parent)
    g, s = run.parse_parameters(["00:QUICK=false", "00:EPOCHS=2.0", "LR=3"])
    plan = run.plan_parameters([a, b], g, s)
    assert plan[a] == {"QUICK": False, "EPOCHS": 2} and type(plan[a]["EPOCHS"]) is int
    assert plan[b] == {"LR": 3.0} and type(plan[b]["LR"]) is float
    for item, message in (("00:EPOCHS=2.5", r"00_alpha: parameter EPOCHS is declared `int` .* '2\.5' is not a whole"),
                          ("00:QUICK=maybe", r"parameter QUICK is declared `bool` .* 'maybe' is not True or False"),
                          ("00:QUICK=1.0", r"parameter QUICK is declared `bool` .* '1\.0' is not True or False"),
                          ("LR=fast", r"01_beta: parameter LR is declared `float` .* 'fast' is not a number")):
        with pytest.raises(run.RunError, match=message):
            run.plan_parameters([a, b], *run.parse_parameters([item]))


def test_lists_and_text_parameters_are_converted(tmp_path):
    nb = make_notebook(tmp_path / "05_lab.ipynb", 'SIZES: list = [32, 64]\nNAME: str = "x"\nN: List[int] = [1]', "pass")
    plan = run.plan_parameters([nb], *run.parse_parameters(["SIZES=[8, 16]", "NAME=123", "N=[2.0, 3]"]))
    assert plan[nb] == {"SIZES": [8, 16], "NAME": "123", "N": [2, 3]}
    with pytest.raises(run.RunError, match=r"SIZES is declared `list` .* '8' is not a list"):
        run.plan_parameters([nb], *run.parse_parameters(["SIZES=8"]))
    with pytest.raises(run.RunError, match=r"N is declared `List\[int\]` .* 2\.5 in '\[2\.5\]' is not a whole"):
        run.plan_parameters([nb], *run.parse_parameters(["N=[2.5]"]))


def test_a_failed_run_does_not_report_the_previous_runs_metrics(nbdir, tmp_path):
    """--out reused: the metrics file of an earlier run is gone before the notebook runs."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "01_beta.metrics.json").write_text(json.dumps({"lr": 0.1}))
    nbs = find(["01"], nbdir.parent, WITH_DEVICES)
    rows = run.run_notebooks(nbs, {nbs[0]: {"LR": -1.0}}, out, timeout=120, log=lambda *_: None)
    assert rows[0]["status"] == "failed" and rows[0]["metrics"] == {}


def test_quick_runs_take_the_manifests_quick_parameters_unless_given(nbdir):
    quick = (_lesson("00", "alpha", quick={"EPOCHS": 1, "QUICK": True}), _lesson("01", "beta", quick={"LR": 0.5}))
    a, b = find(None, nbdir.parent, quick)
    scoped = run.quick_parameters([a, b], {"LR": "0.2"}, {"00": {"EPOCHS": "3"}}, quick)
    assert scoped == {"00": {"EPOCHS": "3", "QUICK": True}}, "what the user gave wins, globally or per notebook"
    assert run.quick_parameters([b], {}, {}, quick) == {"01": {"LR": 0.5}}, "only the selected lessons"
    real = run.quick_parameters(run.find_notebooks(["05"]), {}, {})
    assert real == {"05": {"TRAIN_SUBSET": 6000, "EPOCHS": 1}}
