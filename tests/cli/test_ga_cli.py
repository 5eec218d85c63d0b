"""``pokerpipe evolve`` and ``pokerpipe evaluate``: the quick configuration end to end, rlcard, bad input."""
import json

import numpy as np
import pytest

from jobs.main import main
from pipeline.ga.operators import random_genes
from pipeline.holdem.player import Layout, Player

QUICK = ["evolve", "--population", "20", "--generations", "10", "--hands-per-match", "400", "--seed", "3",
         "--workers", "2", "--report-hands", "2000", "--rlcard-hands", "200", "--lbr-hands", "100", "--quiet"]


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("quick")
    assert main([*QUICK, "--out", str(out)]) == 0
    return out


@pytest.mark.slow
def test_quick_run_writes_player_trainers_report(quick, capsys):
    evo = quick / "evolve"
    assert (evo / "final-player.json").exists() and len(list((evo / "trainers").glob("*.json"))) == 9
    assert len(list((evo / "generations").glob("gen-*.parquet"))) == 10
    report = (quick / "report.md").read_text()
    for png in ("report-fitness.png", "report-yardstick.png", "report-used.png", "report-thresholds.png"):
        assert png in report and (quick / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for opponent in ("random", "station", "maniac", "tag", "trainers", "rlcard-rule", "rlcard-random"):
        assert f"| {opponent} |" in report
    # each phase's first and last best re-measured at the report's length (generations 0, 4 | 5, 9)
    assert "re-measured over 2,000 hands" in report
    assert "## How exploitable: local best response" in report and "| 100 | " in report
    for phase, g in ((1, 0), (1, 4), (2, 5), (2, 9)):
        assert f"| {phase} | {g} | " in report
    # a finished run started again computes nothing and says where the player is
    assert main([*QUICK, "--out", str(quick), "--report-hands", "0"]) == 0
    assert "final player:" in capsys.readouterr().out


@pytest.mark.slow
def test_quick_runs_best_beats_random(quick, capsys):
    player = str(quick / "evolve" / "final-player.json")
    assert main(["evaluate", player, "--against", "random,trainers", "--hands", "20000", "--json"]) == 0
    captured = capsys.readouterr()
    d = json.loads(captured.out)                                    # stdout: the one JSON object
    assert "random: 20,000 hands in" in captured.err and "trainers: 20,000 hands in" in captured.err
    assert d["player"] == player and [r["opponent"] for r in d["results"]] == ["random", "trainers"]
    rnd = d["results"][0]
    assert set(rnd) >= {"opponent", "hands", "bb_per_100", "ci95"} and rnd["seats"] == 10
    assert rnd["ci95"][0] > 0, rnd


def test_evolved_player_plays_in_rlcard():
    from pipeline.ga.assessment.rlcard_agent import EvolvedAgent, play_rlcard, rlcard_card

    assert rlcard_card("CT") == 4 * 8 + 0 and rlcard_card("SA") == 51 and rlcard_card("D2") == 1
    layout = Layout()
    p = Player(layout, random_genes(layout, np.random.default_rng(0)), {})
    agent = EvolvedAgent(p)
    agent.seat, agent.button = 1, 0
    raw = {"hand": ["SA", "HA"], "public_cards": ["D2", "C7", "HK"], "all_chips": [4, 2], "my_chips": 2,
           "raise_nums": [1, 1, 0, 0]}
    obs = agent.observe(raw, can_raise=True)
    from pipeline.holdem.policies import (
        O_CATEGORY,
        O_POSITION,
        O_POT,
        O_POT_ODDS,
        O_RAISES,
        O_RAISES_PREV,
        O_STREET,
        O_TO_CALL,
        O_WEIGHT,
    )
    assert (obs[O_STREET], obs[O_POSITION], obs[O_RAISES], obs[O_RAISES_PREV]) == (1, 1, 1, 1)
    assert (obs[O_POT], obs[O_TO_CALL], obs[O_POT_ODDS], obs[O_CATEGORY]) == (3.0, 1.0, 0.25, 1)
    assert obs[O_WEIGHT] > 0.7                                        # aces on a dry board
    r = play_rlcard(p, "rlcard-random", 200, seed=1)
    again = play_rlcard(p, "rlcard-random", 200, seed=1)
    assert r.hands == 200 and np.isfinite(r.bb_per_100) and r.bb_per_100 == again.bb_per_100


@pytest.mark.parametrize("args, words", [
    (["evolve", "--population", "0"], "--population must be 2 to 100000"),
    (["evolve", "--generations", "-3"], "--generations must be 1 to 1,000,000"),
    (["evolve", "--hands-per-match", "0"], "--hands-per-match must be 1 to 10,000,000,000"),
    (["evolve", "--crossover", "101"], "--crossover must be a probability 0 to 100"),
    (["evolve", "--mutation", "-5"], "--mutation must be a probability 0 to 100"),
    (["evolve", "--format", "ring"], "--format must be one of"),
    (["evolve", "--yardstick", "shark"], "--yardstick must be one of"),
    (["evolve", "--out", "ftp://bucket/x"], "unsupported scheme 'ftp'"),
    (["evolve", "--layout", "nope.json"], "--layout: no layout file nope.json"),
    (["evolve", "--layout", "bad.json"], "--layout: bad.json is not a layout file"),
    (["evolve", "--layout", "edges.json"], "weight_edges must be at most 20 increasing numbers in 0..10"),
    (["evolve", "--layout", "typo.json"], "unknown key 'position'"),
    (["evaluate", "nope.json", "--against", "random"], "no player file"),
    (["evaluate", "p.json", "--against", "shark"], "unknown yardstick 'shark'"),
    (["evaluate", "p.json", "--hands", "0"], "--hands and --rlcard-hands must be positive"),
    (["evaluate", "p.json", "--seats", "12"], "--seats must be 2 to 10"),
])
def test_bad_input_is_one_line_and_exit_2(args, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.json").write_text("{")
    (tmp_path / "edges.json").write_text('{"weight_edges": [2.0, 1.0]}')
    (tmp_path / "typo.json").write_text('{"position": 4}')
    assert main(args) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1, err


def test_damaged_checkpoint_is_refused_and_kept(quick, capsys, tmp_path):
    out = tmp_path / "run"
    args = ["evolve", "--population", "4", "--generations", "3", "--hands-per-match", "100", "--trainers", "2",
            "--workers", "1", "--report-hands", "0", "--quiet", "--out", str(out)]
    assert main(args) == 0
    ck = out / "evolve" / "checkpoint.json"
    damaged = ck.read_text()[:-40]
    ck.write_text(damaged)
    assert main(args) == 2
    assert "damaged checkpoint" in capsys.readouterr().err
    assert ck.read_text() == damaged                       # never silently overwritten
    assert main([*args, "--force"]) == 0


def test_layout_file_sets_the_chromosome(tmp_path):
    (tmp_path / "layout.json").write_text('{"positions": 4, "pot_odds_edges": [0, 0.1, 0.3], "weight_edges": [1.0]}')
    out = tmp_path / "run"
    assert main(["evolve", "--population", "4", "--generations", "2", "--hands-per-match", "100", "--trainers", "2",
                 "--workers", "1", "--report-hands", "0", "--quiet", "--out", str(out),
                 "--layout", str(tmp_path / "layout.json")]) == 0
    player = Player.load(out / "evolve" / "final-player.json")
    assert player.layout == Layout(positions=4, pot_odds_edges=(0.0, 0.1, 0.3), weight_edges=(1.0,))
    assert player.layout.shape == (9, 3, 2, 4, 3, 4, 2) and player.genes.shape == (9 * 3 * 2 * 4 * 3 * 4 * 2, 2)
    # a player file serves as a layout too: the run continues from the same checkpoint, so the layouts agree
    assert main(["evolve", "--population", "4", "--generations", "2", "--hands-per-match", "100", "--trainers", "2",
                 "--workers", "1", "--report-hands", "0", "--quiet", "--out", str(out),
                 "--layout", str(out / "evolve" / "final-player.json")]) == 0


def test_the_estimate_counts_the_report():
    """The quick run's estimate said 'about 8 seconds' for a 3-minute command: the report's matches (six engine
    yardsticks and four re-measured curve points at --report-hands, two rlcard opponents) were left out."""
    from jobs.commands.evolve import estimate_line
    from pipeline.batch.session import Session
    from pipeline.ga.budget import estimate
    from pipeline.ga.config import Config

    cfg = Config(population=20, generations=10, hands_per_match=2000, seed=1, weights="sampled")
    with Session(workers=1, quiet=True) as session:          # the estimate starts no cluster
        line = estimate_line(estimate(cfg, session.processes(), None, 200_000, 100_000))
    assert "up to 740,000 hands" in line and "then its report 2,200,000 more: about " in line, line
