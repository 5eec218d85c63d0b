"""The process a local cluster's workers are forked from (multiprocessing's ``forkserver``), started with
the environment and the imports every worker needs, and stopped when a later cluster needs its own.

:func:`forked` is what :mod:`.session` enters around a local cluster's start; the rest is how the server is
started (its environment handed to it, never set in this process; its socket's folder short enough), waited
for, and stopped.
"""
from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any

# what a local cluster's fork server imports, in this order; the last prepares the listed datasets.  Not Dask: a
# local run's workers are a :class:`~.pool.Pool`'s (a Dask cluster's, with its dashboard, import it after the
# fork).  Nor the program's main module: the pool sends what it defines by value, and the console script's
# (the command line's Typer, Click and Rich, 0.14 s) would only delay the server, on whose imports the
# cluster's start waits
FORKSERVER_PRELOAD = ["numpy", "pyarrow", "numba", f"{__package__}.pool", f"{__package__}.preload"]


@contextlib.contextmanager
def forked(prepare: Sequence[tuple[Any, Any]], dask: bool = True) -> Iterator[None]:
    """Within the block, a local cluster's worker processes are forked from one server process (the
    ``forkserver`` start method) that imported, once, what every worker needs: numpy, pyarrow, numba, the
    pool and its workers' loop (:mod:`.pool`, :mod:`.handoff`), and :mod:`.preload`, which prepares there
    the datasets of ``prepare`` (``(dataset, sample)`` pairs).  ``dask``: the workers are a Dask cluster's
    (their nannies told to fork them from the server), else a :class:`~.pool.Pool`'s.

    Spawned afresh, each worker spent 0.7-3 s of CPU on imports and kernel loading before its first part,
    and all of it again per worker (on 16 workers, half the CPU of a short dataset).  Forked, a worker
    starts in a few hundredths of a second of CPU and shares the server's pages.  multiprocessing keeps one
    server per process: a server left by an earlier cluster of this process, whose workers have all ended, is
    stopped so that a new one prepares this cluster's datasets (when workers of another cluster still run,
    the server stays, and the new workers prepare what they need themselves).  Where ``forkserver`` does not
    exist (Windows), workers are spawned as before.

    The server is started before this process imports :mod:`distributed` (for a Dask cluster): those imports
    (and the packages Dask's own preload list names, pandas among them) then run while the server prepares,
    instead of before it starts.  A command can start it earlier still, before it knows what to prepare
    (:func:`start_ahead`): the server is then handed the list here, and has done its imports meanwhile.

    It starts with the environment Dask gives a worker it spawns (:data:`WORKER_ENVIRON`), and the list of
    what to prepare; no later child of this process inherits either, and this process's own
    environment is never set (:func:`_server_environ`).  The nannies of the cluster then set none of Dask's
    worker variables in it either (their ``pre-spawn-environ``): a later cluster of this process would have
    taken Dask's 64 kB trim threshold for a user's own value.
    """
    import multiprocessing

    if "forkserver" not in multiprocessing.get_all_start_methods():
        yield
        return
    from .preload import PREPARE, listed

    ctx = multiprocessing.get_context("forkserver")
    with listed(prepare) as server:
        if not _handed(server[PREPARE]):      # else a server started ahead (:func:`start_ahead`) prepares them
            _spawn(_server_environ_of(server))     # what the server starts with, no other process
        _ready(ctx, _import_dask if dask else _import_for_results)
    if not dask:
        yield
        return
    import dask as dask_config
    from distributed.utils import get_mp_context

    # the workers fork from the server and so take its environment: the one Dask's nannies set up for a worker
    # they spawn they would write into this process's own, for good (and with it every later fork server's)
    with dask_config.config.set({"distributed.worker.multiprocessing-method": "forkserver",
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
def _server_environ(environ: dict[str, str], fds: Sequence[int] = ()) -> Iterator[None]:
    """Within the block, the fork server multiprocessing starts (:func:`multiprocessing.forkserver.ensure_running`)
    starts with ``environ`` as its whole environment, and the descriptors ``fds`` open besides the ones
    multiprocessing passes it; this process's own environment stays as it is.

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
        server = subprocess.Popen(list(args), executable=path, env=environ, pass_fds=(*passfds, *fds),
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
    prepares (:func:`_ready`), after it has started: Dask's call, made after the server is ready,
    then cannot change the list the server starts with."""
    import importlib

    from distributed.versions import optional_packages, required_packages

    from . import workers  # noqa: F401 - the nanny, and distributed with it

    for package in required_packages + optional_packages:
        with contextlib.suppress(ImportError):
            importlib.import_module(package)


def _import_for_results() -> None:
    """What this process imports while a pool's fork server prepares: Arrow's compute functions, which the first
    cast of a part's returned columns would import in the middle of the run (0.07 s, where every other
    core waits on this process for its next task)."""
    with contextlib.suppress(ImportError):
        import pyarrow.compute  # noqa: F401


def _spawn(environ: dict[str, str], fds: Sequence[int] = ()) -> Any:
    """Start this process's fork server now, importing :data:`FORKSERVER_PRELOAD`, with ``environ`` as its whole
    environment (:func:`_server_environ`) and the descriptors ``fds`` open in it besides multiprocessing's own;
    return as soon as its process exists (it imports and prepares on its own from there): its ``Popen``, or None
    where none was started (one serves workers still running, or starting it failed: the cluster's own start
    tries again and reports it).  An idle server of an earlier cluster is stopped first.

    The server is started by a thread that blocks SIGINT, so that the workers it forks block it too
    (:mod:`.workers`).  Its process exists, its pid known, before this thread does anything a Ctrl-C can
    interrupt: a Ctrl-C that came while the starting thread was still spawning it found no pid to stop, and the
    server went on preparing (a minute in the test's slow dataset; compiling, the first time) as an orphan
    holding the run's stderr open, so that whoever waited for the run's output waited for it too."""
    import multiprocessing
    import threading
    from multiprocessing import forkserver, resource_tracker

    from .sigint import block_sigint_in_this_thread, sigint_held

    _stop_idle_forkserver()
    _short_socket_folder()
    multiprocessing.get_context("forkserver").set_forkserver_preload(FORKSERVER_PRELOAD)
    before = len(_SERVERS)

    def start() -> None:
        # starting multiprocessing's resource tracker unblocks SIGINT in the thread that starts it: started after
        # the block, by the fork server's own start, it would leave the server, and every worker, open to Ctrl-C
        with contextlib.suppress(BaseException):
            resource_tracker.ensure_running()
            block_sigint_in_this_thread()
            with _server_environ(environ, fds):
                forkserver.ensure_running()

    t = threading.Thread(target=start, name="pokerpipe-forkserver", daemon=True)
    t.start()
    try:
        with sigint_held():    # the hundredths of a second until the server's pid is known: a Ctrl-C meanwhile
            t.join()           # is acted on after them, and stops the server
    except BaseException:
        t.join()
        if len(_SERVERS) > before:
            _stop_forkserver()
        raise
    return _SERVERS[-1] if len(_SERVERS) > before else None


def _ready(ctx: Any, meanwhile: Callable[[], None]) -> None:
    """Wait until this process's fork server has imported and prepared everything (seconds; minutes the first
    time, when the kernels compile), with Ctrl-C seen at once: a Ctrl-C while it prepares stops it.  The
    cluster's start, which holds Ctrl-C until it is done, then only forks.  ``meanwhile`` runs in this thread
    while the server prepares (held from Ctrl-C, which is acted on after it: a KeyboardInterrupt raised inside
    an import was lost there, and the run waited on the server); it must not touch the preload list the server
    was started with."""
    import threading

    from .preload import ready
    from .sigint import block_sigint_in_this_thread, sigint_held

    def wait() -> None:
        with contextlib.suppress(BaseException):   # the cluster's own start tries again and reports it
            block_sigint_in_this_thread()
            p = ctx.Process(target=ready)
            p.start()
            p.join()

    t = threading.Thread(target=wait, name="pokerpipe-forkserver-ready", daemon=True)
    t.start()
    try:
        with sigint_held():
            meanwhile()
        while t.is_alive():
            t.join(0.1)
    except BaseException:
        _stop_forkserver()
        raise


# --------------------------------------------------------------------------- a server started ahead of its list

# The fork server :func:`start_ahead` started, while it waits for the list of what to prepare: its process and the
# pipe's end the list goes down.
_AHEAD: list[Any] = []


def start_ahead() -> None:
    """Start the fork server of the local cluster this process is about to run, now, before it knows what to
    prepare: the server imports what every worker needs (Dask, numpy, pyarrow, numba, and numba's own start,
    :func:`.preload.awaited`) while this process goes on with its own imports and planning, and is handed the
    datasets to prepare when the cluster starts (:func:`forked`).

    Those imports are most of the server's second: a command that starts it first thing has them done, on
    another core, by the time its runner asks for the cluster (``abstraction/turn``'s cluster start 1.21 ->
    0.76 s on 2 cores: docs/measured.md, issue 38).  A server never handed its list is stopped by
    :func:`discard_ahead` (the command found nothing to compute, or failed first); one whose process ends first
    (its command killed) reads the end of the pipe and ends too, once its imports are done.  Nothing happens
    where ``forkserver`` does not exist, where this process may use only one core (the server's imports would
    take it from the command's own), or where one was started ahead already."""
    import multiprocessing

    from ..core.cores import available_cores
    from .preload import AHEAD, PREPARE

    if "forkserver" not in multiprocessing.get_all_start_methods() or _AHEAD or available_cores() < 2:
        return
    listing, handing = os.pipe()
    server = None
    try:
        server = _spawn(_server_environ_of({PREPARE: f"{AHEAD}{listing}"}), (listing,))
    finally:
        os.close(listing)
        if server is None:              # none started, or a Ctrl-C stopped it (and is raised now)
            os.close(handing)
    if server is not None:
        _AHEAD[:] = [server.pid, handing]


def discard_ahead() -> None:
    """Stop the fork server :func:`start_ahead` started, unless it has been handed its list (it then serves the
    local cluster, and ends with this process)."""
    if not _AHEAD:
        return
    pid, handing = _AHEAD
    _AHEAD.clear()
    with contextlib.suppress(OSError):
        os.close(handing)
    if _forkserver_pid() == pid:
        _stop_forkserver()


def _handed(listing: str) -> bool:
    """Hand the fork server started ahead the path of the file listing what to prepare (:func:`.preload.listed`);
    whether it took it (False where none was started ahead, or it has ended: a new one is then started)."""
    if not _AHEAD:
        return False
    pid, handing = _AHEAD
    _AHEAD.clear()
    try:
        if _forkserver_pid() != pid:
            return False
        os.write(handing, handed_bytes(listing))     # a few dozen bytes: one write, never a partial one
        return True
    except OSError:                                  # it has ended (EPIPE)
        return False
    finally:
        os.close(handing)


def handed_bytes(listing: str) -> bytes:
    """What goes down the pipe to a server started ahead: the path, ended by a NUL (which no path holds), so
    that the server reads it whole without waiting for the pipe's end (a child this process forked without
    exec holds a copy of that end for as long as it lives)."""
    return os.fsencode(listing) + b"\0"


def _forkserver_pid() -> Any:
    """The pid of this process's fork server, None where none was started."""
    import multiprocessing.forkserver

    return getattr(getattr(multiprocessing.forkserver, "_forkserver", None), "_forkserver_pid", None)


def _server_environ_of(server: dict[str, str]) -> dict[str, str]:
    """The fork server's whole environment: Dask's for a worker (:data:`WORKER_ENVIRON`), this process's (a
    user's own value of a WORKER_ENVIRON name stays), and ``server``, what only the server reads."""
    return {**WORKER_ENVIRON, **os.environ, **server}


def _stop_idle_forkserver() -> None:
    """Stop this process's fork server if it runs and no child process of ours is alive (its preloads are an
    earlier cluster's): neither one multiprocessing lists nor a pool's worker (:func:`.pool.workers_alive`)."""
    import multiprocessing
    import sys

    pool = sys.modules.get(f"{__package__}.pool")
    if not multiprocessing.active_children() and not (pool is not None and pool.workers_alive()):
        _stop_forkserver()


def _stop_forkserver() -> None:
    """Stop this process's fork server, if it runs.  multiprocessing offers no public call for it: where its
    private one is missing, the server stays (and its workers prepare what it did not)."""
    import multiprocessing.forkserver
    import signal

    server = getattr(multiprocessing.forkserver, "_forkserver", None)
    pid = getattr(server, "_forkserver_pid", None)
    if pid is None:
        return
    with contextlib.suppress(Exception):
        os.kill(pid, signal.SIGKILL)     # it may be busy preparing (compiling): do not wait for it
    with contextlib.suppress(Exception):
        server._stop()                    # type: ignore[union-attr]
