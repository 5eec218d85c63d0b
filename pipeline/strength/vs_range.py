"""Hand strength and potential against an opponent *range* (Billings et al., "Opponent modeling
in poker", AAAI-98: HS, PPOT and NPOT are weighted enumerations over the opponent's hands).

The uniformly random opponent of :func:`pipeline.strength.hand_strength.hand_strength` gives every unseen pair
weight 1; here each combo of a range or query (``QQ+,AK:0.5``, ``Group1 Suited``) that fits
the cards keeps its weight.  The kernel (:func:`~.hand_strength.opponent_potential`, the random
opponent's too) returns, per opponent combo, the outcome now and the
outcome counts over every runout; the weighting is done afterwards in Python, as integers
when every weight is 1 and as exact fractions otherwise (each weight read as the shortest decimal
naming its float, so ``0.3`` counts as exactly 3/10).

>>> r = hand_strength_vs("AdQc", "3h4cJh", "random")
>>> (r.ahead, r.tied, r.behind), round(r.ehs, 4)
((628, 9, 444), 0.5114)
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..core.cards import CardError, check_disjoint, mask_of, parse_board, parse_hole
from ..core.inputs import integer
from ..evaluator.tables import tables
from ..ranges.query import parse_query
from ..ranges.syntax import Range
from .hand_strength import HandStrength, effective_strength, opponent_potential

Count = int | Fraction


def _weighted_sum(weights: list[Count], rows: np.ndarray) -> list[Count]:
    return [sum((w * int(x) for w, x in zip(weights, rows[:, k], strict=True)), start=0 * weights[0])
            for k in range(rows.shape[1])]


def _ratio(num: Count, den: Count) -> Fraction:
    return Fraction(num) / Fraction(den) if den else Fraction(0)


def hand_strength_vs(hole: str, board: str, vs: str | Range, opponents: int = 1) -> HandStrength:
    """HS, potential table, PPOT, NPOT and EHS of ``hole`` on ``board`` against the range or query
    ``vs``, each combo that fits the cards weighted by its weight.  Counts are integers when every
    weight is 1, exact :class:`~fractions.Fraction` otherwise; the ratios are floats of exact values."""
    h = parse_hole(hole)
    b = parse_board(board, (3, 4, 5), "hand strength needs 3, 4 or 5")
    opponents = integer(opponents, "opponents", 1, 9, error=CardError, strict=True)
    check_disjoint([("hole cards", h), ("board", b)])
    rng = (parse_query(vs) if isinstance(vs, str) else vs).without(mask_of(h + b))
    keep = rng.weights > 0
    combos, raw = rng.combos[keep], rng.weights[keep]
    if not len(combos):
        raise CardError(f"range {rng.text!r} has no combo left beside {hole} on {board}")
    weights: list[Count] = [1] * len(raw) if rng.unit_weights else [Fraction(repr(float(w))) for w in raw]
    look = 5 - len(b)
    combo_of = np.full((52, 52), -1, np.int64)            # opponent combo number of two cards, either order
    combo_of[combos[:, 0], combos[:, 1]] = combo_of[combos[:, 1], combos[:, 0]] = np.arange(len(combos))
    now = np.empty(len(combos), np.int64)
    final = np.empty((len(combos), 3), np.int64)
    opponent_potential(np.array(h, np.int64), np.array(b, np.int64), look, np.uint64(0), combo_of, now, final,
                       tables())
    ahead, tied, behind = _weighted_sum(weights, np.eye(3, dtype=np.int64)[now])
    hp = [_weighted_sum([w for w, o in zip(weights, now, strict=True) if o == row], final[now == row])
          if (now == row).any() else [0, 0, 0] for row in range(3)]
    hs = float(_ratio(ahead + Fraction(tied) / 2, ahead + tied + behind))
    t = [sum(row) for row in hp]
    if look:
        ppot = float(_ratio(hp[2][0] + Fraction(hp[2][1]) / 2 + Fraction(hp[1][0]) / 2, t[2] + Fraction(t[1]) / 2))
        npot = float(_ratio(hp[0][2] + Fraction(hp[1][2]) / 2 + Fraction(hp[0][1]) / 2, t[0] + Fraction(t[1]) / 2))
    else:
        ppot = npot = 0.0
    hs_n = hs ** opponents
    return HandStrength(ahead, tied, behind, hs, hs_n, hp, ppot, npot, None, None,
                        effective_strength(hs, ppot, npot), hs_n + (1 - hs_n) * ppot)
