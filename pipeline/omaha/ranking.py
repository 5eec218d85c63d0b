"""Omaha hand rankings for percentage ranges (``15%``), by ProPokerTools' published procedure.

ProPokerTools ranks hands for its percentages by an evolutionary simulation inspired by
Billings, Davidson, Schaeffer and Szafron ("The challenge of poker", Artificial
Intelligence 134, 2002), which its author published ("Towards a Meaningful Ordering of
Hands", Poker Coder blog, 15 July 2006; the six-handed orderings, 13 March 2012):

    Ten times over: for each hand *h*, many times (twice as many each round): deal *h*
    and put one chip in the pot; deal one random hand, the blind, and put one chip in;
    deal eight random hands, and put one chip in for each "good" one, folding the rest;
    deal a board and award the pot to the winner(s).  A hand is good when, on average,
    it wins more than one chip from the pot; in the first round every hand is good.

This module runs that procedure over the suit classes of k-card hands (16,432 of four
cards), one hand of each class standing for all; the six-handed ranking deals four hands
after the blind instead of eight, and hi/lo games split each pot between the best high
and the best qualifying low.  Five-card games seat nine at full ring, as PPT's did
("9 players for the big-O games, and 10 players for the others").  The final round's
average chips order the classes, best first (ties by class index).  PPT did not publish
its first round's trial count, and its current rankings ship inside its program, so ours
is the same procedure with our seeds and counts (:data:`FIRST_ROUND_TRIALS`), not PPT's
exact order.

Every class's trials in a round come from their own stream, seeded from
``(seed, round, class)``: the ranking is the same whatever the workers.
``python -m pipeline.omaha.ranking`` writes ``pipeline/ranges/data/omaha-rankings.npz``,
which :mod:`pipeline.ranges.omaha_ranking` reads.
"""
from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor

import numpy as np
from numba import njit

from ..core.cards import format_cards
from ..core.rng import chunk_state, deal_card
from ..ranges.omaha import cards_of_masks
from ..ranges.omaha_ranking import RANKINGS, class_index, ranking_name
from .kernels import board_classes, high_value, hole_pairs, low_value
from .tables import OmahaTables, omaha_tables

ROUNDS = 10
FIRST_ROUND_TRIALS = 40            # per class; doubling, the last round deals 40 * 2**9 = 20,480
# hands dealt after the blind: full ring is ten players in four-card games and nine in five-card ones
# (ProPokerTools' choice: ten hands of five cards and a board would need 55 cards); six-handed is six
OTHERS = {(4, False): 8, (5, False): 7, (4, True): 4, (5, True): 4}
CHIP = 5040                        # units of a chip: 2 * lcm(1..10), so every split of either half is whole
BLOCK = 256                        # classes a task scores


