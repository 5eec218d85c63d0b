"""A batch run's cluster and its progress display.

A :class:`Session` holds one cluster — a local one of ``workers`` processes
(a :class:`~.pool.Pool`; a Dask ``LocalCluster`` when its dashboard is asked
for), or an existing Dask cluster at ``scheduler`` — for every dataset a
command builds, and
one rich progress display on stderr: the dataset in progress and, when several
are built, all of them with an overall ETA.  The cluster starts on first use.

Ctrl-C is the command's alone: a local cluster's workers never see SIGINT
(:mod:`.workers`: they fork from a server started with it blocked), and a
run abandoned for any reason stops them at once instead of waiting for their
running tasks.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import logging
import socket
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Optional

from ..core.cores import available_cores
from .errors import RunnerError
from .fanout import ProgressExecutor
from .forkserver import discard_ahead, forked
from .sigint import sigint_held

WORKERS_PER_CORE = 4     # --workers above this many per core is refused
DASHBOARD_ADDRESS = "127.0.0.1:0"   # a local cluster's dashboard: this machine only, on a free port
# how long to keep trying to reach --scheduler before one line says it cannot be reached; Dask's config
# key ``pokerpipe.connect-timeout`` (environment: DASK_POKERPIPE__CONNECT_TIMEOUT) sets another
CONNECT_TIMEOUT = "10s"
SETTLE_SECONDS = 1.0     # an abandoned run waits this long at most for workers still starting, before stopping them

# A local cluster has no dashboard to feed (unless asked): its workers skip the
# statistical profiler (a stack sample every 10 ms), the GIL monitor and frequent
# housekeeping ticks.  With every core computing, that background work comes out
# of the kernels' time: on 2 cores it cost the 2-worker `matchups` run 1-2 s.
# Nor do they poll the GPUs: where pynvml is installed (machines with a GPU
# stack) every worker, nanny and the scheduler would initialise NVML and sample
# it each monitor tick, and pokerpipe computes nothing on a GPU.
LOCAL_CLUSTER_CONFIG = {
    "distributed.diagnostics.nvml": False,
    "distributed.worker.profile.enabled": False,
    "distributed.admin.system-monitor.gil.enabled": False,
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.admin.tick.interval": "200ms",
    "distributed.worker.memory.monitor-interval": "1s",
}


class Session:
    """One cluster (local, or Dask's at ``scheduler``) and one progress display for a batch run.

    The cluster starts on first use, so a run that finds everything built starts
    none.  Options are checked when the session is made, before anything is
    touched on disk.
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None, quiet: bool = False,
                 dashboard: bool = False, dashboard_address: str | None = None) -> None:
        """``dashboard`` starts a local cluster's dashboard on ``dashboard_address`` (``HOST:PORT``; by default
        127.0.0.1 on a free port, so that only this machine can reach it: it shows the code and data)."""
        check_cluster(workers, scheduler)
        address = None
        if dashboard or dashboard_address is not None:
            address = check_address(DASHBOARD_ADDRESS if dashboard_address is None else dashboard_address)
        self.workers, self.scheduler, self.quiet, self.dashboard = workers, scheduler, quiet, address
        self._stack = contextlib.ExitStack()
        self._client: Any = None
        self.progress = Progress(quiet)
        self.startup: dict[str, float] = {}    # wall seconds of the cluster's start, by step (:mod:`.trace`)

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close(*exc)

    def close(self, *exc: Any) -> None:
        """Close the cluster; ``exc`` (as ``__exit__`` gets it) says the run was abandoned, so that a
        local cluster's workers are stopped at once rather than after their running tasks."""
        self.progress.stop()
        self._client = None
        try:
            self._stack.__exit__(*(exc or (None, None, None)))
        finally:
            discard_ahead()          # a fork server started ahead for a cluster that never started

    @property
    def connected(self) -> bool:
        """Whether the cluster has been reached (or the local one started) already."""
        return self._client is not None

    def connect(self, prepare: Sequence[tuple[Any, Any]] = ()) -> None:
        """Reach the scheduler (or start the local cluster) now; RunnerError if it fails.  A local cluster
        started now forks its workers from a process that has prepared the datasets of ``prepare``, its
        ``(dataset, sample)`` pairs (:mod:`.preload`)."""
        self.client(prepare)

    def client(self, prepare: Sequence[tuple[Any, Any]] = ()) -> Any:
        """The cluster: a Dask client (``--scheduler``, or a local cluster with a dashboard), else a local
        :class:`~.pool.Pool`."""
        if self._client is None:
            if self.pooled:
                self._client = self._stack.enter_context(_local_pool(self.workers, prepare, self.startup))
            else:
                self._client = self._stack.enter_context(_dask_client(self.workers, self.scheduler,
                                                                      self.dashboard, prepare, self.startup))
        return self._client

    @property
    def pooled(self) -> bool:
        """Whether the cluster is a local :class:`~.pool.Pool` (started, or to be started), not Dask."""
        return self.scheduler is None and self.dashboard is None

    def submit(self, fn: Callable[..., Any], *args: Any, priority: int = 0, hold: bool = False) -> Any:
        """Run ``fn(*args)`` on the cluster; a future.  An argument that is an earlier submission's future is
        replaced there by its result (on Dask moved between workers; on a local pool through a file); of two
        tasks ready at once, the one of higher ``priority`` runs first (else the one submitted first).  On a
        local pool a task submitted with ``hold`` waits while other tasks are ready, up to one such task per
        worker (:mod:`.ready`); Dask, which keeps results in its workers' memory, runs it when ready."""
        if self.pooled:
            return self.client().task(fn, args, priority=priority, hold=hold)
        return self.client().submit(fn, *args, pure=False, priority=priority)

    def completed(self, futures: Iterable[Any]) -> Iterator[Any]:
        """``futures`` (of :meth:`submit`) one at a time as they finish; Ctrl-C is seen within 0.1 s."""
        if self.pooled:
            return _as_completed(list(futures))
        from distributed import as_completed

        return iter(as_completed(list(futures)))

    def on_each_worker(self, fn: Callable[[], Any]) -> list[Any]:
        """``fn()`` on every worker of the cluster (started if need be); what each returned."""
        if self.pooled:
            return list(self.client().run_each(fn, timeout=120).values())
        client = self.client()
        if self.scheduler is None:
            client.wait_for_workers(self.workers or available_cores(), timeout=120)
        return list(client.run(fn).values())

    def executor(self, label: str) -> ProgressExecutor:
        """The cluster as a ``concurrent.futures.Executor`` for domain code (:mod:`.fanout`): its tasks are
        shown as one bar, ``label``, of the session's progress display."""
        self.client()
        # a local cluster's workers may still be joining: count the ones it will have, and no more than the
        # cores, which workers beyond them share (what an estimate of the run's time divides by)
        return ProgressExecutor(self.cluster_executor(), self.progress, label, self.processes())

    def cluster_executor(self) -> cf.Executor:
        """The cluster's own executor (tasks never deduplicated), for the runner, which counts parts itself."""
        if self.pooled:
            pool: cf.Executor = self.client()
            return pool
        return self.client().get_executor(pure=False)

    def processes(self) -> int:
        """The processes this session's run plays on: on a cluster its worker threads (reaching it), else
        :func:`local_processes` of ``workers``."""
        if self.scheduler is None:
            return local_processes(self.workers)
        return max(1, sum(self.client().nthreads().values()))

    def in_process(self) -> bool:
        """Whether the work should run in this process: one local worker, so no cluster is worth starting."""
        return self.workers == 1 and self.scheduler is None

    def executor_or_none(self, label: str) -> Optional[ProgressExecutor]:
        """:meth:`executor`, or None (run in this process) for a session of one local worker."""
        return None if self.in_process() else self.executor(label)


