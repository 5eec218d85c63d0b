"""``--scheduler`` at something that is not a Dask scheduler: one line, exit 2, never a traceback.

A web server's ``HTTP/1.1 400`` was read by Dask as the length of a frame (3.07 EiB) and crashed with
``_ArrayMemoryError``; bytes that are framed but do not decode crashed with msgpack's ``FormatError``.  The
servers here are threads of this process on 127.0.0.1.
"""
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pipeline.batch.errors import RunnerError
from pipeline.batch.session import Session

ROOT = Path(__file__).parents[2]

HTTP_400 = b"HTTP/1.1 400 Bad Request\r\n\r\n"
# Dask's TCP framing (total length, frame count, frame lengths) around 8 bytes that msgpack cannot decode
UNDECODABLE = struct.pack("<QQQ", 24, 1, 8) + b"\xc1" * 8


@pytest.fixture(params=["http", "undecodable"])
def not_dask(request):
    """``tcp://127.0.0.1:PORT`` of a server that answers every connection with something other than Dask: a web
    server's 400 once it has read the request, or undecodable bytes at once."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    port = server.getsockname()[1]

    def serve():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:               # closed at the test's end
                return
            with conn:
                try:
                    if request.param == "http":
                        conn.recv(1000)
                        conn.sendall(HTTP_400)
                    else:
                        conn.sendall(UNDECODABLE)
                        conn.recv(1000)
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{port}"
    server.close()


@pytest.mark.slow
def test_a_server_that_is_not_dask_is_refused(not_dask):
    with Session(scheduler=not_dask, quiet=True) as session:
        with pytest.raises(RunnerError, match=f"^not a Dask scheduler at {not_dask}") as e:
            session.connect()
    assert "\n" not in str(e.value)


@pytest.mark.slow
def test_the_command_line_refuses_a_server_that_is_not_dask(not_dask, tmp_path):
    p = subprocess.run([sys.executable, "-m", "jobs", "tables", "odds-table", "--out", str(tmp_path / "x"),
                        "--force", "--quiet", "--scheduler", not_dask], capture_output=True, text=True, timeout=120,
                       cwd=ROOT)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith(f"pokerpipe: error: not a Dask scheduler at {not_dask}")
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr, p.stderr


@pytest.mark.parametrize("address, words", [("tcp://", "missing port number"),
                                            ("tcp://127.0.0.1:abc", "invalid literal")])
def test_a_malformed_scheduler_address_is_named(address, words):
    with Session(scheduler=address, quiet=True) as session:
        with pytest.raises(RunnerError, match=f"^--scheduler '{address}': .*{words}"):
            session.connect()


# --dashboard-address at an address of another machine (192.0.2.1 is TEST-NET-1, documentation only: no machine
# has it) failed the cluster's start with a traceback; refused now before anything starts or is written
@pytest.mark.parametrize("address, why", [("192.0.2.1:8787", "Cannot assign requested address"),
                                          ("no-such-host.invalid:8787", ""),
                                          ("[::1]:8787", "expected HOST:PORT")])
def test_a_dashboard_address_this_machine_cannot_listen_on_is_refused_first(address, why, tmp_path, capsys):
    from jobs.main import main

    code = main(["tables", "odds-table", "--out", str(tmp_path), "--force", "--dashboard-address", address])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"pokerpipe: error: --dashboard-address {address!r}: ") and why in err, err
    assert not any(tmp_path.iterdir())


@pytest.mark.slow
def test_a_local_cluster_that_fails_to_start_is_one_line(monkeypatch):
    """Whatever else stops Dask's local cluster from starting (here made to fail as it did for 8.8.8.8) is a
    RunnerError, not Dask's RuntimeError."""
    import distributed

    def fails(*args, **kwargs):
        raise RuntimeError("Cluster failed to start: [Errno 99] Cannot assign requested address")

    monkeypatch.setattr(distributed, "LocalCluster", fails)
    with Session(workers=1, dashboard=True, quiet=True) as session:
        with pytest.raises(RunnerError, match=r"^cannot start the local Dask cluster: Cluster failed to start: "):
            session.connect()


# `tables --workers 4 --scheduler tcp://...` ran on the cluster's workers, ignoring the count without a word
def test_workers_with_a_scheduler_is_refused_before_anything_starts(tmp_path, capsys):
    from jobs.main import main

    with pytest.raises(RunnerError, match=r"^--workers 4 and --scheduler exclude each other"):
        Session(workers=4, scheduler="tcp://127.0.0.1:1", quiet=True)
    code = main(["tables", "odds-table", "--out", str(tmp_path), "--workers", "4", "--scheduler",
                 "tcp://127.0.0.1:1"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith("pokerpipe: error: --workers 4 and --scheduler exclude each other"), err
    assert not any(tmp_path.iterdir())
