"""Policies as data: a kind number and a float parameter row, decided inside the betting kernel.

Every player sees the same observation (:data:`OBS_FIELDS`, a float array the
kernel fills) and answers :data:`FOLD`, :data:`CALL` (check or call) or
:data:`RAISE` (bet or raise); the kernel turns an answer that is not legal into
the nearest legal one (a fold facing no bet checks, a raise at the cap calls).

Built-in kinds:

``random``   uniform over the legal answers (folding is legal only facing a bet)
``station``  always checks or calls
``maniac``   always bets or raises; calls only when capped, a call the cap
             forces that the aggression factor does not count (it counts the
             calls a player chose), so a maniac's AF is infinite
``tag``      tight-aggressive rule bot on the hand weight ``w`` against the
             ``k`` active opponents, normalised as ``s = w (k + 1)`` (1 = an
             average hand).  Preflop it raises or folds: by seat (early, middle,
             late, small blind, big blind, and heads-up its own two rows, where
             the button opens about two hands in three and the big blind defends
             about three in five) and by the raises made, it raises at
             ``s >= raise``, calls at ``s >= call`` (never first in: it does not
             limp), else checks when free or folds (:data:`TAG_PREFLOP`).  After
             the flop (:data:`TAG_STREETS`) it bets when checked to at
             ``s >= bet[street]``; facing a bet it raises at ``s >= raise[street]``,
             calls at ``s >= call[street]`` when ``w`` also reaches the pot odds,
             else folds.  Measured (VPIP, PFR, AF at 2, 6 and 9 seats) in
             ``docs/holdem.md``
``thesis-preflop``  the preflop table below, then after the flop the hand-weight
             thresholds of :data:`TAG_DEFAULT` (``tag``'s rule before issue 40):
             raise when ``s >= raise[street]``; facing a bet call when
             ``s >= call[street]`` or ``w >=`` the pot odds; else check or fold
``evolved``  a genetic-algorithm player (:mod:`pipeline.ga`): the ``thesis-preflop``
             table preflop, then its gene table (:mod:`.genes`); loaded from a
             player file, so it has no short name
``fold``     folds to every bet, checks when checking is free: the baseline of
             exploitability (it loses 750 mbb a hand heads-up to a best response)
``rlcard-v1`` rlcard's ``LimitholdemRuleAgentV1``, ported rule for rule (:mod:`.rlcard_v1`); it reads
             its cards and the board, so the kernels ask :func:`.rlcard_v1.rlcard_v1`, not :func:`decide`
``cfr``      a strategy solved by ``pokerpipe solve hulhe`` (:mod:`.strategy`), heads-up; named ``cfr:DIR``
             after its folder, so it has no short name
``script``   (not a player: for tests and replays) the answers in its parameter row, in order

The preflop table (``thesis-preflop``) follows the fold/call/raise charts of the
thesis (§2.7.1, after Sklansky & Malmuth, *Hold'em Poker for Advanced
Players*, 1999): a hand's Sklansky–Malmuth group (1 best .. 8, 9 = unlisted;
:data:`pipeline.ranges.query.GROUPS`) is compared with the highest group that raises
and the highest that calls, by position and by the raises already made:

==========  =================  =================  ===============
position    no raise (R / C)   one raise (R / C)  2+ raises (R/C)
==========  =================  =================  ===============
early       3 / 4              2 / 3              1 / 2
middle      4 / 6              2 / 4              1 / 2
late        5 / 8              2 / 4              1 / 2
small blind 3 / 8              2 / 4              1 / 2
big blind   4 / (checks)       2 / 6              1 / 2
==========  =================  =================  ===============

Late is the button and the seat before it; middle the two seats before those;
the rest early.  Heads-up the button (small blind) plays the late column.
"""
from __future__ import annotations

import numpy as np

from ..core.hand_classes import CLASS_COUNT, class_of
from ..core.rng import stream_below
from ..ranges.query import GROUPS, parse_query
from .jit import hand_kernel

FOLD, CALL, RAISE = 0, 1, 2
RANDOM, STATION, MANIAC, TAG, THESIS_PREFLOP, SCRIPT, EVOLVED, FOLDER, RLCARD_V1, CFR = range(10)
KINDS = {"random": RANDOM, "station": STATION, "maniac": MANIAC, "tag": TAG, "thesis-preflop": THESIS_PREFLOP,
         "fold": FOLDER, "rlcard-v1": RLCARD_V1}
NEEDS_WEIGHT = (False, False, False, True, True, False, True, False, False, False)

