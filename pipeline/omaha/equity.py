"""Omaha equity of 2 or more players, each a specific hand, a range or ``random``, on any board.

>>> r = omaha_equity(["AsAhKsKh", "JdTd9c8c"])
>>> r.exact, r.boards, [p.wins for p in r.players]
(True, 1086008, [667649, 418273])
>>> round(r.players[0].equity * 100, 4)
61.4813

Games (:mod:`.games`): ``omaha``, ``omaha5``, ``omaha6`` (high) and ``omaha-hilo``,
``omaha5-hilo`` (half of each pot to the best qualifying 8-or-better low).  Results keep
the hold'em shape (:class:`pipeline.equity.EquityResult`): per player ``equity`` (the
expected share of the pot), the *high* hand's ``wins``/``ties``/``shares`` by number of
winners, and for hi/lo the low's ``low_shares`` and the ``scoops``, ``high_only``,
``low_only`` and ``quartered`` counts of :mod:`.showdown`.

Exact enumeration is chosen when its work — deals of the ranges times boards times
players — is at most :data:`EXACT_WORK_LIMIT` hand values (about a second on one core);
otherwise seeded Monte Carlo.  ``trials``, ``stderr`` and ``seconds`` force and bound
Monte Carlo, ``exact=True`` forces enumeration (refused when estimated above an hour).
"""
from __future__ import annotations

import math
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Optional, Sequence

import numpy as np

from ..core.budget import TargetWatch, duration
from ..core.cards import CardError, check_disjoint, format_cards, mask_of, parse_board, parse_cards
from ..equity.chunks import Progress, chunked_exact, run_chunks
from ..equity.exact import any_assignment
from ..equity.limits import (
    CHUNK_TRIALS,
    DEFAULT_TRIALS,
    EXACT_SECONDS_LIMIT,
    MAX_TRIALS,
    check_budget,
    thread_count,
)
from ..equity.plan import alias_table
from ..equity.result import EquityResult, PlayerEquity
from ..equity.scoring import wins_ties_units
from ..ranges.omaha import choose, is_random, parse_omaha_range
from ..ranges.syntax import Range
from .exact import assignments_tally
from .games import GAMES, Game
from .games import game as game_named
from .montecarlo import monte_carlo_tally
from .showdown import SPLIT_COLUMNS, pot_unit, tally_width
from .tables import omaha_tables

EXACT_WORK_LIMIT = 100_000_000      # hand values in an automatic exact run (about a second on one core)
SECONDS_PER_VALUE = 5e-8            # one player's value on one board, measured preflop heads-up (46 ns), for estimates
TRIALS_SPEEDUP = 4.0                # a batch of values is judged this much faster than SECONDS_PER_VALUE says,
                                    # so that only work certainly beyond a day is refused
MC_TRIALS_PER_SECOND = 10e6         # heads-up Monte Carlo trials a second on one thread, about 3x the fastest
                                    # measured (AAxx vs random, 2.4-2.7 M a CPU second): the refusal's rate
CHUNK_VALUES = 20_000_000           # hand values in one chunk of an exact run (~0.2 s)


@dataclass
class OmahaPlayerEquity(PlayerEquity):
    """A player's result (:class:`pipeline.equity.PlayerEquity`: ``wins``, ``ties`` and ``shares``
    count the *high* hand).  Hi/lo adds ``low_shares`` (boards on which he is one of exactly
    ``j + 1`` best qualifying lows) and the split counts of :mod:`.showdown`; ``None`` in a
    high-only game."""

    low_shares: Optional[list] = None
    scoops: Optional[float] = None          # integers for unweighted runs, as the shares
    high_only: Optional[float] = None
    low_only: Optional[float] = None
    quartered: Optional[float] = None


@dataclass
class OmahaResult(EquityResult):
    """:class:`pipeline.equity.EquityResult` of an Omaha game (``game``)."""

    game: str = "omaha"

    def to_json(self) -> dict:
        """The ``--json`` object of ``pokerpipe equity --game ...``: the hold'em shape plus ``game``;
        a high-only game leaves out the hi/lo fields."""
        out = super().to_json()
        out["game"] = self.game
        if not GAMES[self.game].hilo:
            for p in out["players"]:
                for key in ("low_shares", *SPLIT_COLUMNS):
                    p.pop(key, None)
        return out


