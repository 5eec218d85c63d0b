"""Omaha evaluation rate: pokerpipe's batch evaluator beside the peers measured in the same run.

    python benchmarks/bench_omaha.py [--hands 1000000] [--peer-hands 200000] [--rounds 3]

Random deals of 4, 5 and 6 hole cards with a five-card board; pokerpipe's
``evaluate_omaha`` (high) and ``evaluate_omaha_low`` on all of them at once, best of
three; pokerkit's ``OmahaHoldemHand.from_game`` on the first 2,000 (pure Python);
PHEvaluator from the registry (``pip install phevaluator``: its C extension, 4 hole cards
only in the published wheels, ``evaluate_omaha_cards`` called per hand from Python) on the
first ``--peer-hands``, interleaved with ours over ``--rounds`` rounds, and its order of
those deals checked against ours (its ranks 1..7462, lower better).  Rates are hands per
second on one thread; quote them as ratios, the machine is shared.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from pipeline.core.cards import format_cards
from pipeline.omaha import evaluate_omaha, evaluate_omaha_low


def deals(k: int, n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng([k, seed])
    cards = np.argsort(rng.random((n, 52)), axis=1)[:, :k + 5]
    return np.ascontiguousarray(cards[:, :k]), np.ascontiguousarray(cards[:, k:])


def best_of(fn, *args, repeat: int = 3) -> float:
    """Fastest wall time of ``repeat`` calls of ``fn(*args)``, in seconds."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t)
    return min(times)


def pokerkit_all(text: list) -> None:
    from pokerkit import OmahaHoldemHand

    for h, b in text:
        OmahaHoldemHand.from_game(h, b)


def phevaluator_all(rows: list) -> None:
    from phevaluator import evaluate_omaha_cards

    for b, h in rows:
        evaluate_omaha_cards(*b, *h)


def versus_phevaluator(n: int, rounds: int) -> str:
    """pokerpipe and PHEvaluator's Python binding on the same 4-card deals, interleaved; its order checked."""
    from phevaluator import evaluate_omaha_cards

    holes, boards = deals(4, n, seed=7)
    rows = [(b.tolist(), h.tolist()) for h, b in zip(holes, boards)]
    evaluate_omaha(holes[:10], boards[:10])
    ours = theirs = float("inf")
    for r in range(rounds):
        for side in ("ours", "theirs") if r % 2 == 0 else ("theirs", "ours"):
            if side == "ours":
                ours = min(ours, best_of(evaluate_omaha, holes, boards))
            else:
                theirs = min(theirs, best_of(phevaluator_all, rows, repeat=1))
    ranks = np.array([evaluate_omaha_cards(*b, *h) for b, h in rows[:100_000]], np.int64)
    mine = evaluate_omaha(holes[:100_000], boards[:100_000]).astype(np.int64)
    i = np.random.default_rng(1).integers(0, len(mine), (2, 200_000))
    same = np.sign(mine[i[0]] - mine[i[1]]) == -np.sign(ranks[i[0]] - ranks[i[1]])
    return (f"4-card Omaha on {n:,} random deals, best of {rounds} interleaved: pokerpipe {n / ours / 1e6:.1f} M "
            f"hands/s, phevaluator (registry, per hand from Python) {n / theirs / 1e6:.2f} M/s: {theirs / ours:.1f}x; "
            f"same order on {same.sum():,} of {same.size:,} random pairs of deals")


def exact_preflop(rounds: int) -> None:
    """Exact heads-up preflop Omaha (all 1,086,008 boards, one thread) beside exact hold'em AhKh vs QsQd
    enumerated (1,712,304 boards, the matchups table off) in the same rounds."""
    from pipeline.equity import equity
    from pipeline.omaha.equity import omaha_equity

    omaha_equity(["AsAhKsKh", "JdTd9c8c"], threads=1)
    equity(["AhKh", "QsQd"], table=False, exact=True, threads=1)
    for r in range(rounds):
        om = best_of(lambda: omaha_equity(["AsAhKsKh", "JdTd9c8c"], threads=1))
        he = best_of(lambda: equity(["AhKh", "QsQd"], table=False, exact=True, threads=1))
        print(f"round {r + 1}: exact preflop heads-up, one thread: Omaha AsAhKsKh vs JdTd9c8c {1e3 * om:.0f} ms "
              f"(1,086,008 boards), hold'em AhKh vs QsQd {1e3 * he:.1f} ms (1,712,304 boards)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--peer-hands", type=int, default=200_000, help="deals PHEvaluator evaluates from Python")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    n = args.hands
    try:
        print(versus_phevaluator(min(n, args.peer_hands), args.rounds), flush=True)
    except ImportError:
        print("phevaluator not installed (pip install phevaluator): no registry peer for 4-card Omaha", flush=True)
    exact_preflop(args.rounds)
    for k in (4, 5, 6):
        holes, boards = deals(k, n)
        evaluate_omaha(holes[:10], boards[:10])
        evaluate_omaha_low(holes[:10], boards[:10])
        hi = n / best_of(evaluate_omaha, holes, boards)
        lo = n / best_of(evaluate_omaha_low, holes, boards)
        line = f"{k} hole cards: pokerpipe high {hi / 1e6:.1f} M hands/s, low {lo / 1e6:.1f} M/s"
        try:
            import pokerkit  # noqa: F401

            m = 2000
            text = [(format_cards(h.tolist()), format_cards(b.tolist())) for h, b in zip(holes[:m], boards[:m])]
            pk = m / best_of(pokerkit_all, text, repeat=1)
            line += f" | pokerkit {pk:,.0f} hands/s ({hi / pk:,.0f}x)"
        except ImportError:
            line += " | pokerkit not installed"
        print(line, flush=True)


if __name__ == "__main__":
    main()
