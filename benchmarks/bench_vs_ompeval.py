"""pokerpipe against OMPEval on every equity question of issue 24, and the evaluators' rates, interleaved.

    python benchmarks/bench_vs_ompeval.py OMPEVAL_DIR [--rounds 3] [--trials 2000000] [--hands 10000000]
                                          [--only NAME,NAME] [--pools 8,1000]

``OMPEVAL_DIR`` is a local copy of OMPEval's public source (https://github.com/zekyll/OMPEval: ``omp/`` and
``libdivide/``).  The script copies it to a temporary folder, applies the two fixes current compilers need
(``constexpr`` ``min()``/``max()`` in ``omp/Random.h``, ``#include <functional>`` in
``omp/EquityCalculator.h``) and builds the driver ``benchmarks/ompeval_equity.cpp`` with
``g++ -O3 -march=native``.  The driver stays open for the whole run and answers one question per line with a
fresh ``EquityCalculator`` (one thread), so no answer comes from a lookup table an earlier one filled.

Every question runs ``--rounds`` times, pokerpipe and OMPEval alternating which goes first, and the best time of
each is kept; the ratio is OMPEval's best time over pokerpipe's (above 1: pokerpipe is faster).  pokerpipe is
timed as a whole library call, ``pipeline.equity.calculator.equity(..., threads=1, table=False)`` in this
process, after one untimed call (numba's kernels loaded).  Checks, per question:

* exact: the boards counted and every player's pots by number of winners (our ``shares``, OMPEval's
  ``winsByPlayerMask`` summed by popcount) must be equal, integer for integer;
* Monte Carlo: the same number of trials; each player's equity within 4 combined standard errors of the other's
  (ours from the run, OMPEval's taken equal to ours); OMPEval stops at its hand limit in whole batches, a
  few trials past it, so Monte Carlo rows compare trials per second.

The evaluator rows time random seven-card hands (``--hands``, pokerpipe's seeded ids): ``pipeline.evaluate`` on
an int array (the public call: checks and output included), its prebuilt-hand path
(``pipeline.evaluator.hands.evaluate_keys`` on keys accumulated beforehand), against OMPEval's
``HandEvaluator`` on card arrays (a ``Hand`` built from seven ids, then evaluated) and on prebuilt ``Hand``
objects; OMPEval's values are checked to order the hands exactly as ours do.  Then the same on hands sharing
boards (``by board``: each random board with all its hole pairs in turn, what a caller of the prebuilt path
evaluates: flushes come in runs, the tables' lines stay in the cache), and on hands drawn from pools of
``--pools`` distinct hands without a flush (few table entries read again and again).  The three are
interleaved like the questions (OMPEval's driver times both of its loops in one call), best of ``--rounds`` each.

The machine is shared: quote ratios, not times, and read the load average printed at the top.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import build_ompeval_driver, random_hands  # noqa: E402

from pipeline.equity.calculator import equity  # noqa: E402

DRIVER = Path(__file__).resolve().parent / "ompeval_equity.cpp"

# (name, exact?, players, board, dead); the rows of issue 24's table, in its order
QUESTIONS = [
    ("hu-preflop", True, ["AhKh", "QsQd"], "", ""),
    ("3way-preflop", True, ["AhKh", "QsQd", "JcTc"], "", ""),
    ("4way-preflop", True, ["AhKh", "QsQd", "JcTc", "7d7s"], "", ""),
    ("mc-akh-random", False, ["AhKh", "random"], "", ""),
    ("mc-aa-3random", False, ["AA", "random", "random", "random"], "", ""),
    ("mc-aa-5random", False, ["AA", "random", "random", "random", "random", "random"], "", ""),
    ("hand-vs-range-flop", True, ["AhKh", "22+"], "Qh7h2c", ""),
    ("ranges-flop-3way", True, ["AKs,AQs", "QQ+", "JTs,T9s"], "Jh8c2d", ""),
    ("mc-ranges-3way", False, ["AK,AQ", "AK,KQ", "AQ,KQ"], "", ""),
    ("mc-ranges-6way", False, ["QQ+,AK", "TT+,AQ+", "77+,AT+,KQ", "random", "random", "random"], "", ""),
]


def build(src: Path, tmp: Path) -> Path:
    """The driver compiled against a patched copy of OMPEval's sources."""
    return build_ompeval_driver(src, tmp, DRIVER, "ompeval_equity")


