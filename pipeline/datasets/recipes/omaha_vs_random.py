"""``omaha-vs-random`` (and ``omaha5-vs-random``): every Omaha starting hand class against 1..5 random hands.

One row per suit class of starting hands (16,432 classes of four cards standing for
270,725 hands; 134,459 of five cards for ``omaha5-vs-random``, :mod:`pipeline.omaha.classes`)
and opponent count: the canonical hand, its ``omaha_class`` label as players write it
(``AAKKds``, ``8877ss``, ``AKQJr``: :func:`pipeline.omaha.classes.class_labels`), its
``combos``, the accepted ``samples``, sole ``wins``, ``ties`` (any shared pot), ``equity``
and its ``stderr``.  Seeded Monte Carlo in which one deal serves a whole part of hands
(:mod:`pipeline.omaha.vs_random`): a part is ``rows_per_part`` classes (default 1,000) at
one opponent count, ``trials`` deals (default 2,300,000: each hand meets about 1,050,000
of them heads-up, a standard error of at most 0.05 percentage points), seeded from
``(seed, opponents, part)`` alone — the same bytes whatever the workers.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from ...batch.parquet import described
from ...batch.spec import Dataset, Inputs
from ...core.arrow import column, text
from ...core.errors import InputError
from ...core.inputs import integer, shown
from ..streets import MAX_LIMIT

DEFAULT_TRIALS = 2_300_000
DEFAULT_OPPONENTS = (1, 2, 3, 4, 5)
ROWS_PER_PART = 1000
MAX_TRIALS = 10**9
MAX_OPPONENTS = 8


def _opponents(value: Any, what: str) -> list[int]:
    """``[1, 3]`` from ``"1-5"``, ``"1,3"``, ``3`` or a list; InputError otherwise."""
    if isinstance(value, str):
        out: set[int] = set()
        for part in value.split(","):
            a, _, b = part.strip().partition("-")
            if not (a.isdigit() and (not b or b.isdigit())) or len(a) > 2 or len(b) > 2:
                raise InputError(f"{what} {shown(value)}: expected a count, a span like 1-5 or a list like 1,3")
            out.update(range(int(a), int(b or a) + 1))
        value = sorted(out)
    ks = value if isinstance(value, (list, tuple)) else [value]
    if not ks:
        raise InputError(f"{what} must name at least one opponent count")
    return sorted({integer(k, what, lo=1, hi=MAX_OPPONENTS) for k in ks})


class OmahaVsRandom(Dataset):
    """Parts of ``rows_per_part`` starting-hand classes at one opponent count (``limit``: the first N classes)."""

    name = "omaha-vs-random"
    description = ("every Omaha starting-hand class (16,432 of four cards) against 1 to 5 random hands, seeded "
                   "Monte Carlo with standard errors, labelled as players write them (AAKKds)")
    cards = 4
    partition_key = "opponents"       # each part is one opponent count: opponents=3/part-00002.parquet
    schema = described(pa.schema([("hand", pa.string()), ("omaha_class", pa.string()), ("combos", pa.int64()),
                                  ("opponents", pa.int64()),
                                  ("samples", pa.int64()), ("wins", pa.int64()), ("ties", pa.int64()),
                                  ("equity", pa.float64()), ("stderr", pa.float64())]), {
        "hand": "the starting hand's cards, the canonical member of its suit class ('AcAdKcKd')",
        "omaha_class": "the hand's class as players write it: ranks high to low and the suit pattern "
                       "('AAKKds' double-suited, 'ss' single-suited, 'r' rainbow)",
        "combos": "specific starting hands the class stands for",
        "opponents": "how many random hands it faces",
        "samples": "the Monte Carlo deals that shared no card with the hand (each an equally likely deal)",
        "wins": "deals on which the hand won the pot alone",
        "ties": "deals on which it shared the pot (any number of ways)",
        "equity": "its mean share of the pot over the samples (a split pot counted as its fraction)",
        "stderr": "the standard error of equity, from the exact sums of the shares and their squares",
    })

    def __init__(self, opponents: Any = DEFAULT_OPPONENTS, trials: int = DEFAULT_TRIALS, seed: int = 0,
                 rows_per_part: int = ROWS_PER_PART, limit: int | None = None) -> None:
        what = f"{self.name}."
        self.opponents = _opponents(opponents, what + "opponents")
        self.trials = integer(trials, what + "trials", lo=1, hi=MAX_TRIALS)
        self.seed = integer(seed, what + "seed", lo=0, hi=2**63 - 1)
        self.rows_per_part = integer(rows_per_part, what + "rows_per_part", lo=1, hi=MAX_LIMIT)
        self.limit = None if limit is None else integer(limit, what + "limit", lo=1, hi=MAX_LIMIT)
        self.params = {"opponents": self.opponents, "trials": self.trials, "seed": self.seed,
                       "rows_per_part": self.rows_per_part, **({"limit": self.limit} if self.limit else {})}

    def _count(self) -> int:
        from ...omaha.classes import CLASS_COUNTS

        n = CLASS_COUNTS[self.cards]
        return n if self.limit is None else min(n, self.limit)

    def seconds(self) -> float:
        """``trials`` deals a part, each valuing the part's hands and the ``k`` opponents once, at the
        evaluator's estimate sped up (:data:`pipeline.omaha.equity.TRIALS_SPEEDUP`: 12.5 ns a value, below the
        29 ns measured on hands sharing a board)."""
        from ...omaha.equity import SECONDS_PER_VALUE, TRIALS_SPEEDUP

        parts = -(-self._count() // self.rows_per_part)
        values = sum(self.trials * (self._count() + k * parts) for k in self.opponents)
        return values * SECONDS_PER_VALUE / TRIALS_SPEEDUP

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        n, step = self._count(), self.rows_per_part
        return [(k, b, i, min(i + step, n)) for k in self.opponents for b, i in enumerate(range(0, n, step))]

    def planned_parts(self) -> int:
        return len(self.opponents) * -(-self._count() // self.rows_per_part)

    def rows(self, partition: Any) -> int:
        return partition[3] - partition[2]

    def partition_value(self, partition: Any) -> int:
        return int(partition[0])

    def prepare(self, sample: Any) -> None:
        k, block, start, stop = sample
        self.compute((k, block, start, min(start + 1, stop)))    # one hand: the classes, the tables, the kernel

    def compute(self, partition: Any) -> pa.Table:
        from ...core.cards import format_card_rows
        from ...omaha.classes import class_labels, starting_classes
        from ...omaha.tables import omaha_tables
        from ...omaha.vs_random import block_vs_random, share_unit

        k, block, start, stop = partition
        hands, weights = starting_classes(self.cards)
        hands = np.ascontiguousarray(hands[start:stop])
        n = len(hands)
        samples, wins, ties, units, squares = (np.zeros(n, np.int64) for _ in range(5))
        unit = share_unit(k)
        block_vs_random(hands, k, self.trials, self.seed, 1000 * k + block, unit, omaha_tables(),
                        samples, wins, ties, units, squares)
        s = np.maximum(samples, 1)
        equity = units / (unit * s)
        var = np.maximum(squares / (unit * unit * s) - equity ** 2, 0.0) * s / np.maximum(s - 1, 1)
        counts = {"combos": weights[start:stop], "opponents": np.full(n, k, np.int64), "samples": samples,
                  "wins": wins, "ties": ties}
        return pa.table({"hand": text(format_card_rows(hands)), "omaha_class": text(class_labels(hands)),
                         **{name: column(v, pa.int64()) for name, v in counts.items()},
                         "equity": column(equity, pa.float64()), "stderr": column(np.sqrt(var / s), pa.float64())},
                        schema=self.schema)


class Omaha5VsRandom(OmahaVsRandom):
    """``omaha-vs-random`` for five-card Omaha: 134,459 classes."""

    name = "omaha5-vs-random"
    description = ("every five-card Omaha starting-hand class (134,459) against 1 to 5 random hands, seeded Monte "
                   "Carlo with standard errors")
    cards = 5


ORDER = 80


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"omaha-vs-random": OmahaVsRandom, "omaha5-vs-random": Omaha5VsRandom}
