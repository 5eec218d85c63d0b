"""Hands per second of the fixed-limit engine, beside rlcard's limit-holdem environment measured in the same run.

    python benchmarks/bench_holdem.py [--hands 200000] [--rlcard-hands 3000] [--weights]

Hand weights are included (the ``tag`` bots compute them).  ``--weights`` also
measures the in-kernel hand weight (default samples) against 100,000-trial
simulation on random situations per street and opponent count.
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def engine_rate(policies: list[str], hands: int) -> float:
    from pipeline.holdem import simulate
    simulate(policies, 100, seed=0)                       # compile / load caches
    t = time.perf_counter()
    r = simulate(policies, hands, seed=1)
    return r.hands / (time.perf_counter() - t)


def rlcard_rate(hands: int) -> float | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
        from rlcard.models.limitholdem_rule_models import LimitholdemRuleAgentV1
    except Exception:
        return None
    env = rlcard.make("limit-holdem", config={"seed": 0})
    env.set_agents([LimitholdemRuleAgentV1(), RandomAgent(num_actions=env.num_actions)])
    t = time.perf_counter()
    for _ in range(hands):
        env.run(is_training=False)
    return hands / (time.perf_counter() - t)


def weight_errors(situations: int, reference: int) -> None:
    from pipeline.evaluator.tables import tables
    from pipeline.holdem.handweight import DEFAULT_SAMPLES, sampled_weight
    T = tables()
    rng = np.random.default_rng(0)
    s = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    print(f"hand weight, {DEFAULT_SAMPLES} samples vs {reference:,} trials, {situations} situations each:")
    for n_board, street in ((3, "flop"), (4, "turn"), (5, "river")):
        for opp in range(1, 10):
            errs = []
            for _ in range(situations):
                c = rng.choice(52, 7, replace=False)
                ref = sampled_weight(c[0], c[1], c[2:], n_board, opp, reference, s, deck, *T)
                errs.append(sampled_weight(c[0], c[1], c[2:], n_board, opp, DEFAULT_SAMPLES, s, deck, *T) - ref)
            e = np.abs(errs)
            print(f"  {street:5s} {opp} opp: mean |error| {e.mean():.4f}  95th pct {np.quantile(e, 0.95):.4f}  "
                  f"bias {np.mean(errs):+.4f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--rlcard-hands", type=int, default=3_000)
    ap.add_argument("--weights", action="store_true")
    ap.add_argument("--situations", type=int, default=200)
    a = ap.parse_args()
    rl = rlcard_rate(a.rlcard_hands)
    hu = engine_rate(["tag", "maniac"], a.hands)
    six = engine_rate(["tag", "station", "maniac", "random", "thesis-preflop", "tag"], a.hands)
    simple = engine_rate(["random", "maniac"], a.hands)
    peer = f"{rl:,.0f} hands/s" if rl else "not installed (the issue quotes ~9,000 hands/s)"
    print(f"rlcard limit-holdem (rule agent v1 vs random): {peer}")
    for name, v in (("heads-up tag vs maniac", hu), ("6-max mixed table", six), ("heads-up random vs maniac", simple)):
        ratio = f"  ({v / rl:.1f}x rlcard)" if rl else ""
        print(f"pokerpipe {name}: {v:,.0f} hands/s on one core{ratio}")
    if a.weights:
        weight_errors(a.situations, 100_000)


if __name__ == "__main__":
    main()
