"""Equity of 2..10 players, each a specific hand or a range, on any board.

>>> r = equity(["AhKh", "QsQd"])
>>> r.exact, r.boards, [p.wins for p in r.players]
(True, 1712304, [787966, 917606])
>>> round(r.players[0].equity * 100, 4)
46.2145

Exact enumeration is chosen when its work — range combos multiplied out, times
boards, times players, divided by the number of suit permutations that fix
the board and dead cards (:mod:`.suits`) — is at most :data:`~.limits.EXACT_WORK_LIMIT`
hand evaluations (about a second on one core); otherwise Monte Carlo with
:data:`~.limits.DEFAULT_TRIALS` trials.  ``trials=N`` forces Monte Carlo and
``exact=True`` forces enumeration.

This module is the front: it checks the question and chooses the path.  The paths are
modules of their own: :mod:`.fast_postflop` (one kernel call after the flop),
:mod:`.tabled` (preflop answers read from precomputed tables), :mod:`.exact_runs`
(enumeration in chunks) and :mod:`.trials` (Monte Carlo), with :mod:`.limits` the
limits and budget checks that every game shares.

``deck=`` plays another deck (:mod:`pipeline.evaluator.decks`): short-deck hold'em
deals from 36 cards, six to ace, valued by that deck's tables.  The cards the deck
lacks are dead to every deal, so every path here (exact or Monte Carlo, hands or
ranges) serves it; a range keeps its combos of the deck's cards.

>>> from pipeline.evaluator.decks import SHORT_DECK
>>> r = equity(["AhKh", "QsQd"], deck=SHORT_DECK)
>>> r.boards, [p.wins for p in r.players]
(201376, [108298, 91071])
"""
from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import Optional, Sequence, Union

import numpy as np

from ..core.budget import duration
from ..core.cards import CardError, check_disjoint, format_cards, mask_of, parse_board, parse_cards
from ..evaluator.decks import STANDARD, Deck
from ..evaluator.tables import tables
from ..ranges.syntax import Range
from .chunks import Progress
from .exact import any_assignment
from .exact_result import _no_assignment
from .exact_runs import _exact, _exact_by_runouts, _exact_seconds
from .fast_postflop import _exact_fast, _parse_player
from .limits import (
    DEFAULT_TRIALS,
    EXACT_SECONDS_LIMIT,
    EXACT_WORK_LIMIT,
    MAX_PLAYERS,
    check_budget,
    thread_count,
)
from .result import EquityResult
from .suits import stabilizer
from .tabled import _from_table, _from_three_way
from .threeway import ThreeWayTable
from .trials import _monte_carlo


