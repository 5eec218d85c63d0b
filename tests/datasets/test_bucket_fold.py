"""BucketFold: a street table's side outputs folded in part by part (pipeline/datasets/abstraction_arrays.py).
The expected arrays are built here with numpy from the rows themselves, not by the code under test."""
import io

import numpy as np
import pyarrow as pa
import pytest

from pipeline.abstraction.streets import NO_BUCKET
from pipeline.datasets.abstraction_arrays import BucketFold, npy_bytes

FLOP = 1_286_792          # canonical flop situations (Waugh 2013)
K = 6


def _load(data: bytes) -> np.ndarray:
    return np.load(io.BytesIO(data))


def _rows(seed: int = 7, n: int = 5000) -> tuple[np.ndarray, np.ndarray, pa.Table]:
    rng = np.random.default_rng(seed)
    index = rng.choice(FLOP, n, replace=False)
    bucket = rng.integers(0, K, n).astype(np.uint16)
    return index, bucket, pa.table({"index": pa.array(index, pa.int64()), "bucket": pa.array(bucket, pa.uint16())})


def test_parts_added_in_any_order_give_the_dense_buckets_and_the_centroid_files() -> None:
    index, bucket, table = _rows()
    centroids = np.random.default_rng(3).random((K, 4))
    batches = table.to_batches(max_chunksize=700)
    outputs = []
    shuffled = np.random.default_rng(5).permutation(len(batches))
    for order in (range(len(batches)), reversed(range(len(batches))), shuffled):
        fold = BucketFold("flop", K, lambda: centroids)
        for i in order:
            fold.add(pa.Table.from_batches([batches[i]]))
        outputs.append(fold.outputs())
    assert outputs[0] == outputs[1] == outputs[2]                  # the bytes do not depend on the order
    want = np.full(FLOP, NO_BUCKET, np.uint16)
    want[index] = bucket
    dense = _load(outputs[0]["_buckets.npy"])
    assert dense.dtype == np.uint16 and (dense == want).all()
    assert (_load(outputs[0]["_centroids.npy"]) == centroids).all()
    l1 = np.abs(centroids[:, None, :] - centroids[None, :, :]).sum(-1)   # the flop's metric: L1
    assert np.allclose(_load(outputs[0]["_distances.npy"]), l1, rtol=1e-6, atol=0)


def test_nothing_added_is_a_street_without_buckets() -> None:
    out = BucketFold("flop", K, lambda: np.zeros((K, 4))).outputs()
    dense = _load(out["_buckets.npy"])
    assert dense.shape == (FLOP,) and (dense == NO_BUCKET).all()


def test_what_stopped_the_centroid_files_is_raised_by_outputs() -> None:
    def lost() -> np.ndarray:
        raise FileNotFoundError("abstraction/flop-centroids")

    fold = BucketFold("flop", K, lost)
    fold.add(_rows()[2])
    with pytest.raises(FileNotFoundError, match="flop-centroids"):
        fold.outputs()


@pytest.mark.parametrize("array", [
    np.arange(10, dtype=np.uint16), np.zeros((0, 0), np.float32), np.zeros((2, 0, 3)), np.array(3.5),
    np.random.default_rng(1).random((7, 5)).astype(np.float32), np.random.default_rng(2).random((8, 6))[::2, 1:],
    np.asfortranarray(np.random.default_rng(3).random((3, 4, 5))), np.array(["a", "bc"]),
    np.zeros(3, dtype=[("x", "<i4"), ("y", "<f8")]), np.array([1, None], dtype=object)],
    ids=["uint16", "empty", "empty-3d", "0-d", "float32", "strided", "fortran", "text", "structured", "object"])
def test_npy_bytes_are_numpy_saves_own(array: np.ndarray) -> None:
    buf = io.BytesIO()
    np.save(buf, array)
    assert npy_bytes(array) == buf.getvalue()
