"""``pokerpipe odds``: win odds against 1..9 random opponents, beside HS, PPOT and NPOT."""
from __future__ import annotations

from pathlib import Path

import typer

from jobs.app import app, fail, print_json
from jobs.counts import COUNT
from pipeline.strength.win_odds import DEFAULT_TRIALS, MAX_OPPONENTS


@app.command()
def odds(hole: str = typer.Argument(..., help="two hole cards or a pocket query"),
         board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards"),
         dead: str = typer.Option("", "--dead", help="cards known to be out of the deck (folded, burnt)"),
         max_opponents: int = typer.Option(MAX_OPPONENTS, "--max-opponents", help="last opponent count (1..9)"),
         trials: int = typer.Option(DEFAULT_TRIALS, "--trials", "-n", parser=COUNT,
                                    help="Monte Carlo trials per opponent count"),
         seed: int = typer.Option(0, "--seed", min=0, help="Monte Carlo seed (>= 0)"),
         game: str = typer.Option("holdem", "--game", "-g", help="holdem, shortdeck (6+: 36 cards) or "
                                  "shortdeck-trips (trips beat a straight)"),
         plot: Path | None = typer.Option(None, "--plot", help="also draw win odds and HS^k against k to FILE.png"),
         as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Chance to win at showdown against k = 1..9 random hands (exact for one opponent on a board),
    beside HS^k and PPOT/NPOT against k opponents (Monte Carlo with standard errors for k > 1)."""
    from jobs.estimate import Estimate
    from pipeline.core.cards import CardError
    from pipeline.evaluator.decks import DECKS, deck_named
    from pipeline.strength.win_odds import win_odds

    if game == "standard" or game not in ("holdem", *DECKS):
        raise fail(f"unknown game {game!r}; choose holdem, shortdeck or shortdeck-trips")
    try:
        deck = deck_named("standard" if game == "holdem" else game)
        r = win_odds(hole, board, max_opponents, trials, seed, dead=dead, deck=deck,
                     progress=Estimate("each opponent count runs as long; fewer --trials bound the work"))
    except CardError as e:
        raise fail(str(e)) from None
    if plot is not None:
        from pipeline.core.files import PathKindError, write_atomic
        from pipeline.plots.odds import odds_png

        try:
            write_atomic(plot, odds_png(r["opponents"], f"{hole} on {board or '(preflop)'}"))
        except PathKindError as e:
            raise fail(f"--plot: {e}") from None
        except OSError as e:
            raise fail(f"cannot write --plot {str(plot)!r}: {e.strerror}") from None
    if as_json:
        print_json(r, seed)
        return
    head = ("" if game == "holdem" else f"{game}: ") + f"{hole} on {board or '(preflop)'}"
    if r["hs"] is not None:
        head += f": HS {r['hs']:.4f}  PPOT {r['ppot']:.4f}  NPOT {r['npot']:.4f}"
    print(head)
    strength = f" {'HS^k':>8s} {'PPOT':>8s} {'± se':>6s} {'NPOT':>8s} {'± se':>6s}" if r["hs"] is not None else ""
    print(f"{'opponents':>9s} {'win':>9s} {'tie':>9s} {'equity':>9s} {'± stderr':>9s}" + strength)
    for row in r["opponents"]:
        err = "exact" if row["exact"] else f"{100 * row['stderr']:.3f}%"
        line = (f"{row['opponents']:9d} {100 * row['win']:8.3f}% {100 * row['tie']:8.3f}% {100 * row['equity']:8.3f}% "
                f"{err:>9s}")
        if row["hs_k"] is not None:
            exact = row["opponents"] == 1
            line += (f" {row['hs_k']:8.4f} {row['ppot']:8.4f} {_se(row['ppot_stderr'], exact)} {row['npot']:8.4f} "
                     f"{_se(row['npot_stderr'], exact)}")
        print(line)
    if any(row.get(k) is None and row["hs_k"] is not None for row in r["opponents"] for k in ("ppot_stderr",
                                                                                               "npot_stderr")):
        print("n/a: no sampled deal was behind (PPOT) or ahead (NPOT), so the estimate is 0 by convention "
              "and has no standard error; more --trials may find some")
    if plot is not None:
        print(f"picture: {plot}")


def _se(x: float | None, exact: bool) -> str:
    """A potential's standard error: 'exact' for the enumerated row, 'n/a' for an estimate from no deals."""
    return f"{'exact' if exact else 'n/a' if x is None else f'{x:.4f}':>6s}"
