"""PokerStars hand histories, in the form of PokerStars' own fixed-limit files (PokerTracker and
Hold'em Manager import them); the reference is ``shared/reference/pokerstars_flhe_sample.txt``.

Units are cents of a $1/$2 table: the big blind and small bet $1, the big bet
$2, the small blind $0.50.  Every seat's hole cards are written as a ``Dealt
to`` line (the simulation knows them all; a hero's file has one such line).
"""
from __future__ import annotations

from typing import Iterable, Optional

from ...core.cards import format_card
from ...evaluator.classes import describe_value
from ..engine import A_BB, A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE, A_SB
from ..record import HandRecord
from .stamps import RunStamp, eastern

STREET_NAMES = ("Flop", "Turn", "River")


def money(units: int) -> str:
    """Dollars as PokerStars writes them: ``$1``, ``$0.50``, ``$12.60``."""
    units = int(units)
    return f"${units // 100}" if units % 100 == 0 else f"${units // 100}.{units % 100:02d}"


def cards_text(cards: Iterable[int]) -> str:
    """Cards as PokerStars writes them: ``9d 8h 3d``."""
    return " ".join(format_card(int(c)) for c in cards)


def player_names(names: tuple[str, ...]) -> list[str]:
    """Screen names: the policy and the seat, e.g. ``tag_1``."""
    return [f"{p}_{k + 1}" for k, p in enumerate(names)]


def header(rec: HandRecord, stamp: RunStamp) -> str:
    """The hand's first line in PokerStars' current form: ``PokerStars Hand #N:``, the game, and the time in
    UTC with US Eastern time in brackets (the time trackers read), e.g. ``PokerStars Hand
    #179641800000000000:  Hold'em Limit ($1/$2 USD) - 2026/12/04 21:00:00 UTC [2026/12/04 16:00:00 ET]``."""
    when = stamp.hand_time(rec.number)
    et = eastern(when)
    return (f"PokerStars Hand #{stamp.hand_number(rec.number)}:  Hold'em Limit ($1/$2 USD) - "
            f"{when:%Y/%m/%d %H:%M:%S} UTC [{et:%Y/%m/%d} {et.hour}:{et:%M:%S} ET]")


def _seat_label(rec: HandRecord, k: int) -> str:
    n = rec.seats
    sb = rec.button if n == 2 else (rec.button + 1) % n
    bb = (sb + 1) % n
    out = ""
    if k == rec.button:
        out += " (button)"
    if k == sb:
        out += " (small blind)"
    elif k == bb:
        out += " (big blind)"
    return out


