"""Hold'em in vector form: folds and showdowns against brute force, threads against one walk, the sampled
board's weights."""
from concurrent.futures import ThreadPoolExecutor
from math import comb

import numpy as np
import pytest

from pipeline.evaluator import evaluate
from pipeline.solver.cfr import Solver
from pipeline.solver.hulhe import FLOP_WEIGHT, RIVER_WEIGHT, TURN_WEIGHT, holding_cards, modulo_game
from pipeline.solver.vector import fold_values, showdown_values


def test_fold_and_showdown_values_equal_brute_force_with_card_removal():
    g = modulo_game(4)
    B = g.boards(0, board=np.array([0, 13, 26, 39, 51]))
    cards = holding_cards()
    rng = np.random.default_rng(0)
    r = rng.random(1326) * (B.bucket[3] >= 0)
    out = np.zeros(1326)
    cs = np.zeros((3, 52))
    showdown_values(out, r, 1.0, B.order[0], int(B.n_valid[0]), B.rank[0], cards, B.bucket[3], cs)
    board = [0, 13, 26, 39, 51]
    value = {h: int(evaluate(np.array([[*cards[h], *board]]))[0]) for h in range(1326) if B.bucket[3, h] >= 0}
    fold = np.zeros(1326)
    fold_values(fold, r, 2.0, cards, B.bucket[3], cs[0])
    for x in rng.choice(list(value), 60, replace=False):
        want = 0.0
        total = 0.0
        for y, vy in value.items():
            if set(cards[x]) & set(cards[y]):
                continue
            total += r[y]
            want += r[y] * (int(value[x] > vy) - int(value[x] < vy))
        assert np.isclose(out[x], want, rtol=1e-12, atol=1e-12)
        assert np.isclose(fold[x], 2.0 * total, rtol=1e-12)
    assert np.all(out[B.bucket[3] < 0] == 0)


def test_a_sampled_board_weighs_its_outcomes_by_their_chance_over_the_samplers():
    assert FLOP_WEIGHT == comb(52, 3) / comb(48, 3) and TURN_WEIGHT == 49 / 45 and RIVER_WEIGHT == 48 / 44
    B = modulo_game(4).boards(3, 1)
    assert (B.bucket[0] >= 0).sum() == 1326 and (B.bucket[3] >= 0).sum() == 1081 == B.n_valid[0]


@pytest.mark.slow
def test_threads_give_the_bytes_of_one_walk():
    g = modulo_game(8)
    one, two = Solver(g, seed=2), Solver(g, seed=2)
    one.run(2)
    with ThreadPoolExecutor(2) as ex:
        two.run(2, ex)
    assert one.regret.tobytes() == two.regret.tobytes() and one.avg.tobytes() == two.avg.tobytes()
    assert one.avg.sum() > 0
