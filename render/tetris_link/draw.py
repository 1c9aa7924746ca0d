"""A Tetris Link board drawn from a view: a copy of the static layer with the cached tiles
pasted on it; only the outlines of the last move and of a previewed piece are drawn afresh.

Colour-blind safe: every placed cell carries its seat letter as well as its colour.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypedDict

from PIL import Image, ImageDraw

from games.tetris_link import ANY, COLUMNS, ROWS, SHAPES, TetrisLinkView
from locales import DEFAULT, gettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    font,
    mix,
    paste,
    seat_label,
    to_png,
    wrap,
)
from render.frozen import Frozen
from render.tetris_link.layout import (
    DIE,
    HEADLINE,
    HEIGHT,
    NEWS_LINE_H,
    PANEL_W,
    PANEL_X,
    SCORE,
    STOCK_SLOT,
    TOWER_Y,
    WORDS,
    cell_box,
    seat_block_box,
    seat_block_y,
)
from render.tetris_link.narration import narrate, verdict
from render.tetris_link.palette import LAST_MOVE
from render.tetris_link.sprites import (
    cell_sprite,
    die_tile,
    ghost_sprite,
    icon,
    static_layer,
    text_tile,
)


class Ghost(TypedDict):
    """A previewed placement: the cells `seat`'s piece would land on."""

    seat: int
    cells: list[list[int]]


def render(
    view: TetrisLinkView, *, viewer: int | None = None, ghost: Ghost | None = None, lang: str = DEFAULT
) -> bytes:
    """The board as PNG bytes, its words in `lang`; `ghost` ({"seat", "cells"}) previews a placement."""
    return to_png(board_image(view, viewer, ghost=ghost, lang=lang))


def board_image(
    view: TetrisLinkView, viewer: int | None = None, *, ghost: Ghost | None = None, lang: str = DEFAULT
) -> Image.Image:
    """The finished board as an RGB image, its words in `lang`: what `render` encodes."""
    image = static_layer(view["players"]).image()
    draw = ImageDraw.Draw(image)
    _draw_cells(image, view["cells"])
    if ghost is not None:
        _draw_ghost(image, draw, ghost)
    last = view.get("last_move")
    if last:
        _outline(draw, last["cells"], LAST_MOVE, 3)
    _draw_die(image, view, lang)
    _draw_seats(image, draw, view, viewer, lang)
    _draw_news(image, view, lang)
    return image


def _write(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    fill: RGB,
    background: RGB,
    anchor: str = "l",
) -> None:
    """Paste the cached `text` with its left (anchor "l") or right ("r") edge at x."""
    tile = text_tile(text, size, fill, background)
    x, y = xy
    image.paste(tile.image(), (x - tile.size[0] + 2 if anchor == "r" else x, y))


# ---------------------------------------------------------------- the tower


def _draw_cells(image: Image.Image, cells: Sequence[Sequence[list[int] | None]]) -> None:
    """Every placed cell, with a seam wherever the piece changes: each piece reads as one block."""
    sprites: dict[Frozen, list[tuple[int, int]]] = {}  # most cells repeat: each is unpacked once
    for row, entries in enumerate(cells):
        above = cells[row + 1] if row + 1 < ROWS else None
        below = cells[row - 1] if row else None
        for column, entry in enumerate(entries):
            if entry is None:
                continue
            piece = entry[1]
            up = above[column] if above is not None else None
            right = entries[column + 1] if column + 1 < COLUMNS else None
            sprite = cell_sprite(
                entry[0],
                up is None or up[1] != piece,
                right is None or right[1] != piece,
                below is None or below[column] is None,
                column == 0 or entries[column - 1] is None,
            )
            sprites.setdefault(sprite, []).append(cell_box(row, column)[:2])
    for sprite, corners in sprites.items():
        tile = sprite.image()
        for corner in corners:
            image.paste(tile, corner)


def _draw_ghost(image: Image.Image, draw: ImageDraw.ImageDraw, ghost: Ghost) -> None:
    seat = ghost["seat"]
    tile = ghost_sprite(seat).image()
    for row, column in ghost["cells"]:
        image.paste(tile, cell_box(row, column)[:2])
    _outline(draw, ghost["cells"], mix(SEAT_COLOURS[seat], (255, 255, 255), 0.35), 3)


