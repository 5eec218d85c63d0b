"""Write a run's hands as history files: PokerStars text, PHH or OHH, in chunks of hands."""
from __future__ import annotations

import os
from pathlib import Path

from ..record import record
from ..seating import Table
from . import ohh, phh, pokerstars

FORMATS = ("pokerstars", "phh", "ohh")
CHUNK = 5_000


def write_histories(table: Table, seed: int, hands: int, fmt: str, out: str | Path,
                    duplicate: bool = True, hero: int | None = None, weights: str = "auto") -> list[Path]:
    """Write hands ``0 .. hands-1`` of the run to ``out`` in format ``fmt``; return the files written.

    PokerStars and OHH hands go to one file per run (``hands.txt``,
    ``hands.ohh``); PHH to one ``.phh`` file per hand under ``out/phh/``.  Files
    are written under a temporary name and renamed.  ``hero`` (a seat index):
    PokerStars text shows only that seat's hole cards before the showdown.
    ``weights`` as :func:`.simulate.simulate` (the same hands as its run).
    """
    if fmt not in FORMATS:
        raise ValueError(f"history format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if fmt == "phh":
        folder = out / "phh"
        folder.mkdir(exist_ok=True)
    path = out / ("hands.txt" if fmt == "pokerstars" else "hands.ohh")
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w") if fmt != "phh" else open(os.devnull, "w") as f:
        for first in range(0, hands, CHUNK):
            for rec in record(table, seed, first, min(CHUNK, hands - first), duplicate, weights):
                if fmt == "phh":
                    p = folder / f"hand_{rec.number:08d}.phh"
                    p.write_text(phh.write_hand(rec))
                    written.append(p)
                elif fmt == "pokerstars":
                    f.write(pokerstars.write_hand(rec, hero))
                else:
                    f.write(ohh.write_file([rec]) + "\n")
    if fmt != "phh":
        os.replace(tmp, path)
        written.append(path)
    return written
