"""Text set from cached glyphs, words and lines, in full colour.

The font places characters at whole-pixel advances without kerning, so words set from
glyph masks match the font's own rendering, at a fraction of its cost.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import RGB, advance, font
from render.frozen import Frozen

GLYPH_PAD = 3


def text_width(text: str, size: int) -> int:
    """The width of `text` as `line` sets it."""
    parts = text.split(" ")
    return round(sum(advance(part, size) for part in parts) + advance(" ", size) * (len(parts) - 1))


@lru_cache(maxsize=1024)
def glyph(char: str, size: int) -> Frozen:
    """A character's coverage mask, its pen position at (GLYPH_PAD, ascent)."""
    face = font(size)
    ascent, descent = face.getmetrics()
    mask = Image.new("L", (round(advance(char, size)) + 2 * GLYPH_PAD, ascent + descent), 0)
    ImageDraw.Draw(mask).text((GLYPH_PAD, ascent), char, font=face, fill=255, anchor="ls")
    return Frozen.of(mask)


@lru_cache(maxsize=4096)
def word(text: str, size: int, ink: RGB, ground: RGB) -> Frozen:
    """A word in `ink` on `ground`, its baseline at the font's ascent."""
    ascent, descent = font(size).getmetrics()
    tile = Image.new("RGB", (max(1, round(advance(text, size)) + 2), ascent + descent), ground)
    cursor = 0.0
    for char in text:
        tile.paste(ink, (round(cursor) - GLYPH_PAD, 0), glyph(char, size).image())
        cursor += advance(char, size)
    return Frozen.of(tile)


@lru_cache(maxsize=2048)
def line(text: str, size: int, ink: RGB, ground: RGB) -> Frozen:
    """A line of text, pieced together from cached words."""
    ascent, descent = font(size).getmetrics()
    tile = Image.new("RGB", (max(1, text_width(text, size) + 2), ascent + descent), ground)
    cursor = 0.0
    for part in text.split(" "):
        if part:
            tile.paste(word(part, size, ink, ground).image(), (round(cursor), 0))
        cursor += advance(part, size) + advance(" ", size)
    return Frozen.of(tile)
