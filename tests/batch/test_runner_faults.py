"""Faults in a batch run end in one line and exit 2 (or a clean resume), never a traceback."""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from support import tiny_datasets
from support.layout import beside, manifest

from pipeline.batch.runner import MANIFEST, RunnerError
from pipeline.datasets import build

HERE = Path(__file__).parent


def test_part_that_cannot_be_written(tmp_path):
    (tmp_path / "squares" / "part-00003.parquet").mkdir(parents=True)    # a folder where the part goes
    with pytest.raises(RunnerError, match="part-00003.parquet is a folder, not a file") as e:
        build(tiny_datasets.job(), tmp_path, workers=1)     # what is wrong (issue 39), not "cannot write"
    assert "\n" not in str(e.value)
    assert not list((tmp_path / "squares").glob(".*.tmp"))
    assert not manifest(tmp_path, "squares").exists()


def test_manifest_that_is_a_folder(tmp_path):
    manifest(tmp_path, "squares").mkdir(parents=True)
    with pytest.raises(RunnerError, match="_manifest.json is a folder, not a file"):
        build(tiny_datasets.job(), tmp_path, workers=1)


@pytest.mark.slow
def test_partition_that_kills_its_worker(tmp_path):
    with pytest.raises(RunnerError, match="killed its worker") as e:
        build(tiny_datasets.Crasher(), tmp_path, workers=1)
    assert "\n" not in str(e.value)
    done = list((tmp_path / "squares").glob("part-*.parquet"))
    assert len(done) >= 1 and not manifest(tmp_path, "squares").exists()


@pytest.mark.slow
def test_scheduler_dies_mid_run(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    addr = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    sched = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                              "--port", str(port), "--dashboard-address", ":0"], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        time.sleep(2)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads", "1",
                                   "--no-dashboard"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        errors = []

        def go():
            try:
                build(tiny_datasets.job(delay=0.5), tmp_path, scheduler=addr)
            except Exception as e:
                errors.append(e)

        t = threading.Thread(target=go)
        t.start()
        deadline = time.time() + 60
        while time.time() < deadline and len(list((tmp_path / "squares").glob("part-*.parquet"))) < 2:
            time.sleep(0.05)
        sched.send_signal(signal.SIGKILL)
        t.join(120)
        assert not t.is_alive()
        assert len(errors) == 1 and isinstance(errors[0], RunnerError), errors
        assert "rerun to resume" in str(errors[0]) and "\n" not in str(errors[0])
    finally:
        for p in (sched, worker):
            if p is not None:
                p.kill()
                p.wait(30)
    # and it resumes on a local cluster to the same parts
    r = build(tiny_datasets.job(), tmp_path, workers=1)
    assert r.computed < 20 and json.loads(manifest(tmp_path, "squares").read_text())["rows"] == 40


@pytest.fixture
def tiny_disk(tmp_path):
    """A 32 KiB filesystem (tmpfs), where this machine lets us mount one."""
    where = tmp_path / "tiny"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32k", "tmpfs", str(where)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    yield where
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_disk_full(tiny_disk):
    with pytest.raises(RunnerError) as e:
        build(tiny_datasets.job(n=200), tiny_disk, workers=1)
    assert "No space left" in str(e.value) and "\n" not in str(e.value)
    folder = tiny_disk / "squares"
    assert not list(folder.glob(".*.tmp")) and not (beside(folder) / MANIFEST).exists()
