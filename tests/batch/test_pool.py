"""The local pool (pipeline.batch.pool): order, arguments that are futures, failures, dying workers, stopping.

Each case against what it must be by construction: the order a single worker runs tasks in, sums computed
here, the exception raised, the processes alive afterwards.
"""
import multiprocessing
import os
import signal
import time

import pytest

from pipeline.batch.pool import ALLOWED_FAILURES, WorkerDied, workers_alive
from pipeline.batch.ready import Ready, Task


def stamp(label, seconds=0.0):
    time.sleep(seconds)
    return label, time.monotonic()


def add(*xs):
    return sum(xs)


def fail(message):
    raise ValueError(message)


def die_once(marker):
    """Kill this worker the first time (the marker file does not exist yet); return its pid the next."""
    if not os.path.exists(marker):
        open(marker, "w").close()
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def die():
    os.kill(os.getpid(), signal.SIGKILL)


def payload(n):
    return bytes(range(256)) * (n // 256)


def length(*blobs):
    return sum(len(b) for b in blobs if isinstance(b, bytes))


def unpicklable():
    return lambda: 0


def test_a_free_worker_takes_the_highest_priority_then_the_first_submitted(pool):
    p = pool(1)
    busy = p.task(stamp, ("busy", 0.5))
    later = [p.task(stamp, (name,), priority=prio) for name, prio in (("a", 0), ("b", 0), ("c", 1), ("d", 0))]
    busy.result(60)
    ran = sorted((f.result(60) for f in later), key=lambda r: r[1])
    assert [name for name, _ in ran] == ["c", "a", "b", "d"]


def test_held_tasks_wait_while_others_are_ready_unless_more_than_the_limit_wait():
    ready = Ready(limit=2)
    spec = [("w1", 1, True), ("p1", 0, False), ("w2", 1, True), ("p2", 0, False), ("w3", 1, True), ("p3", 0, False)]
    names = {}
    for n, (name, priority, hold) in enumerate(spec):
        task = Task(add, (), {}, priority, n, hold)
        names[id(task)] = name
        ready.push(task)
    order = []
    while (task := ready.pop()) is not None:
        order.append(names[id(task)])
    # three held, two may wait: the first goes at once; the other two once nothing else is ready
    assert order == ["w1", "p1", "p2", "p3", "w2", "w3"]
    assert len(ready) == 0


def test_a_held_task_runs_after_the_ready_ones_on_one_worker(pool):
    p = pool(1)
    busy = p.task(stamp, ("busy", 0.5))
    later = [p.task(stamp, (name,), hold=hold) for name, hold in (("h1", True), ("h2", True), ("a", False),
                                                                  ("b", False))]
    busy.result(60)
    ran = sorted((f.result(60) for f in later), key=lambda r: r[1])
    assert [name for name, _ in ran] == ["h1", "a", "b", "h2"]     # one worker: one held task may wait


def test_an_argument_that_is_a_future_is_its_result(pool):
    p = pool(2)
    a, b = p.submit(add, 1, 2), p.submit(add, 10, 20, 30)
    total = p.task(add, (a, b, 100))
    assert total.result(60) == 3 + 60 + 100
    assert p.submit(add, *range(10)).result(60) == 45        # the Executor's own submit


def test_a_task_that_raises_fails_with_its_exception_and_so_do_those_that_wait_for_it(pool):
    p = pool(2)
    bad = p.submit(fail, "no such board")
    after = p.task(add, (bad, 1))
    with pytest.raises(ValueError, match="no such board"):
        bad.result(60)
    with pytest.raises(ValueError, match="no such board"):
        after.result(60)
    assert p.submit(add, 2, 2).result(60) == 4                # the worker lives on


def test_a_worker_killed_mid_task_has_its_task_redone_by_another(pool, tmp_path):
    p = pool(2)
    first = p.pids()
    pid = p.submit(die_once, str(tmp_path / "marker")).result(60)
    assert pid != 0 and os.path.exists(tmp_path / "marker")
    assert len(p.run_each(os.getpid, timeout=60)) == 2       # a new worker took the dead one's place
    assert set(p.pids()) != set(first)


def test_a_task_that_kills_every_worker_fails_after_the_allowed_failures(pool):
    p = pool(2)
    with pytest.raises(WorkerDied, match=f"{ALLOWED_FAILURES} times"):
        p.submit(die).result(120)
    assert p.submit(add, 1, 1).result(60) == 2


def test_a_result_that_cannot_be_pickled_is_a_clear_failure(pool):
    p = pool(1)
    with pytest.raises(RuntimeError, match="cannot send back the result of unpicklable"):
        p.submit(unpicklable).result(60)


def test_run_each_reaches_every_worker_and_grow_adds_workers(pool):
    p = pool(3)
    pids = p.run_each(os.getpid, timeout=60)
    assert len(pids) == 3 and all(k == v for k, v in pids.items())
    p.grow(2)
    assert len(p.run_each(os.getpid, timeout=60)) == 5


def test_stop_kills_busy_workers_at_once_and_cancels_the_rest(pool):
    p = pool(2)
    running = [p.submit(stamp, "long", 60) for _ in range(2)]
    waiting = p.submit(stamp, "never")
    time.sleep(0.5)
    workers = p.pids()
    t = time.monotonic()
    p.stop()
    assert time.monotonic() - t < 2
    assert waiting.cancelled()
    assert all(f.done() for f in running)
    for pid in workers:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_closed_pool_refuses_tasks(pool):
    p = pool(1)
    assert p.submit(add, 1).result(60) == 1
    p.shutdown()
    with pytest.raises(RuntimeError, match="closed"):
        p.submit(add, 1)


def test_a_big_result_waits_in_a_file_for_the_task_that_takes_it(pool):
    """Over SPILL_BYTES, a result stays out of this process: the task that takes it reads the file, which goes
    once that task has finished; read here before that, it is whole."""
    p = pool(1)
    p.submit(stamp, "busy", 0.5)
    big = p.task(payload, (3 << 20,), priority=1)
    later = p.submit(stamp, "after big", 1.0)                     # so that the task taking it waits a second
    both = p.task(length, (big, big, later))
    assert big.result(60) == bytes(range(256)) * (3 << 12)      # read from its file while a task still needs it
    assert os.listdir(p._spill)
    assert both.result(60) == 6 << 20
    deadline = time.monotonic() + 10
    while os.listdir(p._spill) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert os.listdir(p._spill) == []
    with pytest.raises(RuntimeError, match="handed to the tasks"):
        big.result()


def test_a_big_result_no_task_takes_is_read_once_and_its_file_removed(pool):
    p = pool(1)
    f = p.submit(payload, 2 << 20)
    assert len(f.result(60)) == 2 << 20 and os.listdir(p._spill) == []
    assert len(f.result()) == 2 << 20
    spill = p._spill
    p.stop()
    assert not os.path.exists(spill)


def test_a_partial_that_kills_every_worker_fails_with_its_function_named(pool):
    """Found in review: the message read fn.__name__, which a functools.partial (what executor.map of the
    domain code sends) lacks: the dispatcher thread died and every future waited for ever."""
    import functools

    p = pool(1)
    with pytest.raises(WorkerDied, match="die"):
        p.submit(functools.partial(die)).result(120)
    assert p.submit(add, 2, 3).result(60) == 5


def test_a_failing_dispatcher_fails_every_task_instead_of_leaving_it_waiting(pool, monkeypatch):
    p = pool(1)
    assert p.submit(add, 1).result(60) == 1

    def broken(worker):
        raise RuntimeError("a bug")

    monkeypatch.setattr(p, "_hear", broken)
    waiting = [p.submit(stamp, "x", 0.2) for _ in range(3)]
    for f in waiting:
        with pytest.raises(Exception, match="a bug"):
            f.result(60)
    with pytest.raises(RuntimeError, match="dispatcher failed"):
        p.submit(add, 1)


def test_workers_that_die_after_finishing_tasks_do_not_stop_the_pool(pool, tmp_path):
    """Only workers that die before finishing a task count towards "they die as they start": a long run's
    occasional deaths (each task under its own limit) must not end it."""
    p = pool(1)
    for i in range(8):
        assert p.submit(add, i).result(60) == i                 # the worker has finished a task...
        assert p.submit(die_once, str(tmp_path / f"m{i}")).result(60) > 0     # ...then dies once, redone
    assert p.submit(add, 40, 2).result(60) == 42


def test_workers_are_the_pools_to_track_not_multiprocessings(pool):
    """multiprocessing polls every child it lists at each start (n²/2 polls for n workers): the pool takes its
    workers off that list, and answers itself whether they live (the fork server is not stopped under them)."""
    p = pool(3)
    p.run_each(os.getpid, timeout=60)
    assert len(p.pids()) == 3
    assert not [c for c in multiprocessing.active_children() if c.pid in p.pids()]
    assert p.alive() and workers_alive()
    p.stop()
    assert not p.alive()
