"""The ``pokerpipe`` command line: one Typer app, one module per command.

Every command reports bad input as one line on stderr and exits with code 2.
"""
from __future__ import annotations

import json
import os
import sys
from typing import Any

import typer

app = typer.Typer(
    name="pokerpipe",
    help="Exact poker tables: hand evaluation, equity enumeration, batch jobs to Parquet.",
    add_completion=True,                 # --install-completion / --show-completion for bash, zsh, fish
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},     # every command's too: Click passes it down
)


def one_line(message: object) -> str:
    """``message`` with line breaks and other unprintable characters escaped, so it prints as one line."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in str(message))


def print_json(doc: Any, seed: int | None = None) -> None:
    """Print a command's ``--json`` answer as one line, with the pokerpipe version that computed it (and the
    seed of a seeded result) at its head, so that a stored answer says what made it.  A list (several
    games' documents) gets them in each of its objects."""
    from pipeline.core.version import __version__

    head: dict[str, Any] = {"pokerpipe": __version__, **({} if seed is None else {"seed": seed})}
    if isinstance(doc, list):
        print(json.dumps([{**head, **d} for d in doc]))
    else:
        print(json.dumps({**head, **doc}))


def fail(message: str) -> typer.Exit:
    """Print ``pokerpipe: error: message`` on stderr; return the exit to raise (code 2)."""
    print(f"pokerpipe: error: {one_line(message)}", file=sys.stderr)
    return typer.Exit(2)


def _version(asked: bool) -> None:
    if asked:
        from pipeline.core.version import __version__

        print(f"pokerpipe {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(version: bool = typer.Option(False, "--version", "-V", callback=_version, is_eager=True,
                                       help="print pokerpipe's version and exit")) -> None:
    """Exact poker tables: hand evaluation, equity enumeration, batch jobs to Parquet."""
    if os.environ.get("POKERPIPE_SIMD", "").strip():     # pipeline.core.cpu.ENV, read before importing it
        from pipeline.core.cpu import simd_path

        simd_path()     # one that names no path this CPU runs is refused before any command starts
