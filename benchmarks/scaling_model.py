"""The scaling model of :mod:`bench_scaling`: a run's terms, read from its record, and the wall time they
predict on any number of workers.

wall(w) = client serial + cluster start + worker prepare + makespan(w) + side outputs, where

* the makespan replays the measured task costs (CPU seconds plus the measured dispatch gap) in the runner's
  order on ``w`` workers that each take the next ready task when free, each part's write ready once its
  pieces have ended, as the local pool hands them out (its own queue: writes held while pieces are ready, up
  to one a worker; a model that ignored the wait for the pieces put abstraction/turn's 64-worker makespan
  0.25 s too low);
* worker ``i`` joins ``i`` times the CPU the client spends on one worker after the first (and the fork
  server, where it forks each one), and no sooner than the tree the local pool starts its workers as has
  forked it, log2(w) forks (:mod:`pipeline.batch.branches`; ``bench_scaling``'s join probe adds workers to the
  idle cluster after each run and measures both, the fork server's CPU to the nanosecond);
* task ``k`` starts no sooner than ``k`` times the client's CPU a task (its CPU over the run, less what it
  spends a second idle, shared among the tasks).

Worker counts above the measuring machine's cores run oversubscribed: their wall times are no figure of
merit, but the CPU terms still hold, and the prediction is made from CPU terms.

Kept apart from the measuring (``bench_scaling.py`` times the runs and prints; this module only computes), so
that the model can be read, and tested on schedules worked out by hand (``tests/benchmarks``), on its own.
"""
from __future__ import annotations

import heapq
import statistics
from typing import Any

__all__ = ["terms", "runner_order", "makespan", "join_times", "predict", "fitted_stagger", "cluster_model",
           "cpu_growth", "grown"]

Run = tuple[int, dict, float, float]       # (workers, the run's record, wall seconds, CPU of the process tree)


def terms(r: dict[str, Any]) -> dict[str, Any]:
    """The scaling terms of one run's record (seconds; CPU seconds where it says so)."""
    m, tasks = r["moments"], r["tasks"]
    by_worker: dict[str, list[dict]] = {}
    for task in sorted(tasks, key=lambda x: x["started"]):
        by_worker.setdefault(task["worker"], []).append(task)
    end = max((x["finished"] for x in tasks), default=m["last_back"])
    starts, start_cpu, prepare, gaps, idle = [], [], [], [], 0.0
    for own in by_worker.values():
        first = own[0]
        starts.append(first["started"] - first["spawned"])
        start_cpu.append(first["cpu_before"] + first["prepare_cpu"])
        prepare.append(first["prepare"])
        gaps += [b["started"] - b["prepare"] - a["finished"] for a, b in zip(own, own[1:])]
        idle += end - own[-1]["finished"]
    cost = [x["cpu"] for x in tasks]
    slack = [max(0.0, x["seconds"] - x["cpu"]) for x in tasks]
    span = end - min((x["started"] for x in tasks), default=end)
    firsts = sorted(own[0]["started"] for own in by_worker.values())
    return {
        "seconds": m["finished"] - m["started"],                  # the dataset's own run, as its manifest says
        "serial_before": max(0.0, m["first_sent"] - m["started"] - m["cluster_seconds"]),
        "cluster": m["cluster_seconds"], "side": m["side_outputs"],
        "serial_after": max(0.0, m["finished"] - m["last_back"] - m["side_outputs"]),
        "starts": starts, "start_cpu": start_cpu, "prepare": prepare,
        "gap": statistics.median(gaps) if gaps else 0.0, "slack": statistics.median(slack) if slack else 0.0,
        "cost": cost, "order": runner_order(tasks),
        "on_core": sum(cost) / max(1e-12, sum(x["seconds"] for x in tasks)),   # a task's share of its wall on a core
        "idle": idle, "tail_share": idle / max(1e-9, len(by_worker) * span),
        "joined": [f - firsts[0] for f in firsts],              # when each worker began, after the first
        "workers_cpu": sum(w["cpu"] for w in r["workers"]),
        # the client's CPU a task (serial, on its one event loop): its CPU over the run, less what it spends a
        # second when idle (the join probe's), shared among the tasks
        "dispatch": max(0.0, r.get("client_run_cpu", 0.0) - (r.get("joins") or {}).get("idle_cpu", 0.0)
                        * max(0.0, m["last_back"] - m["first_sent"])) / max(1, len(tasks)),
        "joins": r.get("joins") or {},
        "rss_peak": max((w["rss_peak"] for w in r["workers"]), default=0),
    }


