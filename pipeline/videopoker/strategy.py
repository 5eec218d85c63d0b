"""The strategy dataset (one row per deal class) and the hold-ranking table derived from it.

A row gives the canonical deal, its weight, the best hold (cards and bitmask),
its EV and the EV of all 32 holds, per coin (exact numerators over
``scale`` are kept too).  The hold-ranking table names each best hold by a
*pattern* — the held ranks high to low, ``s`` when two or more held cards share
one suit (``AKQJs``, ``JJ``, ``KQJ``, ``—`` for discarding everything) — and
lists patterns by their mean EV where they were played, best first, the way
strategy cards print them.
"""
from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from ..core.arrow import column, text, values
from ..core.cards import RANKS, format_card
from ..core.combinatorics import BINOM
from .analyzer import POPCOUNT, scales, solve_deals
from .paytable import PayTable
from .subsets import family_tables

if TYPE_CHECKING:
    import pyarrow as pa


def card_text(c: int) -> str:
    """``'As'``, or ``'Jk'`` for the joker (id 52)."""
    return "Jk" if c == 52 else format_card(c)


def hold_pattern(cards: list[int], pt: PayTable | None = None) -> str:
    """``'AKQJs'``, ``'JJ'``, ``'KQJ'``; ``'Jk'`` marks the joker; ``'—'`` for no card.

    With a pay table, a pat hand is named by what it pays (``'full-house'``) and
    held quads, trips and two pair by their kind, as strategy cards list them.
    """
    if not cards:
        return "—"
    natural = sorted((c for c in cards if c != 52), key=lambda c: -(c >> 2))
    if pt is not None:
        ranks = [c >> 2 for c in natural]
        shape = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
        if len(cards) == 5:
            from .hands import classify_family
            hand = pt.type_hand[int(classify_family(np.array([sorted(cards)], np.uint8), pt.family)[0])]
            if hand != "nothing":
                return f"pat {hand}"
        elif pt.family == "natural" and shape[:1] == [4]:
            return "four of a kind"
        elif pt.family == "natural" and shape == [3]:
            return "three of a kind"
        elif pt.family == "natural" and shape == [2, 2]:
            return "two pair"
    text = "".join(RANKS[c >> 2] for c in natural) + ("Jk" if 52 in cards else "")
    suits = {c & 3 for c in natural}
    if len(natural) >= 2 and len(suits) == 1:
        text += "s"
    return text


def strategy_rows(family: str, pays: tuple[int, ...], start: int, stop: int) -> pa.Table:
    """Arrow table of deal classes ``start:stop`` of ``family`` under ``pays``."""
    import pyarrow as pa

    ft = family_tables(family)
    deals, weights = ft.deals[start:stop], ft.weights[start:stop]
    lcm, scale = scales(ft.deck)
    n = len(deals)
    best = np.empty(n, np.int64)
    ev = np.empty((n, 32), np.int64)
    dist = np.zeros(len(ft.types), np.int64)
    solve_deals(deals, weights, ft.counts, ft.hand_types, ft.offsets, BINOM, np.array(pays, np.int64), scale,
                POPCOUNT, best, ev, dist)
    deal_text, hold_text = [], []
    for d, m in zip(deals.tolist(), best.tolist(), strict=True):
        deal_text.append(" ".join(card_text(c) for c in d))
        hold_text.append(" ".join(card_text(c) for i, c in enumerate(d) if m >> i & 1))
    best_ev = ev[np.arange(n), best]
    return pa.table({
        "deal": text(deal_text),
        "weight": column(weights, pa.int64()),
        "best_hold": text(hold_text),
        "best_mask": column(best.astype(np.int8), pa.int8()),
        "ev": column(best_ev / lcm, pa.float64()),
        "ev_units": column(best_ev, pa.int64()),
        "hold_ev": pa.FixedSizeListArray.from_arrays(column((ev / lcm).ravel(), pa.float64()), 32),
    })


def strategy_table(dataset: pa.Table, pt: PayTable | None = None) -> list[tuple[str, float, float, int]]:
    """``(pattern, mean EV, min EV, deals)`` from a strategy dataset (a pyarrow Table), best first."""
    by: defaultdict[str, list[float]] = defaultdict(lambda: [0.0, float("inf"), 0])
    holds = dataset.column("best_hold").to_pylist()
    evs = values(dataset.column("ev"))
    weights = values(dataset.column("weight"))
    from ..core.cards import parse_card
    for h, e, w in zip(holds, evs, weights, strict=True):
        cards = [52 if t == "Jk" else parse_card(t) for t in h.split()]
        acc = by[hold_pattern(cards, pt)]
        acc[0] += e * w
        acc[1] = min(acc[1], e)
        acc[2] += int(w)
    rows = [(p, s / n, lo, int(n)) for p, (s, lo, n) in by.items()]
    rows.sort(key=lambda r: (-r[1], r[0]))
    return rows


def strategy_params(pt: PayTable) -> dict:
    return {"game": pt.name, "family": pt.family, "pays": dict(pt.pays)}
