"""The storage layer's two guarantees: nothing written through a symbolic link, one writer per folder."""
import json
import os
import socket

import pytest

from pipeline.batch.storage import LOCK, Storage, StorageError


def test_links_below_the_root_are_refused(tmp_path):
    out, elsewhere = tmp_path / "out", tmp_path / "elsewhere"
    (out / "ds").mkdir(parents=True)
    elsewhere.mkdir()
    (elsewhere / "keep").write_bytes(b"x")
    os.symlink(elsewhere, out / "ds" / "_checksums")
    s = Storage.open(out)
    for call in (lambda: s.remove("ds", "_checksums", "keep"), lambda: list(s.files("ds", "_checksums")),
                 lambda: s.write_atomic(b"y", "ds", "_checksums", "new")):
        with pytest.raises(StorageError, match="_checksums is a symbolic link"):
            call()
    assert sorted(os.listdir(elsewhere)) == ["keep"]


def test_the_root_itself_may_be_a_link(tmp_path):
    (tmp_path / "real").mkdir()
    os.symlink(tmp_path / "real", tmp_path / "out")
    s = Storage.open(tmp_path / "out")
    s.write_atomic(b"y", "f")
    assert (tmp_path / "real" / "f").read_bytes() == b"y"


@pytest.mark.parametrize("content", [b"", b"{", b'{"pid": "x"}', b"[]"])
def test_unreadable_lock_is_taken_over(tmp_path, content, capsys):
    s = Storage.open(tmp_path)
    (tmp_path / LOCK).write_bytes(content)
    with s.lock():
        assert json.loads((tmp_path / LOCK).read_bytes())["pid"] == os.getpid()
    assert not (tmp_path / LOCK).exists()
    assert "could not be read" in capsys.readouterr().err


def test_live_holder_refuses_dead_holder_is_replaced(tmp_path):
    s = Storage.open(tmp_path)
    with s.lock():
        with pytest.raises(StorageError, match=f"being written by pid {os.getpid()}"):
            with s.lock():
                pass
    (tmp_path / LOCK).write_text(json.dumps({"pid": 2 ** 31 - 2, "host": socket.gethostname()}))
    with s.lock():
        pass
    (tmp_path / LOCK).write_text(json.dumps({"pid": 1, "host": "another-host"}))
    with pytest.raises(StorageError, match="on another-host"):
        with s.lock():
            pass


def test_an_empty_location_is_refused_not_taken_for_the_current_folder(tmp_path, monkeypatch):
    """``Path("")`` is the current folder: ``--out ""`` wrote there, and reported its files at ``/``."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StorageError, match=r"^--out is empty: give a folder \('\.' for the current one\) or a URL$"):
        Storage.open("")
    assert Storage.open(".").url("f") == "./f"
    assert not any(tmp_path.iterdir())
