"""The exact three-way preflop count per triple: pokerpipe beside a peer, one thread each.

    python benchmarks/bench_threeway.py [--ompeval-driver PATH] [--triples 400] [--rounds 3] [--seed 1]
                                        [--eval7-boards 20000]

Draws ``--triples`` canonical triples from :func:`pipeline.equity.threeway.canonical_triples`
(seeded) and, interleaved over ``--rounds`` rounds (the order of the two alternating), times

1. pokerpipe: :func:`pipeline.equity.threeway.count_triples` on all of them in one call, in
   this process, the numba kernel warmed on another triple first;
2. OMPEval (https://github.com/zekyll/OMPEval), when ``--ompeval-driver`` names an executable the
   user built from ``benchmarks/ompeval_triples.cpp`` (our driver of OMPEval's library; pokerpipe
   ships neither OMPEval nor a way to build it): its ``EquityCalculator`` enumerating each of the
   same deals exactly (three specific hands, no board; ``start(..., enumerateAll=true, ...,
   threadCount=1)`` then ``wait()``).  Its time is the sum of the per-deal times the driver reports
   (process start and table set-up left out).  Every deal's results are checked against
   pokerpipe's counts: per hand, sole wins (``winsByPlayerMask`` of its bit alone), two-way ties
   (the masks of two bits holding it) and three-way ties (all three bits) must match exactly over
   the 1,370,754 boards, and the equities to 1e-9;
3. without the driver, eval7 from the registry (``pip install eval7``): its ``evaluate`` on the
   first triple's first ``--eval7-boards`` boards from Python, its time scaled to the 1,370,754
   boards of a triple, and its counts on those boards checked against ``pipeline.evaluate``'s.

It prints each round's ms per triple, the best of the rounds for each and their ratio, and
what the whole ``matchups-3way`` table (13,763,646 triples) would take on 2 cores at
pokerpipe's best rate (two cores run this kernel about 1.9x as fast as one).  The machine is
shared, so the rounds are interleaved and the best taken.
"""
from __future__ import annotations

import argparse
import itertools
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import load_line  # noqa: E402

from pipeline.equity.threeway import (  # noqa: E402
    BOARDS,
    THREE_WAY_CLASSES,
    canonical_triples,
    count_triples,
    format_triple,
)
from pipeline.evaluator.tables import tables  # noqa: E402

CORE_SCALING = 1.9          # two cores against one on this kernel


def run_ompeval(exe: Path, deals: list[tuple[str, str, str]]) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """``(seconds, hands (n,), winsByPlayerMask (n, 8), equity (n, 3))`` of OMPEval on ``deals``."""
    out = subprocess.run([str(exe)], input="".join(" ".join(d) + "\n" for d in deals),
                         check=True, capture_output=True, text=True).stdout.split("\n")
    rows = [line.split() for line in out if line.strip()]
    if len(rows) != len(deals):
        raise RuntimeError(f"OMPEval answered {len(rows)} of {len(deals)} deals")
    seconds = sum(float(r[0]) for r in rows)
    hands = np.array([int(r[1]) for r in rows], np.int64)
    masks = np.zeros((len(rows), 8), np.int64)
    masks[:, 1:] = [[int(x) for x in r[2:9]] for r in rows]
    equity = np.array([[float(x) for x in r[9:12]] for r in rows])
    return seconds, hands, masks, equity


def disagreements(counts: np.ndarray, hands: np.ndarray, masks: np.ndarray, equity: np.ndarray) -> list[str]:
    """Where OMPEval's results differ from pokerpipe's ``counts`` (n, 3, 3), one line per deal."""
    bad = []
    for t in range(counts.shape[0]):
        ours = counts[t]
        theirs = np.array([[masks[t, 1 << i],
                            sum(masks[t, m] for m in (3, 5, 6) if m >> i & 1),
                            masks[t, 7]] for i in range(3)])
        eq = (ours[:, 0] + ours[:, 1] / 2 + ours[:, 2] / 3) / BOARDS
        if hands[t] != BOARDS or not np.array_equal(ours, theirs) or np.abs(eq - equity[t]).max() > 1e-9:
            bad.append(f"deal {t}: boards {hands[t]}, pokerpipe {ours.tolist()} eq {eq.tolist()}, "
                       f"OMPEval {theirs.tolist()} eq {equity[t].tolist()}")
    return bad


def eval7_triple(deal: tuple[str, str, str], boards: int) -> tuple[float, np.ndarray, np.ndarray]:
    """``(seconds, counts (3, 3), cards (boards, 3, 7))``: eval7 on the deal's first ``boards`` boards (in the
    order of the combinations of the live cards), each hand's pots by number of winners."""
    import eval7

    hands = [[eval7.Card(h[i:i + 2]) for i in (0, 2)] for h in deal]
    held = {h[i:i + 2] for h in deal for i in (0, 2)}
    live = [r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in held]
    picked = list(itertools.islice(itertools.combinations(live, 5), boards))
    cards = [[eval7.Card(c) for c in b] for b in picked]
    counts = np.zeros((3, 3), np.int64)
    evaluate = eval7.evaluate
    t = time.perf_counter()
    for b in cards:
        v = [evaluate(b + h) for h in hands]
        best = max(v)
        n = v.count(best)
        for i in range(3):
            if v[i] == best:
                counts[i, n - 1] += 1
    seconds = time.perf_counter() - t
    from pipeline.core.cards import parse_cards

    ids = np.array([[parse_cards("".join(b) + h) for h in deal] for b in picked], np.uint8)
    return seconds, counts, ids


