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


@pytest.mark.slow
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
    assert lines[0].startswith("PokerStars Hand #") and "Hold'em Limit ($1/$2 USD) - " in lines[0]
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


def test_hands_are_dated_and_numbered_from_the_runs_start(tmp_path):
    """Times advance 30 s a hand from the stated start (UTC, with US Eastern time in brackets, daylight saving
    applied); numbers rise with them, never repeat in a run, and differ between runs started apart; the same
    start gives the same bytes; the manifest states it."""
    from pipeline.batch.storage import Storage
    from pipeline.holdem.histories.stamps import RunStamp

    t = Table.make(["tag", "station", "maniac"])
    summer = RunStamp.parse("2026-07-01T12:00:00Z")
    text = pokerstars.write_file(record(t, seed=3, first=0, count=200), stamp=summer)
    heads = [line for line in text.splitlines() if line.startswith("PokerStars Hand #")]
    assert heads[0] == ("PokerStars Hand #178290720000000000:  Hold'em Limit ($1/$2 USD) - 2026/07/01 12:00:00 UTC "
                        "[2026/07/01 8:00:00 ET]")       # 12:00 UTC is 8:00 EDT
    assert heads[1].endswith("- 2026/07/01 12:00:30 UTC [2026/07/01 8:00:30 ET]")
    numbers = [int(h.split("#")[1].split(":")[0]) for h in heads]
    assert len(set(numbers)) == 200 and numbers == sorted(numbers)
    winter = pokerstars.write_hand(record(t, seed=3, first=0, count=1)[0], stamp=RunStamp.parse("2026-12-04T21:00:00"))
    assert "- 2026/12/04 21:00:00 UTC [2026/12/04 16:00:00 ET]" in winter.splitlines()[0]   # EST: UTC-5
    later = pokerstars.write_file(record(t, seed=3, first=0, count=200), stamp=RunStamp.parse("2026-07-01T12:00:01Z"))
    assert not set(numbers) & {int(h.split("#")[1].split(":")[0]) for h in later.splitlines() if h.startswith("Poker")}
    assert pokerstars.write_file(record(t, seed=3, first=0, count=200), stamp=summer) == text
    write_histories(t, 3, 5, "ohh", Storage.open(tmp_path), start=summer)
    doc = json.loads((tmp_path / "hands.ohh").read_text().split("\n\n")[1])["ohh"]
    assert doc["start_date_utc"] == "2026-07-01T12:00:30Z" and doc["game_number"] == "178290720000000001"
    assert json.loads((tmp_path / "_histories.json").read_text())["start"] == "2026-07-01T12:00:00Z"


def test_pokerstars_text_meets_pokerkits_patterns():
    """pokerkit's PokerStars parser builds no-limit games only, so its whole parse cannot run on a limit hand;
    its patterns can: each hand found by its HAND pattern, and the hand number, date, time, time zone, seat
    count, table, seats and starting stacks read by its own expressions equal what was written."""
    notation = pytest.importorskip("pokerkit.notation")
    from pipeline.holdem.histories.stamps import RunStamp

    P = notation.PokerStarsParser
    recs = record(Table.make(["tag", "station", "maniac"]), seed=3, first=0, count=20)
    stamp = RunStamp.parse("2026-07-01T12:00:00Z")
    hands = [m.group(0) for m in P.HAND.finditer(pokerstars.write_file(recs, stamp=stamp))]
    assert len(hands) == len(recs)
    for text, rec in zip(hands, recs):
        got = {key: kind(m.group(key)) if kind is not notation.parse_time else m.group(key)
               for key, (pattern, kind) in P.VARIABLES.items() if (m := pattern.search(text))}
        when = stamp.hand_time(rec.number)
        assert got["hand"] == stamp.hand_number(rec.number) and got["table"] == "pokerpipe 3"
        assert (got["year"], got["month"], got["day"], got["time"]) == (when.year, when.month, when.day,
                                                                        when.strftime("%H:%M:%S"))
        assert got["time_zone_abbreviation"] == "UTC" and got["seat_count"] == 3
        head = text.split("*** HOLE CARDS ***")[0]          # the seat lines, not the summary's
        seats = {m.group("player"): int(m.group("seat")) for m in P.SEATS.finditer(head)}
        assert seats == {f"{name}_{k + 1}": k + 1 for k, name in enumerate(rec.names)}
        stacks = [round(float(m.group("starting_stack")) * 100) for m in P.STARTING_STACKS.finditer(head)]
        assert stacks == rec.stacks.tolist()
