"""Counts as users write them: ``100000``, ``1_000_000`` or ``1e6``, on every option that takes one.

An option such as ``--hands``, ``--trials`` or ``--limit`` is a number of things to do, and people write
large ones in scientific notation (``--hands 1e8``); Click's ``int`` refuses that, so every count option of
the command line takes :data:`COUNT` instead (``typer.Option(..., parser=COUNT)``).  The value must be
an integral, finite number — ``2.5``, ``1e400``, ``nan`` and ``true`` are one line, exit 2 — and its range
is the command's to check, as for any integer.
"""
from __future__ import annotations

import math
from typing import Any, Optional


def parse_count(text: str) -> Optional[int]:
    """The count ``text`` spells (``1000``, ``1_000``, ``1e3``, ``-5``), or None if it spells none.

    >>> parse_count("1e8"), parse_count("1_000"), parse_count(" 42 ")
    (100000000, 1000, 42)
    >>> parse_count("2.5"), parse_count("1e400"), parse_count("abc")
    (None, None, None)
    """
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    try:
        number = float(text)
    except ValueError:
        return None
    if not math.isfinite(number) or number != int(number):
        return None
    return int(number)


def count(value: Any) -> int:
    """Typer's parser for a count option (``typer.Option(..., parser=COUNT)``): a ValueError, which the
    command line reports as one line naming the option, for anything but a whole number."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    n = parse_count(str(value))
    if n is None:
        raise ValueError(f"{value!r} is not a whole number (write 1000, 1_000 or 1e3)")
    return n


COUNT = count


def count_option(text: str, what: str, lo: Optional[int] = 1, hi: Optional[int] = None) -> int:
    """The count ``text`` (:func:`parse_count`) of the option ``what``, within ``lo .. hi``: anything else is
    the :class:`~pipeline.core.errors.InputError` of :func:`pipeline.core.inputs.integer`, said as what it
    is (``--hands must be an integer, got 2.5``), which the command line prints as one line, exit 2.  With
    ``lo`` and ``hi`` None, only that it is a whole number: the range is then a library object's to check."""
    from pipeline.core.inputs import integer

    value: int | float | str | None = parse_count(text)
    if value is None:                    # said as what it is: "2.5" a number, "abc" a text
        try:
            value = float(text)
        except ValueError:
            value = text.strip()
    return integer(value, what, lo, hi)
