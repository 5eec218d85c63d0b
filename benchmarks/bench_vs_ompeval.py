"""pokerpipe beside a peer on every equity question of issue 24 and the evaluators' rates, interleaved.

    python benchmarks/bench_vs_ompeval.py [--ompeval-driver PATH ...] [--simd PATH[,PATH]] [--rounds 3]
                                          [--trials 2000000] [--hands 10000000] [--only NAME,NAME] [--pools 8,1000]

The peer is OMPEval (https://github.com/zekyll/OMPEval, C++) when ``--ompeval-driver`` names an executable the
user built from ``benchmarks/ompeval_equity.cpp``, our driver of OMPEval's library (pokerpipe ships neither
OMPEval nor a way to build it; the figures we measured against it are in docs/measured.md).  The driver stays
open for the whole run and answers one question per line with a fresh ``EquityCalculator`` (one thread), so no
answer comes from a lookup table an earlier one filled.  Without it the peer is eval7, from the registry
(``pip install eval7``): its Monte Carlo on the heads-up questions (as many trials as the exact rows' boards)
and its ``evaluate`` called per hand from Python on the first ``--eval7-hands`` hands of the evaluator rows.

``--simd`` picks pokerpipe's vector path (``POKERPIPE_SIMD``, :mod:`pipeline.core.cpu`; default the best the
CPU has) and the run prints it.  ``--simd avx2`` on a CPU with AVX-512 also compiles every numba kernel for
``x86-64-v3`` (``NUMBA_CPU_NAME``), so that no AVX-512 instruction runs anywhere: what an AVX2-only CPU runs,
to set beside an OMPEval driver built for that level too.  Several paths (``--simd avx512,avx2``) run one after
the other, each in a process of its own, the n-th ``--ompeval-driver`` going with the n-th path.

Every question runs ``--rounds`` times, pokerpipe and the peer alternating which goes first, and the best time
of each is kept; the ratio is the peer's best time over pokerpipe's (above 1: pokerpipe is faster).  pokerpipe
is timed as a whole library call, ``pipeline.equity.calculator.equity(..., threads=1, table=False)`` in this
process, after one untimed call (numba's kernels loaded).  Checks, per question:

* exact: the boards counted and every player's pots by number of winners (our ``shares``, OMPEval's
  ``winsByPlayerMask`` summed by popcount) must be equal, integer for integer;
* Monte Carlo: the same number of trials; each player's equity within 4 combined standard errors of the other's
  (ours from the run, the peer's taken equal to ours); OMPEval stops at its hand limit in whole batches, a
  few trials past it, so Monte Carlo rows compare trials per second.

The evaluator rows time random seven-card hands (``--hands``, pokerpipe's seeded ids): ``pipeline.evaluate`` on
an int array (the public call: checks and output included), its prebuilt-hand path
(``pipeline.evaluator.hands.evaluate_keys`` on keys accumulated beforehand), against OMPEval's
``HandEvaluator`` on card arrays (a ``Hand`` built from seven ids, then evaluated) and on prebuilt ``Hand``
objects; the peer's values are checked to order the hands exactly as ours do.  Then the same on hands sharing
boards (``by board``: each random board with all its hole pairs in turn, what a caller of the prebuilt path
evaluates: flushes come in runs, the tables' lines stay in the cache), and on hands drawn from pools of
``--pools`` distinct hands without a flush (few table entries read again and again).  The three are
interleaved like the questions (OMPEval's driver times both of its loops in one call), best of ``--rounds`` each.

The machine may be shared: quote ratios, not times, and read the load average printed at the top (and at
the end).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, Optional

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import ALL_CLASSES, cpu_line, interleave, load_line, random_hands  # noqa: E402

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
X86_64_V3 = {"NUMBA_CPU_NAME": "x86-64-v3", "NUMBA_CPU_FEATURES": "+avx2"}


class OMPEval:
    """The OMPEval driver, open for the run: one question per line (``benchmarks/ompeval_equity.cpp``)."""

    name = "OMPEval"
    arrays, prebuilt = "card arrays", "Hand objects"

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

    def answers(self, exact: bool, players: list[str]) -> bool:
        return True

    def equity(self, exact: bool, trials: int, players: list[str], board: str, dead: str) -> tuple:
        """``((seconds, CPU seconds), hands, shares (P, P), equities (P,))``."""
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
        return (seconds, float(f[-1])), hands, shares, np.array([float(x) for x in f[1 + (1 << P):1 + (1 << P) + P]])

    def load_hands(self, hands: np.ndarray, path: Path) -> np.ndarray:
        """Hand the driver the hands (a file); OMPEval's values of them."""
        self.n, self.path = len(hands), path
        path.write_bytes(np.ascontiguousarray(hands).tobytes())
        out = self.ask(f"v {path} {self.n}", self.n + 1)          # its values, once (printing them is slow)
        return np.array([int(x) for x in out[1:]], np.int64)

    def time_hands(self) -> tuple[tuple, tuple, int]:
        """(Wall, CPU) seconds of its card arrays and of its prebuilt ``Hand`` objects, on how many hands."""
        a, p, _, ca, cp = (float(x) for x in self.ask(f"t {self.path} {self.n}")[0].split())
        return (a, ca), (p, cp), self.n

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(10)