def check_cluster(workers: int | None, scheduler: str | None = None) -> None:
    """RunnerError, one line, for ``--workers`` beyond 1 to :data:`WORKERS_PER_CORE` a core, a ``--scheduler``
    that is no address, or both (the count would be ignored): what a :class:`Session` checks when it is made,
    and what a command that does its own work before it needs a session (``videopoker --out``) checks first."""
    cap = WORKERS_PER_CORE * available_cores()
    if workers is not None and not 1 <= workers <= cap:
        raise RunnerError(f"--workers must be 1 to {cap} ({WORKERS_PER_CORE} per core), got {workers}")
    if scheduler is not None and not scheduler.startswith(("tcp://", "tls://", "ucx://", "inproc://")):
        raise RunnerError(f"--scheduler {scheduler!r}: expected an address such as tcp://host:8786")
    if scheduler is not None and workers is not None:
        raise RunnerError(f"--workers {workers} and --scheduler exclude each other: a cluster's workers are "
                          "the ones started there (`dask worker ...`)")


def local_processes(workers: int | None, scheduler: str | None = None) -> int:
    """The processes a run on this machine plays on: ``workers`` (at most every core), else every core; 1 for
    a run on the cluster at ``scheduler`` before it is reached (its size is then :meth:`Session.processes`):
    what an estimate made before anything starts rests on."""
    if scheduler is not None:
        return 1
    return max(1, min(workers or available_cores(), available_cores()))