def runner_order(tasks: list[dict]) -> list[tuple[float, int, bool]]:
    """The measured tasks as ``(CPU seconds, part, write)`` in the order the runner sends them: the pieces and
    whole parts as they started (they run in the order sent), each part's write after them (it waits for
    them)."""
    from pipeline.batch.trace import WRITE

    ordered = sorted(tasks, key=lambda x: x["started"])
    return ([(x["cpu"], x["index"], False) for x in ordered if x.get("piece") != WRITE]
            + [(x["cpu"], x["index"], True) for x in ordered if x.get("piece") == WRITE])


def makespan(tasks: list[tuple[float, int, bool]], workers: int, gap: float, joins: list[float] | None = None,
             own_start: float = 0.0, dispatch: float = 0.0, hold: bool = True) -> float:
    """When the last of ``tasks`` ends on ``workers`` workers: ``(cost, part, write)`` in the runner's order, a
    write (a part's pieces combined and written) ready once the part's other tasks have ended.  A free worker
    takes, ``gap`` seconds after its last task, the next ready one as the local pool hands them out (its own
    queue, :class:`pipeline.batch.ready.Ready`: writes held while other tasks are ready, up to one per worker;
    ``hold=False``: each as soon as ready); worker ``i`` joins at ``joins[i]`` seconds (:func:`join_times`;
    none: all at once), plus ``own_start`` for each after the first (its own process's start, on its own
    core), and the client, which hands out and takes back every task on one thread, lets task ``k`` begin no
    sooner than ``k * dispatch``."""
    from pipeline.batch.ready import Ready, Task

    ready = Ready(workers)
    left: dict[int, int] = {}
    writes: dict[int, Task] = {}
    for n, (cost, part, write) in enumerate(tasks):
        made = Task(None, (cost, part), {}, 1 if write else 0, n, hold and write)   # type: ignore[arg-type]
        if write:
            writes[part] = made
        else:
            left[part] = left.get(part, 0) + 1
            ready.push(made)
    joins = joins or [0.0] * workers
    free = [(joins[i] + (own_start if i else 0.0), i) for i in range(workers)]
    heapq.heapify(free)
    busy: list[tuple[float, int, int, Any]] = []
    end, sent = 0.0, 0
    while len(ready) or busy:
        if len(ready) and free and (not busy or free[0][0] <= busy[0][0]):
            at, worker = heapq.heappop(free)
            task = ready.pop()
            assert task is not None
            finish = max(at, sent * dispatch) + task.args[0] + gap
            heapq.heappush(busy, (finish, task.order, worker, task))
            sent += 1
            continue
        finish, _, worker, done = heapq.heappop(busy)
        end = max(end, finish)
        heapq.heappush(free, (finish, worker))
        part = done.args[1]
        if done.priority == 0 and part in writes:
            left[part] -= 1
            if left[part] == 0:
                ready.push(writes.pop(part))
        if len(ready):             # a worker idle since before now takes what became ready now
            free = [(max(at, finish), w) for at, w in free]
            heapq.heapify(free)
    return end


