"""Hand strength and what comes next: HS, PPOT, NPOT and EHS, win odds, outs, and the odds of hitting them.

=====================  ===================================================================
:mod:`.hand_strength`  HS, the potential table, PPOT/NPOT, EHS against a random hand (Billings et al.)
:mod:`.vs_range`       the same against a weighted range or pocket query
:mod:`.multiway`       PPOT/NPOT against k random opponents (seeded Monte Carlo)
:mod:`.win_odds`       win odds against 1..9 opponents beside HS^k (Keith Rule's MultiOddsApp)
:mod:`.runouts`        the runouts of a flop or turn, numbered once
:mod:`.street`         the EHS tables' street kernel: every situation of a board at once
:mod:`.outs`           outs, discounted outs and draws (Keith Rule's rules)
:mod:`.hit_odds`       the chance of hitting n outs, pot odds, the rules of 4 and 2
=====================  ===================================================================
"""
from .hand_strength import HandStrength, hand_strength
from .hit_odds import hit_chances, outs_row, pot_odds
from .outs import outs
from .vs_range import hand_strength_vs
from .win_odds import win_odds

__all__ = ["HandStrength", "hand_strength", "hand_strength_vs", "hit_chances", "outs", "outs_row", "pot_odds",
           "win_odds"]
