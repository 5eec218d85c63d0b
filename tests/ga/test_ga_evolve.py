"""Evolved players in the engine, and the evolution: deterministic, resumable, elitist, the thesis's trainer rule."""
import filecmp
import hashlib
import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from pipeline.batch.session import Session
from pipeline.batch.storage import Storage
from pipeline.ga import checkpoint
from pipeline.ga.config import Config, ConfigError
from pipeline.ga.evolve import evolve
from pipeline.ga.folder import EvolveError, best_of
from pipeline.ga.operators import random_genes
from pipeline.holdem import Table, simulate
from pipeline.holdem.engine import A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE
from pipeline.holdem.player import Layout, Player
from pipeline.holdem.record import record

LAYOUT = Layout()
SMALL = Config(population=6, generations=4, hands_per_match=240, seed=4, trainers=3, samples=8)


def constant_player(u0, u1):
    g = np.empty((LAYOUT.genes, 2), np.int8)
    g[:, 0], g[:, 1] = u0, u1
    return Player(LAYOUT, g, {"name": f"const{u0}"})


def seat_actions(recs, seat, postflop):
    rows = [r.actions[(r.actions[:, 1] == seat) & (r.actions[:, 2] >= A_FOLD)] for r in recs]
    acts = np.concatenate(rows)
    return acts[acts[:, 0] > 0] if postflop else acts[acts[:, 0] == 0]


def test_evolved_player_plays_the_preflop_table_then_its_genes():
    # preflop an evolved seat answers exactly as thesis-preflop; after the flop as its genes say.  With
    # u0 = 99 only d = 100 raises: weight 1 with nothing to call, so that player bets the nuts but never raises
    always_raise, always_call = constant_player(-99, -99), constant_player(99, -99)
    for genes, allowed in ((always_raise, {A_BET, A_RAISE, A_CALL}), (always_call, {A_CHECK, A_CALL, A_BET})):
        ev = record(Table.make([genes, "station", "random"]), seed=3, first=0, count=600)
        ref = record(Table.make(["thesis-preflop", "station", "random"]), seed=3, first=0, count=600)
        for a, b in zip(ev, ref):
            assert np.array_equal(a.actions[a.actions[:, 0] == 0], b.actions[b.actions[:, 0] == 0])
        assert set(seat_actions(ev, 0, True)[:, 2].tolist()) <= allowed


def test_used_marks_are_the_genes_consulted():
    from pipeline.holdem.simulate import play_deals
    from pipeline.holdem.weights import preflop_table

    p = Player(LAYOUT, random_genes(LAYOUT, np.random.default_rng(0)), {})
    table = Table.make([p, "station"])
    used = play_deals(table, 1, 0, 300, True, preflop_table())[4]
    assert used[0].sum() > 10 and used[1].sum() == 0      # the station consults no gene
    # a player whose every gene is never consulted stays unmarked when it folds every hand preflop: none here
    assert used[0].sum() < LAYOUT.genes


def test_player_file_is_a_policy(tmp_path):
    p = constant_player(99, -99).save(tmp_path / "caller.json")
    r = simulate([str(p), "tag"], 400, seed=2)
    # it calls every bet and bets only the nuts when checked to (d = 100: above u0 = 99), so its AF is near 0;
    # tag's own AF is above 2 (docs/holdem.md), so the seat plays the file's genes
    assert r.seats[0].policy == "caller" and r.seats[0].stats["af"] < 0.05


@pytest.fixture(scope="module")
def straight_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("ga-straight")
    return out, evolve(SMALL, Storage.open(out))


