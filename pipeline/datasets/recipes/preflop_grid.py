"""``preflop-grid``: the exact 169x169 class-vs-class grid (28,561 rows), from ``matchups``.

Each ordered pair of hand classes with the specific combos it holds and the
row hand's wins, ties and losses summed over them (and equity derived from
those integers), plus ``_heatmap.png``: each hand's equity against one random
hand as a 13x13 picture.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...batch.parquet import described, dictionary_type, labels_array
from ...batch.spec import Dataset, Inputs
from ...core.arrow import column, values
from .matchups import Matchups, matchup_arrays

HEATMAP = "_heatmap.png"   # leading underscore: dataset readers skip it, like _manifest.json
GRID_SCHEMA = described(pa.schema([("hero", dictionary_type()), ("villain", dictionary_type()), ("combos", pa.int64()),
                                   ("wins", pa.int64()), ("ties", pa.int64()), ("losses", pa.int64()),
                                   ("win", pa.float64()), ("tie", pa.float64()), ("equity", pa.float64())]), {
    "hero": "the row hand's class ('AKs', 'QQ', '72o'; 169 in hold'em, 81 in short deck)",
    "villain": "the column hand's class",
    "combos": "specific combo pairs of the two classes that can be dealt together (no shared card)",
    "wins": "(combo pair, board) deals the hero wins, summed over the combo pairs and every board",
    "ties": "deals on which the two hands tie, summed likewise",
    "losses": "deals the villain wins, summed likewise",
    "win": "wins / (wins + ties + losses)",
    "tie": "ties / (wins + ties + losses)",
    "equity": "the hero's share of the pot: (wins + ties / 2) / (wins + ties + losses)",
})


class PreflopGrid(Dataset):
    """13 parts, one per row of the grid (hands whose first rank is A, K, ..., 2)."""

    name = "preflop-grid"
    description = "the exact 169 x 169 grid of hand class against hand class, summed from matchups"
    params = {"source": "matchups"}
    schema = GRID_SCHEMA
    side_output_names = (HEATMAP,)

    def dependencies(self) -> Sequence[Dataset]:
        return (Matchups(),)

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...equity.matchups import class_grid

        grid = class_grid(*matchup_arrays(inputs.read(Matchups(), columns=["wins", "ties", "losses"])))
        return [(r, grid[13 * r:13 * r + 13]) for r in range(13)]

    def planned_parts(self) -> int:
        return 13

    def rows(self, partition: Any) -> int:
        return 13 * 169

    def compute(self, partition: Any) -> pa.Table:
        r, rows = partition
        return grid_rows(rows, 13 * r)

    def side_outputs(self, table: Callable[[], pa.Table], inputs: Inputs) -> dict[str, bytes]:
        from ...core.hand_classes import CLASS_LABELS

        return {HEATMAP: heatmap_of(table(), CLASS_LABELS)}


def heatmap_of(t: pa.Table, labels: list[str], title: str = "Equity vs one random hand") -> bytes:
    """The heat map of a finished grid ``t`` over the classes ``labels``: each hero class's equity against one
    random hand, its rows' wins, ties and losses summed."""
    from ...equity.scoring import equity_fraction
    from ...plots.heatmap import heatmap_png

    n = len(labels)
    hero = values(t.column("hero").combine_chunks().indices)
    wtl = np.zeros((n, 3), np.int64)
    for k, c in enumerate(("wins", "ties", "losses")):
        np.add.at(wtl[:, k], hero, values(t.column(c)))
    equity = equity_fraction(wtl[:, 0], wtl[:, 1], wtl.sum(axis=1), unit=2)
    return heatmap_png(equity, labels, title)


def grid_rows(grid: np.ndarray, first_hero: int = 0, labels: list[str] | None = None) -> pa.Table:
    """Arrow table of ordered class pairs from rows of :func:`pipeline.equity.matchups.class_grid`'s array.

    ``grid`` is (h, n, 4) for the hero classes ``first_hero .. first_hero + h - 1`` of the ``n`` classes
    ``labels`` (the 169 of hold'em by default).
    """
    from ...core.hand_classes import CLASS_LABELS
    from ...equity.scoring import equity_fraction

    labels = CLASS_LABELS if labels is None else labels
    n = len(labels)
    h = grid.shape[0]
    idx = np.arange(h * n)
    g = grid.reshape(-1, 4)
    total = g[:, 1] + g[:, 2] + g[:, 3]
    return pa.table({
        "hero": labels_array(first_hero + idx // n, labels),
        "villain": labels_array(idx % n, labels),
        "combos": column(g[:, 0], pa.int64()),
        "wins": column(g[:, 1], pa.int64()),
        "ties": column(g[:, 2], pa.int64()),
        "losses": column(g[:, 3], pa.int64()),
        "win": column(g[:, 1] / total, pa.float64()),
        "tie": column(g[:, 2] / total, pa.float64()),
        "equity": column(equity_fraction(g[:, 1], g[:, 2], total, unit=2), pa.float64()),
    })


ORDER = 20


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"preflop-grid": PreflopGrid}
