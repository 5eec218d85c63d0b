"""Suit-isomorphic indexing of hold'em situations: a dense index in O(1), and its inverse.

Two situations (hole cards, board as a set) are the same when a permutation of
suits maps one onto the other.  Each street then has a fixed number of classes:
169 preflop, 1,286,792 on the flop, 13,960,050 on the turn and 123,156,254 on
the river.  :func:`situation_index` numbers them densely without any table of
situations, in the spirit of Waugh's hand isomorphism (2013):

The numbering runs in numba (:func:`situation_index_nb`, for tables of
millions and the betting kernel); the inverse is plain Python.

1. Per suit, the ranks it holds in each round (hole, board) form a *suit
   configuration*; its *shape* is the count per round, and it is numbered by
   the combinatorial number system round by round (a round's ranks among those
   the earlier rounds left free).
2. Suits are sorted by (shape, number); suits sharing a shape form a group
   whose numbers are a multiset, numbered by colex over multisets.
3. The sorted shapes of the four suits select a block of the index space (an
   offset), and the groups' numbers a place inside it (mixed radix).

>>> situation_index("AhKh", "2c7d9s") == situation_index("AsKs", "2h7c9d")
True
>>> hole, board = situation_cards(situation_index("AhKh", "2c7d9s"), 3)
>>> situation_index(hole, board) == situation_index("AhKh", "2c7d9s")
True
>>> street_size(3), street_size(4), street_size(5)
(1286792, 13960050, 123156254)
"""
from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import comb
from typing import Union

import numpy as np
from numba import njit

from ..core.cards import BOARD_SIZES, CardError, cards_arg, check_disjoint, format_cards
from ..core.combinatorics import BINOM
from ..core.inputs import integer
from .ranksets import COLEX13, POP13
from .sort4 import sort4_desc

Cards = Union[str, Sequence[int]]


def _uncolex(idx: int, k: int) -> int:
    """The ``k``-set of bit positions with colex rank ``idx``."""
    mask = 0
    for j in range(k, 0, -1):
        pos = j - 1
        while comb(pos + 1, j) <= idx:
            pos += 1
        idx -= comb(pos, j)
        mask |= 1 << pos
    return mask


def _expand(mask: int, used: int) -> int:
    out, j = 0, 0
    for p in range(13):
        if used >> p & 1:
            continue
        if mask >> j & 1:
            out |= 1 << p
        j += 1
    return out


def _suit_masks(number: int, shape: Sequence[int]) -> list[int]:
    masks, used = [], 0
    for k in shape:
        size = comb(13 - bin(used).count("1"), k)
        number, here = divmod(number, size)
        m = _expand(_uncolex(here, k), used)
        masks.append(m)
        used |= m
    return masks


def _shape_size(shape: Sequence[int]) -> int:
    size, used = 1, 0
    for k in shape:
        size *= comb(13 - used, k)
        used += k
    return size


def _multiset_unrank(idx: int, g: int) -> list[int]:
    xs = []
    for j in range(g):
        t = g - j
        x = t - 1
        while comb(x + 1, t) <= idx:
            x += 1
        idx -= comb(x, t)
        xs.append(x - (g - 1 - j))
    return xs


@lru_cache(maxsize=None)
def _blocks(rounds: tuple[int, ...]) -> tuple[dict, list]:
    """Every sorted 4-suit shape configuration of a street with its offset and size."""
    shapes = [s for s in product(*(range(k + 1) for k in rounds))]
    configs = set()
    # each multiset of four suits' shapes once (5,985 on a river, not the 104,976 ordered ones): the same set,
    # in 0.01 s instead of 0.1 s of every process that indexes a street (a fork server preparing a dataset)
    for combo in combinations_with_replacement(shapes, 4):
        if all(sum(s[r] for s in combo) == rounds[r] for r in range(len(rounds))):
            configs.add(tuple(sorted(combo, reverse=True)))
    offsets, order, at = {}, [], 0
    for cfg in sorted(configs, reverse=True):
        size = 1
        for shape in set(cfg):
            g = cfg.count(shape)
            size *= comb(_shape_size(shape) + g - 1, g)
        offsets[cfg] = (at, size)
        order.append((at, cfg))
        at += size
    return offsets, order


def _rounds(board_cards: int) -> tuple[int, ...]:
    """Card counts dealt per round of a street: (2,) preflop, (2, n) with ``n`` = 3, 4 or 5 board cards."""
    if (not isinstance(board_cards, (int, np.integer)) or isinstance(board_cards, bool)
            or board_cards not in BOARD_SIZES):
        raise CardError(f"a street has 0, 3, 4 or 5 board cards, got {board_cards!r}")
    return (2, int(board_cards)) if board_cards else (2,)