@njit(cache=True, nogil=True)
def chips_block(hands: np.ndarray, start: int, stop: int, trials: int, seed: int, stream: int, good: np.ndarray,
                class_of: np.ndarray, binom: np.ndarray, others: int, hilo: bool, OT: OmahaTables,
                units: np.ndarray) -> None:
    """``units[i]``: the chips (in :data:`CHIP` units) class ``i`` in ``start..stop`` won over ``trials`` pots of
    the procedure in the module doc, its opponents calling when ``good[class]``."""
    k = hands.shape[1]
    npairs = k * (k - 1) // 2
    P = 2 + others
    cols = np.empty((P, 15), np.int64)
    suits = np.empty((P, 15), np.int64)
    lows = np.empty((P, 15), np.int64)
    high = np.zeros(P, np.int64)
    low = np.zeros(P, np.int64)
    deck = np.empty(52 - k, np.int64)
    hole = np.empty(k, np.int64)
    board = np.empty(5, np.int64)
    L = 52 - k
    for i in range(start, stop):
        n = 0
        for c in range(52):
            held = False
            for j in range(k):
                if hands[i, j] == c:
                    held = True
            if not held:
                deck[n] = c
                n += 1
        hole_pairs(hands[i], 0, cols, suits, lows)
        s0, s1 = chunk_state(seed, stream * 1_000_000 + i)
        total = 0
        for _ in range(trials):
            pos = 0
            players = 1
            for o in range(1 + others):
                for j in range(k):
                    s0, s1, c, pos = deal_card(s0, s1, deck, pos, L)
                    hole[j] = c
                if o > 0:                       # the blind always plays; the others only when good
                    for a in range(1, k):       # insertion sort, for the hand's colex index
                        c = hole[a]
                        b = a - 1
                        while b >= 0 and hole[b] > c:
                            hole[b + 1] = hole[b]
                            b -= 1
                        hole[b + 1] = c
                    idx = 0
                    for j in range(k):
                        idx += binom[hole[j], j + 1]
                    if not good[class_of[idx]]:
                        continue
                hole_pairs(hole, players, cols, suits, lows)
                players += 1
            for q in range(5):
                s0, s1, c, pos = deal_card(s0, s1, deck, pos, L)
                board[q] = c
            bclass, fsuit, fclass, low_set = board_classes(board, OT)
            best, nh, lbest, nl = 0, 0, 0, 0
            for p in range(players):
                high[p] = high_value(cols, suits, p, npairs, bclass, fsuit, fclass, OT)
                if high[p] > best:
                    best, nh = high[p], 1
                elif high[p] == best:
                    nh += 1
                if hilo:
                    low[p] = low_value(lows, p, npairs, low_set, OT)
                    if low[p] > lbest:
                        lbest, nl = low[p], 1
                    elif low[p] == lbest and lbest > 0:
                        nl += 1
            pot = players * CHIP                # every player in put one chip
            if nl == 0:
                total += pot // nh if high[0] == best else 0
            else:
                total += (pot // 2 // nh if high[0] == best else 0) + (pot // 2 // nl if low[0] == lbest else 0)
        units[i] = total


def class_hands(k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(hands, class_of_hand)``: one hand of each suit class (classes ascending by canonical mask) and the
    class of every hand of :func:`pipeline.ranges.omaha_hands.all_hands` (by colex index)."""
    masks, cls = class_index(k)
    return cards_of_masks(masks, k), cls.astype(np.int32)


def evolve(k: int = 4, hilo: bool = False, six_handed: bool = False, seed: int = 0,
           first_trials: int = FIRST_ROUND_TRIALS, rounds: int = ROUNDS, executor: Executor | None = None,
           progress: Callable[[str], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(order, chips)``: the classes best first, and each class's average chips in the last round."""
    if (k, six_handed) not in OTHERS:
        raise ValueError(f"no ranking procedure for {k}-card hands")
    others = OTHERS[k, six_handed]
    hands, cls = class_hands(k)
    m = len(hands)
    binom = np.array([[math.comb(n, r) for r in range(k + 1)] for n in range(52)], np.int64)
    OT = omaha_tables()
    good = np.ones(m, np.bool_)
    units = np.zeros(m, np.int64)
    own = executor is None
    pool = executor or ThreadPoolExecutor()
    try:
        for r in range(rounds):
            trials = first_trials << r
            t = time.perf_counter()
            jobs = [pool.submit(chips_block, hands, a, min(a + BLOCK, m), trials, seed, r, good, cls, binom,
                                others, hilo, OT, units) for a in range(0, m, BLOCK)]
            for j in jobs:
                j.result()
            chips = units / (CHIP * trials)
            good = chips > 1.0
            if progress:
                progress(f"{ranking_name(k, hilo, six_handed)} round {r + 1}/{rounds}: {trials:,} trials a class, "
                         f"{good.mean():.1%} of classes good, {time.perf_counter() - t:.1f} s")
    finally:
        if own:
            pool.shutdown()
    order = np.lexsort((np.arange(m), -chips))
    return order.astype(np.uint32), chips


def main(argv: list[str] | None = None) -> None:
    """Write the rankings file (``--only NAME`` to recompute some and keep the rest)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", nargs="*", default=None, help="ranking names, e.g. omaha omaha-6h")
    ap.add_argument("--first-trials", type=int, default=FIRST_ROUND_TRIALS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(RANKINGS))
    a = ap.parse_args(argv)
    wanted = [(k, hilo, six) for k in (4, 5) for hilo in (False, True) for six in (False, True)]
    out: dict[str, np.ndarray] = {}
    try:
        with np.load(a.out) as z:
            out = {n: z[n] for n in z.files}
    except FileNotFoundError:
        pass
    params = json.loads(str(out["_params"])) if "_params" in out else {}
    for k, hilo, six in wanted:
        name = ranking_name(k, hilo, six)
        if a.only is not None and name not in a.only:
            continue
        order, chips = evolve(k, hilo, six, a.seed, a.first_trials, progress=print)
        out[name] = order
        params[name] = {"seed": a.seed, "first_round_trials": a.first_trials, "rounds": ROUNDS,
                        "others": OTHERS[k, six], "top_chips": round(float(chips[order[0]]), 4)}
        out["_params"] = np.array(json.dumps(params, sort_keys=True))
        np.savez_compressed(a.out, **out)   # type: ignore[arg-type]
        hands, _ = class_hands(k)
        top = ", ".join(f"{format_cards(hands[i].tolist())} {chips[i]:.3f}" for i in order[:8])
        print(f"{name}: written to {a.out}; best: {top}")


if __name__ == "__main__":
    main()