# observation fields (indices into the float array the kernel fills before each decision)
OBS_FIELDS = ("street", "seat", "position", "raises", "raises_before", "players_in", "pot", "to_call",
              "pot_odds", "category", "weight", "seats", "can_raise", "pos_class", "nth")
(O_STREET, O_SEAT, O_POSITION, O_RAISES, O_RAISES_PREV, O_PLAYERS, O_POT, O_TO_CALL, O_POT_ODDS,
 O_CATEGORY, O_WEIGHT, O_SEATS, O_CAN_RAISE, O_POS_CLASS, O_NTH) = range(len(OBS_FIELDS))
EARLY, MIDDLE, LATE, SMALL_BLIND, BIG_BLIND = range(5)

N_PARAMS = 128
P_SAMPLES = 0          # hand-weight samples after the flop
DEFAULT_SAMPLES = 48   # of them, by default (the sampler's error: pipeline.holdem.weights)
P_TAG = 1              # 8 thresholds: (raise, call) for preflop, flop, turn, river (thesis-preflop after the flop)
P_TABLE = 9            # 5 positions x 3 raise counts x (raise group, call group)
P_TAG_PREFLOP = 40     # tag preflop: 7 seats (TAG_SEATS) x 3 raise counts x (raise, call) thresholds on s
P_TAG_STREETS = 82     # tag after the flop: (bet, raise, call) thresholds on s for the flop, turn, river
P_SCRIPT = 96          # ``script`` (tests, replays): the seat's answers in order, then check/call
TAG_DEFAULT = (1.45, 1.05, 1.55, 1.1, 1.6, 1.15, 1.7, 1.2)
PREFLOP_TABLE = ((3, 4, 2, 3, 1, 2), (4, 6, 2, 4, 1, 2), (5, 8, 2, 4, 1, 2), (3, 8, 2, 4, 1, 2),
                 (4, 0, 2, 6, 1, 2))
HEADS_UP_BUTTON, HEADS_UP_BIG_BLIND = 5, 6   # tag's two heads-up rows, after the five position classes
TAG_SEATS = ("early", "middle", "late", "small blind", "big blind", "heads-up button", "heads-up big blind")
NEVER = 99.0           # a threshold no s reaches (s <= players in <= 10): tag never limps
# tag's preflop thresholds on s = w (k + 1), by seat (TAG_SEATS) and raises made (none, one, two or more):
# (raise at s >=, call at s >=).  The share of hands each admits is in docs/holdem.md.
TAG_PREFLOP = ((1.4, NEVER, 1.45, 1.4, 1.6, 1.5),      # early
               (1.28, NEVER, 1.4, 1.35, 1.6, 1.45),    # middle
               (1.12, NEVER, 1.3, 1.25, 1.55, 1.4),    # late
               (1.08, NEVER, 1.35, 1.3, 1.6, 1.45),    # small blind
               (1.3, NEVER, 1.35, 1.05, 1.6, 1.3),     # big blind (no raise: it raises or checks its option)
               (0.9, NEVER, 1.4, 1.0, 1.3, 0.9),       # heads-up button
               (1.2, NEVER, 1.2, 0.93, 1.45, 1.1))     # heads-up big blind
# tag after the flop, by street: (bet when checked to at s >=, raise a bet at s >=, call a bet at s >=)
TAG_STREETS = ((0.9, 1.3, 0.7), (1.0, 1.4, 0.8), (1.1, 1.5, 0.9))


def default_params(kind: int, samples: int = DEFAULT_SAMPLES) -> np.ndarray:
    """The parameter row of a built-in kind (a GA may evolve any of its numbers)."""
    p = np.zeros(N_PARAMS, np.float64)
    p[P_SAMPLES] = samples
    p[P_TAG:P_TAG + 8] = TAG_DEFAULT
    p[P_TABLE:P_TABLE + 30] = np.array(PREFLOP_TABLE, np.float64).ravel()
    p[P_TAG_PREFLOP:P_TAG_PREFLOP + 42] = np.array(TAG_PREFLOP, np.float64).ravel()
    p[P_TAG_STREETS:P_TAG_STREETS + 9] = np.array(TAG_STREETS, np.float64).ravel()
    return p


def group_of_class() -> np.ndarray:
    """Sklansky–Malmuth group (1..8, 9 for none) of each of the 169 classes, grid order."""
    out = np.full(CLASS_COUNT, 9, np.int64)
    for g in range(8, 0, -1):
        for a, b in parse_query(f"Group{g}").combos:
            out[class_of(int(a), int(b))] = g
    return out


