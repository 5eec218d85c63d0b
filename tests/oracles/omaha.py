"""A plain brute force of Omaha showdowns for tests: every two-plus-three choice, every board.

Independent of pokerpipe's Omaha tables: high hands by :func:`.reference.rank5` (a
tuple a poker book would write), lows as sorted rank lists (ace = 1) compared from the
top, pots split with exact fractions.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations


@lru_cache(maxsize=None)
def best_high(hole: tuple, board: tuple) -> tuple:
    from .reference import rank5

    return max(rank5(list(p) + list(t)) for p in combinations(hole, 2) for t in combinations(board, 3))


@lru_cache(maxsize=None)
def best_low(hole: tuple, board: tuple):
    """The best 8-or-better low as its ranks highest first (A = 1), or None."""
    best = None
    for p in combinations(hole, 2):
        for t in combinations(board, 3):
            ranks = [1 if c // 4 == 12 else c // 4 + 2 for c in list(p) + list(t)]
            if len(set(ranks)) == 5 and max(ranks) <= 8:
                low = sorted(ranks, reverse=True)
                best = low if best is None or low < best else best
    return best


def showdown(holes: list, board: list, hilo: bool) -> list[dict]:
    """Per player: high winner count if he is a high winner (else 0), the same for the low, and his
    pot share as a Fraction."""
    hb = tuple(sorted(board))
    highs = [best_high(tuple(sorted(h)), hb) for h in holes]
    top = max(highs)
    H = [p for p, v in enumerate(highs) if v == top]
    L: list[int] = []
    if hilo:
        lows = [best_low(tuple(sorted(h)), hb) for h in holes]
        real = [x for x in lows if x is not None]
        if real:
            best = min(real)
            L = [p for p, v in enumerate(lows) if v == best]
    out = []
    for p in range(len(holes)):
        if not L:
            share = Fraction(1, len(H)) if p in H else Fraction(0)
        else:
            share = (Fraction(1, 2 * len(H)) if p in H else 0) + (Fraction(1, 2 * len(L)) if p in L else 0)
        out.append({"high": len(H) if p in H else 0, "low": len(L) if p in L else 0, "share": Fraction(share),
                    "low_exists": bool(L)})
    return out


def brute_equity(holes: list, board: list, dead: list, hilo: bool) -> list[dict]:
    """Every completion of ``board`` for the specific hands ``holes``: per player his shares by
    number of high winners, of low winners, scoops, high only, low only, quartered, and the
    equity as a Fraction; plus the board count under the key ``boards``."""
    P = len(holes)
    used = set(board) | set(dead) | {c for h in holes for c in h}
    deck = [c for c in range(52) if c not in used]
    acc = [{"shares": [0] * P, "low_shares": [0] * P, "scoops": 0, "high_only": 0, "low_only": 0, "quartered": 0,
            "pot": Fraction(0)} for _ in range(P)]
    boards = 0
    for extra in combinations(deck, 5 - len(board)):
        boards += 1
        for p, r in enumerate(showdown(holes, list(board) + list(extra), hilo)):
            a = acc[p]
            if r["high"]:
                a["shares"][r["high"] - 1] += 1
            if r["low"]:
                a["low_shares"][r["low"] - 1] += 1
            a["pot"] += r["share"]
            if hilo and r["share"] > 0:
                a["scoops"] += r["share"] == 1
                a["high_only"] += bool(r["high"] and r["low_exists"] and not r["low"])
                a["low_only"] += bool(r["low"] and not r["high"])
                a["quartered"] += r["share"] == Fraction(1, 4)
    for a in acc:
        a["equity"] = a.pop("pot") / boards
        a["boards"] = boards
    return acc