class Eval7:
    """eval7, from the registry: Monte Carlo heads-up (hand against a range) and ``evaluate`` per hand."""

    name = "eval7"
    arrays = prebuilt = "per hand (Py)"

    def __init__(self, hands: int) -> None:
        import eval7

        self.e7, self.limit = eval7, hands
        self.deck = [eval7.Card("23456789TJQKA"[c >> 2] + "cdhs"[c & 3]) for c in range(52)]

    def answers(self, exact: bool, players: list[str]) -> bool:
        return len(players) == 2 and len(players[0]) == 4 and "," not in players[0]

    def equity(self, exact: bool, trials: int, players: list[str], board: str, dead: str) -> tuple:
        """Monte Carlo (``trials`` of them: the boards, for an exact question): ``((seconds, CPU seconds), trials,
        None, equities (2,))``."""
        hero = [self.e7.Card(players[0][i:i + 2]) for i in (0, 2)]
        villain = self.e7.HandRange(ALL_CLASSES if players[1] == "random" else players[1])
        cards = [self.e7.Card(board[i:i + 2]) for i in range(0, len(board), 2)]
        t, c = time.perf_counter(), time.process_time()
        e = self.e7.py_hand_vs_range_monte_carlo(hero, villain, cards, trials)
        return (time.perf_counter() - t, time.process_time() - c), trials, None, np.array([e, 1 - e])

    def load_hands(self, hands: np.ndarray, path: Path) -> np.ndarray:
        self.rows = [[self.deck[c] for c in row] for row in hands[:self.limit].tolist()]
        return np.array([self.e7.evaluate(r) for r in self.rows], np.int64)

    def time_hands(self) -> tuple[tuple, tuple, int]:
        evaluate = self.e7.evaluate
        t, c = time.perf_counter(), time.thread_time()
        for r in self.rows:
            evaluate(r)
        s = (time.perf_counter() - t, time.thread_time() - c)
        return s, s, len(self.rows)

    def close(self) -> None:
        pass


def ours(exact: bool, trials: int, players: list[str], board: str, dead: str) -> tuple:
    """``((seconds, CPU seconds), result)`` of one pokerpipe call."""
    from pipeline.equity.calculator import equity

    t, c = time.perf_counter(), time.process_time()
    r = equity(players, board, dead, trials=None if exact else trials, exact=exact or None, seed=1, threads=1,
               table=False)
    return (time.perf_counter() - t, time.process_time() - c), r


def check(exact: bool, r, hands: int, shares: Optional[np.ndarray], eq: np.ndarray) -> str:
    """'' when both answers agree, else what differs (a peer's Monte Carlo beside an exact row: its equities)."""
    if exact and shares is not None and r.boards != hands:
        return f"boards {r.boards:,} vs the peer's {hands:,}"
    if exact and shares is not None:
        mine = np.array([p.shares for p in r.players], np.int64)
        return "" if np.array_equal(mine, shares) else f"shares {mine.tolist()} vs {shares.tolist()}"
    for p, e in zip(r.players, eq):
        sigma = p.stderr if not exact else np.sqrt(max(p.equity * (1 - p.equity), 1e-12) / hands)
        if abs(p.equity - e) > 4 * np.sqrt(2) * max(sigma, 1e-12):
            return f"equity {p.equity:.5f} ± {sigma:.5f} vs the peer's {e:.5f}"
    return ""


