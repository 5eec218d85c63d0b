"""A street table's pieces travel narrow (pipeline.datasets.recipes.abstraction.Street.piece_table) and their part
is still, byte for byte, the partition computed whole: the Parquet file a run writes does not depend on whether
its part was cut into pieces, nor on where they were made."""
from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from pipeline.batch.parquet import parquet_bytes
from pipeline.datasets.recipes.abstraction import Street, _boards

K = 8


def partition(street: str, boards: int) -> tuple:
    """The first ``boards`` canonical boards of ``street`` with made-up centroids (any centroids give a bucket
    and a distance to check) and the context the street's features need."""
    ds = Street(street, k=K)
    dimension = ds.fit().dimension
    rng = np.random.default_rng(7)
    centroids = np.sort(rng.random((K, dimension)), axis=1) * (46 if street == "turn" else 1)
    context: dict = {}
    if street == "river":
        context["clusters"] = np.arange(169) % 8
    if street == "flop":
        turn = rng.integers(0, 47, (K, Street("turn", k=K).fit().dimension))
        context["turn_centroids"] = np.sort(turn, axis=1).astype(np.float64)      # cumulative counts of 46 cards
    return ds, (_boards(street, boards), lambda: centroids, context)


@pytest.mark.parametrize("street, boards", [("turn", 60), ("flop", 3), ("river", 300)])
def test_a_part_from_narrow_pieces_is_the_partition_computed_whole(street: str, boards: int) -> None:
    ds, part = partition(street, boards)
    pieces = ds.pieces(part)
    assert len(pieces) > 1
    sent = [ds.piece_table(p) for p in pieces]
    whole = ds.compute(part)
    assert parquet_bytes(ds.combine(sent)) == parquet_bytes(whole)
    assert "equity" not in sent[0].column_names
    assert sum(t.nbytes for t in sent) < whole.nbytes


def test_a_turn_piece_crosses_in_about_half_the_bytes() -> None:
    """A turn situation's histogram counts its 46 river cards: a byte a bin."""
    ds, part = partition("turn", 25)
    sent = ds.piece_table(part)
    assert sent.schema.field("histogram").type.value_type == pa.uint8()
    assert sent.nbytes < 0.55 * ds.compute(part).nbytes
