"""``ehs-table/flop|turn|river``: HS, PPOT, NPOT and EHS of every canonical (hole, board)
situation of a street against one random opponent, indexed by ``situation_index``.

1,286,792 / 13,960,050 / 123,156,254 rows; flop and turn rows also keep the
nine potential counts ``hp_aa .. hp_bb`` as integers.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pyarrow as pa

from ...batch.parquet import described
from ...batch.spec import Dataset, Inputs
from ..streets import STREETS, StreetDataset, check_street

BOARDS_PER_PART = {"flop": 10, "turn": 100, "river": 500}  # a few seconds of work per part
BOARDS_PER_PIECE = {"flop": 1, "turn": 20, "river": 100}   # a task: 0.1-0.2 s of one core
OPPONENT_HANDS = {"flop": "1,081", "turn": "1,035", "river": "990"}
NOW_FINAL = {"a": "ahead", "t": "tied", "b": "behind"}


def columns(street: str) -> dict[str, str]:
    """What each column of a street's table holds."""
    from ...strength.street import POTENTIAL_COLUMNS

    hands = OPPONENT_HANDS[street]
    out = {
        "index": "the situation's index (pipeline.isomorphism.situation_index): one row per canonical "
                 "(hole, board) up to suits",
        "hole": "the hero's two hole cards ('AsKd'), the canonical member",
        "board": f"the {street} board's cards, the canonical member",
        "ahead": f"opponent hands of the {hands} left that the hero beats now",
        "tied": "opponent hands the hero ties now",
        "behind": "opponent hands that beat the hero now",
        "hs": "hand strength now: (ahead + tied / 2) / (ahead + tied + behind)",
        "ppot": "positive potential: the chance of being ahead at the river when behind or tied now "
                "(Billings et al. 2002), over every runout and opponent hand",
        "npot": "negative potential: the chance of being behind at the river when ahead or tied now",
        "ehs": "effective hand strength: hs x (1 - npot) + (1 - hs) x ppot",
    }
    if street == "river":
        for k in ("ppot", "npot"):
            out[k] += " (0 on the river: no card to come)"
    else:
        for name in POTENTIAL_COLUMNS:
            now, final = NOW_FINAL[name[3]], NOW_FINAL[name[4]]
            out[name] = (f"(runout, opponent hand) pairs with the hero {now} now and {final} at the river "
                         "(the potential table's integer count)")
    return out


class EhsTable(StreetDataset):
    """One street's table: its canonical boards in parts (``limit``: the first N boards only)."""

    family = "ehs-table"

    def __init__(self, street: str, limit: int | None = None) -> None:
        from ...strength.street import POTENTIAL_COLUMNS

        super().__init__(street, limit, BOARDS_PER_PART[check_street(street)])
        street = self.street
        fields = [("index", pa.int64()), ("hole", pa.string()), ("board", pa.string()),
                  ("ahead", pa.int64()), ("tied", pa.int64()), ("behind", pa.int64()),
                  ("hs", pa.float64()), ("ppot", pa.float64()), ("npot", pa.float64()), ("ehs", pa.float64())]
        if street != "river":
            fields += [(name, pa.int64()) for name in POTENTIAL_COLUMNS]
        self.schema = described(pa.schema(fields), columns(street))
        self.description = (f"HS, PPOT, NPOT and EHS of every canonical {street} situation (hole, board) against "
                            "one random opponent, exact, by situation index")

    def partitions(self, inputs: Inputs) -> Sequence[Any]:
        from ...isomorphism.boards import canonical_boards

        boards = canonical_boards(STREETS[self.street])      # 1,755 flops, 16,432 turns, 134,459 rivers
        if self.limit is not None:
            boards = boards[:self.limit]
        size = BOARDS_PER_PART[self.street]
        return [boards[i:i + size] for i in range(0, len(boards), size)]

    def pieces(self, partition: Any) -> Sequence[Any]:
        size = BOARDS_PER_PIECE[self.street]
        return [partition[i:i + size] for i in range(0, len(partition), size)]

    def combine(self, tables: list[pa.Table]) -> pa.Table:
        return pa.concat_tables(tables).sort_by("index").combine_chunks()    # a part's rows by situation index

    def cost(self, partition: Any) -> float:
        return float(len(partition))           # boards of a street cost alike (0.13 s a flop, 6 ms a turn)

    def prepare(self, sample: Any) -> None:
        from ...strength.street import load_kernels
        load_kernels(len(sample[0]))            # the cards of a board of this street

    def compute(self, partition: Any) -> pa.Table:
        from ...strength.street import street_rows
        return street_rows(partition)


ORDER = 50


def registered() -> dict[str, Callable[..., Dataset]]:
    return {f"ehs-table/{s}": partial(EhsTable, s) for s in STREETS}
