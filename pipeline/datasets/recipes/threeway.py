"""``matchups-3way`` and ``preflop-3way``: every three-way preflop deal counted exactly.

``matchups-3way`` holds one row per suit class of unordered hand triples (13,763,646
rows, against the 47,008 of heads-up ``matchups``; see
:func:`pipeline.equity.threeway.canonical_triples`): the canonical member's three hands,
their classes, each hand's pots by number of winners over all 1,370,754 boards
(``shares1`` .. ``shares3``: ``[sole wins, two-way ties, three-way ties]``) and the class's
weight (specific triples it stands for; they sum to 305,377,800).

``preflop-3way`` sums them into every triple of the 169 classes that can be dealt
(``class1 <= class2 <= class3`` in grid order, player ``i`` holding ``class<i>``): the
specific deals it holds (``combos``), each player's summed ``shares`` and his equity,
from those integers.  ``limit`` (smoke runs) keeps the first N triples of the canonical
order, so a limited ``preflop-3way`` is a partial sum and says so in its parameters.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...batch.parquet import described, dictionary_type, labels_array, vector_array, vector_type
from ...batch.spec import Dataset, Inputs
from ...core.arrow import column, text, values
from ...core.inputs import integer
from ..streets import MAX_LIMIT

TRIPLES_PER_PART = 2000          # about 5 s of enumeration a part on one core
SHARES = vector_type(pa.int64(), 3)


def _limit(value: int | None, what: str) -> int | None:
    return None if value is None else integer(value, what, lo=1, hi=MAX_LIMIT)


class Matchups3(Dataset):
    """The three-way classes in canonical order, ``rows_per_part`` (2,000) a part (``limit``: the first N only)."""

    name = "matchups-3way"
    description = ("every three-way preflop deal up to suit isomorphism, each hand's pots by number of winners "
                   "over all 1,370,754 boards, exact")
    schema = described(pa.schema([("hand1", pa.string()), ("hand2", pa.string()), ("hand3", pa.string()),
                                  ("class1", dictionary_type()), ("class2", dictionary_type()),
                                  ("class3", dictionary_type()), ("shares1", SHARES), ("shares2", SHARES),
                                  ("shares3", SHARES), ("weight", pa.int64())]), {
        "hand1": "player 1's two cards (the canonical member of the triple's suit class)",
        "hand2": "player 2's two cards",
        "hand3": "player 3's two cards; the three hands share no card",
        "class1": "player 1's hand class of the 169 ('AKs', 'QQ', '72o')",
        "class2": "player 2's hand class",
        "class3": "player 3's hand class",
        "shares1": "player 1's pots over all 1,370,754 boards: [sole wins, two-way ties, three-way ties]",
        "shares2": "player 2's pots, likewise",
        "shares3": "player 3's pots, likewise",
        "weight": "specific triples this row stands for (suit permutations); they sum to 305,377,800",
    })

    def __init__(self, limit: int | None = None, rows_per_part: int = TRIPLES_PER_PART) -> None:
        self.limit = _limit(limit, "matchups-3way.limit")
        self.rows_per_part = integer(rows_per_part, "matchups-3way.rows_per_part", lo=1, hi=MAX_LIMIT)
        self.params = {"rows_per_part": self.rows_per_part, **({"limit": self.limit} if self.limit is not None else {})}

    def _codes(self) -> tuple[np.ndarray, np.ndarray]:
        from ...equity.threeway import canonical_triples

        codes, weights = canonical_triples()
        return (codes, weights) if self.limit is None else (codes[:self.limit], weights[:self.limit])

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        codes, weights = self._codes()
        n = self.rows_per_part
        return [(codes[i:i + n], weights[i:i + n]) for i in range(0, len(codes), n)]

    def planned_parts(self) -> int:
        from ...equity.threeway import THREE_WAY_CLASSES

        n = THREE_WAY_CLASSES if self.limit is None else min(self.limit, THREE_WAY_CLASSES)
        return -(-n // self.rows_per_part)

    def rows(self, partition: Any) -> int:
        return len(partition[0])

    def prepare(self, sample: Any) -> None:
        codes, weights = sample
        triple_rows(codes[:1], weights[:1])     # the evaluator's tables, the three-way kernel, the labels

    def compute(self, partition: Any) -> pa.Table:
        return triple_rows(*partition)


def triple_rows(codes: np.ndarray, weights: np.ndarray) -> pa.Table:
    """Arrow table of triples: the three hands, their classes, exact shares, weight."""
    from ...core.hand_classes import CLASS_LABELS, class_of
    from ...equity.threeway import count_triples, decode, format_triple
    from ...evaluator.tables import tables

    codes = np.asarray(codes, np.int64)
    shares = count_triples(codes, tables())
    names = [format_triple(c) for c in codes.tolist()]
    classes = [[class_of(*h) for h in decode(c)] for c in codes.tolist()]
    return pa.table({
        **{f"hand{i + 1}": text([n[i] for n in names]) for i in range(3)},
        **{f"class{i + 1}": labels_array([c[i] for c in classes], CLASS_LABELS) for i in range(3)},
        **{f"shares{i + 1}": vector_array(shares[:, i, :], pa.int64()) for i in range(3)},
        "weight": column(np.asarray(weights, np.int64), pa.int64()),
    })


def triple_shares(table: pa.Table) -> np.ndarray:
    """(n, 3, 3) int64: the ``shares1..3`` columns of ``matchups-3way`` rows."""
    cols = [values(table.column(f"shares{i + 1}").combine_chunks().flatten()).reshape(-1, 3) for i in range(3)]
    return np.stack(cols, axis=1).astype(np.int64)


class Preflop3(Dataset):
    """13 parts by the first class's row of the grid (classes ``13 r .. 13 r + 12`` as ``class1``);
    ``limit`` and ``rows_per_part`` are its ``matchups-3way``'s."""

    name = "preflop-3way"
    description = "every triple of the 169 hand classes that can be dealt, with each player's exact three-way equity"
    schema = described(pa.schema([("class1", dictionary_type()), ("class2", dictionary_type()),
                                  ("class3", dictionary_type()), ("combos", pa.int64()), ("shares1", SHARES),
                                  ("shares2", SHARES), ("shares3", SHARES), ("equity1", pa.float64()),
                                  ("equity2", pa.float64()), ("equity3", pa.float64())]), {
        "class1": "player 1's hand class of the 169 ('AKs', 'QQ', '72o'); class1 <= class2 <= class3 in grid order",
        "class2": "player 2's hand class",
        "class3": "player 3's hand class",
        "combos": "specific deals of the three classes that can be dealt together (no shared card)",
        "shares1": "player 1's pots summed over those deals and every board: [sole wins, two-way, three-way ties]",
        "shares2": "player 2's pots, likewise",
        "shares3": "player 3's pots, likewise",
        "equity1": "player 1's share of the pot: (sole + two-way / 2 + three-way / 3) / (combos x 1,370,754)",
        "equity2": "player 2's share of the pot",
        "equity3": "player 3's share of the pot",
    })

    def __init__(self, limit: int | None = None, rows_per_part: int = TRIPLES_PER_PART) -> None:
        self.limit = _limit(limit, "preflop-3way.limit")
        self.source = Matchups3(self.limit, rows_per_part)
        self.params = {"source": "matchups-3way", **({"limit": self.limit} if self.limit is not None else {}),
                       **({"rows_per_part": rows_per_part} if rows_per_part != TRIPLES_PER_PART else {})}

    def dependencies(self) -> Sequence[Dataset]:
        return (self.source,)

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...equity.threeway import CLASS_TRIPLES, add_class_triples, class_triple_index

        source = self.source
        codes, weights = source._codes()
        index = class_triple_index()
        combos = np.zeros(CLASS_TRIPLES, np.int64)
        sums = np.zeros((CLASS_TRIPLES, 3, 3), np.int64)
        done = 0
        for part in inputs.parts(source, columns=["shares1", "shares2", "shares3", "weight"]):
            n = part.num_rows
            if not (values(part.column("weight")) == weights[done:done + n]).all():
                raise ValueError("matchups-3way's rows are not in canonical order")
            add_class_triples(codes[done:done + n], weights[done:done + n], triple_shares(part), index, combos, sums)
            done += n
        first = index[np.arange(169)[:, None, None], np.arange(169)[None, :, None], np.arange(169)[None, None, :]]
        parts = []
        for r in range(13):
            rows, keys = [], []
            for c1 in range(13 * r, 13 * r + 13):
                for c2 in range(c1, 169):
                    for c3 in range(c2, 169):
                        k = first[c1, c2, c3]
                        if combos[k] > 0:
                            rows.append(k)
                            keys.append((c1, c2, c3))
            rows_a = np.array(rows, np.int64)
            parts.append((np.array(keys, np.int64).reshape(-1, 3), combos[rows_a], sums[rows_a]))
        return parts

    def planned_parts(self) -> int:
        return 13

    def rows(self, partition: Any) -> int:
        return len(partition[1])

    def compute(self, partition: Any) -> pa.Table:
        return class_triple_rows(*partition)


