"""Leduc hold'em: pokerpipe's CFR+ against OpenSpiel's ``CFRPlusSolver`` iteration for iteration.

OpenSpiel (PyPI ``open-spiel``, the test extra) runs live for the first 10
iterations: its exploitability and its average policy at every information set
must equal ours within 1e-9.  After 100 and 1,000 iterations the figures are
OpenSpiel's own (open-spiel 2.0.2, recorded: 1,000 of its iterations take
minutes).  The solve walks Leduc history by history in OpenSpiel's order
(:mod:`pipeline.solver.histories`); the vector walk, which hold'em uses, is
checked against it for the first iterations (regret matching+ makes rounding
differences grow about tenfold every 25 iterations, docs/solver.md).
"""
import numpy as np
import pytest

from pipeline.solver.cfr import Solver, average_policy
from pipeline.solver.leduc import Leduc, leduc

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr as os_cfr  # noqa: E402
from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: E402

# OpenSpiel 2.0.2, CFRPlusSolver on leduc_poker, exploitability(game, average_policy()) after N iterations
OPENSPIEL = {100: 0.013415994970897835, 1000: 0.0002571516161564563}


def our_row(game, info_state: str) -> int:
    """The row of an OpenSpiel information state string of leduc_poker."""
    fields = dict(part.split(":", 1) for part in info_state.strip("[]").split("][") if ":" in part)
    card = int(fields["Private"])
    hist = "".join("fcr"[int(a)] for a in fields["Round1"].split())
    t = game.tree
    if fields.get("Public", "").strip():
        c = int(fields["Public"])
        hist += "/" + "".join("fcr"[int(a)] for a in fields["Round2"].split())
        return int(game.arrays.row_base[t.follow(hist)] + card * 6 + c)
    return int(game.arrays.row_base[t.follow(hist)] + card)


def test_ten_iterations_equal_openspiel_exploitability_and_policy():
    g = pyspiel.load_game("leduc_poker")
    theirs = os_cfr.CFRPlusSolver(g)
    ours = Solver(leduc())
    for n in range(1, 11):
        theirs.evaluate_and_update_policy()
        ours.run(1)
        if n in (1, 10):
            assert ours.exploitability() == pytest.approx(
                os_exploitability.exploitability(g, theirs.average_policy()), abs=1e-9)
    pol = theirs.average_policy()
    checked = 0
    for state, i in pol.state_lookup.items():
        row = our_row(leduc(), state)
        probs = pol.action_probability_array[i]
        legal_here = leduc().tree.child[_node_of_row(row)] >= 0
        mine_row = average_policy(ours.avg[row:row + 1], legal_here[None, :].astype(float))[0]
        assert np.allclose(mine_row, probs, atol=1e-9), state
        checked += 1
    assert checked == 936


def _node_of_row(row: int) -> int:
    base = leduc().arrays.row_base
    nodes = np.flatnonzero(base >= 0)
    return int(nodes[np.searchsorted(base[nodes], row, side="right") - 1])


def test_a_hundred_and_a_thousand_iterations_equal_openspiel():
    s = Solver(leduc())
    for n in (100, 1000):
        s.run(n - s.t)
        assert s.exploitability() == pytest.approx(OPENSPIEL[n], abs=1e-9)


@pytest.mark.slow
def test_the_vector_walk_is_the_same_iteration():
    vector = Solver(Leduc(walk="vector"))
    histories = Solver(leduc())
    legal = np.ones((leduc().rows, 3))
    for _ in range(20):
        vector.run(1)
        histories.run(1)
        assert np.allclose(average_policy(vector.avg, legal), average_policy(histories.avg, legal), atol=1e-9)
        assert vector.exploitability() == pytest.approx(histories.exploitability(), abs=1e-9)


def test_the_best_response_equals_openspiel_on_the_uniform_policy():
    g = pyspiel.load_game("leduc_poker")
    s = Solver(leduc())          # nothing added to the average: uniform everywhere, as OpenSpiel's uniform policy
    assert s.exploitability() == pytest.approx(
        os_exploitability.exploitability(g, os_policy.UniformRandomPolicy(g)), abs=1e-12)
