"""Work spread over workers: the same bytes at any worker count, parts cut into pieces, costly work first, and
a cluster of separately started workers that gain and lose workers mid-run."""
import ast
import contextlib
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
from support.layout import manifest
from support.prepared import preparing_seconds

from pipeline.batch import verified
from pipeline.batch.session import Session
from pipeline.batch.trace import WHOLE, WRITE
from pipeline.datasets import build, build_many
from pipeline.datasets.recipes.matchups import Matchups

HERE = Path(__file__).parent


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("part-*.parquet"))}


@pytest.fixture(scope="module")
def pieces_reference(tmp_path_factory):
    """The tiny dataset in pieces, built whole, part by part, in this process (no cluster): what every run must
    write."""
    from pipeline.batch.parts import _write
    from pipeline.batch.storage import Storage

    ds = tiny_datasets.pieces()
    out = tmp_path_factory.mktemp("whole")
    storage = Storage(str(out))
    storage.makedirs(*verified.parts_folder(ds.name))
    storage.makedirs(*verified.records_folder(ds.name))
    for i, partition in enumerate(ds.partitions(None)):
        _write(ds, i, verified.part_file(i), ds.compute(partition), storage)
    return files(out / ds.name)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2, 8])
def test_pieces_make_the_bytes_of_whole_parts_at_any_worker_count(tmp_path, pieces_reference, workers):
    report = build(tiny_datasets.pieces(), tmp_path, workers=workers)
    assert files(tmp_path / "pieces") == pieces_reference
    kinds = [t.piece for t in report.trace.parts]
    assert kinds.count(WRITE) == 12 and sum(k >= 0 for k in kinds) == 48 and WHOLE not in kinds


@pytest.mark.slow
def test_matchups_in_pieces_equal_one_worker_at_two_and_eight(tmp_path):
    ds = Matchups(limit=700)             # two parts: four pieces and two
    assert [len(ds.pieces(p)) for p in ds.partitions(None)] == [4, 2]
    runs = {}
    for workers in (1, 2, 8):
        build(ds, tmp_path / str(workers), workers=workers)
        runs[workers] = files(tmp_path / str(workers) / "matchups")
    assert len(runs[1]) == 2 and runs[1] == runs[2] == runs[8]


def test_costly_work_is_sent_first(tmp_path):
    report = build(tiny_datasets.pieces(n=6, k=2), tmp_path, workers=1)
    pieces = [t for t in sorted(report.trace.parts, key=lambda t: t.started) if t.piece >= 0]
    assert [t.index for t in pieces[:2]] == [5, 5] and [t.index for t in pieces[-2:]] == [0, 0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's record of a start is read on Linux")
def test_a_process_start_is_read_to_a_hundredth_of_a_second():
    """trace.process_started of a fresh process is when it was spawned, to the kernel's tick (0.01 s): not up to
    a second before, as when the start was added to the boot time /proc/stat gives in whole seconds (each
    worker's start in bench_scaling rests on it)."""
    code = "from pipeline.batch import trace; print(repr(trace.process_started()))"
    before = time.time()
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(HERE.parent.parent)})
    after = time.time()
    assert got.returncode == 0, got.stderr
    spawned = float(got.stdout.splitlines()[-1])
    assert before - 0.03 <= spawned <= min(after, before + 1.0), (spawned - before, after - before)


@pytest.mark.slow
def test_a_worker_starts_with_the_dataset_prepared(tmp_path):
    """A local cluster's workers are forked from a process that prepared the dataset: none prepares it again."""
    parts = preparing_seconds(tmp_path / "out")
    assert parts and all(prepare == 0 for prepare in parts), parts


