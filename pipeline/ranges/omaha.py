"""Omaha hand ranges in ProPokerTools' generic syntax (the grammar: :mod:`.omaha_syntax`).

A range names hands of *k* cards (4 in Omaha, 5 and 6 in its five- and six-card forms).
PPT's documentation (propokertools.com, "Generic Syntax"; see docs/omaha.md) defines:

==================  ==============================================================
``AsKhJd2c``        one specific hand
``AA``              at least two aces: a pattern of fewer than k cards leaves the rest free
``AxAyxy``          suit variables ``w x y z``: one letter, one suit; different letters,
                    different suits (and none of the suits named in the pattern):
                    double-suited aces
``sshh``            two spades and two hearts;  ``wxy``: at least three suits
``RRON``            rank variables (any other letter): one pair and two unpaired cards;
                    a variable never takes a rank the pattern names (``AARR``: no AAAA)
``*``, ``****``     any hand (``*`` is any rank);  ``random``, ``any`` too
``A[K-T]**``        a bracketed list of ranks, spans, cards or suits: ``[A,2,3]``, ``[Ks,Qh]``
``KK-TT``, ``JJ+``  spans: KK, QQ, JJ, TT;  JJ..AA;  ``664-``: 664, 553, 442;  ``AsKs-AsTs``
``{AKQ}``           braces: those cards take different ranks
``$B`` .. ``$F``    rank macros: big [A-J], middle [T-7], small [6-2], low [A,8-2],
                    non-low [K-9], wheel [A,5-2], broadway [A-T], face [K-J]
``$ds`` ``$np``     hand macros: suit shapes ``$r $ss $ds $ts $ms`` (the class-label
                    suffixes of :mod:`.omaha_hands`), no pair ``$np``, no trips ``$nt``
``15%``             PPT's percentages of all hands by a ranking (:mod:`.omaha_ranking`):
                    ``5%-10%``, ``15%6h`` (six-handed)
``a,b  a:b  a!b``   union; hands in both; hands of ``a`` not in ``b`` (``!b``: not ``b``);
                    ``(...)`` groups. ``AA:xxyy, JJ!JJJ, KK`` is double-suited aces, exactly
                    two jacks, or two kings or more
``AA@0.5``          a relative weight for a comma part; a later part overrides an earlier
                    one's weight for the hands they share
``AAKKds``          a class label (the ``omaha_class`` column): exactly those ranks and that
                    suit shape; ``AAKK$ds`` and ``AAKK:$ds`` say the same
==================  ==============================================================

Every item of a pattern, wildcards and suits included, counts against the hand size:
a pattern of more than k cards is refused.  Hands are listed ascending by card mask,
one row each; a range that names no hand, or text that cannot be read, raises one
:class:`CardError` line.

>>> len(parse_omaha_range("AA")), len(parse_omaha_range("AAKKds")), len(parse_omaha_range("AxAyxy"))
(6961, 6, 864)
>>> len(parse_omaha_range("AA:xxyy, JJ!JJJ, KK")), len(parse_omaha_range("RROO"))
(14545, 2808)
>>> r = parse_omaha_range("AsKsQdJd, AA@0.5")
>>> len(r), float(r.weights.min())
(6962, 0.5)
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import chain, combinations

import numpy as np

from ..core.cards import CardError, check_ascii, format_cards
from .omaha_hands import all_hands, keys_of, label_mask, match_items, shape_codes_named
from .omaha_ranking import percent_mask
from .omaha_syntax import ALL, Deck, Label, Macro, Node, Op, Pattern, Percent, cut, read_range, suit_cards
from .omaha_syntax import rank_cards as _rank_cards
from .syntax import Range

RANDOM_WORDS = ("random", "any")
HAND_SIZES = (4, 5, 6)


def is_random(text: str, k: int | None = None) -> bool:
    """Whether ``text`` is the whole deck: ``random``, ``any`` or wildcards alone (``*``, ``****``) — no more
    of them than a hand of ``k`` cards holds, when ``k`` is given (``*****`` is refused for four cards)."""
    t = text.strip().lower()
    return t in RANDOM_WORDS or (bool(t) and set(t) == {"*"} and (k is None or len(t) <= k))


def _compiled(p: Pattern, k: int, part: str) -> tuple[np.ndarray, ...]:
    """The matcher's arrays of a pattern: card sets with the variables' exclusions applied, variable and
    group numbers; wildcard items, which any card left over meets, are counted and dropped."""
    items = p.items
    if len(items) > k:
        raise CardError(f"Omaha range part {cut(part)} has {len(items)} cards; a hand of this game holds {k} "
                        "(a pattern may name fewer: the cards left out are free)")
    cards = [4 * it.rank + it.suit for it in items if it.rank >= 0 and it.suit >= 0]
    dup = sorted({c for c in cards if cards.count(c) > 1})
    if dup:
        raise CardError(f"duplicate card {format_cards(dup[:1])} in {cut(part)}")
    named_ranks = sum(1 << r for r in {it.rank for it in items if it.rank >= 0})
    named_suits = sum(1 << s for s in {it.suit for it in items if it.suit >= 0})
    rvars = sorted({it.rvar for it in items if it.rvar})
    if len(rvars) > 13:
        raise CardError(f"{cut(part)} has {len(rvars)} rank variables; there are 13 ranks")
    kept = []
    for it in items:
        c = it.cards
        if it.rvar:
            c &= ~_rank_cards(named_ranks)
        if it.svar:
            c &= ~suit_cards(named_suits)
        if c == ALL and not it.rvar and not it.svar and it.group < 0:
            continue
        kept.append((bin(c).count("1"), c, rvars.index(it.rvar) if it.rvar else -1,
                     "wxyz".index(it.svar) if it.svar else -1, it.group))
    kept.sort(key=lambda t: t[0])
    return (np.array([t[1] for t in kept], np.uint64), np.array([t[2] for t in kept], np.int64),
            np.array([t[3] for t in kept], np.int64), np.array([t[4] for t in kept], np.int64))


@lru_cache(maxsize=512)
def _pattern_row(p: Pattern, k: int, part: str) -> np.ndarray:
    masks, rvar, svar, group = _compiled(p, k, part)
    out = np.zeros(math.comb(52, k), bool)
    match_items(all_hands(k), masks, rvar, svar, group, out)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def _macro_row(name: str, k: int) -> np.ndarray:
    _, codes, most = keys_of(k)
    if name in ("np", "nt"):
        out = most <= (1 if name == "np" else 2)
    else:
        out = np.isin(codes, shape_codes_named(name))
    out.setflags(write=False)
    return out


def _row(node: Node, k: int, hilo: bool, part: str) -> np.ndarray:
    """The hands (a bool row over :func:`all_hands`) a node of the syntax tree names."""
    if isinstance(node, Pattern):
        return _pattern_row(node, k, part)
    if isinstance(node, Deck):
        return np.ones(math.comb(52, k), bool)
    if isinstance(node, Label):
        if len(node.ranks) != k:
            raise CardError(f"{cut(part)}: a class label names {k} ranks in this game")
        if node.suffix == "r" and k > 4:
            raise CardError(f"{cut(part)}: a rainbow hand has at most 4 cards, this game's hold {k}")
        return label_mask(k, list(node.ranks), node.suffix)
    if isinstance(node, Macro):
        return _macro_row(node.name, k)
    if isinstance(node, Percent):
        return percent_mask(k, hilo, node.six_handed, node.lo, node.hi)
    assert isinstance(node, Op)
    a = _row(node.left, k, hilo, part)
    if node.op == "~":
        return ~a
    assert node.right is not None
    b = _row(node.right, k, hilo, part)
    return {",": a | b, ":": a & b, "!": a & ~b}[node.op]


def parse_omaha_range(text: str, k: int = 4, *, hilo: bool = False) -> Range:
    """Parse an Omaha range of k-card hands (see the module doc); one :class:`CardError` line on anything
    it cannot read or on a range that names no hand.  ``hilo`` picks the hi/lo ranking for percentages."""
    check_ascii(text, "range")
    if k not in HAND_SIZES:
        raise CardError(f"Omaha hands hold 4, 5 or 6 cards, not {k}")
    if not text or not text.strip():
        raise CardError("empty range")
    if is_random(text, k):
        raise CardError("random is the whole deck: deal it, do not list it (see is_random)")
    idx, wts = [], []
    for term in read_range(text, k):
        rows = np.flatnonzero(_row(term.node, k, hilo, term.text))
        if len(rows) == 0:
            raise CardError(f"Omaha range part {cut(term.text)} matches no {k}-card hand")
        idx.append(rows)
        wts.append(np.full(len(rows), term.weight))
    if len(idx) == 1:
        rows, weights = idx[0], wts[0]
    else:   # a later part's weight wins: keep each hand's last occurrence
        every, w = np.concatenate(idx)[::-1], np.concatenate(wts)[::-1]
        rows, first = np.unique(every, return_index=True)
        weights = w[first]
    keep = weights > 0
    if not keep.any():
        raise CardError(f"range {cut(text)} has no hand with a positive weight")
    return Range(text.strip(), all_hands(k)[rows[keep]].astype(np.int64), weights[keep].astype(np.float64))


@lru_cache(maxsize=8)
def choose(n: int, r: int) -> np.ndarray:
    """Every r-subset of 0..n-1, one row each (lexicographic), as int64."""
    flat = np.fromiter(chain.from_iterable(combinations(range(n), r)), np.int8, count=math.comb(n, r) * r)
    return flat.reshape(-1, r).astype(np.int64)


def cards_of_masks(masks: np.ndarray, k: int) -> np.ndarray:
    """(n, k) card ids, ascending, of k-card masks."""
    bits = (masks[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)
    return np.nonzero(bits)[1].reshape(len(masks), k).astype(np.int64)


def hands_in_deck(k: int) -> int:
    """Number of k-card hands: 270,725 for 4 cards."""
    return math.comb(52, k)
