"""An evolved player inside rlcard's own ``limit-holdem`` environment: an outside opponent no one here wrote.

rlcard (Zha et al., 2019) ships a heads-up limit hold'em environment, a rule
agent (``LimitholdemRuleAgentV1``) and a uniform random agent.  The adapter
:class:`EvolvedAgent` reads rlcard's raw observation — hole cards, public
cards, chips put in, raises per round — rebuilds our observation from it
(street, position from the button, raises, pot odds, hand category, hand
weight against one opponent) and answers with the same decision our betting
kernel makes: the ``thesis-preflop`` table preflop, the gene table after.

:func:`play_rlcard` plays hands in pairs with the same seed and the seats
swapped (rlcard deals from its own seeded generator, restored for the second hand, so both seats see the
same cards and the same blinds: duplicate deals inside rlcard), and reports
BB/100 with a standard error over pairs.  rlcard is an optional extra
(``pip install -e ".[rlcard]"``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ...core.hand_classes import class_of
from ...core.rng import seed_stream
from ...evaluator.kernels import KEY_BASE, hand_value, suited_bit
from ...evaluator.tables import tables
from ...holdem.genes import gene_decision
from ...holdem.player import Player
from ...holdem.policies import (
    CALL,
    DEFAULT_SAMPLES,
    FOLD,
    O_CAN_RAISE,
    O_CATEGORY,
    O_PLAYERS,
    O_POS_CLASS,
    O_POSITION,
    O_POT,
    O_POT_ODDS,
    O_RAISES,
    O_RAISES_PREV,
    O_SEAT,
    O_SEATS,
    O_STREET,
    O_TO_CALL,
    O_WEIGHT,
    OBS_FIELDS,
    RAISE,
    THESIS_PREFLOP,
    decide,
    default_params,
    group_of_class,
    position_class,
)
from ...holdem.weights import WeightSource, absent, preflop_table, sampled_weight, table_weight

OPPONENTS = ("rlcard-rule", "rlcard-random")
_SUITS = {"C": 0, "D": 1, "H": 2, "S": 3}
_RANKS = "23456789TJQKA"
_STREET_OF_BOARD = {0: 0, 3: 1, 4: 2, 5: 3}


def rlcard_card(text: str) -> int:
    """Our card id of an rlcard card such as ``'CT'`` (suit letter, then rank)."""
    return 4 * _RANKS.index(text[1]) + _SUITS[text[0]]


class EvolvedAgent:
    """An rlcard agent (raw actions) that plays an evolved :class:`~pipeline.holdem.player.Player`.

    Set :attr:`seat` and :attr:`button` before each hand (:func:`play_rlcard` does).
    """

    use_raw = True

    def __init__(self, player: Player, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 weights: Optional[WeightSource] = None) -> None:
        self.player = player
        self.samples = samples
        self.wt = absent() if weights is None else weights.load()
        self.sampled = weights is None
        self.params = default_params(THESIS_PREFLOP, samples)
        self.groups = group_of_class()
        self.pre = preflop_table()
        self.layout = player.layout.array()
        self.used = np.zeros(player.layout.genes, np.uint8)
        self.tables = tables()
        self.rng = np.zeros(1, np.uint64)
        self.deck = np.zeros(52, np.int64)
        self.decisions = 0
        self.seed = seed
        self.seat = 0
        self.button = 0

    def observe(self, raw: dict[str, Any], can_raise: bool) -> np.ndarray:
        """Our observation array (:data:`pipeline.holdem.policies.OBS_FIELDS`) from rlcard's raw one."""
        hole = [rlcard_card(c) for c in raw["hand"]]
        board = [rlcard_card(c) for c in raw["public_cards"]]
        street = _STREET_OF_BOARD[len(board)]
        chips = raw["all_chips"]
        big_blind = 2.0                                   # rlcard's chips: small blind 1, big blind 2
        pot = sum(chips) / big_blind
        to_call = max(max(chips) - raw["my_chips"], 0) / big_blind
        obs = np.zeros(len(OBS_FIELDS), np.float64)
        position = (self.seat - self.button) % 2
        obs[O_STREET], obs[O_SEAT], obs[O_POSITION] = street, self.seat, position
        obs[O_RAISES] = raw["raise_nums"][street]
        obs[O_RAISES_PREV] = raw["raise_nums"][street - 1] if street > 0 else 0
        obs[O_PLAYERS], obs[O_SEATS] = 2, 2
        obs[O_POT], obs[O_TO_CALL] = pot, to_call
        obs[O_POT_ODDS] = to_call / (pot + to_call) if to_call > 0 else 0.0
        obs[O_CAN_RAISE] = 1.0 if can_raise else 0.0
        obs[O_POS_CLASS] = position_class(position, 2)
        T = self.tables
        if street == 0:
            obs[O_CATEGORY] = 1.0 if hole[0] >> 2 == hole[1] >> 2 else 0.0
            obs[O_WEIGHT] = self.pre[class_of(hole[0], hole[1]), 1]
        else:
            key, suited = KEY_BASE, np.uint64(0)
            for c in hole + board:
                key += T.card_keys[c]
                suited |= suited_bit(c)
            obs[O_CATEGORY] = hand_value(key, suited, T) >> 12
            b = np.zeros(5, np.int64)
            b[:len(board)] = board
            if not self.sampled:
                obs[O_WEIGHT] = table_weight(np.array(hole, np.int64), b, len(board), 1, self.wt)
            else:
                seed_stream(self.rng, self.seed, self.decisions, 3)
                obs[O_WEIGHT] = sampled_weight(hole[0], hole[1], b, len(board), 1, self.samples, self.rng,
                                               self.deck, T)
        return obs

    def step(self, state: dict[str, Any]) -> str:
        legal = list(state["raw_legal_actions"])
        raw = state["raw_obs"]
        obs = self.observe(raw, "raise" in legal)
        hole = [rlcard_card(c) for c in raw["hand"]]
        self.decisions += 1
        if obs[O_STREET] == 0:
            a = decide(THESIS_PREFLOP, self.params, obs, int(self.groups[class_of(hole[0], hole[1])]), self.rng)
        else:
            a = gene_decision(self.player.genes, self.used, self.layout, obs)
        free = "check" in legal
        if a == RAISE and "raise" in legal:
            return "raise"
        if a == FOLD and not free:
            return "fold"
        assert a in (CALL, RAISE, FOLD)
        return "check" if free else "call"

    def eval_step(self, state: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return self.step(state), {}


@dataclass
class RlcardResult:
    """The evolved player's result in rlcard's environment."""

    opponent: str
    hands: int
    bb_per_100: float
    stderr: float

    @property
    def ci95(self) -> tuple[float, float]:
        return (self.bb_per_100 - 1.96 * self.stderr, self.bb_per_100 + 1.96 * self.stderr)


def play_rlcard(player: Player, opponent: str, hands: int, seed: int = 0, samples: int = DEFAULT_SAMPLES,
                weights: Optional[WeightSource] = None) -> RlcardResult:
    """Play ``hands`` hands (rounded up to pairs) heads-up in rlcard's ``limit-holdem`` against ``opponent``.

    Each pair replays rlcard's generator state with the seats swapped; the standard
    error is taken over pairs.  ImportError if rlcard is not installed.
    """
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.models.limitholdem_rule_models import LimitholdemRuleAgentV1

    if opponent not in OPPONENTS:
        raise ValueError(f"unknown rlcard opponent {opponent!r} (choose from {', '.join(OPPONENTS)})")
    env = rlcard.make("limit-holdem", config={"seed": seed})
    me = EvolvedAgent(player, samples, seed, weights)
    other: Any = LimitholdemRuleAgentV1() if opponent == "rlcard-rule" else RandomAgent(num_actions=env.num_actions)
    pairs = -(-hands // 2)
    halves = halves_sq = 0          # exact sums of each pair's winnings in half big blinds, and of their squares
    for p in range(pairs):
        deck_state = env.game.np_random.get_state()      # both hands of a pair deal from the same state
        pair = 0.0
        for swap in (0, 1):
            env.game.np_random.set_state(deck_state)
            np.random.seed((seed * 7919 + 2 * p + swap) % (1 << 32))   # the random agent draws from numpy's global
            agents = [other, me] if swap else [me, other]
            env.set_agents(agents)
            state, pid = env.reset()
            me.seat, me.button = (1 if swap else 0), pid   # heads-up the small blind (button) acts first preflop
            while not env.is_over():
                agent = agents[pid]
                action, _ = agent.eval_step(state)
                state, pid = env.step(action, agent.use_raw)
            pair += env.get_payoffs()[1 if swap else 0]
        h = round(2 * pair)                 # rlcard pays in big blinds of 2 chips: whole halves
        halves += h
        halves_sq += h * h
    mean = halves / pairs / 4               # per hand, in big blinds
    var = (pairs * halves_sq - halves * halves) / (pairs * (pairs - 1)) if pairs > 1 else math.nan
    se = math.sqrt(max(var, 0.0) / pairs) / 4 if pairs > 1 else math.nan
    return RlcardResult(opponent, 2 * pairs, 100 * mean, 100 * se)
