"""Hold'em results and histories pinned byte for byte: digests recorded at 3d69a2d, before issue 20's changes.

Issue 20 made the simulation run in short chunks (so that Ctrl-C is seen),
wrote the histories with a manifest and re-checked every input; none of it may
change a number or a byte.  The digests below were recorded from that commit's
code for these exact parameters (``simulate``, ``write_histories`` and
``pokerpipe play --json``).  A history folder's manifest (new since) is left
out of the history digests: it is checked by the reliability tests.

Issue 40 dated and numbered each hand from the run's start (``pipeline.holdem.histories.stamps``) and moved
PokerStars' first line to its current form: what changed is each hand's first line (PokerStars) and its
``game_number`` and ``start_date_utc`` (OHH), so those digests are of everything else, recorded from the
code before that change with the same parts left out (:func:`undated`).

Issue 40 (item 7) retuned ``tag`` into a tight-aggressive player, so every case with a ``tag`` seat was recorded
again from the retuned code; the cases without one kept their digests.  Before recording, the new code with
``tag`` answering by its old rule (the thresholds ``thesis-preflop`` plays after the flop) reproduced every
old digest, the new parameter row's layout included: only ``tag``'s own answers changed.
"""
import hashlib
import json
import subprocess
import sys

import pytest

from pipeline.batch.storage import Storage
from pipeline.holdem import Table, simulate
from pipeline.holdem.histories import write_histories

SIMS = [
    ((["tag", "station"], 3000, 1, True, {}),
     "8f6166d8a08a93385483b882aef6bf01e282a9b0a2f938e4900e9ace0d05ca60"),
    ((["random", "maniac", "station", "tag", "random", "thesis-preflop"], 1200, 7, True, {}),
     "cbbf8b860c8a1c815a4f5fca2368528733cbe6022fcb95d632af22a06f1673ac"),
    ((["tag"] * 4 + ["maniac"] * 6, 2000, 3, False, {"rake_percent": 5.0, "rake_cap_bb": 3.0}),
     "b6eb7fef252b14a6c9cc9c106ea0149e2d94835b7d2c269fef0025b2a4165624"),
    ((["random", "maniac", "station"], 900, 11, True, {"stack_bb": [1, 3, 200]}),
     "3712d862ddac678abe08a29b6844e98f28323b5a2d54c3b3e1c15c1e67ddf458"),
]
HISTORIES = [
    ((["random", "maniac", "station", "random", "maniac"], [1, 3, 200, 2, 1.5], 5, 60, None),
     {"pokerstars": "26f96505e3afccfa3a44908825979da4bd56a8ae8e2b7e47427787148810e486",
      "phh": "d19ace3220b2be368ddd3f29c510dc2ecaaf3d35ce0383dff57478491c666cb3",
      "ohh": "6edb28a8ed7a5aacbb090cb89fbc80c62a3fef502b1bc087d5b066f72d0570e7"}),
    ((["tag", "station", "maniac"], 200, 3, 40, 1),
     {"pokerstars": "68ad3edd08a882306988e33fba774c7a6a1e8ecb6d4f5e57b0f3a4e2f2c17555",
      "phh": "0f7f2f905b1a6d1cf3d0c8090ab3109b2c2b4c088adb59e513893599b6fe9137",
      "ohh": "60387796bb4b748a7d68b9cc43f03b2c48f44254791e6ab33c2bf5f43dfca618"}),
]
# ``pokerpipe play ARGS --json`` at 3d69a2d (with tag: after issue 40's retune): SHA-256 of its stdout (the keys it
# printed then, in that order)
PLAY_JSON = [
    ("-s 2 -p tag,station -n 2000", "88115eb32a289f791462ed7ef42e36adb11c702f14fcef141326ef4f2594dc90"),
    ("-s 6 -p random,maniac,station,tag,random,thesis-preflop -n 600 --seed 7 --rake 5 --rake-cap 3",
     "d492e06c450a206fe47c08b6d787e75e4bbc1748a68473cdbaa9302b18d6c675"),
    ("-s 3 -p maniac,maniac,station -n 600 --seed 5 --no-duplicate",
     "b2e02981519817bc184ff0d5b73945760217ad84b5a569bca7c616ea4a685370"),
]
MANIFEST = "_histories.json"       # a history folder's manifest (pipeline.holdem.histories.MANIFEST)
OLD_KEYS = ("seat", "policy", "bb_per_100", "ci95", "vpip", "pfr", "af")


def undated(name: str, data: bytes) -> bytes:
    """A history file without what dates and numbers its hands: PokerStars' first lines, OHH's game_number and
    start_date_utc (the OHH documents dumped again as one JSON list)."""
    if name.endswith(".txt"):
        return b"".join(line for line in data.splitlines(True) if not line.startswith(b"PokerStars "))
    if name.endswith(".ohh"):
        docs = [json.loads(block) for block in data.decode().strip().split("\n\n")]
        for d in docs:
            d["ohh"].pop("game_number")
            d["ohh"].pop("start_date_utc")
        return json.dumps(docs).encode()
    return data


@pytest.mark.parametrize("case, digest", SIMS)
def test_simulation_numbers_are_unchanged(case, digest):
    names, hands, seed, duplicate, kw = case
    r = simulate(names, hands, seed, duplicate, **kw)
    doc = {"hands": r.hands, "units": r.units_won.tolist(), "rake": r.rake,
           "seats": [[s.bb_per_100, s.stderr, s.ci95, s.stats] for s in r.seats], "policies": r.policies}
    assert hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest() == digest


@pytest.mark.parametrize("case, digests", HISTORIES)
@pytest.mark.parametrize("fmt", ["pokerstars", "phh", "ohh"])
def test_history_bytes_are_unchanged(tmp_path, case, digests, fmt):
    names, stacks, seed, hands, hero = case
    write_histories(Table.make(names, stack_bb=stacks), seed, hands, fmt, Storage.open(tmp_path), True, hero)
    h = hashlib.sha256()
    for p in sorted(tmp_path.rglob("*")):
        if p.is_file() and p.name != MANIFEST:
            h.update(p.relative_to(tmp_path).as_posix().encode() + b"\0" + undated(p.name, p.read_bytes()))
    assert h.hexdigest() == digests[fmt]


@pytest.mark.slow
def test_play_json_is_unchanged():
    """The console script, three runs at once; the keys added since (WTSD, W$SD) are dropped before hashing."""
    procs = [subprocess.Popen([sys.executable, "-m", "jobs", "play", *args.split(), "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for args, _ in PLAY_JSON]
    for p, (args, digest) in zip(procs, PLAY_JSON):
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
        d = json.loads(out)
        old = {"hands": d["hands"], "seats": [{k: s[k] for k in OLD_KEYS} for s in d["seats"]]}
        assert hashlib.sha256((json.dumps(old) + "\n").encode()).hexdigest() == digest, args