@dataclass
class _Player:
    text: str
    range: Optional[Range]          # None: random, dealt from the deck


def _players(texts: Sequence[str], g: Game, board: list[int], dead: list[int], used: int) -> list[_Player]:
    out = []
    for i, text in enumerate(texts, 1):
        if not isinstance(text, str):
            raise CardError(f"player {i}: an Omaha hand or range is text, got {type(text).__name__}")
        if is_random(text, g.hole_cards):
            out.append(_Player("random", None))
            continue
        try:
            r = parse_omaha_range(text, g.hole_cards, hilo=g.hilo)
        except CardError as e:
            raise CardError(f"player {i}: {e}") from None
        if len(r) == 1:
            check_disjoint([("board", board), ("dead cards", dead), (f"player {i} ({r.text})", list(r.combos[0]))])
        rest = r.without(used)
        if len(rest) == 0:
            raise CardError(f"player {i}: range {r.text!r} has no hand left beside the board and dead cards")
        out.append(_Player(r.text, rest.rescaled()))
    specific = [(p.text, set(p.range.combos[0].tolist())) for p in out if p.range is not None and len(p.range) == 1]
    for i, (ta, a) in enumerate(specific):
        for tb, b in specific[i + 1:]:
            if a & b:
                raise CardError(f"duplicate card {format_cards(sorted(a & b))} in {ta} and {tb}")
    return out


def omaha_equity(players: Sequence[str], game: str = "omaha", board: str = "", dead: str = "",
                 trials: Optional[int] = None, seed: int = 0, exact: Optional[bool] = None,
                 threads: Optional[int] = None, *, stderr: Optional[float] = None,
                 seconds: Optional[float] = None, executor: Optional[Executor] = None,
                 progress: Optional[Progress] = None) -> OmahaResult:
    """Equity of each player in ``game``; see the module doc for how exact or Monte Carlo is chosen.

    ``executor`` runs the chunks (a ``concurrent.futures`` executor); without one ``threads``
    threads (default: every core).  ``progress(done, total, seconds, unit)`` is called after
    each merged chunk, as :func:`pipeline.equity.equity` does.
    """
    g = game_named(game)
    adaptive = stderr is not None or seconds is not None
    if (trials is not None or adaptive) and exact:
        raise CardError("choose either exact enumeration or Monte Carlo (trials, stderr or time), not both")
    check_budget(trials, seed, stderr, seconds, thread_count(threads),
                 rate=MC_TRIALS_PER_SECOND * 2 / max(2, len(players)))
    board_cards = parse_board(board)
    dead_cards = parse_cards(dead, what="dead cards") if dead else []
    check_disjoint([("board", board_cards), ("dead cards", dead_cards)])
    used = mask_of(board_cards) | mask_of(dead_cards)
    missing = 5 - len(board_cards)
    left = 52 - len(board_cards) - len(dead_cards)
    most = (left - missing) // g.hole_cards
    if not 2 <= len(players) <= most:
        raise CardError(f"{len(players)} players given; {g.name} with {missing} board cards to come and "
                        f"{left} cards left deals 2 to {most} hands of {g.hole_cards}")
    ps = _players(players, g, board_cards, dead_cards, used)
    ranged = [p.range for p in ps if p.range is not None]
    if len(ranged) > 1 and not any_assignment(np.concatenate([r.masks for r in ranged]),
                                              np.cumsum([0] + [len(r) for r in ranged]).astype(np.int64), used):
        raise _no_deal(ps)
    live = left - g.hole_cards * len(ps)
    deals = math.prod(len(r) for r in ranged) * math.prod(
        math.comb(left - g.hole_cards * (len(ranged) + j), g.hole_cards) for j in range(len(ps) - len(ranged)))
    work = deals * math.comb(live, missing) * len(ps)
    if exact is None:
        exact = trials is None and not adaptive and work <= EXACT_WORK_LIMIT
    n_threads = thread_count(threads)
    if exact:
        need = work * SECONDS_PER_VALUE / n_threads
        if need > EXACT_SECONDS_LIMIT:
            raise CardError(f"exact enumeration of these hands is too large ({deals:,} deals of the players' "
                            f"hands times {math.comb(live, missing):,} boards, about {duration(need)} on "
                            f"{n_threads} thread{'s' if n_threads > 1 else ''}); "
                            "use --trials N, --stderr TARGET or --time SECONDS")
        result = _exact(ps, g, board_cards, used, executor, n_threads, progress)
    else:
        result = _monte_carlo(ps, g, board_cards, used, DEFAULT_TRIALS if trials is None and not adaptive
                              else trials, seed, stderr, seconds, executor, n_threads, progress)
    result.board, result.dead = format_cards(board_cards), format_cards(dead_cards)
    return result


