"""An evolved player against fixed opponents: BB/100 with a 95% interval from duplicate deals.

Yardsticks are not trainers (the thesis keeps random and rule bots out of the
trainer set, p. 57); they measure the result:

``random``, ``station``, ``maniac``, ``tag``, ``thesis-preflop``
    in our engine, duplicate deals (:func:`pipeline.holdem.simulate`), at the
    table size the player was evolved for (:func:`seats_of`: the player and
    copies of the bot; heads-up for a ``heads-up`` evolution) unless told;
``trainers``
    the player at one table with the trainer set its evolution left
    (``trainers/`` beside the player file), duplicate deals with every seat
    rotated — the fitness measure of the ``table`` format;
``rlcard-rule``, ``rlcard-random``
    heads-up inside rlcard's own environment (:mod:`.rlcard_agent`), pairs of
    hands with the seats swapped.
"""
from __future__ import annotations

import hashlib
import re
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ...core.budget import refuse_count
from ...core.errors import InputError
from ...core.files import Files
from ...core.inputs import integer
from ...holdem.player import Player, PlayerFileError
from ...holdem.policies import DEFAULT_SAMPLES, KINDS
from ...holdem.seating import MAX_SEATS
from ...holdem.weights import WeightSource
from ...holdem.work import MAX_HANDS, play_seconds
from .rlcard_agent import OPPONENTS as RLCARD

YARDSTICKS = (*KINDS, "trainers", *RLCARD)
# the report's: folding to every bet proves nothing there, and rlcard's rule agent is played in rlcard's own
# environment (rlcard-rule); its port into the kernels (rlcard-v1) is for LBR and `evaluate --against`
REPORTED = tuple(y for y in YARDSTICKS if y not in ("fold", "rlcard-v1"))
DEFAULT_HANDS = 1_000_000        # hands per engine yardstick (pokerpipe evaluate)
DEFAULT_RLCARD_HANDS = 100_000   # hands per rlcard opponent
RLCARD_HANDS_PER_SECOND = 20_000  # rlcard hands per second at most (measured 1,000-2,200 here, in Python)
TRAINER = re.compile(r"trainer-(0|[1-9][0-9]{0,3})\.json")


@dataclass
class YardstickResult:
    """The player's result against one opponent."""

    opponent: str
    hands: int
    bb_per_100: float
    stderr: float
    seats: int = 2

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.bb_per_100 - 1.96 * self.stderr, self.bb_per_100 + 1.96 * self.stderr)

    def to_dict(self) -> dict[str, Any]:
        return {"opponent": self.opponent, "seats": self.seats, "hands": self.hands,
                "bb_per_100": round(self.bb_per_100, 4), "ci95": [round(x, 4) for x in self.ci95]}


def trainers_in(files: Files, *parts: str, digests: Optional[dict[str, str]] = None) -> list[Player]:
    """The trainer set saved beside an evolution's player file: ``trainers/trainer-K.json`` under ``files``
    (and ``parts``, the player file's folder), each file verified as a player file and, when ``digests``
    (the evolution checkpoint's) names it, against its SHA-256."""
    folder = files.url(*parts, "trainers")
    listed = [f for f in files.files(*parts, "trainers") if f.startswith("trainer-") and f.endswith(".json")]
    for f in listed:
        if not TRAINER.fullmatch(f):
            raise PlayerFileError(f"{folder}/{f} is not a trainer's name (trainer-0.json, trainer-1.json, ...)")
    names = sorted(listed, key=lambda f: int(f[len("trainer-"):-len(".json")]))
    if not names:
        raise PlayerFileError(f"no trainers in {folder} (expected trainer-0.json ...)")
    if names != [f"trainer-{k}.json" for k in range(len(names))]:
        raise PlayerFileError(f"{folder} holds {', '.join(names)}: expected trainer-0.json to "
                              f"trainer-{len(names) - 1}.json, none missing")
    if len(names) > MAX_SEATS - 1:
        raise PlayerFileError(f"{folder} holds {len(names)} trainers; a table seats the player and at most "
                              f"{MAX_SEATS - 1} trainers")
    players = []
    for f in names:
        where = files.url(*parts, "trainers", f)
        try:
            data = files.read_bytes(*parts, "trainers", f)
        except OSError as e:
            raise PlayerFileError(f"{where} cannot be read ({getattr(e, 'strerror', None) or e})") from None
        expected = (digests or {}).get(f"trainers/{f}")
        if expected is not None and hashlib.sha256(data).hexdigest() != expected:
            raise PlayerFileError(f"{where} is damaged (its SHA-256 differs from the checkpoint's)")
        players.append(Player.from_json(data, where))
    return players


