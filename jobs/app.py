"""The ``pokerpipe`` command line: one Typer app, one module per command.

Every command reports bad input as one line on stderr and exits with code 2.
"""
from __future__ import annotations

import sys

import typer

app = typer.Typer(
    name="pokerpipe",
    help="Exact poker tables: hand evaluation, equity enumeration, batch jobs to Parquet.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def one_line(message: object) -> str:
    """``message`` with line breaks and other unprintable characters escaped, so it prints as one line."""
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in str(message))


def fail(message: str) -> typer.Exit:
    """Print ``pokerpipe: error: message`` on stderr; return the exit to raise (code 2)."""
    print(f"pokerpipe: error: {one_line(message)}", file=sys.stderr)
    return typer.Exit(2)


@app.callback()
def _root() -> None:
    """Exact poker tables: hand evaluation, equity enumeration, batch jobs to Parquet."""