def _as_completed(futures: list[cf.Future]) -> Iterator[cf.Future]:
    """``futures`` as they finish, looking for Ctrl-C every 0.1 s.  Each future reports to a queue once, where
    ``concurrent.futures.wait`` called after each one would walk every future still pending (a cost that grows
    with the tasks; on abstraction/turn's 741 the client's CPU did not measurably change)."""
    import queue

    finished: queue.SimpleQueue[cf.Future] = queue.SimpleQueue()
    for f in futures:
        f.add_done_callback(finished.put)
    for _ in range(len(futures)):
        while True:
            try:
                yield finished.get(timeout=0.1)
                break
            except queue.Empty:
                continue


@contextlib.contextmanager
def _local_pool(workers: int | None, prepare: Sequence[tuple[Any, Any]] = (),
                startup: dict[str, float] | None = None) -> Iterator[Any]:
    """A local :class:`~.pool.Pool` of ``workers`` processes forked from a server that prepared ``prepare``
    (:mod:`.forkserver`); the seconds of each step of its start go into ``startup`` (``server``: the server
    ready; ``cluster``: the first worker forked).  Left normally, the workers end after their tasks; left by an
    exception (Ctrl-C, a failure) they are killed at once."""
    import multiprocessing
    import time

    from .pool import Pool

    steps = {} if startup is None else startup
    clock = time.perf_counter()
    n = workers or available_cores()
    with forked(prepare, dask=False):
        steps["server"] = time.perf_counter() - clock
        clock = time.perf_counter()
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        pool = None
        try:
            with sigint_held():
                pool = Pool(n, multiprocessing.get_context(method))
                pool.started(timeout=120)
            steps["cluster"] = time.perf_counter() - clock
        except BaseException as e:
            if pool is not None:
                pool.stop()
            if isinstance(e, (KeyboardInterrupt, RunnerError)):
                raise
            raise RunnerError(f"cannot start the local workers: {e}") from None
        try:
            yield pool
        except BaseException:
            pool.stop()
            raise
        pool.shutdown()


