"""The end of a hand: uncalled bets returned, rake, main and side pots, split pots and odd chips.

Chips are integer units (:data:`BB` = 100 units, so the small blind and every
rake are exact).  The rules (ACPC limit hold'em; thesis §2.8 for the rake):

* the part of the largest contribution that nobody matched goes back to its owner;
* rake is ``rake_bp`` basis points of the pot, rounded down, at most ``rake_cap``
  units, and none when no flop was dealt ("no flop, no drop"); it is taken from
  the main pot first, then the side pots in order;
* the pots are layered by the contributions of the players still in: a player
  is eligible for every layer up to his own contribution;
* each pot goes to its best eligible hand; a tie splits it evenly and the
  indivisible units all go to the first tied winner left of the button (as
  pokerkit's default ``divmod`` does, so PHH replays agree to the unit).
"""
from __future__ import annotations

import numpy as np

from ..evaluator.kernels import Tables, hand_value, suited_bit
from .jit import hand_kernel

BB = 100


@hand_kernel
def return_uncalled(contrib: np.ndarray, stack: np.ndarray, returned: np.ndarray) -> None:
    """Give back the part of the largest contribution that nobody else reached."""
    n = contrib.size
    top = 0
    for k in range(1, n):
        if contrib[k] > contrib[top]:
            top = k
    second = 0
    for k in range(n):
        if k != top and contrib[k] > second:
            second = contrib[k]
    excess = contrib[top] - second
    if excess > 0:
        contrib[top] -= excess
        stack[top] += excess
        returned[top] = excess


@hand_kernel
def showdown_values(holes: np.ndarray, board: np.ndarray, folded: np.ndarray, values: np.ndarray,
                    T: Tables) -> None:
    """Write the seven-card value of every player still in to ``values`` (-1 for a folded one)."""
    key = np.uint64(0)
    suited = np.uint64(0)
    for c in board:
        key += T.card_keys[c]
        suited |= suited_bit(c)
    from_base = key + np.uint64(0x3333 << 32)
    for k in range(holes.shape[0]):
        if folded[k]:
            values[k] = -1
            continue
        a, b = holes[k, 0], holes[k, 1]
        values[k] = hand_value(from_base + T.card_keys[a] + T.card_keys[b], suited | suited_bit(a) | suited_bit(b),
                               T)


@hand_kernel
def award(contrib: np.ndarray, folded: np.ndarray, values: np.ndarray, button: int, rake: int,
          won: np.ndarray, pots: np.ndarray, pot_share: np.ndarray) -> int:
    """Split the contributions into pots, take ``rake`` from them, pay the winners; return the pot count.

    ``values`` ranks the players still in (higher wins; -1 folded).  Writes each
    pot's amount after rake to ``pots`` and each seat's share of pot ``p`` to
    ``pot_share[seat, p]``; adds every seat's winnings to ``won``.
    """
    n = contrib.size
    prev = 0
    n_pots = 0
    rake_left = rake
    top = 0
    for k in range(n):
        if contrib[k] > top:
            top = contrib[k]
    while True:
        level = -1                        # next contribution level of a player still in
        for k in range(n):
            if not folded[k] and contrib[k] > prev and (level < 0 or contrib[k] < level):
                level = contrib[k]
        if level < 0:
            break
        amount = 0
        for k in range(n):
            amount += min(contrib[k], level) - min(contrib[k], prev)
        last = True
        for k in range(n):
            if not folded[k] and contrib[k] > level:
                last = False
        if last:                           # folded chips above every live level join the last pot
            for k in range(n):
                if contrib[k] > level:
                    amount += contrib[k] - level
        take = min(rake_left, amount)
        amount -= take
        rake_left -= take
        best = -1
        winners = 0
        for k in range(n):
            if not folded[k] and contrib[k] >= level:
                if values[k] > best:
                    best = values[k]
                    winners = 1
                elif values[k] == best:
                    winners += 1
        share = amount // winners
        odd = amount - share * winners
        for step in range(1, n + 1):
            k = (button + step) % n
            if not folded[k] and contrib[k] >= level and values[k] == best:
                got = share + odd
                odd = 0
                won[k] += got
                pot_share[k, n_pots] = got
        pots[n_pots] = amount
        n_pots += 1
        prev = level
    return n_pots


def rake_of(pot: int, rake_bp: int, rake_cap: int, flop_dealt: bool) -> int:
    """Rake of a pot of ``pot`` units (plain Python twin of the kernel's rule, for readers and tests)."""
    if not flop_dealt:
        return 0
    return min(rake_cap, pot * rake_bp // 10000)