def question_row(peer, rounds: int, trials: int, name: str, exact: bool, players: list[str], board: str,
                 dead: str) -> bool:
    """Race one question, print its row; whether the answers agree."""
    ours(exact, min(trials, 100_000), players, board, dead)       # kernels loaded, untimed
    what = "exact" if exact else f"MC {trials:,}"
    where = f"{' '.join(players)}{' on ' + board if board else ''}"
    if not peer.answers(exact, players):
        best = min(ours(exact, trials, players, board, dead)[0][0] for _ in range(rounds))
        print(f"{name:24s} {what:>12s}  pokerpipe {best * 1e3:9.3f} ms  ({peer.name} answers no such question)  "
              f"{where}")
        return True
    got: dict = {}
    n = trials if not exact else ours(exact, trials, players, board, dead)[1].boards   # eval7: as many trials

    def a() -> tuple:
        s, got["ours"] = ours(exact, trials, players, board, dead)
        return s

    def b() -> tuple:
        got["theirs"] = peer.equity(exact, n, players, board, dead)
        return got["theirs"][0]

    (mine, mine_cpu), (theirs, theirs_cpu) = interleave(rounds, a, b)
    _, hands, shares, eq = got["theirs"]
    problem = check(exact, got["ours"], hands, shares, eq)
    # Monte Carlo: OMPEval stops at its hand limit in whole batches (a few more trials): compare rates
    scale = 1.0 if exact else trials / hands
    ratio, ratio_cpu = scale * theirs / mine, scale * theirs_cpu / mine_cpu
    rate = "" if exact else f"  ({trials / mine / 1e6:.1f} vs {hands / theirs / 1e6:.1f} M trials/s)"
    peer_what = f"{peer.name}" + (" MC" if exact and shares is None else "")
    verdict = "DIFFER: " + problem if problem else ("equal" if exact and shares is not None else "agree")
    print(f"{name:24s} {what:>12s}  pokerpipe {mine * 1e3:9.3f} ms  {peer_what} {theirs * 1e3:9.3f} ms  "
          f"{ratio:5.2f}x (CPU time {ratio_cpu:5.2f}x){rate}  {where}  {verdict}", flush=True)
    return not problem


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
    arrays until its cards were prefetched (``pipeline.evaluator.intrinsics.PREFETCH_BYTES``)."""
    from pipeline.evaluator.hands import hand_keys
    from pipeline.evaluator.kernels import FLUSH_FLAGS

    pool = random_hands(2 * size + 64, seed=seed + size)
    pool = pool[(hand_keys(pool)[0] & FLUSH_FLAGS) == 0][:size]
    return pool[np.random.default_rng(seed).integers(0, len(pool), n)]


def evaluator_rows(peer, hands: np.ndarray, label: str, rounds: int, tmp: Path) -> bool:
    """Race the evaluators on ``hands``, print two rows; whether the peer orders the hands as we do."""
    from pipeline import evaluate
    from pipeline.evaluator.hands import evaluate_keys, hand_keys

    n = len(hands)
    cards = hands                               # uint8 card ids: the evaluator reads them without a copy
    evaluate(cards[:10])
    keys, suited = hand_keys(cards)
    evaluate_keys(keys[:10], suited[:10])
    values = peer.load_hands(hands, tmp / "hands.bin")
    inf = float("inf")
    theirs = {"arrays": (inf, inf), "prebuilt": (inf, inf)}         # (wall, CPU) seconds a hand

    def peer_run() -> None:
        a, p, m = peer.time_hands()
        for key, got in (("arrays", a), ("prebuilt", p)):
            theirs[key] = (min(theirs[key][0], got[0] / m), min(theirs[key][1], got[1] / m))

    best = dict(theirs)

    def timed(name: str, run: Callable[[], object]) -> None:
        t, c = time.perf_counter(), time.thread_time()
        run()
        wall, cpu = (time.perf_counter() - t) / n, (time.thread_time() - c) / n
        best[name] = (min(best[name][0], wall), min(best[name][1], cpu))

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
    m = len(values)
    order_ok = _same_order(evaluate(cards[:m]), values) and _same_order(evaluate_keys(keys[:m], suited[:m]), values)
    for key, name, what in (("arrays", f"evaluate, {label}", peer.arrays), ("prebuilt", f"prebuilt, {label}",
                                                                           peer.prebuilt)):
        (mine, mine_cpu), (peer_s, peer_cpu) = best[key], theirs[key]
        print(f"{name:24s} pokerpipe {1 / mine / 1e6:7.1f} M/s   {peer.name} {what:13s} "
              f"{1 / peer_s / 1e6:7.1f} M/s   {peer_s / mine:6.2f}x (CPU time {peer_cpu / mine_cpu:5.2f}x)"
              + (f"   {'same order' if order_ok else 'ORDER DIFFERS'}" if key == "arrays" else ""), flush=True)
    return order_ok


def _same_order(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether ``a`` and ``b`` rank the hands identically (equal where equal, less where less)."""
    order = np.lexsort((b, a))
    x, y = a[order], b[order]
    return bool(np.all((np.diff(x) == 0) == (np.diff(y) == 0)) and np.all(np.diff(y)[np.diff(x) > 0] > 0))


