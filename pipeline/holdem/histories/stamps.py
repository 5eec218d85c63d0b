"""When each hand of a history run was played, and its hand number: stated once per run, derived per hand.

A tracker (PokerTracker, Hold'em Manager) files hands by their number and
orders them by time: two hands with one number are one hand to it, and hands
with one time come out in any order.  So a run states its start (UTC, whole
seconds; by default the moment it was asked for) and every hand follows from
it and from its place in the run:

* its time is the start plus :data:`SECONDS_PER_HAND` per hand before it;
* its number is the start in Unix seconds, then the hand's place in the run
  as :data:`HAND_DIGITS` digits — so numbers rise with time like a site's,
  never repeat within a run, and differ between runs started at different
  seconds (two runs given one start, to reproduce a file byte for byte,
  share their numbers: that is what asking for the same start means).

PokerStars writes its time in the player's zone and, in brackets, in US
Eastern time; :func:`eastern` gives that from UTC by the US daylight-saving
rule in force since 2007, with no time-zone database.

>>> run = RunStamp.parse("2026-12-04T21:00:00Z")
>>> run.hand_number(0), run.hand_number(41)
(179641800000000000, 179641800000000041)
>>> run.hand_time(2).isoformat()
'2026-12-04T21:01:00+00:00'
>>> eastern(run.hand_time(0)).strftime("%Y/%m/%d %H:%M:%S")
'2026/12/04 16:00:00'
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Optional

from ...core.errors import InputError

SECONDS_PER_HAND = 30          # a live limit table's pace, about 120 hands an hour
HAND_DIGITS = 8                # a run's hands numbered below 10**8 (the work limit on histories is far lower)
EARLIEST = datetime(2001, 9, 9, 1, 46, 40, tzinfo=timezone.utc)     # Unix second 10**9: ten-digit starts
LATEST = datetime(2262, 1, 1, tzinfo=timezone.utc)                  # numbers stay below 2**63


class StampError(InputError):
    """A history start that is not a UTC time this module can number hands from."""


@dataclass(frozen=True)
class RunStamp:
    """A history run's start (UTC, whole seconds), from which each hand's time and number follow."""

    start: datetime

    @classmethod
    def parse(cls, text: Optional[str] = None, now: Optional[datetime] = None) -> RunStamp:
        """The start an ISO 8601 ``text`` names (``2026-12-04T21:00:00Z``; a time without a zone is UTC), or,
        without one, ``now`` (by default this moment) to the second; :class:`StampError` otherwise."""
        if text is None or not str(text).strip():
            moment = now or datetime.now(timezone.utc)
        else:
            try:
                moment = datetime.fromisoformat(str(text).strip().replace("Z", "+00:00"))
            except ValueError:
                raise StampError(f"history start {text!r}: expected an ISO 8601 time such as "
                                 "2026-12-04T21:00:00Z") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        moment = moment.astimezone(timezone.utc).replace(microsecond=0)
        if not EARLIEST <= moment < LATEST:
            raise StampError(f"history start {moment.isoformat()}: must lie from {EARLIEST:%Y-%m-%d} to "
                             f"{LATEST:%Y-%m-%d}")
        return cls(moment)

    def text(self) -> str:
        """The start as the manifest and the ``--history-start`` option write it: ``2026-12-04T21:00:00Z``."""
        return self.start.strftime("%Y-%m-%dT%H:%M:%SZ")

    def hand_time(self, number: int) -> datetime:
        """When hand ``number`` (0-based place in the run) was dealt, in UTC."""
        return self.start + timedelta(seconds=SECONDS_PER_HAND * number)

    def hand_number(self, number: int) -> int:
        """The site's number of hand ``number`` of the run: the start's Unix seconds, then the place."""
        if not 0 <= number < 10 ** HAND_DIGITS:
            raise StampError(f"hand {number:,}: a run numbers at most {10 ** HAND_DIGITS:,} hands")
        return int(self.start.timestamp()) * 10 ** HAND_DIGITS + number


def _nth_sunday(year: int, month: int, n: int) -> datetime:
    first = datetime(year, month, 1)
    return first + timedelta(days=(6 - first.weekday()) % 7 + 7 * (n - 1))


def eastern(moment: datetime) -> datetime:
    """``moment`` (aware) in US Eastern time, naive: EST (UTC-5), or EDT (UTC-4) from 2 a.m. local on the
    second Sunday of March to 2 a.m. local on the first Sunday of November (the rule since 2007)."""
    utc = moment.astimezone(timezone.utc).replace(tzinfo=None)
    year = utc.year
    summer_from = _nth_sunday(year, 3, 2) + timedelta(hours=2 + 5)      # 2:00 EST is 7:00 UTC
    summer_to = _nth_sunday(year, 11, 1) + timedelta(hours=2 + 4)       # 2:00 EDT is 6:00 UTC
    return utc - timedelta(hours=4 if summer_from <= utc < summer_to else 5)