FROZEN_RUN = """
import ctypes, gc, json, os
import numpy.linalg
from pipeline.batch.session import Session
from pipeline.datasets.recipes.matchups import Matchups

def blas_threads():      # numpy's OpenBLAS (the wheels'), sized when numpy was imported; None where it has none
    libs = sorted({line.split()[-1] for line in open("/proc/self/maps") if "openblas" in line.split()[-1]})
    for name in ("scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_", "openblas_get_num_threads"):
        if libs and hasattr(ctypes.CDLL(libs[0]), name):
            return getattr(ctypes.CDLL(libs[0]), name)()
    return None

def faults_again():      # minor page faults of a 24 MB array made again after one was freed: 0 if the heap kept it
    import resource, numpy as np
    np.ones(3 << 20)
    before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
    np.ones(3 << 20)
    return resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before

def seen():
    import pyarrow
    return [gc.get_freeze_count(), blas_threads(), os.environ.get("POKERPIPE_PREPARE"),
            pyarrow.default_memory_pool().backend_name, faults_again()]

written = []            # (name, whether it was there): this process's environment, set or unset
for name in ("putenv", "unsetenv"):
    def recorded(*args, _call=getattr(os, name)):
        written.append([_call.__name__, os.fsdecode(args[0]), os.fsdecode(args[0]) in os.environ])
        return _call(*args)
    setattr(os, name, recorded)

ds = Matchups(limit=300)
for _ in range(2):      # a second cluster of the same process, whose nannies have run once
    written.clear()
    with Session(1, quiet=True) as session:
        session.connect([(ds, ds.pieces(ds.partitions(None)[0])[0])])
        print(json.dumps([seen() + [written], session.submit(seen).result()]))
"""


@pytest.mark.slow
def test_workers_fork_from_a_frozen_server_with_dasks_worker_environment():
    """The fork server freezes what it imported and prepared (``gc.freeze``), so that a worker's garbage
    collections do not walk, and so copy, the pages it shares with the server; it starts with the environment
    Dask gives the workers it spawns, so that numpy's BLAS in a worker runs one thread, not one per core (it
    sized its pool in the server); it keeps what it frees (glibc's heap, which Arrow allocates from), so that a
    worker's next task does not fault its memory in afresh, where this process, as Dask's own workers, hands a
    large block back at once; and it keeps the list of what to prepare from its workers.  The client freezes
    nothing, and never sets its own environment: another of its threads starting a program meanwhile read the
    environment as it moved, and the program failed to start (EFAULT, a test's command line in CI).  All of it
    holds for a second cluster of the same process too (its workers had taken Dask's trim threshold, left in
    this process's environment by the first cluster's nannies).  In a process of its own, for the reason above
    (without the variables that size BLAS)."""
    unset = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_",
             "ARROW_DEFAULT_MEMORY_POOL")
    env = {k: v for k, v in os.environ.items() if k not in unset}
    got = subprocess.run([sys.executable, "-c", FROZEN_RUN], capture_output=True, text=True, timeout=600,
                         env={**env, "PYTHONPATH": str(HERE.parent.parent)})
    assert got.returncode == 0, got.stderr
    runs = [json.loads(line) for line in got.stdout.splitlines()[-2:]]
    for client, worker in runs:
        assert client[0] == 0 and client[2] is None, client
        assert worker[0] > 100_000 and worker[1] in (1, None) and worker[2] is None, worker
        # afresh, 24 MB is 12 faults of 2 MB pages or 6,144 of 4 kB; kept, the few of the objects the call touches
        # (2 on a quiet machine, 4 once in a loaded CI run)
        assert worker[3] == "system" and worker[4] < 8, worker
    # nothing unset, nothing added but the two names Dask's nanny writes itself, once a process
    first, again = ({name for call, name, there in client[5] if call == "unsetenv" or not there} for client, _ in runs)
    assert first <= {"__DASK_PARENT_PID", "PYTHONHASHSEED"} and not again, runs
    if worker[1] is None:
        pytest.skip("numpy here has no OpenBLAS to ask its threads")


