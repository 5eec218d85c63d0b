"""rlcard's ``LimitholdemRuleAgentV1`` as a pokerpipe policy kind (``rlcard-v1``), decision for decision.

rlcard (Zha et al., 2019, ``rlcard/models/limitholdem_rule_models.py``) ships
this rule agent as its limit hold'em baseline; the evolution already measures
itself against it inside rlcard's own environment (:mod:`pipeline.ga.assessment`).
Here the same rules decide inside pokerpipe's kernels, so the agent can sit at
``play``/``evaluate`` tables and, above all, be measured by local best response
(:mod:`pipeline.exploit`), which asks a policy about each of 1,326 holdings at
every decision: a thousand Python calls a decision through an adapter, a few
microseconds here.  ``tests/holdem/test_rlcard_v1.py`` checks every answer
against rlcard's own agent (on every holding of random boards and betting
states), so this is the agent, not a reading of it.

The agent reads only its cards, the board and which actions rlcard calls legal:

* **preflop** it raises pairs, A-T+ (ace with a ten or better), suited aces and
  two cards from ten to king; it folds the rest;
* **after the flop** a pair raises when the board holds its rank; A-T+ raises
  when the board holds a card from ten to ace; a suited ace raises when the board
  holds its suit (the other aces fold); any other hand checks on the flop and
  folds on the turn and river when every board card is a five or lower, and
  calls otherwise.

Then rlcard's fallbacks for an action it may not take: a raise at the cap
calls, a check facing a bet folds, and a call with nothing to call **bets**.
rlcard lets a player fold when checking is free (its agent does, in the big
blind preflop with a weak hand); pokerpipe's kernels play a fold facing no bet
as a check, as they do for every policy, so in pokerpipe's game the agent
checks there, which can only cost it less than in rlcard's.
"""
from __future__ import annotations

import numpy as np

from .jit import hand_kernel

FOLD, CALL, RAISE = 0, 1, 2     # pokerpipe's answers (:mod:`.policies`)
_TEN, _KING, _ACE = 8, 11, 12   # card ranks: id >> 2
_FIVE = 3


@hand_kernel
def rlcard_v1(h0: int, h1: int, board: np.ndarray, m: int, facing: bool, can_raise: bool) -> int:
    """The agent's answer with hole cards ``h0 h1`` on ``board[:m]`` (``m`` 0, 3, 4 or 5), ``facing`` a bet
    or not, allowed to raise or not: :data:`FOLD`, :data:`CALL` (check or call) or :data:`RAISE`."""
    r0, r1 = h0 >> 2, h1 >> 2
    suit = h0 & 3
    suited = suit == (h1 & 3)
    ace = r0 == _ACE or r1 == _ACE
    other = r1 if r0 == _ACE else r0                   # an ace's partner
    want = FOLD                                        # 'fold' (0), 'call' (1), 'raise' (2) or 'check' (3)
    if m == 0:
        if r0 == r1:
            want = RAISE
        elif ace:
            if _TEN <= other <= _KING or suited:
                want = RAISE
        elif _TEN <= r0 <= _KING and _TEN <= r1 <= _KING:
            want = RAISE
    else:
        ranks = 0
        suits = 0
        for i in range(m):
            ranks |= 1 << (board[i] >> 2)
            suits |= 1 << (board[i] & 3)
        if r0 == r1:
            if (ranks >> r0) & 1:
                want = RAISE
        elif ace:
            if _TEN <= other <= _KING:
                if ranks >> _TEN:                          # a ten, jack, queen, king or ace on the board
                    want = RAISE
            elif suited and (suits >> suit) & 1:
                want = RAISE
        elif ranks >> (_FIVE + 1) == 0:                    # every board card a five or lower
            want = 3 if m == 3 else FOLD
        else:
            want = CALL
    # rlcard's legal actions: raise below the cap, check when not facing a bet, call when facing one, fold always
    if want == RAISE:
        return RAISE if can_raise else CALL
    if want == 3:
        return FOLD if facing else CALL
    if want == CALL:
        return CALL if facing else RAISE
    return FOLD


__all__ = ["rlcard_v1"]
