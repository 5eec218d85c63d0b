"""``pokerpipe videopoker``: exact return, variance and distribution of a game, or one hand's 32 holds."""
from __future__ import annotations

from pathlib import Path

import typer

from jobs.app import app, fail, print_json
from jobs.options import FORCE, QUIET, SCHEDULER, WORKERS
from jobs.videopoker_print import hand_json, hand_text, print_game, print_games


@app.command()
def videopoker(
    game: str | None = typer.Argument(None, help="a built-in game (see --list)"),
    paytable: Path | None = typer.Option(None, "--paytable", help="a pay-table TOML file instead of GAME"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object (a list with --all)"),
    royal: int | None = typer.Option(None, "--royal", help="override the royal flush pay (per coin, 0..1000000)"),
    break_even: bool = typer.Option(False, "--break-even", help="find the royal pay that returns 100%"),
    list_games: bool = typer.Option(False, "--list", help="list the built-in games"),
    all_games: bool = typer.Option(False, "--all", help="analyze every built-in game"),
    hand: str | None = typer.Option(None, "--hand", help='one dealt hand, e.g. "Jc Qc Kc Ac 2h": its 32 holds'),
    out: str | None = typer.Option(None, "--out", "-o",
                                   help="also write the strategy dataset to <out>/videopoker/<game>/"),
    workers: int | None = WORKERS, scheduler: str | None = SCHEDULER, quiet: bool = QUIET, force: bool = FORCE,
) -> None:
    """Exact return, variance and distribution for any pay table, over all deal classes; with --hand,
    the exact EV and final-hand counts of each hold of one dealt hand."""
    from pipeline.batch.errors import RunnerError
    from pipeline.batch.session import check_cluster
    from pipeline.core.cards import CardError
    from pipeline.videopoker import PayTableError, analyze, break_even_royal, builtin, builtin_names, load
    from pipeline.videopoker.hand import analyze_hand

    try:
        check_cluster(workers, scheduler)         # as every command's session checks them, before any work
    except RunnerError as e:
        raise fail(str(e)) from None
    if list_games:
        others = [name for name, x in (("GAME", game), ("--paytable", paytable), ("--all", all_games),
                                       ("--hand", hand), ("--out", out), ("--royal", royal is not None),
                                       ("--break-even", break_even)) if x]
        if others:
            raise fail(f"--list lists the games and takes no {' or '.join(others)}")
        print_games({name: builtin(name).title for name in builtin_names()})
        return
    given = [name for name, x in (("GAME", game), ("--paytable", paytable), ("--all", all_games)) if x]
    if not given:
        raise fail("give one of GAME, --paytable FILE or --all (see --list)")
    if len(given) > 1:
        raise fail(f"{', '.join(given[:-1])} and {given[-1]} exclude each other: give only one of GAME, "
                   "--paytable FILE or --all")
    if hand is not None and all_games:
        raise fail("--hand takes one game, not --all")
    if hand is not None and (out is not None or break_even):
        raise fail("--hand analyses one dealt hand; " + " and ".join(
            o for o, given in (("--out", out is not None), ("--break-even", break_even)) if given)
            + " apply to a whole game (drop --hand)")
    try:
        names = builtin_names() if all_games else [game or ""]
        tables = [load(paytable)] if paytable else [builtin(n) for n in names]
        tables = [t.with_royal(royal) for t in tables] if royal is not None else tables
        holds = analyze_hand(tables[0], hand) if hand is not None else []
        results = [] if hand is not None else [(pt, analyze(pt), break_even_royal(pt) if break_even else None)
                                               for pt in tables]
    except (PayTableError, CardError) as e:
        raise fail(str(e)) from None
    if hand is not None:
        if as_json:
            print_json(hand_json(tables[0], hand, holds))
        else:
            print(hand_text(tables[0], hand, holds))
        return
    docs = [dict(a.to_json(), **({"break_even_royal": be} if be is not None else {})) for _, a, be in results]
    for pt, a, be in results:
        if not as_json:
            print_game(a, be)
        if out is not None:
            from jobs.options import run
            from pipeline.datasets import Strategy
            run([Strategy(pt)], out, workers, scheduler, quiet, force)
    if as_json:
        print_json(docs if all_games else docs[0])
