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

from ...batch.spec import Dataset, Inputs

PARTS = 16
STRATEGY_TEXT = "_strategy.txt"


class Strategy(Dataset):
    """A game's strategy in 16 parts of deal classes, for a built-in game or any pay table."""

    schema = pa.schema([("deal", pa.string()), ("weight", pa.int64()), ("best_hold", pa.string()),
                        ("best_mask", pa.int8()), ("ev", pa.float64()), ("ev_units", pa.int64()),
                        ("hold_ev", pa.list_(pa.float64(), 32))])
    side_output_names = (STRATEGY_TEXT,)

    def __init__(self, paytable: Any) -> None:
        from ...videopoker.strategy import strategy_params

        self.paytable = paytable
        self.name = f"videopoker/{paytable.name}"
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
