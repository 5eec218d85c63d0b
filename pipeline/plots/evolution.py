"""The evolution report's pictures, drawn with Pillow: line charts over generations and a threshold heat map."""
from __future__ import annotations

import io
import math
from typing import Any, Optional, Sequence

import numpy as np

COLOURS = ((200, 40, 40), (40, 90, 200), (30, 150, 60), (150, 90, 30))


def _font(size: int = 13) -> Any:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=size)
    except TypeError:                          # Pillow < 10.1: fixed bitmap font
        return ImageFont.load_default()


def line_chart(x: Sequence[float], series: dict[str, Sequence[float]], title: str, y_label: str,
               band: Optional[tuple[Sequence[float], Sequence[float]]] = None) -> bytes:
    """A PNG of one line per series over ``x``; ``band`` (low, high) shades an interval around the first."""
    from PIL import Image, ImageDraw

    w, h, left, top, right, bottom = 720, 400, 70, 40, 150, 44
    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    font = _font()
    values = [v for s in series.values() for v in s if math.isfinite(v)]
    if band is not None:
        values += [v for v in (*band[0], *band[1]) if math.isfinite(v)]
    lo, hi = (min(values), max(values)) if values else (0.0, 1.0)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    pad = 0.05 * (hi - lo)
    lo, hi = lo - pad, hi + pad
    x0, x1, y0, y1 = left, w - right, h - bottom, top
    xs = list(x) or [0.0]
    span = max(xs[-1] - xs[0], 1)

    def px(v: float) -> float:
        return x0 + (x1 - x0) * (v - xs[0]) / span

    def py(v: float) -> float:
        return y0 - (y0 - y1) * (v - lo) / (hi - lo)

    draw.text((left, 12), title, fill="black", font=font)
    for t in np.linspace(lo, hi, 6):
        draw.line([(x0, py(t)), (x1, py(t))], fill=(228, 228, 228))
        draw.text((6, py(t) - 7), f"{t:.3g}", fill="black", font=font)
    if lo < 0 < hi:
        draw.line([(x0, py(0)), (x1, py(0))], fill=(120, 120, 120))
    for t in np.unique(np.linspace(xs[0], xs[-1], min(len(xs), 6)).round()):
        draw.text((px(t) - 6, y0 + 8), f"{t:.0f}", fill="black", font=font)
    draw.text(((x0 + x1) / 2 - 30, h - 20), "generation", fill="black", font=font)
    draw.text((x1 + 10, y1 - 18), y_label, fill="black", font=font)
    if band is not None and len(xs) > 1:
        poly = [(px(a), py(b)) for a, b in zip(xs, band[1])] + [(px(a), py(b)) for a, b in
                                                                 reversed(list(zip(xs, band[0])))]
        draw.polygon(poly, fill=(250, 215, 215))
    draw.rectangle([x0, y1, x1, y0], outline="black")
    for i, (name, ys) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        pts = [(px(a), py(b)) for a, b in zip(xs, ys) if math.isfinite(b)]
        if len(pts) > 1:
            draw.line(pts, fill=colour, width=2)
        for p in pts if len(pts) <= 60 else []:
            draw.ellipse([p[0] - 2, p[1] - 2, p[0] + 2, p[1] + 2], fill=colour)
        draw.line([(x1 + 10, y1 + 8 + 20 * i), (x1 + 30, y1 + 8 + 20 * i)], fill=colour, width=3)
        draw.text((x1 + 36, y1 + 20 * i), name, fill="black", font=font)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def _diverging(v: float) -> tuple[int, int, int]:
    """-100 blue .. 0 white .. +100 red."""
    t = max(-1.0, min(1.0, v / 100.0))
    if t < 0:
        return (int(255 * (1 + t)), int(255 * (1 + t)), 255)
    return (255, int(255 * (1 - t)), int(255 * (1 - t)))


def threshold_map(panels: dict[str, np.ndarray], rows: Sequence[str], cols: Sequence[str], title: str) -> bytes:
    """Heat maps side by side, one per panel (``rows`` × ``cols`` of thresholds; NaN = no gene used)."""
    from PIL import Image, ImageDraw

    cw, ch, left, top = 62, 26, 120, 56
    pw = cw * len(cols) + 30
    w, h = left + pw * len(panels) + 10, top + ch * len(rows) + 40
    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    font = _font(12)
    draw.text((10, 10), title, fill="black", font=font)
    for r, name in enumerate(rows):
        draw.text((8, top + ch * r + 7), name, fill="black", font=font)
    for p, (pname, grid) in enumerate(panels.items()):
        ox = left + pw * p
        draw.text((ox, top - 36), pname, fill="black", font=font)
        for c, cname in enumerate(cols):
            draw.text((ox + cw * c + 6, top - 18), cname, fill="black", font=font)
            for r in range(len(rows)):
                v = float(grid[r, c])
                box = [ox + cw * c, top + ch * r, ox + cw * (c + 1) - 2, top + ch * (r + 1) - 2]
                if math.isfinite(v):
                    draw.rectangle(box, fill=_diverging(v))
                    draw.text((box[0] + 12, box[1] + 6), f"{v:+.0f}", fill="black", font=font)
                else:
                    draw.rectangle(box, outline=(200, 200, 200))
    draw.text((10, h - 22), "mean threshold over the genes the player used (d = weight - pot odds, x100); "
              "blank: none used", fill="black", font=font)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()
