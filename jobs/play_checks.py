"""Input checks of ``pokerpipe play``: each bad option is one line and exit 2."""
from __future__ import annotations

import math
from typing import Optional

from jobs.app import fail

MAX_HANDS = 10**11   # about a day of the slowest table on one core


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
    if hands > MAX_HANDS:
        raise fail(f"--hands {hands:,} would take days; at most {MAX_HANDS:,} in one run")
    if not -(1 << 63) <= seed < 1 << 63:
        raise fail(f"--seed must fit in 64 bits, got {seed}")
    if history is not None and history not in FORMATS:
        raise fail(f"--history must be one of {', '.join(FORMATS)}, got {history!r}")
    if hero is not None and not 1 <= hero <= seats:
        raise fail(f"--hero must be a seat 1 to {seats}, got {hero}")
    if not math.isfinite(stack) or not math.isfinite(rake) or not math.isfinite(rake_cap):
        raise fail("--stack, --rake and --rake-cap must be finite numbers")
    return names
