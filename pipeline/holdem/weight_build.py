"""Hand-weight tables: the win share of every canonical flop, turn and river situation against 1..9 opponents.

One opponent — exact, as the EHS tables count it (:mod:`pipeline.strength.street`):

* **flop, turn**: over all runouts and opponent hands, the potential table
  ``HP[now][final]``'s final-ahead column plus half its final-tied column,
  divided by all cases; stored as the integer ``2·ahead + tied`` (a flop has
  1,081 runouts × 990 opponent hands = 1,070,190 cases, a turn 46 × 990);
* **river**: HS, from the exact counts of opponent hands ahead and tied (of 990).

``k`` opponents — an approximation that keeps the board's correlation exact:
on each complete board (each runout) the hero wins against each opponent with
the exact shares ``a`` (ahead) and ``t`` (tied) of that runout, and the ``k``
opponents are taken as independent draws from those 990 hands (their card
removal among each other is ignored).  A ``j``-way tie shares ``1/(j+1)``, so

    share_k(a, t) = sum_j C(k, j) a^(k-j) t^j / (j + 1) = ((a + t)^(k+1) - a^(k+1)) / ((k + 1) t)

averaged over the runouts (``a^k`` when ``t`` = 0; ``k`` = 1 gives
``a + t/2``, the exact value).  Its error against 100,000-trial simulation is
measured by ``benchmarks/bench_holdem.py --weights`` (README).  Flop and turn
store it for ``k`` = 2..9 to 1/65,535; the river computes it from ``a`` and
``t`` at lookup.

The tables are indexed by :func:`pipeline.isomorphism.situations.situation_index`.  They are
built once (``pokerpipe holdem-weights``, :func:`build_weight_tables`: minutes on two cores, the runouts are
the EHS table builder's) and kept under :func:`pipeline.core.cache.cache_dir` as
``.npy`` files that every process maps read-only (about 800 MB on disk, shared
through the page cache).  When they are absent the engine falls back to
:func:`.handweight.sampled_weight` (:func:`weight_mode`).
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

import numpy as np
from numba import njit

from ..core.cache import cache_dir
from ..evaluator.kernels import KEY_BASE, Tables, board_state, hand_value, live_cards, suited_bit
from ..isomorphism.situations import block_table, situation_index_nb, street_size
from ..strength.street import (
    add_runout,
    dense_values,
    pair_numbering,
    runout_key,
    runout_positions,
    scratch,
    street_counts,
)

STREETS = {"flop": 3, "turn": 4, "river": 5}
OPPONENT_HANDS = 990                       # C(45, 2): opponent hands on a complete board
CASES = {3: 1081 * OPPONENT_HANDS, 4: 46 * OPPONENT_HANDS}
MULTI = 8                                  # stored columns for 2..9 opponents
SCALE = 65535.0
BOARDS_PER_TASK = {3: 25, 4: 400, 5: 4000}
_VERSION = 1
WeightTables = tuple                       # (flop1, flop, turn1, turn, river, blocks3, blocks4, blocks5)


@njit(cache=True, nogil=True)
def multiway_share(a: float, t: float, k: int) -> float:
    """Win share against ``k`` independent opponents, each beaten with chance ``a`` and tied with ``t``."""
    if t <= 0.0:
        return a ** k
    return ((a + t) ** (k + 1) - a ** (k + 1)) / ((k + 1) * t)


@njit(cache=True, nogil=True)
def runout_weights(boards: np.ndarray, blocks: np.ndarray, dense: np.ndarray, work: tuple[np.ndarray, ...],
                   T: Tables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every live hole of each flop or turn board (rows of 3 or 4 ids): situation index, ``2·ahead + tied``
    over all (runout, opponent hand) cases, and the mean :func:`multiway_share` over runouts for 2..9."""
    nb, m = boards.shape
    n = 52 - m
    npairs = n * (n - 1) // 2
    rows = nb * npairs
    out_idx = np.empty(rows, np.int64)
    out_win2 = np.empty(rows, np.int64)
    out_multi = np.empty((rows, MULTI), np.float64)
    pid, pair_a, pair_b = pair_numbering(n)
    first, second = runout_positions(n, 5 - m)
    live = np.empty(n, np.int64)
    now = np.empty(npairs, np.int64)
    hp = np.empty((npairs, 9), np.int64)
    multi = np.empty((npairs, MULTI), np.float64)
    board = np.zeros(5, np.int64)
    q_pair, cells = work[1], work[7]
    row = 0
    for bi in range(nb):
        board[:m] = boards[bi]
        bkey, bsuited, used = board_state(boards[bi], np.uint64(0), T.card_keys)
        live_cards(used, live)
        for p in range(npairs):
            ca, cb = live[pair_a[p]], live[pair_b[p]]
            now[p] = hand_value(bkey + T.card_keys[ca] + T.card_keys[cb], bsuited | suited_bit(ca) | suited_bit(cb),
                                T)
        order = np.argsort(now)
        hp[:] = 0
        multi[:] = 0.0
        for r in range(first.size):
            ri, rj = first[r], second[r]
            rkey, rsuited = runout_key(bkey, bsuited, live, ri, rj, T)
            add_runout(rkey, rsuited, ri, rj, live, pid, now, order, hp, dense, work, T)
            nq = (n - 1 - (rj >= 0)) * (n - 2 - (rj >= 0)) // 2
            for q in range(nq):              # the runout's cells, per hole: final ahead / tied columns
                a = (cells[q, 0] + cells[q, 3] + cells[q, 6]) / OPPONENT_HANDS
                t = (cells[q, 1] + cells[q, 4] + cells[q, 7]) / OPPONENT_HANDS
                ak = a                       # a^k and (a+t)^(k+1), from k = 1 on
                pt = (a + t) * (a + t)
                for k in range(2, MULTI + 2):
                    ak *= a
                    pt *= a + t
                    multi[q_pair[q], k - 2] += (pt - ak * a) / ((k + 1) * t) if t > 0.0 else ak
        runouts = (n - 2) * (n - 3) // 2 if m == 3 else n - 2     # of each hole: 1,081 or 46
        for p in range(npairs):
            out_idx[row] = situation_index_nb(live[pair_b[p]], live[pair_a[p]], board, m, blocks)
            out_win2[row] = 2 * (hp[p, 0] + hp[p, 3] + hp[p, 6]) + hp[p, 1] + hp[p, 4] + hp[p, 7]
            for k in range(MULTI):
                out_multi[row, k] = multi[p, k] / runouts
            row += 1
    return out_idx, out_win2, out_multi


