"""Monte Carlo equity: seeded, reproducible, with a standard error.

Each trial draws one combo per player from its weighted range (inverse CDF on
the cumulative weights) and rejects the whole draw if two players, the board or
the dead cards share a card — so draws follow exactly the distribution the
exact enumeration weighs — then deals the missing board cards uniformly.

Trials run in fixed-size chunks; chunk ``i`` is seeded from ``(seed, i)``
alone, so the result depends on the seed and the trial count, never on how
many threads ran the chunks.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..evaluator.kernels import suited_bit
from ..evaluator.kernels import board_state, hand_value
from .scoring import SHARE_UNIT, SHARES, TIES, WINS

CHUNK_TRIALS = 1 << 16


@njit(cache=True, nogil=True)
def monte_carlo_chunk(trials: int, seed: int, combos: np.ndarray, offsets: np.ndarray,
                      cumw: np.ndarray, board: np.ndarray, dead_mask: np.uint64,
                      counts: np.ndarray, sq_shares: np.ndarray, max_attempts: int,
                      card_keys: np.ndarray, rank_offsets: np.ndarray, rank_values: np.ndarray,
                      flush_values: np.ndarray) -> int:
    """Run ``trials`` accepted trials; add to ``counts`` (P, 3) and ``sq_shares`` (P,), the sum
    over trials of (pot share in units of 1/2520) squared.  Returns the attempts
    used, or -1 if ``max_attempts`` passed first (ranges that almost never fit).
    """
    np.random.seed(seed)
    P = offsets.size - 1
    missing = 5 - board.size
    bkey, bsuited, used0 = board_state(board, dead_mask, card_keys)
    keys = np.empty(P, np.uint64)
    suited = np.empty(P, np.uint64)
    values = np.empty(P, np.int32)
    attempts = 0
    done = 0
    while done < trials:
        attempts += 1
        if attempts > max_attempts:
            return -1
        used = used0
        ok = True
        for p in range(P):
            lo, hi = offsets[p], offsets[p + 1]
            u = np.random.random() * cumw[hi - 1]
            i = lo + np.searchsorted(cumw[lo:hi], u, side="right")
            if i >= hi:
                i = hi - 1
            c1, c2 = combos[i, 0], combos[i, 1]
            m = (np.uint64(1) << np.uint64(c1)) | (np.uint64(1) << np.uint64(c2))
            if used & m:
                ok = False
                break
            used |= m
            keys[p] = bkey + card_keys[c1] + card_keys[c2]
            suited[p] = bsuited | suited_bit(c1) | suited_bit(c2)
        if not ok:
            continue
        for _ in range(missing):
            while True:
                c = np.random.randint(0, 52)
                b = np.uint64(1) << np.uint64(c)
                if not used & b:
                    break
            used |= b
            k = card_keys[c]
            s = suited_bit(c)
            for p in range(P):
                keys[p] += k
                suited[p] |= s
        best = -1
        nbest = 0
        for p in range(P):
            v = hand_value(keys[p], suited[p], rank_offsets, rank_values, flush_values)
            values[p] = v
            if v > best:
                best = v
                nbest = 1
            elif v == best:
                nbest += 1
        share = SHARE_UNIT // nbest
        for p in range(P):
            if values[p] == best:
                if nbest == 1:
                    counts[p, WINS] += 1
                else:
                    counts[p, TIES] += 1
                    counts[p, SHARES] += share
                sq_shares[p] += share * share
        done += 1
    return attempts
