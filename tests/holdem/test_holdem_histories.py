"""Hand histories replay to the engine's own final stacks: PHH in pokerkit, OHH against ohh-pydantic's
model, PokerStars text through our reader (checked first on the PokerStars sample)."""
import json
from pathlib import Path

import pytest
from oracles.stars_reader import cents, read

from pipeline.holdem import Table
from pipeline.holdem.engine import A_BB, A_SB
from pipeline.holdem.histories import ohh, phh, pokerstars, write_histories
from pipeline.holdem.record import record

SAMPLE = Path("/work/shared/reference/pokerstars_flhe_sample.txt")
TABLES = [(["tag", "maniac"], 200), (["random", "maniac", "station", "tag", "random", "thesis-preflop"], 200),
          (["random", "maniac", "station", "random", "maniac"], [1, 3, 200, 2, 1.5])]   # short stacks: side pots


@pytest.fixture(scope="module", params=range(len(TABLES)))
def hands(request):
    names, stacks = TABLES[request.param]
    return record(Table.make(names, stack_bb=stacks, rake_percent=0), seed=5, first=0, count=400)


def test_reader_on_the_pokerstars_sample():
    h = read(SAMPLE.read_text())[0]
    assert h.button == 5 and h.rake == 25
    # riterman: $7.90 - $2.50 in + $5.60; OK @ PB: $17.70 - $2.50 (figures from the sample's own lines)
    assert h.final_stacks[3] == cents("7.90") - 250 + 560 and h.final_stacks[2] == cents("17.70") - 250
    assert sum(h.stacks) - sum(h.final_stacks) == h.rake


def test_phh_replays_in_pokerkit(hands):
    pokerkit = pytest.importorskip("pokerkit")
    for rec in hands:
        hh = pokerkit.HandHistory.loads(phh.write_hand(rec))
        states = list(hh)
        state = states[-1] if states else None
        assert state is not None and not state.status
        assert list(state.stacks) == [int(rec.final_stacks[s]) for s in phh.phh_order(rec)]


def test_ohh_validates(hands):
    models = pytest.importorskip("open_hh_models.models")
    text = ohh.write_file(hands)
    docs = [json.loads(block) for block in text.strip().split("\n\n")]
    assert len(docs) == len(hands)
    for doc, rec in zip(docs, hands):
        m = models.OpenHandHistory.model_validate(doc["ohh"])
        wins = {w.player_id: 0 for w in []}
        for pot in m.pots:
            for w in pot.player_wins or []:
                wins[w.player_id] = wins.get(w.player_id, 0) + round(w.win_amount * 100)
        assert [wins.get(k, 0) for k in range(rec.seats)] == rec.won.tolist()


def test_pokerstars_text_reads_back(hands):
    back = read(pokerstars.write_file(hands))
    assert len(back) == len(hands)
    for h, rec in zip(back, hands):
        assert h.button == rec.button and h.rake == rec.rake
        assert [h.holes[k] for k in range(rec.seats)] == rec.holes.tolist()
        assert h.board == rec.board_seen.tolist()
        assert [(a[0], a[1], a[2], a[3]) for a in h.actions] == [tuple(int(x) for x in a[:4]) for a in rec.actions]
        assert h.final_stacks == rec.final_stacks.tolist()


def test_pokerstars_form_matches_the_sample():
    text = pokerstars.write_hand(record(Table.make(["tag"] * 6), seed=1, first=0, count=1)[0])
    lines = text.splitlines()
    assert lines[0].startswith("PokerStars Game #") and "Hold'em Limit ($1/$2 USD) - " in lines[0]
    assert lines[1].startswith("Table '") and lines[1].endswith(" 6-max Seat #1 is the button")
    assert lines[2] == "Seat 1: tag_1 ($200 in chips) "
    assert lines[8] == "tag_2: posts small blind $0.50" and lines[9] == "tag_3: posts big blind $1"
    assert lines[10] == "*** HOLE CARDS ***" and "*** SUMMARY ***" in lines
    assert any(x.startswith("Total pot $") and x.endswith(" | Rake $0 ") for x in lines)


def test_write_histories_files(tmp_path):
    from pipeline.batch.storage import Storage

    t = Table.make(["tag", "station", "maniac"])
    files = write_histories(t, 3, 30, "phh", Storage.open(tmp_path))
    assert len(files) == 30 and all(f.endswith(".phh") for f in files)
    assert sorted(p.name for p in (tmp_path / "phh").iterdir()) == [f"hand_{i:08d}.phh" for i in range(30)]
    (f,) = write_histories(t, 3, 30, "pokerstars", Storage.open(tmp_path))
    assert len(read(Path(f).read_text())) == 30
    (f,) = write_histories(t, 3, 30, "ohh", Storage.open(tmp_path))
    assert Path(f).read_text().count('{"ohh": ') == 30
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]      # no temporary file left
    assert A_SB != A_BB


def test_pokerstars_hero_file_shows_one_hand_and_reads_back(hands):
    text = pokerstars.write_file(hands, hero=0)
    assert text.count("Dealt to ") == len(hands)
    for h, rec in zip(read(text), hands):
        assert h.holes[0] == rec.holes[0].tolist()
        for k in range(rec.seats):                     # the others' cards only when shown down
            assert (k in h.holes) == (k == 0 or rec.values[k] >= 0)
        assert h.final_stacks == rec.final_stacks.tolist()