def target_env(path: str) -> dict[str, str]:
    """The environment that runs ``path``: ``POKERPIPE_SIMD``, and for ``avx2`` on a CPU with AVX-512 (unless
    the user set ``NUMBA_CPU_NAME``) numba's target ``x86-64-v3``: no AVX-512 instruction in any kernel."""
    import llvmlite.binding as llvm

    env = {"POKERPIPE_SIMD": path} if path else {}
    if path == "avx2" and "NUMBA_CPU_NAME" not in os.environ and llvm.get_host_cpu_features().get("avx512f"):
        env.update(X86_64_V3)
    return env


def run_paths(args: argparse.Namespace, paths: list[str]) -> None:
    """Each path in a process of its own (numba reads its target once), its own driver beside it."""
    drivers = args.ompeval_driver or []
    if len(drivers) > 1 and len(drivers) != len(paths):
        sys.exit(f"{len(paths)} paths and {len(drivers)} OMPEval drivers: give one driver, or one per path")
    failed = False
    for i, path in enumerate(paths):
        argv = [sys.executable, __file__, "--simd", path, *_passed_on(args)]
        if drivers:
            argv += ["--ompeval-driver", str(drivers[i if len(drivers) > 1 else 0])]
        print(f"\n=== {path} ===", flush=True)
        failed |= subprocess.run(argv, env={**os.environ, **target_env(path)}).returncode != 0
    if failed:
        sys.exit("a path's run failed")


def _passed_on(args: argparse.Namespace) -> list[str]:
    return ["--rounds", str(args.rounds), "--trials", str(args.trials), "--hands", str(args.hands), "--only",
            args.only, "--pools", args.pools, "--eval7-hands", str(args.eval7_hands)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--ompeval-driver", type=Path, action="append", metavar="PATH",
                    help="an executable built from benchmarks/ompeval_equity.cpp (once per --simd path, or once)")
    ap.add_argument("--simd", default="", help="pokerpipe's path(s): avx512, avx2, scalar, comma-separated "
                    "(default: the best this CPU has)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--trials", type=int, default=2_000_000, help="Monte Carlo trials per question")
    ap.add_argument("--hands", type=int, default=10_000_000, help="hands for the evaluator rows")
    ap.add_argument("--eval7-hands", type=int, default=200_000, help="of them, eval7's (evaluated from Python)")
    ap.add_argument("--only", default="", help="comma-separated question names (and/or 'evaluator')")
    ap.add_argument("--pools", default="8,1000",
                    help="evaluator rows also on hands drawn from pools of these many distinct hands ('' for none)")
    args = ap.parse_args()
    paths = [p.strip() for p in args.simd.split(",") if p.strip()]
    if len(paths) > 1:
        return run_paths(args, paths)
    for name, value in target_env(paths[0] if paths else "").items():     # before numba is imported: it reads
        if name == "POKERPIPE_SIMD" or name not in os.environ:            # its target once; --simd wins
            os.environ[name] = value
    from pipeline.core.cpu import SimdError, simd_path, target_cpu

    try:
        path = simd_path()
    except SimdError as e:
        sys.exit(str(e))
    only = set(filter(None, args.only.split(",")))
    print(f"{load_line()}; {args.rounds} rounds, best of each; ratio = the peer's time / pokerpipe's "
          f"(>1: pokerpipe faster)")
    print(cpu_line())
    name, features = target_cpu()
    print(f"pokerpipe's path: {path} (numba's target {name}, AVX-512 "
          f"{'allowed' if 'avx512f' in features else 'in no kernel'})")
    if args.ompeval_driver:
        if len(args.ompeval_driver) > 1:
            sys.exit("one --ompeval-driver per run of one path")
        peer = OMPEval(args.ompeval_driver[0])
        print(f"peer: OMPEval, the driver {args.ompeval_driver[0]}")
    else:
        peer = Eval7(args.eval7_hands)
        print("peer: eval7 (registry; no --ompeval-driver given): its Monte Carlo on the heads-up questions, "
              f"its evaluate per hand from Python on {args.eval7_hands:,} of the hands")
    failed = []
    for name, exact, players, board, dead in QUESTIONS:
        if not only or name in only:
            if not question_row(peer, args.rounds, args.trials, name, exact, players, board, dead):
                failed.append(name)
    if not only or "evaluator" in only:
        import tempfile

        with tempfile.TemporaryDirectory() as tmpdir:
            tmp = Path(tmpdir)
            rows = [(random_hands(args.hands), "random"), (board_hands(args.hands), "by board")]
            rows += [(pool_hands(args.hands, int(p)), f"pool of {int(p):,}") for p in args.pools.split(",") if p]
            for hands, label in rows:
                if not evaluator_rows(peer, hands, label, args.rounds, tmp):
                    failed.append(f"evaluator {label}")
    peer.close()
    print(load_line())
    if failed:
        sys.exit(f"answers differ: {', '.join(failed)}")


if __name__ == "__main__":
    main()
