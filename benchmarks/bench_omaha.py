"""Omaha evaluation rate: pokerpipe's batch evaluator beside the peers measured in the same run.

    python benchmarks/bench_omaha.py [--hands 1000000] [--phevaluator BUILD_DIR] [--rounds 3]

Random deals of 4, 5 and 6 hole cards with a five-card board; pokerpipe's
``evaluate_omaha`` (high) and ``evaluate_omaha_low`` on all of them at once, best of
three; pokerkit's ``OmahaHoldemHand.from_game`` on the first 2,000 (pure Python);
PHEvaluator's Python binding (``phevaluator.evaluate_omaha_cards``, 4 hole cards only)
on the first 200,000 when it is installed (``pip install phevaluator``).  Rates are
hands per second on one thread; quote them as ratios, the machine is shared.

``--phevaluator BUILD_DIR`` adds PHEvaluator's C library (4-card Omaha), built from its
public source by ``benchmarks/peers/build_phevaluator.sh SRC BUILD_DIR``: the same deals
are written to a file, its ``omaha_bench`` evaluates them (best of three) and pokerpipe
evaluates them in the same round, ``--rounds`` rounds interleaved; both give the same
order on every deal (checked here: PHEvaluator's 1..7462, lower better, against ours).
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


def versus_c_library(build: str, n: int, rounds: int) -> None:
    """pokerpipe and PHEvaluator's C ``omaha_bench`` on the same 4-card deals, interleaved."""
    import subprocess
    import tempfile
    from pathlib import Path

    holes, boards = deals(4, n, seed=7)
    with tempfile.TemporaryDirectory() as tmp:
        deals_file, values_file = Path(tmp) / "deals.bin", Path(tmp) / "values.bin"
        np.concatenate([boards, holes], axis=1).astype("<i4").tofile(deals_file)
        evaluate_omaha(holes[:10], boards[:10])
        for r in range(rounds):
            out = subprocess.run([str(Path(build) / "omaha_bench"), str(deals_file), str(values_file), "3"],
                                 capture_output=True, text=True, check=True).stdout
            ph = float(out.split("hands_per_second")[1].split()[0])
            ours = n / best_of(evaluate_omaha, holes, boards)
            print(f"round {r + 1}: 4-card Omaha on {n:,} random deals: pokerpipe {ours / 1e6:.1f} M hands/s, "
                  f"PHEvaluator (C, -O3 -march=native) {ph / 1e6:.1f} M/s: {ours / ph:.2f}x", flush=True)
        theirs = np.fromfile(values_file, "<i4")[:100_000].astype(np.int64)
        mine = evaluate_omaha(holes[:100_000], boards[:100_000]).astype(np.int64)
        i = np.random.default_rng(1).integers(0, len(mine), (2, 200_000))
        same = np.sign(mine[i[0]] - mine[i[1]]) == -np.sign(theirs[i[0]] - theirs[i[1]])
        print(f"same order as PHEvaluator on {same.sum():,} of {same.size:,} random pairs of deals")


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
    ap.add_argument("--phevaluator", metavar="BUILD_DIR", help="a build of benchmarks/peers/build_phevaluator.sh")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    n = args.hands
    if args.phevaluator:
        versus_c_library(args.phevaluator, n, args.rounds)
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
        if k == 4:
            try:
                import phevaluator  # noqa: F401

                m = min(n, 200_000)
                rows = [(b.tolist(), h.tolist()) for h, b in zip(holes[:m], boards[:m])]
                ph = m / best_of(phevaluator_all, rows, repeat=1)
                line += f" | phevaluator (Python binding) {ph / 1e6:.2f} M hands/s ({hi / ph:.1f}x)"
            except ImportError:
                line += " | phevaluator not installed"
        print(line, flush=True)


if __name__ == "__main__":
    main()
