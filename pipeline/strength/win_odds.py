"""Win odds against 1..9 random opponents (Keith Rule's MultiOddsApp), beside HS, PPOT and NPOT.

On a flop, turn or river the odds against one opponent are exact: every
(opponent hand, runout) case of the hand-potential enumeration (:mod:`.ehs`)
counts once.  Against two or more, and preflop, they are seeded Monte Carlo
(:func:`pipeline.equity.equity` with ``random`` opponents) with a standard error.
The hole may be a pocket query: its combos that fit the board are pooled, each
counting equally.  Each row also carries HS^k and PPOT/NPOT against k opponents
(exact for one, seeded Monte Carlo with standard errors beyond).  ``deck=`` plays
another deck (:mod:`pipeline.evaluator.decks`; the short deck's missing ranks are
dead to every deal).
"""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Optional

import numpy as np

from ..core.budget import refuse_count
from ..core.cards import CardError, check_disjoint, format_cards, mask_of, parse_board, parse_cards
from ..core.cores import available_cores
from ..core.inputs import integer
from ..equity.chunks import Progress
from ..equity.limits import MAX_TRIALS, MC_TRIALS_PER_SECOND
from ..evaluator.decks import STANDARD, Deck
from ..evaluator.kernels import Tables
from ..evaluator.tables import tables
from ..ranges.query import parse_query
from .hand_strength import AHEAD, TIED, hand_strengths, potential_counts, potentials
from .multiway import potentials_mc

MAX_OPPONENTS = 9
DEFAULT_TRIALS = 100_000     # Monte Carlo trials per opponent count


def win_odds(hole: str, board: str, max_opponents: int = MAX_OPPONENTS, trials: int = DEFAULT_TRIALS, seed: int = 0, *,
             dead: str = "", executor: Optional[Executor] = None,
             progress: Optional[Progress] = None,
             deck: Deck = STANDARD) -> dict:
    """``{"hs", "ppot", "npot", "combos", "opponents": [{opponents, win, tie, equity, stderr, exact}]}``.

    ``executor`` and ``progress`` are passed to :func:`pipeline.equity.equity` for each
    Monte Carlo opponent count (opponent count ``k`` is seeded with ``seed + k``).  ``dead``
    cards (folded, burnt) are in no one's hand and not on the board to come.
    """
    from ..equity import equity  # here: importing this package (a worker's street kernel) loads no calculator

    b = parse_board(board)
    d = parse_cards(dead, what="dead cards") if dead.strip() else []
    check_disjoint([("board", b), ("dead cards", d)])
    deck.check_cards(b, "board")
    deck.check_cards(d, "dead cards")
    max_opponents = integer(max_opponents, "opponents", 1, MAX_OPPONENTS, error=CardError, strict=True)
    trials = integer(trials, "trials", 1, MAX_TRIALS, error=CardError, strict=True)
    seed = integer(seed, "seed", 0, 2**63 - 11, error=CardError, strict=True)
    counts = max_opponents - (1 if b else 0)           # opponent counts run by Monte Carlo, trials each
    refuse_count(trials * counts, MC_TRIALS_PER_SECOND, f"{trials:,} trials for each of {counts} opponent counts",
                 "fewer trials", available_cores())
    query = parse_query(hole)
    if len(query) == 1:
        deck.check_cards(query.combos[0].tolist(), "hole cards")
    rng = query.without(mask_of(b + d) | deck.absent_mask)
    if len(rng) == 0:
        raise CardError(f"{hole!r} has no hand left beside the board" + (" and the dead cards" if d else "")
                        + (f" in the {deck.title}" if deck.low_rank else ""))
    dead_mask = mask_of(d) | deck.absent_mask
    rows = []
    out: dict = {"combos": len(rng), "hs": None, "ppot": None, "npot": None}
    t = tables(deck)
    if b:
        now = np.zeros(3, np.int64)
        hp = np.zeros((3, 3), np.int64)
        for combo in rng.combos:
            potential_counts(np.array(combo, np.int64), np.array(b, np.int64), 5 - len(b), now, hp, t,
                             np.uint64(dead_mask))
        out["hs"] = float(hand_strengths(now))
        if len(b) < 5:
            out["ppot"], out["npot"] = (float(x) for x in potentials(hp))
            cases = hp.sum()
            win, tie = hp[:, AHEAD].sum() / cases, hp[:, TIED].sum() / cases
        else:
            out["ppot"] = out["npot"] = 0.0
            win, tie = now[AHEAD] / now.sum(), now[TIED] / now.sum()
        rows.append({"opponents": 1, "win": float(win), "tie": float(tie), "equity": float(win + tie / 2),
                     "stderr": 0.0, "exact": True})
    start = 2 if b else 1
    text = rng.text if len(rng) > 1 else format_cards(rng.combos[0])
    for k in range(start, max_opponents + 1):
        r = equity([text] + ["random"] * k, board=format_cards(b), dead=format_cards(d), trials=trials, seed=seed + k,
                   executor=executor, progress=progress, deck=deck)
        p = r.players[0]
        rows.append({"opponents": k, "win": p.win, "tie": p.tie, "equity": p.equity, "stderr": p.stderr,
                     "exact": r.exact})
    for row in rows:
        _add_strength(row, out, rng.combos, b, trials, seed, dead_mask, t)
    out["opponents"] = rows
    return out


def _add_strength(row: dict, out: dict, heroes: np.ndarray, board: list[int], trials: int, seed: int,
                  dead: int, t: Tables) -> None:
    """HS^k, and PPOT/NPOT against k random opponents: the exact enumeration's for k = 1, seeded
    Monte Carlo (:mod:`.potential_mc`, stream ``(seed, k)``) with standard errors beyond; None preflop."""
    k = row["opponents"]
    row["hs_k"] = None if out["hs"] is None else out["hs"] ** k
    if len(board) in (0, 5) or k == 1:
        row.update(ppot=out["ppot"], npot=out["npot"], ppot_stderr=0.0 if board else None,
                   npot_stderr=0.0 if board else None)
        return
    mc = potentials_mc(heroes, board, k, trials, seed, dead, t)
    row.update(ppot=mc["ppot"], npot=mc["npot"], ppot_stderr=mc["ppot_stderr"], npot_stderr=mc["npot_stderr"])
