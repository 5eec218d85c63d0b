"""``odds-table``: the chance of hitting 1..20 outs on the turn, the river and either,
exact, beside the rules of 4 and 2 (one small part)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pyarrow as pa

from ...batch.spec import Dataset, Inputs

MAX_OUTS = 20


class OddsTable(Dataset):
    name = "odds-table"
    params = {"max_outs": MAX_OUTS}

    @property
    def schema(self) -> pa.Schema:
        from ...strength.hit_odds import odds_schema
        return odds_schema()

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
