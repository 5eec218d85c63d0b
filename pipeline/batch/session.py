"""A batch run's Dask cluster and its progress display.

A :class:`Session` holds one cluster — a local one of ``workers`` processes,
or an existing one at ``scheduler`` — for every dataset a command builds, and
one rich progress display on stderr: the dataset in progress and, when several
are built, all of them with an overall ETA.  The cluster starts on first use.

Ctrl-C is the command's alone: a local cluster's workers never see SIGINT
(:mod:`.workers`), and a run abandoned for any reason stops them at once
instead of waiting for their running tasks.
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import logging
import os
import signal
import threading
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, Optional

from ..core.combinatorics import available_cores
from .errors import RunnerError
from .fanout import ProgressExecutor

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
    """One Dask cluster (local or ``scheduler``) and one progress display for a batch run.

    The cluster starts on first use, so a run that finds everything built starts
    none.  Options are checked when the session is made, before anything is
    touched on disk.
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None, quiet: bool = False,
                 dashboard: bool = False, dashboard_address: str | None = None) -> None:
        """``dashboard`` starts a local cluster's dashboard on ``dashboard_address`` (``HOST:PORT``; by default
        127.0.0.1 on a free port, so that only this machine can reach it: it shows the code and data)."""
        cap = WORKERS_PER_CORE * available_cores()
        if workers is not None and not 1 <= workers <= cap:
            raise RunnerError(f"--workers must be 1 to {cap} ({WORKERS_PER_CORE} per core), got {workers}")
        if scheduler is not None and not scheduler.startswith(("tcp://", "tls://", "ucx://", "inproc://")):
            raise RunnerError(f"--scheduler {scheduler!r}: expected an address such as tcp://host:8786")
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
        self._stack.__exit__(*(exc or (None, None, None)))

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
        if self._client is None:
            self._client = self._stack.enter_context(_dask_client(self.workers, self.scheduler, self.dashboard,
                                                                  prepare, self.startup))
        return self._client

    def submit(self, fn: Callable[..., Any], *args: Any, priority: int = 0) -> Any:
        """Run ``fn(*args)`` on the cluster; a future.  An argument that is an earlier submission's future is
        replaced there by its result, moved between workers, never through this process; of two tasks ready at
        once, the one of higher ``priority`` runs first (else the one submitted first)."""
        return self.client().submit(fn, *args, pure=False, priority=priority)

    def completed(self, futures: Iterable[Any]) -> Iterator[Any]:
        """``futures`` (of :meth:`submit`) one at a time as they finish; Ctrl-C is seen within 0.1 s."""
        from distributed import as_completed

        return iter(as_completed(list(futures)))

    def executor(self, label: str) -> ProgressExecutor:
        """The cluster as a ``concurrent.futures.Executor`` for domain code (:mod:`.fanout`): its tasks are
        shown as one bar, ``label``, of the session's progress display."""
        client = self.client()
        # a local cluster's workers may still be joining: count the ones it will have
        workers = self.workers or available_cores() if self.scheduler is None else sum(client.nthreads().values())
        return ProgressExecutor(self.cluster_executor(), self.progress, label, max(1, workers))

    def cluster_executor(self) -> cf.Executor:
        """The cluster's own executor (tasks never deduplicated), for the runner, which counts parts itself."""
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


def local_processes(workers: int | None, scheduler: str | None = None) -> int:
    """The processes a run on this machine plays on: ``workers`` (at most every core), else every core; 1 for
    a run on the cluster at ``scheduler`` before it is reached (its size is then :meth:`Session.processes`):
    what an estimate made before anything starts rests on."""
    if scheduler is not None:
        return 1
    return max(1, min(workers or available_cores(), available_cores()))


def check_address(address: str) -> str:
    """``address`` if it is ``HOST:PORT`` (port 0 to 65535, 0 for a free one), else RunnerError."""
    host, colon, port = address.rpartition(":")
    if not colon or not port.isascii() or not port.isdigit() or len(port) > 5 or int(port) > 65535 \
            or any(c.isspace() for c in host):
        raise RunnerError(f"--dashboard-address {address!r}: expected HOST:PORT, e.g. 127.0.0.1:8787")
    return address


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
        from distributed import Client

        _quiet_logs()
        try:
            import dask

            client = Client(scheduler, timeout=dask.config.get("pokerpipe.connect-timeout", CONNECT_TIMEOUT))
        except (OSError, TimeoutError, ValueError) as e:
            raise RunnerError(f"cannot reach Dask scheduler {scheduler}: {e}") from None
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
        settings.enter_context(_forked(prepare))
        step("server")
        import dask
        from distributed import Client, LocalCluster

        from .workers import QuietNanny, stop_workers

        _quiet_logs()
        # the cluster's settings hold for as long as it runs: workers that join later are made with them too
        settings.enter_context(dask.config.set({} if dashboard else LOCAL_CLUSTER_CONFIG))
        try:
            with _sigint_held():
                with warnings.catch_warnings():   # "Port 8787 is already in use" when another cluster runs
                    warnings.filterwarnings("ignore", message="Port .* is already in use")
                    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                           worker_class=QuietNanny, dashboard_address=dashboard,
                                           silence_logs=logging.CRITICAL)
                step("cluster")                   # the scheduler and a first worker, forked and registered
                local = Client(cluster)
                step("client")
                if n > 1:
                    cluster.scale(n)              # the others are forked while the first one computes
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


