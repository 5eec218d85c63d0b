"""Short-deck (6+) hold'em's preflop datasets: ``shortdeck-matchups``, ``-preflop-grid`` and ``-vs-random``.

The 52-card family (``matchups``, ``preflop-grid``, ``vs-random``) on the 36-card deck, six to ace
(:mod:`pipeline.shortdeck`):

* ``shortdeck-matchups``: the 10,215 matchup classes (176,715 specific matchups), hero's exact wins, ties
  and losses over all 201,376 boards, 500 classes a part;
* ``shortdeck-preflop-grid``: the 81x81 class-vs-class grid (6,561 rows) summed from them, one part per
  first rank, and ``_heatmap.png``, each class's equity against one random hand as a 9x9 picture;
* ``shortdeck-vs-random``: each of the 81 classes against k = 1..9 random hands, exact for one opponent
  (from the grid) and for two (every board and pair of opponent hands, board first:
  :func:`pipeline.shortdeck.preflop.vs_two`, one part of a few seconds), seeded Monte Carlo beyond, each
  class seeded from ``(seed, k, class)`` alone.

Each takes ``ranking``: ``"straight"`` (a straight beats three of a kind, as pokerkit ranks it; the
default) or ``"trips"`` (the Six Plus ranking); a flush beats a full house in both.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...batch.parquet import described, labels_array
from ...batch.spec import Dataset, Inputs
from ...core.arrow import column, text, values
from ...core.errors import InputError
from ...core.inputs import amount, integer, shown
from ..streets import MAX_LIMIT
from .matchups import MATCHUP_SCHEMA, matchup_columns
from .preflop_grid import GRID_SCHEMA, HEATMAP
from .vs_random import (
    DEFAULT_OPPONENTS,
    DEFAULT_SEED,
    DEFAULT_TRIALS,
    MAX_SEED,
    MAX_TRIALS,
    VS_RANDOM_SCHEMA,
    opponent_counts,
    opponents_of,
    vs_random_exact_rows,
    vs_random_mc_rows,
    vs_two_exact_rows,
)

ROWS_PER_PART = 500
EXACT = (1, 2)              # opponent counts counted exactly; trials and seed apply to the rest
RANKINGS = ("straight", "trips")


def _ranking(value: Any, what: str) -> str:
    if not isinstance(value, str) or value not in RANKINGS:
        raise InputError(f"{what} must be one of {', '.join(RANKINGS)} (which beats the other of a straight "
                         f"and three of a kind), got {shown(value)}")
    return value


def _labels() -> list[str]:
    from ...shortdeck.classes import CLASS_LABELS

    return CLASS_LABELS


class ShortDeckMatchups(Dataset):
    """The 10,215 matchup classes of the short deck in canonical order, 500 per part (``limit``: the first N)."""

    name = "shortdeck-matchups"
    description = ("every heads-up short-deck (36-card) matchup up to suit isomorphism, with the hero's exact "
                   "wins, ties and losses over all 201,376 boards")
    schema = described(MATCHUP_SCHEMA, matchup_columns("201,376", "176,715", "81"))

    def __init__(self, ranking: str = "straight", limit: int | None = None) -> None:
        self.ranking = _ranking(ranking, f"{self.name}.ranking")
        self.limit = None if limit is None else integer(limit, f"{self.name}.limit", lo=1, hi=MAX_LIMIT)
        self.params = {"ranking": self.ranking, "rows_per_part": ROWS_PER_PART,
                       **({"limit": self.limit} if self.limit is not None else {})}

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...shortdeck.preflop import matchups

        codes, weights = matchups()
        if self.limit is not None:
            codes, weights = codes[:self.limit], weights[:self.limit]
        return [(codes[i:i + ROWS_PER_PART], weights[i:i + ROWS_PER_PART])
                for i in range(0, len(codes), ROWS_PER_PART)]

    def planned_parts(self) -> int:
        return -(-min(10_215, self.limit or 10_215) // ROWS_PER_PART)

    def rows(self, partition: Any) -> int:
        return len(partition[0])

    def compute(self, partition: Any) -> pa.Table:
        from ...core.cards import format_cards
        from ...equity.matchups import decode
        from ...shortdeck import deck_of
        from ...shortdeck.classes import class_of
        from ...shortdeck.preflop import matchup_counts

        codes, weights = np.asarray(partition[0], np.int64), partition[1]
        wtl = matchup_counts(codes, deck_of(self.ranking))
        cards = [decode(code) for code in codes.tolist()]
        return pa.table({
            "hero": text([format_cards(c[:2]) for c in cards]),
            "villain": text([format_cards(c[2:]) for c in cards]),
            "hero_class": labels_array([class_of(c[0], c[1]) for c in cards], _labels()),
            "villain_class": labels_array([class_of(c[2], c[3]) for c in cards], _labels()),
            "wins": column(wtl[:, 0], pa.int64()),
            "ties": column(wtl[:, 1], pa.int64()),
            "losses": column(wtl[:, 2], pa.int64()),
            "weight": column(np.asarray(weights, np.int64), pa.int64()),
        })


def _grid(inputs: Inputs, ranking: str) -> np.ndarray:
    """(81, 81, 4) grid from the whole finished ``shortdeck-matchups`` of ``ranking``."""
    from ...shortdeck.preflop import grid, matchups

    table = inputs.read(ShortDeckMatchups(ranking), columns=["wins", "ties", "losses"])
    codes, _ = matchups()
    wtl = np.stack([values(table.column(c)) for c in ("wins", "ties", "losses")], axis=1).astype(np.int64)
    if len(wtl) != len(codes):
        raise InputError(f"shortdeck-matchups holds {len(wtl):,} rows, expected all {len(codes):,}")
    return grid(codes, wtl)


class ShortDeckPreflopGrid(Dataset):
    """9 parts, one per row of the grid (hands whose first rank is A, K, ..., 6), and the 9x9 heat map."""

    name = "shortdeck-preflop-grid"
    description = "the exact 81 x 81 short-deck grid of hand class against hand class, summed from its matchups"
    schema = GRID_SCHEMA
    side_output_names = (HEATMAP,)

    def __init__(self, ranking: str = "straight") -> None:
        self.ranking = _ranking(ranking, f"{self.name}.ranking")
        self.params = {"ranking": self.ranking, "source": "shortdeck-matchups"}

    def dependencies(self) -> Sequence[Dataset]:
        return (ShortDeckMatchups(self.ranking),)

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        grid = _grid(inputs, self.ranking)
        return [(r, grid[9 * r:9 * r + 9]) for r in range(9)]

    def planned_parts(self) -> int:
        return 9

    def rows(self, partition: Any) -> int:
        return 9 * 81

    def compute(self, partition: Any) -> pa.Table:
        from .preflop_grid import grid_rows

        r, rows = partition
        return grid_rows(rows, 9 * r, _labels())

    def side_outputs(self, table: Callable[[], pa.Table], inputs: Inputs) -> dict[str, bytes]:
        from .preflop_grid import heatmap_of

        return {HEATMAP: heatmap_of(table(), _labels(), "Short deck: equity vs one random hand")}


class ShortDeckVsRandom(Dataset):
    """One part for each of k = 1 (exact, from the grid) and k = 2 (exact, counted), 9 parts of 9 classes for
    each k >= 3 (Monte Carlo)."""

    name = "shortdeck-vs-random"
    description = ("each of the 81 short-deck hands against 1 to 9 random hands: exact for one and two "
                   "opponents, seeded Monte Carlo beyond")
    schema = VS_RANDOM_SCHEMA
    partition_key = "opponents"       # each part is one opponent count: opponents=3/part-00002.parquet

    def __init__(self, opponents: list[int] | int | str = DEFAULT_OPPONENTS, trials: int = DEFAULT_TRIALS,
                 seed: int = DEFAULT_SEED, ranking: str = "straight") -> None:
        self.opponents = opponent_counts(opponents, f"{self.name}.opponents")
        self.trials = integer(trials, f"{self.name}.trials", lo=1)
        if self.trials > MAX_TRIALS:
            raise InputError(f"{self.name}.trials {amount(self.trials)} per hand is days of work; use at most "
                             f"{MAX_TRIALS:,}")
        self.seed = integer(seed, f"{self.name}.seed", lo=0, hi=MAX_SEED)
        self.ranking = _ranking(ranking, f"{self.name}.ranking")
        self.params = {"opponents": self.opponents, "trials": self.trials, "seed": self.seed,
                       "ranking": self.ranking, "exact": [k for k in self.opponents if k in EXACT]}

    def dependencies(self) -> Sequence[Dataset]:
        return (ShortDeckMatchups(self.ranking),) if 1 in self.opponents else ()

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...shortdeck.preflop import vs_random

        parts: list[Any] = []
        for k in self.opponents:
            if k == 1:
                parts.append(("exact", vs_random(_grid(inputs, self.ranking))))
            elif k == 2:
                parts.append(("exact2",))
            else:
                parts.extend(("mc", k, list(range(r, r + 9)), self.trials, self.seed) for r in range(0, 81, 9))
        return parts

    def planned_parts(self) -> int:
        return sum(1 if k in EXACT else 9 for k in self.opponents)

    def rows(self, partition: Any) -> int:
        return 81 if partition[0] in ("exact", "exact2") else len(partition[2])

    def partition_value(self, partition: Any) -> int:
        return opponents_of(partition)

    def compute(self, partition: Any) -> pa.Table:
        from ...shortdeck import deck_of
        from ...shortdeck.preflop import vs_two

        if partition[0] == "exact":
            return vs_random_exact_rows(partition[1], _labels())
        if partition[0] == "exact2":
            return vs_two_exact_rows(vs_two(deck_of(self.ranking)), _labels())
        _, k, classes, trials, seed = partition
        return vs_random_mc_rows(k, classes, trials, seed, _labels(), deck_of(self.ranking))


ORDER = 35


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"shortdeck-matchups": ShortDeckMatchups, "shortdeck-preflop-grid": ShortDeckPreflopGrid,
            "shortdeck-vs-random": ShortDeckVsRandom}
