"""Where ``pokerpipe equity`` takes preflop heads-up counts from: the packaged matchups
table, a built ``matchups`` dataset named by ``$POKERPIPE_MATCHUPS``, or none (``--no-table``)."""
from __future__ import annotations

import os
from typing import Union

from jobs.app import fail


def matchups_table(no_table: bool) -> Union[bool, tuple]:
    """``table=`` for the library: off, the packaged copy, or a built ``matchups`` dataset
    under ``$POKERPIPE_MATCHUPS`` (its parts verified as they are read)."""
    out = os.environ.get("POKERPIPE_MATCHUPS")
    if no_table or not out:
        return not no_table
    from pipeline.datasets import DatasetError, is_built, matchup_arrays, read

    try:
        if not is_built("matchups", out):
            raise fail(f"POKERPIPE_MATCHUPS={out!r} holds no finished matchups dataset (build it with "
                       "'pokerpipe matchups --out' there, or unset the variable to use the packaged table)")
        return matchup_arrays(read("matchups", out, columns=["wins", "ties", "losses"]))
    except (DatasetError, OSError, ValueError) as e:
        raise fail(f"POKERPIPE_MATCHUPS={out!r}: {e}") from None