def _no_deal(ps: list[_Player]) -> CardError:
    return CardError("no deal is possible: the players' ranges cannot all be dealt without sharing a card ("
                     + " vs ".join(p.text for p in ps) + ")")


def _deck_range(g: Game, used: int) -> Range:
    """Every hand of the game beside ``used``: a random player, listed for an exact run."""
    live = np.array([c for c in range(52) if not used >> c & 1], np.int64)
    hands = live[choose(len(live), g.hole_cards)]
    return Range("random", hands, np.ones(len(hands)))


def _exact(ps: list[_Player], g: Game, board: list[int], used: int, executor: Optional[Executor],
           n_threads: int, progress: Optional[Progress]) -> OmahaResult:
    """Enumerate the assignments in chunks, merged in order (memory stays flat)."""
    P = len(ps)
    ranges = [p.range if p.range is not None else _deck_range(g, used) for p in ps]
    hands = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    weights = np.concatenate([r.weights for r in ranges]).astype(np.float64)
    masks = np.concatenate([r.masks for r in ranges]).astype(np.uint64)
    offsets = np.cumsum([0] + [len(r) for r in ranges]).astype(np.int64)
    total = math.prod(len(r) for r in ranges)
    per = max(1, math.comb(52 - bin(used).count("1") - g.hole_cards * P, 5 - len(board)) * P)
    n_chunks = int(min(total, max(n_threads, min(4096, total * per // CHUNK_VALUES))))
    bounds = np.linspace(0, total, n_chunks + 1).astype(np.int64)
    unit = pot_unit(P)
    OT = omaha_tables()
    known = np.array(board, np.int64)

    def kernel(lo: int, hi: int, t: np.ndarray, w: np.ndarray) -> tuple[int, float]:
        return assignments_tally(lo, hi, hands, weights, masks, offsets, np.uint64(used), known, g.hilo, unit,
                                 OT, t, w)

    tally, wtally, boards, wboards = chunked_exact(bounds, kernel, (P, tally_width(P)), progress,
                                                   "deals of the players' hands", executor, n_threads)
    if boards == 0:
        raise _no_deal(ps)
    unweighted = all(r.unit_weights for r in ranges)
    rows = tally if unweighted else wtally * (boards / wboards)
    players: list[PlayerEquity] = [_player(ps[p].text, rows[p], boards, unit, g.hilo, unweighted)
                                   for p in range(P)]
    return OmahaResult(True, boards, players, game=g.name)


def _player(text: str, row: np.ndarray, boards: int, unit: int, hilo: bool, integers: bool,
            stderr: float = 0.0, counts: bool = True) -> OmahaPlayerEquity:
    """A player's result from his tally row (integers, or weighted sums scaled to ``boards``)."""
    P = (len(row) - 1 - len(SPLIT_COLUMNS)) // 2
    cast = int if integers else float
    high = [cast(x) for x in row[:P]]
    wins, ties, _ = wins_ties_units(high)
    eq = float(row[2 * P]) / (unit * boards) if not integers else int(row[2 * P]) / (unit * boards)
    out = OmahaPlayerEquity(text, wins / boards, ties / boards, eq, stderr=stderr, shares=high)
    if counts and integers:
        out.wins, out.ties, out.losses = int(wins), int(ties), boards - int(wins) - int(ties)
    if hilo:
        out.low_shares = [cast(x) for x in row[P:2 * P]]
        out.scoops, out.high_only, out.low_only, out.quartered = (cast(x) for x in row[2 * P + 1:])
    return out


def _monte_carlo(ps: list[_Player], g: Game, board: list[int], used: int, trials: Optional[int], seed: int,
                 stderr_target: Optional[float], time_limit: Optional[float], executor: Optional[Executor],
                 workers: int, progress: Optional[Progress]) -> OmahaResult:
    P = len(ps)
    ranged = [p.range for p in ps if p.range is not None]
    range_of = np.full(P, -1, np.int64)
    j = 0
    for i, p in enumerate(ps):
        if p.range is not None:
            range_of[i] = j
            j += 1
    k = g.hole_cards
    if ranged:
        hands = np.ascontiguousarray(np.concatenate([r.combos for r in ranged]).astype(np.int64))
        masks = np.concatenate([r.masks for r in ranged]).astype(np.uint64)
        tables_ = [alias_table(r.weights) for r in ranged]
        prob = np.concatenate([t[0] for t in tables_])
        alias = np.concatenate([t[1] for t in tables_])
        equal = np.array([bool(np.all(r.weights == r.weights[0])) for r in ranged])
        offsets = np.cumsum([0] + [len(r) for r in ranged]).astype(np.int64)
    else:
        hands, masks = np.zeros((0, k), np.int64), np.zeros(0, np.uint64)
        prob, alias, equal = np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.bool_)
        offsets = np.zeros(1, np.int64)
    deck = np.array([c for c in range(52) if not used >> c & 1], np.int64)
    unit = pot_unit(P)
    OT = omaha_tables()
    known = np.array(board, np.int64)
    tally = np.zeros((P, tally_width(P)), np.int64)
    squares = np.zeros(P, np.float64)
    done = [0]
    start = time.monotonic()
    size = CHUNK_TRIALS
    count = None if trials is None else -(-trials // size)

    def task(i: int) -> tuple:
        n = size if trials is None else min(size, trials - i * size)
        t = np.zeros_like(tally)
        sq = np.zeros(P, np.float64)
        got = monte_carlo_tally(n, seed, i, range_of, hands, masks, prob, alias, equal, offsets, k,
                                np.uint64(used), known, deck.copy(), g.hilo, unit, OT, t, sq)
        if got < 0:
            raise CardError("the players' ranges can almost never be dealt together (most draws share a "
                            "card); narrow them or use --exact")
        return n, t, sq

    stopped = ["trials"]
    watch = TargetWatch(stderr_target) if stderr_target is not None and time_limit is None and trials is None \
        else None

    def merge(i: int, got: tuple) -> bool:
        n, t, sq = got
        tally[:] += t
        squares[:] += sq
        done[0] += n
        elapsed = time.monotonic() - start
        if progress is not None:
            progress(done[0], trials, elapsed, "trials")
        worst = max(_stderr(tally, squares, p, done[0], unit) for p in range(P)) if stderr_target is not None \
            else 0.0
        if stderr_target is not None and worst <= stderr_target:
            stopped[0] = "stderr"
            return True
        if watch is not None:                  # a target beyond a day's work: refused after its pilot
            watch.check(done[0], worst, elapsed)
        if time_limit is not None and elapsed >= time_limit:
            stopped[0] = "time"
            return True
        return done[0] >= MAX_TRIALS

    run_chunks(task, merge, count, executor, workers)
    n = done[0]
    players: list[PlayerEquity] = [_player(ps[p].text, tally[p], n, unit, g.hilo, True,
                                           _stderr(tally, squares, p, n, unit), counts=False) for p in range(P)]
    return OmahaResult(False, n, players, trials=n, stderr=max(p.stderr for p in players), stopped=stopped[0],
                       game=g.name)


def _stderr(tally: np.ndarray, squares: np.ndarray, p: int, n: int, unit: int) -> float:
    """Standard error of player ``p``'s mean pot share over ``n`` trials; NaN for one trial, whose sample has
    no spread to tell it (0 would claim an error it cannot know)."""
    if n < 2:
        return math.nan
    P = len(tally)
    mean = tally[p, 2 * P] / (unit * n)
    var = max(squares[p] / n - mean * mean, 0.0) * n / (n - 1)
    return float(np.sqrt(var / n))
