"""Input checks of ``pokerpipe play``: each bad option is one line and exit 2, and work beyond a day is refused.

``--hands`` is a count as users write one: ``100000``, ``1_000_000`` or ``1e8``
(an integral number in any notation; ``2.5`` and ``1e400`` are refused).
Before anything starts, :func:`check_work` estimates the run from rates on
the fast side of what was measured (so that only a run certainly beyond a day
is refused) and refuses a run beyond a day (:func:`pipeline.core.budget.refuse_beyond`)
or hand histories beyond :data:`MAX_HISTORY_BYTES` (PHH: :data:`MAX_PHH_FILES` files).
"""
from __future__ import annotations

import math
from typing import Optional

from jobs.app import fail
from jobs.counts import parse_count

MAX_HANDS = 10**12   # beyond any day's work: the estimate below refuses far fewer on most tables
MAX_HISTORY_BYTES = 10 * 10**9
MAX_PHH_FILES = 1_000_000
# microseconds per seat and hand on one core, about half the fastest measured (issue 24's engine, weights
# from the tables, tables of 2 and 10 seats: random 0.20-0.31, station 0.18-0.24, maniac 0.39-0.40,
# thesis-preflop 0.22-0.31, tag 0.38-0.45 per CPU second on the loaded 2-core machine, which runs about
# twice that quiet): the rule bot and evolved players weigh their hands after the flop, the others barely think
SEAT_MICROSECONDS = {"random": 0.05, "station": 0.05, "maniac": 0.1, "thesis-preflop": 0.06, "tag": 0.1}
EVOLVED_MICROSECONDS = 0.1
HISTORY_HANDS_PER_SECOND = 5_000      # hand histories are written by one process; measured 300-2,200
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


def estimate_seconds(names: list[str], hands: int, history: Optional[str], processes: int) -> float:
    """A low estimate of the run's seconds: the hands played by ``processes``, the histories written by one."""
    per_hand = sum(SEAT_MICROSECONDS.get(n.lower(), EVOLVED_MICROSECONDS) for n in names) * 1e-6
    return hands * per_hand / max(1, processes) + (hands / HISTORY_HANDS_PER_SECOND if history else 0.0)


def check_work(names: list[str], hands: int, history: Optional[str], processes: int) -> None:
    """Refuse, before anything starts, a run estimated beyond a day or histories beyond their limit."""
    from pipeline.core.budget import TooMuchWork, refuse_beyond

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
        refuse_beyond(estimate_seconds(names, hands, history, processes),
                      f"--hands {hands:,} on {processes} process{'es' if processes > 1 else ''}",
                      "fewer --hands (or more --workers)")
    except TooMuchWork as e:
        raise fail(str(e)) from None
