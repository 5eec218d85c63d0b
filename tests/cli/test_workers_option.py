"""``--workers`` with no value: every core this process may use."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from support.layout import manifest

from jobs.main import _bare_workers
from pipeline.core.cores import available_cores


def test_a_bare_workers_option_is_every_core():
    cores = str(available_cores())
    assert _bare_workers(["tables", "--workers"]) == ["tables", "--workers", cores]
    assert _bare_workers(["tables", "-w", "--quiet"]) == ["tables", "-w", cores, "--quiet"]
    assert _bare_workers(["tables", "--workers", "3"]) == ["tables", "--workers", "3"]
    assert _bare_workers(["tables", "--workers", "-1"]) == ["tables", "--workers", "-1"]   # refused by the option


@pytest.mark.slow
def test_tables_runs_with_a_bare_workers_option(tmp_path):
    """...and leaves no folder of multiprocessing's (``pymp-*``, the fork server's socket) in the temporary
    folder: the command leaves by ``os._exit``, which runs none of multiprocessing's exit handlers."""
    # a short folder of its own: the fork server's socket lives in it, and a socket's path is capped at 107 bytes
    with tempfile.TemporaryDirectory(prefix="pp-") as temp:
        got = subprocess.run([sys.executable, "-m", "jobs", "tables", "odds-table", "--out", str(tmp_path),
                              "--quiet", "--workers"], capture_output=True, text=True, timeout=600,
                             env={**os.environ, "TMPDIR": temp})
        assert got.returncode == 0, got.stderr
        assert manifest(tmp_path, "odds-table").exists()
        assert not list(Path(temp).glob("pymp-*")), os.listdir(temp)


@pytest.mark.slow
def test_a_temporary_folder_too_long_for_a_socket_is_no_trouble(tmp_path):
    """The fork server's socket goes in ``$TMPDIR/pymp-XXXXXXXX/``; where that path would pass the 103 bytes a
    Unix socket's path may hold, multiprocessing's folder is made in /tmp instead (the run failed with a
    traceback: "AF_UNIX path too long")."""
    long = tmp_path / ("t" * 60) / ("e" * 60)
    long.mkdir(parents=True)
    got = subprocess.run([sys.executable, "-m", "jobs", "tables", "odds-table", "--out", str(tmp_path / "out"),
                          "--quiet", "--workers", "1"], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "TMPDIR": str(long)})
    assert got.returncode == 0 and got.stderr == "", got.stderr
    assert manifest(tmp_path / "out", "odds-table").exists()
