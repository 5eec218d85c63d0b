"""The Omaha evaluator against pokerkit on many random hands: high and 8-or-better low, 4, 5 and 6 cards.

    python benchmarks/check_omaha_vs_pokerkit.py [--hands 100000] [--workers 2] [--cards 4,5,6]

For each size, random deals of two hands and a board: pokerpipe's order of the two hands
(high, then low, with "no low" where pokerkit finds none) must equal pokerkit's
``OmahaHoldemHand`` / ``OmahaEightOrBetterLowHand`` order on every deal.  pokerkit is pure
Python (about 3 ms a hand), so the deals are split over ``--workers`` processes; 100,000
deals of each size take tens of minutes.  The tests run the same comparison on 100 deals.
"""
from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np


def deals(k: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng([k, seed])
    return np.argsort(rng.random((n, 52)), axis=1)[:, :2 * k + 5]


def pokerkit_orders(args: tuple) -> tuple:
    """pokerkit's (high order, low order with None for no low on either side) for a slice of deals."""
    from pokerkit import OmahaEightOrBetterLowHand, OmahaHoldemHand

    from pipeline.core.cards import format_cards

    k, rows = args
    high, low = [], []
    for row in rows:
        a, b, board = (format_cards(x, sep="") for x in (row[:k], row[k:2 * k], row[2 * k:]))
        pa, pb = OmahaHoldemHand.from_game(a, board), OmahaHoldemHand.from_game(b, board)
        high.append((pa > pb) - (pa < pb))
        qa = OmahaEightOrBetterLowHand.from_game_or_none(a, board)
        qb = OmahaEightOrBetterLowHand.from_game_or_none(b, board)
        low.append((qa is None, qb is None, 0 if qa is None or qb is None else (qa > qb) - (qa < qb)))
    return high, low


def main() -> None:
    from pipeline.omaha import NO_LOW, evaluate_omaha, evaluate_omaha_low

    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cards", default="4,5,6")
    args = ap.parse_args()
    for k in (int(x) for x in args.cards.split(",")):
        d = deals(k, args.hands, 1)
        a, b, board = d[:, :k], d[:, k:2 * k], d[:, 2 * k:]
        ha, hb = evaluate_omaha(a, board).astype(int), evaluate_omaha(b, board).astype(int)
        la, lb = evaluate_omaha_low(a, board).astype(int), evaluate_omaha_low(b, board).astype(int)
        t = time.perf_counter()
        chunks = np.array_split(d, max(1, args.workers * 20))
        with ProcessPoolExecutor(args.workers) as pool:
            got = list(pool.map(pokerkit_orders, [(k, c.tolist()) for c in chunks]))
        high = np.concatenate([g[0] for g in got])
        low = [x for g in got for x in g[1]]
        ours_high = np.sign(ha - hb)
        ours_low = [(int(x) == NO_LOW, int(y) == NO_LOW, 0 if NO_LOW in (x, y) else int(np.sign(x - y)))
                    for x, y in zip(la, lb)]
        bad_high = int(np.count_nonzero(ours_high != high))
        bad_low = sum(o != p for o, p in zip(ours_low, low))
        print(f"{k} hole cards: {args.hands:,} deals, high disagrees on {bad_high}, low on {bad_low} "
              f"(pokerkit {time.perf_counter() - t:.0f} s on {args.workers} workers)", flush=True)


if __name__ == "__main__":
    main()
