"""Chips, drawn supersampled once and cached: a team's colour with its glyph; a locked chip
shows its rough, striped side in a white rim."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.common import SUPERSAMPLE, font, paste, supersampled
from render.frozen import Frozen
from render.sequence_numbers.colours import DARK, WHITE, team_colour
from render.sequence_numbers.layout import CHIP_RADIUS


@lru_cache(maxsize=64)
def chip(team: int, locked: bool, glyph: str, radius: int = CHIP_RADIUS) -> Frozen:
    """A chip sprite (RGBA) with its glyph."""
    side = 2 * radius + 8
    c = side / 2
    colour = team_colour(team)

    def disc(draw: ImageDraw.ImageDraw, s: int) -> None:
        box = ((c - radius) * s, (c - radius) * s, (c + radius) * s, (c + radius) * s)
        draw.ellipse(box, fill=colour, outline=DARK, width=2 * s)

    sprite = supersampled((side, side), disc)
    if locked:
        shade = tuple(v * 11 // 20 for v in colour)
        sprite.paste((*shade, 255), (0, 0), _stripes(side, radius))

    def face(draw: ImageDraw.ImageDraw, s: int) -> None:
        if locked:
            box = ((c - radius) * s, (c - radius) * s, (c + radius) * s, (c + radius) * s)
            draw.ellipse(box, outline=WHITE, width=4 * s)
        size = radius + 1 if radius > 14 else radius + 3
        draw.text(
            (c * s, c * s),
            glyph,
            font=font(size * s, shrink=s),
            fill=(255, 255, 255),
            anchor="mm",
            stroke_width=3 * s,
            stroke_fill=DARK,
        )

    return Frozen.of(Image.alpha_composite(sprite, supersampled((side, side), face)))


def _stripes(side: int, radius: int) -> Image.Image:
    """The mask of a locked chip's stripes: diagonal bars inside the rim, smoothed."""
    s, c = SUPERSAMPLE, side * SUPERSAMPLE / 2
    inner = Image.new("L", (side * s, side * s), 0)
    r = (radius - 3) * s
    ImageDraw.Draw(inner).ellipse((c - r, c - r, c + r, c + r), fill=255)
    stripes = Image.new("L", inner.size, 0)
    draw = ImageDraw.Draw(stripes)
    for offset in range(-side, side, 7):
        draw.line((offset * s, side * s, (offset + side) * s, 0), fill=255, width=3 * s)
    return ImageChops.multiply(inner, stripes).resize((side, side), Image.Resampling.LANCZOS)


def paste_chip(image: Image.Image, centre: tuple[int, int], sprite: Frozen) -> None:
    """Paste a chip centred on `centre`."""
    half = sprite.width // 2
    paste(image, sprite.image(), (centre[0] - half, centre[1] - half))
