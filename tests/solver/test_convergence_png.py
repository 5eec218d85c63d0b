"""The convergence curve a solve draws: a PNG beside the strategy, its path printed, its points the recorded ones.

The positions are checked here from the logarithms themselves (a marker at
``x0 + (x1 - x0) * (log10 v - lo) / (hi - lo)`` of its panel), and Leduc's
exploitability after 1 and 10 iterations against OpenSpiel's figures
(docs/solver.md), not against the code that drew them.
"""
import hashlib
import io
import json
import math

import pytest
from PIL import Image

from jobs.main import main
from pipeline.plots.convergence import CHUNK, COLOUR, convergence_png

OPENSPIEL = {1: 2.373611111111111, 10: 0.6104389015904066}    # CFRPlusSolver's exploitability, chips a game


def _read(data: bytes) -> tuple[Image.Image, dict]:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB"), json.loads(img.info[CHUNK])


def _at(panel: dict, x: float, y: float) -> tuple[int, int]:
    """Where a point of a log-log panel is drawn, from its box and decades."""
    x0, top, x1, bottom = panel["box"]
    (xlo, xhi), (ylo, yhi) = panel["x_decades"], panel["y_decades"]
    return (round(x0 + (x1 - x0) * (math.log10(x) - xlo) / (xhi - xlo)),
            round(bottom - (bottom - top) * (math.log10(y) - ylo) / (yhi - ylo)))


def test_a_leduc_solve_draws_its_recorded_curve(tmp_path, capsys):
    out = tmp_path / "s"
    assert main(["solve", "leduc", "--iterations", "10", "-p", "checkpoint_seconds=0", "--out", str(out),
                 "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"picture: {out}/_convergence.png"
    data = (out / "_convergence.png").read_bytes()
    img, drawn = _read(data)
    manifest = json.loads((out / "_manifest.json").read_text())
    curve = manifest["curve"]
    assert [c["iteration"] for c in curve] == list(range(1, 11))        # a checkpoint after every iteration
    for n, chips in OPENSPIEL.items():
        assert curve[n - 1]["exploitability"] == pytest.approx(chips, abs=1e-9)
    # Leduc's big blind is its ante, 1 chip: mbb/g is 1,000 x chips a game
    assert drawn["big_blind"] == 1.0
    shown = [c for c in curve if c["seconds"] > 0]
    assert [(p["iteration"], p["mbb"]) for p in drawn["points"]] == [(c["iteration"], 1000 * c["exploitability"])
                                                                     for c in curve]
    iterations, hours = drawn["panels"]
    assert iterations["x_decades"] == [0, 1]                         # 1 to 10 iterations: one decade
    for c in curve:
        assert img.getpixel(_at(iterations, c["iteration"], 1000 * c["exploitability"])) == COLOUR
    for c in shown:
        assert img.getpixel(_at(hours, c["seconds"] / 3600, 1000 * c["exploitability"])) == COLOUR
    (entry,) = [f for f in manifest["files"] if f["file"] == "_convergence.png"]
    assert entry == {"file": "_convergence.png", "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def test_points_on_decades_and_a_curve_without_exploitability():
    curve = [{"iteration": 1, "seconds": 0.0, "exploitability": 1.0},
             {"iteration": 10, "seconds": 36.0, "exploitability": 0.1},
             {"iteration": 100, "seconds": 360.0, "exploitability": 0.01},
             {"iteration": 200, "seconds": 720.0, "exploitability": None}]
    img, drawn = _read(convergence_png(curve, 2.0, "test"))
    iterations, hours = drawn["panels"]
    assert iterations["x_decades"] == [0, 2] and iterations["y_decades"] == [0, 3]     # 5 to 500 mbb/g
    assert hours["x_decades"] == [-2, -1]                            # 0.01 and 0.1 hours; 0 s cannot be drawn
    x0, top, x1, bottom = iterations["box"]
    ys = [bottom - (bottom - top) * math.log10(mbb) / 3 for mbb in (500, 50, 5)]
    for x, y in zip((x0, (x0 + x1) / 2, x1), ys):                   # one decade apart: evenly spaced
        assert img.getpixel((round(x), round(y))) == COLOUR
    assert len(drawn["points"]) == 3
    img, drawn = _read(convergence_png([{"iteration": 5, "seconds": 9.0, "exploitability": None}], 2.0, "hold'em"))
    assert drawn["points"] == [] and drawn["panels"] == [None, None]
