"""Workers forked by workers (pipeline.batch.branches): the tree's shape, and a pool started as one.

The shape against trees counted by hand; the pool against the processes the kernel reports (their parents,
whether they still exist, their exit codes) and results computed here.
"""
import os
import signal
import time

import pytest

from pipeline.batch.branches import TREE, joined_after, split

needs_tree = pytest.mark.skipif(not TREE, reason="workers fork workers only where pidfd exists (Linux)")


def parents():
    return os.getpid(), os.getppid()


def nap(seconds):
    time.sleep(seconds)
    return os.getpid()


def gone(pid, seconds=5.0):
    """Whether ``pid`` no longer exists (ended and collected: a zombie still exists) within ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.01)
    return False


def test_split_halves_what_is_left_each_time():
    assert split([]) == []
    assert split([1]) == [[1]]
    assert split(list(range(8))) == [[0, 1, 2, 3], [4, 5], [6], [7]]


def test_a_tree_of_n_workers_is_ready_after_log2_n_forks():
    # counted by hand: the root forks for [1..3] at 1 and [4..7] ... for 8 workers every one is ready after 3
    assert joined_after(1, 1.0) == [0.0]
    assert joined_after(2, 1.0) == [1.0, 1.0]
    assert joined_after(8, 1.0) == [3.0] * 8
    assert max(joined_after(64, 0.001)) == pytest.approx(0.006)
    assert max(joined_after(256, 0.001)) == pytest.approx(0.008)


@needs_tree
def test_a_pool_forks_its_workers_as_a_tree_from_the_server(pool):
    p = pool(8)
    seen = p.run_each(parents, timeout=60)
    assert len(seen) == 8 and all(pid == own for pid, (own, _) in seen.items())
    servers = {parent for _, parent in seen.values() if parent not in seen}
    assert len(servers) == 1                                   # one root, forked by the server
    assert sum(parent in seen for _, parent in seen.values()) == 7      # the others by workers
    assert sorted(p.submit(pow, i, 2).result(60) for i in range(20)) == [i * i for i in range(20)]


@needs_tree
def test_a_worker_forked_by_a_worker_killed_mid_task_is_collected_and_its_task_redone(pool):
    p = pool(4)
    seen = p.run_each(parents, timeout=60)
    leaf = next(pid for pid, (_, parent) in seen.items() if parent in seen)
    tasks = [p.submit(nap, 0.5) for _ in range(4)]
    time.sleep(0.2)
    os.kill(leaf, signal.SIGKILL)
    assert all(t.result(60) > 0 for t in tasks)               # the killed one's task ran again elsewhere
    assert gone(leaf)                                          # collected by its parent: no zombie left
    assert len(p.run_each(os.getpid, timeout=60)) == 4         # and replaced


@needs_tree
def test_a_worker_forked_by_a_worker_reports_its_exit_code(pool):
    p = pool(2)
    seen = p.run_each(parents, timeout=60)
    worker = next(w for w in p._workers if seen[w.process.pid][1] in seen)     # the one the root forked
    os.kill(worker.process.pid, signal.SIGKILL)
    worker.process.join(5)
    assert worker.process.exitcode == -signal.SIGKILL


@needs_tree
@pytest.mark.parametrize("end", ["shutdown", "stop"])
def test_every_worker_of_a_tree_is_collected_when_the_pool_ends(pool, end):
    p = pool(6)
    pids = list(p.run_each(os.getpid, timeout=60))
    if end == "stop":
        for _ in range(6):
            p.submit(nap, 30)
        time.sleep(0.3)
    t = time.monotonic()
    getattr(p, end)()
    assert time.monotonic() - t < 2
    assert all(gone(pid, 2.0) for pid in pids)                # none left a zombie


def dying_root(own, others, spill):
    """The first root of a pool dies before it forks anyone; later ones do their work."""
    marker = os.path.join(spill, "died")
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(1)
    from pipeline.batch.branches import branch

    branch(own, others, spill)


@needs_tree
def test_the_workers_of_a_root_that_died_before_forking_them_are_forked_again(pool, monkeypatch):
    import pipeline.batch.pool as pool_module

    monkeypatch.setattr(pool_module, "branch", dying_root)
    p = pool(4)
    assert len(p.run_each(os.getpid, timeout=60)) == 4
    assert p.submit(pow, 3, 3).result(60) == 27


@needs_tree
def test_more_workers_than_a_root_takes_start_as_several_trees(pool, monkeypatch):
    import pipeline.batch.pool as pool_module

    monkeypatch.setattr(pool_module, "ROOT_MOST", 3)
    p = pool(7)
    seen = p.run_each(parents, timeout=60)
    roots = [pid for pid, (_, parent) in seen.items() if parent not in seen]
    assert len(seen) == 7 and len(roots) == 3                  # trees of 3, 3 and 1


def die():
    os.kill(os.getpid(), signal.SIGKILL)


@needs_tree
def test_a_task_that_kills_the_workers_of_a_tree_fails_naming_the_signal(pool):
    from pipeline.batch.pool import ALLOWED_FAILURES, WorkerDied

    p = pool(2)                                                # the root and one worker it forked
    with pytest.raises(WorkerDied, match=f"{ALLOWED_FAILURES} times; the last exit code -9"):
        p.submit(die).result(120)


ORPHANS = """
import json, multiprocessing, os, signal, time
from pipeline.batch import forkserver
from pipeline.batch.pool import Pool

def parent(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])

with forkserver.forked([], dask=False):                     # the server a command starts: it imports preload
    p = Pool(4, multiprocessing.get_context("forkserver"))
    pids = list(p.run_each(os.getpid, timeout=60))
    ppid = {pid: parent(pid) for pid in pids}
    server = next(ppid[pid] for pid in pids if ppid[pid] not in pids)
    middle = next(pid for pid in pids if ppid[pid] != server and pid in ppid.values())   # forked, and forks
    orphans = [pid for pid in pids if ppid[pid] == middle]
    os.kill(middle, signal.SIGKILL)
    time.sleep(0.5)
    adopted = [parent(pid) for pid in orphans]
    assert p.submit(pow, 2, 5).result(60) == 32
    p.shutdown()
print(json.dumps({"server": server, "adopted": adopted, "orphans": orphans}))
"""


@needs_tree
def test_the_workers_of_a_worker_killed_mid_run_are_adopted_by_the_server_and_collected():
    # 4 workers: the root forks one that forks the fourth, then the third.  The middle one killed, the fourth is
    # handed to the fork server (not to the machine's first process, which in this container never collects
    # anyone), and is collected when the pool ends.
    import json
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent.parent)}
    got = subprocess.run([sys.executable, "-c", ORPHANS], capture_output=True, text=True, timeout=120, env=env)
    assert got.returncode == 0, got.stderr
    assert "unexpected pid" not in got.stderr
    seen = json.loads(got.stdout.splitlines()[-1])
    assert seen["orphans"] and seen["adopted"] == [seen["server"]] * len(seen["orphans"])
    assert all(gone(pid) for pid in seen["orphans"])
