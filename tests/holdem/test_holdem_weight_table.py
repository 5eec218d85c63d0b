"""Hand-weight tables against per-situation enumeration (strength.hand_strength) and simulation, on partial builds."""
import re
from math import comb

import numpy as np
import pytest
from support.layout import manifest
from support.layout import side as side_output

from pipeline.batch.session import Session
from pipeline.datasets import DatasetError, HandWeightTables, build_many
from pipeline.evaluator.tables import tables
from pipeline.holdem import simulate, weights
from pipeline.holdem import weight_build as weight_table
from pipeline.holdem.weights import sampled_weight
from pipeline.isomorphism.boards import canonical_boards
from pipeline.strength.hand_strength import potential_counts

pytestmark = pytest.mark.slow      # the whole module: its module fixture builds hand-weight tables

LIMITS = {3: 1, 4: 3, 5: 6}        # canonical boards built per street: a few seconds
STREET_LIMITS = (LIMITS[3], LIMITS[4], LIMITS[5])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The three holdem-weights datasets of the first canonical boards, built by the runner."""
    out = tmp_path_factory.mktemp("weights")
    source = HandWeightTables(str(out), STREET_LIMITS)
    with Session(workers=1, quiet=True) as session:
        build_many(source.datasets(), out, session)
    return out, source


@pytest.fixture(scope="module")
def partial(built):
    return built[1].load()


@pytest.mark.slow
def test_the_datasets_hold_what_the_builder_computes(built, partial):
    """Parts, side outputs and the verified, mapped arrays agree with the builder run here."""
    from pipeline.datasets import read

    direct = {m: weight_table.build_street(s, limit=LIMITS[m]) for s, m in weight_table.STREETS.items()}
    expected = weights.pack(direct[3], direct[4], direct[5])
    for got, want in zip(partial, expected):
        assert np.array_equal(got, want)
    out, source = built
    for ds in source.datasets():
        rows = read(ds, out)
        assert rows.num_rows == len(np.unique(rows.column("index").to_numpy()))      # one row per situation
    assert partial.river[:, 0].sum() > 0 and not partial.flop1.flags.writeable


@pytest.mark.slow
def test_damaged_or_missing_tables_are_refused(built, tmp_path):
    import shutil

    out, source = built
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    damaged = HandWeightTables(str(copy), STREET_LIMITS)
    assert damaged.built()
    win2 = side_output(copy, "holdem-weights/turn", "_win2.npy")
    data = bytearray(win2.read_bytes())
    data[-1] ^= 1
    win2.write_bytes(bytes(data))
    with pytest.raises(DatasetError, match="damaged"):
        damaged.load()
    missing = HandWeightTables(str(tmp_path / "none"))
    assert not missing.built()
    with pytest.raises(DatasetError, match="pokerpipe holdem-weights"):
        simulate(["tag", "station"], hands=10, weights=missing)


def _damage(folder, street, array, how):
    """Damage one side output of a copy of the built tables: ``how`` is truncated, zeroed (same size, data all
    zero) or resized (a smaller array whose SHA-256 is written into the manifest, as a rebuild by other code
    would leave it)."""
    import hashlib
    import io
    import json

    side = side_output(folder, f"holdem-weights/{street}", f"_{array}.npy")
    data = side.read_bytes()
    side.unlink()                          # a hard link to the built file: write a new one
    a = np.load(io.BytesIO(data))
    if how == "truncated":
        side.write_bytes(data[:len(data) // 2])
    elif how == "zeroed":
        buf = io.BytesIO()
        np.save(buf, np.zeros_like(a))
        assert len(buf.getvalue()) == len(data)
        side.write_bytes(buf.getvalue())
    else:
        buf = io.BytesIO()
        np.save(buf, a[:10])
        side.write_bytes(buf.getvalue())
        m = manifest(folder, f"holdem-weights/{street}")
        doc = json.loads(m.read_text())
        m.unlink()
        for entry in doc["side_outputs"]:
            if entry["file"] == side.name:
                entry["sha256"] = hashlib.sha256(buf.getvalue()).hexdigest()
        m.write_text(json.dumps(doc))


@pytest.mark.slow
@pytest.mark.parametrize("street, array, how, words", [
    ("river", "counts", "truncated", "damaged (SHA-256 differs"),
    ("flop", "multi", "zeroed", "damaged (SHA-256 differs"),
    ("turn", "win2", "resized", "of shape (10,), not the uint32 (13960050,)"),
])
def test_truncated_zeroed_or_resized_tables_are_refused_before_play(built, tmp_path, street, array, how, words):
    """Issue 20, case 3: an undersized table made play segfault, an all-zero one gave a silently wrong number;
    each is one DatasetError (an InputError: one line, exit 2) before any kernel reads the tables."""
    import os
    import shutil

    out, _ = built
    shutil.copytree(out, tmp_path / "copy", copy_function=os.link)      # 800 MB of full-size arrays: linked
    _damage(tmp_path / "copy", street, array, how)
    with pytest.raises(DatasetError, match=re.escape(words)):
        simulate(["tag", "station"], hands=10, weights=HandWeightTables(str(tmp_path / "copy"), STREET_LIMITS))


def _as_full_build(folder):
    """Rewrite a smoke build's manifests as a full build's read (its parameters, an entry for each of its
    parts), leaving the arrays as they are: so that ``play``, which reads only full tables, reaches them
    without the 800 MB build (the arrays are full-size in a smoke build too, zero beyond its boards)."""
    import json

    for ds in HandWeightTables(str(folder)).datasets():
        path = manifest(folder, ds.name)
        doc = json.loads(path.read_text())
        path.unlink()                          # a hard link to the built file: write a new one
        doc["parameters"] = ds.params
        doc["parts"] += [{"file": f"part-{i:05d}.parquet", "rows": 1, "bytes": 1, "sha256": "0" * 64}
                         for i in range(len(doc["parts"]), ds.planned_parts())]
        doc["rows"] = sum(e["rows"] for e in doc["parts"])
        path.write_text(json.dumps(doc))


@pytest.mark.slow
@pytest.mark.parametrize("street, array, how, words", [
    (None, None, "cut-short", "holdem-weights/flop: its manifest lists 1 of 71 parts"),
    ("river", "counts", "truncated", "damaged (SHA-256 differs"),
    ("flop", "multi", "zeroed", "damaged (SHA-256 differs"),
    ("turn", "win2", "resized", "of shape (10,), not the uint32 (13960050,)"),
])
def test_play_refuses_damaged_tables_in_one_line(built, tmp_path, street, array, how, words):
    """Issue 20, case 3, through ``python -m jobs play``: an undersized table made it segfault, an all-zero one
    read tag vs station as -9.65 BB/100 instead of +35.38; a manifest whose part list is cut short claimed a
    full build.  Each is one line, exit 2, before any hand is played."""
    import json
    import os
    import shutil
    import subprocess
    import sys

    out, _ = built
    copy = tmp_path / "copy"
    shutil.copytree(out, copy, copy_function=os.link)
    if how == "cut-short":                        # the smoke build's manifests, claiming the full build's parameters
        for ds in HandWeightTables(str(copy)).datasets():
            path = manifest(copy, ds.name)
            doc = json.loads(path.read_text())
            path.unlink()
            doc["parameters"] = ds.params
            path.write_text(json.dumps(doc))
    else:
        _as_full_build(copy)
        _damage(copy, street, array, how)
    p = subprocess.run([sys.executable, "-m", "jobs", "play", "--seats", "2", "--policies", "tag,station",
                        "--hands", "10", "--weights", "tables", "--tables", str(copy)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, (p.returncode, p.stderr)
    lines = p.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("pokerpipe: error: ") and words in lines[0], p.stderr
    assert "Traceback" not in p.stderr and not p.stdout
    if how == "cut-short":              # --weights auto plays by sampling, and says why it does not use them
        p = subprocess.run([sys.executable, "-m", "jobs", "play", "--seats", "2", "--policies", "tag,station",
                            "--hands", "10", "--tables", str(copy)], capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        assert p.stderr.startswith("pokerpipe: not using the hand-weight tables at ") and \
            "its manifest lists 1 of 71 parts; sampling instead" in p.stderr and len(p.stderr.splitlines()) == 1


@pytest.mark.slow
def test_a_rerun_of_the_console_script_repairs_damaged_tables_to_their_bytes(built, tmp_path):
    """Issue 20, case 3, through ``python -m jobs``: tables truncated or zeroed on disk are found on the next
    run (one line each) and written again to the exact bytes the build left; what was intact is untouched."""
    import hashlib
    import os
    import shutil
    import subprocess
    import sys

    out, _ = built
    copy = tmp_path / "copy"
    shutil.copytree(out, copy, copy_function=os.link)
    damaged = {("river", "counts"): "truncated", ("flop", "multi"): "zeroed"}
    before = {p.relative_to(copy): hashlib.sha256(p.read_bytes()).hexdigest()
              for p in copy.rglob("*.npy")}
    for (street, array), how in damaged.items():
        side = side_output(copy, f"holdem-weights/{street}", f"_{array}.npy")
        data = side.read_bytes()
        side.unlink()                                        # linked to the built file: write a new one
        side.write_bytes(data[:len(data) // 2] if how == "truncated" else data[:128] + bytes(len(data) - 128))
    params = [a for m, street in ((3, "flop"), (4, "turn"), (5, "river"))
              for a in ("--param", f"holdem-weights/{street}.limit={LIMITS[m]}")]
    p = subprocess.run([sys.executable, "-m", "jobs", "tables", "holdem-weights/flop", "holdem-weights/turn",
                        "holdem-weights/river", *params, "--workers", "1", "--quiet", "--out", str(copy)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = [line for line in p.stderr.splitlines() if "differs from its manifest" in line]
    named = sorted(line.split(" ")[1] for line in lines)
    assert named == [str(side_output(copy, "holdem-weights/flop", "_multi.npy")),
                     str(side_output(copy, "holdem-weights/river", "_counts.npy"))], p.stderr
    assert {p.relative_to(copy): hashlib.sha256(p.read_bytes()).hexdigest() for p in copy.rglob("*.npy")} == before


def situations(m, count, seed):
    """Random (hole, board) on the built canonical boards, their suits permuted (the lookup must canonicalise)."""
    rng = np.random.default_rng(seed)
    boards = canonical_boards(m)[:LIMITS[m]].astype(np.int64)
    for _ in range(count):
        b = boards[rng.integers(len(boards))]
        b = (b // 4) * 4 + rng.permutation(4)[b % 4]
        hole = np.array(rng.choice([c for c in range(52) if c not in b], 2, replace=False), np.int64)
        full = np.zeros(5, np.int64)
        full[:m] = b
        yield hole, full


@pytest.mark.slow
@pytest.mark.parametrize("m", [3, 4, 5])
def test_one_opponent_weight_is_the_exact_enumeration(partial, m):
    for hole, board in situations(m, 6, m):
        now, hp = np.zeros(3, np.int64), np.zeros((3, 3), np.int64)
        potential_counts(hole, board[:m], 5 - m, now, hp, tables())
        if m < 5:     # win share over every runout: the final-ahead column and half the final-tied one
            exact = (hp[:, 0].sum() + hp[:, 1].sum() / 2) / hp.sum()
        else:
            exact = (now[0] + now[1] / 2) / now.sum()
        assert weights.table_weight(hole, board, m, 1, partial) == pytest.approx(exact, abs=1e-12)


def plain_share(ahead, tied, total, k):
    """Win share against k independent opponents: j of them tie (the pot split j+1 ways), the rest are beaten."""
    a, t = ahead / total, tied / total
    return sum(comb(k, j) * a ** (k - j) * t ** j / (j + 1) for j in range(k + 1))


def test_k_opponent_weight_averages_the_rivers(partial):
    """On the turn, the table's k-opponent value is the mean over the 46 rivers of the river's own share."""
    for hole, board in situations(4, 2, 7):
        per_river = []
        for r in range(52):
            if r in hole or r in board[:4]:
                continue
            board[4] = r
            now, hp = np.zeros(3, np.int64), np.zeros((3, 3), np.int64)
            potential_counts(hole, board, 0, now, hp, tables())
            per_river.append([plain_share(now[0], now[1], now.sum(), k) for k in range(1, 10)])
            if len(per_river) == 1:       # the river lookup is the same formula on that river's counts
                got = [weights.table_weight(hole, board, 5, k, weights.pack(*_river_only(hole, board)))
                       for k in range(1, 10)]
                assert got == pytest.approx(per_river[0], abs=1e-12)
        expected = np.mean(per_river, axis=0)
        got = [weights.table_weight(hole, board, 4, k, partial) for k in range(1, 10)]
        assert got == pytest.approx(expected, abs=1 / 65535)


def test_flop_table_holds_the_per_situation_enumeration(partial):
    """The flop builder (a sorted count per runout) against enumerating one situation's runouts."""
    for hole, board in situations(3, 3, 11):
        expected = weight_table.enumerated_weights(hole[0], hole[1], board, 3, tables())[1:]
        got = [weights.table_weight(hole, board, 3, k, partial) for k in range(1, 10)]
        assert got == pytest.approx(expected, abs=1 / 65535)