class Peer:
    """The OMPEval driver, open for the run: one question per line."""

    def __init__(self, exe: Path) -> None:
        self.proc = subprocess.Popen([str(exe)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line: str, answer_lines: int = 1) -> list[str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = [self.proc.stdout.readline() for _ in range(answer_lines)]
        if not out[0]:
            raise RuntimeError(f"OMPEval stopped on: {line}")
        return out

    def equity(self, exact: bool, trials: int, players: list[str], board: str, dead: str) -> tuple:
        """``(seconds, hands, shares (P, P), equities (P,))``."""
        line = f"{'e' if exact else 'm'} {trials if not exact else '-'} {board or '-'} {dead or '-'} " \
               + " ".join(players)
        f = self.ask(line)[0].split()
        P = len(players)
        seconds, hands = float(f[0]), int(f[1])
        masks = [0] + [int(x) for x in f[2:2 + (1 << P) - 1]]
        shares = np.zeros((P, P), np.int64)
        for m in range(1, 1 << P):
            k = bin(m).count("1")
            for p in range(P):
                if m >> p & 1:
                    shares[p, k - 1] += masks[m]
        return seconds, hands, shares, np.array([float(x) for x in f[1 + (1 << P):1 + (1 << P) + P]])

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(10)


def ours(exact: bool, trials: int, players: list[str], board: str, dead: str) -> tuple:
    """``(seconds, result)`` of one pokerpipe call."""
    t = time.perf_counter()
    r = equity(players, board, dead, trials=None if exact else trials, exact=exact or None, seed=1, threads=1,
               table=False)
    return time.perf_counter() - t, r


def check(exact: bool, r, hands: int, shares: np.ndarray, eq: np.ndarray) -> str:
    """'' when both answers agree, else what differs."""
    if exact and r.boards != hands:
        return f"boards {r.boards:,} vs OMPEval's {hands:,}"
    if exact:
        mine = np.array([p.shares for p in r.players], np.int64)
        return "" if np.array_equal(mine, shares) else f"shares {mine.tolist()} vs {shares.tolist()}"
    for p, e in zip(r.players, eq):
        if abs(p.equity - e) > 4 * np.sqrt(2) * max(p.stderr, 1e-12):
            return f"equity {p.equity:.5f} ± {p.stderr:.5f} vs OMPEval's {e:.5f}"
    return ""


def interleave(rounds: int, a: Callable[[], float], b: Callable[[], float]) -> tuple[float, float]:
    """Best seconds of ``a`` and ``b`` over ``rounds``, alternating which runs first."""
    best_a = best_b = float("inf")
    for i in range(rounds):
        if i % 2 == 0:
            best_a, best_b = min(best_a, a()), min(best_b, b())
        else:
            best_b, best_a = min(best_b, b()), min(best_a, a())
    return best_a, best_b


def race(peer: Peer, rounds: int, exact: bool, trials: int, players: list[str], board: str, dead: str) -> dict:
    """Both answers to one question and the best times ``"times"`` (pokerpipe's, OMPEval's)."""
    ours(exact, min(trials, 100_000), players, board, dead)       # kernels loaded, untimed
    got: dict = {}

    def a() -> float:
        s, got["ours"] = ours(exact, trials, players, board, dead)
        return s

    def b() -> float:
        got["theirs"] = peer.equity(exact, trials, players, board, dead)
        return got["theirs"][0]

    got["times"] = interleave(rounds, a, b)
    return got


def board_hands(n: int, seed: int = 2) -> np.ndarray:
    """``n`` seven-card hands sharing boards: a seeded random board, then each of its 1,081 hole pairs in
    order (five board ids, two hole ids), board after board — the hands a board's caller evaluates."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, 7), np.uint8)
    i = 0
    while i < n:
        deck = rng.permutation(52).astype(np.uint8)
        board, rest = deck[:5], np.sort(deck[5:])
        a, b = np.triu_indices(len(rest), 1)
        m = min(len(a), n - i)
        out[i:i + m, :5] = board
        out[i:i + m, 5], out[i:i + m, 6] = rest[a[:m]], rest[b[:m]]
        i += m
    return out


def pool_hands(n: int, size: int, seed: int = 3) -> np.ndarray:
    """``n`` seven-card hands drawn at random, with repeats, from ``size`` distinct seeded random hands without
    a flush: few distinct hands read few table entries, the case that slowed ``pipeline.evaluate`` on large
    arrays until its cards were prefetched (``pipeline.evaluator.simd.PREFETCH_BYTES``)."""
    from pipeline.evaluator.hands import hand_keys
    from pipeline.evaluator.kernels import FLUSH_FLAGS

    pool = random_hands(2 * size + 64, seed=seed + size)
    pool = pool[(hand_keys(pool)[0] & FLUSH_FLAGS) == 0][:size]
    return pool[np.random.default_rng(seed).integers(0, len(pool), n)]


def evaluator_rows(peer: Peer, hands: np.ndarray, label: str, rounds: int, tmp: Path) -> None:
    from pipeline import evaluate
    from pipeline.evaluator.hands import evaluate_keys, hand_keys

    n = len(hands)
    path = tmp / "hands.bin"
    path.write_bytes(np.ascontiguousarray(hands).tobytes())
    cards = hands                               # uint8 card ids: the evaluator reads them without a copy
    evaluate(cards[:10])
    keys, suited = hand_keys(cards)
    evaluate_keys(keys[:10], suited[:10])
    theirs = {k: float("inf") for k in ("arrays", "prebuilt", "cpu arrays", "cpu prebuilt")}
    out = peer.ask(f"v {path} {n}", n + 1)          # OMPEval's values, once (printing them is slow)
    values = np.array([int(x) for x in out[1:]], np.int64)

    def peer_run() -> None:
        a, p, _, ca, cp = peer.ask(f"t {path} {n}")[0].split()
        for k, v in (("arrays", a), ("prebuilt", p), ("cpu arrays", ca), ("cpu prebuilt", cp)):
            theirs[k] = min(theirs[k], float(v))

    best = {k: float("inf") for k in theirs}

    def timed(name: str, run: Callable[[], object]) -> None:
        t, c = time.perf_counter(), time.thread_time()
        run()
        best[name] = min(best[name], time.perf_counter() - t)
        best["cpu " + name] = min(best["cpu " + name], time.thread_time() - c)

    # into arrays written once before, as OMPEval's driver writes into its vector made before its timer starts
    # (a new 20 MB array costs its page faults, a fifth of the batch's time here)
    into = np.zeros(n, np.int32)

    def ours_api() -> None:
        timed("arrays", lambda: evaluate(cards, out=into))

    def ours_keys() -> None:
        timed("prebuilt", lambda: evaluate_keys(keys, suited, into))

    for i in range(rounds):         # interleaved, each side first in turn
        for run in ((peer_run, ours_api, ours_keys) if i % 2 == 0 else (ours_keys, ours_api, peer_run)):
            run()
    mine = evaluate(cards)
    order_ok = _same_order(mine, values) and _same_order(evaluate_keys(keys, suited), values)
    for key, name, what in (("arrays", f"evaluate, {label}", "card arrays"),
                            ("prebuilt", f"prebuilt, {label}", "Hand objects")):
        cpu = "cpu " + key
        print(f"{name:24s} pokerpipe {n / best[key] / 1e6:7.1f} M/s   OMPEval {what:12s} "
              f"{n / theirs[key] / 1e6:7.1f} M/s   {theirs[key] / best[key]:5.2f}x   (CPU time: "
              f"{n / best[cpu] / 1e6:.1f} vs {n / theirs[cpu] / 1e6:.1f} M/s, {theirs[cpu] / best[cpu]:.2f}x)"
              + (f"   {'same order' if order_ok else 'ORDER DIFFERS'}" if key == "arrays" else ""))


def _same_order(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` rank the hands identically (equal where equal, less where less)."""
    order = np.lexsort((b, a))
    x, y = a[order], b[order]
    return bool(np.all((np.diff(x) == 0) == (np.diff(y) == 0)) and np.all(np.diff(y)[np.diff(x) > 0] > 0))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ompeval_dir", type=Path, help="a copy of OMPEval's source (omp/, libdivide/)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=2_000_000, help="Monte Carlo trials per question")
    ap.add_argument("--hands", type=int, default=10_000_000, help="hands for the evaluator rows")
    ap.add_argument("--only", default="", help="comma-separated question names (and/or 'evaluator')")
    ap.add_argument("--pools", default="8,1000",
                    help="evaluator rows also on hands drawn from pools of these many distinct hands ('' for none)")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.rounds} rounds, best of each; "
          f"ratio = OMPEval's time / pokerpipe's (>1: pokerpipe faster)")
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        t = time.perf_counter()
        exe = build(args.ompeval_dir, tmp)
        print(f"OMPEval driver built in {time.perf_counter() - t:.0f} s (g++ -O3 -march=native)")
        peer = Peer(exe)
        failed = []
        for name, exact, players, board, dead in QUESTIONS:
            if only and name not in only:
                continue
            got = race(peer, args.rounds, exact, args.trials, players, board, dead)
            mine, theirs = got["times"]
            _, hands, shares, eq = got["theirs"]
            problem = check(exact, got["ours"], hands, shares, eq)
            if problem:
                failed.append(name)
            what = "exact" if exact else f"MC {args.trials:,}"
            # Monte Carlo: OMPEval stops at its hand limit in whole batches (a few more trials): compare rates
            ratio = theirs / mine if exact else (args.trials / mine) / (hands / theirs)
            rate = "" if exact else f"  ({args.trials / mine / 1e6:.1f} vs {hands / theirs / 1e6:.1f} M trials/s)"
            print(f"{name:24s} {what:>12s}  pokerpipe {mine * 1e3:9.3f} ms  OMPEval {theirs * 1e3:9.3f} ms  "
                  f"{ratio:5.2f}x{rate}  {' '.join(players)}{' on ' + board if board else ''}"
                  f"  {'equal' if not problem and exact else ('agree' if not problem else 'DIFFER: ' + problem)}")
        if not only or "evaluator" in only:
            evaluator_rows(peer, random_hands(args.hands), "random", args.rounds, tmp)
            evaluator_rows(peer, board_hands(args.hands), "by board", args.rounds, tmp)
            for size in (int(p) for p in args.pools.split(",") if p):
                evaluator_rows(peer, pool_hands(args.hands, size), f"pool of {size:,}", args.rounds, tmp)
        peer.close()
    if failed:
        sys.exit(f"answers differ: {', '.join(failed)}")


if __name__ == "__main__":
    main()
