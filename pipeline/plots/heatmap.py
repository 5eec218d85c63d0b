"""A 13x13 heat map PNG of the 169 preflop hands, the picture poker players expect (9x9 for the short deck's 81).

Rows and columns run A..2 (A..6); suited hands above the diagonal, offsuit below,
pairs on it.  Each cell shows its label and value, coloured from blue (weak)
through white to red (strong).
"""
from __future__ import annotations

import io

import numpy as np


def _colour(t: float) -> tuple[int, int, int]:
    """Blue -> white -> red for t in 0..1."""
    t = min(max(t, 0.0), 1.0)
    if t < 0.5:
        u = t / 0.5
        return int(40 + 215 * u), int(90 + 165 * u), 255
    u = (t - 0.5) / 0.5
    return 255, int(255 - 195 * u), int(255 - 215 * u)


def heatmap_png(values: np.ndarray, labels: list[str], title: str = "Equity vs one random hand") -> bytes:
    """``values`` (169 or 81, in grid order) as a labelled 13x13 (9x9) PNG image."""
    from PIL import Image, ImageDraw, ImageFont

    side = round(len(values) ** 0.5)
    cell, top = 56, 40
    img = Image.new("RGB", (side * cell + 1, side * cell + top + 1), "white")
    draw = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=14)
        small = ImageFont.load_default(size=12)
    except TypeError:                         # Pillow < 10.1: fixed bitmap font
        font = small = ImageFont.load_default()
    lo, hi = float(np.min(values)), float(np.max(values))
    draw.text((8, 10), f"{title}  ({100 * lo:.1f}% .. {100 * hi:.1f}%)", fill="black", font=font)
    for k, (label, v) in enumerate(zip(labels, values, strict=True)):
        i, j = divmod(k, side)
        x, y = j * cell, top + i * cell
        draw.rectangle([x, y, x + cell, y + cell], fill=_colour((v - lo) / (hi - lo or 1)), outline="grey")
        draw.text((x + 5, y + 6), label, fill="black", font=font)
        draw.text((x + 5, y + 30), f"{100 * v:.1f}", fill="black", font=small)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
