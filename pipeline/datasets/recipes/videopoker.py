"""``videopoker/<game>``: the optimal hold of every deal class of a video-poker game.

One row per deal class (134,459 for a 52-card deck): the canonical deal, its
weight, the best hold and its exact EV, and the EV of all 32 holds; plus
``_strategy.txt``, the holds ranked by mean EV where they are the best play,
the way strategy cards print them.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pyarrow as pa

from ...batch.parquet import described, vector_type
from ...batch.spec import Dataset, Inputs

PARTS = 16
STRATEGY_TEXT = "_strategy.txt"


class Strategy(Dataset):
    """A game's strategy in 16 parts of deal classes, for a built-in game or any pay table."""

    schema = described(pa.schema([("deal", pa.string()), ("weight", pa.int64()), ("best_hold", pa.string()),
                                  ("best_mask", pa.int8()), ("ev", pa.float64()), ("ev_units", pa.int64()),
                                  ("hold_ev", vector_type(pa.float64(), 32))]), {
        "deal": "the five dealt cards, the canonical member of the deal's suit class ('As Kd 9h 9c 2s')",
        "weight": "specific deals the class stands for; they sum to C(deck, 5) (2,598,960 for 52 cards)",
        "best_hold": "the cards of the hold with the highest EV, in deal order ('' to discard all five)",
        "best_mask": "the best hold as a bit mask over the deal's five cards (bit i: card i held), 0 to 31",
        "ev": "the best hold's expected return per coin bet, exact over every draw",
        "ev_units": "the same EV as an exact integer: ev x L, L the least common multiple of the draw counts "
                    "C(deck - 5, 5 - held)",
        "hold_ev": "the expected return per coin of each of the 32 holds, indexed by bit mask",
    })
    side_output_names = (STRATEGY_TEXT,)

    def __init__(self, paytable: Any) -> None:
        from ...videopoker.strategy import strategy_params

        self.paytable = paytable
        self.name = f"videopoker/{paytable.name}"
        self.description = (f"{paytable.title}: the optimal hold and exact EV of every deal class, the EV of all "
                            "32 holds, and the strategy card")
        self.params = strategy_params(paytable)

    @classmethod
    def builtin(cls, game: str) -> Strategy:
        from ...videopoker import builtin
        return cls(builtin(game))

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...videopoker.subsets import family_tables

        pt = self.paytable
        n = len(family_tables(pt.family).deals)
        bounds = [round(i * n / PARTS) for i in range(PARTS + 1)]
        return [(pt.family, pt.type_pay, bounds[i], bounds[i + 1]) for i in range(PARTS)]

    def planned_parts(self) -> int:
        return PARTS                     # without building the family's deal tables

    def rows(self, partition: Any) -> int:
        return int(partition[3] - partition[2])

    def compute(self, partition: Any) -> pa.Table:
        from ...videopoker.strategy import strategy_rows
        return strategy_rows(*partition)

    def side_outputs(self, table: Callable[[], pa.Table], inputs: Inputs) -> dict[str, bytes]:
        from ...videopoker.strategy import strategy_table

        pt = self.paytable
        rows = strategy_table(table().select(["best_hold", "ev", "weight"]), pt)
        lines = [f"{pt.title}: holds by mean EV where they are the best play (per coin)",
                 f"{'rank':>4}  {'hold':20s} {'mean EV':>9s} {'min EV':>9s} {'deals':>10s}"]
        for i, (pattern, mean, low, n) in enumerate(rows, 1):
            lines.append(f"{i:4d}  {pattern:20s} {mean:9.4f} {low:9.4f} {n:10,d}")
        return {STRATEGY_TEXT: ("\n".join(lines) + "\n").encode()}


ORDER = 70


def registered() -> dict[str, Callable[..., Dataset]]:
    from ...videopoker import builtin_names

    return {f"videopoker/{g}": partial(Strategy.builtin, g) for g in builtin_names()}
