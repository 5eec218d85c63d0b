"""How long the hold'em engine plays at most: the estimate that refuses a run beyond a day before it starts.

:func:`play_seconds` is a low estimate of playing ``hands`` hands at a table
of ``names`` on ``processes`` processes, from rates on the fast side of every
measurement (so that only a run certainly beyond a day is refused):
:func:`pipeline.holdem.simulate` refuses such a run itself
(:func:`refuse_play`), and ``pokerpipe play`` asks the same before it starts
a cluster.

The estimate is a bound, not a forecast: 10^12 heads-up hands of tag
against station are estimated at 3.4 days on one process, where they were
measured at about 50 days with hand weights sampled (4.2 µs a hand); tag
against random, estimated the same, plays in 25-37 days (2.2-3.2 µs a hand) sampled and about 8
with the weight tables on a quiet machine (docs/holdem.md).

>>> round(play_seconds(["tag", "station"], 10**12, 1) / 86400, 1)
3.4
>>> round(play_seconds(["tag", "random"], 10**12, 2) / 3600)      # refused: beyond a day even on two
40
>>> round(play_seconds(["tag", "random"], 10**11, 1, sampled=True) / 3600)   # 61-89 h measured
28
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional

from ..core.budget import refuse_beyond

MAX_HANDS = 10**12   # beyond any day's work: the estimate refuses far fewer on most tables
# Microseconds a seat costs a hand on one core, heads-up and at ten seats (linear between: a random or
# maniac seat costs more at a full table, where more players see each street, a station or a folder less),
# about half the least measured.  Measured 2026-12 on the loaded 2-core Xeon (load average 4.5), one
# process, CPU time of `simulate([kind] * seats, hands)` after a warm-up, hand weights sampled (no weight
# tables built here), 400,000 hands a table of 3-10 seats and 2,000,000 heads-up, µs a seat and hand:
#   random 0.29-0.36 heads-up (0.29 beside maniac), 0.33-0.45 at 3-10 seats (0.42-0.44 at ten)
#   station 0.34 heads-up, 0.24-0.30 at 3-10;  maniac 0.29 beside random, 0.32-0.46 at 3-10
#   fold 0.17 heads-up, 0.08 at 8-10;  rlcard-v1 0.18-0.38 heads-up, 0.19-0.24 at 4-10
#   tag 1.7-2.4 heads-up, 0.58-0.78 at 3-10;  thesis-preflop 1.1-1.7;  an evolved player 0.82-1.4, and
#   0.35-0.5 for its seat among nine random ones (4.3 µs a hand: `evaluate` of a ten-seat player)
# Heads-up tag vs random took 2.2-3.2 µs a hand, tag vs station 4.2; `pokerpipe play -p tag,random --hands
# 3e6 --workers 1 --weights sampled` ran 9.5 s (316,000 hands/s; 11.8 s in an earlier run).  The policies
# that weigh their hands after the flop (tag, thesis-preflop, evolved players, solved strategies) are
# taken as cheap as the rule bots, for the weight tables: with them heads-up tag vs random plays 1.39 M
# hands/s on a quiet machine (0.72 µs a hand, docs/holdem.md), where these rates give 0.29.
SEAT_MICROSECONDS = {"random": (0.14, 0.19), "station": (0.14, 0.11), "maniac": (0.14, 0.16),
                     "fold": (0.06, 0.035), "rlcard-v1": (0.08, 0.09), "tag": (0.15, 0.15),
                     "thesis-preflop": (0.15, 0.15)}
EVOLVED_MICROSECONDS = (0.15, 0.15)
# With the hand weights sampled in the kernel (no weight tables: ``sampled``) the policies that weigh their
# hands cost what was measured so, again about half the least: tag 1.7 heads-up and 0.58 at 3-10 seats (above),
# thesis-preflop 1.1 heads-up, an evolved player 0.82 heads-up and 0.35 among nine random ones.  On the 2-core
# AMD EPYC Zen 1 (AVX2; 2026-12-07, CPU time of 100,000 hands, /work/runs/rates.py of the note) a seat cost
# 1.7-1.9x the Xeon's for the rule bots (random 0.56 heads-up, 0.62 at ten), and: tag 2.9 heads-up, 0.86 at
# ten; thesis-preflop 2.2 heads-up, 1.29 at ten; a random evolved player 1.9 heads-up, 1.30 at ten.
SAMPLED_MICROSECONDS = {"tag": (0.85, 0.29), "thesis-preflop": (0.55, 0.35)}
SAMPLED_EVOLVED_MICROSECONDS = (0.41, 0.17)
HISTORY_HANDS_PER_SECOND = 5_000      # hand histories are written by one process; measured 300-2,200


def seat_microseconds(name: str, seats: int, sampled: bool = False) -> float:
    """The least microseconds a seat of policy ``name`` costs a hand at a table of ``seats`` on one core
    (:data:`SEAT_MICROSECONDS`, interpolated between heads-up and ten seats); ``sampled``: its hand weights
    sampled in the kernel, not read from the weight tables (:data:`SAMPLED_MICROSECONDS`).  A solved strategy
    (``cfr:DIR``) counts as an evolved player read from the tables."""
    key = str(name).strip().lower()
    if key in SEAT_MICROSECONDS:
        heads_up, ten = SAMPLED_MICROSECONDS.get(key, SEAT_MICROSECONDS[key]) if sampled else SEAT_MICROSECONDS[key]
    else:                                       # an evolved player, or a solved strategy (no sampled weights)
        heads_up, ten = SAMPLED_EVOLVED_MICROSECONDS if sampled and not key.startswith("cfr:") else EVOLVED_MICROSECONDS
    return heads_up + (ten - heads_up) * (min(max(seats, 2), 10) - 2) / 8


def play_seconds(names: Sequence[str], hands: int, processes: int = 1, history: bool = False,
                 sampled: bool = False) -> float:
    """A low estimate of the seconds ``hands`` hands take at a table of ``names`` (policy names; anything
    else counts as an evolved player) on ``processes`` processes, and their ``history`` written by one;
    ``sampled``: the hand weights after the flop sampled, not read from the weight tables (several times
    slower for the policies that weigh their hands)."""
    per_hand = sum(seat_microseconds(n, len(names), sampled) for n in names) * 1e-6
    return hands * per_hand / max(1, processes) + (hands / HISTORY_HANDS_PER_SECOND if history else 0.0)


def refuse_play(names: Sequence[str], hands: int, processes: int = 1, history: bool = False,
                sampled: bool = False) -> None:
    """:class:`~pipeline.core.budget.TooMuchWork` when :func:`play_seconds` is beyond a day."""
    refuse_beyond(play_seconds(names, hands, processes, history, sampled),
                  f"--hands {hands:,} on {processes} process{'es' if processes > 1 else ''}"
                  + (" with the hand weights sampled" if sampled else ""),
                  "fewer --hands (or more --workers" + (", or the weight tables: `pokerpipe holdem-weights`)"
                                                        if sampled else ")"))


def workers_of(executor: Optional[Any]) -> int:
    """The processes an executor plays on (its ``workers`` or ``_max_workers``; 1 for none or unknown)."""
    if executor is None:
        return 1
    return max(1, int(getattr(executor, "workers", 0) or getattr(executor, "_max_workers", 0) or 1))
