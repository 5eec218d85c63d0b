"""Where a run's time goes: each part's cost and worker, and the client's own moments.

Every part a worker builds comes back with a :class:`PartTiming` beside its
checksum: which process built it, when that process was started, the wall
time and thread CPU the part took, the process's CPU before it (its start-up,
for a worker's first part), the seconds spent preparing the dataset's kernels
and tables in that process (:meth:`~pipeline.batch.spec.Dataset.prepare`, once
per process) and the process's peak memory.  The runner adds its own moments
(:class:`RunTrace`): the run's start, the cluster reached, the first part sent,
the last part back, the end.  ``benchmarks/bench_scaling.py`` turns these into
the terms of a scaling model; nothing here changes what a run writes.
"""
from __future__ import annotations

import os
import resource
import socket
import sys
import time
from dataclasses import dataclass, field

__all__ = ["PartTiming", "RunTrace", "process_started", "peak_rss"]

WHOLE = -1      # PartTiming.piece of a part computed and written in one task
WRITE = -2      # ... of the task that combined a part's pieces and wrote it


@dataclass(frozen=True)
class PartTiming:
    """One task of a part as its worker ran it: the whole part, one of its pieces, or their combining and write."""

    index: int            # the part's number
    worker: str           # host:pid of the process that built it
    spawned: float        # when that process started (epoch seconds)
    started: float        # when the part's work began, after any preparation (epoch seconds)
    finished: float       # when its files were written (epoch seconds)
    cpu: float            # thread CPU seconds of the part: compute, encode, hash, write
    cpu_before: float     # the process's CPU seconds before the part (and before any preparation)
    prepare: float        # wall seconds of preparing the dataset in this process just before the part (else 0)
    prepare_cpu: float    # CPU seconds of that preparation
    rss_peak: int         # the process's peak resident memory so far, bytes
    piece: int = WHOLE    # which task of the part: WHOLE, WRITE, or the number of one of its pieces

    @property
    def seconds(self) -> float:
        """The part's wall time."""
        return self.finished - self.started


@dataclass
class RunTrace:
    """The client's moments of one dataset's run (epoch seconds; 0 for a moment that did not happen) and the
    parts it computed, in the order they came back."""

    started: float = 0.0          # the run began (before its inputs were read)
    connected: float = 0.0        # the cluster was reached (started, for a local one)
    first_sent: float = 0.0       # the first task was handed to the cluster
    last_back: float = 0.0        # the last part came back
    finished: float = 0.0         # the manifest was written
    cluster_seconds: float = 0.0  # wall time spent starting or reaching the cluster within this run
    side_outputs: float = 0.0     # wall time of the side outputs after the last part: made and written (on a worker,
    #                               with a cluster), or, for a dataset that folds them in, finished by the client
    sent_cpu: float = 0.0         # the client process's CPU seconds (all its threads) when the first task was sent
    back_cpu: float = 0.0         # ... when the last part came back: between the two, the client's work per task
    #                               (with a local cluster, the scheduler's and the nannies' too: they run in it)
    parts: list[PartTiming] = field(default_factory=list)

    @property
    def serial_before(self) -> float:
        """Client seconds before the first part was sent, not counting the cluster's start."""
        return max(0.0, self.first_sent - self.started - self.cluster_seconds) if self.first_sent else 0.0

    @property
    def serial_after(self) -> float:
        """Client seconds after the last part came back, not counting the side outputs: the manifest."""
        return max(0.0, self.finished - self.last_back - self.side_outputs) if self.last_back else 0.0


_SPAWNED: tuple[int, float] | None = None     # (pid, when it started): a forked child does not inherit it


def process_started() -> float:
    """When this process started (epoch seconds), from the kernel's record of it (Linux: ``/proc``; elsewhere
    psutil, which Dask brings).

    The kernel counts a process's start in clock ticks since boot; that count is set against the clock that
    counts from boot (``CLOCK_BOOTTIME``) now, not added to ``/proc/stat``'s boot time, which is a whole
    second (so was psutil's): that made every worker's start look up to a second longer than it was, by the
    same fraction of a second on every process of a boot (0.95 s on the 2-core AMD EPYC)."""
    global _SPAWNED
    pid = os.getpid()
    if _SPAWNED is None or _SPAWNED[0] != pid:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                ticks = int(f.read().rsplit(b")", 1)[1].split()[19])
            age = time.clock_gettime(time.CLOCK_BOOTTIME) - ticks / os.sysconf("SC_CLK_TCK")
            _SPAWNED = pid, time.time() - age
        except (OSError, ValueError, IndexError, AttributeError):
            import psutil  # type: ignore[import-untyped]

            _SPAWNED = pid, float(psutil.Process().create_time())
    return _SPAWNED[1]


def peak_rss() -> int:
    """This process's peak resident memory, bytes (``ru_maxrss`` is kB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


def worker_name() -> str:
    """``host:pid`` of this process."""
    return f"{socket.gethostname()}:{os.getpid()}"


def now() -> float:
    return time.time()