def _quiet_logs() -> None:
    """Dask's own logging off (a lost scheduler is reported in one line); after :mod:`distributed` is imported,
    which sets its loggers' levels from its config."""
    for noisy in ("distributed", "tornado", "asyncio"):
        logging.getLogger(noisy).setLevel(logging.CRITICAL)


# what a local cluster's fork server imports, in this order; the last prepares the listed datasets
FORKSERVER_PRELOAD = ["__main__", "distributed", "numpy", "pyarrow", "numba", f"{__package__}.preload"]


@contextlib.contextmanager
def _forked(prepare: Sequence[tuple[Any, Any]]) -> Iterator[None]:
    """Within the block, a local cluster's worker processes are forked from one server process (the
    ``forkserver`` start method) that imported, once, what every worker needs: the program's main module,
    Dask, numpy, pyarrow, numba, and :mod:`.preload`, which prepares there the datasets of ``prepare``
    (``(dataset, sample)`` pairs).

    Spawned afresh, each worker spent 0.7-3 s of CPU on imports and kernel loading before its first part,
    and all of it again per worker (on 16 workers, half the CPU of a short dataset).  Forked, a worker
    starts in a few hundredths of a second of CPU and shares the server's pages.  multiprocessing keeps one
    server per process: a server left by an earlier cluster of this process, whose workers have all ended, is
    stopped so that a new one prepares this cluster's datasets (when workers of another cluster still run,
    the server stays, and the new workers prepare what they need themselves).  Where ``forkserver`` does not
    exist (Windows), workers are spawned as before.

    The server is started before this process imports :mod:`distributed`: those imports (and the packages
    Dask's own preload list names, pandas among them) then run while the server prepares, instead of
    before it starts.  It starts with the environment Dask gives a worker it spawns (:data:`WORKER_ENVIRON`),
    and the list of what to prepare; no later child of this process inherits either, and this process's own
    environment is never set (:func:`_server_environ`).  The nannies of the cluster then set none of Dask's
    worker variables in it either (their ``pre-spawn-environ``): a later cluster of this process would have
    taken Dask's 64 kB trim threshold for a user's own value.
    """
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        yield
        return
    from .preload import listed

    _stop_idle_forkserver()
    _short_socket_folder()
    ctx = multiprocessing.get_context("forkserver")
    with listed(prepare) as server:
        ctx.set_forkserver_preload(FORKSERVER_PRELOAD)
        # what the server starts with, no other process; a user's own value of a WORKER_ENVIRON name stays
        _forkserver_ready(ctx, _import_dask, environ={**WORKER_ENVIRON, **os.environ, **server})
    import dask
    from distributed.utils import get_mp_context

    # the workers fork from the server and so take its environment: the one Dask's nannies set up for a worker
    # they spawn they would write into this process's own, for good (and with it every later fork server's)
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver",
                          "distributed.nanny.pre-spawn-environ": {}}):
        get_mp_context()      # Dask sets its own preload list, once per process; ours replaces it
        ctx.set_forkserver_preload(FORKSERVER_PRELOAD)
        yield


# A Unix socket's path holds at most 103 bytes on macOS (107 on Linux).  multiprocessing puts the fork server's in
# ``<temporary folder>/pymp-XXXXXXXX/listener-XXXXXXXX``, 32 bytes after the temporary folder's path.
SOCKET_PATH_MOST = 103


def _short_socket_folder() -> None:
    """Where the temporary folder's path (``TMPDIR``) is too long for the fork server's socket, have
    multiprocessing make its folder in ``/tmp`` instead (as Python 3.14 does itself): the cluster's start failed
    with a traceback ("AF_UNIX path too long").  multiprocessing makes that folder once per process, at its
    first need, and removes it at exit."""
    import tempfile
    from multiprocessing import process, util

    if process.current_process()._config.get("tempdir") is not None:    # type: ignore[attr-defined]
        return
    if len(os.fsencode(tempfile.gettempdir())) + len("/pymp-XXXXXXXX/listener-XXXXXXXX") <= SOCKET_PATH_MOST:
        return
    if not os.path.isdir("/tmp"):
        return
    before = tempfile.tempdir
    tempfile.tempdir = "/tmp"
    try:
        util.get_temp_dir()
    finally:
        tempfile.tempdir = before