def street_size(board_cards: int) -> int:
    """Situations on a street: hole cards plus ``board_cards`` (0, 3, 4 or 5) on the board."""
    rounds = _rounds(board_cards)
    offsets, _ = _blocks(rounds)
    return sum(size for _, size in offsets.values())


def situation_index(hole: Cards, board: Cards = ()) -> int:
    """Dense index of (hole, board as a set) up to suit permutation; O(1) in the deck size."""
    h, b = cards_arg(hole, "hole cards"), cards_arg(board, "board")
    if len(h) != 2 or len(b) not in BOARD_SIZES:
        raise CardError(f"a situation is 2 hole cards and 0, 3, 4 or 5 board cards, got {len(h)} and {len(b)}")
    check_disjoint([("hole cards", h), ("board", b)])
    return int(situation_index_nb(h[0], h[1], np.array(b + [0] * (5 - len(b)), np.int64), len(b),
                                  block_table(len(b))))


def situation_cards(index: int, board_cards: int) -> tuple[list[int], list[int]]:
    """The canonical (hole, board) of an index — the inverse of :func:`situation_index`."""
    rounds = _rounds(board_cards)
    offsets, order = _blocks(rounds)
    total = sum(size for _, size in offsets.values())
    index = integer(index, "situation index", 0, total - 1, error=CardError, strict=True)
    lo, hi = 0, len(order) - 1
    while lo < hi:                                  # last block starting at or before index
        mid = (lo + hi + 1) // 2
        if order[mid][0] <= index:
            lo = mid
        else:
            hi = mid - 1
    at, cfg = order[lo]
    rest = index - at
    numbers: dict[tuple, list[int]] = {}
    for shape in sorted(set(cfg), reverse=True):
        g = cfg.count(shape)
        radix = comb(_shape_size(shape) + g - 1, g)
        rest, here = divmod(rest, radix)
        numbers[shape] = _multiset_unrank(here, g)
    hole, board = [], []
    suit = 0
    for shape in sorted(set(cfg), reverse=True):
        for n in numbers[shape]:
            masks = _suit_masks(n, shape)
            hole += [4 * r + suit for r in range(13) if masks[0] >> r & 1]
            if len(masks) > 1:
                board += [4 * r + suit for r in range(13) if masks[1] >> r & 1]
            suit += 1
    return sorted(hole, reverse=True), sorted(board, reverse=True)


def situation_text(index: int, board_cards: int) -> tuple[str, str]:
    """``('AsKs', '9h7d2c')``-style text of an index's canonical situation."""
    hole, board = situation_cards(index, board_cards)
    return format_cards(hole), format_cards(board)


# ---------------------------------------------------------------------------
# The same numbering in numba, for tables of millions of situations.

@lru_cache(maxsize=None)
def block_table(board_cards: int) -> np.ndarray:
    """Block offset of each sorted shape configuration, keyed base 18 (shape code hole*6 + board); built once
    (a few tenths of a second of Python) and kept in the disk cache beside the evaluator's tables."""
    from ..core.cache import cache_dir, load_or_build

    return load_or_build(cache_dir() / f"situation-blocks-{int(board_cards)}.npz",
                         lambda: {"blocks": _block_table(board_cards)})["blocks"]


def _block_table(board_cards: int) -> np.ndarray:
    rounds = _rounds(board_cards)
    offsets, _ = _blocks(rounds)
    table = np.full(18 ** 4, -1, np.int64)
    for cfg, (at, _size) in offsets.items():
        key = 0
        for shape in cfg:
            key = key * 18 + shape[0] * 6 + (shape[1] if len(shape) > 1 else 0)
        table[key] = at
    return table


_COLEX13, _POP13 = COLEX13, POP13          # module globals: numba freezes them into the kernels


@njit(cache=True, nogil=True)
def _comb_upto4(n: int, k: int) -> int:
    """``C(n, k)`` for ``k`` 1..4 without a loop (the multiset ranks of at most four suits)."""
    if n < k:
        return 0
    if k == 1:
        return n
    if k == 2:
        return n * (n - 1) // 2
    if k == 3:
        return n * (n - 1) * (n - 2) // 6
    return n * (n - 1) * (n - 2) * (n - 3) // 24


