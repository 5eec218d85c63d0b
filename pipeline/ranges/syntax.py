"""Hand ranges in the syntax PokerStove and Equilab users type.

A range is a comma-separated list of parts, each optionally weighted with ``:w``:

=============  =====================================================
``AhKh``       one specific hand (``Ah Kh`` and ``10h9h`` work too)
``QQ``         a pair: its 6 combos;  ``QQ+`` QQ..AA;  ``22-66``; ``TT-`` TT..22
``AKs``        suited (4 combos);  ``AKo`` offsuit (12);  ``AK`` both (16)
``KTo+``       kicker up to one below the top card: KTo, KJo, KQo
``A2s-A5s``    same top card, kickers 2..5
``random``     any two cards (1,326 combos; also ``any``, ``XxXx``)
``AKs:0.5``    any part with a weight (default 1); a later part overrides
=============  =====================================================

A weight lies in 0..1; 0 drops the part.  A positive weight below the smallest
normal double (about 2.2e-308) is refused: products and sums of such weights
underflow to zero and the equity would be 0/0.

>>> r = parse_range("QQ+, AKs:0.5")
>>> len(r), float(r.weights.max()), float(r.weights.min())
(22, 1.0, 0.5)
>>> len(parse_range("A2s-A5s")), len(parse_range("KTo+")), len(parse_range("random"))
(16, 36, 1326)
"""
from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..core.cards import RANKS, CardError, check_ascii, parse_cards
from ..core.hand_classes import class_combos

_RANK = "[2-9TJQKA]"
_CLASS = re.compile(rf"({_RANK})({_RANK})([so]?)", re.IGNORECASE | re.ASCII)
MIN_WEIGHT = sys.float_info.min          # smallest positive normal double


@dataclass(frozen=True)
class Range:
    """Weighted hole-card combos: ``combos`` (m, k) card ids — k = 2 for hold'em (high id first),
    4 to 6 for Omaha (:mod:`.omaha`, ascending) — and ``weights`` (m,)."""

    text: str
    combos: np.ndarray
    weights: np.ndarray

    def __len__(self) -> int:
        return len(self.combos)

    @cached_property
    def masks(self) -> np.ndarray:
        """64-bit card mask of each combo (computed once: equity asks for it many times a call)."""
        return np.bitwise_or.reduce(np.uint64(1) << self.combos.astype(np.uint64), axis=1)

    def without(self, dead_mask: int) -> Range:
        """The combos that use none of the cards in ``dead_mask`` (the range itself when none do)."""
        keep = (self.masks & np.uint64(dead_mask)) == 0
        if keep.all():
            return self
        return Range(self.text, self.combos[keep], self.weights[keep])

    def rescaled(self) -> "Range":
        """The same range with its weights multiplied by a power of two when all of them are tiny.

        Equity depends only on the ratios of one range's weights, but an exact or
        weighted run multiplies one weight per player: weights of 1e-300 would
        underflow to 0 and give 0/0.  A range whose largest weight is below 2**-100
        is scaled (exactly: a power of two) to put that weight in [0.5, 1); any
        other range is returned as it is, so ordinary weights never change.
        """
        top = float(self.weights.max()) if len(self.weights) else 1.0
        if top >= 2.0**-100 or top <= 0.0:
            return self
        return Range(self.text, self.combos, self.weights * 2.0 ** -math.frexp(top)[1])

    @property
    def unit_weights(self) -> bool:
        return bool(np.all(self.weights == 1.0))


def _rank(ch: str) -> int:
    return RANKS.index(ch.upper())


