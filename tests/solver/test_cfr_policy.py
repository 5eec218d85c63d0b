"""``cfr:DIR`` in the engine and in LBR: a solved strategy that folds to every bet is the ``fold`` policy,
one that always raises is the ``maniac`` — the engine finds each decision's row by following the hand down
the betting tree, so a wrong node would pick another row's answers."""
import numpy as np
import pytest

from pipeline.batch.storage import Storage
from pipeline.datasets.solve import Checkpoint, SolveError, resolve_policy, write_outputs
from pipeline.exploit import local_best_response
from pipeline.holdem import simulate
from pipeline.solver.cfr import Solver
from pipeline.solver.hulhe import HULHE, ModuloBuckets

K = 2


def solved(folder, answer):
    """A hold'em solve folder whose average strategy plays ``answer(legal)`` at every row."""
    game = HULHE(K, ModuloBuckets(K))
    s = Solver(game)
    for n in np.flatnonzero(game.arrays.row_base >= 0):
        legal = game.tree.child[n] >= 0
        base = game.arrays.row_base[n]
        s.avg[base:base + game.street_rows[int(game.tree.street[n])]] = answer(legal)
    write_outputs(Storage.open(folder), {"seed": 0, "k": K, "abstraction": "modulo"}, s, Checkpoint(1), None)
    return resolve_policy(f"cfr:{folder}")


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("solves")


@pytest.mark.slow
def test_a_strategy_that_folds_to_every_bet_is_the_fold_policy(folder):
    cfr = solved(folder / "fold", lambda legal: [1.0, 0.0, 0.0] if legal[0] else [0.0, 1.0, 0.0])
    a = simulate([cfr, "rlcard-v1"], 4_000, seed=3)      # opponents that draw nothing from the action stream
    b = simulate(["fold", "rlcard-v1"], 4_000, seed=3)
    assert a.units_won.tolist() == b.units_won.tolist()
    r = local_best_response(cfr, hands=200, seed=1)
    assert r.mbb_per_hand == 750.0 and r.range_resets == 0


@pytest.mark.slow
def test_a_strategy_that_always_raises_is_the_maniac(folder):
    cfr = solved(folder / "raise", lambda legal: [0.0, 0.0, 1.0] if legal[2] else [0.0, 1.0, 0.0])
    a = simulate([cfr, "rlcard-v1"], 4_000, seed=5)
    b = simulate(["maniac", "rlcard-v1"], 4_000, seed=5)
    assert a.units_won.tolist() == b.units_won.tolist()


def test_a_folder_without_a_solve_is_one_line(tmp_path):
    with pytest.raises(SolveError, match="no finished solve"):
        resolve_policy(f"cfr:{tmp_path}")


def test_the_leaderboard_takes_a_solved_strategy(folder):
    from pipeline.datasets import dataset
    from pipeline.exploit.lbr import lbr_table

    name = solved(folder / "board", lambda legal: [0.0, 1.0, 0.0]).name
    d = dataset("exploitability", hands=2, player=name)
    assert d.policies()[-1] == name and d.params["player"] == name
    assert lbr_table(resolve_policy(d.policies()[-1])).names[1] == name
