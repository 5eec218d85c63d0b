"""The short-deck datasets through the batch layer (issue 44): whole builds against the calculator, the heat
map, the same bytes with two workers and after a resume, the other ranking, bad parameters."""
import io
import shutil
from pathlib import Path

import pytest
from PIL import Image
from support.layout import part, side
from support.readers import read_everywhere

from pipeline.batch.session import Session
from pipeline.core.errors import InputError
from pipeline.datasets import dataset, read
from pipeline.datasets.build import build_many
from pipeline.shortdeck import equity

pytestmark = pytest.mark.slow      # the whole module: its module fixture builds the short-deck datasets

VS = {"opponents": "1-3", "trials": 3000}
PARAMS = {"shortdeck-vs-random": VS}
NAMES = ["shortdeck-matchups", "shortdeck-preflop-grid", "shortdeck-vs-random"]


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.parquet"))}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("shortdeck")
    with Session(2, None, True) as s:
        reports = build_many(NAMES, str(out), s, params=PARAMS)
    assert [(r.name, r.rows, r.parts) for r in reports] == [("shortdeck-matchups", 10_215, 21),
                                                            ("shortdeck-preflop-grid", 6_561, 9),
                                                            ("shortdeck-vs-random", 243, 11)]
    return out


@pytest.mark.slow
def test_the_tables_agree_with_the_calculator(built):
    m = read("shortdeck-matchups", str(built))
    assert sum(m.column("weight").to_pylist()) == 176_715
    row = m.slice(4321, 1).to_pylist()[0]
    r = equity([row["hero"], row["villain"]])
    assert (row["wins"], row["ties"], row["losses"]) == (r.players[0].wins, r.players[0].ties, r.players[0].losses)
    g = {(x["hero"], x["villain"]): x for x in read("shortdeck-preflop-grid", str(built)).to_pylist()}
    cell = g[("AKs", "QQ")]
    r = equity(["AKs", "QQ"])
    assert cell["combos"] == 24 and (cell["wins"], cell["ties"]) == (r.players[0].wins, r.players[0].ties)
    assert cell["equity"] == pytest.approx(r.players[0].equity, abs=1e-15)
    vs = [x for x in read("shortdeck-vs-random", str(built), **VS).to_pylist()]
    one, two, three = ({x["hand"]: x for x in vs if x["opponents"] == k} for k in (1, 2, 3))
    assert len(one) == len(two) == len(three) == 81 and all(x["exact"] for x in [*one.values(), *two.values()])
    assert two["AKo"]["samples"] == 12 * 278_256 * 71_253 and 0.2 < two["AKo"]["equity"] < one["AKo"]["equity"]
    r = equity(["AA", "random"], exact=True)
    assert one["AA"]["equity"] == pytest.approx(r.players[0].equity, abs=1e-15)
    mc = equity(["T9s", "random", "random", "random"], trials=200_000, seed=9).players[0]
    t9 = three["T9s"]
    assert not t9["exact"] and abs(t9["equity"] - mc.equity) < 5 * (t9["stderr"] ** 2 + mc.stderr ** 2) ** 0.5


@pytest.mark.slow
def test_every_tool_reads_the_folders(built):
    """pandas, polars and DuckDB open each folder as one table, no glob (issue 40)."""
    for name in NAMES:
        assert read_everywhere(built, name, **PARAMS.get(name, {})) > 0
    assert "shortdeck-preflop-grid" in NAMES


def test_the_heat_map_is_nine_by_nine(built):
    png = side(built, "shortdeck-preflop-grid", "_heatmap.png").read_bytes()
    assert Image.open(io.BytesIO(png)).size == (9 * 56 + 1, 9 * 56 + 40 + 1)


@pytest.mark.slow
def test_a_resume_on_one_worker_gives_the_bytes_of_two(built, tmp_path):
    """Parts recomputed alone, by one worker, in a copy of the two-worker build with three parts gone (one
    under each dataset), come back byte for byte.  On the same cluster: the trips ranking's matchups."""
    other = tmp_path / "one"
    shutil.copytree(built, other)
    for name, i in (("shortdeck-matchups", 7), ("shortdeck-preflop-grid", 3), ("shortdeck-vs-random", 4)):
        part(other, name, i).unlink()                      # shortdeck-vs-random's in its opponents=K/ folder
    with Session(1, None, True) as s:
        reports = build_many(NAMES, str(other), s, params=PARAMS, write_catalog=False)
        build_many([dataset("shortdeck-matchups", ranking="trips", limit=30)], str(tmp_path / "trips"), s)
    assert [r.computed for r in reports] == [1, 1, 1]
    assert files(other) == files(built)
    rows = read("shortdeck-matchups", str(tmp_path / "trips"), ranking="trips", limit=30).to_pylist()
    assert any(r["wins"] != equity([r["hero"], r["villain"]]).players[0].wins for r in rows)
    assert all(r["wins"] == equity([r["hero"], r["villain"]], ranking="trips").players[0].wins for r in rows[:8])


@pytest.mark.parametrize("name, params, words", [
    ("shortdeck-matchups", {"ranking": "flush"}, "ranking must be one of straight, trips"),
    ("shortdeck-matchups", {"limit": 0}, "limit"),
    ("shortdeck-preflop-grid", {"ranking": 3}, "ranking"),
    ("shortdeck-vs-random", {"opponents": "0"}, "opponents"),
    ("shortdeck-vs-random", {"trials": 10**12}, "use at most"),
    ("shortdeck-vs-random", {"seed": -1}, "seed"),
])
def test_bad_parameters(name, params, words):
    with pytest.raises(InputError, match=words):
        dataset(name, **params)
