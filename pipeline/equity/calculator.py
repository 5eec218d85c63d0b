"""Equity of 2..10 players, each a specific hand or a range, on any board.

>>> r = equity(["AhKh", "QsQd"])
>>> r.exact, r.boards, [p.wins for p in r.players]
(True, 1712304, [787966, 917606])
>>> round(r.players[0].equity * 100, 4)
46.2145

Exact enumeration is chosen when its work — range combos multiplied out, times
boards, times players — is at most :data:`EXACT_WORK_LIMIT` hand evaluations
(about a second on one core); otherwise Monte Carlo with
:data:`DEFAULT_TRIALS` trials.  ``trials=N`` forces Monte Carlo and
``exact=True`` forces enumeration.
"""
from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Optional, Sequence, Union

import numpy as np

from ..combinatorics import available_cores
from ..cards import CardError, check_disjoint, format_cards, mask_of, parse_board, parse_cards
from ..evaluator.tables import tables
from ..query import parse_query
from ..ranges import Range
from .exact import exact_counts, list_assignments
from .montecarlo import CHUNK_TRIALS, monte_carlo_chunk
from .scoring import SHARE_UNIT, SHARES, TIES, WINS

EXACT_WORK_LIMIT = 1_000_000_000
EXACT_ASSIGNMENT_LIMIT = 50_000_000   # beyond this even --exact is refused (memory and hours)
DEFAULT_TRIALS = 1_000_000
MAX_PLAYERS = 10


@dataclass
class PlayerEquity:
    """One player's result.  ``wins``/``ties``/``losses`` are integer board counts
    (exact runs with unweighted ranges; ``None`` otherwise)."""

    range: str
    win: float
    tie: float
    equity: float
    wins: Optional[int] = None
    ties: Optional[int] = None
    losses: Optional[int] = None
    stderr: float = 0.0


@dataclass
class EquityResult:
    exact: bool
    boards: int                      # boards scored: over all combo assignments (exact) or trials
    players: list[PlayerEquity] = field(default_factory=list)
    board: str = ""
    dead: str = ""

    def to_json(self) -> dict:
        """The ``--json`` object of ``pokerpipe equity``."""
        return {"exact": self.exact, "boards": self.boards,
                "players": [asdict(p) for p in self.players]}


def _threads(requested: Optional[int]) -> int:
    if requested is not None and requested < 1:
        raise CardError(f"threads must be at least 1, got {requested}")
    return requested or available_cores()


def equity(players: Sequence[Union[str, Range]], board: str = "", dead: str = "",
           trials: Optional[int] = None, seed: int = 0, exact: Optional[bool] = None,
           threads: Optional[int] = None) -> EquityResult:
    """Equity of each player; see the module doc for how exact or Monte Carlo is chosen."""
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise CardError(f"{len(players)} players given; equity needs 2 to {MAX_PLAYERS}")
    if trials is not None and exact:
        raise CardError("choose either exact enumeration or a number of Monte Carlo trials, not both")
    if trials is not None and trials <= 0:
        raise CardError(f"trials must be positive, got {trials}")
    board_cards = parse_board(board)
    dead_cards = parse_cards(dead, what="dead cards") if dead else []
    check_disjoint([("board", board_cards), ("dead cards", dead_cards)])
    used = mask_of(board_cards) | mask_of(dead_cards)
    ranges, given = [], []             # the ranges left beside board and dead cards; their sizes as given
    for i, p in enumerate(players, 1):
        try:
            rng = p if isinstance(p, Range) else parse_query(p)
        except CardError as e:
            raise CardError(f"player {i}: {e}") from None
        if len(rng) == 1:   # a specific hand: name the clash with board or dead cards
            check_disjoint([("board", board_cards), ("dead cards", dead_cards),
                            (f"player {i} ({rng.text})", list(rng.combos[0]))])
        left = rng.without(used)
        if len(left) == 0:
            raise CardError(f"player {i}: range {rng.text!r} has no combo left beside the board and dead cards")
        ranges.append(left)
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
    combos = np.ascontiguousarray(np.concatenate([r.combos for r in ranges]).astype(np.int64))
    masks = np.concatenate([r.masks for r in ranges])
    weights = np.concatenate([r.weights / r.weights.max() for r in ranges])   # scale-free; no product underflow
    offsets = np.cumsum([0] + [len(r) for r in ranges]).astype(np.int64)
    board_a = np.array(board_cards, np.int64)
    missing = 5 - len(board_cards)
    live = 52 - len(board_cards) - len(dead_cards) - 2 * len(ranges)
    assignments_bound = math.prod(len(r) for r in ranges)
    work = assignments_bound * math.comb(live, missing) * len(ranges)
    if exact is None:
        exact = trials is None and work <= EXACT_WORK_LIMIT
    n_threads = _threads(threads)
    if exact:
        if assignments_bound > EXACT_ASSIGNMENT_LIMIT:
            raise CardError(f"exact enumeration of these ranges is too large "
                            f"({assignments_bound:,} combo assignments); use --trials")
        result = _exact(ranges, combos, masks, weights, offsets, board_a, used, n_threads)
    else:
        result = _monte_carlo(ranges, combos, weights, offsets, board_a, used,
                              trials or DEFAULT_TRIALS, seed, n_threads)
    result.board, result.dead = format_cards(board_cards), format_cards(dead_cards)
    return result


