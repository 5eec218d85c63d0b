"""The Omaha games equity knows: hole cards a hand holds, and whether the pot is split high/low."""
from __future__ import annotations

from typing import NamedTuple

from ..core.cards import CardError


class Game(NamedTuple):
    """One Omaha game: its name, hole cards per hand, and whether half of each pot goes to the best
    qualifying 8-or-better low."""

    name: str
    hole_cards: int
    hilo: bool


GAMES = {g.name: g for g in (Game("omaha", 4, False), Game("omaha5", 5, False), Game("omaha6", 6, False),
                             Game("omaha-hilo", 4, True), Game("omaha5-hilo", 5, True))}


def game(name: str) -> Game:
    """The game called ``name``; one :class:`CardError` line naming the choices otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise CardError(f"unknown game {name!r}; choose holdem or one of {', '.join(GAMES)}") from None