def class_triple_rows(classes: np.ndarray, combos: np.ndarray, sums: np.ndarray) -> pa.Table:
    """Arrow table of class triples: classes (n, 3), combos (n,), per-player shares (n, 3, 3), equities."""
    from ...core.hand_classes import CLASS_LABELS
    from ...equity.scoring import SHARE_UNIT, equity_fraction
    from ...equity.threeway import BOARDS

    units = sums[:, :, 1] * (SHARE_UNIT // 2) + sums[:, :, 2] * (SHARE_UNIT // 3)
    return pa.table({
        **{f"class{i + 1}": labels_array(classes[:, i], CLASS_LABELS) for i in range(3)},
        "combos": column(combos, pa.int64()),
        **{f"shares{i + 1}": vector_array(sums[:, i, :], pa.int64()) for i in range(3)},
        **{f"equity{i + 1}": column(equity_fraction(sums[:, i, 0], units[:, i], combos * BOARDS), pa.float64())
           for i in range(3)},
    })


ORDER = 15


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"matchups-3way": Matchups3, "preflop-3way": Preflop3}


def three_way_table(table: pa.Table) -> Any:
    """The :class:`pipeline.equity.threeway.ThreeWayTable` of a whole ``preflop-3way`` dataset
    (``table`` from :func:`pipeline.datasets.read`, built without a limit)."""
    from ...core.hand_classes import CLASS_INDEX
    from ...equity.threeway import CLASS_TRIPLES, ThreeWayTable, class_triple_index

    index = class_triple_index()
    cls = [np.array([CLASS_INDEX[x] for x in table.column(f"class{i + 1}").to_pylist()], np.int64) for i in range(3)]
    rows = index[cls[0], cls[1], cls[2]]
    combos = np.zeros(CLASS_TRIPLES, np.int64)
    sums = np.zeros((CLASS_TRIPLES, 3, 3), np.int64)
    combos[rows] = values(table.column("combos"))
    sums[rows] = triple_shares(table)
    return ThreeWayTable(combos, sums)
