"""course_utils.doctor: every failure it can detect, provoked through replaced probes (fast, no broken machine
needed), plus real probes where they are cheap (corrupted MNIST, a busy port, a missing .venv, CANN's version file)
and one end-to-end run of the real doctor."""

import json
import os
import socket
import subprocess
import sys

import pytest

from support import ROOT
from course_utils import doctor
from course_utils.doctor import FAIL, PASS, WARN, Facts

MNIST = ROOT / "data" / "mnist"
FILES = ["train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"]
PINS = {"mindspore": "2.10.0", "numpy": "1.26.4", "jupyterlab": "4.6.6", "ipykernel": "7.4.0", "pytest": "9.2.0"}
VENV = ROOT / ".venv"


def healthy(**overrides) -> Facts:
    """Facts of a machine on which every check passes; ``overrides`` break one thing."""
    facts = dict(
        system="Linux", machine="x86_64", python_version=(3, 11, 7), python=str(VENV / "bin" / "python"),
        free_disk_gb=50.0, memory_gb=8.0, cpu_count=4, avx512=True, cpu_fixes={"ONEDNN_MAX_CPU_ISA": "AVX2"},
        venv=VENV, venv_exists=True, in_venv=True, requirements=dict(PINS), installed=dict(PINS),
        mindspore={"version": "2.10.0", "device": "CPU", "devices": {"CPU": 4}, "plugin_error": "",
                   "compile_s": 1.0, "steps_per_s": 100.0, "loss_fell": True},
        mnist={name: "ok" for name in FILES}, mnist_dir=str(MNIST),
        kernel=("python3", str(VENV / "bin" / "python")), port_busy=False,
        npu_files=[], env={}, cann_version=None, cann_accepted=[], npus_needed=2)
    facts.update(overrides)
    return Facts(**facts)


def by_name(results):
    return {r.name: r for r in results}


def only_problem(facts, name, status=FAIL):
    """Run every check; exactly ``name`` has ``status`` and everything else passed. Returns that check."""
    results = by_name(doctor.run_checks(facts))
    others = {n: r.status for n, r in results.items() if n != name and r.status not in (PASS, doctor.SKIP)}
    assert results[name].status == status, results[name]
    assert not others, others
    if status in (FAIL, WARN):
        assert results[name].fix, "a problem comes with its fix"
    return results[name]


def test_a_healthy_machine_passes_everything(tmp_path, capsys):
    out = tmp_path / "report.json"
    assert doctor.main(["--json", str(out)], facts=healthy()) == 0
    text = capsys.readouterr().out
    assert "12 passed, 0 warnings, 0 failed" in text
    report = json.loads(out.read_text())
    assert report["ok"] is True and len(report["checks"]) == 12
    assert {c["status"] for c in report["checks"]} == {PASS}


def test_exit_code_and_json_on_failure(tmp_path, capsys):
    out = tmp_path / "report.json"
    assert doctor.main(["--json", str(out)], facts=healthy(python_version=(3, 13, 1))) == 1
    report = json.loads(out.read_text())
    assert report["ok"] is False
    python = next(c for c in report["checks"] if c["name"] == "Python")
    assert python["status"] == FAIL and "make setup PYTHON=python3.11" in python["fix"]
    assert "How to fix:" in capsys.readouterr().out


def test_wrong_python():
    check = only_problem(healthy(python_version=(3, 13, 1)), "Python")
    assert "needs Python 3.9-3.11" in check.detail


def test_unusual_platform_warns():
    only_problem(healthy(system="Darwin", machine="arm64"), "OS and architecture", WARN)


def test_low_disk_and_memory():
    assert "0.5 GB free" in only_problem(healthy(free_disk_gb=0.5), "Free disk").detail
    only_problem(healthy(free_disk_gb=2.0), "Free disk", WARN)
    assert "0.5 GB available" in only_problem(healthy(memory_gb=0.5), "Free memory").detail


def test_cpu_names_the_fixes_that_apply():
    check = by_name(doctor.run_checks(healthy()))["CPU"]
    assert "AVX-512" in check.detail and "ONEDNN_MAX_CPU_ISA=AVX2" in check.detail


def test_missing_venv_is_found_for_real(tmp_path):
    """A checkout without .venv (real probes of a folder that has none)."""
    facts = healthy(root=tmp_path)
    for name in ("venv", "venv_exists", "in_venv"):
        del facts._values[name]
    facts.root = tmp_path
    check = only_problem(facts, ".venv")
    assert check.detail == f"{tmp_path / '.venv'} does not exist" and check.fix == "Run `make setup`."


def test_numpy_2_in_the_environment():
    check = only_problem(healthy(installed={**PINS, "numpy": "2.1.3"}), "Pinned packages")
    assert "NumPy 2.1.3 installed" in check.detail and "numpy==1.26.4" in check.fix


