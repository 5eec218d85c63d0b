"""Tiny datasets for runner tests; importable by Dask workers started from this folder."""
import os
import time

import pyarrow as pa

from pipeline.batch.spec import Dataset

SCHEMA = pa.schema([("i", pa.int64()), ("square", pa.int64()), ("label", pa.string())])


class Squares(Dataset):
    """``n`` parts of two rows each; ``delay`` seconds of sleep per part."""

    schema = SCHEMA

    def __init__(self, n=20, delay=0.0, name="squares"):
        self.n, self.delay, self.name = n, delay, name
        self.params = {"n": n}

    def partitions(self, inputs):
        return [(2 * i, self.delay) for i in range(self.n)]

    def rows(self, partition):
        return 2

    def compute(self, partition):
        return compute(partition)


def compute(part):
    i, delay = part
    if delay:
        time.sleep(delay)
    return pa.table({"i": pa.array([i, i + 1], pa.int64()), "square": pa.array([i * i, (i + 1) ** 2], pa.int64()),
                     "label": pa.array([f"n{i}", f"n{i + 1}"])})


def job(n=20, delay=0.0, name="squares"):
    return Squares(n, delay, name)


def pid():
    return os.getpid()


class Crasher(Squares):
    """Partition 3 kills its worker process every time it runs."""

    def compute(self, partition):
        if partition[0] == 6:
            os._exit(1)
        return compute(partition)


class Pieces(Squares):
    """``n`` parts of ``k`` rows, each part computed in ``k`` one-row pieces sent costly first (``delay`` seconds
    of sleep a piece, longer for later parts), so that a run has many more tasks than parts."""

    def __init__(self, n=12, k=4, delay=0.0, name="pieces"):
        super().__init__(n, delay, name)
        self.k = k
        self.params = {"n": n, "k": k}

    def partitions(self, inputs):
        return [[(self.k * i + j, self.delay) for j in range(self.k)] for i in range(self.n)]

    def rows(self, partition):
        return len(partition)

    def pieces(self, partition):
        return [[p] for p in partition]

    def cost(self, partition):
        return float(sum(i for i, _ in partition))

    def compute(self, partition):
        rows = []
        for i, delay in partition:
            if delay:
                time.sleep(delay)
            rows.append((i, i * i, f"n{i}"))
        return pa.table({"i": pa.array([r[0] for r in rows], pa.int64()),
                         "square": pa.array([r[1] for r in rows], pa.int64()),
                         "label": pa.array([r[2] for r in rows])})


def pieces(n=12, k=4, delay=0.0):
    return Pieces(n, k, delay)


class SlowPrepare(Squares):
    """A dataset whose preparation (as if its kernels compiled) takes a minute; it touches ``marker`` first."""

    def __init__(self, marker, n=4):
        super().__init__(n, 0.0, "slow-prepare")
        self.marker = str(marker)

    def prepare(self, sample):
        with open(self.marker + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.replace(self.marker + ".tmp", self.marker)      # whole when it appears
        time.sleep(60)


SIDE = 1000                          # elements of WithSides' array side output


class WithSides(Squares):
    """Squares with two side outputs, as the abstraction and the hand-weight tables have: an array and a document."""

    side_output_names = ("_a.npy", "_b.json")

    def __init__(self, n=4, delay=0.0, name="sides"):
        super().__init__(n, delay, name)

    def side_outputs(self, table, inputs):
        import io
        import json

        import numpy as np

        buf = io.BytesIO()
        np.save(buf, np.arange(SIDE, dtype=np.uint16))
        return {"_a.npy": buf.getvalue(), "_b.json": json.dumps({"rows": table().num_rows}).encode()}


class Overnight(Squares):
    """Squares whose own estimate is three days: refused unless the caller raised the limit."""

    def seconds(self):
        return 3 * 86400.0


KEYED_SCHEMA = pa.schema([("k", pa.int64()), ("i", pa.int64()), ("label", pa.string())])


class Keyed(Dataset):
    """``n`` parts of three rows, part ``j`` holding ``k = j // 3 + 1`` and ``i = 3j .. 3j+2`` (so every row has
    ``k = i // 9 + 1``): partitioned Hive-style by ``k``; ``hive=False`` gives the same recipe and parameters
    with its parts flat, as before a dataset declared its key; ``lie`` names each partition the next value of
    ``k`` (a recipe whose folders would disagree with its rows); ``side`` adds a side output made from the
    table (its ``k`` column read back)."""

    schema = KEYED_SCHEMA

    def __init__(self, n=7, hive=True, lie=False, side=False, name="keyed"):
        self.n, self.lie, self.name = n, lie, name
        self.params = {"n": n}
        self.partition_key = "k" if hive else None
        self.side_output_names = ("_k.json",) if side else ()

    def partitions(self, inputs):
        return [(j, j // 3 + 1) for j in range(self.n)]

    def rows(self, partition):
        return 3

    def partition_value(self, partition):
        return partition[1] + (1 if self.lie else 0)

    def compute(self, partition):
        j, k = partition
        return pa.table({"k": pa.array([k] * 3, pa.int64()), "i": pa.array(range(3 * j, 3 * j + 3), pa.int64()),
                         "label": pa.array([f"r{3 * j + t}" for t in range(3)])})

    def side_outputs(self, table, inputs):
        import json

        t = table(["i", "k"])
        return {"_k.json": json.dumps({"columns": t.column_names, "k": t.column("k").to_pylist(),
                                       "type": str(t.schema.field("k").type)}).encode()}


class Folded(Squares):
    """Squares whose side output, ``_sum.json`` (rows, the sum of the squares, and the rows' ``i`` in order), is
    folded in part by part (``side_columns``, ``side_fold``) or, read back whole, made by ``side_outputs``: the
    same bytes either way.  Every fold this process makes is kept in :attr:`folds`, with what was added."""

    side_output_names = ("_sum.json",)
    side_columns = ("i", "square")
    folds: list = []

    def __init__(self, n=8, delay=0.0, name="folded"):
        super().__init__(n, delay, name)

    def side_outputs(self, table, inputs):
        t = table(["i", "square"])
        return _sums(t.column("i").to_pylist(), t.column("square").to_pylist())

    def side_fold(self, inputs):
        fold = SumFold()
        Folded.folds.append(fold)
        return fold


class SumFold:
    def __init__(self):
        self.added = []                 # (rows, column types) of each add
        self.i, self.square = [], []

    def add(self, table):
        self.added.append((table.num_rows, [str(f.type) for f in table.schema]))
        self.i += table.column("i").to_pylist()
        self.square += table.column("square").to_pylist()

    def outputs(self):
        order = sorted(range(len(self.i)), key=self.i.__getitem__)        # any order of parts: the same file
        return _sums([self.i[k] for k in order], [self.square[k] for k in order])


class FoldFails(Folded):
    """Folded whose fold fails when its file is made (the client's own work, not a worker's)."""

    def side_fold(self, inputs):
        fold = SumFold()
        fold.outputs = lambda: 1 // 0
        return fold


def _sums(i, square):
    import json

    return {"_sum.json": json.dumps({"rows": len(i), "sum": sum(square), "i": i}).encode()}
