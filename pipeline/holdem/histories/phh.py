"""Poker Hand History (PHH, Kim 2024, https://phh.readthedocs.io) files of variant ``FT``: fixed-limit
Texas hold'em, readable by pokerkit's ``HandHistory``.

PHH lists players from the seat left of the button round to the button (``p1``
is the small blind, heads-up the big blind; pokerkit posts the blinds in that
order).  Amounts are the engine's units (100 to the big blind).
"""
from __future__ import annotations

from ...core.cards import format_cards
from ..engine import A_BB, A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE, A_SB
from ..record import HandRecord
from ..settle import BB
from .pokerstars import player_names


def phh_order(rec: HandRecord) -> list[int]:
    """Seats in PHH order: left of the button first, the button last."""
    return rec.order_from_button()


def write_hand(rec: HandRecord) -> str:
    """One hand as a PHH (TOML) document."""
    order = rec.order_from_button()
    p = {seat: i + 1 for i, seat in enumerate(order)}
    names = player_names(rec.names)
    actions = [f"d dh p{p[s]} {format_cards(rec.holes[s])}" for s in order]
    street = 0
    cuts = (0, 3, 4, 5)
    for st, seat, act, _amount, level in rec.actions:
        if act in (A_SB, A_BB):
            continue
        while st > street:
            street += 1
            actions.append(f"d db {format_cards(rec.board[cuts[street - 1]:cuts[street]])}")
        if act == A_FOLD:
            actions.append(f"p{p[seat]} f")
        elif act in (A_CHECK, A_CALL):
            actions.append(f"p{p[seat]} cc")
        elif act in (A_BET, A_RAISE):
            actions.append(f"p{p[seat]} cbr {int(level)}")
    if rec.showdown:
        while street < 3:
            street += 1
            actions.append(f"d db {format_cards(rec.board[cuts[street - 1]:cuts[street]])}")
        actions += [f"p{p[s]} sm {format_cards(rec.holes[s])}" for s in rec.showdown_order()]
    blinds = [BB // 2, BB] + [0] * (rec.seats - 2)
    lines = [
        "variant = 'FT'",
        "ante_trimming_status = true",
        f"antes = {[0] * rec.seats}",
        f"blinds_or_straddles = {blinds}",
        f"small_bet = {BB}",
        f"big_bet = {2 * BB}",
        f"starting_stacks = {[int(rec.stacks[s]) for s in order]}",
        "actions = [" + ", ".join(f"'{a}'" for a in actions) + "]",
        f"hand = {rec.number}",
        f"table = 'pokerpipe {rec.seed}'",
        f"seat_count = {rec.seats}",
        f"seats = {[s + 1 for s in order]}",
        "players = [" + ", ".join(f"'{names[s]}'" for s in order) + "]",
        f"finishing_stacks = {[int(rec.final_stacks[s]) for s in order]}",
        f"winnings = {[int(rec.won[s] + rec.returned[s]) for s in order]}",
    ]
    if rec.rake:
        lines.append(f"_rake = {rec.rake}")
    return "\n".join(lines) + "\n"
