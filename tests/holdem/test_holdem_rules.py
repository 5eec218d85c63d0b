"""Fixed-limit rules worked by hand: blinds, reverse blinds, order, the cap, pots, odd chips, side pots, rake.

Every expected number below is worked out from the ACPC limit rules and the
seed's §2 (1 BB = 100 units), not read from the engine.
"""
import numpy as np
import pytest

from pipeline.core.cards import parse_cards
from pipeline.holdem import Table
from pipeline.holdem.engine import A_BB, A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE, A_SB
from pipeline.holdem.record import play_scripted, record


def holes(text):
    return np.array(parse_cards(text)).reshape(-1, 2)


BOARD = parse_cards("2c7d9hJs4c")


def test_blinds_and_preflop_order_three_handed():
    r = play_scripted(holes("AsAh KsKh 2d3d"), BOARD, 0, ["f", "f", ""])
    a = r.actions
    assert a[0].tolist() == [0, 1, A_SB, 50, 50]            # seat left of the button posts the small blind
    assert a[1].tolist() == [0, 2, A_BB, 100, 100]
    assert a[2, 1] == 0 and a[2, 2] == A_FOLD                # left of the big blind (here the button) acts first
    assert a[3, 1] == 1 and a[3, 2] == A_FOLD
    assert len(a) == 4                                       # the big blind never acts: everyone folded to him
    assert r.net.tolist() == [0, -50, 50]
    assert r.returned.tolist() == [0, 0, 50]                 # his uncalled half blind comes back
    assert r.last_street == 0 and not r.showdown


def test_heads_up_reverse_blinds_and_order():
    r = play_scripted(holes("AsAh KsKh"), BOARD, 1, ["", ""])
    a = r.actions
    assert a[0].tolist() == [0, 1, A_SB, 50, 50]             # the button posts the small blind ...
    assert a[1].tolist() == [0, 0, A_BB, 100, 100]
    assert a[2, 1] == 1 and a[2, 2] == A_CALL                # ... acts first preflop ...
    assert a[3, 1] == 0 and a[3, 2] == A_CHECK
    assert a[4].tolist()[:3] == [1, 0, A_CHECK]              # ... and last after the flop
    assert a[5].tolist()[:3] == [1, 1, A_CHECK]
    assert r.showdown and r.net.tolist() == [100, -100]   # seat 0 holds the aces


def test_checks_around_to_showdown():
    r = play_scripted(holes("AsAh KsKh QsQh"), BOARD, 0, ["", "", ""])
    post = r.actions[r.actions[:, 0] > 0]
    assert (post[:, 2] == A_CHECK).all() and len(post) == 9
    assert [int(x) for x in post[:3, 1]] == [1, 2, 0]       # after the flop: small blind first, button last
    assert r.net.tolist() == [200, -100, -100]


def test_four_bets_cap_each_round():
    r = play_scripted(holes("AsAh KsKh QsQh"), BOARD, 0, ["r" * 12, "r" * 12, "r" * 12])
    a = r.actions
    for street, size in enumerate((100, 100, 200, 200)):
        s = a[a[:, 0] == street]
        aggressive = np.isin(s[:, 2], (A_BET, A_RAISE)).sum()
        assert aggressive == (3 if street == 0 else 4)      # the big blind is the first preflop bet
        assert s[:, 4].max() == 4 * size
    assert r.net.tolist() == [4800, -2400, -2400]           # 4+4+8+8 big blinds each


def test_split_pot_odd_units_go_left_of_the_button():
    board = parse_cards("2c3d4h5s6c")                       # a straight on the board: everyone plays it
    r = play_scripted(holes("AhKd QhJd 9h9d TcTd"), board, 0, ["c", "f", "", "c"])
    assert r.pots.tolist() == [350]
    assert r.won.tolist() == [116, 0, 118, 116]             # 350 = 3 x 116 + 2: to seat 2, first left of the button
    assert int(r.net.sum()) == 0


def test_side_pot_with_a_short_stack():
    stacks = [150, 20000, 20000]
    # button (short, best hand) calls preflop then calls all in on the flop; the blinds bet on
    r = play_scripted(holes("AsAh KsKh QsQh"), BOARD, 0, ["c", "crrr", "cccc"], stacks=stacks)
    assert r.pots.tolist() == [450, 900]                    # main 3 x 150; side 2 x (600 - 150)
    assert r.won.tolist() == [450, 900, 0]
    assert r.net.tolist() == [300, 300, -600]
    assert r.final_stacks.tolist() == [450, 20300, 19400]


@pytest.mark.parametrize("bp, cap, rake", [(500, 100, 100), (500, 1 << 62, 360), (0, 0, 0)])
def test_rake_percentage_and_cap(bp, cap, rake):
    r = play_scripted(holes("AsAh KsKh QsQh"), BOARD, 0, ["r" * 12] * 3, rake_bp=bp, rake_cap=cap)
    assert r.rake == rake                                   # 5% of a 72 BB pot is 3.6 BB, capped at 1 BB
    assert r.net.tolist() == [4800 - rake, -2400, -2400]


def test_no_rake_without_a_flop():
    r = play_scripted(holes("AsAh KsKh 2d3d"), BOARD, 0, ["f", "f", ""], rake_bp=1000, rake_cap=1 << 62)
    assert r.rake == 0 and r.net.tolist() == [0, -50, 50]


@pytest.mark.slow
def test_chips_conserved_with_short_stacks_and_random_play():
    table = Table.make(["random", "maniac", "random", "station", "random", "tag"],
                       stack_bb=[1, 3, 200, 1.5, 7, 200], rake_percent=5, rake_cap_bb=3)
    recs = record(table, seed=11, first=0, count=20_000, duplicate=False)
    for r in recs:
        assert int(r.net.sum()) + r.rake == 0
        assert (r.final_stacks >= 0).all()
        assert int(r.pots.sum()) + r.rake == int(sum(r.actions[:, 3])) - int(r.returned.sum())
    assert sum(len(r.pots) > 1 for r in recs) > 100        # side pots were exercised


def test_chips_balance_in_every_hand_of_a_big_short_stacked_run():
    from pipeline.holdem import simulate
    r = simulate(["random", "maniac", "random", "station", "tag", "random"], hands=120_000, seed=12,
                 stack_bb=[1, 2.5, 200, 1.5, 4, 9], rake_percent=5, rake_cap_bb=3, samples=4)
    assert r.unbalanced_hands == 0 and r.rake > 0
    assert int(r.units_won.sum()) + r.rake == 0


def test_short_all_in_raise_does_not_reopen_the_betting():
    # flop: the small blind bets 1 BB, the big blind (1.5 BB left) raises all in to 1.5 BB: a raise of half a
    # bet.  The button, who has not acted, may still raise; the small blind, who has, may only call or fold.
    r = play_scripted(holes("AsAh KsKh QsQh"), BOARD, 0, ["cc", "crr", "cr"], stacks=[20000, 20000, 250])
    flop = r.actions[r.actions[:, 0] == 1]
    assert flop[:, 1:].tolist() == [[1, A_BET, 100, 100], [2, A_RAISE, 150, 150], [0, A_CALL, 150, 150],
                                     [1, A_CALL, 50, 150]]
    r = play_scripted(holes("AsAh KsKh QsQh"), BOARD, 0, ["cr", "crr", "cr"], stacks=[20000, 20000, 250])
    flop = r.actions[r.actions[:, 0] == 1]
    assert flop[2].tolist()[1:] == [0, A_RAISE, 250, 250]    # a full raise over the short one: reopened
    assert flop[3].tolist()[1:] == [1, A_RAISE, 250, 350]