def write_hand(rec: HandRecord, hero: int | None = None, stamp: Optional[RunStamp] = None) -> str:
    """One hand as PokerStars text, the hand followed by blank lines.

    With ``hero`` (a seat index) only that seat's hole cards are dealt face up,
    as in a player's own file; otherwise every seat gets a ``Dealt to`` line.
    ``stamp``: the run's start, which gives the hand its time and number (:mod:`.stamps`; by default now).
    """
    names = player_names(rec.names)
    n = rec.seats
    lines = [header(rec, stamp or RunStamp.parse()),
             f"Table 'pokerpipe {rec.seed}' {n}-max Seat #{rec.button + 1} is the button"]
    for k in range(n):
        lines.append(f"Seat {k + 1}: {names[k]} ({money(rec.stacks[k])} in chips) ")
    stack = rec.stacks.copy()
    fold_street = [-1] * n
    put_in = [0] * n
    street = 0
    cur_level = 0
    headed = False
    for st, seat, act, amount, level in rec.actions:
        if act in (A_SB, A_BB):
            stack[seat] -= amount
            put_in[seat] += amount
            what = "small" if act == A_SB else "big"
            allin = " and is all-in" if stack[seat] == 0 else ""
            lines.append(f"{names[seat]}: posts {what} blind {money(amount)}{allin}")
            cur_level = int(level)
            continue
        if not headed:
            lines.append("*** HOLE CARDS ***")
            lines += [f"Dealt to {names[k]} [{cards_text(rec.holes[k])}]" for k in range(n) if hero in (None, k)]
            headed = True
        while st > street:
            street += 1
            cur_level = 0
            lines.append(_street_line(rec, street))
        stack[seat] -= amount
        put_in[seat] += amount
        allin = " and is all-in" if amount and stack[seat] == 0 else ""
        if act == A_FOLD:
            fold_street[seat] = st
            lines.append(f"{names[seat]}: folds ")
        elif act == A_CHECK:
            lines.append(f"{names[seat]}: checks ")
        elif act == A_CALL:
            lines.append(f"{names[seat]}: calls {money(amount)}{allin}")
        elif act == A_BET:
            lines.append(f"{names[seat]}: bets {money(amount)}{allin}")
        elif act == A_RAISE:
            lines.append(f"{names[seat]}: raises {money(level - cur_level)} to {money(level)}{allin}")
        cur_level = int(level)
    if not headed:
        lines.append("*** HOLE CARDS ***")
        lines += [f"Dealt to {names[k]} [{cards_text(rec.holes[k])}]" for k in range(n) if hero in (None, k)]
    for k in range(n):
        if rec.returned[k]:
            lines.append(f"Uncalled bet ({money(rec.returned[k])}) returned to {names[k]}")
    if rec.showdown:
        while street < 3:
            street += 1
            lines.append(_street_line(rec, street))
        lines.append("*** SHOW DOWN ***")
        for k in rec.showdown_order():
            lines.append(f"{names[k]}: shows [{cards_text(rec.holes[k])}] ({describe_value(rec.values[k])})")
    lines += _collected(rec, names)
    lines.append("*** SUMMARY ***")
    total = int(sum(rec.pots)) + rec.rake
    if len(rec.pots) > 1:
        sides = " ".join(f"Side pot{'' if len(rec.pots) == 2 else f'-{p}'} {money(rec.pots[p])}."
                         for p in range(1, len(rec.pots)))
        main = money(rec.pots[0])            # pots after rake: main + sides + rake = total
        lines.append(f"Total pot {money(total)} Main pot {main}. {sides} | Rake {money(rec.rake)} ")
    else:
        lines.append(f"Total pot {money(total)} | Rake {money(rec.rake)} ")
    if rec.last_street > 0:
        lines.append(f"Board [{cards_text(rec.board_seen)}]")
    for k in range(n):
        head = f"Seat {k + 1}: {names[k]}{_seat_label(rec, k)}"
        if fold_street[k] >= 0:
            where = "before Flop" if fold_street[k] == 0 else f"on the {STREET_NAMES[fold_street[k] - 1]}"
            quiet = " (didn't bet)" if fold_street[k] == 0 and put_in[k] == 0 else ""
            lines.append(f"{head} folded {where}{quiet}")
        elif rec.showdown:
            verdict = f"won ({money(rec.won[k])})" if rec.won[k] else "lost"
            lines.append(f"{head} showed [{cards_text(rec.holes[k])}] and {verdict} with "
                         f"{describe_value(rec.values[k])}")
        else:
            lines.append(f"{head} collected ({money(rec.won[k])})")
    return "\n".join(lines) + "\n\n\n"


def _street_line(rec: HandRecord, street: int) -> str:
    b = rec.board
    if street == 1:
        return f"*** FLOP *** [{cards_text(b[:3])}]"
    if street == 2:
        return f"*** TURN *** [{cards_text(b[:3])}] [{format_card(int(b[3]))}]"
    return f"*** RIVER *** [{cards_text(b[:4])}] [{format_card(int(b[4]))}]"


def _collected(rec: HandRecord, names: list[str]) -> list[str]:
    out = []
    n_pots = len(rec.pots)
    for p in range(n_pots - 1, -1, -1):
        label = "pot" if n_pots == 1 else ("main pot" if p == 0 else
                                           ("side pot" if n_pots == 2 else f"side pot-{p}"))
        for step in range(1, rec.seats + 1):
            k = (rec.button + step) % rec.seats
            if rec.pot_share[k, p]:
                out.append(f"{names[k]} collected {money(rec.pot_share[k, p])} from {label}")
    return out


def write_file(records: list[HandRecord], hero: int | None = None, stamp: Optional[RunStamp] = None) -> str:
    """Many hands of one run as one PokerStars file (``hero``, ``stamp``: see :func:`write_hand`)."""
    stamp = stamp or RunStamp.parse()
    return "".join(write_hand(r, hero, stamp) for r in records)
