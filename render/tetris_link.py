"""Tetris Link board image: the tower on the left, players and the die on the right.

Colour-blind safe: every placed cell carries its seat letter as well as its colour.
The grid, labels and sprites are drawn once (`lru_cache`); a render pastes the cells
and writes the panel text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.tetris_link import COLUMNS, ROWS, SHAPES, piece_cells
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    SEAT_LETTERS,
    TEXT,
    centred_text,
    font,
    to_png,
)

CELL = 30
MARGIN = 16
TOWER_X = MARGIN
TOWER_Y = MARGIN
TOWER_W = COLUMNS * CELL
TOWER_H = ROWS * CELL
PANEL_X = TOWER_X + TOWER_W + 20
PANEL_W = 270
WIDTH = PANEL_X + PANEL_W + MARGIN
HEIGHT = TOWER_Y + TOWER_H + 34
WELL = (22, 23, 26)
GRID = (48, 50, 56)
EDGE = (12, 12, 14)  # the dark seam between different pieces
SEAT_BLOCK_H = 84
SEAT_BLOCK_Y = 150
LAST_MOVE = (255, 255, 255)  # white: no seat colour is near it, unlike the yellow highlight

Cell = tuple[int, int]


def render(view: dict, *, viewer: int | None = None, ghost: dict | None = None) -> bytes:
    """The board as PNG bytes; `ghost` ({"seat", "cells"}) previews a placement."""
    image = _static_layer(len(view["scores"])).copy()
    draw = ImageDraw.Draw(image)
    _draw_cells(image, draw, view["cells"])
    if ghost is not None:
        _draw_ghost(image, draw, ghost)
    last = view.get("last_move")
    if last:
        _outline(draw, last["cells"], LAST_MOVE, 3)
    _draw_die(image, draw, view)
    _draw_seats(image, draw, view, viewer)
    _draw_last_move(draw, view)
    return to_png(image)


# ---------------------------------------------------------------- geometry


def _cell_box(row: int, column: int) -> tuple[int, int, int, int]:
    """Pixel box of a tower cell; row 0 is the bottom row."""
    x = TOWER_X + column * CELL
    y = TOWER_Y + (ROWS - 1 - row) * CELL
    return x, y, x + CELL, y + CELL


def _ink_for(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on `colour`."""
    r, g, b = colour
    return (255, 255, 255) if 0.299 * r + 0.587 * g + 0.114 * b < 140 else (20, 20, 20)


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


# ---------------------------------------------------------------- cached layers


@lru_cache(maxsize=8)
def _static_layer(players: int) -> Image.Image:
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
        centred_text(draw, (x, TOWER_Y + TOWER_H + 16), str(column + 1), 15, MUTED)
    draw.text((PANEL_X, TOWER_Y - 2), "Tetris Link", font=font(24), fill=TEXT)
    for seat in range(players):
        y = SEAT_BLOCK_Y + seat * SEAT_BLOCK_H
        draw.rounded_rectangle(
            (PANEL_X, y, PANEL_X + PANEL_W - 1, y + SEAT_BLOCK_H - 8), radius=8, fill=PANEL
        )
    return image


@lru_cache(maxsize=16)
def _cell_sprite(seat: int) -> Image.Image:
    """A placed cell: seat colour, a soft bevel, and the seat letter."""
    colour = SEAT_COLOURS[seat]
    tile = Image.new("RGB", (CELL, CELL), colour)
    draw = ImageDraw.Draw(tile)
    draw.line((0, 0, CELL - 1, 0), fill=_mix(colour, (255, 255, 255), 0.25))
    draw.line((0, 0, 0, CELL - 1), fill=_mix(colour, (255, 255, 255), 0.25))
    draw.line((0, CELL - 1, CELL - 1, CELL - 1), fill=_mix(colour, (0, 0, 0), 0.25))
    draw.line((CELL - 1, 0, CELL - 1, CELL - 1), fill=_mix(colour, (0, 0, 0), 0.25))
    centred_text(draw, (CELL / 2, CELL / 2 + 1), SEAT_LETTERS[seat], 15, _ink_for(colour))
    return tile


