"""``pokerpipe videopoker``: exact return, variance and distribution of a video-poker game."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from .app import app, fail
from .options import FORCE, QUIET, SCHEDULER, WORKERS

if TYPE_CHECKING:
    from pipeline.videopoker.analyzer import Analysis


def _table(a: Analysis) -> None:
    pt = a.paytable
    print(f"{pt.title} ({pt.name})")
    print(f"{'hand':24s} {'pays':>5s} {'combinations':>20s} {'probability':>12s} {'1 in':>12s} {'return':>9s}")
    for r in a.distribution():
        one_in = f"{r['one_in']:,.1f}" if r["one_in"] else "-"
        print(f"{r['hand']:24s} {r['pays']:5d} {r['combinations']:20,d} {r['probability']:12.8f} {one_in:>12s} "
              f"{r['return']:9.6f}")
    print(f"{'total':24s} {'':5s} {a.total:20,d}")
    print(f"return {a.ret:.8f}   variance {a.variance:.6f}   std {a.std:.6f}   hit frequency {a.hit_frequency:.6f}")


@app.command()
def videopoker(
    game: str | None = typer.Argument(None, help="a built-in game (see --list)"),
    paytable: Path | None = typer.Option(None, "--paytable", help="a pay-table TOML file instead of GAME"),
    as_json: bool = typer.Option(False, "--json", help="print one JSON object (a list with --all)"),
    royal: int | None = typer.Option(None, "--royal", help="override the royal flush pay (per coin, 0..1000000)"),
    break_even: bool = typer.Option(False, "--break-even", help="find the royal pay that returns 100%"),
    list_games: bool = typer.Option(False, "--list", help="list the built-in games"),
    all_games: bool = typer.Option(False, "--all", help="analyze every built-in game"),
    out: str | None = typer.Option(None, "--out", "-o",
                                   help="also write the strategy dataset to <out>/videopoker/<game>/"),
    workers: int | None = WORKERS, scheduler: str | None = SCHEDULER, quiet: bool = QUIET, force: bool = FORCE,
) -> None:
    """Exact return, variance and distribution for any pay table, over all deal classes."""
    from pipeline.videopoker import PayTableError, analyze, break_even_royal, builtin, builtin_names, load
    from pipeline.videopoker.paytable import MAX_PAY

    if list_games:
        for name in builtin_names():
            print(f"{name:28s} {builtin(name).title}")
        return
    chosen = [x for x in (game, paytable, all_games or None) if x]
    if len(chosen) != 1:
        raise fail("give one of GAME, --paytable FILE or --all (see --list)")
    if royal is not None and not 0 <= royal <= MAX_PAY:
        raise fail(f"--royal must be 0 to {MAX_PAY:,} per coin (pays are at most {MAX_PAY:,} coins per coin, "
                   f"for exact int64 arithmetic), got {royal:,}")
    try:
        tables = [builtin(n) for n in builtin_names()] if all_games else [load(paytable) if paytable else builtin(game)]
        if royal is not None:
            tables = [t.with_royal(royal) for t in tables]
    except PayTableError as e:
        raise fail(str(e))
    results = []
    for pt in tables:
        try:
            a = analyze(pt)
            doc = a.to_json()
            if break_even:
                doc["break_even_royal"] = break_even_royal(pt)
        except PayTableError as e:
            raise fail(str(e))
        results.append(doc)
        if not as_json:
            _table(a)
            if break_even:
                print(f"break-even royal: {doc['break_even_royal']:.2f} per coin "
                      f"({5 * doc['break_even_royal']:.0f} for 5 coins)")
            print()
        if out is not None:
            from pipeline.datasets import Strategy

            from .options import run
            run([Strategy(pt)], out, workers, scheduler, quiet, force)
    if as_json:
        print(json.dumps(results if all_games else results[0]))
