"""The website's server (site/serve.py, ``make site-serve``) against what a classroom network may send it.

A real server on a free loopback port serves a small site; next to the site folder lies a file it must never hand
out. Raw sockets send what a browser would not (encoded ``..``, NUL bytes, other methods, a silent client).
"""

from __future__ import annotations

import http.client
import importlib.util
import socket
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("course_site_serve", ROOT / "site" / "serve.py")
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

SECRET = "the instructor's answer key"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("served")
    site = tmp_path / "site"
    (site / "en" / "lessons").mkdir(parents=True)
    (site / "index.html").write_text("<!DOCTYPE html><title>root</title>")
    (site / "en" / "index.html").write_text("<!DOCTYPE html><title>en</title>")
    (site / "en" / "lessons" / "05_mnist_lenet.ipynb").write_text('{"cells": []}')
    (site / "en" / "_static").mkdir()
    (site / "en" / "_static" / "x.js").write_text("1")
    (site / ".git-credentials").write_text(SECRET)
    (tmp_path / "secret.txt").write_text(SECRET)
    (site / "en" / "leak").symlink_to(tmp_path / "secret.txt")
    httpd = serve.make_server(site, "127.0.0.1", 0, verbose=False)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


def _get(port, path, method="GET"):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest(method, path, skip_accept_encoding=True)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response, body


def _raw(port, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks)


def test_serves_pages_with_headers_that_keep_them_to_this_site(server):
    response, body = _get(server, "/en/index.html")
    assert response.status == 200 and body.startswith(b"<!DOCTYPE html>")
    assert response.getheader("Content-Type") == "text/html; charset=utf-8"
    csp = response.getheader("Content-Security-Policy")
    assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
    assert response.getheader("X-Content-Type-Options") == "nosniff"
    assert "course-site" in response.getheader("Server") and "Python" not in response.getheader("Server")


def test_a_folder_is_its_index_and_a_notebook_is_a_download(server):
    assert _get(server, "/")[0].status == 200
    response, _ = _get(server, "/en")
    assert response.status == 301 and response.getheader("Location") == "/en/"
    response, body = _get(server, "/en/lessons/05_mnist_lenet.ipynb")
    assert response.status == 200 and body == b'{"cells": []}'
    assert response.getheader("Content-Type") == "application/x-ipynb+json"
    assert response.getheader("Content-Disposition") == 'attachment; filename="05_mnist_lenet.ipynb"'


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/en/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/en/..%2f..%2fsecret.txt",
    "/..%5csecret.txt", "//secret.txt", "/en/leak", "/.git-credentials", "/%2egit-credentials",
    "/en/lessons/", "/en/_static/", "/en/index.html%00.js", "/%ff%fe", "/en/nothing.html",
])
def test_nothing_outside_the_site_nor_hidden_nor_a_listing(server, path):
    response, body = _get(server, path)
    assert response.status == 404, (path, response.status)
    assert SECRET.encode() not in body


def test_raw_traversal_bytes_are_refused(server):
    answer = _raw(server, b"GET /../../secret.txt HTTP/1.0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 404") and SECRET.encode() not in answer


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_only_get_and_head(server, method):
    assert _get(server, "/en/index.html", method)[0].status == 405


def test_head_sends_no_body(server):
    response, body = _get(server, "/en/index.html", "HEAD")
    assert response.status == 200 and body == b"" and int(response.getheader("Content-Length")) > 0


def test_an_overlong_address_is_refused(server):
    assert _get(server, "/" + "a" * 5000)[0].status == 414


def test_a_silent_client_holds_no_one_up(server, monkeypatch):
    """Connections that send nothing (or half a request) neither block others nor stay open forever."""
    monkeypatch.setattr(serve.SiteHandler, "timeout", 2)      # 20 s in use; the same code path
    idle = [socket.create_connection(("127.0.0.1", server), timeout=60) for _ in range(5)]
    idle[0].sendall(b"GET /en/index.html HTTP/1.1\r\nHost: x\r\n")      # never finished
    try:
        started = time.monotonic()
        assert _get(server, "/en/index.html")[0].status == 200
        assert time.monotonic() - started < 5
        idle[1].settimeout(serve.SiteHandler.timeout + 10)
        assert idle[1].recv(1) == b"", "the server closes a connection that stays silent"
    finally:
        for s in idle:
            s.close()


def test_no_site_says_to_build_it(tmp_path):
    with pytest.raises(SystemExit, match="run make site first"):
        serve.make_server(tmp_path, "127.0.0.1", 0)


def test_listens_on_loopback_unless_told_otherwise():
    import inspect
    assert inspect.signature(serve.make_server).parameters["ip"].default == "127.0.0.1"