@njit(cache=True, nogil=True)
def _drop_bit(mask: int, bit: int) -> int:
    """``mask`` (not holding ``bit``) with the positions above ``bit`` moved down one."""
    return (mask & (bit - 1)) | ((mask >> 1) & ~(bit - 1))


@njit(cache=True, nogil=True)
def _suit_key(hm: int, bm: int) -> int:
    """A suit's configuration (hole and board rank masks) packed as ``shape code << 20 | number``:
    the shape code is ``hole cards * 6 + board cards``, the number the colex rank of the hole's ranks
    plus ``C(13, hole cards)`` times that of the board's ranks squeezed past the hole's."""
    kh = _POP13[hm]
    kb = _POP13[bm]
    lo = hm & -hm                       # squeeze the hole's ranks (at most two) out of the board's
    hi = hm ^ lo
    sq = bm
    if hi:
        sq = _drop_bit(sq, hi)
    if lo:
        sq = _drop_bit(sq, lo)
    return ((kh * 6 + kb) << 20) | (_COLEX13[hm] + BINOM[13, kh] * _COLEX13[sq])


@njit(cache=True, nogil=True)
def _nth(i: int, a: int, b: int, c: int, d: int) -> int:
    return a if i == 0 else (b if i == 1 else (c if i == 2 else d))


@njit(cache=True, nogil=True)
def situation_index_nb(h0: int, h1: int, board: np.ndarray, nboard: int, blocks: np.ndarray) -> int:
    """:func:`situation_index` of hole ``h0 h1`` and ``board[:nboard]`` inside kernels: per-suit keys from
    table lookups, sorted by a network, numbered in their block of :func:`block_table` (``blocks``);
    nothing is allocated, so the betting kernel calls it at every hand-weight lookup."""
    hole = (1 << ((h0 & 3) * 16 + (h0 >> 2))) | (1 << ((h1 & 3) * 16 + (h1 >> 2)))   # 16 bits a suit
    brd = 0
    for i in range(nboard):
        brd |= 1 << ((board[i] & 3) * 16 + (board[i] >> 2))
    a = _suit_key(hole & 0x1FFF, brd & 0x1FFF)
    b = _suit_key((hole >> 16) & 0x1FFF, (brd >> 16) & 0x1FFF)
    c = _suit_key((hole >> 32) & 0x1FFF, (brd >> 32) & 0x1FFF)
    d = _suit_key((hole >> 48) & 0x1FFF, (brd >> 48) & 0x1FFF)
    a, b, c, d = sort4_desc(a, b, c, d)     # high to low by (shape code, number)
    key = (((a >> 20) * 18 + (b >> 20)) * 18 + (c >> 20)) * 18 + (d >> 20)
    idx = 0
    mult = 1
    i = 0
    while i < 4:
        code = _nth(i, a, b, c, d) >> 20
        g = 1
        while i + g < 4 and _nth(i + g, a, b, c, d) >> 20 == code:
            g += 1
        kh = code // 6
        kb = code % 6
        size = BINOM[13, kh] * BINOM[13 - kh, kb]
        rank = 0
        for j in range(g):
            rank += _comb_upto4((_nth(i + j, a, b, c, d) & 0xFFFFF) + g - 1 - j, g - j)
        idx += mult * rank
        mult *= _comb_upto4(size + g - 1, g)
        i += g
    return blocks[key] + idx


def situation_indices(cards: np.ndarray) -> np.ndarray:
    """:func:`situation_index` of each row of ``cards`` (an integer array of shape (situations, 2 + n) with
    n = 0, 3, 4 or 5: hole cards, then board), in numba; the cards are assumed valid and distinct (the
    callers' own kernels made them)."""
    a = np.asarray(cards)
    if a.ndim != 2 or a.shape[1] - 2 not in BOARD_SIZES or (a.dtype.kind not in "iu" and a.size):
        raise CardError(f"cards must be an integer array of shape (situations, 2, 5, 6 or 7), got {a.dtype} {a.shape}")
    out = np.empty(a.shape[0], np.int64)
    _situation_rows(np.ascontiguousarray(a, np.int64), block_table(a.shape[1] - 2), out)
    return out


@njit(cache=True, nogil=True)
def _situation_rows(cards: np.ndarray, blocks: np.ndarray, out: np.ndarray) -> None:
    board = np.zeros(5, np.int64)
    nboard = cards.shape[1] - 2
    for row in range(cards.shape[0]):
        for j in range(nboard):
            board[j] = cards[row, 2 + j]
        out[row] = situation_index_nb(cards[row, 0], cards[row, 1], board, nboard, blocks)
