"""Options the commands share, checked by pipeline.datasets: the datasets a ``tables`` run names, and the hand
weights ``--weights``/``--tables`` choose (play, evaluate, evolve, exploit); one line each, as the command line
prints it."""
from __future__ import annotations

import pytest

from pipeline.datasets import DatasetError, names
from pipeline.datasets.recipes.holdem_weights import weight_tables
from pipeline.datasets.registry import chosen


def test_names_and_groups_are_expanded_in_order_once() -> None:
    assert chosen(["matchups", "ehs-table", "ehs-table/turn"]) == ["matchups", "ehs-table/flop", "ehs-table/turn",
                                                                   "ehs-table/river"]
    assert chosen(names()) == names()
    with pytest.raises(DatasetError, match=r"^unknown dataset 'matchup' \(did you mean matchups\?\) "
                                           r"\(see `pokerpipe datasets`\)$"):
        chosen(["matchups", "matchup"])


def test_weight_modes_and_tables(tmp_path) -> None:
    assert weight_tables("sampled", str(tmp_path / "nowhere")) == (None, None)
    assert weight_tables("auto", str(tmp_path)) == (None, None)          # none built: sample, nothing to say
    with pytest.raises(DatasetError, match=r"^--weights must be auto, tables or sampled, got 'exact'$"):
        weight_tables("exact", str(tmp_path))
    where = str(tmp_path)
    with pytest.raises(DatasetError) as e:
        weight_tables("tables", where)
    assert str(e.value) == (f"--weights tables: no hand-weight tables at {where} (build them with "
                            f"`pokerpipe holdem-weights --out {where}`)")
