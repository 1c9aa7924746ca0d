"""Card sprites, drawn supersampled once and cached: a face or a back, and stack edges.

The X card is white with a black cross; every colour card carries its own symbol.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import ImageDraw

from render.common import TEXT, ink_for, mix, star_points, supersampled
from render.frozen import Frozen
from render.rookie.colours import CARD_BACK, CARD_EDGE, CARD_FACES, EDGES, SYMBOLS
from render.rookie.layout import CARD_H, CARD_W


def _symbol(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    ink = ink_for(CARD_FACES[kind])
    shape = SYMBOLS[kind]
    if shape == "circle":
        draw.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=ink)
    elif shape == "triangle":
        corners = [math.radians(angle) for angle in (-90, 30, 150)]
        draw.polygon([(cx + r * math.cos(a), cy + r * math.sin(a)) for a in corners], fill=ink)
    elif shape == "square":
        s = r * 0.8
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=ink)
    elif shape == "diamond":
        draw.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)], fill=ink)
    else:
        draw.polygon(star_points((cx, cy), r, r * 0.45), fill=ink)


@lru_cache(maxsize=64)
def card_sprite(kind: str | None, width: int, height: int) -> Frozen:
    """A card face (`kind`) or back (`None`) as an RGBA sprite, supersampled."""

    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        w, h = width * scale, height * scale
        radius = max(3, width // 9) * scale
        edge = max(1, width // 30) * scale
        if kind is None:
            draw.rounded_rectangle(
                (0, 0, w - 1, h - 1), radius, fill=CARD_BACK, outline=CARD_EDGE, width=2 * scale
            )
            inset = max(4, width // 8) * scale
            inner = (inset, inset, w - 1 - inset, h - 1 - inset)
            draw.rounded_rectangle(inner, radius // 2, outline=mix(CARD_BACK, TEXT, 0.2), width=edge)
            return
        draw.rounded_rectangle(
            (0, 0, w - 1, h - 1), radius, fill=CARD_FACES[kind], outline=CARD_EDGE, width=2 * scale
        )
        cx, cy, r = w / 2, h / 2, w * 0.33
        if kind == "X":
            thick = max(3, width // 7) * scale
            for dx in (-r, r):
                draw.line((cx - dx, cy - r, cx + dx, cy + r), fill=ink_for(CARD_FACES[kind]), width=thick)
        else:
            _symbol(draw, kind, cx, cy, r)

    return Frozen.of(supersampled((width, height), paint))


@lru_cache(maxsize=8)
def stack_edges(depth: int) -> Frozen:
    """Card edges peeking out under a stack, deeper for taller stacks."""

    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        for layer in range(depth, 0, -1):
            offset = layer * 2 * scale
            box = (offset, offset, offset + (CARD_W - 1) * scale, offset + (CARD_H - 1) * scale)
            draw.rounded_rectangle(box, 8 * scale, fill=EDGES, outline=CARD_EDGE, width=scale)

    return Frozen.of(supersampled((CARD_W + 8, CARD_H + 8), paint))
