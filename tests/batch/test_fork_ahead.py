"""A local cluster's fork server started ahead of knowing what to prepare (pipeline.batch.forkserver.start_ahead,
as the command line starts it): handed its list when the cluster starts, it forks the workers, prepared; never
handed one, it is stopped, or ends with the process that started it.

Each run is a process of its own: multiprocessing keeps one fork server per process, and this one's may be
serving the test session's shared cluster (tests/conftest.py)."""
import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.batch.forkserver import handed_bytes
from pipeline.batch.preload import awaited

HERE = Path(__file__).parent
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent.parent), str(HERE.parent)])}

pytestmark = pytest.mark.skipif("forkserver" not in multiprocessing.get_all_start_methods()
                                or not os.path.isdir("/proc/self"),
                                reason="fork servers, and /proc to see processes end (Linux)")


def run(code: str, *args: str, timeout: float = 600) -> list:
    got = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=timeout,
                         env=ENV)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout.splitlines()[-1])


def stop(pid: int) -> None:
    """Kill ``pid`` if it still runs: a failed test leaves no server behind."""
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def gone(pid: int, within: float) -> bool:
    """Whether process ``pid`` has ended (or is a zombie nobody reaped yet) within ``within`` seconds."""
    deadline = time.time() + within
    while time.time() < deadline:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


HANDED = """
import json, os, sys
from pipeline.batch import forkserver

def seen():
    import gc, signal
    return [os.getppid(), gc.get_freeze_count() > 0, os.environ.get("POKERPIPE_PREPARE"),
            signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, []), os.getpid()]

if __name__ == "__main__":
    forkserver.start_ahead()
    ahead = forkserver._AHEAD[0]
    from pipeline.datasets import build
    from pipeline.datasets.recipes.matchups import Matchups
    from pipeline.batch.session import Session
    with Session(2, quiet=True) as session:
        from pipeline.datasets import build_many
        report = build_many([Matchups(limit=300)], sys.argv[1], session, write_catalog=False)[-1]
        workers = session.on_each_worker(seen)
    print(json.dumps([ahead, forkserver._AHEAD, workers, [[t.index, t.prepare] for t in report.trace.parts]]))
"""


@pytest.mark.slow
def test_a_server_started_ahead_forks_the_workers_prepared(tmp_path):
    """The server started ahead is the one the workers are forked from (itself, or by a worker it forked:
    pipeline.batch.branches); it was handed the dataset and prepared it (no part prepares it again), froze its
    heap, kept the list's name from the workers, and forked them with Ctrl-C blocked (it is the command's
    alone)."""
    ahead, left, workers, parts = run(HANDED, str(tmp_path))
    assert left == []                                          # handed: nothing left to discard
    pids = {w[4] for w in workers}
    assert len(workers) == 2 and all(w[1:4] == [True, None, True] for w in workers), (ahead, workers)
    assert ahead in {w[0] for w in workers} and all(w[0] == ahead or w[0] in pids for w in workers), (ahead, workers)
    assert parts and all(prepare == 0 for _, prepare in parts), parts


NEVER_HANDED = """
import json, os, sys
from pipeline.batch import forkserver
from pipeline.batch.session import Session

if __name__ == "__main__":
    forkserver.start_ahead()
    pid = forkserver._AHEAD[0]
    if sys.argv[1] == "closed":           # a session that found nothing to compute
        with Session(2, quiet=True):
            pass
        try:                              # stopped, and reaped, before the session's close returned
            os.kill(pid, 0)
            pid = -1
        except ProcessLookupError:
            pass
    print(json.dumps(pid), flush=True)
    if sys.argv[1] == "exit":             # a command that leaves at once (os._exit, as the console script does)
        os._exit(0)
"""