def check_address(address: str) -> str:
    """``address`` if it is ``HOST:PORT`` (port 0 to 65535, 0 for a free one) and this machine can listen on
    HOST, else RunnerError: checked before any work, where the dashboard would otherwise fail the cluster's
    start (``8.8.8.8:8787``: "Cannot assign requested address") with a traceback.  HOST cannot hold ``:`` or
    ``,``, which Dask's own parsing splits at."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isascii() or not port.isdigit() or len(port) > 5 or int(port) > 65535 \
            or any(c.isspace() or c in ":," for c in host):
        raise RunnerError(f"--dashboard-address {address!r}: expected HOST:PORT, e.g. 127.0.0.1:8787")
    why = _cannot_listen(host)
    if why is not None:
        raise RunnerError(f"--dashboard-address {address!r}: this machine cannot listen on {host!r} ({why})")
    return address


def _cannot_listen(host: str) -> str | None:
    """Why no socket of this machine can listen on ``host`` (empty: every interface), or None if one can; each
    of its addresses is tried on a free port (a busy port is Dask's to replace with another)."""
    try:
        found = socket.getaddrinfo(host or None, 0, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as e:
        return str(e.args[-1]) if isinstance(e, socket.gaierror) else "not a host name"
    why = "no address"
    for family, kind, proto, _, where in found:
        try:
            with socket.socket(family, kind, proto) as s:
                s.bind(where)
            return None
        except OSError as e:
            why = e.strerror or str(e)
    return why


@contextlib.contextmanager
def _dask_client(workers: int | None, scheduler: str | None, dashboard: str | None,
                 prepare: Sequence[tuple[Any, Any]] = (), startup: dict[str, float] | None = None) -> Iterator[Any]:
    """A Dask client: on ``scheduler`` if given, else on a local cluster of ``workers`` processes (with its
    dashboard on the address ``dashboard``, if given) forked from a process that prepared ``prepare``; the
    seconds of each step of the start go into ``startup``."""
    import sys
    import time

    steps = {} if startup is None else startup
    clock = time.perf_counter()

    def step(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        steps[name] = now - clock
        clock = now

    if scheduler:
        client = _connect(scheduler)
        step("client")
        try:
            yield client
        finally:
            client.close()
        return
    n = workers or available_cores()
    cluster: Any = None
    local: Any = None
    with contextlib.ExitStack() as settings:
        # the process workers fork from starts first (its imports, the datasets prepared); this process imports
        # Dask while it does, so that on a machine of several cores the two overlap
        settings.enter_context(forked(prepare))
        step("server")
        import dask
        from distributed import Client, LocalCluster

        from .workers import QuietNanny, stop_workers

        _quiet_logs()
        # the cluster's settings hold for as long as it runs: workers that join later are made with them too
        settings.enter_context(dask.config.set({} if dashboard else LOCAL_CLUSTER_CONFIG))
        try:
            try:
                with sigint_held():
                    with warnings.catch_warnings():   # "Port 8787 is already in use" when another cluster runs
                        warnings.filterwarnings("ignore", message="Port .* is already in use")
                        cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                               worker_class=QuietNanny, dashboard_address=dashboard,
                                               silence_logs=logging.CRITICAL)
                    step("cluster")               # the scheduler and a first worker, forked and registered
                    local = Client(cluster)
                    step("client")
                    if n > 1:
                        cluster.scale(n)          # the others are forked while the first one computes
            except Exception as e:                # Dask's "Cluster failed to start: ...": one line, as the pool's
                raise RunnerError(f"cannot start the local Dask cluster: {e}") from None
            if dashboard:
                print(f"pokerpipe: Dask dashboard at {local.dashboard_link}", file=sys.stderr)
            yield local
        except BaseException:
            if cluster is not None:            # the run was abandoned: its running tasks are not waited for
                with contextlib.suppress(Exception):
                    local.wait_for_workers(n, timeout=SETTLE_SECONDS)   # workers half started close untidily
                with contextlib.suppress(Exception):
                    stop_workers(cluster)
            # closing a cluster whose workers are still joining can trip over Dask's own bookkeeping (a KeyError
            # for a worker it has not registered yet): the reason the run stopped is what the user sees
            for closing in (local, cluster):
                if closing is not None:
                    with contextlib.suppress(Exception):
                        closing.close()
            local = cluster = None
            raise
        finally:
            if local is not None:
                local.close()
            if cluster is not None:
                cluster.close()


def _connect(scheduler: str) -> Any:
    """A Dask client of the scheduler at ``scheduler``; RunnerError in one line if the address is malformed, if
    nothing answers there within :data:`CONNECT_TIMEOUT`, or if what answers is not a Dask scheduler."""
    import dask
    from distributed import Client
    from distributed.comm.addressing import get_address_host_port, parse_address

    _quiet_logs()
    try:                                  # checked before connecting: a ValueError below is then the answer's
        if parse_address(scheduler)[0] in ("tcp", "tls"):
            get_address_host_port(scheduler)
    except ValueError as e:
        raise RunnerError(f"--scheduler {scheduler!r}: {e}") from None
    try:
        return Client(scheduler, timeout=dask.config.get("pokerpipe.connect-timeout", CONNECT_TIMEOUT))
    except (OSError, TimeoutError) as e:
        raise RunnerError(f"cannot reach Dask scheduler {scheduler}: {e}") from None
    except MemoryError:
        # the first 8 bytes Dask reads are a frame's length: an HTTP or SSH server's greeting reads as exabytes
        raise RunnerError(f"not a Dask scheduler at {scheduler}: what answers there does not speak Dask's "
                          "protocol") from None
    except Exception as e:                # bytes that do not decode, a handshake of the wrong shape, ...
        cause = f"{type(e).__name__}: {e}" if str(e) else type(e).__name__
        raise RunnerError(f"not a Dask scheduler at {scheduler}, or not one this client can talk to: "
                          f"{cause}") from None


def _quiet_logs() -> None:
    """Dask's own logging off (a lost scheduler is reported in one line); after :mod:`distributed` is imported,
    which sets its loggers' levels from its config.  Above CRITICAL: Dask logs bytes it cannot decode (from a
    server that is not a scheduler) at CRITICAL, with a traceback, before the one line says so."""
    for noisy in ("distributed", "tornado", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL + 1)


class Progress:
    """A rich display on stderr: the dataset in progress and, over several, the whole run.  A part computed in
    pieces counts as each piece comes back (:meth:`piece`), and whole when it is written (:meth:`advance`):
    a local pool holds the writes while pieces are ready (:mod:`.ready`), so that counting written parts
    alone left the bar still until the end of a run of few parts, or of as many parts as workers."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self._bar: Any = None
        self._total: Any = None
        self._current: Any = None
        self._planned = self._skipped = 0
        self._parts = self._all = 0                 # parts done: the current dataset's, and the whole run's
        self._pieces = 0.0                          # what the pieces of parts not yet written add, in parts
        self._abandoned = False                     # the dataset's run stopped: no more pieces are counted
        self._tasks: dict[str, Any] = {}
        self._expected: dict[str, int] = {}
        self._lock = threading.Lock()

    def plan(self, total_parts: int, datasets: int) -> None:
        """Announce a run of ``datasets`` datasets with ``total_parts`` parts in all."""
        self._planned = total_parts if datasets > 1 else 0
        self._skipped = 0

    def dataset(self, name: str, parts: int, done: int) -> None:
        """A dataset starts computing: its own bar (and the overall one, when several run)."""
        if not self._start():
            return
        with self._lock:
            if self._current is not None:
                self._bar.remove_task(self._current)
            if self._planned and self._total is None:
                self._total = self._bar.add_task("all datasets", total=self._planned, completed=self._skipped)
                self._all = self._skipped
            self._current = self._bar.add_task(name, total=parts, completed=done)
            self._parts, self._pieces, self._abandoned = done, 0.0, False
            self._all += done
            self._show()

    def advance(self, n: int, pieces: float = 0.0) -> None:
        """``n`` parts written; ``pieces``: what their pieces had added already (:meth:`piece`)."""
        if self._bar is not None:
            with self._lock:
                self._parts += n
                self._all += n
                self._pieces = max(0.0, self._pieces - pieces)
                if self._pieces < 1e-9:
                    self._pieces = 0.0              # no rounding left over once every part is written
                self._show()

    def piece(self, fraction: float) -> None:
        """A piece of a part came back: ``fraction`` of a part (:meth:`advance` takes it back as the part is
        written).  Called from whichever thread ends the piece's future."""
        if self._bar is not None:
            with self._lock:
                if not self._abandoned:
                    self._pieces += fraction
                    self._show()

    def abandon(self) -> None:
        """The dataset's run stopped (Ctrl-C, a failure): what the pieces of parts not written added is taken
        back, and pieces ending later add nothing, so that the bar's last frame shows the parts written, the
        work a rerun keeps (``ehs-table/flop`` stopped with 6 of 176 parts written showed 8/176)."""
        if self._bar is not None:
            with self._lock:
                self._abandoned = True
                self._pieces = 0.0
                self._show()

    def _show(self) -> None:
        if self._current is not None:
            self._bar.update(self._current, completed=self._parts + self._pieces)
        if self._total is not None:
            self._bar.update(self._total, completed=self._all + self._pieces)

    def expect(self, label: str, tasks: int) -> None:
        """``tasks`` more tasks of ``label`` (an executor's bar, :mod:`.fanout`)."""
        if not self._start():
            return
        with self._lock:
            if label not in self._tasks:
                self._tasks[label] = self._bar.add_task(label, total=0, unit="tasks")
                self._expected[label] = 0
            self._expected[label] += tasks
            self._bar.update(self._tasks[label], total=self._expected[label])

    def finish(self, label: str, tasks: int) -> None:
        """``tasks`` tasks of ``label`` finished."""
        if self._bar is not None and label in self._tasks:
            self._bar.advance(self._tasks[label], tasks)

    def skip(self, parts: int) -> None:
        """A dataset found built: count its parts in the overall progress."""
        self._skipped += parts
        if self._bar is not None and self._total is not None:
            with self._lock:
                self._all += parts
                self._show()

    def stop(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def _start(self) -> bool:
        if self.quiet:
            return False
        if self._bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, ProgressColumn, TextColumn, TimeRemainingColumn
            from rich.progress import Progress as Bar
            from rich.text import Text

            class Rate(ProgressColumn):
                def render(self, task: Any) -> Text:
                    speed = task.finished_speed or task.speed
                    unit = task.fields.get("unit", "parts")
                    return Text("" if speed is None else f"{speed:,.1f} {unit}/s")

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), Rate(),
                            TextColumn("ETA"), TimeRemainingColumn(), console=Console(stderr=True))
            self._bar.start()
        return True
