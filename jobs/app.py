"""The ``pokerpipe`` command line: one Typer app, one module per command.

Every command reports bad input as one line on stderr and exits with code 2.
"""
from __future__ import annotations

import json
import os
import re
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


# a number standing alone: not a run of digits in a word, a file name or a path
_LONG_NUMBER = re.compile(r"(?<![\w./\\])(-?)(\d[\d,]*)(\.\d+)?(?![\w,/\\]|\.\w)")
SHOWN_DIGITS = 24        # a number of more digits is shown by its magnitude: 10**300 would fill the line


def _magnitude(m: re.Match[str]) -> str:
    digits = m.group(2).replace(",", "")
    if len(digits) <= SHOWN_DIGITS:
        return m.group(0)
    return f"{m.group(1)}{digits[0]}.{digits[1:3]}e+{len(digits) - 1}"


def one_line(message: object) -> str:
    """``message`` with line breaks and other unprintable characters escaped, so it prints as one line, and a
    number of more than :data:`SHOWN_DIGITS` digits (an option given ``1e300`` or 5,000 nines, as the
    message that refuses it quotes it) shown by its magnitude.

    >>> one_line("--seats must be 2 to 10, got " + "1" + "0" * 300)
    '--seats must be 2 to 10, got 1.00e+300'
    >>> one_line("at most 1,000,000,000,000,000 trials, got -" + "9" * 5000 + ".0")
    'at most 1,000,000,000,000,000 trials, got -9.99e+4999'
    """
    text = "".join(c if c.isprintable() else ascii(c)[1:-1] for c in str(message))
    return _LONG_NUMBER.sub(_magnitude, text)


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