def street_weights(boards: np.ndarray) -> tuple[np.ndarray, ...]:
    """The rows of :func:`runout_weights` (flop, turn) or ``(index, ahead, tied)`` (river) for ``boards``."""
    from ..evaluator.tables import tables

    boards = np.ascontiguousarray(boards, np.uint8)
    m = boards.shape[1]
    dense = dense_values()
    work = scratch(52 - m, int(dense.max()))
    if m == 5:
        idx, _hole, _which, now, _hp = street_counts(boards, block_table(5), dense, work, tables())
        return idx, now[:, 0].astype(np.uint16), now[:, 1].astype(np.uint16)
    idx, win2, multi = runout_weights(boards, block_table(m), dense, work, tables())
    return idx, win2.astype(np.uint32), np.round(multi * SCALE).astype(np.uint16)


def build_street(street: str, limit: Optional[int] = None, session: Any = None) -> dict[str, np.ndarray]:
    """One street's arrays, full size (``limit``: only the situations of the first ``limit`` canonical boards;
    the rest stay 0).  Flop/turn: ``win2`` (uint32) and ``multi`` (uint16, 2..9 opponents × 65,535);
    river: ``counts`` (uint16 ahead, tied of 990)."""
    from ..isomorphism.boards import canonical_boards

    m = STREETS[street]
    boards = canonical_boards(m)
    if limit is not None:
        boards = boards[:limit]
    size = BOARDS_PER_TASK[m]
    chunks = [boards[i:i + size] for i in range(0, len(boards), size)]
    if session is None:
        parts = map(street_weights, chunks)
    else:
        client = session.client()
        parts = client.gather(client.map(street_weights, chunks, pure=False))
    n = street_size(m)
    if m == 5:
        counts = np.zeros((n, 2), np.uint16)
        for idx, ahead, tied in parts:
            counts[idx, 0], counts[idx, 1] = ahead, tied
        return {"counts": counts}
    win2 = np.zeros(n, np.uint32)
    multi = np.zeros((n, MULTI), np.uint16)
    for idx, w2, mu in parts:
        win2[idx] = w2
        multi[idx] = mu
    return {"win2": win2, "multi": multi}


def table_dir() -> Path:
    """Where the built tables live: ``<cache>/holdem_weight_v<N>/``."""
    return cache_dir() / f"holdem_weight_v{_VERSION}"


def _files(street: str) -> list[str]:
    return ["counts"] if street == "river" else ["win2", "multi"]


def build_weight_tables(session: Any = None) -> Path:
    """Build the three streets' tables (those not yet on disk) into :func:`table_dir`; return it.

    Each file is written under a temporary name and renamed, so a reader never maps half a file.
    """
    out = table_dir()
    out.mkdir(parents=True, exist_ok=True)
    for street in STREETS:
        if all((out / f"{street}_{f}.npy").exists() for f in _files(street)):
            continue
        for name, arr in build_street(street, session=session).items():
            tmp = out / f".{street}_{name}.{os.getpid()}.tmp.npy"
            np.save(tmp, arr)
            os.replace(tmp, out / f"{street}_{name}.npy")
    weight_tables.cache_clear()
    return out


def _frozen(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    a.setflags(write=False)
    return a


def pack(flop: dict[str, np.ndarray], turn: dict[str, np.ndarray], river: dict[str, np.ndarray]) -> WeightTables:
    """The tuple the kernels take: the arrays (read-only) and each street's situation block table."""
    return tuple(_frozen(a) for a in (flop["win2"], flop["multi"], turn["win2"], turn["multi"], river["counts"],
                                      block_table(3), block_table(4), block_table(5)))


def absent() -> WeightTables:
    """The kernels' argument when no tables are used: empty arrays of the same types."""
    return tuple(_frozen(a) for a in (np.zeros(0, np.uint32), np.zeros((0, MULTI), np.uint16), np.zeros(0, np.uint32),
                                      np.zeros((0, MULTI), np.uint16), np.zeros((0, 2), np.uint16),
                                      np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64)))


