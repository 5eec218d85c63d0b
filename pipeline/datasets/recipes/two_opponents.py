"""``two-opponents``: each of the 169 hands against two random hands, exact integer counts per board chunk.

The input of ``vs-random``'s k = 2 rows (see :mod:`pipeline.equity.two_opponents`
for how they are counted, board first).  The 134,459 canonical rivers are split
into 32 contiguous chunks, one part each: a part holds, for every class, the
sole wins, two-way ties, three-way ties and losses over its chunk's boards
(each weighted by its suit orbit).  Parts depend on nothing but their chunk, so
they are the same bytes whatever the workers, and a build resumes chunk by
chunk; summed over the parts, each class's row adds up to combos x
C(50,5) x C(45,2) x C(43,2) / 2 deals (:func:`two_opponent_totals` checks).
About 30 s of one core in all (``benchmarks/bench_two_opponents.py``).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...batch.parquet import described, dictionary_type, labels_array
from ...batch.spec import Dataset, Inputs
from ...core.arrow import column, values
from ...core.errors import InputError

CHUNKS = 32
COLUMNS = ["sole", "two_way", "three_way", "losses"]


class TwoOpponents(Dataset):
    """32 parts of 169 rows: the exact outcome counts of each class over one chunk of the canonical boards."""

    name = "two-opponents"
    description = ("each of the 169 hands against two random hands: exact outcome counts per chunk of the "
                   "canonical boards (the input of vs-random's two-opponent rows)")
    params = {"chunks": CHUNKS}
    schema = described(pa.schema([("chunk", pa.int64()), ("hand", dictionary_type()),
                                  *[(c, pa.int64()) for c in COLUMNS]]), {
        "chunk": "which of the 32 contiguous chunks of the 134,459 canonical river boards the row counts",
        "hand": "the hero's hand class of the 169",
        "sole": "(board, opponent pair) deals the hero wins alone, each board weighted by its suit orbit",
        "two_way": "deals on which the hero ties one opponent for the best hand (half the pot)",
        "three_way": "deals on which all three hands tie (a third of the pot)",
        "losses": "deals on which an opponent beats the hero",
    })

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...equity.two_opponents import board_chunks

        return [(i, a, b) for i, (a, b) in enumerate(board_chunks(CHUNKS))]

    def planned_parts(self) -> int:
        return CHUNKS

    def rows(self, partition: Any) -> int:
        return 169

    def compute(self, partition: Any) -> pa.Table:
        from ...core.hand_classes import CLASS_LABELS
        from ...equity.two_opponents import chunk_counts

        i, start, stop = partition
        counts = chunk_counts(start, stop)
        return pa.table({
            "chunk": column(np.full(169, i, np.int64), pa.int64()),
            "hand": labels_array(np.arange(169), CLASS_LABELS),
            **{c: column(counts[:, k], pa.int64()) for k, c in enumerate(COLUMNS)},
        })


def two_opponent_totals(table: pa.Table) -> np.ndarray:
    """(169, 4) counts of each class summed over the chunks of a finished ``two-opponents`` table, checked:
    InputError unless every chunk is there once and each class's deals are combos x C(50,5) x 446,985."""
    from ...equity.two_opponents import DEALS_PER_COMBO, class_combo_counts

    chunk = values(table.column("chunk"))
    hand = values(table.column("hand").combine_chunks().indices)
    if len(chunk) != 169 * CHUNKS or sorted(set(chunk.tolist())) != list(range(CHUNKS)):
        raise InputError(f"two-opponents holds {len(chunk):,} rows, expected {169 * CHUNKS:,} (169 per chunk)")
    counts = np.zeros((169, 4), np.int64)
    for k, c in enumerate(COLUMNS):
        np.add.at(counts[:, k], hand, values(table.column(c)).astype(np.int64))
    if not (counts.sum(axis=1) == class_combo_counts() * DEALS_PER_COMBO).all():
        raise InputError("two-opponents: the counts do not add up to every deal of each class")
    return counts


ORDER = 25


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"two-opponents": TwoOpponents}