def equity(players: Sequence[Union[str, Range]], board: str = "", dead: str = "",
           trials: Optional[int] = None, seed: int = 0, exact: Optional[bool] = None,
           threads: Optional[int] = None, *, stderr: Optional[float] = None,
           seconds: Optional[float] = None, executor: Optional[Executor] = None,
           table: Union[bool, tuple[np.ndarray, np.ndarray]] = True,
           three_way: Optional[ThreeWayTable] = None,
           progress: Optional[Progress] = None, deck: Deck = STANDARD) -> EquityResult:
    """Equity of each player; see the module doc for how exact or Monte Carlo is chosen.

    Monte Carlo stops after ``trials`` trials, or — with ``stderr`` — once every
    player's standard error is at most that target (OMPEval's ``stdevTarget``;
    reproducible whatever the threads), or — with ``seconds`` — after that
    time budget (Keith Rule's timed odds functions; not reproducible), whichever
    comes first.  ``executor`` runs the chunks (a ``concurrent.futures``
    executor, pokerkit's pattern); without one, ``threads`` threads are used
    (default: every core).  Preflop, heads-up answers are summed from the matchups table
    (``table``: the packaged copy, given arrays, or False to enumerate) and three-way answers
    from ``three_way`` (:class:`~.threeway.ThreeWayTable`, the ``preflop-3way`` counts) when
    every range is made of whole classes.  ``progress(done, total, seconds, unit)`` is called
    after each merged chunk: Monte Carlo ``"trials"`` (``total`` None when
    adaptive) or exact ``"combo pairs of players 1 and 2"`` enumerated.  ``deck``: the cards dealt and how
    hands rank (module doc); the matchups and three-way tables serve the 52-card deck only.
    """
    if (board and exact is not False and trials is None and stderr is None and seconds is None
            and 2 <= len(players) <= MAX_PLAYERS):
        result = _exact_fast(players, board, dead, threads, progress, deck)
        if result is not None:
            return result
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise CardError(f"{len(players)} players given; equity needs 2 to {MAX_PLAYERS}")
    adaptive = stderr is not None or seconds is not None
    if (trials is not None or adaptive) and exact:
        raise CardError("choose either exact enumeration or Monte Carlo (trials, stderr or time), not both")
    check_budget(trials, seed, stderr, seconds, thread_count(threads))
    board_cards = parse_board(board)
    dead_cards = parse_cards(dead, what="dead cards") if dead else []
    check_disjoint([("board", board_cards), ("dead cards", dead_cards)])
    deck.check_cards(board_cards, "board")
    deck.check_cards(dead_cards, "dead cards")
    used = mask_of(board_cards) | mask_of(dead_cards) | deck.absent_mask
    missing = 5 - len(board_cards)
    left = deck.size - len(board_cards) - len(dead_cards)
    if left < 2 * len(players) + missing:
        cards = "card" if missing == 1 else "cards"
        raise CardError(f"impossible deal: {len(players)} players and {missing} board {cards} need "
                        f"{2 * len(players) + missing} cards, only {left} are left beside the board and dead cards")
    ranges, given = [], []             # the ranges left beside board and dead cards; their sizes as given
    for i, p in enumerate(players, 1):
        if not isinstance(p, (str, Range)):
            raise CardError(f"player {i}: a range must be text or a Range, got {type(p).__name__}")
        try:
            rng = p if isinstance(p, Range) else _parse_player(p)
        except CardError as e:
            raise CardError(f"player {i}: {e}") from None
        if len(rng) == 1:   # a specific hand: name the clash with board or dead cards
            check_disjoint([("board", board_cards), ("dead cards", dead_cards),
                            (f"player {i} ({rng.text})", list(rng.combos[0]))])
            deck.check_cards(rng.combos[0].tolist(), f"player {i}")
        rest = rng.without(used)
        if len(rest) == 0:
            raise CardError(f"player {i}: range {rng.text!r} has no combo left beside the board and dead cards"
                            + (f" in the {deck.title}" if deck.low_rank else ""))
        total = float(np.sum(rest.weights))
        if not (total > 0.0 and math.isfinite(total)) or float(np.min(rest.weights)) < 0.0:
            raise CardError(f"player {i}: the weights of range {rng.text!r} add up to {total:g}; "
                            "weights lie in 0..1 and at least one combo needs a weight above 0")
        ranges.append(rest.rescaled())      # all-tiny weights scaled by a power of two: no product underflow
        given.append(len(rng))
    specific = [r for r, n in zip(ranges, given) if n == 1]
    fixed = mask_of(c for r in specific for c in r.combos[0])
    for i, (r, n) in enumerate(zip(ranges, given), 1):   # a range that only clashes with hands given card by card
        if n > 1 and len(r.without(fixed)) == 0:
            raise CardError(f"player {i}: range {r.text!r} has no combo left beside the board, dead cards "
                            f"and the other players' hands")
    for i, a in enumerate(specific):   # two specific hands sharing a card: say which
        for b in specific[i + 1:]:
            common = set(a.combos[0]) & set(b.combos[0])
            if common:
                raise CardError(f"duplicate card {format_cards(sorted(common))} in {a.text} and {b.text}")
    masks = np.concatenate([r.masks for r in ranges])
    offsets = np.cumsum([0] + [len(r) for r in ranges]).astype(np.int64)
    if not any_assignment(masks, offsets, used):
        raise _no_assignment(ranges)
    live = left - 2 * len(ranges)
    assignments_bound = math.prod(len(r) for r in ranges)
    work = assignments_bound * math.comb(live, missing) * len(ranges)
    if ((exact or (exact is None and trials is None and not adaptive)) and table is not False
            and len(ranges) == 2 and not board_cards and not dead_cards and deck == STANDARD):
        result = _from_table(ranges, table)
        if result is not None:
            return result
    if ((exact or (exact is None and trials is None and not adaptive)) and table is not False
            and three_way is not None and len(ranges) == 3 and not board_cards and not dead_cards
            and deck == STANDARD):
        result = _from_three_way(ranges, three_way)
        if result is not None:
            return result
    if exact is None:      # suit classes are enumerated once each: the work shrinks by the group's size
        work //= len(stabilizer(board_cards, dead_cards))
        exact = trials is None and not adaptive and work <= EXACT_WORK_LIMIT
    n_threads = thread_count(threads)
    t = tables(deck)
    if exact:
        if work > EXACT_WORK_LIMIT:     # long enough to be worth timing a sample: refuse hours
            seconds_needed = _exact_seconds(ranges, masks, offsets, board_cards, dead_cards, used, assignments_bound,
                                            t)
            if seconds_needed / n_threads > EXACT_SECONDS_LIMIT:
                raise CardError(f"exact enumeration of these ranges is too large ({assignments_bound:,} combo "
                                f"assignments, about {duration(seconds_needed / n_threads)} on {n_threads} "
                                f"thread{'s' if n_threads > 1 else ''}); "
                                "use --trials N, --stderr TARGET or --time SECONDS")
        result = None
        if board_cards and assignments_bound > 1:   # after the flop, ranges: each runout valued once (.runouts)
            result = _exact_by_runouts(ranges, board_cards, dead_cards, used, executor, n_threads, progress, t)
        if result is None:
            result = _exact(ranges, masks, offsets, board_cards, dead_cards, used, executor, n_threads, progress, t)
    else:
        if trials is None and not adaptive:
            trials = DEFAULT_TRIALS
        result = _monte_carlo(ranges, board_cards, used, trials, seed, stderr, seconds,
                              executor, n_threads, progress, deck)
    result.board, result.dead = format_cards(board_cards), format_cards(dead_cards)
    return result
