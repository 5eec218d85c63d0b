"""EHS tables: the whole flop, turn and river tables on this machine, beside a per-situation enumeration.

    python benchmarks/bench_ehs_table.py [flop turn river]

Each street runs ``pokerpipe ehs-table --street S --force`` in a fresh process
(JIT cache warm) into a temporary folder and prints wall time, rows, dataset
size and the client's peak memory.  The comparison is ``hand_strength`` — one
situation at a time, the AAAI-98 double loop over opponent hands and runouts —
timed on a sample and scaled to the street's row count.
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
    streets = sys.argv[1:] or ["flop", "turn", "river"]
    with tempfile.TemporaryDirectory() as out:
        for street in streets:
            wall, rows, size = run_street(street, out)
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            slow = per_situation_seconds(street) * ROWS[street]
            print(f"{street}: {rows:,} rows, {size / 1e6:.0f} MB, {wall:.1f} s wall on 2 cores "
                  f"(client peak so far {peak:.0f} MB); one situation at a time: ~{slow / 3600:.1f} h on 1 core, "
                  f"{slow / wall:.0f}x the table's wall time")


if __name__ == "__main__":
    main()
