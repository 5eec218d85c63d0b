"""Exact features of every canonical situation, board by board: river equities, turn and flop histograms.

Everything starts from one count on a complete board.  With the 47 live cards'
1,081 pairs evaluated once and put in order of value (a radix sort of their
dense values), a hole ``{a, b}`` is ahead of the pairs below it that hold
neither ``a`` nor ``b``:

    ahead = below(all) - below(a) - below(b)      (no pair below holds both)
    tied  = equal(all) - equal(a) - equal(b) + 1  (the hole holds both)

so every hole's ``2·ahead + tied`` against the 990 opponent hands costs O(1)
after the sort (the EHS tables count the same way, :mod:`pipeline.strength.street`).
Split by a label of the opponent pair (its OCHS cluster), the same running
counts give the counts against each cluster (:func:`cluster_counts`).

* **river**: ``2·ahead + tied`` of 1,980 (equity against a random hand) and,
  per opponent cluster, the same count and the cluster's live pairs (OCHS);
* **turn**: for each of the 46 river cards the river count, binned
  ``min(bins - 1, ⌊count·bins / 1,980⌋)`` — a histogram summing to 46;
* **flop**: the same over the 1,081 (turn, river) runouts, and for each of the
  47 turn cards that turn situation's histogram (the input of its turn bucket:
  the potential-aware feature).

A canonical situation stands for ``weight`` situations of the 52-card deck:
its board's orbit under suit permutations times the holes of the canonical
board that the board's own symmetries map onto it.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial

import numpy as np
from numba import njit

from ..core.hand_classes import class_of
from ..core.sorting import DIGITS, radix_order
from ..evaluator.kernels import Tables, board_state, hand_value, live_cards, suited_bit
from ..isomorphism.situations import block_table, situation_index_nb
from ..strength.street import ahead_tied, dense_values, pair_numbering

OPPONENTS = 990                      # opponent pairs on a complete board: C(45, 2)
FULL = 2 * OPPONENTS                 # 2·ahead + tied of a hole ahead of every opponent
RIVER_PAIRS = 47 * 46 // 2           # live pairs on a complete board
DEFAULT_BINS = 50
MAX_BINS = FULL                      # a river count's resolution: finer bins stay empty


def board_orbit(board: Sequence[int]) -> int:
    """How many boards a permutation of suits maps ``board`` onto: 24 over its suit symmetries."""
    masks = [0, 0, 0, 0]
    for c in board:
        masks[int(c) & 3] |= 1 << (int(c) >> 2)
    stabiliser = 1
    for m in set(masks):
        stabiliser *= factorial(masks.count(m))
    return 24 // stabiliser


@njit(cache=True, nogil=True)
def river_values(rkey: np.uint64, rsuited: np.uint64, cards: np.ndarray, pa: np.ndarray, pb: np.ndarray,
                 dense: np.ndarray, dv: np.ndarray, T: Tables) -> None:
    """Dense value of every pair ``(cards[pa[p]], cards[pb[p]])`` on the complete board ``(rkey, rsuited)``."""
    for p in range(pa.shape[0]):
        ca, cb = cards[pa[p]], cards[pb[p]]
        dv[p] = dense[hand_value(rkey + T.card_keys[ca] + T.card_keys[cb], rsuited | suited_bit(ca) | suited_bit(cb),
                                 T)]


@njit(cache=True, nogil=True)
def win_counts(dv: np.ndarray, order: np.ndarray, pa: np.ndarray, pb: np.ndarray, n: int, win2: np.ndarray,
               tied: np.ndarray, below: np.ndarray, level: np.ndarray) -> None:
    """``win2[p] = 2·ahead + tied`` of each pair against the pairs disjoint from it (:func:`ahead_tied`; ``order``:
    pairs by value; ``tied`` a work array of one value per pair, ``below``/``level`` per-card work arrays of
    ``n``)."""
    ahead_tied(dv, order, pa, pb, n, win2, tied, below, level)
    for p in range(pa.shape[0]):
        win2[p] = 2 * win2[p] + tied[p]


@njit(cache=True, nogil=True)
def cluster_counts(dv: np.ndarray, order: np.ndarray, pa: np.ndarray, pb: np.ndarray, n: int, group: np.ndarray,
                   groups: int, win2: np.ndarray, live: np.ndarray, below: np.ndarray, level: np.ndarray,
                   done: np.ndarray, size: np.ndarray) -> None:
    """Per opponent group ``j`` (``group[q]`` of each pair): ``win2[p, j] = 2·ahead + tied`` of pair ``p`` against
    the pairs of group ``j`` disjoint from it, and ``live[p, j]`` how many those are."""
    count = pa.shape[0]
    below[:n] = 0
    level[:n] = 0
    done[:] = 0
    size[:] = 0
    for q in range(count):                      # pairs of each group, and of each group holding each card
        j = group[q]
        level[pa[q], j] += 1
        level[pb[q], j] += 1
        done[j] += 1
    for q in range(count):
        a, b, own = pa[q], pb[q], group[q]
        for j in range(groups):
            live[q, j] = done[j] - level[a, j] - level[b, j]
        live[q, own] += 1
    level[:n] = 0
    done[:] = 0
    start = 0
    while start < count:
        v = dv[order[start]]
        end = start
        while end < count and dv[order[end]] == v:
            q = order[end]
            j = group[q]
            size[j] += 1
            level[pa[q], j] += 1
            level[pb[q], j] += 1
            end += 1
        for i in range(start, end):
            q = order[i]
            a, b = pa[q], pb[q]
            for j in range(groups):
                win2[q, j] = 2 * (done[j] - below[a, j] - below[b, j]) + size[j] - level[a, j] - level[b, j]
            win2[q, group[q]] += 1
        for i in range(start, end):
            q = order[i]
            a, b, j = pa[q], pb[q], group[q]
            done[j] += 1
            below[a, j] += 1
            below[b, j] += 1
            level[a, j] = 0
            level[b, j] = 0
            size[j] = 0
        start = end


@njit(cache=True, nogil=True)
def _board_work() -> tuple:
    """The work arrays of one complete board's count: ``(dv, order, tmp, hist, win2, below, level, tied)`` — per
    live pair its dense value, the pairs in order, the sort's scratch, the radix counts, per pair
    ``2·ahead + tied``, the per-card counts of :func:`win_counts`, and its per-pair ties."""
    return (np.empty(RIVER_PAIRS, np.int64), np.empty(RIVER_PAIRS, np.int64), np.empty(RIVER_PAIRS, np.int64),
            np.empty(DIGITS, np.int64), np.empty(RIVER_PAIRS, np.int64), np.empty(47, np.int64),
            np.empty(47, np.int64), np.empty(RIVER_PAIRS, np.int64))


@njit(cache=True, nogil=True)
def _board_order(rkey: np.uint64, rsuited: np.uint64, cards: np.ndarray, pa: np.ndarray, pb: np.ndarray,
                 dense: np.ndarray, T: Tables, work: tuple) -> None:
    """On the complete board ``(rkey, rsuited)``: ``work``'s ``dv`` the dense value of each pair of the 47
    live ``cards`` (``pa``/``pb``: the pairs' positions in ``cards``), ``order`` the pairs by value."""
    dv, order, tmp, hist = work[0], work[1], work[2], work[3]
    river_values(rkey, rsuited, cards, pa, pb, dense, dv, T)
    radix_order(dv, RIVER_PAIRS, order, tmp, hist)


@njit(cache=True, nogil=True)
def _board_wins(rkey: np.uint64, rsuited: np.uint64, cards: np.ndarray, pa: np.ndarray, pb: np.ndarray,
                dense: np.ndarray, T: Tables, work: tuple) -> np.ndarray:
    """:func:`_board_order`, then each pair's ``2·ahead + tied`` against the 990 others (``work``'s ``win2``,
    returned)."""
    _board_order(rkey, rsuited, cards, pa, pb, dense, T, work)
    win2 = work[4]
    win_counts(work[0], work[1], pa, pb, 47, win2, work[7], work[5], work[6])
    return win2


@njit(cache=True, nogil=True)
def _river_kernel(boards: np.ndarray, cluster_of_class: np.ndarray, groups: int, blocks: np.ndarray,
                  dense: np.ndarray, T: Tables) -> tuple:
    """Every live hole of each river board: situation index, ``2·ahead + tied`` of 1,980, and per opponent
    cluster the count and the live pairs."""
    nb = boards.shape[0]
    pid, pa, pb = pair_numbering(47)
    rows = nb * RIVER_PAIRS
    out_idx = np.empty(rows, np.int64)
    out_win2 = np.empty(rows, np.uint16)
    out_c2 = np.empty((rows, groups), np.uint16)
    out_live = np.empty((rows, groups), np.uint16)
    live = np.empty(52, np.int64)
    work = _board_work()
    dv, order = work[0], work[1]
    group = np.empty(RIVER_PAIRS, np.int64)
    c2 = np.empty((RIVER_PAIRS, groups), np.int64)
    nlive = np.empty((RIVER_PAIRS, groups), np.int64)
    below = np.empty((47, groups), np.int64)
    level = np.empty((47, groups), np.int64)
    done = np.empty(groups, np.int64)
    size = np.empty(groups, np.int64)
    board = np.zeros(5, np.int64)
    row = 0
    for bi in range(nb):
        board[:] = boards[bi]
        key, suited, used = board_state(board, np.uint64(0), T.card_keys)
        live_cards(used, live)
        _board_order(key, suited, live, pa, pb, dense, T, work)
        for p in range(RIVER_PAIRS):
            group[p] = cluster_of_class[class_of(live[pa[p]], live[pb[p]])]
        cluster_counts(dv, order, pa, pb, 47, group, groups, c2, nlive, below, level, done, size)
        for p in range(RIVER_PAIRS):
            out_idx[row] = situation_index_nb(live[pb[p]], live[pa[p]], board, 5, blocks)
            w = 0
            for j in range(groups):
                w += c2[p, j]
                out_c2[row, j] = c2[p, j]
                out_live[row, j] = nlive[p, j]
            out_win2[row] = w
            row += 1
    return out_idx, out_win2, out_c2, out_live


@njit(cache=True, nogil=True)
def _class_histogram_kernel(boards: np.ndarray, orbits: np.ndarray, bins: int, dense: np.ndarray,
                            T: Tables) -> tuple[np.ndarray, np.ndarray]:
    """``hist[c, b]``: over every board of the deck (each canonical one counted ``orbits`` times) and every
    hole of class ``c`` on it, how many have their river equity in bin ``b``; ``win2[c]`` their summed counts."""
    pid, pa, pb = pair_numbering(47)
    hist = np.zeros((169, bins), np.int64)
    total = np.zeros(169, np.int64)
    live = np.empty(52, np.int64)
    work = _board_work()
    board = np.zeros(5, np.int64)
    for bi in range(boards.shape[0]):
        board[:] = boards[bi]
        key, suited, used = board_state(board, np.uint64(0), T.card_keys)
        live_cards(used, live)
        win2 = _board_wins(key, suited, live, pa, pb, dense, T, work)
        for p in range(RIVER_PAIRS):
            b = min(bins - 1, win2[p] * bins // FULL)
            c = class_of(live[pa[p]], live[pb[p]])
            hist[c, b] += orbits[bi]
            total[c] += orbits[bi] * win2[p]
    return hist, total


@njit(cache=True, nogil=True)
def _runout_histograms(boards: np.ndarray, bins: int, blocks: np.ndarray, dense: np.ndarray, T: Tables,
                       with_turns: bool) -> tuple:
    """Every live hole of each flop or turn board: situation index, the histogram of its river counts over the
    runouts, their sum, and (flop, ``with_turns``) for each live turn card the turn situation's histogram."""
    nb, m = boards.shape
    n = 52 - m
    holes = n * (n - 1) // 2
    rows = nb * holes
    pid, pa, pb = pair_numbering(n)
    rpid, rpa, rpb = pair_numbering(47)
    out_idx = np.empty(rows, np.int64)
    out_hist = np.zeros((rows, bins), np.uint16)
    out_sum = np.zeros(rows, np.int64)
    out_turn = np.zeros((rows if with_turns else 0, n, bins), np.uint8)
    live = np.empty(52, np.int64)
    rest = np.empty(47, np.int64)          # the 47 live cards of a complete board, as positions in ``live``
    cards = np.empty(47, np.int64)
    to_hole = np.empty(RIVER_PAIRS, np.int64)
    work = _board_work()
    board = np.zeros(5, np.int64)
    for bi in range(nb):
        board[:m] = boards[bi]
        key, suited, used = board_state(boards[bi], np.uint64(0), T.card_keys)
        live_cards(used, live)
        base = bi * holes
        for t in range(n):
            lo, hi = (t + 1, n) if m == 3 else (t, t + 1)
            for r in range(lo, hi):                # r == t: no second card (a turn board)
                rkey = key + T.card_keys[live[t]]
                rsuited = suited | suited_bit(live[t])
                if m == 3:
                    rkey += T.card_keys[live[r]]
                    rsuited |= suited_bit(live[r])
                k = 0
                for u in range(n):
                    if u != t and u != r:
                        rest[k] = u
                        cards[k] = live[u]
                        k += 1
                for p in range(RIVER_PAIRS):
                    to_hole[p] = base + pid[rest[rpa[p]], rest[rpb[p]]]
                win2 = _board_wins(rkey, rsuited, cards, rpa, rpb, dense, T, work)
                for p in range(RIVER_PAIRS):
                    h = to_hole[p]
                    b = min(bins - 1, win2[p] * bins // FULL)
                    out_hist[h, b] += 1
                    out_sum[h] += win2[p]
                    if with_turns:
                        out_turn[h, t, b] += 1       # turn t, river r
                        out_turn[h, r, b] += 1       # turn r, river t
        for p in range(holes):
            out_idx[base + p] = situation_index_nb(live[pb[p]], live[pa[p]], board, m, blocks)
    return out_idx, out_hist, out_sum, out_turn


def _tables() -> Tables:
    from ..evaluator.tables import tables

    return tables()


def _unique(idx: np.ndarray, boards: np.ndarray, holes: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(index, first row, weight)``: each situation once, weighted by the deck's situations it stands for."""
    orbit = np.repeat(np.array([board_orbit(b) for b in boards], np.int64), holes)
    idx, first, counts = np.unique(idx, return_index=True, return_counts=True)
    return idx, first, orbit[first] * counts


@dataclass(frozen=True)
class RiverFeatures:
    """River situations of some boards, each once: ``index``; ``weight`` (situations of the deck it stands for);
    ``win2`` (2·wins + ties against the 990 opponent hands); per opponent cluster ``cluster_win2`` and
    ``cluster_live`` (its live opponent hands); :attr:`ochs` the equities."""

    index: np.ndarray
    weight: np.ndarray
    win2: np.ndarray
    cluster_win2: np.ndarray
    cluster_live: np.ndarray

    @property
    def equity(self) -> np.ndarray:
        """Equity against a random hand: (wins + ties/2) / 990."""
        return self.win2 / FULL

    @property
    def ochs(self) -> np.ndarray:
        """Equity against each opponent cluster, float32; a cluster with no live hand (every combo blocked)
        takes the equity against a random hand."""
        live = self.cluster_live.astype(np.float64)
        eq = np.divide(self.cluster_win2, 2 * live, out=np.zeros(live.shape), where=live > 0)
        return np.where(live > 0, eq, self.equity[:, None]).astype(np.float32)


def river_features(boards: np.ndarray, cluster_of_class: np.ndarray) -> RiverFeatures:
    """The river features of every hole on ``boards`` (rows of 5 card ids), opponents grouped by
    ``cluster_of_class`` (169 cluster numbers, one per preflop class in grid order)."""
    boards = np.ascontiguousarray(boards, np.int64)
    clusters = np.ascontiguousarray(cluster_of_class, np.int64)
    groups = int(clusters.max()) + 1
    idx, win2, c2, live = _river_kernel(boards, clusters, groups, block_table(5), dense_values(), _tables())
    idx, first, weight = _unique(idx, boards, RIVER_PAIRS)
    return RiverFeatures(idx, weight, win2[first], c2[first], live[first])


def class_histograms(boards: np.ndarray, bins: int = DEFAULT_BINS) -> tuple[np.ndarray, np.ndarray]:
    """``(hist, win2)``: (169, bins) int64 counts of every hole of each preflop class over the boards (canonical
    ones, each counted by its orbit) by river-equity bin — over all canonical river boards, every (hole, board)
    of the deck — and (169,) the summed ``2·wins + ties``."""
    boards = np.ascontiguousarray(boards, np.int64)
    orbits = np.array([board_orbit(b) for b in boards], np.int64)
    return _class_histogram_kernel(boards, orbits, int(bins), dense_values(), _tables())


@dataclass(frozen=True)
class RunoutFeatures:
    """Flop or turn situations of some boards, each once: ``index``, ``weight``, ``histogram`` (river counts
    per equity bin over the runouts: 46 on the turn, 1,081 on the flop), ``win2`` (their sum) and, on the flop,
    ``turns`` (n, 47, bins): each live turn card's turn histogram, and ``turn_index`` (n, 47): each live turn
    card's turn situation index, turn cards in ascending id."""

    index: np.ndarray
    weight: np.ndarray
    histogram: np.ndarray
    win2: np.ndarray
    runouts: int
    turns: np.ndarray | None = None
    turn_index: np.ndarray | None = None

    @property
    def equity(self) -> np.ndarray:
        """Equity against a random hand, all in: the mean river equity over the runouts."""
        return self.win2 / (FULL * self.runouts)


def runout_features(boards: np.ndarray, bins: int = DEFAULT_BINS, turns: bool = False,
                    turn_index: bool = False) -> RunoutFeatures:
    """The features of every hole on ``boards`` (rows of 3 or 4 ids); ``turns``: the flop's turn histograms too;
    ``turn_index``: the flop's turn situation indexes (whose buckets a built turn abstraction holds)."""
    boards = np.ascontiguousarray(boards, np.int64)
    m = boards.shape[1]
    if m not in (3, 4):
        raise ValueError("runout features are for flops and turns")
    with_turns = bool(turns and m == 3)
    idx, hist, total, turn = _runout_histograms(boards, int(bins), block_table(m), dense_values(), _tables(),
                                                with_turns)
    n = 52 - m
    idx, first, weight = _unique(idx, boards, n * (n - 1) // 2)
    runouts = 46 if m == 4 else 1081
    out_turns = None
    if with_turns:
        out_turns = _turns_of_holes(boards, turn, first)
    out_index = _turn_situations(boards, first, block_table(4)) if turn_index and m == 3 else None
    return RunoutFeatures(idx, weight, hist[first], total[first], runouts, out_turns, out_index)


@njit(cache=True, nogil=True)
def _turn_situations(boards: np.ndarray, rows: np.ndarray, blocks: np.ndarray) -> np.ndarray:
    """For each flop row (``board * 1,176 + hole pair``, as :func:`_runout_histograms` numbers them) the turn
    situation index of the hole on the flop and each live turn card, turn cards in ascending id (n, 47)."""
    n = 49
    holes = n * (n - 1) // 2
    _, pa, pb = pair_numbering(n)
    out = np.empty((rows.shape[0], n - 2), np.int64)
    live = np.empty(52, np.int64)
    board = np.zeros(4, np.int64)
    for q in range(rows.shape[0]):
        bi = rows[q] // holes
        p = rows[q] % holes
        used = np.uint64(0)
        for j in range(3):
            board[j] = boards[bi, j]
            used |= np.uint64(1) << np.uint64(boards[bi, j])
        live_cards(used, live)
        h0 = live[pb[p]]
        h1 = live[pa[p]]
        k = 0
        for t in range(n):
            if t != pa[p] and t != pb[p]:
                board[3] = live[t]
                out[q, k] = situation_index_nb(h0, h1, board, 4, blocks)
                k += 1
    return out


def _turns_of_holes(boards: np.ndarray, turn: np.ndarray, first: np.ndarray) -> np.ndarray:
    """Each chosen row's 47 turn histograms (the live cards that are not its hole), in ascending card id."""
    n = 49
    _, pa, pb = pair_numbering(n)
    p = first % (n * (n - 1) // 2)
    keep = np.ones((len(first), n), bool)
    keep[np.arange(len(first)), pa[p]] = False
    keep[np.arange(len(first)), pb[p]] = False
    return turn[first][keep].reshape(len(first), 47, turn.shape[2])
