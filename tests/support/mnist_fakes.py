"""Fake MNIST files, a local HTTP server and a read-only folder: the fixtures of course_utils.data's tests.

The fetch logic runs on small fake IDX files with their own checksum table (the ``fake`` fixture swaps
``course_utils.data.fetch.SOURCES``), served by a local HTTP server on 127.0.0.1 (``serve``). tests/conftest.py
registers this module as a plugin (its fixtures are found by name); the plain helpers are imported from here.
"""

import gzip
import hashlib
import http.server
import os
import threading
import time

import numpy as np
import pytest

from course_utils import data
from course_utils.data import fetch, files
from course_utils.data.files import FileSpec
from course_utils.ports import free_port

NAMES = list(data.MNIST_FILES)


def spec_of(blob: bytes) -> FileSpec:
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
    return {"arrays": arrays, "files": blobs, "checksums": {n: spec_of(b) for n, b in blobs.items()}}


@pytest.fixture
def fake(fake_files, monkeypatch):
    """The fake files, with ``ensure_mnist``/``verify_mnist`` expecting their checksums for this test."""
    monkeypatch.setattr(fetch, "SOURCES", fetch.Sources(checksums=fake_files["checksums"]))
    return fake_files


def write_files(folder, blobs):
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


def gz_routes(blobs):
    return {f"{name}.gz": gzip.compress(blob) for name, blob in blobs.items()}


def closed_port_url():
    return f"http://127.0.0.1:{free_port()}/mnist/"   # nothing listens there: connection refused


def ensure(folder, fake, **kwargs):
    kwargs.setdefault("mirrors", [])
    kwargs.setdefault("pypi", False)
    kwargs.setdefault("timeout", 5.0)   # generous: the machine running the tests may be busy
    return data.ensure_mnist(folder, **kwargs)


def assert_files(folder, fake):
    for name, blob in fake["files"].items():
        assert (folder / name).read_bytes() == blob, name


@pytest.fixture
def read_only(monkeypatch):
    """``read_only(folder)``: from now on nothing inside ``folder`` can be created, replaced or removed, as on a
    read-only mount (the tests run as any user, root included, for whom permission bits would not stop a write)."""
    import builtins
    import errno

    folders = []

    def inside(path) -> bool:
        try:
            path = os.path.abspath(os.fspath(path))
        except TypeError:      # a file descriptor
            return False
        return any(path == f or path.startswith(f + os.sep) for f in folders)

    def refuse(path):
        raise OSError(errno.EROFS, "Read-only file system", os.fspath(path))

    real = {name: getattr(os, name) for name in ("replace", "rename", "unlink", "remove", "mkdir", "open")}
    real_open = builtins.open

    def guard(name):
        def call(path, *args, **kwargs):
            if name in ("replace", "rename"):
                if inside(path) or inside(args[0]):
                    refuse(path)
            elif name == "mkdir" and inside(path):
                if os.path.exists(path):
                    raise FileExistsError(errno.EEXIST, "File exists", os.fspath(path))
                refuse(path)
            elif name == "open" and inside(path) and args and args[0] & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
                refuse(path)
            elif name in ("unlink", "remove") and inside(path):
                refuse(path)
            return real[name](path, *args, **kwargs)
        return call

    def guarded_open(file, mode="r", *args, **kwargs):
        if inside(file) and any(c in mode for c in "wax+"):
            refuse(file)
        return real_open(file, mode, *args, **kwargs)

    for name in real:
        monkeypatch.setattr(os, name, guard(name))
    monkeypatch.setattr(builtins, "open", guarded_open)
    return lambda folder: folders.append(os.path.abspath(folder))


@pytest.fixture(scope="module")
def real_mnist():
    """The course's real MNIST folder (make test runs make data first; fetched here otherwise)."""
    return data.ensure_mnist()
