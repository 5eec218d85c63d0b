"""``pokerpipe equity``: equity of 2..10 hands or ranges, exact or Monte Carlo."""
from __future__ import annotations

import math
from typing import Any, List, Optional

import typer

from jobs.app import app, fail, print_json
from jobs.counts import COUNT
from jobs.estimate import Estimate
from jobs.matchups_table import matchups_table, three_way_table
from pipeline.evaluator.decks import DECKS, deck_named

SHORT_DECKS = [name for name in DECKS if name != "standard"]      # --game shortdeck, shortdeck-trips


def _pct(x: float) -> str:
    return f"{100 * x:.4f}%"


def _count(x: Optional[int]) -> str:
    return "" if x is None else f"{x:,}"


def _known(result: Any, p: Any) -> bool:
    """Whether a Monte Carlo sample gives player ``p`` a standard error: two trials at least, not all alike
    for him (every one lost, or every one won or split among as many winners), where the sample's spread of
    0 would claim an error of 0 it cannot know.  Hi/lo pots split by the low too: there only an error of
    exactly 0 says so."""
    n = result.boards
    if n < 2 or not math.isfinite(p.stderr) or p.stderr == 0:
        return False
    if getattr(p, "scoops", None) is not None:
        return True
    shares = [float(x) for x in p.shares]
    return any(shares) and not any(math.isclose(x, n) for x in shares)


