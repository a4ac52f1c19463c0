"""course_utils.data.files: the IDX parser, and the checksums data/README.md quotes are the ones the code checks.
"""

import numpy as np
import pytest

from course_utils import data
from course_utils.data import IdxFormatError, files, pypi


@pytest.mark.parametrize("blob, message", [
    (b"", "not an IDX file"),
    (b"PK\x03\x04rest", "not an IDX file"),
    (b"\0\0\x08", "not an IDX file"),
    (b"\0\0\x42\x01\0\0\0\x01\0", "unsupported IDX type 0x42"),
    (b"\0\0\x08\x03\0\0\0\x02", "truncated header"),
    (bytes.fromhex("00000801 00000005") + b"\1\2\3", "header (5,) says 13"),
])
def test_idx_parser_rejects_bad_files(tmp_path, blob, message):
    path = tmp_path / "bad-idx"
    path.write_bytes(blob)
    with pytest.raises(IdxFormatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        files.read_idx(path)


def test_idx_parser_roundtrip(tmp_path, fake):
    for name, blob in fake["files"].items():
        (tmp_path / name).write_bytes(blob)
        np.testing.assert_array_equal(files.read_idx(tmp_path / name), fake["arrays"][name])
    (tmp_path / "i4").write_bytes(bytes.fromhex("00000c01 00000002 00000001 fffffffe"))
    np.testing.assert_array_equal(files.read_idx(tmp_path / "i4"), [1, -2])


def test_readme_lists_the_checksums_the_code_checks():
    readme = (files.ROOT / "data" / "README.md").read_text(encoding="utf-8")
    for name, spec in data.MNIST_FILES.items():
        assert f"| `{name}` | {spec.size:,} | `{spec.md5}` |" in readme, name
    assert pypi.PYPI_MEMBER_SHA256 in readme and f"{pypi.PYPI_PACKAGE}=={pypi.PYPI_VERSION}" in readme