@lru_cache(maxsize=16)
def _ghost_sprite(seat: int) -> Image.Image:
    """A previewed cell: dark tint of the seat colour with diagonal hatching."""
    colour = SEAT_COLOURS[seat]
    tile = Image.new("RGB", (CELL, CELL), _mix(WELL, colour, 0.25))
    draw = ImageDraw.Draw(tile)
    for offset in range(-CELL, CELL, 7):
        draw.line((offset, CELL, offset + CELL, 0), fill=_mix(WELL, colour, 0.75), width=2)
    return tile


@lru_cache(maxsize=128)
def _icon(shape: str, colour: tuple[int, int, int], unit: int) -> Image.Image:
    """A small picture of `shape` (rotation 0) with transparent background."""
    cells = piece_cells(shape, 0, False)
    height = 1 + max(r for r, _ in cells)
    width = 1 + max(c for _, c in cells)
    icon = Image.new("RGBA", (width * unit, height * unit), (0, 0, 0, 0))
    draw = ImageDraw.Draw(icon)
    for r, c in cells:
        x, y = c * unit, (height - 1 - r) * unit
        draw.rectangle((x, y, x + unit - 2, y + unit - 2), fill=(*colour, 255))
    return icon


@lru_cache(maxsize=4)
def _logo(size: int) -> Image.Image:
    """The die's logo face: four linked squares in the seat colours."""
    icon = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(icon)
    half = size // 2
    for index, (x, y) in enumerate(((0, 0), (half, 0), (0, half), (half, half))):
        draw.rectangle((x, y, x + half - 3, y + half - 3), fill=(*SEAT_COLOURS[index], 255))
    return icon


# ---------------------------------------------------------------- the tower


def _draw_cells(image: Image.Image, draw: ImageDraw.ImageDraw, cells: Sequence) -> None:
    for row, entries in enumerate(cells):
        for column, entry in enumerate(entries):
            if entry is not None:
                x, y, _, _ = _cell_box(row, column)
                image.paste(_cell_sprite(entry[0]), (x, y))
    # Seams wherever the piece changes, so every piece reads as one block.
    for row, entries in enumerate(cells):
        for column, entry in enumerate(entries):
            if entry is None:
                continue
            x0, y0, x1, y1 = _cell_box(row, column)
            above = cells[row + 1][column] if row + 1 < ROWS else None
            right = entries[column + 1] if column + 1 < COLUMNS else None
            if above is None or above[1] != entry[1]:
                draw.line((x0, y0, x1 - 1, y0), fill=EDGE, width=2)
            if right is None or right[1] != entry[1]:
                draw.line((x1 - 1, y0, x1 - 1, y1 - 1), fill=EDGE, width=2)
            if row == 0 or cells[row - 1][column] is None:
                draw.line((x0, y1 - 1, x1 - 1, y1 - 1), fill=EDGE, width=1)
            if column == 0 or entries[column - 1] is None:
                draw.line((x0, y0, x0, y1 - 1), fill=EDGE, width=1)


def _draw_ghost(image: Image.Image, draw: ImageDraw.ImageDraw, ghost: dict) -> None:
    seat = ghost["seat"]
    for row, column in ghost["cells"]:
        x, y, _, _ = _cell_box(row, column)
        image.paste(_ghost_sprite(seat), (x, y))
    _outline(draw, ghost["cells"], _mix(SEAT_COLOURS[seat], (255, 255, 255), 0.35), 3)


def _outline(draw: ImageDraw.ImageDraw, cells: Iterable[Sequence[int]], colour: tuple, width: int) -> None:
    """Trace the outer edge of a set of cells, inside them."""
    inside = {(r, c) for r, c in cells}
    inset = width // 2
    for r, c in inside:
        x0, y0, x1, y1 = _cell_box(r, c)
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


