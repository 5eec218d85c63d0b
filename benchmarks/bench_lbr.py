"""Local best response: hands per second against each policy, its 95% interval, and the time of a
million hands projected from the measured rate.

    python benchmarks/bench_lbr.py [--hands 100000] [--policies tag,station] [--workers 1] [--tables DIR]

Each policy is played once to fill the process's caches (compiled kernels,
the flop and turn counts of :class:`pipeline.exploit.opponent.Memo`), then
timed over ``--hands`` with a fresh seed.  Rates are per second of wall time
and of this process's CPU (other jobs share the machine); the load average
before and after is printed beside them.  The issue's line: a million hands,
95% interval within ±25 mbb against a rule bot, in at most an hour on two cores.

The peer, measured in the same run: RLCard's heads-up limit hold'em environment (``rlcard.make('limit-holdem')``)
playing ``--peer-hands`` hands between two random agents, hands per second of wall time on one core, printed
beside each policy's rate as a ratio.  No registry package computes a local best response; RLCard's engine
deals, bets and settles the same game with no decision work at all, so it is the rate of the game alone and
the ratio says what LBR's decisions cost over it (``--peer-hands 0`` skips it).
"""
from __future__ import annotations

import argparse
import os
import time


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--warm", type=int, default=20_000, help="hands played first to fill the caches")
    ap.add_argument("--policies", default="tag,station")
    ap.add_argument("--workers", type=int, default=1, help="threads playing partitions (the kernels release the GIL)")
    ap.add_argument("--tables", default=None, help="built hand-weight tables (pokerpipe holdem-weights --out)")
    ap.add_argument("--peer-hands", type=int, default=5_000, help="hands RLCard's limit hold'em plays (0: no peer)")
    a = ap.parse_args()
    from concurrent.futures import ThreadPoolExecutor

    from pipeline.exploit import local_best_response

    weights = None
    if a.tables:
        from pipeline.datasets import HandWeightTables
        weights = HandWeightTables(a.tables)
    ex = ThreadPoolExecutor(a.workers) if a.workers > 1 else None
    print(f"load average before: {os.getloadavg()[0]:.2f}; {a.workers} worker(s), weights "
          f"{'from tables' if weights else 'counted on the spot, memoised'}")
    peer = rlcard_rate(a.peer_hands) if a.peer_hands > 0 else None
    if a.peer_hands > 0:
        print(f"peer: RLCard limit-holdem, two random agents, {a.peer_hands:,} hands, 1 core: "
              + (f"{peer:.0f} hands/s wall" if peer else "rlcard not installed (pip install rlcard)"))
    for p in a.policies.split(","):
        local_best_response(p, a.warm, seed=1, executor=ex, weights=weights)
        t, c = time.perf_counter(), time.process_time()
        r = local_best_response(p, a.hands, seed=2, executor=ex, weights=weights)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        rate = r.hands / wall
        print(f"{p:15s} {r.hands:>9,} hands {wall:7.1f} s: {rate:7.0f} hands/s wall, {r.hands / cpu:7.0f} per CPU "
              f"second; LBR {r.mbb_per_hand:8.1f} mbb/hand ±{1.96 * r.stderr:.1f} (95%); 1,000,000 hands "
              f"≈ {1e6 / rate / 60:.0f} min on {a.workers} worker(s), ±{1.96 * r.stderr * (r.hands / 1e6) ** 0.5:.1f}"
              + (f"; {rate / peer:.3f}x RLCard's hands/s" if peer else ""))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def rlcard_rate(hands: int) -> float | None:
    """Hands per second of wall time of RLCard's limit hold'em with two random agents (best of 3), or None."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("limit-holdem", config={"seed": 1})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for _ in range(hands):
            env.run(is_training=False)
        best = min(best, time.perf_counter() - t)
    return hands / best


if __name__ == "__main__":
    main()