def join_times(workers: int, cluster: tuple[float, float, float]) -> list[float]:
    """When each of ``workers`` workers joins, after the cluster's start: the ``i``-th no sooner than ``i``
    times the client's (and, forked one after the other, the fork server's) CPU a worker, ``cluster[1]``, and,
    started as a tree whose forks take ``cluster[2]`` seconds each, when the tree has forked it
    (:func:`pipeline.batch.branches.joined_after`: every worker of 64 after 6 forks)."""
    from pipeline.batch.branches import joined_after

    _, each, fork = cluster
    tree = sorted(joined_after(workers, fork)) if fork > 0 else [0.0] * workers
    return [max(t, i * each) for i, t in enumerate(tree)]


def predict(base: dict[str, Any], workers: int, cluster: tuple[float, float, float]) -> float:
    """The dataset's predicted seconds on ``workers`` workers from the terms of a measured run (``base``): the
    client's serial seconds, the cluster's start until its first worker ``cluster[0]``, the others joining as
    :func:`join_times` says, each taking its measured start CPU, the median worker preparation, the makespan of
    the measured task costs (CPU) in the runner's order with the client's CPU a task as the pace at which it can
    hand them out, and the side outputs (what is left of them after the last part: made then by one worker, or
    finished by the client from the columns it folded in as the parts came back)."""
    own = statistics.median(base["start_cpu"] or [0.0])
    return (base["serial_before"] + cluster[0] + statistics.median(base["prepare"] or [0.0])
            + makespan(base["order"], workers, base["gap"] + base["slack"], join_times(workers, cluster), own,
                       base["dispatch"])
            + base["side"] + base["serial_after"])


def fitted_stagger(runs: list[Run]) -> float:
    """The seconds between one worker's first task and the next one's, fitted over every run's workers: on a
    machine with fewer cores than workers, this is the oversubscribed machine's pace, not a figure of merit."""
    points = [(i, t) for _, r, _, _ in runs for i, t in enumerate(terms(r)["joined"])]
    sxx = sum(i * i for i, _ in points)
    return sum(i * t for i, t in points) / sxx if sxx else 0.0


def cluster_model(runs: list[Run]) -> tuple[float, float, float]:
    """The cluster's start: ``a``, until its first worker can work (the median over the runs: the fork server,
    the scheduler and one worker do not depend on how many follow); ``b``, the serial CPU a worker joining
    costs, the client's (and the fork server's where it forks each worker); and ``f``, a fork's CPU where the
    workers start as a tree (:mod:`pipeline.batch.branches`; else 0): the join probe's medians over the runs,
    or, where no probe ran (an existing cluster), the joining pace fitted over the runs
    (:func:`fitted_stagger`)."""
    a = statistics.median([r["moments"]["cluster_seconds"] for _, r, _, _ in runs])
    probes = [r["joins"] for _, r, _, _ in runs if r.get("joins")]
    if probes:
        tree = all(p.get("tree") for p in probes)
        b = statistics.median(p["client_cpu"] + (0.0 if tree else p["server_cpu"]) for p in probes)
        return a, b, statistics.median(p.get("fork", 0.0) for p in probes) if tree else 0.0
    return a, fitted_stagger(runs), 0.0


def cpu_growth(run: dict[str, Any], alone: dict[str, Any]) -> float:
    """How much more CPU the tasks of ``run`` took than those of ``alone`` (both :func:`terms`; the same
    dataset and parameters, so the same tasks): with every core busy, a task's thread runs at the clock all
    cores can hold and shares the cache and memory bandwidth, so its CPU seconds grow.  The model predicts from
    ``alone``'s costs; this says how much of a shortfall at many workers is that growth."""
    return sum(run["cost"]) / max(1e-12, sum(alone["cost"]))


def grown(base: dict[str, Any], factor: float) -> dict[str, Any]:
    """``base``'s terms with every task's CPU seconds times ``factor`` (:func:`cpu_growth`)."""
    return {**base, "cost": [c * factor for c in base["cost"]],
            "order": [(c * factor, part, write) for c, part, write in base["order"]]}
