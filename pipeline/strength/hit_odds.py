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

from ..core.errors import InputError
from ..core.inputs import integer

if TYPE_CHECKING:
    import pyarrow as pa

MAX_OUTS = 47                       # the unseen cards after the flop
MAX_CHIPS = Fraction(10 ** 12)      # pot and call sizes: up to a trillion units ...
MIN_CHIPS = Fraction(1, 10 ** 6)    # ... and down to a millionth: every ratio of two stays a finite float


def odds_against(hits: int, unseen: int) -> str:
    """``'x : 1'``: misses per hit."""
    return f"{(unseen - hits) / hits:.2f} : 1"


def outs_row(n: int) -> dict:
    """One row of the odds table for ``n`` outs (1..47; the table shows 1..20)."""
    n = integer(n, "outs", 1, MAX_OUTS, error=InputError, strict=True)
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


def ratio_texts(p: Fraction) -> tuple[str, str]:
    """A chance as odds both ways, as the Russian odds-calculator article's table writes them:
    ``'x : 1'`` (misses per hit)
    and ``'1 : x'`` (hits to misses).  A certainty or an impossibility has no finite ratio: ``'-'``."""
    if p <= 0 or p >= 1:
        return "-", "-"
    return f"{float((1 - p) / p):.2f} : 1", f"1 : {float((1 - p) / p):.2f}"


def hit_chances(n: int, unseen: int, cards_to_come: int) -> tuple[Fraction, Fraction]:
    """Exact chances that one of ``n`` outs among ``unseen`` cards comes on the next card, and by the
    river (``cards_to_come`` = 2 from the flop, 1 from the turn)."""
    unseen = integer(unseen, "unseen cards", 1, 52, error=InputError, strict=True)
    n = integer(n, "outs", 0, unseen, error=InputError, strict=True)
    cards_to_come = integer(cards_to_come, "cards to come", 1, 2, error=InputError, strict=True)
    nxt = Fraction(n, unseen)
    by_river = 1 - Fraction(comb(unseen - n, cards_to_come), comb(unseen, cards_to_come))
    return nxt, by_river


def pot_odds(n: int, unseen: int, cards_to_come: int, pot: Fraction, to_call: Fraction) -> dict:
    """Is calling ``to_call`` into ``pot`` (the opponent's bet included) profitable with ``n`` outs?

    Immediate odds, as the Russian odds-calculator article frames it: calling buys one card, so the call
    wins ``pot`` with the
    chance ``p`` of hitting on the next card and loses ``to_call`` otherwise:
    ``EV = p * pot - (1 - p) * to_call``.  The break-even equity is ``to_call / (pot + to_call)``;
    ``implied_needed`` is what more must be won after hitting for the call to break even
    (``(1 - p) * to_call / p - pot``, 0 when the call already pays).  Outs are taken as winners.  A pot
    below the call cannot be (it holds the bet called): :class:`~pipeline.core.errors.InputError`.
    """
    for name, amount in (("pot", pot), ("to-call", to_call)):
        if amount < 0 or amount > MAX_CHIPS or 0 < amount < MIN_CHIPS:
            raise InputError(f"{name} must be 0 or between {float(MIN_CHIPS):g} and {float(MAX_CHIPS):,.0f}, "
                             f"got {float(amount):g}")
    if pot < to_call:       # the pot holds the bet being called, which is at least the call (less when all in)
        raise InputError(f"pot {float(pot):g} is less than to-call {float(to_call):g}: the pot includes the bet "
                         f"to call, so it is at least the call")
    nxt, by_river = hit_chances(n, unseen, cards_to_come)
    break_even = to_call / (pot + to_call) if pot + to_call else Fraction(0)
    ev = nxt * pot - (1 - nxt) * to_call
    implied = Fraction(0) if ev >= 0 else ((1 - nxt) * to_call / nxt - pot if nxt else None)
    texts = {f"{k}_odds": ratio_texts(p) for k, p in (("hit_next_card", nxt), ("hit_by_river", by_river),
                                                       ("break_even", break_even))}
    return {
        "pot": float(pot), "to_call": float(to_call),
        "pot_odds": float(pot / to_call) if to_call else None,
        "pot_odds_text": f"{float(pot / to_call):.2f} : 1" if to_call else "-",
        "break_even_equity": float(break_even),
        "hit_next_card": float(nxt), "hit_by_river": float(by_river),
        "call_ev": float(ev), "profitable": ev > 0,
        "implied_needed": None if implied is None else float(implied),
        **{k: list(v) for k, v in texts.items()},
    }
