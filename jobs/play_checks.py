"""Input checks of ``pokerpipe play``: each bad option is one line and exit 2, and work beyond a day is refused.

``--hands`` is a count as users write one: ``100000``, ``1_000_000`` or ``1e8``
(an integral number in any notation; ``2.5`` and ``1e400`` are refused).
Before anything starts, :func:`check_work` refuses a run beyond a day by the
engine's own estimate (:func:`pipeline.holdem.work.refuse_play`, which
:func:`pipeline.holdem.simulate` applies too) or hand histories beyond
:data:`MAX_HISTORY_BYTES` (PHH: :data:`MAX_PHH_FILES` files).
"""
from __future__ import annotations

import math
from typing import Optional

from jobs.app import fail
from jobs.counts import parse_count
from pipeline.holdem.work import MAX_HANDS  # noqa: F401  (the --hands range, re-exported for the commands)

MAX_HISTORY_BYTES = 10 * 10**9
MAX_PHH_FILES = 1_000_000
# bytes per seat and hand of each history format, below the smallest measured (2 to 10 seats)
HISTORY_SEAT_BYTES = {"pokerstars": 150, "phh": 80, "ohh": 350}
HISTORY_HELP = (f"also write every hand: pokerstars, phh or ohh (at most {MAX_HISTORY_BYTES // 10**9} GB of "
                f"histories, and at most {MAX_PHH_FILES:,} PHH files, by a low estimate)")


def count(text: str, what: str, lo: int = 1, hi: Optional[int] = None) -> int:
    """The count ``text`` (``1000``, ``1_000``, ``1e3``: :func:`jobs.counts.parse_count`) within ``lo .. hi``;
    else one line, exit 2."""
    from pipeline.core.errors import InputError
    from pipeline.core.inputs import integer

    value: int | float | str | None = parse_count(text)
    if value is None:                    # said as what it is: "2.5" a number, "abc" a text
        try:
            value = float(text)
        except ValueError:
            value = text.strip()
    try:
        return integer(value, what, lo, hi)
    except InputError as e:
        raise fail(str(e)) from None


def check_play(seats: int, policies: str, hands: int, seed: int, history: Optional[str], hero: Optional[int],
               stack: float, rake: float, rake_cap: float) -> list[str]:
    """The policy names, one per seat, after every option is checked."""
    from pipeline.holdem.histories import FORMATS

    names = [p.strip() for p in policies.split(",") if p.strip()]
    if not 2 <= seats <= 10:
        raise fail(f"--seats must be 2 to 10, got {seats}")
    if len(names) < seats:
        raise fail(f"--policies names {len(names)} policies for {seats} seats")
    if len(names) > seats:
        raise fail(f"--policies names {len(names)} policies for only {seats} seats")
    if hands < 1:
        raise fail(f"--hands must be positive, got {hands}")
    if not -(1 << 63) <= seed < 1 << 63:
        raise fail(f"--seed must fit in 64 bits, got {seed}")
    if history is not None and history not in FORMATS:
        raise fail(f"--history must be one of {', '.join(FORMATS)}, got {history!r}")
    if hero is not None and not 1 <= hero <= seats:
        raise fail(f"--hero must be a seat 1 to {seats}, got {hero}")
    if not math.isfinite(stack) or not math.isfinite(rake) or not math.isfinite(rake_cap):
        raise fail("--stack, --rake and --rake-cap must be finite numbers")
    return names


def check_work(names: list[str], hands: int, history: Optional[str], processes: int) -> None:
    """Refuse, before anything starts, a run estimated beyond a day or histories beyond their limit."""
    from pipeline.core.budget import TooMuchWork
    from pipeline.holdem.work import refuse_play

    if history is not None:
        size = hands * len(names) * HISTORY_SEAT_BYTES[history]
        if size > MAX_HISTORY_BYTES:
            raise fail(f"--hands {hands:,} --history {history} would write at least {size / 10**9:,.0f} GB of hand "
                       f"histories, more than the {MAX_HISTORY_BYTES // 10**9} GB pokerpipe writes; ask for fewer "
                       "--hands")
        if history == "phh" and hands > MAX_PHH_FILES:
            raise fail(f"--hands {hands:,} --history phh would write {hands:,} files, more than the "
                       f"{MAX_PHH_FILES:,} pokerpipe writes in one folder; ask for fewer --hands or another format")
    try:
        refuse_play(names, hands, processes, history is not None)
    except TooMuchWork as e:
        raise fail(str(e)) from None