# The environment a local cluster's workers need from their first instruction.  The libraries read it as they
# load, which a forked worker did in the fork server, so the server starts with it.
#
# From Dask's nannies (their configuration's ``distributed.nanny.pre-spawn-environ``): one thread for each
# numerical library, whose pools a worker would otherwise size to every core while every core runs a worker.
#
# Not from Dask: its nannies set glibc's trim threshold to 64 kB, so that a long-lived worker hands freed memory
# back to the kernel at once.  A pokerpipe worker lives for one run and asks for the same memory again at its
# next task, and every page the kernel hands out again it zeroes first (2 MB at a time where transparent huge
# pages are on).  So a worker keeps what it frees: glibc neither trims its heap below 1 GiB nor maps blocks
# under 256 MiB apart, and Arrow allocates from that same heap (its system pool) instead of its own, which
# purges.  Measured on abstraction/turn (2,000 turns, k = 64; docs/measured.md, issue 38): the 1-worker run's
# pieces 4.53 -> 3.97 s of CPU, its part writes 2.06 -> 1.74 s, and at 8 workers the writes' extra CPU over
# 1 worker (each new process growing its heap) 0.95 -> 0.26 s.
WORKER_ENVIRON = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                  "MALLOC_TRIM_THRESHOLD_": str(1 << 30), "MALLOC_MMAP_THRESHOLD_": str(256 << 20),
                  "ARROW_DEFAULT_MEMORY_POOL": "system"}


@contextlib.contextmanager
def _server_environ(environ: dict[str, str]) -> Iterator[None]:
    """Within the block, the fork server multiprocessing starts (:func:`multiprocessing.forkserver.ensure_running`)
    starts with ``environ`` as its whole environment; this process's own stays as it is.

    Setting the values in this process's environment for the moment of the start, as an earlier version did,
    raced with every other thread of the process that started a program then: adding a variable can make the C
    library move the environment's array, which a program being started (``vfork``, sharing this process's
    memory) was still reading, and its ``exec`` failed with ``EFAULT`` ("Bad address": a test's concurrent
    command line, in CI).  multiprocessing offers no way to give the server an environment, so its private
    spawning call is replaced for the block by one that does the same (the listed descriptors passed, every
    other closed, signals as they are) with ``environ``; any other program it starts meanwhile (the resource
    tracker) it starts as before.  Where that call is missing, the server starts with this process's environment.
    """
    import subprocess
    from multiprocessing import util

    original = getattr(util, "spawnv_passfds", None)
    if original is None:
        yield
        return

    def spawn(path: Any, args: Sequence[Any], passfds: Sequence[int]) -> int:
        if not any("forkserver" in str(arg) for arg in args):
            return original(path, args, passfds)
        server = subprocess.Popen(list(args), executable=path, env=environ, pass_fds=tuple(passfds),
                                  close_fds=True, restore_signals=False)
        _SERVERS.append(server)     # held, never collected: multiprocessing itself waits for the server's end
        return server.pid

    util.spawnv_passfds = spawn
    try:
        yield
    finally:
        util.spawnv_passfds = original


# fork servers started with an environment of their own (:func:`_server_environ`); a Popen object dropped while
# its process runs would be waited for by :mod:`subprocess`, and multiprocessing's own wait would then fail
_SERVERS: list[Any] = []


def _import_dask() -> None:
    """Import what this process needs to start a local cluster: :mod:`distributed`, the nanny, and what Dask's
    ``get_mp_context`` imports the first time it is called (:data:`distributed.versions.required_packages`
    and ``optional_packages``: pandas, lz4), so that the call finds them imported.  Run while the fork server
    prepares (:func:`_forkserver_ready`), after it has started: Dask's call, made after the server is ready,
    then cannot change the list the server starts with."""
    import importlib

    from distributed.versions import optional_packages, required_packages

    from . import workers  # noqa: F401 - the nanny, and distributed with it

    for package in required_packages + optional_packages:
        with contextlib.suppress(ImportError):
            importlib.import_module(package)