def _no_assignment(ranges: list[Range]) -> CardError:
    return CardError("no deal is possible: the players' ranges cannot all be dealt without sharing a card ("
                     + " vs ".join(r.text for r in ranges) + ")")


def _exact(ranges, combos, masks, weights, offsets, board, used, n_threads) -> EquityResult:
    P = len(ranges)
    assign = list_assignments(masks, offsets, used)
    if len(assign) == 0:
        raise _no_assignment(ranges)
    t = tables()
    chunks = np.array_split(assign, min(len(assign), n_threads * 8 if len(assign) > 1 else 1))

    def run(chunk):
        c = np.zeros((P, 3), np.int64)
        w = np.zeros((P, 3), np.float64)
        nb, wb = exact_counts(chunk, combos, weights, board, np.uint64(used), c, w, *t)
        return c, w, nb, wb

    if n_threads > 1 and len(chunks) > 1:
        with ThreadPoolExecutor(n_threads) as pool:
            parts = list(pool.map(run, chunks))
    else:
        parts = [run(ch) for ch in chunks]
    counts = sum(p[0] for p in parts)
    wcounts = sum(p[1] for p in parts)
    boards = int(sum(p[2] for p in parts))
    wboards = float(sum(p[3] for p in parts))
    unit = all(r.unit_weights for r in ranges)
    players = []
    for p, r in enumerate(ranges):
        if unit:   # exact rationals from integers
            win = counts[p, WINS] / boards
            tie = counts[p, TIES] / boards
            eq = (counts[p, WINS] * SHARE_UNIT + counts[p, SHARES]) / (SHARE_UNIT * boards)
            players.append(PlayerEquity(r.text, float(win), float(tie), float(eq), int(counts[p, WINS]), int(counts[p, TIES]),
                                        int(boards - counts[p, WINS] - counts[p, TIES])))
        else:
            win = wcounts[p, WINS] / wboards
            tie = wcounts[p, TIES] / wboards
            eq = (wcounts[p, WINS] * SHARE_UNIT + wcounts[p, SHARES]) / (SHARE_UNIT * wboards)
            players.append(PlayerEquity(r.text, float(win), float(tie), float(eq)))
    return EquityResult(True, boards, players)


def _monte_carlo(ranges, combos, weights, offsets, board, used, trials, seed, n_threads) -> EquityResult:
    P = len(ranges)
    cumw = np.concatenate([np.cumsum(r.weights) for r in ranges])
    t = tables()
    n_chunks = -(-trials // CHUNK_TRIALS)
    sizes = [min(CHUNK_TRIALS, trials - i * CHUNK_TRIALS) for i in range(n_chunks)]
    seeds = np.random.SeedSequence(seed).generate_state(n_chunks, np.uint32)

    def run(i):
        c = np.zeros((P, 3), np.int64)
        sq = np.zeros(P, np.int64)
        got = monte_carlo_chunk(sizes[i], int(seeds[i]), combos, offsets, cumw, board, np.uint64(used),
                                c, sq, 1000 * sizes[i] + 1000, *t)
        if got < 0:
            raise _no_assignment(ranges)
        return c, sq

    if n_threads > 1 and n_chunks > 1:
        with ThreadPoolExecutor(n_threads) as pool:
            parts = list(pool.map(run, range(n_chunks)))
    else:
        parts = [run(i) for i in range(n_chunks)]
    counts = sum(p[0] for p in parts)
    sq = sum(p[1] for p in parts)
    players = []
    for p, r in enumerate(ranges):
        n = trials
        mean = (counts[p, WINS] * SHARE_UNIT + counts[p, SHARES]) / (SHARE_UNIT * n)
        var = max(sq[p] / SHARE_UNIT**2 / n - mean * mean, 0.0) * n / max(n - 1, 1)
        players.append(PlayerEquity(r.text, float(counts[p, WINS] / n), float(counts[p, TIES] / n), float(mean),
                                    stderr=math.sqrt(var / n)))
    return EquityResult(False, trials, players)
