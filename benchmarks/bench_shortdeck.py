"""Short-deck (6+) evaluator: agreement with pokerkit and rates beside pokerkit and the 52-card evaluator.

    python benchmarks/bench_shortdeck.py [--hands N] [--pokerkit-hands M] [--workers W] [--rounds R]

1. Agreement: ``M`` random seven-card hands of the 36-card deck (default 1,000,000) valued by pokerkit's
   ``ShortDeckHoldemHand.from_game`` (each hand on its own, in ``W`` processes: pokerkit is pure Python)
   and by ``pipeline.evaluate(..., deck=SHORT_DECK)``: the two must order every pair of hands the same way
   (an increasing one-to-one map from pokerkit's strengths to ours).  Prints any disagreement and exits 1.
2. Rates, one core, in one run, rounds interleaved: ``pipeline.evaluate`` (checks included, into an array
   made beforehand) on ``N`` random short-deck hands and on ``N`` random 52-card hands, the scalar kernel
   (``evaluate_into``) and the prebuilt-hand path (``evaluate_keys``) on both, and pokerkit per hand; the
   best wall time and the best thread CPU time of the rounds (on a shared machine the CPU time is the
   steadier figure).  ``--pokerkit-hands 0`` skips the agreement.

The CPU, its vector flags and the SIMD path taken are printed first (:func:`pipeline.core.cpu.simd_path`: the
best the CPU has, or ``POKERPIPE_SIMD=avx512|avx2|scalar``; AVX-512 and AVX2 take the eight-a-step paths).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(__file__))
import numpy as np  # noqa: E402

from pipeline.core.cpu import simd_path  # noqa: E402
from pipeline.evaluator import SHORT_DECK, STANDARD, evaluate  # noqa: E402
from pipeline.evaluator.hands import add_cards, evaluate_keys, hand_keys  # noqa: E402
from pipeline.evaluator.kernels import evaluate_into  # noqa: E402
from pipeline.evaluator.tables import tables  # noqa: E402

TEXT = ["23456789TJQKA"[c >> 2] + "cdhs"[c & 3] for c in range(52)]


def timed(fn) -> np.ndarray:
    """``[wall seconds, thread CPU seconds]`` of one call."""
    wall, cpu_time = time.perf_counter(), time.thread_time()
    fn()
    return np.array([time.perf_counter() - wall, time.thread_time() - cpu_time])


def cpu() -> str:
    """The CPU's model name and its AVX flags, from /proc/cpuinfo."""
    try:
        info = open("/proc/cpuinfo").read()
    except OSError:
        return "unknown CPU"
    name = next((line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), "?")
    flags = next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), [])
    vector = [f for f in ("avx2", "avx512f", "avx512bw", "avx512vl") if f in flags]
    return f"{name} ({', '.join(vector) or 'no AVX2'}), {os.cpu_count()} cores"