@app.command()
def equity(
    hands: List[str] = typer.Argument(..., metavar="HAND_OR_RANGE...",
                                      help="2 to 10 players: a hand (AhKh) or a range (QQ+,AKs); Omaha, in "
                                      "ProPokerTools' syntax: AsKsQdJd, AA:$ds, RROO, 15%, AAKKds, random"),
    game: str = typer.Option("holdem", "--game", "-g", help="holdem, shortdeck (6+: 36 cards, a flush beats a "
                             "full house, a straight beats trips), shortdeck-trips (trips beat a straight), omaha, "
                             "omaha5, omaha6, omaha-hilo or omaha5-hilo (aliases plo, plo5, plo6, plo8)"),
    board: str = typer.Option("", "--board", "-b", help="0, 3, 4 or 5 board cards, e.g. 'Ah7c2d'"),
    dead: str = typer.Option("", "--dead", "-d", help="cards known out of play"),
    trials: Optional[int] = typer.Option(None, "--trials", "-n", parser=COUNT,
                                         help="force Monte Carlo with N trials"),
    stderr: Optional[float] = typer.Option(None, "--stderr", help="Monte Carlo until every player's standard "
                                           "error is at most TARGET (e.g. 0.001)", metavar="TARGET"),
    seconds: Optional[float] = typer.Option(None, "--time", help="Monte Carlo for at most SECONDS",
                                            metavar="SECONDS"),
    seed: int = typer.Option(0, "--seed", help="Monte Carlo seed (same seed, same result)"),
    exact: bool = typer.Option(False, "--exact", help="force exact enumeration"),
    no_table: bool = typer.Option(False, "--no-table", help="enumerate preflop boards instead of "
                                  "summing the matchups (heads-up) or preflop-3way ($POKERPIPE_PREFLOP3) table"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
    threads: Optional[int] = typer.Option(None, "--threads", help="threads to use (default: all cores)"),
) -> None:
    """Equity of each player: win (sole best hand), tie (split) and equity (win + pot shares)."""
    from pipeline.core.cards import CardError
    from pipeline.equity import equity as compute
    from pipeline.omaha.games import canonical

    game = canonical(game)
    try:
        if game == "holdem":
            result = compute(hands, board=board, dead=dead, trials=trials, seed=seed,
                             exact=True if exact else None, threads=threads, stderr=stderr, seconds=seconds,
                             table=matchups_table(no_table), three_way=three_way_table(no_table),
                             progress=Estimate())
        elif game in SHORT_DECKS:
            result = compute(hands, board=board, dead=dead, trials=trials, seed=seed,
                             exact=True if exact else None, threads=threads, stderr=stderr, seconds=seconds,
                             progress=Estimate(), deck=deck_named(game))
        else:
            from pipeline.omaha.equity import omaha_equity
            from pipeline.omaha.games import ALIASES, GAMES, suggestion

            if game not in GAMES:
                hint = suggestion(game, ["holdem", *SHORT_DECKS, *GAMES, *ALIASES])
                raise fail(f"unknown game {game!r}{hint}; choose holdem, {', '.join(SHORT_DECKS)} or one of "
                           f"{', '.join(GAMES)} (plo, plo5, plo6 and plo8 name them too)")

            result = omaha_equity(hands, game=game, board=board, dead=dead, trials=trials, seed=seed,
                                  exact=True if exact else None, threads=threads, stderr=stderr,
                                  seconds=seconds, progress=Estimate())
    except CardError as e:
        raise fail(str(e)) from None
    known = result.exact or all(_known(result, p) for p in result.players)
    if as_json:
        doc = result.to_json()
        if not known:          # the sample gives no standard error: null, not the 0 of a spread it lacks
            doc["stderr"] = None
            for p, d in zip(result.players, doc["players"]):
                d["stderr"] = d["stderr"] if _known(result, p) else None
        print_json(doc, seed)
        return
    alike = [str(i) for i, p in enumerate(result.players, 1) if not _known(result, p)]
    unknown = ("n/a (1 trial)" if result.boards < 2 else
               f"n/a (no spread for player{'s' if len(alike) > 1 else ''} {', '.join(alike)})")
    source = "matchups" if len(result.players) == 2 else "preflop-3way"
    how = (f"exact, {_deals(result, game)}" + (f", from the {source} table" if result.source == "table" else "")
           if result.exact
           else f"Monte Carlo, {result.boards:,} trial{'s' if result.boards != 1 else ''}, seed {seed}, "
           f"stderr {_pct(result.stderr) if known else unknown}"
           + {"stderr": ", target reached", "time": ", time budget spent"}.get(result.stopped or "", ""))
    print(("" if game == "holdem" else f"game: {game}   ") + f"board: {result.board or '-'}   "
          f"dead: {result.dead or '-'}   ({how})")
    hilo = getattr(result.players[0], "scoops", None) is not None
    high = "high " if hilo else ""
    rows = [("", "range", "equity", f"{high}win", f"{high}tie", "wins", "ties", "losses", "± stderr")
            + (("scoop", "high only", "low only", "quartered") if hilo else ())]
    for i, p in enumerate(result.players, 1):
        rows.append((str(i), p.range, _pct(p.equity), _pct(p.win), _pct(p.tie), _count(p.wins),
                     _count(p.ties), _count(p.losses),
                     "" if result.exact else _pct(p.stderr) if _known(result, p) else "n/a")
                    + (tuple(_pct(getattr(p, k) / result.boards) for k in ("scoops", "high_only", "low_only",
                                                                               "quartered")) if hilo else ()))
    keep = [k for k in range(len(rows[0])) if any(r[k] for r in rows[1:]) or k < 5]
    widths = [max(len(r[k]) for r in rows) for k in keep]
    for r in rows:
        print("  ".join((r[k].ljust(w) if k in (0, 1) else r[k].rjust(w)) for k, w in zip(keep, widths)).rstrip())


def _deals(result: object, game: str) -> str:
    """What an exact run counted: ``1,712,304 boards`` for specific hands; for ranges, every assignment of
    hands times the boards each leaves (``61,642,944 deals: 36 hand assignments x 1,712,304 boards`` for
    ``AA KK``), never the product called boards."""
    from math import comb

    deck, hole = (36, 2) if game.startswith("shortdeck") else (52, 2)
    if game.startswith("omaha"):
        from pipeline.omaha.games import game as omaha_game

        hole = omaha_game(game).hole_cards
    total = int(getattr(result, "boards", 0))
    shown = len(str(getattr(result, "board", "") or "").replace(" ", "")) // 2
    dead = len(str(getattr(result, "dead", "") or "").replace(" ", "")) // 2
    players = len(getattr(result, "players", ()))
    each = comb(deck - hole * players - shown - dead, 5 - shown)
    if each <= 0 or total % each or total == each:
        return f"{total:,} boards"
    return f"{total:,} deals: {total // each:,} hand assignments × {each:,} boards"
