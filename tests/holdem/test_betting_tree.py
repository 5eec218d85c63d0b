"""The heads-up limit betting tree against the ACPC game definition, the engine and the LBR betting state.

The ACPC side is an independent reading of ``holdem.limit.2p.reverse_blinds.game``
(blinds, raise sizes, first player and raise cap per round, and ACPC's rule that
a round ends on a call once both players have acted): every betting sequence,
who acts at it and what each player has put in must be the tree's.
"""
from pathlib import Path

import numpy as np
import pytest

from pipeline.core.cards import parse_cards
from pipeline.exploit import betting
from pipeline.holdem.engine import A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE
from pipeline.holdem.record import play_scripted
from pipeline.holdem.tree import BUTTON, CHANCE, DECISION, FOLDED, SHOWDOWN, hulhe, tree_player

GAME = next((p for p in (Path(__file__).resolve().parents[2].parent / "shared", Path("/work/shared"))
             if (p / "reference").is_dir()), Path("/work/shared")) / "reference" / "holdem.limit.2p.reverse_blinds.game"


def acpc_rules(path: Path) -> dict:
    words = {}
    for line in path.read_text().splitlines():
        if "=" in line:
            key, _, value = line.partition("=")
            words[key.strip()] = [int(v) for v in value.split()]
    return words


def acpc_sequences(g: dict) -> dict:
    """Every betting sequence of the ACPC game ``g`` -> (who acts or None, what each player has put in, how it
    ends: 'decision', 'fold', 'showdown', 'street'), players numbered as the game file (0-based)."""
    out = {}
    rounds = g["numRounds"][0]
    scale = 10            # the game file's big blind is 10 chips; the engine's 100 units

    def walk(rnd, hist, spent, acts, raises, actor):
        level = max(spent)
        out[hist] = ("decision", actor, tuple(scale * s for s in spent))
        choices = (["f"] if spent[actor] < level else []) + ["c"] + (["r"] if raises < g["maxRaises"][rnd] else [])
        for ch in choices:
            s = list(spent)
            if ch == "f":
                out[hist + "f"] = ("fold", actor, tuple(scale * x for x in s))
                continue
            s[actor] = level + (g["raiseSize"][rnd] if ch == "r" else 0)
            h = hist + ch
            if ch == "c" and acts + 1 >= 2:               # a call once both have acted closes the round
                if rnd + 1 == rounds:
                    out[h] = ("showdown", None, tuple(scale * x for x in s))
                else:
                    out[h] = ("street", None, tuple(scale * x for x in s))
                    walk(rnd + 1, h + "/", s, 0, 0, g["firstPlayer"][rnd + 1] - 1)
            else:
                walk(rnd, h, s, acts + 1, raises + (ch == "r"), 1 - actor)

    walk(0, "", list(g["blind"]), 0, 0, g["firstPlayer"][0] - 1)
    return out


def tree_sequences(t) -> dict:
    name = {DECISION: "decision", FOLDED: "fold", SHOWDOWN: "showdown", CHANCE: "street"}
    out = {}
    for n in range(t.nodes):
        k = int(t.kind[n])
        out[t.history[n]] = (name[k], int(t.player[n]) if k in (DECISION, FOLDED) else None,
                             tuple(int(x) for x in t.put[n]))
    return out


def test_the_tree_is_the_acpc_game():
    assert tree_sequences(hulhe()) == acpc_sequences(acpc_rules(GAME))


def test_the_lbr_betting_state_agrees_at_every_node():
    t = hulhe()
    button = 1                              # engine seat 1 on the button: tree player == engine seat

    def walk(n, s):
        k = t.kind[n]
        if k == CHANCE:
            return walk(t.child[n, 0], s)
        if k in (FOLDED, SHOWDOWN):
            assert s[betting.S_OVER] == 1
            assert [s[betting.S_PUT0], s[betting.S_PUT1]] == t.put[n].tolist()
            if k == FOLDED:
                assert s[betting.S_FOLDED] == t.player[n]
            return 1
        assert s[betting.S_OVER] == 0 and s[betting.S_ACTOR] == t.player[n] and s[betting.S_STREET] == t.street[n]
        assert [s[betting.S_PUT0], s[betting.S_PUT1]] == t.put[n].tolist()
        leaves = 0
        for a in range(3):
            legal = betting.legal(s, s[betting.S_ACTOR], a) == a
            assert legal == (t.child[n, a] >= 0)
            if legal:
                s2 = s.copy()
                betting.act(s2, a)
                leaves += walk(t.child[n, a], s2)
        return leaves

    s = np.zeros(betting.STATE_SIZE, np.int64)
    betting.new_hand(s, button)
    assert walk(0, s) == 2 * 5103


def leaf_scripts(t, n, button):
    """The engine scripts (one per seat) that play the betting sequence of node ``n``."""
    scripts = ["", ""]
    h = t.history[n].replace("/", "")
    m = 0
    for ch in h:
        if t.kind[m] == CHANCE:
            m = t.child[m, 0]
        p = int(t.player[m])
        seat = button if p == BUTTON else 1 - button
        scripts[seat] += ch
        m = t.child[m, "fcr".index(ch)]
    return scripts


@pytest.mark.parametrize("button", [0, 1])
def test_the_engine_plays_every_preflop_sequence_and_a_sample_of_the_rest_as_the_tree(button):
    t = hulhe()
    leaves = [n for n in range(t.nodes) if t.kind[n] in (FOLDED, SHOWDOWN)]
    rng = np.random.default_rng(button)
    chosen = [n for n in leaves if t.street[n] == 0] + list(rng.choice(leaves, 150, replace=False))
    codes = {A_FOLD: "f", A_CHECK: "c", A_CALL: "c", A_BET: "r", A_RAISE: "r"}
    holes = np.array(parse_cards("AsAh KsKh")).reshape(2, 2)
    board = np.array(parse_cards("2c7d9hJs4c"))
    for n in chosen:
        r = play_scripted(holes, board, button, leaf_scripts(t, n, button))
        rows = r.actions[2:]                             # after the blinds
        played = "".join(codes[int(a[2])] for a in rows)
        assert played == t.history[n].replace("/", ""), t.history[n]
        m = 0
        for a in rows:
            if t.kind[m] == CHANCE:
                m = t.child[m, 0]
            assert tree_player(int(a[1]), button) == t.player[m] and a[0] == t.street[m]
            m = t.child[m, "fcr".index(codes[int(a[2])])]
        assert m == n
        folder = t.player[n] if t.kind[n] == FOLDED else None
        if folder is not None:                            # the folder loses what he put in
            seat = button if folder == BUTTON else 1 - button
            assert r.net[seat] == -t.put[n, folder]
        else:                                             # aces win the showdown
            assert r.net[0] == t.put[n, 0]
