"""Write a run's hands as history files: PokerStars text, PHH or OHH, in chunks of hands.

The writers (one module per format) turn a :class:`~pipeline.holdem.record.HandRecord`
into text; :func:`write_histories` replays a run's hands and writes them into a
:class:`~pipeline.core.files.Files` folder, local or an object store, each file
committed whole or not at all.
"""
from __future__ import annotations

from typing import Optional

from ...core.files import Files
from ..record import record
from ..seating import Table
from ..weights import WeightSource
from . import ohh, phh, pokerstars

FORMATS = ("pokerstars", "phh", "ohh")
FILES = {"pokerstars": "hands.txt", "ohh": "hands.ohh"}      # one file per run; PHH: phh/hand_NNNNNNNN.phh
CHUNK = 5_000


def write_histories(table: Table, seed: int, hands: int, fmt: str, files: Files, duplicate: bool = True,
                    hero: int | None = None, weights: Optional[WeightSource] = None) -> list[str]:
    """Write hands ``0 .. hands-1`` of the run into ``files`` in format ``fmt``; return the files written.

    PokerStars and OHH hands go to one file per run (``hands.txt``,
    ``hands.ohh``); PHH to one ``.phh`` file per hand under ``phh/``.  ``hero``
    (a seat index): PokerStars text shows only that seat's hole cards before
    the showdown.  ``weights`` as :func:`.simulate.simulate` (the same hands as its run).
    """
    if fmt not in FORMATS:
        raise ValueError(f"history format must be one of {', '.join(FORMATS)}, got {fmt!r}")
    files.makedirs()
    if fmt == "phh":
        files.makedirs("phh")
        written = []
        for first in range(0, hands, CHUNK):
            for rec in record(table, seed, first, min(CHUNK, hands - first), duplicate, weights):
                name = f"hand_{rec.number:08d}.phh"
                files.write_atomic(phh.write_hand(rec).encode(), "phh", name)
                written.append(files.url("phh", name))
        return written
    with files.writer(FILES[fmt]) as f:
        for first in range(0, hands, CHUNK):
            for rec in record(table, seed, first, min(CHUNK, hands - first), duplicate, weights):
                text = pokerstars.write_hand(rec, hero) if fmt == "pokerstars" else ohh.write_file([rec]) + "\n"
                f.write(text.encode())
    return [files.url(FILES[fmt])]
