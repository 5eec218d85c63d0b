"""The EHS tables against the single-situation enumeration, the AAAI-98 example and the situation index."""
import subprocess
import sys

import numpy as np
import pyarrow.dataset as ds
import pytest
from numba import njit

from pipeline.core.cards import parse_cards
from pipeline.isomorphism.boards import canonical_boards
from pipeline.isomorphism.situations import block_table, situation_index, situation_index_nb, street_size
from pipeline.strength.hand_strength import hand_strength
from pipeline.strength.street import POTENTIAL_COLUMNS, street_rows

OPPONENTS = {"flop": 1081, "turn": 1035, "river": 990}     # C(47, 2), C(46, 2), C(45, 2)
RUNOUTS = {"flop": 990, "turn": 44}                        # runouts left beside hole and opponent


def table(tmp_path_factory, street, limit):
    out = tmp_path_factory.mktemp(street)
    p = subprocess.run([sys.executable, "-m", "jobs", "ehs-table", "--street", street, "--limit", str(limit),
                        "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stderr
    return ds.dataset(out / "ehs-table" / street, format="parquet").to_table().to_pandas()


@pytest.fixture(scope="module")
def river(tmp_path_factory):
    return table(tmp_path_factory, "river", 1200)


@pytest.fixture(scope="module")
def turn(tmp_path_factory):
    return table(tmp_path_factory, "turn", 150)


@pytest.fixture(scope="module")
def flop(tmp_path_factory):
    return table(tmp_path_factory, "flop", 8)


@pytest.mark.slow
def test_river_rows_equal_single_situation(river):
    assert river["index"].is_unique and len(river) > 1_000_000
    for _, r in river.sample(40, random_state=2).iterrows():
        h = hand_strength(r.hole, r.board)
        assert (r.ahead, r.tied, r.behind) == (h.ahead, h.tied, h.behind)
        assert r.hs == h.hs and r.ehs == h.hs and r.ppot == r.npot == 0


@pytest.mark.slow
@pytest.mark.parametrize("street,sample", [("flop", 25), ("turn", 60)])
def test_rows_equal_single_situation(street, sample, request):
    rows = request.getfixturevalue(street)
    assert rows["index"].is_unique
    for _, r in rows.sample(sample, random_state=4).iterrows():
        h = hand_strength(r.hole, r.board)
        assert (r.ahead, r.tied, r.behind) == (h.ahead, h.tied, h.behind)
        assert [r[c] for c in POTENTIAL_COLUMNS] == [x for row in h.potential for x in row]
        assert (r.hs, r.ppot, r.npot, r.ehs) == (h.hs, h.ppot, h.npot, h.ehs)


@pytest.mark.slow
@pytest.mark.parametrize("street", ["flop", "turn", "river"])
def test_index_column_is_situation_index(street, request):
    rows = request.getfixturevalue(street)
    assert all(situation_index(r.hole, r.board) == r["index"] for _, r in rows.sample(300, random_state=3).iterrows())
    assert (rows.ahead + rows.tied + rows.behind == OPPONENTS[street]).all()
    if street in RUNOUTS:         # each opponent hand meets every runout that leaves it and the hole live
        hp = rows[list(POTENTIAL_COLUMNS)].to_numpy().reshape(-1, 3, 3).sum(axis=2)
        assert (hp == rows[["ahead", "tied", "behind"]].to_numpy() * RUNOUTS[street]).all()


def test_flop_row_of_the_aaai_example():
    """Billings et al. (AAAI-98): AdQc on 3h4cJh, as the issue quotes the paper."""
    rows = street_rows(np.array([sorted(parse_cards("3h4cJh"))])).to_pandas().set_index("index")
    r = rows.loc[situation_index("AdQc", "3h4cJh")]
    assert (r.ahead, r.tied, r.behind) == (628, 9, 444)
    assert [r[c] for c in POTENTIAL_COLUMNS] == [449_005, 3_211, 169_504, 0, 8_370, 540, 91_981, 1_036, 346_543]
    assert (round(r.hs, 3), round(r.ppot, 3), round(r.npot, 3), round(r.ehs, 4)) == (0.585, 0.208, 0.274, 0.5114)


@njit
def _indices_of(boards, blocks):
    m = boards.shape[1]
    out = np.empty(boards.shape[0] * (52 - m) * (51 - m) // 2, np.int64)
    board = np.zeros(5, np.int64)
    k = 0
    for i in range(boards.shape[0]):
        board[:m] = boards[i]
        live = np.ones(52, np.bool_)
        live[boards[i]] = False
        for a in range(52):
            for b in range(a):
                if live[a] and live[b]:
                    out[k] = situation_index_nb(a, b, board, m, blocks)
                    k += 1
    return out[:k]


@pytest.mark.parametrize("cards,rows", [(3, 1_286_792), (4, 13_960_050)])
def test_canonical_boards_reach_every_situation(cards, rows):
    """The tables visit each canonical board's holes: together they are every situation, the issue's row counts."""
    idx = _indices_of(canonical_boards(cards), block_table(cards))
    assert rows == street_size(cards) and idx.min() == 0 and idx.max() == rows - 1
    assert np.bincount(idx, minlength=rows).all()


@pytest.mark.parametrize("args", [["--street", "preflop"], ["--street", "flop", "--limit", "0"]])
def test_bad_options_one_line_exit_2(args):
    p = subprocess.run([sys.executable, "-m", "jobs", "ehs-table", *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
