"""``pipeline.evaluate`` and the prebuilt-hand path on hands drawn from pools of few or many distinct hands.

    python benchmarks/bench_evaluate_pools.py [--hands 10000000] [--pools 8,64,1000,100000]

A probe of the slowdown docs/library.md describes (``pipeline.evaluate`` on hands sharing boards, 265 against
714 M/s on pools of 8 and 1,000 until its cards were prefetched, ``evaluator.simd.PREFETCH_BYTES``): each row is
``--hands`` hands drawn at random, with repeats, from a pool of that many distinct non-flush hands, evaluated
from card ids (``pipeline.evaluate``) and from the same hands' prebuilt keys
(``pipeline.evaluator.hands.evaluate_keys``), best of 5 each, into one output array made beforehand.  Read
the rates of one run against each other: the machine's speed drifts between days.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import best_of, random_hands  # noqa: E402

import pipeline  # noqa: E402
from pipeline.evaluator.hands import evaluate_keys, hand_keys  # noqa: E402
from pipeline.evaluator.kernels import FLUSH_FLAGS  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000)
    parser.add_argument("--pools", default="8,64,1000,100000")
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    out = np.empty(args.hands, np.int32)
    print(f"{args.hands:,} hands a row, M hands/s, best of 5")
    for size in (int(p) for p in args.pools.split(",")):
        pool = random_hands(2 * size + 64, seed=size)
        pool = pool[(hand_keys(pool)[0] & FLUSH_FLAGS) == 0][:size]
        cards = pool[rng.integers(0, len(pool), args.hands)]
        keys, suited = hand_keys(cards)
        pipeline.evaluate(cards[:64])
        evaluate_keys(keys[:64], suited[:64])
        rate_cards = args.hands / best_of(lambda c=cards: pipeline.evaluate(c, out=out)) / 1e6
        rate_keys = args.hands / best_of(lambda k=keys, s=suited: evaluate_keys(k, s, out)) / 1e6
        print(f"pool of {size:>7,}   evaluate (card ids) {rate_cards:7.1f}   prebuilt keys {rate_keys:7.1f}")


if __name__ == "__main__":
    main()
