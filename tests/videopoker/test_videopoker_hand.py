"""One dealt video-poker hand: every hold's exact EV against enumerating its draws."""
import json
import math
import subprocess
import sys
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from oracles.reference import rank5

from pipeline.core.cards import CardError
from pipeline.videopoker import builtin
from pipeline.videopoker.hand import analyze_hand
from pipeline.videopoker.hands import classify_family


def _job_pay(cards):
    """9/6 Jacks or Better per coin from a plain 5-card ranking (tests/reference.py)."""
    cat, *ranks = rank5(cards)
    if cat == 8 and ranks[0] == 12:
        return 800
    if cat == 1:
        return 1 if ranks[0] >= 9 else 0
    return {8: 50, 7: 25, 6: 9, 5: 6, 4: 4, 3: 3, 2: 2}.get(cat, 0)


_RNG = np.random.default_rng(20240614)
TEN_DEALS = [_RNG.choice(52, 5, replace=False).tolist() for _ in range(8)] + [
    [4 * 9 + 0, 4 * 10 + 0, 4 * 11 + 0, 4 * 12 + 0, 4 * 0 + 2],      # Jc Qc Kc Ac 2h (seed 004)
    [0, 2, 3, 4 * 2 + 2, 4 * 9 + 3],                                   # 2c 2h 2s 4h Js (seed 004)
]


@pytest.mark.parametrize("deal", TEN_DEALS)
def test_job_holds_match_plain_enumeration(deal):
    """Every hold keeping 3+ cards: the EV as an exact fraction equals the sum of the plain pays of
    all its draws over their count; the optimal hold is the largest of the 32."""
    holds = analyze_hand(builtin("jacks-or-better-9-6"), deal)
    assert len(holds) == 32 and len({h.mask for h in holds}) == 32
    rest = [c for c in range(52) if c not in deal]
    for h in holds:
        held = [c for i, c in enumerate(deal) if h.mask >> i & 1]
        assert sorted(held) == sorted(h.held)
        if len(held) < 3:
            continue
        draws = list(combinations(rest, 5 - len(held)))
        assert h.draws == len(draws) == math.comb(47, 5 - len(held))
        assert h.ev == Fraction(sum(_job_pay(held + list(d)) for d in draws), len(draws)), (deal, held)
    assert holds[0].ev == max(h.ev for h in holds)


def _brute_evs(game, deal):
    """EV of all 32 holds by listing every draw and classifying it with the family's per-hand classifier."""
    pt = builtin(game)
    deck = 53 if pt.family == "joker" else 52
    rest = np.array([c for c in range(deck) if c not in deal], np.int64)
    pays = np.array(pt.type_pay, np.int64)
    evs = {}
    for mask in range(32):
        held = [c for i, c in enumerate(deal) if mask >> i & 1]
        pick = np.array(list(combinations(range(len(rest)), 5 - len(held))), np.int64).reshape(-1, 5 - len(held)) \
            if len(held) < 5 else np.zeros((1, 0), np.int64)
        hands = np.sort(np.hstack([np.tile(np.array(held, np.int64), (len(pick), 1)), rest[pick]]), axis=1)
        types = classify_family(hands, pt.family)
        evs[mask] = Fraction(int(pays[types].sum()), len(hands))
    return evs


@pytest.mark.slow
@pytest.mark.parametrize("game, deal", [
    ("deuces-wild-full-pay", [0, 13, 26, 40, 51]),          # one deuce and four others
    ("joker-poker-kings", [52, 44, 47, 10, 20]),             # the joker, two kings
    ("double-double-bonus-9-6", [48, 49, 50, 1, 30]),        # three aces and a deuce kicker
])
def test_all_holds_every_family_against_enumeration(game, deal):
    holds = analyze_hand(builtin(game), deal)
    want = _brute_evs(game, deal)
    assert {h.mask: h.ev for h in holds} == want
    assert holds[0].ev == max(want.values())


def test_seed_004_example_hand():
    """Wizard of Odds: holding J♣Q♣K♣A♣ and throwing the 2♥ makes 1 royal, 8 flushes, 3 straights,
    12 jacks-or-better and 23 losing hands of the 47 draws."""
    best = analyze_hand(builtin("jacks-or-better-9-6"), "Jc Qc Kc Ac 2h")[0]
    assert best.hold_text == "Jc Qc Kc Ac" and best.mask == 0b01111
    assert dict(best.distribution) == {"royal-flush": 1, "flush": 8, "straight": 3, "jacks-or-better": 12,
                                       "nothing": 23}
    assert best.ev == Fraction(800 + 8 * 6 + 3 * 4 + 12, 47)


def test_cli_json():
    p = subprocess.run([sys.executable, "-m", "jobs", "videopoker", "jacks-or-better-9-6", "--hand", "Jc Qc Kc Ac 2h",
                        "--json"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["game"] == "jacks-or-better-9-6" and len(doc["holds"]) == 32
    top = doc["holds"][0]
    assert top["hold"] == "Jc Qc Kc Ac" and top["ev_fraction"] == "872/47" and top["optimal"]
    assert {"hand": "royal-flush", "combinations": 1} in top["distribution"]
    assert [h["ev"] for h in doc["holds"]] == sorted((h["ev"] for h in doc["holds"]), reverse=True)


@pytest.mark.slow
@pytest.mark.parametrize("hand", ["Jc Qc Kc Ac", "Jc Qc Kc Ac 2h 3h", "Jc Qc Kc Ac Ac", "Jc Qc Kc Ac Jk", "Zz"])
def test_bad_hand(hand):
    with pytest.raises(CardError):
        analyze_hand(builtin("jacks-or-better-9-6"), hand)
    p = subprocess.run([sys.executable, "-m", "jobs", "videopoker", "jacks-or-better-9-6", "--hand", hand],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "error" in p.stderr, p.stderr