@hand_kernel
def position_class(position: int, seats: int) -> int:
    """Preflop position class of a seat ``position`` places left of the button (0 = button)."""
    if seats == 2:
        return LATE if position == 0 else BIG_BLIND
    if position == 1:
        return SMALL_BLIND
    if position == 2:
        return BIG_BLIND
    to_button = (seats - position) % seats
    if to_button <= 1:
        return LATE
    if to_button <= 3:
        return MIDDLE
    return EARLY


@hand_kernel
def _thresholds(params: np.ndarray, obs: np.ndarray) -> int:
    """The hand-weight threshold rule of :data:`TAG_DEFAULT` (``thesis-preflop`` after the flop): raise when
    ``s = w (k + 1) >= raise[street]``; facing a bet call when ``s >= call[street]`` or (after the flop) ``w >=``
    the pot odds; else check or fold."""
    street = int(obs[O_STREET])
    w = obs[O_WEIGHT]
    s = w * obs[O_PLAYERS]
    if s >= params[P_TAG + 2 * street]:
        return RAISE
    if obs[O_TO_CALL] == 0.0:
        return CALL
    if s >= params[P_TAG + 2 * street + 1] or (street > 0 and w >= obs[O_POT_ODDS]):
        return CALL
    return FOLD


@hand_kernel
def _tag(params: np.ndarray, obs: np.ndarray) -> int:
    """``tag``: raise or fold preflop by seat, then bet, raise, call or fold by street, on ``s = w (k + 1)``.

    Preflop the row is the seat's position class, or one of the two heads-up rows (heads-up the button
    opens wide and the big blind defends wide, as the blinds and the position make it right), and the
    column the raises made (the big blind's bet is not one): raise at ``s >= raise``, call at
    ``s >= call`` (never with no raise made: it opens by raising, never limps), else check when free or
    fold.  After the flop: bet when checked to at ``s >= bet[street]``; facing a bet raise at
    ``s >= raise[street]``, call at ``s >= call[street]`` when ``w`` also reaches the pot odds, else fold.
    """
    street = int(obs[O_STREET])
    w = obs[O_WEIGHT]
    s = w * obs[O_PLAYERS]
    free = obs[O_TO_CALL] == 0.0
    if street == 0:
        row = int(obs[O_POS_CLASS])
        if obs[O_SEATS] == 2.0:
            row = HEADS_UP_BIG_BLIND if row == BIG_BLIND else HEADS_UP_BUTTON
        base = P_TAG_PREFLOP + 6 * row + 2 * min(int(obs[O_RAISES]), 2)
        if s >= params[base]:
            return RAISE
        if free or s >= params[base + 1]:
            return CALL
        return FOLD
    base = P_TAG_STREETS + 3 * (street - 1)
    if free:
        return RAISE if s >= params[base] else CALL
    if s >= params[base + 1]:
        return RAISE
    if s >= params[base + 2] and w >= obs[O_POT_ODDS]:
        return CALL
    return FOLD


@hand_kernel
def decide(kind: int, params: np.ndarray, obs: np.ndarray, group: int, rng: np.ndarray) -> int:
    """The answer of a policy of ``kind`` with ``params`` to observation ``obs``.

    ``group`` is the hole cards' Sklansky–Malmuth group (used preflop by
    ``thesis-preflop``); ``rng`` the hand's action stream.
    """
    if kind == STATION:
        return CALL
    if kind == SCRIPT:
        i = P_SCRIPT + int(obs[O_NTH])
        return int(params[i]) if i < params.size else CALL
    if kind == MANIAC:
        return RAISE
    if kind == FOLDER:
        return FOLD
    if kind == TAG:
        return _tag(params, obs)
    if kind == RANDOM:
        facing = obs[O_TO_CALL] > 0.0
        can_raise = obs[O_CAN_RAISE] > 0.0
        n = 1 + int(facing) + int(can_raise)
        r = stream_below(rng, n)
        if not facing:
            r += 1
        if r == RAISE and not can_raise:
            r = CALL
        return r
    if (kind == THESIS_PREFLOP or kind == EVOLVED) and obs[O_STREET] == 0.0:
        raises = min(int(obs[O_RAISES]), 2)
        base = P_TABLE + 6 * int(obs[O_POS_CLASS]) + 2 * raises
        if group <= params[base]:
            return RAISE
        if group <= params[base + 1]:
            return CALL
        return CALL if obs[O_TO_CALL] == 0.0 else FOLD
    return _thresholds(params, obs)


def needs_weight(kinds: np.ndarray) -> np.ndarray:
    """Which seats' policies read the hand weight (the kernel computes it only for those)."""
    return np.array([NEEDS_WEIGHT[int(k)] for k in kinds], np.bool_)


__all__ = ["KINDS", "GROUPS", "decide", "default_params", "group_of_class", "position_class"]