def _draw_die(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict) -> None:
    top = TOWER_Y + 40
    box = (PANEL_X, top, PANEL_X + 80, top + 80)
    to_move = view["to_move"]
    die = view.get("die")
    if view.get("phase") == "over" or not to_move:
        draw.text((PANEL_X, top + 6), "Game over", font=font(22), fill=HIGHLIGHT)
        winners = view.get("winners") or []
        letters = " and ".join(SEAT_LETTERS[s] for s in winners)
        verdict = f"Draw: {letters}" if len(winners) > 1 else f"{letters} wins" if letters else ""
        draw.text((PANEL_X, top + 40), verdict, font=font(20), fill=TEXT)
        return
    seat = to_move[0]
    if die is None:
        caption = "No dice: free choice"
    else:
        draw.rounded_rectangle(box, radius=12, fill=(238, 238, 238), outline=EDGE, width=2)
        if die == "any":
            face = _logo(48)
            caption = "Logo: any shape"
        else:
            face = _icon(die, (40, 40, 44), 14)
            caption = f"Rolled {die}"
        x = box[0] + (80 - face.width) // 2
        y = box[1] + (80 - face.height) // 2
        image.paste(face, (x, y), face)
    text_x = PANEL_X + (96 if die is not None else 0)
    draw.text((text_x, top + 14), f"{SEAT_LETTERS[seat]} to move", font=font(22), fill=TEXT)
    draw.text((text_x, top + 46), caption, font=font(16), fill=MUTED)


def _draw_seats(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, viewer: int | None) -> None:
    to_move = set(view["to_move"])
    winners = set(view.get("winners") or [])
    resigned = set(view.get("resigned") or [])
    largest = view.get("largest_group") or [0] * len(view["scores"])
    for seat, score in enumerate(view["scores"]):
        y = SEAT_BLOCK_Y + seat * SEAT_BLOCK_H
        colour = SEAT_COLOURS[seat]
        if seat in to_move or seat in winners:
            draw.rounded_rectangle(
                (PANEL_X, y, PANEL_X + PANEL_W - 1, y + SEAT_BLOCK_H - 8),
                radius=8,
                outline=HIGHLIGHT if seat in winners else colour,
                width=3,
            )
        image.paste(_cell_sprite(seat), (PANEL_X + 10, y + 8))
        tags = [f"largest group {largest[seat]}"]
        if seat == viewer:
            tags.insert(0, "you")
        if seat in resigned:
            tags.append("resigned")
        elif seat in winners:
            tags.append("winner")
        draw.text((PANEL_X + 48, y + 14), ", ".join(tags), font=font(15), fill=MUTED)
        draw.text((PANEL_X + PANEL_W - 14, y + 24), str(score), font=font(26), fill=TEXT, anchor="rm")
        _draw_stock(image, draw, view["pieces_left"][seat], colour, PANEL_X + 10, y + 46)


def _draw_stock(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    left: dict,
    colour: tuple[int, int, int],
    x: int,
    y: int,
) -> None:
    """Five shape icons with the number of pieces of each still in hand."""
    faded = _mix(PANEL, colour, 0.3)
    for index, shape in enumerate(SHAPES):
        count = left.get(shape, 0)
        icon = _icon(shape, colour if count else faded, 6)
        slot_x = x + index * 50
        image.paste(icon, (slot_x, y + 12 - icon.height // 2), icon)
        draw.text(
            (slot_x + 29, y + 12),
            str(count),
            font=font(15),
            fill=TEXT if count else MUTED,
            anchor="lm",
        )


def _draw_last_move(draw: ImageDraw.ImageDraw, view: dict) -> None:
    """One line on the last placement and one per skip since, under the seats."""
    lines = []
    last = view.get("last_move")
    if last:
        text = f"Last: {SEAT_LETTERS[last['seat']]} placed {last['shape']}"
        if last["gained"]:
            text += f"  +{last['gained']}"
        if last["gap_penalty"]:
            text += f"  -{last['gap_penalty']} gap"
        lines.append(text)
    for event in view.get("events", []):
        if event["type"] == "skip":
            die = f" on {event['die']}" if event.get("die") else ""
            lines.append(f"{SEAT_LETTERS[event['seat']]} skipped{die}: {event['reason']}")
        elif event["type"] == "resign":
            lines.append(f"{SEAT_LETTERS[event['seat']]} resigned")
    y = SEAT_BLOCK_Y + len(view["scores"]) * SEAT_BLOCK_H + 4
    for line in lines[:6]:
        draw.text((PANEL_X + 4, y), line, font=font(15), fill=MUTED)
        y += 22
