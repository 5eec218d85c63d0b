"""``odds-table``: the chance of hitting 1..20 outs on the turn, the river and either,
exact, beside the rules of 4 and 2 (one small part)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa

from ...batch.parquet import described
from ...batch.spec import Dataset, Inputs

MAX_OUTS = 20


COLUMNS = {
    "outs": "cards left in the deck that complete the hand (1 to 20)",
    "turn_pct": "the exact chance, in percent, that the turn is an out (outs / 47)",
    "turn_odds": "the same as odds against, misses to hits ('x : 1')",
    "river_pct": "the exact chance, in percent, that the river is an out once the turn missed (outs / 46)",
    "river_odds": "the same as odds against ('x : 1')",
    "turn_or_river_pct": "the exact chance, in percent, that the turn or the river is an out, from the flop",
    "turn_or_river_odds": "the same as odds against ('x : 1')",
    "rule_2_pct": "the rule of 2's estimate of one card's chance, in percent (2 x outs)",
    "rule_4_pct": "the rule of 4's estimate of two cards' chance, in percent (4 x outs)",
}


class OddsTable(Dataset):
    name = "odds-table"
    description = ("the exact chance of hitting 1 to 20 outs on the turn, the river and either, beside the rules "
                   "of 2 and 4")
    params = {"max_outs": MAX_OUTS}

    @property
    def schema(self) -> pa.Schema:
        from ...strength.hit_odds import odds_schema
        return described(odds_schema(), COLUMNS)

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        return [MAX_OUTS]

    def rows(self, partition: Any) -> int:
        return int(partition)

    def compute(self, partition: Any) -> pa.Table:
        from ...strength.hit_odds import odds_rows
        return odds_rows(partition)


ORDER = 40


def registered() -> dict[str, Callable[..., Dataset]]:
    return {"odds-table": OddsTable}
