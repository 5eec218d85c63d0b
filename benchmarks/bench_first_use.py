"""What a command's first use costs: its run in a fresh cache (kernels compiled, tables built) beside a warm run.

Each command runs twice in an empty ``POKERPIPE_CACHE`` (a new install or an
upgrade as the user meets it), the first compiling, the second loading from
the cache; the difference is the figure :data:`jobs.firstuse.FIRST_USE_SECONDS`
records and the first-use line announces.  The table also says whether each
run printed that line (first run: yes where the figure is above
:data:`jobs.firstuse.QUICK_SECONDS`; second run: never).

    python benchmarks/bench_first_use.py                 # every command below
    python benchmarks/bench_first_use.py ehs odds        # some of them

Compilation is single-threaded: measure on a quiet machine; the load is printed.  The peers' first use, in
the same run: eval7 (a compiled C extension: its first use is its import) and pokerkit (pure Python), each
importing and valuing one seven-card hand in a new process, twice.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMMANDS: dict[str, list[str]] = {
    "equity": ["equity", "QQ+,AKs", "random", "--trials", "1000000"],
    "equity 3-way flop": ["equity", "AhKh", "QsQd", "JcTc", "--board", "2c3d4h"],
    "equity omaha": ["equity", "--game", "omaha", "AsKsQdJd", "random", "--trials", "200000"],
    "equity shortdeck": ["equity", "--game", "shortdeck", "AhKh", "QsQd"],
    "ehs": ["ehs", "AhKh", "--board", "Qh7h2c"],
    "odds": ["odds", "AhKh", "--board", "Qh7h2c"],
    "outs": ["outs", "AhKh", "--board", "Qh7h2c"],
    "play": ["play", "--policies", "tag,random", "--hands", "20000"],
    "videopoker": ["videopoker", "jacks-or-better-9-6"],
    "exploit": ["exploit", "tag", "--hands", "2000"],
    "range": ["range", "QQ+,AKs"],
    "bucket": ["bucket", "AhKh"],
}


def _run(args: list[str], cache: str) -> tuple[float, bool, int]:
    env = {**os.environ, "POKERPIPE_CACHE": cache, "POKERPIPE_COMPILE_NOTICE": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, env=env,
                          cwd=ROOT)
    return time.perf_counter() - t, "compiling kernels" in done.stderr, done.returncode


PEERS: dict[str, str] = {
    "eval7": "import eval7; eval7.evaluate([eval7.Card(c) for c in ('Ah', 'Kh', 'Qh', 'Jh', 'Th', '2c', '3d')])",
    "pokerkit": "from pokerkit import Card, StandardHighHand; "
                "StandardHighHand.from_game(Card.parse('AhKh'), Card.parse('QhJhTh2c3d'))",
}


def _peer(code: str) -> tuple[float, int]:
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return time.perf_counter() - t, done.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help=f"commands to time (default all: {', '.join(COMMANDS)})")
    names = ap.parse_args().names or list(COMMANDS)
    print(f"{'command':<20s} {'first s':>8s} {'warm s':>7s} {'first use s':>11s}  line printed  load")
    for name in names:
        with tempfile.TemporaryDirectory(prefix="pokerpipe-first-use-") as cache:
            cold, said, rc = _run(COMMANDS[name], cache)
            warm, again, rc2 = _run(COMMANDS[name], cache)
        status = "" if rc == rc2 == 0 else f"  exit {rc}/{rc2}"
        print(f"{name:<20s} {cold:8.1f} {warm:7.1f} {cold - warm:11.1f}  {'yes' if said else 'no':>4s} / "
              f"{'yes' if again else 'no':<4s}  {os.getloadavg()[0]:.1f}{status}", flush=True)
    for name, code in PEERS.items():        # the peers in the same run: import and one hand, twice
        (cold, rc), (warm, rc2) = _peer(code), _peer(code)
        status = "" if rc == rc2 == 0 else f"  exit {rc}/{rc2} (not installed?)"
        print(f"{'peer ' + name:<20s} {cold:8.1f} {warm:7.1f} {cold - warm:11.1f}  {'-':>4s} / {'-':<4s}  "
              f"{os.getloadavg()[0]:.1f}{status}", flush=True)


if __name__ == "__main__":
    main()
