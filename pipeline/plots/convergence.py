"""A solve's convergence curve: exploitability in mbb/g at each checkpoint, log-log, against iterations and hours.

CFR+ (Tammelin 2014) is judged by how fast the exploitability of its average
strategy falls: in a log-log picture a rate ``t^-a`` is a straight line of
slope ``-a``, against iterations (the algorithm) and against hours (the
machine), as Bowling, Burch, Johanson and Tammelin plot the solving of
heads-up limit hold'em (*Science* 2015).  :func:`convergence_png` draws the
two panels side by side from the ``curve`` a solve records at each checkpoint
(:mod:`pipeline.datasets.solve`); mbb/g is milli-big-blinds a game, 1,000 times
the chips a game over the big blind (Leduc's ante of 1 chip stands for it).

The PNG carries what it plots in a text chunk (``pokerpipe:curve``, JSON): the
points, and each panel's pixel box and decades, so that a reader (the tests)
can find each point's marker without reading pixels by eye.  A point with
no exploitability (hold'em's curve records ``null``: docs/solver.md) or with a
value that a log scale cannot show (0) is left out and counted in the panel.
"""
from __future__ import annotations

import io
import json
import math
from typing import Any, Optional

from .evolution import _font

WIDTH, HEIGHT = 1000, 420
COLOUR = (200, 40, 40)
PANEL_W, LEFT, TOP, RIGHT, BOTTOM = WIDTH // 2, 78, 56, 22, 50
CHUNK = "pokerpipe:curve"


def _decades(values: list[float]) -> tuple[int, int]:
    """The powers of ten around ``values`` (at least one decade apart)."""
    lo = math.floor(math.log10(min(values)))
    hi = math.ceil(math.log10(max(values)))
    return (lo, hi) if hi > lo else (lo, lo + 1)


def _tick(power: int) -> str:
    """A power of ten as an axis reads it: 0.01, 1, 1,000, 1e+06."""
    return f"{10.0 ** power:,.{max(0, -power)}f}" if -4 <= power <= 5 else f"1e{power:+d}"


def convergence_points(curve: list[dict[str, Any]], big_blind: float) -> list[dict[str, float]]:
    """The checkpoints that can be drawn: ``iteration``, ``hours`` and ``mbb`` (1,000 x chips / ``big_blind``),
    in the curve's order, those with a positive exploitability."""
    out = []
    for c in curve:
        e = c.get("exploitability")
        if e is None or not e > 0 or not math.isfinite(e):
            continue
        out.append({"iteration": float(c["iteration"]), "hours": float(c["seconds"]) / 3600.0,
                    "mbb": 1000.0 * float(e) / big_blind})
    return out


def convergence_png(curve: list[dict[str, Any]], big_blind: float, title: str) -> bytes:
    """The PNG of ``curve`` (a solve's checkpoints: ``iteration``, ``seconds``, ``exploitability`` in chips a
    game): exploitability in mbb/g against iterations (left) and hours (right), both axes logarithmic."""
    from PIL import Image, ImageDraw
    from PIL.PngImagePlugin import PngInfo

    img = Image.new("RGB", (WIDTH, HEIGHT), "white")
    draw = ImageDraw.Draw(img)
    font = _font()
    draw.text((LEFT, 10), title, fill="black", font=font)
    points = convergence_points(curve, big_blind)
    panels = []
    for i, (key, label) in enumerate((("iteration", "iterations"), ("hours", "hours"))):
        shown = [p for p in points if p[key] > 0]
        box = (PANEL_W * i + LEFT, TOP, PANEL_W * (i + 1) - RIGHT, HEIGHT - BOTTOM)
        panels.append(_panel(draw, font, box, [p[key] for p in shown], [p["mbb"] for p in shown], label,
                             len(curve) - len(shown)))
    info = PngInfo()
    info.add_text(CHUNK, json.dumps({"big_blind": big_blind, "points": points, "panels": panels}))
    out = io.BytesIO()
    img.save(out, format="PNG", pnginfo=info)
    return out.getvalue()


def _panel(draw: Any, font: Any, box: tuple[int, int, int, int], xs: list[float], ys: list[float], label: str,
           left_out: int) -> Optional[dict[str, Any]]:
    """One log-log panel in ``box`` (x0, top, x1, bottom): grid at the decades, the line and its markers; what
    it drew (the box and the decades of each axis), or None when no point can be drawn."""
    x0, top, x1, bottom = box
    draw.rectangle([x0, top, x1, bottom], outline="black")
    draw.text(((x0 + x1) / 2 - 24, bottom + 26), label, fill="black", font=font)
    draw.text((x0 - LEFT + 4, top - 20), "mbb/g", fill="black", font=font)
    if left_out:
        draw.text((x0 + 8, bottom - 20), f"{left_out} checkpoint(s) not shown (no exploitability, or a 0)",
                  fill=(120, 120, 120), font=font)
    if not xs:
        draw.text((x0 + 8, top + 8), "exploitability not measured", fill="black", font=font)
        return None
    (xlo, xhi), (ylo, yhi) = _decades(xs), _decades(ys)

    def px(v: float) -> float:
        return x0 + (x1 - x0) * (math.log10(v) - xlo) / (xhi - xlo)

    def py(v: float) -> float:
        return bottom - (bottom - top) * (math.log10(v) - ylo) / (yhi - ylo)

    for k in range(xlo, xhi + 1):
        for m in range(1, 10 if k < xhi else 2):
            v = m * 10.0 ** k
            draw.line([(px(v), top), (px(v), bottom)], fill=(225, 225, 225) if m == 1 else (243, 243, 243))
        draw.text((px(10.0 ** k) - 12, bottom + 6), _tick(k), fill="black", font=font)
    for k in range(ylo, yhi + 1):
        for m in range(1, 10 if k < yhi else 2):
            v = m * 10.0 ** k
            draw.line([(x0, py(v)), (x1, py(v))], fill=(225, 225, 225) if m == 1 else (243, 243, 243))
        draw.text((x0 - LEFT + 4, py(10.0 ** k) - 7), _tick(k), fill="black", font=font)
    draw.rectangle([x0, top, x1, bottom], outline="black")
    pts = [(px(a), py(b)) for a, b in zip(xs, ys)]
    if len(pts) > 1:
        draw.line(pts, fill=COLOUR, width=2)
    for a, b in pts:
        draw.ellipse([a - 3, b - 3, a + 3, b + 3], fill=COLOUR)
    return {"box": list(box), "x_decades": [xlo, xhi], "y_decades": [ylo, yhi]}


__all__ = ["CHUNK", "COLOUR", "convergence_png", "convergence_points"]