def ours_on_boards(ids: np.ndarray) -> np.ndarray:
    """pokerpipe's counts on the same boards (``pipeline.evaluate``): the check of eval7's."""
    from pipeline import evaluate

    v = evaluate(ids.reshape(-1, 7)).reshape(-1, 3)
    best = v.max(axis=1, keepdims=True)
    win = v == best
    n = win.sum(axis=1)
    return np.array([[int(np.sum(win[:, i] & (n == k))) for k in (1, 2, 3)] for i in range(3)], np.int64)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ompeval-driver", type=Path, metavar="PATH",
                    help="an executable built from benchmarks/ompeval_triples.cpp")
    ap.add_argument("--eval7-boards", type=int, default=20_000, help="boards eval7 evaluates without the driver")
    ap.add_argument("--triples", type=int, default=400)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    codes, _ = canonical_triples()
    rng = np.random.default_rng(args.seed)
    sample = np.ascontiguousarray(codes[rng.choice(codes.size, args.triples, replace=False)])
    deals = [format_triple(int(c)) for c in sample]
    T = tables()
    count_triples(codes[:1], T)                 # compile or load the kernel before timing
    n = sample.size
    print(f"{n} canonical triples of {THREE_WAY_CLASSES:,} (seed {args.seed}), each over {BOARDS:,} boards; "
          f"first: {' '.join(deals[0])}; {load_line()}")

    exe = args.ompeval_driver
    print(f"peer: OMPEval, the driver {exe}" if exe else
          f"peer: eval7 (registry; no --ompeval-driver given), on {args.eval7_boards:,} boards of the first triple")
    ours_best = theirs_best = float("inf")
    checked = 0
    bad: list[str] = []
    for r in range(args.rounds):
        line = [f"round {r + 1}:"]
        for side in ("pokerpipe", "peer") if r % 2 == 0 else ("peer", "pokerpipe"):
            if side == "pokerpipe":
                t = time.perf_counter()
                counts = count_triples(sample, T)
                ours = time.perf_counter() - t
                ours_best = min(ours_best, ours)
                line.append(f"pokerpipe {1e3 * ours / n:.3f} ms/triple")
            elif exe is not None:
                seconds, hands, masks, equity = run_ompeval(exe, deals)
                theirs = seconds / n
                line.append(f"OMPEval {1e3 * theirs:.3f} ms/triple")
            else:
                seconds, e7_counts, ids = eval7_triple(deals[0], args.eval7_boards)
                theirs = seconds * BOARDS / len(ids)
                line.append(f"eval7 {1e3 * theirs:.1f} ms/triple (scaled from {len(ids):,} boards)")
                if not np.array_equal(e7_counts, ours_on_boards(ids)):
                    bad.append(f"eval7 {e7_counts.tolist()} against pipeline.evaluate "
                               f"{ours_on_boards(ids).tolist()} on the first {len(ids):,} boards")
        theirs_best = min(theirs_best, theirs)
        if exe is not None:
            bad += disagreements(counts, hands, masks, equity)
            checked += n
        line.append(f"ratio peer/pokerpipe {theirs / (ours / n):.2f}x")
        print("  ".join(line), flush=True)

    print(f"best of {args.rounds}: pokerpipe {1e3 * ours_best / n:.3f} ms/triple (count_triples, numba, 1 thread)")
    peer = "OMPEval" if exe else "eval7"
    print(f"best of {args.rounds}: {peer:9s} {1e3 * theirs_best:.3f} ms/triple "
          + ("(EquityCalculator, exact enumeration, 1 thread)" if exe else "(evaluate per hand from Python)"))
    print(f"ratio: {peer} takes {theirs_best / (ours_best / n):.2f}x pokerpipe's time per triple")
    if bad:
        print(f"{peer} DISAGREES with pokerpipe on {len(bad)} results:")
        for b in bad[:10]:
            print("  " + b)
    elif exe is not None:
        print(f"check: OMPEval agrees on all {checked} deal results ({n} deals x {args.rounds} rounds): "
              f"sole wins, two-way and three-way ties per hand exactly, equities to 1e-9")
    else:
        print("check: eval7's counts equal pipeline.evaluate's on the same boards in every round")
    whole = THREE_WAY_CLASSES * ours_best / n / CORE_SCALING
    print(f"estimate: matchups-3way ({THREE_WAY_CLASSES:,} triples) on 2 cores at pokerpipe's best rate "
          f"({CORE_SCALING}x for 2 cores): {whole / 3600:.1f} h wall")


def table_answer() -> None:
    """``equity(["AA", "KK", "QQ"], three_way=...)`` in-process: the class-triple table's answer (the
    table holds the class triples of AA, KK and QQ only, counted here; the lookup is the same)."""
    from pipeline.core.hand_classes import CLASS_INDEX
    from pipeline.equity import equity
    from pipeline.equity.threeway import ThreeWayTable, class_triples

    codes, weights = canonical_triples()
    hands = [(codes >> s) & 4095 for s in (24, 12, 0)]
    want = [CLASS_INDEX[c] for c in ("AA", "KK", "QQ")]
    pairs = [((h >> 6) >> 2 == (h & 63) >> 2) & np.isin(12 - ((h >> 6) >> 2), [w // 14 for w in want]) for h in hands]
    keep = pairs[0] & pairs[1] & pairs[2]
    table = ThreeWayTable(*class_triples(codes[keep], weights[keep], count_triples(codes[keep], tables())))
    for players in (["AA", "KK", "QQ"], ["QQ+", "KK", "AA"]):
        equity(players, three_way=table)
        times = []
        for _ in range(20):
            t = time.perf_counter()
            r = equity(players, three_way=table)
            times.append(time.perf_counter() - t)
        print(f"equity {' '.join(players)} from the table ({r.source}): {1e3 * min(times):.3f} ms best of 20, "
              f"{1e3 * float(np.median(times)):.3f} ms median (target 5 ms)")


if __name__ == "__main__":
    main()
    table_answer()
