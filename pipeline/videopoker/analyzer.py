"""Exact video-poker analysis: the best hold of every deal class and the game's return.

For each of the deal classes (134,459 for 52 cards) the 32 holds are scored at
once: gather the subset-count rows of the deal's 32 subsets, apply a superset
Möbius transform over its five cards (inclusion-exclusion: the draws of hold
``S`` are the hands meeting the deal exactly in ``S``), and weigh each hold's
type counts by the pays.  Everything is integer: a hold keeping ``k`` cards has
``C(47, 5-k)`` equally likely draws, and counts are scaled to the common
denominator ``L = lcm_k C(47, 5-k)`` (7,669,695), so EVs compare exactly and the
distribution's combinations sum to ``C(52, 5) * L`` = 19,933,230,517,200.

Equal-EV holds (ties) are broken by a fixed rule: the hold keeping fewer
cards, then the lowest hold mask (bit ``i`` = the ``i``-th card of the
canonical deal, ascending ids).
"""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..core.combinatorics import BINOM
from ..core.cores import available_cores
from .paytable import MAX_PAY, PayTable, PayTableError
from .subsets import FamilyTables, family_tables, subset_row

POPCOUNT = np.array([bin(m).count("1") for m in range(32)], np.int64)


def scales(deck: int) -> tuple[int, np.ndarray]:
    """``L`` and, per cards held 0..5, the factor ``L / C(deck-5, 5-held)``."""
    draws = [math.comb(deck - 5, 5 - k) for k in range(6)]
    lcm = 1
    for d in draws:
        lcm = lcm * d // math.gcd(lcm, d)
    return lcm, np.array([lcm // d for d in draws], np.int64)


@njit(cache=True, nogil=True)
def hold_counts(deal: np.ndarray, counts: np.ndarray, hand_types: np.ndarray, offsets: np.ndarray,
                binom: np.ndarray, out: np.ndarray) -> None:
    """``out`` (32, types): type counts of the draws of each hold of ``deal``."""
    T = counts.shape[1]
    for m in range(32):
        row = subset_row(deal, m, offsets, binom)
        if m == 31:
            out[m, :] = 0
            out[m, hand_types[row - offsets[5]]] = 1
        else:
            for t in range(T):
                out[m, t] = counts[row, t]
    for bit in range(5):                     # superset Möbius transform
        b = 1 << bit
        for m in range(32):
            if not m & b:
                for t in range(T):
                    out[m, t] -= out[m | b, t]


@njit(cache=True, nogil=True)
def solve_deals(deals: np.ndarray, weights: np.ndarray, counts: np.ndarray, hand_types: np.ndarray,
                offsets: np.ndarray, binom: np.ndarray, pays: np.ndarray, scale: np.ndarray, popcount: np.ndarray,
                best_mask: np.ndarray, hold_ev: np.ndarray, dist: np.ndarray) -> None:
    """Best hold of each deal class.  Writes ``best_mask`` (D,), ``hold_ev`` (D, 32) EVs in
    units of 1/L per coin, and adds to ``dist`` (types,) the weighted scaled counts."""
    T = counts.shape[1]
    hc = np.empty((32, T), np.int64)
    for d in range(deals.shape[0]):
        hold_counts(deals[d], counts, hand_types, offsets, binom, hc)
        best = -1
        best_ev = np.int64(-1)
        for m in range(32):
            ev = np.int64(0)
            for t in range(T):
                ev += hc[m, t] * pays[t]
            ev *= scale[popcount[m]]
            hold_ev[d, m] = ev
            if ev > best_ev or (ev == best_ev and (popcount[m] < popcount[best]
                                                  or (popcount[m] == popcount[best] and m < best))):
                best_ev = ev
                best = m
        best_mask[d] = best
        f = weights[d] * scale[popcount[best]]
        for t in range(T):
            dist[t] += hc[best, t] * f


@dataclass
class Analysis:
    """A game's exact results.  ``combinations`` per final-hand type sum to ``total``."""

    paytable: PayTable
    total: int
    combinations: dict[str, int]          # by the pay table's hand names, plus "nothing"
    ret: float
    variance: float
    hit_frequency: float
    best_mask: np.ndarray = field(repr=False)
    hold_ev: np.ndarray = field(repr=False)   # (classes, 32) int64, units of 1/scale per coin
    scale: int = 0

    @property
    def std(self) -> float:
        return math.sqrt(self.variance)

    def distribution(self) -> list[dict]:
        """Rows high pay to low: hand, pays, combinations, probability, 1-in-N, return share."""
        rows = []
        for hand, pay in list(self.paytable.pays.items()) + [("nothing", 0)]:
            n = self.combinations.get(hand, 0)
            p = n / self.total
            rows.append({"hand": hand, "pays": pay, "combinations": n, "probability": p,
                         "one_in": (1 / p) if p else None, "return": pay * p})
        return rows

    def to_json(self) -> dict:
        return {"game": self.paytable.name, "title": self.paytable.title, "return": self.ret,
                "variance": self.variance, "std": self.std, "hit_frequency": self.hit_frequency,
                "distribution": [{k: r[k] for k in ("hand", "pays", "combinations", "probability", "return")}
                                 for r in self.distribution()]}


def analyze(pt: PayTable, tables: FamilyTables | None = None) -> Analysis:
    """Solve a game exactly: best hold of every deal class, return, variance, distribution."""
    ft = tables or family_tables(pt.family)
    lcm, scale = scales(ft.deck)
    if max(pt.type_pay) * lcm >= 2**63:       # a hold's EV, max pay * L units, must fit in int64
        raise PayTableError(f"{pt.name}: a pay of {max(pt.type_pay):,} overflows exact int64 arithmetic "
                            f"(at most {(2**63 - 1) // lcm:,} per coin)")
    pays = pt.pay_vector
    n = len(ft.deals)
    best_mask = np.empty(n, np.int64)
    hold_ev = np.empty((n, 32), np.int64)
    # the kernel releases the GIL: one slice of the deal classes per core, integer sums added after
    cuts = np.linspace(0, n, available_cores() + 1).astype(np.int64)
    dists = [np.zeros(len(ft.types), np.int64) for _ in range(len(cuts) - 1)]

    def run(i: int) -> None:
        a, b = cuts[i], cuts[i + 1]
        solve_deals(ft.deals[a:b], ft.weights[a:b], ft.counts, ft.hand_types, ft.offsets, BINOM, pays, scale,
                    POPCOUNT, best_mask[a:b], hold_ev[a:b], dists[i])

    with ThreadPoolExecutor(len(dists)) as pool:
        list(pool.map(run, range(len(dists))))
    dist = np.sum(dists, axis=0)                 # int64 sums of the slices
    total = math.comb(ft.deck, 5) * lcm
    combos: dict[str, int] = {}
    for t, c in enumerate(dist.tolist()):
        hand = pt.type_hand[t]
        combos[hand] = combos.get(hand, 0) + c
    # exact rationals, then floats
    num = sum(c * p for c, p in zip(dist.tolist(), pays.tolist()))
    num2 = sum(c * p * p for c, p in zip(dist.tolist(), pays.tolist()))
    ret = num / total
    var = (num2 * total - num * num) / (total * total)
    hits = sum(c for c, p in zip(dist.tolist(), pays.tolist()) if p > 0)
    return Analysis(pt, total, combos, ret, var, hits / total, best_mask, hold_ev, lcm)


def break_even_royal(pt: PayTable, tables: FamilyTables | None = None) -> float:
    """Royal pay (per coin) at which the game returns exactly 100% under optimal play.

    The return is a convex, increasing, piecewise linear function of the royal
    pay (the best strategy changes at the kinks).  Newton steps along its slope
    — the royal's probability under the current best strategy — overshoot once
    and then land on the root from above.  Pays are carried in millionths of a
    coin so that the royal pay need not be whole.  The royal stays within
    0..:data:`~.paytable.MAX_PAY`; a game that returns under 100% even there
    raises :class:`~.paytable.PayTableError`.
    """
    ft = tables or family_tables(pt.family)
    key = pt.royal_key
    royal = float(pt.pays[key])
    for _ in range(60):
        a = analyze(_scaled_table(pt, royal), ft)
        p_royal = a.combinations.get(key, 0) / a.total
        if p_royal == 0:
            raise PayTableError(f"{pt.name}: optimal play never makes a royal flush")
        step = (1.0 - a.ret / _MICRO) / p_royal
        if royal >= MAX_PAY and step > 0:     # clamped there (or started there) and still under 100%
            raise PayTableError(f"{pt.name}: returns under 100% even with a royal of {MAX_PAY:,} per coin "
                                "(the largest pay analyzed exactly)")
        royal = min(max(royal + step, 0.0), MAX_PAY)   # from above the root Newton descends to it
        if abs(step) < 1e-6:
            break
    return royal


_MICRO = 1_000_000


def _scaled_table(pt: PayTable, royal: float) -> PayTable:
    """The pay table in millionths of a coin, with a real-valued royal pay."""
    from .paytable import build

    pays = {h: p * _MICRO for h, p in pt.pays.items()}
    pays[pt.royal_key] = int(round(royal * _MICRO))
    return build(pt.name, pt.title, pt.family, pays, max_pay=MAX_PAY * _MICRO)
