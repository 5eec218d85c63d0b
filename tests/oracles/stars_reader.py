"""A reader of our PokerStars fixed-limit text: it recovers each hand's seats, cards, actions and final stacks.

Used to check the writer: what it reads back must match the engine's record
(and so the PHH of the same hand).  It reads the lines the writer produces and
the sample's (``shared/reference/pokerstars_flhe_sample.txt``), not every
PokerStars variant.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.core.cards import parse_cards

_SEAT = re.compile(r"^Seat (\d+): (.+?) \(\$([\d.]+) in chips\) ?$")
_ACTION = re.compile(r"^(.+?): (posts small blind|posts big blind|folds|checks|calls|bets|raises)"
                     r"(?: \$([\d.]+))?(?: to \$([\d.]+))?(?: and is all-in)? ?$")
_DEALT = re.compile(r"^Dealt to (.+?) \[(.+)\]$")
_SHOWS = re.compile(r"^(.+?): shows \[(.+?)\]")
_UNCALLED = re.compile(r"^Uncalled bet \(\$([\d.]+)\) returned to (.+)$")
_COLLECTED = re.compile(r"^(.+?) collected \$([\d.]+) from (?:main |side )?pot(?:-\d+)?$")
_BUTTON = re.compile(r"Seat #(\d+) is the button")
_RAKE = re.compile(r"\| Rake \$([\d.]+)")
STREETS = {"*** FLOP ***": 1, "*** TURN ***": 2, "*** RIVER ***": 3}
KINDS = ("posts small blind", "posts big blind", "folds", "checks", "calls", "bets", "raises")


def cents(text: str) -> int:
    """``'12.60'`` -> 1260 (whole cents, no float rounding)."""
    whole, _, frac = text.partition(".")
    return int(whole) * 100 + int((frac + "00")[:2])


@dataclass
class StarsHand:
    """One hand read back: seats (0-based), cards, ``(street, seat, action, cents put in)`` rows, stacks."""

    number: int
    button: int
    names: list[str] = field(default_factory=list)
    stacks: list[int] = field(default_factory=list)
    holes: dict[int, list[int]] = field(default_factory=dict)
    board: list[int] = field(default_factory=list)
    actions: list[tuple[int, int, int, int]] = field(default_factory=list)
    collected: list[int] = field(default_factory=list)
    returned: list[int] = field(default_factory=list)
    rake: int = 0

    @property
    def final_stacks(self) -> list[int]:
        put = [0] * len(self.names)
        for _st, seat, _a, x in self.actions:
            put[seat] += x
        return [s - p + r + c for s, p, r, c in zip(self.stacks, put, self.returned, self.collected)]


def read(text: str) -> list[StarsHand]:
    """Every hand in a PokerStars file, in order."""
    hands = []
    for block in re.split(r"\n\s*\n+", text.strip()):
        lines = block.splitlines()
        if lines and lines[0].startswith(("PokerStars Game #", "PokerStars Hand #")):
            hands.append(_read_hand(lines))
    return hands


def _read_hand(lines: list[str]) -> StarsHand:
    number = int(re.match(r"PokerStars (?:Game|Hand) #(\d+)", lines[0]).group(1))   # type: ignore[union-attr]
    button_m = _BUTTON.search(lines[1])
    hand = StarsHand(number, int(button_m.group(1)) - 1 if button_m else 0)
    seat_of: dict[str, int] = {}
    street = 0
    level = 0
    put_street: dict[str, int] = {}
    in_summary = False
    for line in lines[1:]:
        if line.startswith("*** SUMMARY ***"):
            in_summary = True
        if in_summary:
            m = _RAKE.search(line)
            if m:
                hand.rake = cents(m.group(1))
            continue
        m = _SEAT.match(line)
        if m:
            seat_of[m.group(2)] = len(hand.names)
            hand.names.append(m.group(2))
            hand.stacks.append(cents(m.group(3)))
            hand.collected.append(0)
            hand.returned.append(0)
            continue
        for head, st in STREETS.items():
            if line.startswith(head):
                street, level, put_street = st, 0, {}
                hand.board = parse_cards("".join(re.findall(r"\[(.+?)\]", line)).replace(" ", ""))
        m = _DEALT.match(line)
        if m:
            hand.holes[seat_of[m.group(1)]] = parse_cards(m.group(2).replace(" ", ""))
            continue
        m = _SHOWS.match(line)
        if m and m.group(1) in seat_of:
            hand.holes[seat_of[m.group(1)]] = parse_cards(m.group(2).replace(" ", ""))
            continue
        m = _UNCALLED.match(line)
        if m:
            hand.returned[seat_of[m.group(2)]] += cents(m.group(1))
            continue
        m = _COLLECTED.match(line)
        if m:
            hand.collected[seat_of[m.group(1)]] += cents(m.group(2))
            continue
        m = _ACTION.match(line)
        if m and m.group(1) in seat_of:
            name, kind = m.group(1), KINDS.index(m.group(2))
            before = put_street.get(name, 0)
            if kind == 6:
                x = cents(m.group(4)) - before
            elif m.group(3):
                x = cents(m.group(3))
            else:
                x = 0
            put_street[name] = before + x
            level = max(level, before + x)
            hand.actions.append((street, seat_of[name], kind, x))
    return hand