def _outline(draw: ImageDraw.ImageDraw, cells: Iterable[Sequence[int]], colour: RGB, width: int) -> None:
    """Trace the outer edge of a set of cells, inside them."""
    inside = {(r, c) for r, c in cells}
    inset = width // 2
    for r, c in inside:
        x0, y0, x1, y1 = cell_box(r, c)
        x1, y1 = x1 - 1, y1 - 1
        if (r + 1, c) not in inside:
            draw.line((x0, y0 + inset, x1, y0 + inset), fill=colour, width=width)
        if (r - 1, c) not in inside:
            draw.line((x0, y1 - inset, x1, y1 - inset), fill=colour, width=width)
        if (r, c - 1) not in inside:
            draw.line((x0 + inset, y0, x0 + inset, y1), fill=colour, width=width)
        if (r, c + 1) not in inside:
            draw.line((x1 - inset, y0, x1 - inset, y1), fill=colour, width=width)


# ---------------------------------------------------------------- the panel


def _draw_die(image: Image.Image, view: TetrisLinkView, lang: str) -> None:
    top = TOWER_Y
    if view["winners"] is not None:
        _write(image, (PANEL_X, top), gettext(lang, "Game over"), HEADLINE, HIGHLIGHT, BACKGROUND)
        _write(image, (PANEL_X, top + 38), verdict(view["winners"], lang), WORDS + 2, TEXT, BACKGROUND)
        return
    die = view["die"]
    if die is None:
        text_x, caption = PANEL_X, gettext(lang, "No dice: free choice")
    else:
        image.paste(die_tile(die).image(), (PANEL_X, top))
        rolled = gettext(lang, "Logo: any shape") if die == ANY else gettext(lang, "Rolled {face}", face=die)
        text_x, caption = PANEL_X + DIE + 16, rolled
    to_move = gettext(lang, "{seat} to move", seat=seat_label(view["to_move"][0]))
    _write(image, (text_x, top + 2), to_move, HEADLINE, TEXT, BACKGROUND)
    _write(image, (text_x, top + 40), caption, WORDS, MUTED, BACKGROUND)


def _draw_seats(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: TetrisLinkView, viewer: int | None, lang: str
) -> None:
    to_move = set(view["to_move"])
    winners = set(view["winners"] or [])
    resigned = set(view["resigned"])
    for seat, score in enumerate(view["scores"]):
        y = seat_block_y(seat)
        colour = SEAT_COLOURS[seat]
        if seat in to_move or seat in winners:
            draw.rounded_rectangle(
                seat_block_box(seat),
                radius=8,
                outline=HIGHLIGHT if seat in winners else colour,
                width=3,
            )
        image.paste(cell_sprite(seat).image(), (PANEL_X + 10, y + 9))
        tags = [gettext(lang, "largest group {size}", size=view["largest_group"][seat])]
        if seat == viewer:
            tags.insert(0, pgettext(lang, "score panel", "you"))
        if seat in resigned:
            tags.append(pgettext(lang, "score panel", "resigned"))
        elif seat in winners:
            tags.append(pgettext(lang, "score panel", "winner"))
        _write(image, (PANEL_X + 46, y + 9), ", ".join(tags), WORDS, MUTED, PANEL)
        _write(image, (PANEL_X + PANEL_W - 14, y + 3), str(score), SCORE, TEXT, PANEL, anchor="r")
        _draw_stock(image, view["pieces_left"][seat], colour, PANEL_X + 10, y + 37)


def _draw_stock(image: Image.Image, left: dict[str, int], colour: RGB, x: int, y: int) -> None:
    """Five shape icons with the number of pieces of each still in hand."""
    faded = mix(PANEL, colour, 0.3)
    for index, shape in enumerate(SHAPES):
        count = left[shape]
        picture = icon(shape, colour if count else faded, 7)
        slot_x = x + index * STOCK_SLOT
        paste(image, picture.image(), (slot_x, y + 13 - picture.size[1] // 2))
        _write(image, (slot_x + 36, y), str(count), WORDS, TEXT if count else MUTED, PANEL)


def _draw_news(image: Image.Image, view: TetrisLinkView, lang: str) -> None:
    """The narration of the last decision, wrapped under the players."""
    y = seat_block_y(view["players"]) + 2
    last_line = int(font(WORDS).getbbox("Ag")[3])  # the last line needs its ink, not its spacing
    room = (HEIGHT - y - 4 - last_line) // NEWS_LINE_H + 1
    lines = [
        line for sentence in narrate(view, seat_label, lang) for line in wrap(sentence, PANEL_W - 8, WORDS)
    ]
    if len(lines) > room:
        lines = [*lines[: room - 1], "…"]
    for line in lines:
        _write(image, (PANEL_X + 4, y), line, WORDS, MUTED, BACKGROUND)
        y += NEWS_LINE_H
