"""Open Hand History (OHH, the PokerTracker-led standard, spec 1.4.6) JSON for recorded hands.

A file holds one ``{"ohh": {...}}`` object per hand, separated by a blank
line, as the spec's ``.ohh`` files do.  Amounts are dollars of a $1/$2 table
(the engine's units are cents); player ids are seat numbers minus one.
"""
from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Optional

from ...core.cards import format_card
from ..engine import A_BB, A_BET, A_CALL, A_CHECK, A_FOLD, A_RAISE, A_SB
from ..record import HandRecord
from ..settle import BB
from .pokerstars import player_names
from .stamps import RunStamp

_NAMES = {A_SB: "Post SB", A_BB: "Post BB", A_FOLD: "Fold", A_CHECK: "Check", A_CALL: "Call", A_BET: "Bet",
          A_RAISE: "Raise"}
_STREETS = ("Preflop", "Flop", "Turn", "River")


def dollars(units: int) -> float:
    return float(Decimal(int(units)) / 100)


def hand_dict(rec: HandRecord, stamp: RunStamp) -> dict[str, Any]:
    """The ``ohh`` object of one hand."""
    names = player_names(rec.names)
    n = rec.seats
    stack = rec.stacks.copy()
    rounds: list[dict[str, Any]] = []
    number = 0
    cuts = (0, 3, 4, 5)

    def new_round(street: int) -> dict[str, Any]:
        r: dict[str, Any] = {"id": street, "street": _STREETS[street], "actions": []}
        if street > 0:
            r["cards"] = [format_card(int(c)) for c in rec.board[cuts[street - 1]:cuts[street]]]
        rounds.append(r)
        return r

    cur = new_round(0)
    for k in range(n):
        cur["actions"].append({"action_number": number, "player_id": k, "action": "Dealt Cards",
                               "cards": [format_card(int(c)) for c in rec.holes[k]]})
        number += 1
    street = 0
    for st, seat, act, amount, _level in rec.actions:
        while st > street:
            street += 1
            cur = new_round(street)
        stack[seat] -= amount
        a: dict[str, Any] = {"action_number": number, "player_id": int(seat), "action": _NAMES[int(act)]}
        if amount:
            a["amount"] = dollars(amount)
            a["is_allin"] = bool(stack[seat] == 0)
        cur["actions"].append(a)
        number += 1
    if rec.showdown:
        while street < 3:
            street += 1
            cur = new_round(street)
        sd: dict[str, Any] = {"id": 4, "street": "Showdown", "actions": []}
        for k in range(n):
            if rec.values[k] >= 0:
                sd["actions"].append({"action_number": number, "player_id": k, "action": "Shows Cards",
                                      "cards": [format_card(int(c)) for c in rec.holes[k]]})
                number += 1
        rounds.append(sd)
    pots = []
    for p in range(len(rec.pots)):
        wins = [{"player_id": k, "win_amount": dollars(rec.pot_share[k, p])} for k in range(n) if rec.pot_share[k, p]]
        pots.append({"number": p, "amount": dollars(rec.pots[p] + (rec.rake if p == 0 else 0)),
                     "rake": dollars(rec.rake if p == 0 else 0), "player_wins": wins})
    return {
        "spec_version": "1.4.6", "site_name": "pokerpipe", "network_name": "pokerpipe",
        "internal_version": "1", "tournament": False, "game_number": str(stamp.hand_number(rec.number)),
        "start_date_utc": stamp.hand_time(rec.number).isoformat().replace("+00:00", "Z"),
        "table_name": f"pokerpipe {rec.seed}", "game_type": "Holdem",
        "bet_limit": {"bet_type": "FL", "action": "FixedLimit"},
        "table_size": n, "currency": "USD", "dealer_seat": rec.button + 1,
        "small_blind_amount": dollars(BB // 2), "big_blind_amount": dollars(BB),
        "players": [{"id": k, "seat": k + 1, "name": names[k], "starting_stack": dollars(rec.stacks[k])}
                    for k in range(n)],
        "rounds": rounds, "pots": pots,
    }


def write_file(records: list[HandRecord], stamp: Optional[RunStamp] = None) -> str:
    """Hands as an ``.ohh`` file: one ``{"ohh": ...}`` JSON object per hand, blank lines between."""
    stamp = stamp or RunStamp.parse()
    return "\n\n".join(json.dumps({"ohh": hand_dict(r, stamp)}) for r in records) + "\n"