def _class_span(token: str) -> list[tuple[int, int, str]]:
    """Expand one class token (``QQ+``, ``KTo+``, ``A2s-A5s``, ``22-66``, ``TT-``) to (hi, lo, kind)."""
    t = token.strip()
    if "-" in t and not t.endswith("-"):
        a, b = (x.strip() for x in t.split("-", 1))
        ma, mb = _CLASS.fullmatch(a), _CLASS.fullmatch(b)
        if not (ma and mb):
            raise CardError(f"malformed range part {token!r}")
        (h1, l1, k1), (h2, l2, k2) = ((_rank(m[1]), _rank(m[2]), m[3].lower()) for m in (ma, mb))
        if h1 < l1 or h2 < l2:
            raise CardError(f"malformed range part {token!r}: write the higher rank first")
        if h1 == l1 and h2 == l2:
            return [(r, r, "") for r in range(min(h1, h2), max(h1, h2) + 1)]
        if h1 != h2 or k1 != k2 or h1 == l1 or h2 == l2:
            raise CardError(f"malformed range part {token!r}: a span keeps the top card and suitedness, "
                            "e.g. A2s-A5s")
        return [(h1, lo, k1) for lo in range(min(l1, l2), max(l1, l2) + 1)]
    plus = t.endswith("+")
    minus = t.endswith("-")
    core = t[:-1] if plus or minus else t
    m = _CLASS.fullmatch(core)
    if not m:
        raise CardError(f"malformed range part {token!r}")
    hi, lo, kind = _rank(m[1]), _rank(m[2]), m[3].lower()
    if hi < lo:
        hi, lo = lo, hi
    if hi == lo:
        if kind:
            raise CardError(f"malformed range part {token!r}: a pair cannot be suited or offsuit")
        ranks = range(hi, 13) if plus else range(0, hi + 1) if minus else [hi]
        return [(r, r, "") for r in ranks]
    if plus:
        return [(hi, k, kind) for k in range(lo, hi)]
    if minus:
        return [(hi, k, kind) for k in range(0, lo + 1)]
    return [(hi, lo, kind)]


def split_weight(part: str, text: str) -> tuple[str, float]:
    """``("AKs", 0.5)`` from the range part ``"AKs:0.5"`` (weight 1 when none is given); ``text``
    is the whole range, for the message on a bad weight.  Omaha ranges weigh their parts the same way."""
    if ":" not in part:
        return part, 1.0
    part, w = (x.strip() for x in part.rsplit(":", 1))
    try:
        weight = float(w)
    except ValueError:
        raise CardError(f"bad weight {w!r} in range {text!r}") from None
    if not (0.0 <= weight <= 1.0):
        raise CardError(f"weight {w} in range {text!r} is outside 0..1")
    if 0.0 < weight < MIN_WEIGHT:
        raise CardError(f"weight {w} in range {text!r} is too small to compute with: "
                        f"use 0 or at least {MIN_WEIGHT:.3g}")
    return part, weight


def parse_range(text: str) -> Range:
    """Parse a range; raises :class:`CardError` for a malformed or empty one."""
    combos: dict[tuple[int, int], float] = {}
    check_ascii(text, "range")
    if not text or not text.strip():
        raise CardError("empty range")
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise CardError(f"empty part in range {text!r}")
        part, weight = split_weight(part, text)
        low = part.lower()
        if low in ("random", "any", "xxxx", "xx"):
            pairs = [(a, b) for a in range(52) for b in range(a)]
        elif _CLASS.fullmatch(part.rstrip("+-")) or "-" in part and _CLASS.match(part):
            pairs = [c for hi, lo, kind in _class_span(part) for c in class_combos(hi, lo, kind)]
        else:
            try:
                cards = parse_cards(part, what="hand")
            except CardError as e:
                raise CardError(f"malformed range part {part!r} in {text!r} ({e})") from None
            if len(cards) != 2:
                raise CardError(f"malformed range part {part!r}: a hand is two cards")
            pairs = [(max(cards), min(cards))]
        for c in pairs:
            combos[c] = weight
    kept = [(c, w) for c, w in combos.items() if w > 0]
    if not kept:
        raise CardError(f"range {text!r} has no combo with a positive weight")
    kept.sort(key=lambda cw: (-cw[0][0], -cw[0][1]))
    arr = np.array([c for c, _ in kept], np.int64).reshape(-1, 2)
    return Range(text.strip(), arr, np.array([w for _, w in kept], np.float64))

