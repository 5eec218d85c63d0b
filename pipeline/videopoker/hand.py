"""One dealt hand: the exact EV of each of its 32 holds (Wizard of Odds, "Video Poker — How to
analyze a hand": for each hold, count the final hands of every draw and weigh them by the pays).

The counts come from the family's subset tables (:mod:`.tables`) through the same superset Möbius
transform the whole-game analysis uses (:func:`.analyzer.hold_counts`), so one hand costs 32 table
rows, not the 1.5 million draws of the brute force.  A hold keeping ``k`` cards has
``C(deck - 5, 5 - k)`` equally likely draws; its EV is an exact fraction per coin bet (pays are
per coin at the 5-coin table, so a royal pays 800 in 9/6 Jacks or Better).

>>> from pipeline.videopoker import builtin
>>> best = analyze_hand(builtin("jacks-or-better-9-6"), "Jc Qc Kc Ac 2h")[0]
>>> best.hold_text, best.ev
('Jc Qc Kc Ac', Fraction(872, 47))
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..core.cards import CardError, parse_cards
from ..core.combinatorics import BINOM
from .analyzer import hold_counts
from .paytable import PayTable
from .strategy import card_text
from .subsets import family_tables


@dataclass(frozen=True)
class Hold:
    """One hold of a dealt hand: ``mask`` bit ``i`` keeps the ``i``-th card as dealt."""
    mask: int
    held: tuple[int, ...]
    ev: Fraction                          # per coin
    draws: int                            # equally likely draws of this hold
    distribution: tuple[tuple[str, int], ...]   # (pay-table hand, draws making it), best paid first

    @property
    def hold_text(self) -> str:
        return " ".join(card_text(c) for c in self.held) or "(discard all)"

    def to_json(self) -> dict:
        return {"hold": self.hold_text, "mask": self.mask, "ev": float(self.ev),
                "ev_fraction": f"{self.ev.numerator}/{self.ev.denominator}", "draws": self.draws,
                "distribution": [{"hand": h, "combinations": n} for h, n in self.distribution]}


def parse_deal(text: str, family: str) -> list[int]:
    """Five distinct cards as dealt; ``Jk`` (or ``Joker``) is the joker in joker games."""
    words = text.replace(",", " ").split()
    if family != "joker" and any(w.lower() in ("jk", "joker") for w in words):
        raise CardError(f"hand {text!r}: a joker is only dealt in joker games")
    cards = [c for w in words for c in ([52] if w.lower() in ("jk", "joker") else parse_cards(w, what="hand"))]
    if len(cards) != 5:
        raise CardError(f"hand {text!r}: video poker deals 5 cards, not {len(cards)}")
    if len(set(cards)) != 5:
        raise CardError(f"hand {text!r}: a card appears twice")
    return cards


def analyze_hand(pt: PayTable, hand: str | list[int]) -> list[Hold]:
    """The 32 holds of ``hand`` under ``pt``, best EV first (ties: fewer cards held, then lower mask)."""
    ft = family_tables(pt.family)
    dealt = parse_deal(hand, pt.family) if isinstance(hand, str) else list(hand)
    order = sorted(range(5), key=lambda i: dealt[i])           # the tables index ascending ids
    deal = np.array([dealt[i] for i in order], np.int64)
    counts = np.empty((32, len(ft.types)), np.int64)
    hold_counts(deal, ft.counts, ft.hand_types, ft.offsets, BINOM, counts)
    pays = pt.type_pay
    holds = []
    for m in range(32):
        user_mask = sum(1 << order[i] for i in range(5) if m >> i & 1)
        k = bin(m).count("1")
        draws = math.comb(ft.deck - 5, 5 - k)
        by_hand: dict[str, int] = {}
        for t in np.nonzero(counts[m])[0]:
            by_hand[pt.type_hand[t]] = by_hand.get(pt.type_hand[t], 0) + int(counts[m, t])
        pay_of = {pt.type_hand[t]: pays[t] for t in range(len(pays))}
        dist = tuple(sorted(by_hand.items(), key=lambda kv: (-pay_of[kv[0]], kv[0])))
        ev = Fraction(sum(int(counts[m, t]) * pays[t] for t in range(len(pays))), draws)
        held = tuple(dealt[i] for i in range(5) if user_mask >> i & 1)
        holds.append(Hold(user_mask, held, ev, draws, dist))
    holds.sort(key=lambda h: (-h.ev, len(h.held), h.mask))
    return holds