def test_packages_that_do_not_match_the_pins():
    check = only_problem(healthy(installed={k: v for k, v in PINS.items() if k != "jupyterlab"}), "Pinned packages")
    assert "jupyterlab missing" in check.detail
    check = only_problem(healthy(installed={**PINS, "pytest": "8.0.0"}), "Pinned packages", WARN)
    assert "pytest 8.0.0 (pinned 9.2.0)" in check.detail


def test_an_image_mindspore_in_the_supported_range_is_accepted():
    results = by_name(doctor.run_checks(healthy(installed={**PINS, "mindspore": "2.7.1"})))
    assert results["Pinned packages"].status == PASS and "MindSpore 2.7.1" in results["Pinned packages"].detail
    check = only_problem(healthy(installed={**PINS, "mindspore": "2.6.0"}), "Pinned packages")
    assert "2.7.1 to 2.10.x" in check.detail


def test_mindspore_that_does_not_import():
    check = only_problem(healthy(mindspore={"error": "ImportError: libgomp.so.1: cannot open"}), "MindSpore")
    assert "does not import: ImportError: libgomp" in check.detail


def test_slow_training_step_warns_with_the_reason():
    ms = {**healthy().mindspore, "steps_per_s": 4.0}
    check = only_problem(healthy(mindspore=ms), "Training step", WARN)
    assert "4 steps/s" in check.detail and "22x their stated time" in check.detail and "busy machine" in check.fix


def test_missing_data():
    check = only_problem(healthy(mnist={**{n: "ok" for n in FILES}, FILES[1]: "missing"}), "MNIST")
    assert f"missing: {FILES[1]}" in check.detail and "make data" in check.fix


def test_corrupted_data_is_found_for_real(tmp_path):
    """Real verification (checksums) of a copy of MNIST with one byte changed."""
    for name in FILES:
        os.link(MNIST / name, tmp_path / name)
    victim = tmp_path / FILES[3]
    victim.unlink()
    data = bytearray((MNIST / FILES[3]).read_bytes())
    data[100] ^= 0xFF
    victim.write_bytes(bytes(data))
    facts = healthy(mnist_dir=str(tmp_path))
    del facts._values["mnist"]
    check = only_problem(facts, "MNIST")
    assert check.detail == f"damaged (checksum mismatch): {FILES[3]} in {tmp_path}"
    facts = healthy(mnist_dir=str(MNIST))
    del facts._values["mnist"]
    assert by_name(doctor.run_checks(facts, [doctor.check_mnist]))["MNIST"].status == PASS


def test_kernel_missing_or_of_another_python():
    assert "not registered" in only_problem(healthy(kernel=None), "Course kernel").detail
    check = only_problem(healthy(kernel=("python3", "/opt/conda/bin/python")), "Course kernel")
    assert f"runs /opt/conda/bin/python, not {VENV / 'bin'}/python" in check.detail


def test_busy_port_is_found_for_real():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        facts = healthy(port=port)
        del facts._values["port_busy"]
        check = only_problem(facts, "JupyterLab port")
    assert f"127.0.0.1:{port} is in use" in check.detail and f"make lab PORT={port + 1}" in check.fix


def test_a_crashing_check_is_a_failure_not_a_crash():
    def check_boom(facts):
        raise OSError("disk on fire")

    results = doctor.run_checks(healthy(), [check_boom])
    assert results[0].status == FAIL and "OSError: disk on fire" in results[0].detail


# ---- Ascend ------------------------------------------------------------------------------

def ascend(tmp_path, version="8.3.RC1", npus=8, **overrides):
    home = tmp_path / "ascend-toolkit" / "latest"
    (home / "compiler").mkdir(parents=True)
    (home / "compiler" / "version.info").write_text(f"Version={version}\nversion_dir=8.3\n")
    env = {"ASCEND_HOME_PATH": str(home), "ASCEND_OPP_PATH": str(home / "opp")}
    ms = {**healthy().mindspore, "device": "Ascend", "devices": {"Ascend": npus, "CPU": 4}, "steps_per_s": 3.0}
    facts = healthy(**{"npu_files": ["/dev/davinci0"], "env": env, "mindspore": ms, **overrides})
    for name in ("cann_version", "cann_accepted"):  # real: the version file, and this MindSpore's own list
        del facts._values[name]
    return facts


def test_cann_accepted_versions_come_from_mindspore_itself():
    import mindspore

    accepted = doctor._mindspore_cann_versions()
    if mindspore.__version__.startswith("2.10"):
        assert accepted == ["8.2", "8.3", "8.5", "9.0", "9.1"]
    elif mindspore.__version__.startswith("2.7"):
        assert accepted == ["7.8", "8.2", "8.3"]
    assert accepted


