"""Hand strength and potential (Billings, Papp, Schaeffer, Szafron, "Opponent modeling in
poker", AAAI-98).

Against one opponent holding any two unseen cards with equal weight:

* **HS** — the share of opponent hands we beat now, ties counting half:
  ``(ahead + tied/2) / (ahead + tied + behind)``; against N opponents ``HS^N``.
* **Potential** — the 3x3 table ``HP[now][at the river]`` of (opponent hand,
  runout) cases, rows and columns ahead / tied / behind.  The flop looks two
  cards ahead (turn and river), the turn one; ``ppot1``/``npot1`` give the
  flop's one-card look-ahead.  With row sums ``T`` (runouts, not opponent hands)::

      PPOT = (HP[B][A] + HP[B][T]/2 + HP[T][A]/2) / (T[B] + T[T]/2)
      NPOT = (HP[A][B] + HP[T][B]/2 + HP[A][T]/2) / (T[A] + T[T]/2)

* **EHS** = ``HS·(1−NPOT) + (1−HS)·PPOT``; optimistic ``EHS' = HS^N + (1−HS^N)·PPOT``.

>>> r = hand_strength("AdQc", "3h4cJh")
>>> (r.ahead, r.tied, r.behind), round(r.hs, 3), round(r.ppot, 3), round(r.npot, 3), round(r.ehs, 4)
((628, 9, 444), 0.585, 0.208, 0.274, 0.5114)
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np
from numba import njit

from ..core.cards import CardError, check_disjoint, parse_board, parse_hole
from ..core.inputs import integer
from ..evaluator.kernels import Tables, board_state, hand_value, live_cards, suited_bit
from ..evaluator.tables import tables

AHEAD, TIED, BEHIND = 0, 1, 2
NO_DEAD = np.uint64(0)      # an empty dead-card mask
Strength = TypeVar("Strength", float, np.ndarray)


@njit(cache=True, nogil=True)
def _outcome(a: int, b: int) -> int:
    return AHEAD if a > b else (TIED if a == b else BEHIND)


@njit(cache=True, nogil=True)
def hero_runouts(hkey: np.uint64, hsuited: np.uint64, live: np.ndarray, n: int, lookahead: int,
                 T: Tables) -> tuple:
    """Every runout of ``lookahead`` 0..2 of the ``n`` live cards once: its cards (second -1 for
    one card), key, suited mask, and the hero's final value on it; and how many there are."""
    most = n * (n - 1) // 2 if lookahead == 2 else n
    first = np.empty(most, np.int64)
    second = np.empty(most, np.int64)
    rkey = np.empty(most, np.uint64)
    rsuited = np.empty(most, np.uint64)
    hero_final = np.empty(most, np.int64)
    runouts = 0
    if lookahead > 0:
        for i in range(n):
            for j in range(i + 1, n) if lookahead == 2 else range(-1, 0):
                ci = live[i]
                k = T.card_keys[ci]
                sb = suited_bit(ci)
                cj = -1
                if j >= 0:
                    cj = live[j]
                    k += T.card_keys[cj]
                    sb |= suited_bit(cj)
                first[runouts], second[runouts], rkey[runouts], rsuited[runouts] = ci, cj, k, sb
                hero_final[runouts] = hand_value(hkey + k, hsuited | sb, T)
                runouts += 1
    return first, second, rkey, rsuited, hero_final, runouts


@njit(cache=True, nogil=True)
def hero_situation(hero: np.ndarray, bkey: np.uint64, bsuited: np.uint64, used: np.uint64, lookahead: int,
                   T: Tables) -> tuple:
    """What every opponent hand is compared with: the live cards (and how many), the hero's value
    now, and the runouts of ``lookahead`` cards with the hero's value after each (:func:`hero_runouts`)."""
    hkey = bkey + T.card_keys[hero[0]] + T.card_keys[hero[1]]
    hsuited = bsuited | suited_bit(hero[0]) | suited_bit(hero[1])
    used |= (np.uint64(1) << np.uint64(hero[0])) | (np.uint64(1) << np.uint64(hero[1]))
    live = np.empty(52, np.int64)
    n = live_cards(used, live)
    hero_now = hand_value(hkey, hsuited, T)
    first, second, rkey, rsuited, hero_final, runouts = hero_runouts(
        hkey, hsuited, live, n, lookahead, T)
    return live, n, hero_now, first, second, rkey, rsuited, hero_final, runouts


@njit(cache=True, nogil=True)
def opponent_potential(hero: np.ndarray, board: np.ndarray, lookahead: int, dead: np.uint64, combo_of: np.ndarray,
                       now: np.ndarray, final: np.ndarray, T: Tables) -> None:
    """For every opponent hand of two live cards ``a, b`` that ``combo_of[a, b]`` numbers ``c`` (-1: not
    counted): ``now[c]`` its outcome now against the hero (0 ahead, 1 tied, 2 behind) and ``final[c]``
    (3,) the outcomes at the river over the runouts of ``lookahead`` 0..2 cards it leaves live.  The cards
    of the ``dead`` mask are in no opponent hand and no runout."""
    bkey, bsuited, used = board_state(board, dead, T.card_keys)
    live, n, hero_now, first, second, rkey, rsuited, hero_final, runouts = hero_situation(
        hero, bkey, bsuited, used, lookahead, T)
    for a in range(n):
        for b in range(a + 1, n):
            ca, cb = live[a], live[b]
            c = combo_of[ca, cb]
            if c < 0:
                continue
            okey = bkey + T.card_keys[ca] + T.card_keys[cb]
            osuited = bsuited | suited_bit(ca) | suited_bit(cb)
            now[c] = _outcome(hero_now, hand_value(okey, osuited, T))
            ahead = tied = 0
            live_runouts = 0
            for r in range(runouts):
                i, j = first[r], second[r]
                if i == ca or i == cb or j == ca or j == cb:
                    continue
                v = hand_value(okey + rkey[r], osuited | rsuited[r], T)
                ahead += hero_final[r] > v
                tied += hero_final[r] == v
                live_runouts += 1
            final[c, AHEAD] = ahead
            final[c, TIED] = tied
            final[c, BEHIND] = live_runouts - ahead - tied


