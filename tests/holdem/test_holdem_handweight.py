"""Hand weight against independent references: exact river enumeration and the preflop table's known values."""
import numpy as np
import pytest

from pipeline.core.cards import parse_cards
from pipeline.core.hand_classes import CLASS_INDEX
from pipeline.evaluator import evaluate
from pipeline.evaluator.tables import tables
from pipeline.holdem.weights import preflop_table, sampled_weight


def exact_river_share(hole, board):
    """Win share against one random hand on a full board, by enumerating the 990 hands (numpy evaluator)."""
    dead = set(hole) | set(board)
    live = [c for c in range(52) if c not in dead]
    opp = np.array([(a, b) for i, a in enumerate(live) for b in live[i + 1:]])
    mine = evaluate(np.array([hole + board]))[0]
    theirs = evaluate(np.hstack([opp, np.tile(board, (len(opp), 1))]))
    return float(((mine > theirs) + 0.5 * (mine == theirs)).mean())


@pytest.mark.parametrize("hole, board", [("AsKd", "Ah7c2d9sTh"), ("5c5d", "KhQhJh2s3c"), ("7h8h", "9h6c5d2s2h")])
def test_sampled_weight_converges_to_exact_river_share(hole, board):
    h, b = parse_cards(hole), parse_cards(board)
    rng = np.zeros(1, np.uint64)
    w = sampled_weight(h[0], h[1], np.array(b), 5, 1, 200_000, rng, np.zeros(52, np.int64), tables())
    assert abs(w - exact_river_share(h, b)) < 0.004          # 4.5 standard errors of 200,000 samples


@pytest.mark.parametrize("label, opponents, known", [("AA", 1, 0.8520), ("AA", 5, 0.4920), ("72o", 1, 0.3458),
                                                     ("KK", 1, 0.8237)])
def test_preflop_table_matches_published_equities(label, opponents, known):
    # PokerStove equities of a hand against 1 or 5 random hands (as in Sklansky's and Wizard of Odds' tables)
    assert abs(preflop_table()[CLASS_INDEX[label], opponents] - known) < 0.012


def test_default_samples_error_is_small_and_unbiased():
    rng = np.random.default_rng(4)
    T = tables()
    s = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    errs = []
    for _ in range(40):
        cards = rng.choice(52, 7, replace=False)
        ref = sampled_weight(cards[0], cards[1], cards[2:], 3, 2, 50_000, s, deck, T)
        errs.append(sampled_weight(cards[0], cards[1], cards[2:], 3, 2, 48, s, deck, T) - ref)
    errs = np.array(errs)
    assert np.abs(errs).mean() < 0.08 and abs(errs.mean()) < 0.04
