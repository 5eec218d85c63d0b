"""Exact equity after the flop by a front of its own, for the questions one kernel call answers.

One range against specific hands (:mod:`.one_range`) and ranges whose combo assignments can be listed
(:mod:`.grouped`) need little beyond their kernel, so the parsed texts and each range's arrays are kept
between calls (callers such as ``vs-random`` ask the same question thousands of times) and the general
front of :mod:`.calculator` is passed by.  Anything out of the ordinary falls back to it.
"""
from __future__ import annotations

import math
import time
from functools import lru_cache
from typing import NamedTuple, Optional, Sequence, Union

import numpy as np

from ..core.cards import CardError, format_cards, mask_of, parse_cards
from ..evaluator.decks import Deck
from ..evaluator.kernels import Tables
from ..evaluator.tables import tables
from ..ranges.query import parse_query
from ..ranges.syntax import Range
from .chunks import Progress
from .exact_result import _result
from .grouped import FIT, MAX_PRODUCT, grouped_kernel
from .one_range import one_range_counts
from .result import EquityResult
from .suits import stabilizer


@lru_cache(maxsize=512)
def _parse_player(text: str) -> Range:
    """A player's parsed range, kept: callers such as ``vs-random`` ask for ``random`` thousands of times."""
    return parse_query(text)


class _Player(NamedTuple):
    """What :func:`_exact_fast` needs of a player, computed once per range: its parsed range, its combos,
    masks and weights as the kernels take them, its cards' mask when it is one hand (else 0), whether every
    weight is 1, and whether the range is fit as it is (hold'em combos, no negative weight, not all weights
    tiny: :meth:`Range.rescaled`)."""

    rng: Range
    combos: np.ndarray
    masks: np.ndarray
    weights: np.ndarray
    hand_mask: int
    unit: bool
    plain: bool


def _player_of(rng: Range) -> _Player:
    combos = np.ascontiguousarray(rng.combos, np.int64)
    weights = np.ascontiguousarray(rng.weights, np.float64)
    hand = int(rng.masks[0]) if len(rng) == 1 else 0
    plain = len(rng) > 0 and combos.shape[1] == 2 and bool(weights.min() >= 0.0) and rng.rescaled() is rng
    return _Player(rng, combos, np.ascontiguousarray(rng.masks, np.uint64), weights, hand,
                   bool(np.all(weights == 1.0)), plain)


@lru_cache(maxsize=512)
def _player_text(text: str) -> _Player:
    return _player_of(_parse_player(text))


@lru_cache(maxsize=256)
def _cards_text(text: str) -> tuple[tuple[int, ...], int, str]:
    """``(card ids, mask, canonical text)`` of a board or dead-card text; CardError as :func:`parse_cards`."""
    cards = parse_cards(text)
    return tuple(cards), mask_of(cards), format_cards(cards)


def _exact_fast(players: Sequence[Union[str, Range]], board: str, dead: str, threads: Optional[int],
                progress: Optional[Progress], deck: Deck) -> Optional[EquityResult]:
    """Exact equity after the flop, with a front of its own, for one range against specific hands
    (:mod:`.one_range`) and for ranges whose combo assignments can be listed (:mod:`.grouped`): parsed texts
    and each range's arrays are kept between calls, so a call costs little more than its kernel.  None
    whenever anything is out of the ordinary (a bad card, a clash, weights to rescale, no live combo, no
    deal, specific hands only, too many assignments...): the general path then answers, or says what is
    wrong, as it always did."""
    if (threads is not None and threads < 1) or not (isinstance(board, str) and isinstance(dead, str)
                                                     and all(isinstance(p, (str, Range)) for p in players)):
        return None             # not text: the general path says so (the caches below take only text)
    start = time.perf_counter()
    try:
        board_cards, board_mask, board_text = _cards_text(board)
        dead_cards, dead_mask, dead_text = _cards_text(dead) if dead else ((), 0, "")
        infos = [_player_of(p) if isinstance(p, Range) else _player_text(p) for p in players]
    except CardError:
        return None
    used = board_mask | dead_mask
    if (len(board_cards) not in (3, 4, 5) or bin(used).count("1") != len(board_cards) + len(dead_cards)
            or deck.size - len(board_cards) - len(dead_cards) < 2 * len(players) + 5 - len(board_cards)
            or used & deck.absent_mask):
        return None
    if deck.absent_mask:          # the cards the deck lacks: dead, and out of every range
        dead_mask |= deck.absent_mask
        used |= deck.absent_mask
        if any(info.hand_mask & deck.absent_mask for info in infos):
            return None
        infos = [info if info.hand_mask else _player_of(info.rng.without(deck.absent_mask)) for info in infos]
    seats = [i for i, info in enumerate(infos) if not info.hand_mask]
    hands = used
    for info in infos:
        if not info.plain or info.hand_mask & hands:
            return None
        hands |= info.hand_mask
    if not seats:
        return None                       # hand against hand: the rank-multiset walk of .exact
    t = tables(deck)
    if len(seats) == 1 and all(info.unit for info in infos if info.hand_mask):
        got = _one_range(infos, seats[0], board_cards, dead_mask, t)
    elif math.prod(len(info.rng) for info in infos) <= MAX_PRODUCT:
        got = _grouped(infos, board_cards, dead_cards, dead_mask, t)
    else:
        return None
    if got is None:
        return None
    counts, wcounts, boards, wboards, unit, runouts = got
    if progress is not None:
        progress(runouts, runouts, time.perf_counter() - start, "runouts")
    result = _result([info.rng.text for info in infos], unit, counts, wcounts, boards, wboards)
    result.board, result.dead = board_text, dead_text
    return result


def _one_range(infos: list[_Player], seat: int, board: tuple[int, ...], dead_mask: int,
               t: Tables) -> Optional[tuple]:
    """``(counts, wcounts, boards, weighted boards, unit, runouts)`` of the range of player ``seat`` against
    the others' hands (:func:`.one_range.one_range_counts`), or None when it has no live combo."""
    fixed = np.array([info.combos[0] for info in infos if info.hand_mask], np.int64)
    seats = np.array([i for i, info in enumerate(infos) if info.hand_mask], np.int64)
    counts, wcounts, boards, wboards, live, wlive, unit, runouts = one_range_counts(
        np.array(board, np.int64), np.uint64(dead_mask), fixed, seats, seat, infos[seat].combos,
        infos[seat].weights, *t)
    if live == 0 or not (wlive > 0.0 and math.isfinite(wlive)):
        return None
    return counts, wcounts, boards, wboards, unit, runouts


def _grouped(infos: list[_Player], board: tuple[int, ...], dead: tuple[int, ...], dead_mask: int,
             t: Tables) -> Optional[tuple]:
    """The same by :func:`.grouped.grouped_kernel`, or None unless its status is FIT."""
    status, counts, wcounts, boards, wboards, unit, runouts = grouped_kernel(
        np.concatenate([info.combos for info in infos]), np.concatenate([info.masks for info in infos]),
        np.concatenate([info.weights for info in infos]),
        np.cumsum([0] + [len(info.rng) for info in infos]).astype(np.int64), np.array(board, np.int64),
        np.uint64(dead_mask), np.ascontiguousarray(stabilizer(list(board), list(dead)), np.int64),
        math.prod(len(info.rng) for info in infos), *t)
    if status != FIT:
        return None
    return counts, wcounts, boards, wboards, unit, runouts