@njit(cache=True, nogil=True)
def potential_counts(hero: np.ndarray, board: np.ndarray, lookahead: int, now: np.ndarray, hp: np.ndarray,
                     T: Tables, dead: np.uint64 = NO_DEAD) -> None:
    """Add to ``now`` (3,) the opponent hands ahead/tied/behind and to ``hp`` (3, 3) the (opponent hand,
    runout of ``lookahead`` 0..2 cards) cases by now / final outcome, against one random opponent hand;
    the cards of the ``dead`` mask are in no opponent hand and no runout."""
    combo_of = np.arange(52 * 52).reshape(52, 52)
    outcome = np.empty(52 * 52, np.int64)
    final = np.zeros((52 * 52, 3), np.int64)
    outcome[:] = -1
    opponent_potential(hero, board, lookahead, dead, combo_of, outcome, final, T)
    for c in range(52 * 52):
        if outcome[c] >= 0:
            now[outcome[c]] += 1
            for k in range(3):
                hp[outcome[c], k] += final[c, k]


def hand_strengths(now: np.ndarray) -> np.ndarray:
    """HS of rows of (ahead, tied, behind) counts: ``(ahead + tied/2) / (ahead + tied + behind)``."""
    now = np.asarray(now)
    return (now[..., AHEAD] + now[..., TIED] / 2) / now.sum(axis=-1)


def potentials(hp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PPOT and NPOT of potential tables ``hp`` (..., 3, 3); 0 where a denominator is 0."""
    hp = np.asarray(hp)
    t = hp.sum(axis=-1)
    den_p = t[..., BEHIND] + t[..., TIED] / 2
    den_n = t[..., AHEAD] + t[..., TIED] / 2
    num_p = hp[..., BEHIND, AHEAD] + hp[..., BEHIND, TIED] / 2 + hp[..., TIED, AHEAD] / 2
    num_n = hp[..., AHEAD, BEHIND] + hp[..., TIED, BEHIND] / 2 + hp[..., AHEAD, TIED] / 2
    ppot = np.divide(num_p, den_p, out=np.zeros(np.shape(num_p)), where=den_p != 0)
    npot = np.divide(num_n, den_n, out=np.zeros(np.shape(num_n)), where=den_n != 0)
    return ppot, npot


def effective_strength(hs: Strength, ppot: Strength, npot: Strength) -> Strength:
    """EHS = HS·(1 − NPOT) + (1 − HS)·PPOT (scalars or arrays)."""
    return hs * (1 - npot) + (1 - hs) * ppot


@dataclass
class HandStrength:
    ahead: int | Fraction            # a Fraction only against a weighted range (pipeline.strength.vs_range)
    tied: int | Fraction
    behind: int | Fraction
    hs: float
    hs_n: float
    potential: Sequence[Sequence[int | Fraction]]
    ppot: float
    npot: float
    ppot1: float | None
    npot1: float | None
    ehs: float
    ehs_optimistic: float

    def to_json(self) -> dict:
        """Plain JSON; weighted counts (exact fractions) as floats, and as ``"n/d"`` strings under ``exact``."""
        doc = dict(self.__dict__)
        cells = [x for row in self.potential for x in row]
        if any(isinstance(x, Fraction) for x in (self.ahead, self.tied, self.behind, *cells)):
            doc["exact"] = {"ahead": str(self.ahead), "tied": str(self.tied), "behind": str(self.behind),
                            "potential": [[str(x) for x in row] for row in self.potential]}
            doc.update(ahead=float(self.ahead), tied=float(self.tied), behind=float(self.behind),
                       potential=[[float(x) for x in row] for row in self.potential])
        return doc


def hand_strength(hole: str, board: str, opponents: int = 1) -> HandStrength:
    """HS, potential, PPOT, NPOT and EHS of ``hole`` on a 3-, 4- or 5-card ``board``."""
    h = parse_hole(hole)
    b = parse_board(board, (3, 4, 5), "hand strength needs 3, 4 or 5")
    opponents = integer(opponents, "opponents", 1, 9, error=CardError, strict=True)
    check_disjoint([("hole cards", h), ("board", b)])
    t = tables()
    hero, brd = np.array(h, np.int64), np.array(b, np.int64)
    look = 5 - len(b)
    now = np.zeros(3, np.int64)
    hp = np.zeros((3, 3), np.int64)
    potential_counts(hero, brd, look, now, hp, t)
    ppot1 = npot1 = None
    if look == 2:
        now1 = np.zeros(3, np.int64)
        hp1 = np.zeros((3, 3), np.int64)
        potential_counts(hero, brd, 1, now1, hp1, t)
        ppot1, npot1 = (float(x) for x in potentials(hp1))
    ppot, npot = (float(x) for x in potentials(hp)) if look else (0.0, 0.0)
    ahead, tied, behind = (int(x) for x in now)
    hs = float(hand_strengths(now))
    hs_n = hs ** opponents
    return HandStrength(ahead, tied, behind, hs, hs_n, hp.tolist(), ppot, npot, ppot1, npot1,
                        effective_strength(hs, ppot, npot), hs_n + (1 - hs_n) * ppot)
