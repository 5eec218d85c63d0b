"""The runner on real Dask clusters: parts, manifest, resume, determinism, failures."""
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pyarrow.dataset as ds
import pytest
from support import tiny_datasets
from support.layout import beside

from pipeline.batch.runner import MANIFEST, RunnerError
from pipeline.datasets import build as run_job

HERE = Path(__file__).parent


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("part-*.parquet"))}


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("ref")
    run_job(tiny_datasets.job(), out, workers=1, quiet=True)
    return files(out / "squares")


@pytest.mark.slow
def test_parts_manifest_and_dataset(tmp_path, reference):
    r = run_job(tiny_datasets.job(), tmp_path, workers=2, quiet=True)
    folder = tmp_path / "squares"
    assert r.parts == 20 and r.computed == 20 and r.rows == 40
    assert files(folder) == reference                      # same bytes with 1 or 2 workers
    m = json.loads((beside(folder) / MANIFEST).read_text())
    assert m["parameters"] == {"n": 20} and m["rows"] == 40 and len(m["parts"]) == 20
    assert m["parts"][3]["file"] == "part-00003.parquet" and len(m["parts"][3]["sha256"]) == 64
    t = ds.dataset(folder, format="parquet").to_table()
    assert sorted(t.column("i").to_pylist()) == list(range(40))
    meta = t.schema.metadata
    assert meta[b"pokerpipe.job"] == b"squares" and json.loads(meta[b"pokerpipe.params"]) == {"n": 20}


@pytest.mark.slow
def test_resume_keeps_good_parts_and_redoes_bad_ones(tmp_path, reference):
    run_job(tiny_datasets.job(), tmp_path, workers=1, quiet=True)
    folder = tmp_path / "squares"
    (folder / "part-00004.parquet").unlink()
    data = (folder / "part-00007.parquet").read_bytes()
    (folder / "part-00007.parquet").write_bytes(data[: len(data) // 2])      # truncated on disk
    (beside(folder) / MANIFEST).unlink()                                          # as after an interrupt
    r = run_job(tiny_datasets.job(), tmp_path, workers=1, quiet=True)
    assert r.computed == 2
    assert files(folder) == reference
    # with a manifest, a corrupted byte is caught by the checksum
    data = bytearray((folder / "part-00002.parquet").read_bytes())
    data[10] ^= 0xFF
    (folder / "part-00002.parquet").write_bytes(bytes(data))
    r = run_job(tiny_datasets.job(), tmp_path, workers=1, quiet=True)
    assert r.computed == 1 and files(folder) == reference
    assert run_job(tiny_datasets.job(), tmp_path, workers=1, quiet=True).computed == 0
    assert run_job(tiny_datasets.job(), tmp_path, workers=1, quiet=True, force=True).computed == 20


@pytest.mark.slow
def test_other_parameters_replace_parts(tmp_path):
    run_job(tiny_datasets.job(n=20), tmp_path, workers=1, quiet=True)
    r = run_job(tiny_datasets.job(n=5), tmp_path, workers=1, quiet=True)
    assert r.computed == 5 and len(files(tmp_path / "squares")) == 5


def test_unwritable_output(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RunnerError, match="cannot write"):
        run_job(tiny_datasets.job(), blocker, workers=1, quiet=True)


@pytest.mark.slow
def test_unreachable_scheduler(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(RunnerError, match="cannot reach Dask scheduler"):
        run_job(tiny_datasets.job(), tmp_path, scheduler=f"tcp://127.0.0.1:{port}", quiet=True)


@pytest.mark.slow
def test_worker_killed_mid_job(tmp_path, reference):
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pids = list(client.run(tiny_datasets.pid).values())
        errors = []

        def go():
            try:
                run_job(tiny_datasets.job(delay=0.3), tmp_path, scheduler=cluster.scheduler_address, quiet=True)
            except Exception as e:    # pragma: no cover - reported below
                errors.append(e)

        t = threading.Thread(target=go)
        t.start()
        folder = tmp_path / "squares"
        deadline = time.time() + 60
        while time.time() < deadline and len(list(folder.glob("part-*.parquet"))) < 3:
            time.sleep(0.05)
        os.kill(pids[0], signal.SIGKILL)
        t.join(120)
        assert not errors and not t.is_alive()
    assert files(folder) == reference
    assert (beside(folder) / MANIFEST).exists()


@pytest.mark.slow
def test_external_scheduler_and_workers(tmp_path, reference):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    addr = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--dashboard-address", ":0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        time.sleep(2)
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads", "1",
                                           "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL))
        from distributed import Client
        with Client(addr, timeout="30s") as c:
            c.wait_for_workers(2, timeout=60)
        r = run_job(tiny_datasets.job(), tmp_path, scheduler=addr, quiet=True)
        assert r.computed == 20
        assert files(tmp_path / "squares") == reference
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(30)
