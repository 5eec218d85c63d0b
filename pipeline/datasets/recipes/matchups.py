"""``matchups``: every heads-up preflop matchup up to suit isomorphism (47,008 rows), exact.

One row per matchup class (see :func:`pipeline.equity.matchups.canonical_matchups`):
hero and villain (the canonical member), their hand classes, hero's wins,
ties and losses over all 1,712,304 boards, and the class's weight (specific
matchups it stands for; they sum to 812,175).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...batch.parquet import described, dictionary_type, labels_array
from ...batch.spec import Dataset, Inputs
from ...core.arrow import column, text, values
from ...core.errors import InputError
from ...core.inputs import integer
from ..streets import MAX_LIMIT

ROWS_PER_PART = 500
ROWS_PER_PIECE = 125          # a task: about 60 ms of enumeration on one core, 4 to a part


MATCHUP_SCHEMA = pa.schema([("hero", pa.string()), ("villain", pa.string()),
                            ("hero_class", dictionary_type()), ("villain_class", dictionary_type()),
                            ("wins", pa.int64()), ("ties", pa.int64()), ("losses", pa.int64()),
                            ("weight", pa.int64())])


def matchup_columns(boards: str, matchups: str, classes: str) -> dict[str, str]:
    """What each matchup column holds, for a deck of ``boards`` boards a matchup, ``matchups`` specific matchups
    and ``classes`` hand classes (written as they print)."""
    return {
        "hero": "the hero's two cards (the canonical member of the matchup's suit class, e.g. 'AsKs')",
        "villain": "the villain's two cards, disjoint from the hero's",
        "hero_class": f"the hero's hand class of the {classes} ('AKs', 'QQ', '72o')",
        "villain_class": f"the villain's hand class of the {classes}",
        "wins": f"boards of the {boards} on which the hero's best five cards beat the villain's",
        "ties": "boards on which the two hands tie (the pot is split)",
        "losses": f"boards on which the villain wins; wins + ties + losses = {boards}",
        "weight": f"specific matchups this row stands for (suit permutations); they sum to {matchups}",
    }


class Matchups(Dataset):
    """The 47,008 matchup classes in canonical order, 500 per part (``limit``: the first N only)."""

    name = "matchups"
    description = ("every heads-up preflop matchup of specific hands up to suit isomorphism, with the hero's "
                   "exact wins, ties and losses over all 1,712,304 boards")
    schema = described(MATCHUP_SCHEMA, matchup_columns("1,712,304", "812,175", "169"))

    def __init__(self, limit: int | None = None) -> None:
        self.limit = None if limit is None else integer(limit, "matchups.limit", lo=1, hi=MAX_LIMIT)
        self.params = {"rows_per_part": ROWS_PER_PART, **({"limit": self.limit} if self.limit is not None else {})}

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...equity.matchups import canonical_matchups

        codes, weights = canonical_matchups()
        if self.limit is not None:
            codes, weights = codes[:self.limit], weights[:self.limit]
        return [(codes[i:i + ROWS_PER_PART], weights[i:i + ROWS_PER_PART])
                for i in range(0, len(codes), ROWS_PER_PART)]

    def rows(self, partition: Any) -> int:
        return len(partition[0])

    def pieces(self, partition: Any) -> Sequence[Any]:
        codes, weights = partition
        return [(codes[i:i + ROWS_PER_PIECE], weights[i:i + ROWS_PER_PIECE])
                for i in range(0, len(codes), ROWS_PER_PIECE)]

    def cost(self, partition: Any) -> float:
        return float(len(partition[0]))          # matchups cost alike (0.4-0.7 ms each)

    def prepare(self, sample: Any) -> None:
        codes, weights = sample
        matchup_rows(codes[:1], weights[:1])     # the evaluator's tables, the enumeration kernel, the labels

    def compute(self, partition: Any) -> pa.Table:
        return matchup_rows(*partition)


def matchup_rows(codes: np.ndarray, weights: np.ndarray) -> pa.Table:
    """Arrow table of matchups: hero, villain, classes, exact wins/ties/losses, weight."""
    from ...core.cards import format_cards
    from ...core.hand_classes import CLASS_LABELS, class_of
    from ...equity.matchups import count_matchups, decode
    from ...evaluator.tables import tables

    codes = np.asarray(codes, np.int64)
    wtl = count_matchups(codes, tables())
    heroes, villains, hc, vc = [], [], [], []
    for code in codes.tolist():
        h1, h2, v1, v2 = decode(code)
        heroes.append(format_cards([h1, h2]))
        villains.append(format_cards([v1, v2]))
        hc.append(class_of(h1, h2))
        vc.append(class_of(v1, v2))
    return pa.table({
        "hero": text(heroes),
        "villain": text(villains),
        "hero_class": labels_array(hc, CLASS_LABELS),
        "villain_class": labels_array(vc, CLASS_LABELS),
        "wins": column(wtl[:, 0], pa.int64()),
        "ties": column(wtl[:, 1], pa.int64()),
        "losses": column(wtl[:, 2], pa.int64()),
        "weight": column(weights, pa.int64()),
    })


def matchup_arrays(table: pa.Table) -> tuple[np.ndarray, np.ndarray]:
    """The typed view consumers need: canonical codes (47,008,) and hero's (wins, ties, losses) (47,008, 3).

    ``table`` is the whole dataset (:func:`pipeline.datasets.read`); its rows are
    in canonical order, so row ``i`` is code ``canonical_matchups()[0][i]``.
    """
    from ...equity.matchups import canonical_matchups

    codes, _ = canonical_matchups()
    wtl = np.stack([values(table.column(c)) for c in ("wins", "ties", "losses")], axis=1).astype(np.int64)
    if len(wtl) != len(codes):
        raise InputError(f"the matchups dataset holds {len(wtl):,} rows, expected all {len(codes):,} (one built "
                         "with a limit is a smoke run, too short to read)")
    return codes, wtl


ORDER = 10


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"matchups": Matchups}
