"""Where ``pokerpipe equity`` takes preflop counts from: heads-up the packaged matchups
table or a built ``matchups`` dataset named by ``$POKERPIPE_MATCHUPS``; three-way a built
``preflop-3way`` dataset named by ``$POKERPIPE_PREFLOP3``; or none (``--no-table``)."""
from __future__ import annotations

import os
from typing import Any, Union

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


def three_way_table(no_table: bool) -> Any:
    """``three_way=`` for the library: the ``preflop-3way`` dataset under ``$POKERPIPE_PREFLOP3``
    (its parts verified as they are read), or None."""
    out = os.environ.get("POKERPIPE_PREFLOP3")
    if no_table or not out:
        return None
    from pipeline.datasets import DatasetError, is_built, read
    from pipeline.datasets.recipes.threeway import three_way_table as from_dataset

    try:
        if not is_built("preflop-3way", out):
            raise fail(f"POKERPIPE_PREFLOP3={out!r} holds no finished preflop-3way dataset built without a limit "
                       "(build it with 'pokerpipe tables preflop-3way --out' there, or unset the variable)")
        return from_dataset(read("preflop-3way", out, columns=["class1", "class2", "class3", "combos", "shares1",
                                                               "shares2", "shares3"]))
    except (DatasetError, OSError, ValueError) as e:
        raise fail(f"POKERPIPE_PREFLOP3={out!r}: {e}") from None