# SHA-256 of the files of the SMALL evolution, recorded before its checkpoint became one commit and its
# matches were played in chunks (issue 20): neither may change what an evolution computes.  progress.parquet was
# recorded again when issue 40 retuned tag, the yardstick: its yardstick_bb100 and yardstick_stderr columns changed,
# every other column (and every other file here) kept its bytes.
RECORDED_SMALL = {
    "best/gen-00000.json": "50533063716e273ec3159e53204df3202aec1bd2a244667cdb4e9585fa1dca61",
    "best/gen-00001.json": "b3dad83f03dc13466c981052033728d616daab845435071825881d452bd360a9",
    "best/gen-00002.json": "aa84626c6c567374ff47811ba6fb989a7d5b2c2ad954c7b4ecef45caa8f3553f",
    "best/gen-00003.json": "b09b066307c4d925573d27c1b25acbdb13d87fa196d98e3b18c0ed0ad907fcfd",
    "final-player.json": "f8d750b49bb3e0a21f9f55736311b476ecd3dbdae8ca64440efe990608b66f6e",
    "generations/gen-00000.parquet": "4f77ccde2c0eda43115ae0180b34739918a59112ac90d69e613a114ea6b0708c",
    "generations/gen-00001.parquet": "84ad4d702bfa14dc7436b8ca0e60550575ea5d106f58ab24465a6e8b5cbf0284",
    "generations/gen-00002.parquet": "366b1f194cb1564b874e0177a1fc9177a25bbf53934babec4761723af1fce085",
    "generations/gen-00003.parquet": "166131b03c68713bbee973d7e3b8e664a5b158a3ee66ddd099528167627c4bc9",
    "progress.parquet": "01dd5c43dc3dc81b8e0f61eb0ac9a97359d5e84b0d80b75bb8896409943d7458",   # tag retuned (issue 40)
    "trainers/trainer-0.json": "2fed690f2bbdf6fd58d42dbfde4eb874cdc29268bab72721ed7f2a63b21674da",
    "trainers/trainer-1.json": "6aaef7bd69184f941b3339f4b63a450938add4b120a1afed49cb398298a19e1e",
    "trainers/trainer-2.json": "dd295b52fea9ee7eb43139be3ae20ad39efebcdc630e0eb35f43dd8a4ed2efc8",
    "checkpoint arrays": "50d68451c001f26105bd27c40c484c1dff9d8d20d270862b5d3c79f616b76d69",
}


def arrays_file(out):
    """The arrays file the checkpoint under ``out`` names."""
    return json.loads((out / "evolve" / "checkpoint.json").read_text())["arrays"]


def test_the_small_evolution_writes_what_it_always_wrote(straight_run):
    out, _ = straight_run
    got = {name: hashlib.sha256((out / "evolve" / name).read_bytes()).hexdigest() for name in RECORDED_SMALL
           if name != "checkpoint arrays"}
    got["checkpoint arrays"] = hashlib.sha256((out / "evolve" / arrays_file(out)).read_bytes()).hexdigest()
    assert got == RECORDED_SMALL


def files_equal(a, b):
    assert arrays_file(a) == arrays_file(b)
    names = ["progress.parquet", "final-player.json", arrays_file(a)] + \
            [f"generations/gen-{g:05d}.parquet" for g in range(SMALL.generations)] + \
            [f"trainers/trainer-{k}.json" for k in range(SMALL.trainers)] + \
            [f"best/gen-{g:05d}.json" for g in range(SMALL.generations)]
    return [n for n in names if not filecmp.cmp(a / "evolve" / n, b / "evolve" / n, shallow=False)]


@pytest.mark.slow
def test_resumed_and_two_worker_runs_are_identical(straight_run, tmp_path):
    out, summary = straight_run
    assert summary.finished and summary.generations == SMALL.generations
    resumed = tmp_path / "resumed"
    first = evolve(SMALL, Storage.open(resumed), stop_after=2)                  # as if killed after two generations
    assert not first.finished and not (resumed / "evolve" / "final-player.json").exists()
    second = evolve(SMALL, Storage.open(resumed))
    assert second.resumed_at == 2
    assert files_equal(out, resumed) == []
    with Session(workers=2, quiet=True) as session:
        evolve(SMALL, Storage.open(tmp_path / "dask"), executor=session.executor("matches"))
    assert files_equal(out, tmp_path / "dask") == []


def test_generations_follow_the_thesis_rules(straight_run):
    out, summary = straight_run
    rows = summary.progress
    assert [r["phase"] for r in rows] == [1, 1, 2, 2]
    assert [r["operator"] for r in rows][0::2] == ["birth", "birth"]
    for r in rows:
        gen = pq.read_table(out / "evolve" / "generations" / f"gen-{r['generation']:05d}.parquet").to_pylist()
        best = max(gen, key=lambda x: x["fitness"])
        assert best["survived"] and best["individual"] == r["best"]              # elitism keeps the best
        assert sum(x["survived"] for x in gen) == SMALL.population
        kept = sorted((x["fitness"] for x in gen if x["survived"]), reverse=True)
        dropped = [x["fitness"] for x in gen if not x["survived"]]
        assert not dropped or min(kept) >= max(dropped)
        for x in gen:
            if x["operator"] not in ("birth", "parent", ""):
                assert x["operator"] == r["operator"] and x["parent_a"] >= 0 and x["parent_b"] >= 0
        # co-evolution: the best joins the trainers iff it won chips and beat the best trainer (phase 1 only)
        joins = r["best_fitness"] > 0 and r["best_fitness"] > r["best_trainer_fitness"] and r["phase"] == 1
        assert (r["trainer_in"] >= 0) == joins
    final = Player.load(summary.final_player)
    assert final.about["seats"] == SMALL.trainers + 1 and final.layout == SMALL.layout