def deck_hands(n: int, deck_size: int, seed: int) -> np.ndarray:
    """``n`` random 7-card hands (uint8 ids) of the deck of the top ``deck_size`` cards."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), np.uint8)
    step = 1 << 18
    for i in range(0, n, step):
        m = min(step, n - i)
        out[i:i + m] = 52 - deck_size + np.argsort(rng.random((m, deck_size), dtype=np.float32), axis=1)[:, :7]
    return out


def pokerkit_strengths(rows: np.ndarray) -> np.ndarray:
    """pokerkit's strength (its entry's index) of each hand: two hole cards, then the board."""
    from pokerkit import ShortDeckHoldemHand

    return np.array([ShortDeckHoldemHand.from_game(TEXT[r[0]] + TEXT[r[1]], "".join(TEXT[c] for c in r[2:])).entry.index
                     for r in rows.tolist()], np.int64)


def agreement(hands: np.ndarray, workers: int) -> tuple[int, float]:
    """Pairs of (pokerkit, ours) that break the one-to-one increasing map (0: full agreement), and pokerkit's
    seconds."""
    ours = evaluate(hands, deck=SHORT_DECK).astype(np.int64)
    chunks = np.array_split(hands, max(1, 8 * workers))
    start = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        theirs = np.concatenate(list(pool.map(pokerkit_strengths, chunks)))
    seconds = time.perf_counter() - start
    pairs = np.unique(theirs << 16 | ours)
    mine, its = pairs & 0xFFFF, pairs >> 16
    bad = (len(pairs) - len(np.unique(its))) + (len(pairs) - len(np.unique(mine))) + int((np.diff(mine) <= 0).sum())
    return bad, seconds


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=4_000_000, help="hands per rate measurement")
    ap.add_argument("--pokerkit-hands", type=int, default=1_000_000, help="hands checked against pokerkit")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes running pokerkit")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"CPU: {cpu()}; SIMD path: {simd_path()}")

    check = deck_hands(max(args.pokerkit_hands, 20_000), 36, seed=44)
    bad = 0
    if args.pokerkit_hands:
        bad, pk_seconds = agreement(check[:args.pokerkit_hands], args.workers)
        print(f"agreement with pokerkit ShortDeckHoldemHand: {args.pokerkit_hands:,} random 7-card hands, "
              f"{'all ordered alike' if bad == 0 else f'{bad} DISAGREEMENTS'} "
              f"(pokerkit {pk_seconds:.0f} s on {args.workers} processes)")

    short, full = deck_hands(args.hands, 36, seed=1), deck_hands(args.hands, 52, seed=1)
    out = np.empty(args.hands, np.int32)
    t36, t52 = tables(SHORT_DECK), tables(STANDARD)
    k36 = add_cards(*hand_keys(short[:, :2], deck=SHORT_DECK), short[:, 2:], deck=SHORT_DECK)
    k52 = add_cards(*hand_keys(full[:, :2]), full[:, 2:])
    paths = {
        "evaluate()": (lambda: evaluate(short, out=out, deck=SHORT_DECK), lambda: evaluate(full, out=out)),
        "evaluate_into (scalar kernel)": (lambda: evaluate_into(short, out, t36),
                                          lambda: evaluate_into(full, out, t52)),
        "evaluate_keys (prebuilt hands)": (lambda: evaluate_keys(*k36, out, deck=SHORT_DECK),
                                           lambda: evaluate_keys(*k52, out)),
    }
    for a, b in paths.values():
        a(), b()                                   # compiled, tables loaded
    best = {name: np.full((2, 2), np.inf) for name in paths}     # [deck][wall, cpu]
    for _ in range(args.rounds):                   # interleaved: both decks see the same machine
        for name, fns in paths.items():
            for d, fn in enumerate(fns):
                best[name][d] = np.minimum(best[name][d], timed(fn))
    sample = check[:20_000]
    pk = timed(lambda: pokerkit_strengths(sample))
    pk_rate = len(sample) / pk[1]
    print(f"rates, 1 core, best of {args.rounds} interleaved rounds, {args.hands:,} random 7-card hands per deck, "
          "by wall time (by thread CPU time):")
    print(f"{'path':32s} {'36 cards, M/s':>16s} {'52 cards, M/s':>16s} {'36/52':>13s} {'36/pokerkit':>12s}")
    for name, t in best.items():
        r36, r52 = args.hands / t[0], args.hands / t[1]
        print(f"{name:32s} {r36[0] / 1e6:7.1f} ({r36[1] / 1e6:6.1f}) {r52[0] / 1e6:7.1f} ({r52[1] / 1e6:6.1f}) "
              f"{r36[0] / r52[0]:5.2f} ({r36[1] / r52[1]:5.2f}) {r36[1] / pk_rate:11,.0f}x")
    print(f"{'pokerkit from_game (per hand)':32s} {len(sample) / pk[0] / 1e3:7.1f} ({pk_rate / 1e3:6.1f}) k/s")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
