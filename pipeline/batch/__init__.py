"""The batch layer: it builds datasets and knows no poker.

=================  ====================================================================
:mod:`.spec`       what a dataset is: name, parameters, schema, partitions, ``compute``
:mod:`.runner`     one dataset's partitions on the cluster: resume, lock, manifest, costly work first
:mod:`.manifest`   a run's manifest read back: whether it is a finished run of exactly this dataset
:mod:`.parts`      what the workers run: parts whole or in pieces, atomic checksummed writes
:mod:`.trace`      where a run's time goes: each task's worker, cost and start, the client's moments
:mod:`.session`    the cluster of a run (a local pool, or Dask's) and its progress display
:mod:`.pool`       the local pool: workers forked from a prepared server, fed by one thread
:mod:`.branches`   the pool's workers started as a tree: each forks half of the others, then serves
:mod:`.ready`      the pool's ready tasks, in the order free workers take them
:mod:`.handoff`    what passes between the pool and its workers: pickles, results left in files
:mod:`.forkserver` the server the local workers are forked from, started ahead of the command
:mod:`.preload`    what a local cluster's workers inherit from the process they are forked from
:mod:`.workers`    local workers that leave Ctrl-C to the command
:mod:`.sigint`     Ctrl-C while a local cluster starts: blocked, then held until the start is done
:mod:`.fanout`     the one fan-out: an executor whose tasks show on the progress display
:mod:`.parquet`    deterministic Parquet bytes and the parts' metadata
:mod:`.storage`    a local folder or an object-store URL (``Files``), written atomically
:mod:`.verified`   where a dataset's files lie, and the one verified read of them
:mod:`.hive`       Hive-style ``<key>=<value>/`` folders: the key column in the path, put back on reading
:mod:`.migrate`    folders of an earlier layout carried over by the next run
:mod:`.errors`     what a run raises
=================  ====================================================================

Only :mod:`pipeline.datasets` and the command line join it to the domain packages.
"""
from __future__ import annotations

from ..core.exports import lazy_exports

# the public names, each imported from its module on first use: importing one module of the layer (the fork
# server's, which the command line starts first thing: :func:`.forkserver.start_ahead`) does not load the runner,
# Arrow and the rest
_EXPORTS = {"Interrupted": "errors", "RunnerError": "errors", "ProgressExecutor": "fanout", "RunReport": "runner",
            "run_dataset": "runner", "Session": "session", "Dataset": "spec", "Inputs": "spec", "Storage": "storage",
            "StorageError": "storage"}

__all__ = sorted(_EXPORTS)

__getattr__ = lazy_exports(__name__, _EXPORTS, globals())
