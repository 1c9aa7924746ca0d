"""Everything on a Tetris Link board that repeats, drawn once and cached as `Frozen`s
(immutable bytes, so nothing handed out of a cache can be drawn on): the grid and labels,
each cell as it sits in its piece, the ghost's cells, the die faces, the shape icons and
every piece of text (on its known background). `prepare` draws ahead of the first board
what every board needs.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from PIL import Image, ImageDraw

from games.tetris_link import ANY, COLUMNS, DIE_FACES, ENGINE, ROWS, piece_cells
from render.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    centred_text,
    font,
    ink_for,
    mix,
    paste,
    seat_label,
)
from render.frozen import Frozen
from render.tetris_link.layout import (
    CELL,
    DIE,
    HEADLINE,
    HEIGHT,
    NUMBERS,
    SCORE,
    TOWER_H,
    TOWER_W,
    TOWER_X,
    TOWER_Y,
    WIDTH,
    WORDS,
    seat_block_box,
)
from render.tetris_link.palette import DIE_FACE, DIE_INK, EDGE, GRID, WELL


@lru_cache(maxsize=8)
def static_layer(players: int) -> Frozen:
    """Background, empty tower with grid and column numbers, panel frames."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((TOWER_X - 3, TOWER_Y - 3, TOWER_X + TOWER_W + 2, TOWER_Y + TOWER_H + 2), fill=GRID)
    draw.rectangle((TOWER_X, TOWER_Y, TOWER_X + TOWER_W - 1, TOWER_Y + TOWER_H - 1), fill=WELL)
    for column in range(1, COLUMNS):
        x = TOWER_X + column * CELL
        draw.line((x, TOWER_Y, x, TOWER_Y + TOWER_H - 1), fill=GRID)
    for row in range(1, ROWS):
        y = TOWER_Y + row * CELL
        draw.line((TOWER_X, y, TOWER_X + TOWER_W - 1, y), fill=GRID)
    for column in range(COLUMNS):
        x = TOWER_X + column * CELL + CELL // 2
        centred_text(draw, (x, TOWER_Y + TOWER_H + 17), str(column + 1), NUMBERS, MUTED)
    for seat in range(players):
        draw.rounded_rectangle(seat_block_box(seat), radius=8, fill=PANEL)
    return Frozen.of(image)


@lru_cache(maxsize=128)
def cell_sprite(
    seat: int, top: bool = False, right: bool = False, bottom: bool = False, left: bool = False
) -> Frozen:
    """A placed cell: seat colour, a soft bevel, the seat letter, and a dark seam on
    the sides named: top and right where the piece ends, bottom and left where the
    cell beside it is empty (a piece there draws the seam on its own side)."""
    colour = SEAT_COLOURS[seat]
    tile = Image.new("RGB", (CELL, CELL), colour)
    draw = ImageDraw.Draw(tile)
    light, dark = mix(colour, (255, 255, 255), 0.25), mix(colour, (0, 0, 0), 0.25)
    draw.line((0, 0, CELL - 1, 0), fill=light)
    draw.line((0, 0, 0, CELL - 1), fill=light)
    draw.line((0, CELL - 1, CELL - 1, CELL - 1), fill=dark)
    draw.line((CELL - 1, 0, CELL - 1, CELL - 1), fill=dark)
    centred_text(draw, (CELL / 2, CELL / 2 + 1), seat_label(seat), NUMBERS, ink_for(colour))
    if top:
        draw.rectangle((0, 0, CELL - 1, 1), fill=EDGE)
    if right:
        draw.rectangle((CELL - 2, 0, CELL - 1, CELL - 1), fill=EDGE)
    if bottom:
        draw.line((0, CELL - 1, CELL - 1, CELL - 1), fill=EDGE)
    if left:
        draw.line((0, 0, 0, CELL - 1), fill=EDGE)
    return Frozen.of(tile)


@lru_cache(maxsize=16)
def ghost_sprite(seat: int) -> Frozen:
    """A previewed cell: dark tint of the seat colour with diagonal hatching."""
    colour = SEAT_COLOURS[seat]
    tile = Image.new("RGB", (CELL, CELL), mix(WELL, colour, 0.25))
    draw = ImageDraw.Draw(tile)
    for offset in range(-CELL, CELL, 7):
        draw.line((offset, CELL, offset + CELL, 0), fill=mix(WELL, colour, 0.75), width=2)
    return Frozen.of(tile)


@lru_cache(maxsize=128)
def icon(shape: str, colour: RGB, unit: int) -> Frozen:
    """A small picture of `shape` (rotation 0) with transparent background."""
    cells = piece_cells(shape, 0, False)
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    picture = Image.new("RGBA", (width * unit, height * unit), (0, 0, 0, 0))
    draw = ImageDraw.Draw(picture)
    for r, c in cells:
        x, y = c * unit, (height - 1 - r) * unit
        draw.rectangle((x, y, x + unit - 2, y + unit - 2), fill=(*colour, 255))
    return Frozen.of(picture)


@lru_cache(maxsize=8)
def die_tile(face: str) -> Frozen:
    """The die showing `face` (a shape, or the logo: four linked squares in the seat colours)."""
    tile = Image.new("RGB", (DIE, DIE), BACKGROUND)
    ImageDraw.Draw(tile).rounded_rectangle(
        (0, 0, DIE - 1, DIE - 1), radius=10, fill=DIE_FACE, outline=EDGE, width=2
    )
    if face == ANY:
        picture = Image.new("RGBA", (40, 40), (0, 0, 0, 0))
        draw = ImageDraw.Draw(picture)
        for index, (x, y) in enumerate(((0, 0), (20, 0), (0, 20), (20, 20))):
            draw.rectangle((x, y, x + 17, y + 17), fill=(*SEAT_COLOURS[index], 255))
    else:
        picture = icon(face, DIE_INK, 12).image()
    paste(tile, picture, ((DIE - picture.width) // 2, (DIE - picture.height) // 2))
    return Frozen.of(tile)


@lru_cache(maxsize=512)
def text_tile(text: str, size: int, fill: RGB, background: RGB) -> Frozen:
    """`text` drawn once on its background colour, cropped to its ink (left at x = 0,
    the baseline's top at y = 0, as `draw.text` places it): pasted, it covers nothing below it."""
    width = max(1, round(font(size).getlength(text)))
    bottom = round(font(size).getbbox(text)[3]) if text.strip() else size
    tile = Image.new("RGB", (width + 2, bottom + 1), background)
    ImageDraw.Draw(tile).text((0, 0), text, font=font(size), fill=fill)
    return Frozen.of(tile)


_PREPARING = threading.Lock()


def prepare() -> None:
    """Draw ahead of the first board what every board needs: the static layer for each seat
    count, every seat's cells with every seam and its ghost, the die's faces, the fonts.
    Thread-safe and idempotent: a second call finds everything cached."""
    with _PREPARING:
        for players in range(ENGINE.min_players, ENGINE.max_players + 1):
            static_layer(players)
        for seat in range(ENGINE.max_players):
            cell_sprite(seat)
            ghost_sprite(seat)
            for seams in range(16):
                cell_sprite(seat, *(bool(seams >> side & 1) for side in range(4)))
        for face in DIE_FACES:
            die_tile(face)
        for size in (HEADLINE, WORDS, WORDS + 2, SCORE):
            font(size)
