"""``pokerpipe outs``: outs grouped by the hand they make, discounted outs, draws and pot odds."""
from __future__ import annotations

import math

import typer

from jobs.app import app, fail, print_json


@app.command()
def outs(hole: str = typer.Argument(..., help="two hole cards, e.g. AsAc"),
         board: str = typer.Option(..., "--board", "-b", help="a flop or a turn"),
         opponent: list[str] = typer.Option([], "--opponent", help="a known opponent hand (repeatable)"),
         dead: str = typer.Option("", "--dead", help="cards known to be out of the deck (folded, burnt)"),
         pot: float | None = typer.Option(None, "--pot", help="the pot, the bet to call included"),
         to_call: float | None = typer.Option(None, "--to-call", help="the bet to call"),
         as_json: bool = typer.Option(False, "--json", help="print one JSON object")) -> None:
    """Cards that improve the hand a category, beat the board alone and every known opponent;
    with --pot and --to-call, whether calling is profitable at those pot odds."""
    from fractions import Fraction

    from pipeline.core.errors import InputError
    from pipeline.strength.hit_odds import pot_odds
    from pipeline.strength.outs import outs as find

    if (pot is None) != (to_call is None):
        raise fail("--pot and --to-call go together")
    for name, v in (("--pot", pot), ("--to-call", to_call)):
        if v is not None and not math.isfinite(v):
            raise fail(f"{name} must be a finite number, not {v}")
    try:
        r = find(hole, board, opponent, dead)
        if pot is not None and to_call is not None:
            r.update(pot_odds(r["count"], r["unseen"], r["cards_to_come"], Fraction(str(pot)),
                              Fraction(str(to_call))))
    except InputError as e:
        raise fail(str(e)) from None
    if as_json:
        print_json(r)
        return
    print(f"{hole} on {board}: {r['count']} outs (discounted {r['discounted']:.2f})")
    for hand, cards in r["by_hand"].items():
        print(f"  {hand:16s} {len(cards):2d}  {' '.join(cards)}")
    print("draws: " + ", ".join(f"{k} {v}" for k, v in r["draws"].items() if v))
    if pot is not None:
        _print_pot_odds(r)


def _print_pot_odds(r: dict) -> None:
    print(f"hit next card  {100 * r['hit_next_card']:6.2f}%  {'   '.join(r['hit_next_card_odds'])}")
    print(f"hit by river   {100 * r['hit_by_river']:6.2f}%  {'   '.join(r['hit_by_river_odds'])}")
    print(f"pot {r['pot']:g}, to call {r['to_call']:g}: pot odds {r['pot_odds_text']}, "
          f"break-even equity {100 * r['break_even_equity']:.2f}%")
    verdict = "+EV call" if r["profitable"] else "not profitable on immediate odds"
    print(f"call EV {r['call_ev']:+.2f} (next card only): {verdict}")
    if not r["profitable"] and r["implied_needed"] is not None:
        print(f"implied odds: {r['implied_needed']:.2f} more must be won when hitting to break even")
