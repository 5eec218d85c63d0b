"""Equity of 2..10 players, each a specific hand or a range, on any board.

>>> r = equity(["AhKh", "QsQd"])
>>> r.exact, r.boards, [p.wins for p in r.players]
(True, 1712304, [787966, 917606])
>>> round(r.players[0].equity * 100, 4)
46.2145

Exact enumeration is chosen when its work — range combos multiplied out, times
boards, times players, divided by the number of suit permutations that fix
the board and dead cards (:mod:`.suits`) — is at most :data:`EXACT_WORK_LIMIT`
hand evaluations (about a second on one core); otherwise Monte Carlo with
:data:`DEFAULT_TRIALS` trials.  ``trials=N`` forces Monte Carlo and
``exact=True`` forces enumeration.

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
import time
from concurrent.futures import Executor
from functools import lru_cache
from typing import Callable, NamedTuple, Optional, Sequence, Union

import numpy as np

from ..core.budget import TargetWatch, duration, refuse_beyond, refuse_count
from ..core.cards import CardError, check_disjoint, format_cards, mask_of, parse_board, parse_cards
from ..core.cores import available_cores
from ..core.inputs import integer, shown
from ..evaluator.decks import STANDARD, Deck
from ..evaluator.kernels import Tables
from ..evaluator.simd import lookup_values, offsets32
from ..evaluator.tables import tables
from ..ranges.query import parse_query
from ..ranges.syntax import Range
from .chunks import chunked_exact, run_chunks
from .exact import Assignments, any_assignment, exact_chunk, exact_counts, first_assignments
from .grouped import FIT, MAX_PRODUCT, grouped_counts, grouped_kernel
from .montecarlo import MonteCarloTotals, deal_lanes, monte_carlo_chunk
from .one_range import one_range_counts
from .plan import plan_deal
from .result import EquityResult, PlayerEquity
from .scoring import equity_fraction, wins_ties_units
from .suits import combo_index, stabilizer
from .threeway import ThreeWayTable

EXACT_WORK_LIMIT = 1_000_000_000
EXACT_SECONDS_LIMIT = 3600.0           # even --exact is refused when estimated above an hour on the threads
DEFAULT_TRIALS = 1_000_000
MAX_TRIALS = 10**15                   # about a year at 30 M trials/s: refused above, as beyond reason
MC_TRIALS_PER_SECOND = 100e6          # Monte Carlo trials a second on one thread, above the fastest measured (41.5 M
                                      # heads-up, docs/measured.md): work refused at it is certainly beyond a day
CHUNK_TRIALS = 1 << 16                # trials per chunk: its own RNG stream, one merge, one interrupt check
MAX_PLAYERS = 10
MAX_THREADS = 4096                    # threads one process may ask for
CHUNK_WORK = 100_000_000              # hand evaluations in one chunk of an exact enumeration (~0.1 s)

Progress = Callable[[int, Optional[int], float, str], None]   # (done, total, seconds, unit)


def thread_count(requested: Optional[int]) -> int:
    """Threads to run on: ``requested``, or every core when None."""
    if requested is None:
        return available_cores()
    return integer(requested, "threads", 1, MAX_THREADS, error=CardError, strict=True)


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


def check_budget(trials: Optional[int], seed: int, stderr: Optional[float], seconds: Optional[float],
                 workers: int = 1, rate: float = MC_TRIALS_PER_SECOND) -> None:
    """One :class:`CardError` line on a Monte Carlo budget of the wrong type or out of bounds, and
    :class:`~pipeline.core.budget.TooMuchWork` on ``trials`` or ``seconds`` beyond a day on ``workers``
    threads at ``rate`` trials a second each (shared by every game; a ``stderr`` target is judged by its
    pilot, :class:`~pipeline.core.budget.TargetWatch`)."""
    for name, count in (("trials", trials), ("seed", seed)):
        if count is not None and (isinstance(count, (bool, np.bool_)) or not isinstance(count, (int, np.integer))):
            raise CardError(f"{name} must be an integer, got {shown(count)}")
    for name, number in (("stderr target", stderr), ("time budget", seconds)):
        if number is not None and (isinstance(number, (bool, np.bool_)) or not isinstance(number, (int, float))):
            raise CardError(f"{name} must be a number, got {shown(number)}")
    if trials is not None and trials <= 0:
        raise CardError(f"trials must be positive, got {trials}")
    if trials is not None and trials > MAX_TRIALS:
        raise CardError(f"{trials:,} trials is beyond reason (at most {MAX_TRIALS:,}); "
                        "use --stderr TARGET or --time SECONDS to bound the work")
    if not 0 <= seed < 2**63:
        raise CardError(f"seed must be 0 to 2**63-1, got {seed}")
    if stderr is not None and not (0.0 < stderr < 1.0):
        raise CardError(f"stderr target must be above 0 and below 1 (e.g. 0.001), got {stderr}")
    if seconds is not None and not (0.0 < seconds < math.inf):
        raise CardError(f"time budget must be a positive number of seconds, got {seconds}")
    if trials is not None:
        refuse_count(trials, rate, f"Monte Carlo of {trials:,} trials on {workers} thread{'s' if workers > 1 else ''}",
                     "fewer trials, or a --stderr or --time target", workers)
    if seconds is not None:
        refuse_beyond(seconds, f"a time budget of {seconds:,.0f} seconds", "a time budget of at most a day")


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


def _exact_fast(players: Sequence[Union[str, Range]], board: str, dead: str, threads: Optional[int],
                progress: Optional[Progress], deck: Deck) -> Optional[EquityResult]:
    """Exact equity after the flop, with a front of its own, for one range against specific hands
    (:mod:`.one_range`) and for ranges whose combo assignments can be listed (:mod:`.grouped`): parsed texts
    and each range's arrays are kept between calls, so a call costs little more than its kernel.  None
    whenever anything is out of the ordinary (a bad card, a clash, weights to rescale, no live combo, no
    deal, specific hands only, too many assignments...): the general path then answers, or says what is
    wrong, as it always did."""
    if threads is not None and threads < 1:
        return None
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


def _exact_seconds(ranges: list[Range], masks: np.ndarray, offsets: np.ndarray, board: list[int],
                   dead: list[int], used: int, bound: int, t: Tables) -> float:
    """Rough time of an exact run of up to ``bound`` assignments: a timed sample, with the
    suit symmetry's saving."""
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    sample = first_assignments(masks, offsets, used, 4)
    P = len(ranges)
    args = (sample, np.ones(len(sample), np.int64), np.ones(len(sample)), combos, np.array(board, np.int64),
            np.uint64(used), np.zeros((P, P), np.int64), np.zeros((P, P)), t)
    exact_counts(*args)   # compiled and warm
    start = time.perf_counter()
    exact_counts(*args)
    per = (time.perf_counter() - start) / max(len(sample), 1)
    return bound * per / len(stabilizer(board, dead))