def _river_only(hole, board):
    """A one-situation river table: the counts enumerated for ``hole`` on ``board``."""
    from pipeline.isomorphism.situations import situation_index, street_size

    now, hp = np.zeros(3, np.int64), np.zeros((3, 3), np.int64)
    potential_counts(hole, board, 0, now, hp, tables())
    counts = np.zeros((street_size(5), 2), np.uint16)
    counts[situation_index(hole.tolist(), board.tolist())] = now[:2]
    empty = {"win2": np.zeros(0, np.uint32), "multi": np.zeros((0, 8), np.uint16)}
    return empty, empty, {"counts": counts}


def test_k_opponent_weight_is_close_to_simulation(partial):
    rng = np.zeros(1, np.uint64)
    deck = np.zeros(52, np.int64)
    for m in (3, 4, 5):
        for k in (2, 5, 9):
            for hole, board in situations(m, 2, 10 * m + k):
                sim = sampled_weight(hole[0], hole[1], board, m, k, 20_000, rng, deck, tables())
                assert abs(weights.table_weight(hole, board, m, k, partial) - sim) < 0.05


def _kinds_of_boards(m):
    """The first canonical board of ``m`` cards that is monotone, one of four suits or fewer unpaired and
    off-suit as far as it can be, and one that is paired."""
    boards = canonical_boards(m).astype(np.int64)
    suits = np.array([len(set(b % 4)) for b in boards[:20000]])
    ranks = np.array([len(set(b // 4)) for b in boards[:20000]])
    return [int(np.argmax(suits == 1)), int(np.argmax((suits == min(m, 4)) & (ranks == m))),
            int(np.argmax(ranks < m))]


@pytest.mark.slow
@pytest.mark.parametrize("m", [3, 4, 5])
def test_builder_gives_the_first_builders_numbers_exactly(m):
    """The builder counts each runout by a radix sort with rank-pair values; the first builder counted it by
    the EHS potential's Fenwick tree (tests/oracles/weight_runouts.py), the river by the EHS street kernel.
    Same situations, the same integers, and multiway shares equal to the last bit (so the stored uint16
    values cannot differ), on a rainbow, a monotone and a paired board of each street."""
    from oracles.weight_runouts import fenwick_weights

    from pipeline.isomorphism.situations import block_table
    from pipeline.strength.street import dense_values, scratch, street_counts

    boards = np.ascontiguousarray(canonical_boards(m)[_kinds_of_boards(m)], np.uint8)
    dense = dense_values()
    idx, win2, multi, counts = weight_table.board_weights(boards, block_table(m), dense, tables())
    if m < 5:
        want = fenwick_weights(boards, block_table(m), dense, scratch(52 - m, int(dense.max())), tables())
        assert np.array_equal(idx, want[0]) and np.array_equal(win2, want[1])
        assert np.array_equal(multi, want[2])                   # bit for bit
    else:
        want_idx, _hole, _b, now, _hp = street_counts(boards, block_table(5), dense, scratch(47, int(dense.max())),
                                                      tables())
        assert np.array_equal(idx, want_idx) and np.array_equal(counts, now[:, :2])
        assert np.array_equal(win2, 2 * now[:, 0] + now[:, 1])


@pytest.mark.parametrize("m", [3, 4, 5])
def test_the_engine_reads_the_row_it_prefetched(partial, m):
    """At the flop the engine finds the rows of every weight-reading seat's hole on the flop, turn and river
    once a deal, asks for them ahead, and reads the hand weight there: the situation's index, and the exact
    one-opponent weight of the per-situation enumeration."""
    from pipeline.holdem import engine
    from pipeline.isomorphism.situations import situation_index

    for hole, board in situations(m, 4, 20 + m):
        rest = [c for c in range(52) if c not in hole and c not in board[:m]]
        board[m:] = rest[:5 - m]                    # the rest of the runout: any cards
        holes = np.array([hole, rest[-2:]], np.int64)
        work = engine.new_work(2)
        engine.new_deal(work)
        engine._prefetch_weights(0, 2, holes, board, np.array([True, False]), np.zeros(2, np.int64), work.rows,
                                 partial)
        assert [int(work.rows[0, s]) for s in (1, 2, 3)] == [situation_index(hole.tolist(), board[:k].tolist())
                                                             for k in (3, 4, 5)]
        assert (work.rows[1] == -1).all()           # the seat that reads no weight: nothing found or asked
        hw = weights.HandWeights(np.zeros((169, 10)), partial)
        wc = np.full((2, 3), -1.0)
        got = engine._weight(0, 0, m - 2, 1, holes, board, hw, 48, work, wc, tables())
        now, hp = np.zeros(3, np.int64), np.zeros((3, 3), np.int64)
        potential_counts(hole, board[:m], 5 - m, now, hp, tables())
        exact = (hp[:, 0].sum() + hp[:, 1].sum() / 2) / hp.sum() if m < 5 else (now[0] + now[1] / 2) / now.sum()
        assert got == pytest.approx(exact, abs=1e-12)


def test_the_situation_counts_written_out_are_the_streets_sizes():
    from pipeline.isomorphism.situations import street_size

    assert weights.SITUATIONS == {m: street_size(m) for m in (3, 4, 5)}