def evolved_weights(player: Player, weights: str = "auto") -> str:
    """How to weigh hands after the flop when playing ``player``: ``auto`` means the mode it was evolved
    with when its file records one (``tables`` or ``sampled``), else ``auto`` stays for the caller to resolve."""
    if weights == "auto" and player.about.get("weights") in ("tables", "sampled"):
        return str(player.about["weights"])
    return weights


def seats_of(player: Player) -> int:
    """The table size a player was evolved at (recorded in its file; 2 if unknown)."""
    return int(player.about.get("seats", 2))


def against(player: Player, opponent: str, hands: int, seed: int = 0, *, executor: Optional[Executor] = None,
            samples: int = DEFAULT_SAMPLES, trainers: Optional[Sequence[Player]] = None,
            seats: Optional[int] = None, weights: Optional[WeightSource] = None) -> YardstickResult:
    """Play ``player`` against one yardstick over ``hands`` hands (``seats`` at the table, rlcard: always 2)."""
    from ...holdem.simulate import simulate

    if opponent in RLCARD:
        from .rlcard_agent import play_rlcard

        hands = integer(hands, "hands", 1, MAX_HANDS, error=InputError, strict=True)
        refuse_count(hands, RLCARD_HANDS_PER_SECOND, f"{hands:,} hands against {opponent}", "fewer rlcard hands")

        r = play_rlcard(player, opponent, hands, seed, samples, weights)
        return YardstickResult(opponent, r.hands, float(r.bb_per_100), float(r.stderr))
    if opponent == "trainers":
        if not trainers:
            raise ValueError("the trainers yardstick needs the trainer set")
        line_up: list[Any] = [player, *trainers]
    elif opponent in KINDS:
        line_up = [player] + [opponent] * ((seats or seats_of(player)) - 1)
    else:
        raise ValueError(f"unknown yardstick {opponent!r} (choose from {', '.join(YARDSTICKS)})")
    sim = simulate(line_up, hands, seed, samples=samples, executor=executor, weights=weights)
    s = sim.seats[0]
    return YardstickResult(opponent, sim.hands, s.bb_per_100, s.stderr, len(line_up))


def fastest(opponents: Sequence[str], hands: int, rlcard_hands: int, seats: int, workers: int = 1,
            sampled: bool = False) -> float:
    """The least time playing ``hands`` hands against each engine yardstick of ``opponents`` (at ``seats``
    seats, on ``workers`` processes) and ``rlcard_hands`` against each rlcard one can take: what a refusal
    of too much work rests on (:mod:`pipeline.core.budget`).  An engine yardstick is the player and
    ``seats - 1`` copies of the bot (the trainers: evolved players like it), at the engine's own rates
    (:func:`pipeline.holdem.work.play_seconds`; ``sampled``: the hand weights sampled, not read from the
    weight tables)."""
    engine = [o for o in opponents if o not in RLCARD]
    seconds = sum(play_seconds(["player"] + [o if o in KINDS else "player"] * (seats - 1), hands, workers,
                               sampled=sampled) for o in engine)
    return seconds + (len(opponents) - len(engine)) * rlcard_hands / RLCARD_HANDS_PER_SECOND
