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
     "c514ed87e2adb160daf39f0511310697d6744f548d2b4a9c138ca4e7b9668ae1"),
    ((["tag"] * 4 + ["maniac"] * 6, 2000, 3, False, {"rake_percent": 5.0, "rake_cap_bb": 3.0}),
     "0595912ca2a4fa9bc53ad9bef0bbcb2de02e64a447dd00cf6c2d180108d70996"),
    ((["random", "maniac", "station"], 900, 11, True, {"stack_bb": [1, 3, 200]}),
     "3712d862ddac678abe08a29b6844e98f28323b5a2d54c3b3e1c15c1e67ddf458"),
]
HISTORIES = [
    ((["random", "maniac", "station", "random", "maniac"], [1, 3, 200, 2, 1.5], 5, 60, None),
     {"pokerstars": "26f96505e3afccfa3a44908825979da4bd56a8ae8e2b7e47427787148810e486",
      "phh": "d19ace3220b2be368ddd3f29c510dc2ecaaf3d35ce0383dff57478491c666cb3",
      "ohh": "6edb28a8ed7a5aacbb090cb89fbc80c62a3fef502b1bc087d5b066f72d0570e7"}),
    ((["tag", "station", "maniac"], 200, 3, 40, 1),
     {"pokerstars": "11060378aa98fd5f7124b49a34d1034a90faba225cc80792c57c8b85445d0a81",
      "phh": "2263d06f840f6d44891741535bcbc9d4f815a60687107ef6040e3b4876d30f4f",
      "ohh": "26b8743da59e76cb55225cb712e14cbbe0471576e76e8100c9dab22d2d82323f"}),
]
# ``pokerpipe play ARGS --json`` at 3d69a2d (with tag: after issue 40's retune): SHA-256 of its stdout (the keys it
# printed then, in that order)
PLAY_JSON = [
    ("-s 2 -p tag,station -n 2000", "88115eb32a289f791462ed7ef42e36adb11c702f14fcef141326ef4f2594dc90"),
    ("-s 6 -p random,maniac,station,tag,random,thesis-preflop -n 600 --seed 7 --rake 5 --rake-cap 3",
     "ccedddbf56e8fdd8a8eaf88bfd06a985e14719241af1de8f6da54c026f8c9d5a"),
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
