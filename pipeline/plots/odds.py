"""The MultiOddsApp graph of Keith Rule's Hold'em library: win odds and HS^k against
the number of opponents, drawn with Pillow as a PNG (like :mod:`.heatmap`)."""
from __future__ import annotations

import io

SERIES = (("win", (200, 40, 40)), ("hs_k", (40, 90, 200)), ("ppot", (30, 150, 60)), ("npot", (150, 90, 30)))


def odds_png(rows: list[dict], title: str) -> bytes:
    """Lines of win, HS^k, PPOT and NPOT (those present) for the rows of :func:`pipeline.strength.win_odds.win_odds`."""
    from PIL import Image, ImageDraw, ImageFont

    w, h, left, top, right, bottom = 640, 420, 56, 40, 130, 44
    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    try:
        font = ImageFont.load_default(size=14)
    except TypeError:                          # Pillow < 10.1: fixed bitmap font
        font = ImageFont.load_default()
    ks = [r["opponents"] for r in rows]
    x0, x1, y0, y1 = left, w - right, h - bottom, top

    def x(k: int) -> float:
        return x0 + (x1 - x0) * ((k - ks[0]) / max(ks[-1] - ks[0], 1))

    def y(v: float) -> float:
        return y0 - (y0 - y1) * v

    draw.text((left, 12), title, fill="black", font=font)
    for pct in range(0, 101, 20):
        draw.line([(x0, y(pct / 100)), (x1, y(pct / 100))], fill=(225, 225, 225))
        draw.text((8, y(pct / 100) - 7), f"{pct}%", fill="black", font=font)
    for k in ks:
        draw.text((x(k) - 4, y0 + 8), str(k), fill="black", font=font)
    draw.text(((x0 + x1) / 2 - 30, h - 20), "opponents", fill="black", font=font)
    draw.rectangle([x0, y1, x1, y0], outline="black")
    for i, (key, colour) in enumerate(SERIES):
        pts = [(x(r["opponents"]), y(r[key])) for r in rows if r.get(key) is not None]
        if not pts:
            continue
        if len(pts) > 1:
            draw.line(pts, fill=colour, width=3)
        for px, py in pts:
            draw.ellipse([px - 3, py - 3, px + 3, py + 3], fill=colour)
        draw.line([(x1 + 12, top + 10 + 20 * i), (x1 + 36, top + 10 + 20 * i)], fill=colour, width=3)
        draw.text((x1 + 42, top + 3 + 20 * i), "HS^k" if key == "hs_k" else key, fill="black", font=font)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()