@contextlib.contextmanager
def cluster(workers: int):
    """A scheduler and ``workers`` separately started ``dask worker`` processes on this machine (several machines
    simulated on one); yields (address, start another worker, the worker processes)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    addr = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--dashboard-address", ":0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    started: list[subprocess.Popen] = []

    def worker() -> subprocess.Popen:
        p = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads", "1",
                              "--no-nanny", "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        started.append(p)
        return p

    try:
        deadline = time.time() + 60
        while time.time() < deadline:        # the scheduler listens (a loaded machine takes seconds)
            with socket.socket() as s, contextlib.suppress(OSError):
                s.connect(("127.0.0.1", port))
                break
            time.sleep(0.1)
        for _ in range(workers):
            worker()
        yield addr, worker, started
    finally:
        for p in procs + started:
            p.kill()
            p.wait(30)


def _parts_written(folder: Path) -> int:
    return len(list(folder.glob("part-*.parquet")))


@pytest.mark.slow
def test_a_cluster_gains_a_worker_and_loses_one_mid_run_and_writes_the_same_bytes(tmp_path, pieces_reference):
    """Separately started workers: one killed mid-run (its pieces are computed again elsewhere, nothing lost), one
    started mid-run (it gets tasks); the files are those of a local run."""
    ds = tiny_datasets.pieces(delay=0.15)
    with cluster(2) as (addr, worker, started):
        out, reports, errors = tmp_path / "out", [], []

        def go():
            try:
                with Session(scheduler=addr, quiet=True) as session:
                    reports.extend(build_many([ds], out, session))
            except Exception as e:      # pragma: no cover - reported below
                errors.append(e)

        t = threading.Thread(target=go)
        t.start()
        deadline = time.time() + 60
        while time.time() < deadline and _parts_written(out / "pieces") < 2:
            time.sleep(0.05)
        os.kill(started[0].pid, signal.SIGKILL)       # loses its running piece and the pieces it holds
        joined = worker()
        t.join(120)
        assert not errors and not t.is_alive()
    assert files(out / "pieces") == pieces_reference and manifest(out, "pieces").exists()
    hosts = {t.worker for t in reports[-1].trace.parts}
    assert f"{socket.gethostname()}:{joined.pid}" in hosts


@pytest.mark.slow
def test_ctrl_c_while_the_workers_are_prepared_stops_at_once(tmp_path):
    """Preparing a dataset (its kernels compile the first time: minutes) happens before the cluster's start,
    where a Ctrl-C is not held: the run stops within two seconds."""
    marker = tmp_path / "preparing"
    script = ("import sys\nfrom support import tiny_datasets\nfrom pipeline.datasets import build\n"
              "try:\n    build(tiny_datasets.SlowPrepare(sys.argv[1]), sys.argv[2], workers=2)\n"
              "except KeyboardInterrupt:\n    sys.exit(130)\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-c", script, str(marker), str(tmp_path / "out")], env=env,
                            start_new_session=True, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while time.time() < deadline and not marker.exists():
        time.sleep(0.05)
    assert marker.exists()
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.time()
    proc.communicate(timeout=60)
    assert proc.returncode == 130 and time.time() - sent < 2
    server = int(marker.read_text())               # the process that prepared it is gone
    with pytest.raises(ProcessLookupError):
        os.kill(server, 0)


SIGNAL_MASKS = """
import signal
from pipeline.batch.session import Session
def mask():
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
with Session(2, None, True) as session:
    print(session.on_each_worker(mask))
"""


@pytest.mark.slow
def test_workers_of_a_fresh_process_block_ctrl_c():
    """Every worker of a local cluster, the first and those that join later, is forked with SIGINT blocked, in a
    process that has not started multiprocessing's resource tracker yet (starting it unblocks SIGINT in the
    thread that starts it; the fork server must not inherit that)."""
    got = subprocess.run([sys.executable, "-c", SIGNAL_MASKS], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "PYTHONPATH": str(HERE.parent.parent)})
    assert got.returncode == 0, got.stderr
    masks = ast.literal_eval(got.stdout.splitlines()[-1])          # [blocked, for each worker]
    assert len(masks) == 2 and all(masks), masks


def test_a_part_is_written_by_a_worker_that_computed_none_of_its_pieces(tmp_path):
    """A local pool hands a part's write to whichever worker is free, which may have computed none of its
    pieces, and whose server may not have prepared the dataset (a cluster of an earlier session still ran):
    the write has no sample to prepare with, and prepares nothing (it asked Matchups.prepare to unpack None)."""
    from pipeline.batch import parts

    ds = Matchups(limit=700)
    pieces = ds.pieces(ds.partitions(None)[1])
    done = [parts.compute_piece(ds, 1, n, p) for n, p in enumerate(pieces)]
    parts._PREPARED.discard(parts.params_digest(ds))          # as in a worker that computed none of them
    for folder in ("matchups", "matchups.meta/_writing", "matchups.meta/_checksums"):
        (tmp_path / folder).mkdir(parents=True)
    (built,), timings, _ = parts.write_part(ds, 1, "part-00001.parquet", str(tmp_path), str(tmp_path), *done)
    assert built[0] == 1 and built[1] == 700 - 500 and timings[-1].prepare == 0
