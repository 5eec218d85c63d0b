"""Waugh's hand index (pipeline.isomorphism.waugh): speed beside pokerpipe's situation index and, when given,
Waugh's own C library; and the full-street round trips too long for the tests.

    python benchmarks/bench_waugh.py                               # 2,000,000 random hands per indexer
    python benchmarks/bench_waugh.py --waugh-driver PATH           # + the C library's hand_index_all
    python benchmarks/bench_waugh.py --full                        # every turn and river index round-tripped

Times are CPU seconds of this process (``time.process_time``; the driver's ``clock()``), so that a shared
machine's load weighs less; each figure is quoted beside the others of the same run.  ``--waugh-driver`` is
the executable ``benchmarks/waugh_index_driver.c`` makes when the user compiles it against their copy of
Waugh's library; its indices are compared with ours (they must be equal).  ``--full`` unindexes every index of
the turn and river (boards as sets), indexes the hands back, and prints the SHA-256 of the canonical hands
(the river's, recorded below, is the stream whose every hand Waugh's C library indexed as its own index).
"""
from __future__ import annotations

import argparse
import hashlib
import os
import platform
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchmarks.common import random_hands  # noqa: E402
from pipeline.isomorphism.situations import situation_indices  # noqa: E402
from pipeline.isomorphism.waugh import HOLDEM_ROUNDS, PERFECT_RECALL, holdem_indexer  # noqa: E402

FULL_DIGESTS = {"turn": "0e4192e21274528d62c0927b4c9fe79afd1011d9da52515d8b9b7d9bc84b1772",
                "river": "b4fb6e7b780409147581af7a167dabefdddeb6cdd7ca1689471a8911dcf95e47"}


def cpu() -> float:
    return time.process_time()


def cpu_flags() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
    except OSError:
        return platform.processor()
    name = next((line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("model name")), "")
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), [])
    return f"{name} ({', '.join(f for f in ('avx2', 'avx512f') if f in flags) or 'no AVX2'})"


def c_driver(path: str, rounds: tuple[int, ...], hands: np.ndarray) -> tuple[np.ndarray, float]:
    r = subprocess.run([path, *map(str, rounds)], input=np.ascontiguousarray(hands, np.uint8).tobytes(),
                       capture_output=True, check=True)
    return np.frombuffer(r.stdout, np.int64).reshape(-1, len(rounds)), float(r.stderr.split()[0])


def speed(n: int, driver: str | None) -> None:
    print(f"{n:,} random hands per indexer, CPU seconds of one thread; {cpu_flags()}")
    print(f"{'indexer':<16}{'index':>8}{'unindex':>9}{'situation index':>17}   C hand_index_all")
    cases = [(s, holdem_indexer(s)) for s in ("flop", "turn", "river")] + [("perfect recall", PERFECT_RECALL)]
    for name, ix in cases:
        hands = random_hands(n, ix.cards(), seed=7)
        ix.unindex_array(ix.index_array(hands[:10]))               # compiled before the clock
        t = cpu()
        index = ix.index_array(hands)
        t_index = cpu() - t
        t = cpu()
        ix.unindex_array(index)
        t_unindex = cpu() - t
        t_situation = float("nan")
        if name in HOLDEM_ROUNDS:
            situation_indices(hands[:10])
            t = cpu()
            situation_indices(hands)
            t_situation = cpu() - t
        c = ""
        if driver:
            got, seconds = c_driver(driver, ix.cards_per_round, hands)
            assert (got[:, -1] == index).all(), f"{name}: the C library's indices differ"
            c = f"{seconds:.3f} (ours {t_index / seconds:.2f}x its time)"
        print(f"{name:<16}{t_index:>8.3f}{t_unindex:>9.3f}{t_situation:>17.3f}   {c}")


def full() -> None:
    for street in ("turn", "river"):
        ix = holdem_indexer(street)
        digest = hashlib.sha256()
        t = cpu()
        step = 1 << 22
        for lo in range(0, ix.size(), step):
            every = np.arange(lo, min(ix.size(), lo + step))
            hands = ix.unindex_array(every)
            assert (ix.index_array(hands) == every).all(), f"{street}: the round trip fails near {lo:,}"
            digest.update(hands.tobytes())
        ok = digest.hexdigest() == FULL_DIGESTS[street]
        print(f"{street}: index(unindex(i)) == i for all {ix.size():,} indices, {cpu() - t:.1f} CPU s; "
              f"canonical hands SHA-256 {'as recorded' if ok else 'DIFFERS: ' + digest.hexdigest()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=2_000_000)
    ap.add_argument("--waugh-driver", help="the executable of benchmarks/waugh_index_driver.c, built by you")
    ap.add_argument("--full", action="store_true", help="round-trip every turn and river index")
    a = ap.parse_args()
    speed(a.hands, a.waugh_driver)
    if a.full:
        full()


if __name__ == "__main__":
    main()