def _no_assignment(ranges: list[Range]) -> CardError:
    return CardError("no deal is possible: the players' ranges cannot all be dealt without sharing a card ("
                     + " vs ".join(r.text for r in ranges) + ")")


def _exact(ranges: list[Range], masks: np.ndarray, offsets: np.ndarray, board: list[int], dead: list[int],
           used: int, executor: Optional[Executor], n_threads: int, progress: Optional[Progress],
           t: Tables) -> EquityResult:
    """Enumerate in chunks of the first two players' combo pairs (:func:`.exact.exact_chunk`),
    merged in order: memory stays flat however many assignments there are."""
    P = len(ranges)
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    weights = np.concatenate([r.weights for r in ranges]).astype(np.float64)
    perms = stabilizer(board, dead)
    assignments = Assignments(masks, offsets, combos, weights, combo_index(combos, offsets), perms)
    pairs = len(ranges[0]) * len(ranges[1])
    # about 0.1 s a chunk (a merge and an interrupt check each), a few chunks a thread
    work = math.prod(len(r) for r in ranges) * math.comb(52 - bin(used).count("1") - 2 * P, 5 - len(board)) \
        * P // len(perms)
    n_chunks = min(pairs, max(n_threads * (1 if work < CHUNK_WORK else 4), min(4096, work // CHUNK_WORK)))
    bounds = np.linspace(0, pairs, n_chunks + 1).astype(np.int64)
    board_a = np.array(board, np.int64)

    def kernel(lo: int, hi: int, c: np.ndarray, w: np.ndarray) -> tuple[int, float]:
        nb, wb, _ = exact_chunk(lo, hi, assignments, board_a, np.uint64(used), np.uint64(used), c, w, t)
        return nb, wb

    counts, wcounts, boards, wboards = chunked_exact(bounds, kernel, (P, P), progress,
                                                     "combo pairs of players 1 and 2", executor, n_threads)
    if boards == 0:
        raise _no_assignment(ranges)
    return _exact_result(ranges, counts, wcounts, boards, wboards)


RUNOUT_CHUNK_WORK = 20_000_000     # combo values and assignment tests in one chunk of runouts (~0.05 s)


def _exact_by_runouts(ranges: list[Range], board: list[int], dead: list[int], used: int,
                      executor: Optional[Executor], n_threads: int,
                      progress: Optional[Progress], t: Tables) -> Optional[EquityResult]:
    """Exact equity on a flop, turn or river by :mod:`.runouts`, in chunks of runouts merged in order (the
    chunks do not depend on the thread count, so neither do the sums); None when the assignments are too
    many to list (:func:`.runouts.plan`)."""
    from .runouts import plan, runout_counts

    P = len(ranges)
    start = time.monotonic()
    absent = [c for c in range(52) if used >> c & 1 and c not in board and c not in dead]   # a short deck's
    got = grouped_counts(ranges, board, dead + absent, t)   # few enough assignments to list: by groups, one call
    if got is not None:
        counts, wcounts, boards, wboards, runouts = got
        if progress is not None:
            progress(runouts, runouts, time.monotonic() - start, "runouts")
        if boards == 0:
            raise _no_assignment(ranges)
        return _exact_result(ranges, counts, wcounts, boards, wboards)
    p = plan(ranges, board, dead, used)
    if p is None:
        return None
    R = len(p.runouts)
    per_runout = len(p.combos) + max(len(p.assign), 8 * len(p.combos)) * P
    n_chunks = max(1, min(R, R * per_runout // RUNOUT_CHUNK_WORK))
    bounds = np.linspace(0, R, n_chunks + 1).astype(np.int64)
    dead_mask = np.uint64(mask_of(dead + absent))

    def kernel(lo: int, hi: int, c: np.ndarray, w: np.ndarray) -> tuple:
        return runout_counts(lo, hi, p, dead_mask, c, w, t)

    counts, wcounts, boards, wboards = chunked_exact(bounds, kernel, (P, P), progress, "runouts", executor,
                                                     n_threads)
    if boards == 0:
        raise _no_assignment(ranges)
    return _exact_result(ranges, counts, wcounts, boards, wboards)


def _exact_result(ranges: list[Range], counts: np.ndarray, wcounts: np.ndarray, boards: int,
                  wboards: float) -> EquityResult:
    """Players' results from counts by number of winners (:mod:`.scoring`): integers where every
    range is unweighted, else the weighted sums scaled to ``boards``."""
    return _result([r.text for r in ranges], all(r.unit_weights for r in ranges), counts, wcounts, boards,
                   wboards)


def _result(texts: list[str], unit: bool, counts: np.ndarray, wcounts: np.ndarray, boards: int,
            wboards: float) -> EquityResult:
    """:func:`_exact_result` from the players' texts and whether every weight is 1."""
    boards = int(boards)
    players = []
    for p, text in enumerate(texts):
        if unit:   # exact rationals from integers
            row = [int(x) for x in counts[p]]
            wins, ties, units = wins_ties_units(row)
            eq = equity_fraction(wins, units, boards)
            players.append(PlayerEquity(text, wins / boards, ties / boards, float(eq), wins, ties,
                                        boards - wins - ties, shares=row))
        else:
            wrow = [float(x) for x in wcounts[p]]
            wins_w, ties_w, units_w = wins_ties_units(wrow)
            eq = equity_fraction(wins_w, units_w, wboards)
            players.append(PlayerEquity(text, wins_w / wboards, ties_w / wboards, float(eq),
                                        shares=[x * boards / wboards for x in wrow]))
    return EquityResult(True, boards, players)


def _from_table(ranges: list[Range], table: Union[bool, tuple[np.ndarray, np.ndarray]]) -> Optional[EquityResult]:
    """Preflop heads-up exact equity summed from the matchups table, when one is at hand."""
    from .matchup_sums import is_whole, packaged_table, table_counts

    got = packaged_table() if table is True else table
    if got is None or got is False or got is True:
        return None
    if not is_whole(*got):
        raise CardError("the matchups table given is not whole (47,008 classes of 1,712,304 boards each)")
    counts, wcounts, boards, wboards = table_counts(ranges[0], ranges[1], *got)
    if boards == 0:
        raise _no_assignment(ranges)
    result = _exact_result(ranges, counts, wcounts, boards, wboards)
    result.source = "table"
    return result


def _whole_classes(r: Range) -> Optional[tuple[np.ndarray, np.ndarray]]:
    """``(class indices, weights)`` of a range made of whole classes at one weight each, else None."""
    from ..core.hand_classes import CLASS_LABELS, class_of, label_combos

    by_class: dict[int, list[float]] = {}
    for (a, b), w in zip(r.combos.tolist(), r.weights.tolist()):
        by_class.setdefault(class_of(a, b), []).append(w)
    classes, weights = [], []
    for c, ws in sorted(by_class.items()):
        if len(ws) != len(label_combos(CLASS_LABELS[c])) or min(ws) != max(ws):
            return None
        classes.append(c)
        weights.append(ws[0])
    return np.array(classes, np.int64), np.array(weights, np.float64)


def _from_three_way(ranges: list[Range], table: ThreeWayTable) -> Optional[EquityResult]:
    """Preflop three-way exact equity summed from the class triples' counts, when every range is
    made of whole classes."""
    got = [_whole_classes(r) for r in ranges]
    if any(g is None for g in got):
        return None
    counts, wcounts, boards, wboards = table.counts([g[0] for g in got if g is not None],
                                                    [g[1] for g in got if g is not None])
    if boards == 0:
        raise _no_assignment(ranges)
    result = _exact_result(ranges, counts, wcounts, boards, wboards)
    result.source = "table"
    return result


def _monte_carlo(ranges: list[Range], board_cards: list[int], base_mask: int, trials: Optional[int], seed: int,
                 stderr_target: Optional[float], time_limit: Optional[float], executor: Optional[Executor],
                 workers: int, progress: Optional[Progress], deck: Deck) -> EquityResult:
    """Monte Carlo trials of ``deck`` (its cards absent from it already dead in ``base_mask``), valued by its
    tables (:func:`~pipeline.evaluator.simd.lookup_values`, the deck's flush and rank tables end to end)."""
    P = len(ranges)
    plan = plan_deal(ranges, board_cards, base_mask)
    t = tables(deck)
    lookup, offsets = lookup_values(deck), offsets32(deck)
    lanes = deal_lanes(plan)
    acc = MonteCarloTotals(P, plan.weighted)
    start = time.monotonic()
    size = CHUNK_TRIALS
    count = None if trials is None else -(-trials // size)

    def task(i: int) -> tuple:
        n = size if trials is None else min(size, trials - i * size)
        counts = np.zeros((P, P), np.int64)
        wsums = np.zeros((P, P + 2), np.float64)
        wtot = np.zeros(2, np.float64)
        monte_carlo_chunk(n, seed, i, plan.for_chunk(), counts, wsums, wtot, t, lookup, offsets, lanes)
        return n, counts, wsums, wtot

    stopped = ["trials"]
    watch = TargetWatch(stderr_target) if stderr_target is not None and time_limit is None and trials is None \
        else None

    def merge(i: int, got: tuple) -> bool:
        acc.add(*got)
        elapsed = time.monotonic() - start
        if progress is not None:
            progress(acc.trials, trials, elapsed, "trials")
        if stderr_target is not None and acc.max_stderr() <= stderr_target:
            stopped[0] = "stderr"
            return True
        if watch is not None:                  # a target beyond a day's work: refused after its pilot
            watch.check(acc.trials, acc.max_stderr(), elapsed)
        if time_limit is not None and elapsed >= time_limit:
            stopped[0] = "time"
            return True
        if acc.trials >= MAX_TRIALS:
            return True
        return False

    run_chunks(task, merge, count, executor, workers)
    if plan.weighted and acc.wtot[0] <= 0.0:
        raise _no_assignment(ranges)
    players = [PlayerEquity(r.text, *acc.player(p)) for p, r in enumerate(ranges)]
    return EquityResult(False, acc.trials, players, trials=acc.trials,
                        stderr=max(p.stderr for p in players), stopped=stopped[0])