def test_ascend_machine_that_is_ready(tmp_path):
    results = by_name(doctor.run_checks(ascend(tmp_path)))
    assert results["CANN environment"].status == PASS
    assert results["CANN version"].status == PASS and "CANN 8.3, accepted" in results["CANN version"].detail
    assert results["NPUs"].status == PASS
    assert results["Training step"].status == PASS, "no CPU speed range on an NPU"


def test_cann_not_sourced():
    """NPU device files, but CANN's set_env.sh was not sourced: MindSpore's plugin fails, so no NPU either."""
    ms = {**healthy().mindspore, "plugin_error": "Load dynamic library: libmindspore_ascend.so.2 failed. "
                                                 "libge_runner.so: cannot open shared object file"}
    results = by_name(doctor.run_checks(healthy(npu_files=["/dev/davinci0"], env={}, mindspore=ms)))
    assert results["CANN environment"].status == FAIL and "not set" in results["CANN environment"].detail
    assert "set_env.sh" in results["CANN environment"].fix
    assert results["NPUs"].status == FAIL and "libge_runner.so" in results["NPUs"].detail
    assert [n for n, r in results.items() if r.status != PASS] == ["CANN environment", "NPUs"]


def test_cann_version_this_mindspore_does_not_accept(tmp_path):
    check = only_problem(ascend(tmp_path, version="7.0.0"), "CANN version")
    assert "CANN 7.0; MindSpore 2.10.0 accepts CANN " + ", ".join(doctor._mindspore_cann_versions()) in check.detail


def test_fewer_npus_than_a_lesson_needs(tmp_path):
    check = only_problem(ascend(tmp_path, npus=1), "NPUs", WARN)
    assert "1 NPU; notebook 09 starts 2 workers" in check.detail and "DEVICE_TARGET CPU" in check.fix
    no_plugin = {"version": "2.10.0", "device": "CPU", "devices": {"CPU": 4}, "steps_per_s": 90.0, "compile_s": 1,
                 "plugin_error": "libge_runner.so"}
    check = only_problem(ascend(tmp_path / "b", npus=0, mindspore=no_plugin), "NPUs")
    assert "sees no NPU" in check.detail and "libge_runner.so" in check.detail


def test_npus_needed_reads_the_notebooks():
    assert Facts().npus_needed == 2, "notebook 09 declares WORKERS: int = 2"


@pytest.mark.slow
def test_real_doctor_end_to_end(tmp_path):
    """The real doctor on this machine (fake one-NPU Ascend with CANN 8.3 for the Ascend checks): the JSON has
    every check; nothing fails except what this test environment cannot have."""
    home = tmp_path / "cann"
    (home / "compiler").mkdir(parents=True)
    (home / "compiler" / "version.info").write_text("Version=8.3.RC1\n")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    out = tmp_path / "doctor.json"
    proc = subprocess.run([sys.executable, "-m", "course_utils.doctor", "--json", str(out), "--port", str(port)],
                          capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "COURSE_FAKE_DEVICE": "Ascend:1", "ASCEND_HOME_PATH": str(home),
                               "ASCEND_OPP_PATH": str(home / "opp")})
    report = json.loads(out.read_text())
    checks = {c["name"]: c for c in report["checks"]}
    assert list(checks) == ["OS and architecture", "Python", "Free disk", "Free memory", "CPU", ".venv",
                            "Pinned packages", "MindSpore", "Training step", "MNIST", "Course kernel",
                            "JupyterLab port", "CANN environment", "CANN version", "NPUs"], proc.stdout
    failed = [n for n, c in checks.items() if c["status"] == FAIL]
    assert failed == [] and proc.returncode == 0, proc.stdout + proc.stderr
    assert checks["NPUs"]["status"] == WARN and "1 NPU" in checks["NPUs"]["detail"]
    assert checks["MindSpore"]["detail"].endswith("device Ascend")
    assert "| " not in proc.stdout and f"127.0.0.1:{port} is free" in proc.stdout
    assert report["seconds"] < 600


def test_on_an_image_the_registered_kernel_of_this_python_counts():
    """No .venv on an Ascend image: the course runs in the image's environment, with a kernel registered for it."""
    image = dict(venv_exists=False, in_venv=False, npu_files=["/dev/davinci0"], python="/opt/env/bin/python",
                 env={"ASCEND_HOME_PATH": "/x", "ASCEND_OPP_PATH": "/x/opp"}, cann_version="8.3",
                 cann_accepted=["8.2", "8.3"],
                 mindspore={**healthy().mindspore, "device": "Ascend", "devices": {"Ascend": 2, "CPU": 4}})
    results = by_name(doctor.run_checks(healthy(kernel=("mindspore-course", "/opt/env/bin/python"), **image)))
    assert {n: r.status for n, r in results.items() if r.status != PASS} == {}
    results = by_name(doctor.run_checks(healthy(kernel=None, **image)))
    assert results["Course kernel"].status == WARN and "ipykernel install --user" in results["Course kernel"].fix
