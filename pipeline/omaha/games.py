"""The Omaha games equity knows: hole cards a hand holds, and whether the pot is split high/low."""
from __future__ import annotations

from typing import NamedTuple

from ..core.cards import CardError
from ..core.inputs import did_you_mean


class Game(NamedTuple):
    """One Omaha game: its name, hole cards per hand, and whether half of each pot goes to the best
    qualifying 8-or-better low."""

    name: str
    hole_cards: int
    hilo: bool


GAMES = {g.name: g for g in (Game("omaha", 4, False), Game("omaha5", 5, False), Game("omaha6", 6, False),
                             Game("omaha-hilo", 4, True), Game("omaha5-hilo", 5, True))}


# the names players use: pot-limit Omaha and its five- and six-card forms, and Omaha eight-or-better
ALIASES = {"plo": "omaha", "plo4": "omaha", "plo5": "omaha5", "plo6": "omaha6", "plo8": "omaha-hilo",
           "o8": "omaha-hilo", "plo5-8": "omaha5-hilo"}


def canonical(name: str) -> str:
    """``name`` with a player's alias (``plo``, ``plo5``, ``plo8``, ...) replaced by the game's own name."""
    return ALIASES.get(name.strip().lower(), name)


suggestion = did_you_mean          # the command line's name for it


def game(name: str) -> Game:
    """The game called ``name`` (or an alias: :data:`ALIASES`); one :class:`CardError` line naming the choices
    otherwise."""
    try:
        return GAMES[canonical(name)]
    except KeyError:
        raise CardError(f"unknown game {name!r}{suggestion(name, ['holdem', *GAMES, *ALIASES])}; choose holdem or "
                        f"one of {', '.join(GAMES)}") from None
