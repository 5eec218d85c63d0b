"""Outs odds: the exact chance of hitting one of ``n`` outs, beside the rules of thumb.

From the flop 47 cards are unseen, from the turn 46.  Exact probabilities:

* turn (one card from 47): ``n / 47``
* river (one card from 46): ``n / 46``
* turn or river (two cards from 47): ``1 - C(47 - n, 2) / C(47, 2)``

The Russian article on a poker odds calculator ("Проектирование алгоритма игры «Покер»",
"Designing a poker-playing algorithm") gives the quick estimates ``(4n - 1)%`` for turn-or-river and
``(2n + 1)%`` for one card.

>>> row = outs_row(15)
>>> round(row["turn_or_river_pct"], 2), row["rule_4_pct"], row["rule_2_pct"]
(54.12, 59, 31)
>>> odds_against(15, 47)
'2.13 : 1'
"""
from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa


def odds_against(hits: int, unseen: int) -> str:
    """``'x : 1'``: misses per hit."""
    return f"{(unseen - hits) / hits:.2f} : 1"


def outs_row(n: int) -> dict:
    """One row of the odds table for ``n`` outs (1..20)."""
    turn = Fraction(n, 47)
    river = Fraction(n, 46)
    both = 1 - Fraction(comb(47 - n, 2), comb(47, 2))
    return {
        "outs": n,
        "turn_pct": float(100 * turn), "turn_odds": odds_against(n, 47),
        "river_pct": float(100 * river), "river_odds": odds_against(n, 46),
        "turn_or_river_pct": float(100 * both),
        "turn_or_river_odds": f"{float((1 - both) / both):.2f} : 1",
        "rule_2_pct": 2 * n + 1, "rule_4_pct": 4 * n - 1,
    }


def odds_rows(max_outs: int = 20) -> pa.Table:
    """Arrow table of :func:`outs_row` for 1..``max_outs`` outs."""
    import pyarrow as pa

    rows = [outs_row(n) for n in range(1, max_outs + 1)]
    return pa.Table.from_pylist(rows, schema=odds_schema())


def odds_schema() -> pa.Schema:
    """Arrow schema of the odds table."""
    import pyarrow as pa

    return pa.schema([("outs", pa.int64()), ("turn_pct", pa.float64()), ("turn_odds", pa.string()),
                      ("river_pct", pa.float64()), ("river_odds", pa.string()),
                      ("turn_or_river_pct", pa.float64()), ("turn_or_river_odds", pa.string()),
                      ("rule_2_pct", pa.int64()), ("rule_4_pct", pa.int64())])