@lru_cache(maxsize=1)
def weight_tables() -> Optional[WeightTables]:
    """The built tables, mapped read-only, or None when any file is missing."""
    d = table_dir()
    arrays: dict[str, dict[str, np.ndarray]] = {}
    for street in STREETS:
        arrays[street] = {}
        for f in _files(street):
            path = d / f"{street}_{f}.npy"
            if not path.exists():
                return None
            arrays[street][f] = np.load(path, mmap_mode="r")
    return pack(arrays["flop"], arrays["turn"], arrays["river"])


def weight_mode(weights: str = "auto") -> str:
    """``"tables"`` or ``"sampled"``: ``auto`` is tables when built; asking for tables that are absent is an error."""
    if weights not in ("auto", "tables", "sampled"):
        raise ValueError(f"weights must be auto, tables or sampled, got {weights!r}")
    if weights == "sampled":
        return "sampled"
    if weight_tables() is not None:
        return "tables"
    if weights == "tables":
        raise FileNotFoundError(f"no hand-weight tables in {table_dir()}: build them with "
                                "`pokerpipe holdem-weights` (build_weight_tables())")
    return "sampled"


def kernel_tables(mode: str) -> WeightTables:
    """The kernels' weight argument for a resolved :func:`weight_mode`."""
    if mode == "tables":
        t = weight_tables()
        if t is None:
            raise FileNotFoundError(f"no hand-weight tables in {table_dir()}")
        return t
    return absent()


@njit(cache=True, nogil=True)
def enumerated_weights(h0: int, h1: int, board: np.ndarray, n_board: int, T: Tables) -> np.ndarray:
    """The tables' values for one situation by plain enumeration (10-20 ms on the flop): element ``k`` (1..9)
    is the mean over runouts of :func:`multiway_share` of that runout's exact ahead/tied shares."""
    used = (1 << h0) | (1 << h1)
    for i in range(n_board):
        used |= 1 << board[i]
    live = np.empty(52, np.int64)
    n = 0
    for c in range(52):
        if not (used >> c) & 1:
            live[n] = c
            n += 1
    out = np.zeros(MULTI + 2, np.float64)
    full = np.empty(7, np.int64)
    full[0], full[1] = h0, h1
    full[2:2 + n_board] = board[:n_board]
    runouts = 0
    for i in range(n if n_board < 5 else 1):
        for j in range(i + 1, n) if n_board == 3 else range(-1, 0):
            gone = 0
            if n_board < 5:
                full[2 + n_board] = live[i]
                gone |= 1 << live[i]
            if j >= 0:
                full[6] = live[j]
                gone |= 1 << live[j]
            key = KEY_BASE
            suited = np.uint64(0)
            for x in range(2, 7):
                key += T.card_keys[full[x]]
                suited |= suited_bit(full[x])
            mine = hand_value(key + T.card_keys[h0] + T.card_keys[h1], suited | suited_bit(h0) | suited_bit(h1),
                              T)
            ahead = 0
            tied = 0
            total = 0
            for x in range(n):
                a = live[x]
                if (gone >> a) & 1:
                    continue
                for y in range(x + 1, n):
                    b = live[y]
                    if (gone >> b) & 1:
                        continue
                    v = hand_value(key + T.card_keys[a] + T.card_keys[b], suited | suited_bit(a) | suited_bit(b),
                                   T)
                    total += 1
                    ahead += v < mine
                    tied += v == mine
            for k in range(1, MULTI + 2):
                out[k] += multiway_share(ahead / total, tied / total, k)
            runouts += 1
    return out / runouts


@njit(cache=True, nogil=True)
def table_weight(hole: np.ndarray, board: np.ndarray, n_board: int, opponents: int, wt: WeightTables) -> float:
    """Hand weight of ``hole`` on ``board[:n_board]`` (3..5 cards) against ``opponents`` (1..9), from the tables."""
    f1, fm, t1, tm, rc, b3, b4, b5 = wt
    if n_board == 5:
        i = situation_index_nb(hole[0], hole[1], board, 5, b5)
        return multiway_share(rc[i, 0] / OPPONENT_HANDS, rc[i, 1] / OPPONENT_HANDS, opponents)
    if n_board == 3:
        i = situation_index_nb(hole[0], hole[1], board, 3, b3)
        if opponents == 1:
            return f1[i] / (2.0 * 1081 * OPPONENT_HANDS)
        return fm[i, opponents - 2] / SCALE
    i = situation_index_nb(hole[0], hole[1], board, 4, b4)
    if opponents == 1:
        return t1[i] / (2.0 * 46 * OPPONENT_HANDS)
    return tm[i, opponents - 2] / SCALE