def test_each_generation_keeps_its_best_and_a_phase_start_is_rebuilt_from_the_seed(straight_run, tmp_path):
    import shutil

    out, summary = straight_run
    copy = tmp_path / "evolve"
    shutil.copytree(out / "evolve", copy)
    files = Storage.open(tmp_path)
    for r in summary.progress:
        saved = best_of(files, r["generation"])
        assert saved.about["individual"] == r["best"] and saved.about["fitness_bb100"] == r["best_fitness"]
        if r["operator"] == "birth":                   # a run from before best/ files: rebuilt from (seed, generation)
            (copy / "best" / f"gen-{r['generation']:05d}.json").unlink()
            rebuilt = best_of(files, r["generation"])
            assert np.array_equal(rebuilt.genes, saved.genes) and rebuilt.about["individual"] == r["best"]
    last = summary.progress[-1]["generation"]
    (copy / "best" / f"gen-{last:05d}.json").unlink()
    assert np.array_equal(best_of(files, last).genes, Player.load(summary.final_player).genes)
    (copy / "best" / "gen-00001.json").unlink()
    with pytest.raises(EvolveError, match="not a phase's first"):
        best_of(files, 1)


def test_other_parameters_and_damaged_checkpoints_are_refused(straight_run, tmp_path):
    out, _ = straight_run
    with pytest.raises(EvolveError, match="other parameters"):
        evolve(Config(**{**SMALL.__dict__, "seed": 5}), Storage.open(out))
    damaged = tmp_path / "damaged"
    evolve(SMALL, Storage.open(damaged), stop_after=1)
    npz = damaged / "evolve" / arrays_file(damaged)
    data = bytearray(npz.read_bytes())
    data[len(data) // 2] ^= 0xFF
    npz.write_bytes(bytes(data))
    with pytest.raises(checkpoint.CheckpointError, match="damaged checkpoint"):
        evolve(SMALL, Storage.open(damaged))
    assert npz.read_bytes() == bytes(data)                         # never silently overwritten
    (damaged / "evolve" / "checkpoint.json").write_text("{")
    with pytest.raises(checkpoint.CheckpointError, match="damaged checkpoint"):
        evolve(SMALL, Storage.open(damaged))


@pytest.mark.parametrize("bad, words", [
    ({"population": 0}, "--population"), ({"hands_per_match": 0}, "--hands-per-match"),
    ({"crossover_percent": 101}, "--crossover must be a probability 0 to 100"),
    ({"mutation_percent": -1}, "--mutation must be a probability"), ({"format": "ring"}, "--format"),
    ({"trainers": 10}, "--trainers must be 1 to 9"), ({"yardstick": "shark"}, "--yardstick"),
    ({"generations": 1}, "at least 2"), ({"tournament": 50}, "--tournament"),
])
def test_bad_parameters_name_the_option(bad, words):
    with pytest.raises(ConfigError, match=words):
        Config(**{**SMALL.__dict__, **bad})


def test_checkpoint_state_is_plain_json(straight_run):
    out, _ = straight_run
    doc = json.loads((out / "evolve" / "checkpoint.json").read_text())
    assert doc["finished"] and doc["generation"] == SMALL.generations and doc["rng"]["key"] == "(seed, generation)"


def test_evolution_files_are_verified_when_read_back(straight_run, tmp_path):
    """Every file the evolution writes has its SHA-256 in the checkpoint; a damaged one is refused on read."""
    import shutil

    from pipeline.ga.folder import read_parquet

    out, summary = straight_run
    shutil.copytree(out / "evolve", tmp_path / "evolve")
    files = Storage.open(tmp_path)
    digests = json.loads((tmp_path / "evolve" / "checkpoint.json").read_text())["digests"]
    assert {"progress.parquet", "generations/gen-00000.parquet", "best/gen-00003.json"} <= set(digests)
    assert read_parquet(files, "progress.parquet").num_rows == SMALL.generations
    gen = tmp_path / "evolve" / "generations" / "gen-00000.parquet"
    data = bytearray(gen.read_bytes())
    data[len(data) // 3] ^= 0x01
    gen.write_bytes(bytes(data))
    (tmp_path / "evolve" / "best" / "gen-00000.json").unlink()       # best_of must rebuild from the generation
    with pytest.raises(EvolveError, match="damaged"):
        best_of(files, 0)