@pytest.mark.slow
@pytest.mark.parametrize("how", ["closed", "exit"])
def test_a_server_started_ahead_and_never_handed_a_list_ends(how):
    """A session that closes without starting its cluster stops the server at once; a process that ends without
    handing it anything leaves it to read the end of its pipe and end by itself, within its imports' second."""
    # the pid read as soon as it is printed: a run's output captured whole would wait for the server too (it holds
    # the same stdout), as a shell's $(pokerpipe ...) would
    proc = subprocess.Popen([sys.executable, "-c", NEVER_HANDED, how], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=ENV)
    pid = -1
    try:
        pid = json.loads(proc.stdout.readline())
        assert pid > 0 and gone(pid, 0.1 if how == "closed" else 20.0)
    finally:
        proc.communicate(timeout=60)
        stop(pid)
    assert proc.returncode == 0


@pytest.mark.slow
def test_the_server_awaits_its_list_on_a_pipe():
    """What the server prepares comes down the pipe once handed, ended by a NUL: it is read then, though a copy
    of the pipe's other end stays open (a child the command forked holds one); a pipe closed without a whole
    path means nothing."""
    r, w = os.pipe()
    os.write(w, handed_bytes("/tmp/pokerpipe-prepare-x/prepare.pickle"))
    try:
        assert awaited(r) == "/tmp/pokerpipe-prepare-x/prepare.pickle"     # w still open
    finally:
        os.close(w)
    for sent in (b"", b"/tmp/pokerpipe-prepare-x/prep"):
        r, w = os.pipe()
        os.write(w, sent)
        os.close(w)
        assert awaited(r) is None


CTRL_C = """
import sys
from support import tiny_datasets
from pipeline.batch import forkserver
from pipeline.datasets import build
if __name__ == "__main__":
    forkserver.start_ahead()
    print(forkserver._AHEAD[0], flush=True)
    try:
        build(tiny_datasets.SlowPrepare(sys.argv[1]), sys.argv[2], workers=2)
    except KeyboardInterrupt:
        sys.exit(130)
"""


@pytest.mark.slow
def test_ctrl_c_while_a_server_started_ahead_prepares_stops_at_once(tmp_path):
    """Ctrl-C while the server started ahead prepares (a minute, in this dataset) stops the run within two
    seconds, and the server with it."""
    marker = tmp_path / "preparing"
    proc = subprocess.Popen([sys.executable, "-c", CTRL_C, str(marker), str(tmp_path / "out")], env=ENV,
                            start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ahead = int(proc.stdout.readline())
    try:
        deadline = time.time() + 120
        while time.time() < deadline and not marker.exists():
            time.sleep(0.05)
        assert marker.exists()
        assert int(marker.read_text()) == ahead                 # the server started ahead is the one preparing
        os.killpg(proc.pid, signal.SIGINT)
        sent = time.time()
        proc.communicate(timeout=60)
        assert proc.returncode == 130 and time.time() - sent < 2
        assert gone(ahead, 1.0)
    finally:
        stop(ahead)


POOL_AFTER_AHEAD = """
import json, multiprocessing, os
from pipeline.batch import forkserver
from pipeline.batch.pool import Pool

if __name__ == "__main__":
    forkserver.start_ahead()                  # as a command does first thing; then it never starts a session
    ahead = forkserver._AHEAD[0]
    p = Pool(2, multiprocessing.get_context("forkserver"))
    workers = p.run_each(os.getppid, timeout=30)
    p.stop()
    print(json.dumps([ahead, len(workers), sorted(set(workers.values()))]))
"""


def test_a_pool_started_beside_a_server_that_awaits_its_list_does_not_hang(tmp_path):
    """A server started ahead and never handed its list waits for it before it forks anything: a pool started
    without it (not through a session: a library caller's, or a test's after a command that stopped before its
    run) used to wait for its workers for ever.  The pool stops that server and has its own start."""
    ahead, count, parents = run(POOL_AFTER_AHEAD, timeout=90)      # (it hung: a timeout fails it)
    try:
        assert count == 2 and ahead not in parents and gone(ahead, 10)
    finally:
        stop(ahead)