def _forkserver_ready(ctx: Any, meanwhile: Callable[[], None] = lambda: None,
                      environ: Optional[dict[str, str]] = None) -> None:
    """Start the fork server now and wait until it has imported and prepared everything (seconds; minutes
    the first time, when the kernels compile), with Ctrl-C seen at once: the server is started by a thread
    that blocks SIGINT (so the workers it forks block it too, :mod:`.workers`), and a Ctrl-C while it
    prepares stops it.  The cluster's start, which holds Ctrl-C until it is done, then only forks.
    ``meanwhile`` runs in this thread while the server starts and prepares: it must not touch the preload
    list the server is started with.  ``environ``, where given, is the server's whole environment
    (:func:`_server_environ`).

    The server's process exists, its pid known, before this thread does anything a Ctrl-C can interrupt: a
    Ctrl-C that came while the starting thread was still spawning it found no pid to stop, and the server
    went on preparing (a minute in the test's slow dataset; compiling, the first time) as an orphan holding
    the run's stderr open, so that whoever waited for the run's output waited for it too."""
    import threading
    from multiprocessing import forkserver, resource_tracker

    from .preload import ready
    from .sigint import block_sigint_in_this_thread

    spawned = threading.Event()

    def start() -> None:
        # starting multiprocessing's resource tracker unblocks SIGINT in the thread that starts it: started after
        # the block, by the fork server's own start, it would leave the server, and every worker, open to Ctrl-C
        try:
            resource_tracker.ensure_running()
            block_sigint_in_this_thread()
            with _server_environ(environ) if environ is not None else contextlib.nullcontext():
                forkserver.ensure_running()     # spawned now (it imports and prepares on its own from here)
        except BaseException:           # noqa: BLE001 - the cluster's own start tries again and reports it
            return
        finally:
            spawned.set()
        try:
            p = ctx.Process(target=ready)
            p.start()
            p.join()
        except BaseException:           # noqa: BLE001 - as above
            pass

    t = threading.Thread(target=start, name="pokerpipe-forkserver", daemon=True)
    t.start()
    try:
        with _sigint_held():    # the hundredths of a second until the server's pid is known, then the imports:
            spawned.wait()      # a Ctrl-C meanwhile is acted on after them (a KeyboardInterrupt raised inside an
            meanwhile()         # import was lost there, and the run waited on the server)
        while t.is_alive():
            t.join(0.1)
    except BaseException:
        _stop_forkserver()
        raise


def _stop_idle_forkserver() -> None:
    """Stop this process's fork server if it runs and no child process of ours is alive (its preloads are an
    earlier cluster's)."""
    import multiprocessing

    if not multiprocessing.active_children():
        _stop_forkserver()


def _stop_forkserver() -> None:
    """Stop this process's fork server, if it runs.  multiprocessing offers no public call for it: where its
    private one is missing, the server stays (and its workers prepare what it did not)."""
    import multiprocessing.forkserver
    import os
    import signal as signals

    server = getattr(multiprocessing.forkserver, "_forkserver", None)
    pid = getattr(server, "_forkserver_pid", None)
    if pid is None:
        return
    with contextlib.suppress(Exception):
        os.kill(pid, signals.SIGKILL)     # it may be busy preparing (compiling): do not wait for it
    with contextlib.suppress(Exception):
        server._stop()                    # type: ignore[union-attr]


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold a Ctrl-C that comes while the block runs, and act on it when the block ends.

    A local cluster interrupted while its workers start cannot be closed
    cleanly (Dask's exit hook then trips over workers half started, with a
    traceback); one fully started can.  So the start, a second or two, finishes
    first; a second Ctrl-C stops waiting for it.  Outside the main thread, where
    no handler can be set, nothing is held.
    """
    held: list[int] = []

    def hold(signum: int, frame: object) -> None:
        if held:                         # Ctrl-C again: the start seems stuck, stop now
            raise KeyboardInterrupt
        held.append(signum)

    with signal_handled(signal.SIGINT, hold) as old:
        yield
    if held and callable(old):
        old(signal.SIGINT, None)         # Python's own handler raises KeyboardInterrupt


@contextlib.contextmanager
def signal_handled(signum: int, handler: Callable[[int, Any], None]) -> Iterator[Any]:
    """Handle ``signum`` with ``handler`` for the duration of the block, then restore the handler it replaced
    (which it yields).  Outside the main thread, where no handler can be set, nothing changes (None)."""
    try:
        old = signal.signal(signum, handler)
    except ValueError:                   # not the main thread
        yield None
        return
    try:
        yield old
    finally:
        signal.signal(signum, old)


class Progress:
    """A rich display on stderr: the dataset in progress and, over several, the whole run."""

    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self._bar: Any = None
        self._total: Any = None
        self._current: Any = None
        self._planned = self._skipped = 0
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
        if self._current is not None:
            self._bar.remove_task(self._current)
        if self._planned and self._total is None:
            self._total = self._bar.add_task("all datasets", total=self._planned, completed=self._skipped)
        self._current = self._bar.add_task(name, total=parts, completed=done)
        if self._total is not None:
            self._bar.advance(self._total, done)

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._current, n)
            if self._total is not None:
                self._bar.advance(self._total, n)

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
            self._bar.advance(self._total, parts)

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
