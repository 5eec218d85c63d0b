"""EHS tables: the whole flop, turn and river tables on this machine, beside a per-situation enumeration.

    python benchmarks/bench_ehs_table.py [flop turn river] [--no-peer]

Each street runs ``pokerpipe ehs-table --street S --force`` in a fresh process
(JIT cache warm) into a temporary folder and prints wall time, rows, dataset
size and the client's peak memory.  The comparison is ``hand_strength`` — one
situation at a time, the AAAI-98 double loop over opponent hands and runouts —
timed on a sample and scaled to the street's row count.

The peer, measured in the same run: the same double loop (every runout, every opponent hand) with eval7's
``evaluate`` (per hand, from Python) as the evaluator, on a sample of the same situations, scaled to the
street's rows; its ratio to the table's wall time is printed beside ours.  No registry package computes HS and
hand potential; eval7's ``py_hand_vs_range_exact`` does not enumerate runouts on a 3- or 4-card board (it
gives AsAh on Kd7c2h 0.994 against every hand, our HS is 0.966 and its own Monte Carlo about 0.888), so it is not
used.  ``--no-peer`` skips the peer.
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROWS = {"flop": 1_286_792, "turn": 13_960_050, "river": 123_156_254}


def per_situation_seconds(street: str, sample: int = 20) -> float:
    """Seconds per situation of the single-situation enumeration, on random situations."""
    from pipeline.isomorphism.situations import situation_text
    from pipeline.strength.hand_strength import hand_strength

    cards = {"flop": 3, "turn": 4, "river": 5}[street]
    hand_strength(*situation_text(12345, cards))          # compile / warm
    t = time.perf_counter()
    for i in range(sample):
        hand_strength(*situation_text(i * 7919 % ROWS[street], cards))
    return (time.perf_counter() - t) / sample


EVAL7_SAMPLE = {"flop": 2, "turn": 10, "river": 100}


def eval7_per_situation_seconds(street: str) -> float | None:
    """Seconds per situation of the same double loop with eval7's evaluator, on a sample of the same
    situations: for every runout, every opponent hand is evaluated against ours (and, once, on the current
    board).  None without eval7."""
    try:
        import eval7
    except ImportError:
        return None
    from itertools import combinations

    from pipeline.isomorphism.situations import situation_text

    cards, sample = {"flop": 3, "turn": 4, "river": 5}[street], EVAL7_SAMPLE[street]
    ev = eval7.evaluate

    def split(text: str) -> list:
        return [eval7.Card(text[i:i + 2]) for i in range(0, len(text), 2)]

    def one(hole: list, board: list) -> tuple[int, int, int]:
        rest = [c for c in eval7.Deck().cards if c not in hole and c not in board]
        ahead = tied = behind = 0
        mine = ev(hole + board)
        for opp in combinations(rest, 2):       # HS now
            v = ev(list(opp) + board)
            ahead, tied, behind = ahead + (mine > v), tied + (mine == v), behind + (mine < v)
        for runout in combinations(rest, 5 - len(board)) if len(board) < 5 else ():
            full = board + list(runout)
            mine = ev(hole + full)
            left = [c for c in rest if c not in runout]
            for opp in combinations(left, 2):
                v = ev(list(opp) + full)
                ahead, tied, behind = ahead + (mine > v), tied + (mine == v), behind + (mine < v)
        return ahead, tied, behind

    situations = [situation_text(i * 7919 % ROWS[street], cards) for i in range(sample)]
    parsed = [(split(h), split(b)) for h, b in situations]
    t = time.perf_counter()
    for hole, board in parsed:
        one(hole, board)
    return (time.perf_counter() - t) / sample


def run_street(street: str, out: str) -> tuple[float, int, int]:
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "jobs", "ehs-table", "--street", street, "--out", out, "--quiet",
                    "--force"], cwd=ROOT, check=True)
    wall = time.perf_counter() - t
    from pipeline.batch.verified import manifest_path

    folder = Path(out) / "ehs-table" / street
    manifest = json.loads(Path(out, *manifest_path(f"ehs-table/{street}")).read_text())
    rows = sum(p["rows"] for p in manifest["parts"])
    size = sum(f.stat().st_size for f in folder.glob("*.parquet"))
    return wall, rows, size


def main() -> None:
    args = sys.argv[1:]
    peer = "--no-peer" not in args
    streets = [a for a in args if a != "--no-peer"] or ["flop", "turn", "river"]
    with tempfile.TemporaryDirectory() as out:
        for street in streets:
            wall, rows, size = run_street(street, out)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            slow = per_situation_seconds(street) * ROWS[street]
            print(f"{street}: {rows:,} rows, {size / 1e6:.0f} MB, {wall:.1f} s wall on 2 cores "
                  f"(client peak so far {peak:.0f} MB); one situation at a time: ~{slow / 3600:.1f} h on 1 core, "
                  f"{slow / wall:.0f}x the table's wall time")
            e7 = eval7_per_situation_seconds(street) if peer else None
            if e7 is not None:
                e7_all = e7 * ROWS[street]
                print(f"  peer: the double loop with eval7's evaluate, one situation at a time ({EVAL7_SAMPLE[street]}"
                      f" of the same situations, same run, scaled): ~{e7_all / 3600:.1f} h on 1 core, "
                      f"{e7_all / wall:.0f}x the table's wall time")
            elif peer:
                print("  peer: eval7 not installed (pip install eval7)")


if __name__ == "__main__":
    main()
