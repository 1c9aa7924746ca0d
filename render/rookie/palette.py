"""The Rookie table's one palette, and tiles mapped onto it.

Every piece of the board is drawn in full colour once and mapped onto this fixed palette.
Mapping is a per-pixel nearest-colour lookup without dithering, so mapping each tile once
gives exactly the image `Palette.png` would make of the whole full-colour board, without
mapping the board every time.
"""

from __future__ import annotations

from functools import cache

from PIL import Image, ImageDraw

from render.common import BACKGROUND, HIGHLIGHT, MUTED, PANEL, SEAT_COLOURS, TEXT, Palette, paste, seat_tag
from render.frozen import Frozen
from render.rookie.colours import BADGE, CARD_BACK, CARD_FACES, EDGES, OUTLINE, TEAM_TAGS
from render.rookie.layout import CARD_SIZES, SMALL
from render.rookie.sprites import card_sprite, stack_edges
from render.text import line


@cache
def palette() -> Palette:
    """The renderer's one palette, learnt from a sheet of everything it draws: every
    ground, card face and back (with their edges on both grounds), stack edges, seat
    tags, team tags, outlines, and text in every ink on every ground it is written on."""
    samples: list[Image.Image] = []
    fills = [
        BACKGROUND,
        PANEL,
        BADGE,
        OUTLINE,
        EDGES,
        CARD_BACK,
        HIGHLIGHT,
        *SEAT_COLOURS,
        *CARD_FACES.values(),
    ]
    samples += [Image.new("RGB", (48, 48), fill) for fill in fills]
    sprites = [card_sprite(kind, *size) for kind in (*CARD_FACES, None) for size in CARD_SIZES]
    for ground in (PANEL, BACKGROUND):
        for sprite in [*sprites, *(stack_edges(depth) for depth in (1, 2, 3))]:
            tile = Image.new("RGB", sprite.size, ground)
            paste(tile, sprite.image(), (0, 0))
            samples.append(tile)
        frame = Image.new("RGB", (60, 40), ground)
        ImageDraw.Draw(frame).rounded_rectangle((0, 0, 59, 39), 9, outline=HIGHLIGHT, width=3)
        ImageDraw.Draw(frame).rounded_rectangle((8, 8, 50, 30), 5, outline=OUTLINE, width=2)
        samples.append(frame)
        for ink in (TEXT, MUTED, HIGHLIGHT):
            samples.append(line("Rookie: turned 0123456789 · cards", SMALL, ink, ground).image())
    tags = Image.new("RGB", (40 * len(SEAT_COLOURS), 40), PANEL)
    for seat in range(len(SEAT_COLOURS)):
        seat_tag(ImageDraw.Draw(tags), (20 + 40 * seat, 20), seat, 36)
    samples += [
        tags,
        line("0123456789 points", 28, TEXT, PANEL).image(),
        line("123456789", SMALL, TEXT, BADGE).image(),
    ]
    samples += [line("Team 123", SMALL, ink, fill).image() for fill, ink in TEAM_TAGS]
    return Palette.learn(samples)


def mapped(image: Image.Image) -> Frozen:
    """A full-colour tile mapped onto the palette once, kept as its palette indices (mode L):
    boards are pieced together from such tiles and given the palette at the end."""
    indices = palette().map(image)
    return Frozen("L", indices.size, indices.tobytes())


@cache
def colours() -> bytes:
    """The palette's colours, as a board of palette indices takes them (`Image.putpalette`)."""
    return bytes(palette().map(Image.new("RGB", (1, 1), BACKGROUND)).getpalette() or ())
