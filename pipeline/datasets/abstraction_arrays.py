"""The arrays of a street's abstraction: what its parts read on the workers (kept once per process) and what
its table writes beside the parts (``_buckets.npy``, ``_centroids.npy``, ``_distances.npy``), made as the parts
are written."""
from __future__ import annotations

import io
import threading
from collections.abc import Callable
from functools import partial
from typing import Any, Optional

import numpy as np
import pyarrow as pa

from ..core.arrow import values
from .streets import STREETS

MATRIX_MAX = 10_000                  # buckets up to which the inter-bucket distances are stored


class Kept:
    """An input read on a worker the first time a part asks for it, then kept for the process: one copy per
    worker, however many parts and pieces use it, and nothing of it in the tasks the client sends (the built
    turn table's dense buckets are 28 MB; K = 9,000 centroids 3.5 MB, once per piece).  Picklable
    (``read`` reads the planned dataset); ``key`` names what is read, the same content whatever folder holds it.
    """

    _kept: dict[str, Any] = {}
    KEEP = 4                      # inputs kept at once per process (a run reads one street's at a time)

    def __init__(self, read: Callable[[], Any], key: str) -> None:
        self.read, self.key = read, key

    def __call__(self) -> Any:
        if self.key not in self._kept:
            if len(self._kept) >= self.KEEP:
                self._kept.clear()
            self._kept[self.key] = self.read()
        return self._kept[self.key]


def _dense_turn_buckets(read: Callable[[], pa.Table]) -> np.ndarray:
    return dense_buckets(read(), "turn")


def TurnBuckets(read: Callable[[], pa.Table], key: str) -> Kept:
    """The built turn table's buckets as a dense array (uint16 per turn situation index, ``NO_BUCKET`` where a
    limited build did not reach), kept per worker (:class:`Kept`)."""
    return Kept(partial(_dense_turn_buckets, read), key)


def dense_buckets(table: pa.Table, street: str) -> np.ndarray:
    """A street table's ``index`` and ``bucket`` columns as one uint16 per situation index of the street,
    ``NO_BUCKET`` where the table holds none (a limited build)."""
    from ..abstraction.streets import NO_BUCKET
    from ..isomorphism.situations import street_size

    return placed(np.full(street_size(STREETS[street]), NO_BUCKET, np.uint16), table)


def placed(dense: np.ndarray, table: pa.Table) -> np.ndarray:
    """``dense`` with the bucket of each row of ``table`` at its situation ``index`` (batch by batch: no copy of
    the columns)."""
    for batch in table.select(["index", "bucket"]).to_batches():
        dense[values(batch.column(0))] = values(batch.column(1))
    return dense


def centroid_array(table: pa.Table) -> np.ndarray:
    """The (k, d) centroids of a ``-centroids`` dataset."""
    col = table.column("centroid").combine_chunks()
    d = col.type.list_size
    return values(col.flatten()).reshape(-1, d)


class BucketFold:
    """A street table's side outputs made as its parts are written (:class:`~pipeline.batch.spec.SideFold`):
    ``_buckets.npy``, one uint16 per situation index of the street (``NO_BUCKET`` where a limited build did not
    reach), filled part by part; the fit's ``_centroids.npy`` and, up to :data:`MATRIX_MAX` buckets, the
    distances between them, ``_distances.npy``.

    The fold lives in the client, which has not loaded the distances' kernel (0.4 s of imports and 0.3 s of
    numba's first use, for 1 ms of work at k = 256): the centroid files are made in a thread of their own from
    the first part on, while the workers compute the rest, and only the buckets' file is left for the end.  (Not a
    daemon: a run that fails meanwhile leaves it to finish, under a second, rather than be stopped mid-compile
    when the interpreter exits.)"""

    def __init__(self, street: str, k: int, centroids: Callable[[], np.ndarray]) -> None:
        self.street, self.k, self.centroids = street, k, centroids
        self.dense: Optional[np.ndarray] = None
        self.fixed: Optional[threading.Thread] = None
        self.made: list[Any] = []                  # the centroid files, or what stopped them

    def add(self, table: pa.Table) -> None:
        """Parts' ``index`` and ``bucket`` columns: each situation's bucket in its place (any order)."""
        if self.dense is None:
            self.dense = dense_buckets(table, self.street)
            self.fixed = threading.Thread(target=self._centroid_files, name="centroid-files")
            self.fixed.start()
        else:
            placed(self.dense, table)

    def _centroid_files(self) -> None:
        from ..abstraction.fitting import centroid_distances
        from ..abstraction.streets import METRIC
        from ..core.numba_start import numba_started

        numba_started()        # numba's first use in the client, without SciPy: 0.6 s of its CPU less

        try:
            centroids = self.centroids()
            matrix = (centroid_distances(centroids, METRIC[self.street]) if self.k <= MATRIX_MAX
                      else np.zeros((0, 0), np.float32))
            self.made.append({"_centroids.npy": npy_bytes(centroids), "_distances.npy": npy_bytes(matrix)})
        except BaseException as e:                 # noqa: BLE001 - raised again by outputs(), in the client's thread
            self.made.append(e)

    def outputs(self) -> dict[str, bytes]:
        if self.dense is None:                     # nothing added: a street without rows
            self.add(pa.table({"index": pa.array([], pa.int64()), "bucket": pa.array([], pa.uint16())}))
        assert self.fixed is not None and self.dense is not None
        self.fixed.join()
        (made,) = self.made
        if isinstance(made, BaseException):
            raise made
        return {"_buckets.npy": npy_bytes(self.dense), **made}


def npy_bytes(array: np.ndarray) -> bytes:
    """``array`` as the bytes of a ``.npy`` file, those of :func:`numpy.save`: its header, then its data
    joined on in one copy (``np.save`` into a buffer copies the data twice: 0.05 of the 0.13 s the buckets'
    file of abstraction/turn, 28 MB, took after the last part, when every worker idles)."""
    if array.dtype.hasobject:
        buf = io.BytesIO()
        np.save(buf, array)
        return buf.getvalue()
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, np.lib.format.header_data_from_array_1_0(array))
    data = array.T if array.flags.f_contiguous and not array.flags.c_contiguous else np.ascontiguousarray(array)
    return b"".join([header.getvalue(), data.reshape(-1).view(np.uint8).data])
