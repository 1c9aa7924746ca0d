"""Tetris Link board image: the tower on the left, players and the die on the right.

The image has the shape of the box Discord shows an embed's image in (400 × 280-300), so
it is shown as large as that box allows, at about half its size: the panel's text is drawn
large enough to read there.

Colour-blind safe: every placed cell carries its seat letter as well as its colour.
Everything that repeats is drawn once and cached: the grid and labels, each cell as it
sits in its piece, the die faces, the shape icons and every piece of text (on its known
background). A render copies the static layer and pastes those tiles; only the outlines
of the last move and of a previewed piece are drawn afresh.

The image stays in RGB, without `Palette`: measured on 4-player playouts of the earlier
622 × 650 board, a fixed palette would make the render faster (about 4 ms against 10.5 ms)
and the PNG a third of the size (17 KB against 50 KB at most), but its mapping plus the
compose cost 1.7 times the encode of that smaller PNG, past the budget of 1.5; in RGB it
is about 1.2 (748 × 524: 12 ms, 62 KB at most).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games.tetris_link import ANY, COLUMNS, NO_FIT, NO_PIECE_LEFT, NO_SHAPE_LEFT, ROWS, SHAPES, piece_cells
from locales import DEFAULT, N_, gettext, ngettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    centred_text,
    font,
    ink_for,
    mix,
    paste,
    seat_label,
    to_png,
    wrap,
)

CELL = 24
MARGIN = 14
TOWER_X = MARGIN
TOWER_Y = MARGIN
TOWER_W = COLUMNS * CELL
TOWER_H = ROWS * CELL
HEIGHT = TOWER_Y + TOWER_H + 30  # the column numbers under the tower
# Discord shows an embed's image at most 400 px wide and about 300 tall (SimCord's preview:
# 280): a board of that box's shape fills it.
WIDTH = HEIGHT * 400 // 280
PANEL_X = TOWER_X + TOWER_W + 22
PANEL_W = WIDTH - PANEL_X - MARGIN
WELL = (22, 23, 26)
GRID = (48, 50, 56)
EDGE = (12, 12, 14)  # the dark seam between different pieces
DIE_FACE = (238, 238, 238)
DIE_INK = (40, 40, 44)
DIE = 68  # the die's side
# Text sizes: shown at about half size, the panel's text still reads like Discord's own.
HEADLINE = 30
WORDS = 22
SCORE = 34
SEAT_BLOCK_H = 72
SEAT_BLOCK_Y = TOWER_Y + DIE + 14
NEWS_LINE_H = 26
STOCK_SLOT = 88  # the width of one shape and its count in a seat's stock
LAST_MOVE = (255, 255, 255)  # white: no seat colour is near it, unlike the yellow highlight

# What the die shows, in words; a placed S or L is named as the figure it makes.
FACE_NAMES = {"I": "I", "O": "O", "T": "T", "S": "S/Z", "L": "L/J", ANY: N_("the logo")}
# TRANSLATORS: a placed Tetris Link piece, by the letter of its shape.
FIGURES = {
    "I": N_("an I"),
    "O": N_("an O"),
    "T": N_("a T"),
    "S": N_("an S"),
    "Z": N_("a Z"),
    "L": N_("an L"),
    "J": N_("a J"),
}
MIRRORED = {"S": "Z", "L": "J"}
END_WORDS = {
    "resignations": N_("only one player is left"),
    "every piece played": N_("every piece has been played"),
    "tower full": N_("the tower is full"),
    "no piece fits": N_("no piece left in hand fits"),
}

Cell = tuple[int, int]


def render(view: dict, *, viewer: int | None = None, ghost: dict | None = None, lang: str = DEFAULT) -> bytes:
    """The board as PNG bytes, its words in `lang`; `ghost` ({"seat", "cells"}) previews a placement."""
    return to_png(board_image(view, viewer, ghost=ghost, lang=lang))


def face_name(face: str, lang: str = DEFAULT) -> str:
    """What the die shows, in words: a shape's letter(s), or the logo."""
    return gettext(lang, FACE_NAMES[face]) if face == ANY else FACE_NAMES[face]


def board_image(
    view: dict, viewer: int | None = None, *, ghost: dict | None = None, lang: str = DEFAULT
) -> Image.Image:
    """The finished board as an RGB image, its words in `lang`: what `render` encodes."""
    image = _static_layer(view["players"]).copy()
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


# ---------------------------------------------------------------- narration


def narrate(view: dict, name: Callable[[int], str], lang: str = DEFAULT) -> list[str]:
    """What the last decision did and what followed, in sentences; `name(seat)` names a seat.

    The board image writes these under the players (with the seat letters), the
    Discord message above the board (with mentions): one wording for both.
    """
    lines = _narrate_event(view["last_event"], name, lang)
    for event in view["events"]:
        if event["type"] == "skip":
            lines.append(_narrate_skip(event, name, lang))
        elif event["type"] == "end":
            reason = event["reason"]
            why = gettext(lang, END_WORDS[reason]) if reason in END_WORDS else reason
            lines.append(gettext(lang, "The game ends: {reason}.", reason=why))
    return lines


def _narrate_event(event: dict | None, name: Callable[[int], str], lang: str) -> list[str]:
    if event is None:
        return []
    seat = event["seat"]
    if event["type"] == "start":
        return _narrate_start(event, name, lang)
    if event["type"] == "place":
        return [_narrate_place(event, name(seat), lang)]
    if event["type"] == "resign":
        return [gettext(lang, "{who} resigned.", who=name(seat))]
    return []


def _narrate_start(event: dict, name: Callable[[int], str], lang: str) -> list[str]:
    rolls, seat = event["rolls"], event["seat"]
    if not rolls:
        return [gettext(lang, "{who} was drawn to start.", who=name(seat))]
    logo = pgettext(lang, "die face", "logo")
    faces = ", ".join(f"{name(s)} {logo if face == ANY else FACE_NAMES[face]}" for s, face in rolls)
    return [
        gettext(lang, "{who} was drawn to roll first.", who=name(rolls[0][0])),
        gettext(lang, "Starting rolls: {rolls}.", rolls=faces),
        gettext(lang, "{who} rolled the logo and starts.", who=name(seat)),
    ]


def _narrate_place(event: dict, who: str, lang: str) -> str:
    columns = sorted({column + 1 for _, column in event["cells"]})
    if len(columns) == 1:
        where = gettext(lang, "column {column}", column=columns[0])
    else:
        where = gettext(lang, "columns {first}-{last}", first=columns[0], last=columns[-1])
    score = []
    if event["gained"]:
        score.append(
            gettext(lang, "+{points} for a group of {size}", points=event["gained"], size=event["group"])
        )
    if event["gap_penalty"]:
        score.append(
            ngettext(
                lang,
                "-{points} for an empty cell under it",
                "-{points} for empty cells under it",
                event["gap_penalty"],
                points=event["gap_penalty"],
            )
        )
    shape = _figure(event["shape"], event["cells"])
    figure = gettext(lang, FIGURES[shape])
    if score:
        return gettext(
            lang,
            "{who} placed {piece} in {where}: {score}.",
            who=who,
            piece=figure,
            where=where,
            score=", ".join(score),
        )
    return gettext(lang, "{who} placed {piece} in {where}.", who=who, piece=figure, where=where)


def _narrate_skip(event: dict, name: Callable[[int], str], lang: str) -> str:
    who, die, reason = name(event["seat"]), event["die"], event["reason"]
    if reason == NO_PIECE_LEFT:
        return gettext(lang, "{who} has no pieces left: turn skipped.", who=who)
    if die is None:
        return gettext(lang, "{who} has no piece that fits: turn skipped.", who=who)
    face = face_name(die, lang)
    if reason == NO_SHAPE_LEFT:
        return gettext(
            lang, "{who} rolled {face} but has no {face} piece left: turn skipped.", who=who, face=face
        )
    if reason == NO_FIT and die == ANY:
        return gettext(
            lang, "{who} rolled {face} but no piece fits anywhere: turn skipped.", who=who, face=face
        )
    if reason == NO_FIT:
        return gettext(
            lang, "{who} rolled {face} but no {face} piece fits anywhere: turn skipped.", who=who, face=face
        )
    return gettext(lang, "{who} rolled {face}: turn skipped.", who=who, face=face)


def _figure(shape: str, cells: Iterable[Sequence[int]]) -> str:
    """The letter of the figure a placed piece makes: S or Z, L or J, else its shape."""
    if shape not in MIRRORED:
        return shape
    low = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    normal = tuple(sorted((r - low, c - left) for r, c in cells))
    unturned = {piece_cells(shape, rotation, False) for rotation in range(4)}
    return shape if normal in unturned else MIRRORED[shape]


# ---------------------------------------------------------------- geometry


def _cell_box(row: int, column: int) -> tuple[int, int, int, int]:
    """Pixel box of a tower cell; row 0 is the bottom row."""
    x = TOWER_X + column * CELL
    y = TOWER_Y + (ROWS - 1 - row) * CELL
    return x, y, x + CELL, y + CELL


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
        centred_text(draw, (x, TOWER_Y + TOWER_H + 17), str(column + 1), 17, MUTED)
    for seat in range(players):
        y = SEAT_BLOCK_Y + seat * SEAT_BLOCK_H
        draw.rounded_rectangle(
            (PANEL_X, y, PANEL_X + PANEL_W - 1, y + SEAT_BLOCK_H - 8), radius=8, fill=PANEL
        )
    return image


@lru_cache(maxsize=128)
def _cell_sprite(
    seat: int, top: bool = False, right: bool = False, bottom: bool = False, left: bool = False
) -> Image.Image:
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
    centred_text(draw, (CELL / 2, CELL / 2 + 1), seat_label(seat), 14, ink_for(colour))
    if top:
        draw.rectangle((0, 0, CELL - 1, 1), fill=EDGE)
    if right:
        draw.rectangle((CELL - 2, 0, CELL - 1, CELL - 1), fill=EDGE)
    if bottom:
        draw.line((0, CELL - 1, CELL - 1, CELL - 1), fill=EDGE)
    if left:
        draw.line((0, 0, 0, CELL - 1), fill=EDGE)
    return tile


@lru_cache(maxsize=16)
def _ghost_sprite(seat: int) -> Image.Image:
    """A previewed cell: dark tint of the seat colour with diagonal hatching."""
    colour = SEAT_COLOURS[seat]
    tile = Image.new("RGB", (CELL, CELL), mix(WELL, colour, 0.25))
    draw = ImageDraw.Draw(tile)
    for offset in range(-CELL, CELL, 7):
        draw.line((offset, CELL, offset + CELL, 0), fill=mix(WELL, colour, 0.75), width=2)
    return tile


@lru_cache(maxsize=128)
def _icon(shape: str, colour: RGB, unit: int) -> Image.Image:
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


@lru_cache(maxsize=8)
def _die(face: str) -> Image.Image:
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
        picture = _icon(face, DIE_INK, 12)
    paste(tile, picture, ((DIE - picture.width) // 2, (DIE - picture.height) // 2))
    return tile


@lru_cache(maxsize=512)
def _text(text: str, size: int, fill: RGB, background: RGB) -> Image.Image:
    """`text` drawn once on its background colour, cropped to its ink (left at x = 0,
    the baseline's top at y = 0, as `draw.text` places it): pasted, it covers nothing below it."""
    width = max(1, round(font(size).getlength(text)))
    bottom = round(font(size).getbbox(text)[3]) if text.strip() else size
    tile = Image.new("RGB", (width + 2, bottom + 1), background)
    ImageDraw.Draw(tile).text((0, 0), text, font=font(size), fill=fill)
    return tile


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
    tile = _text(text, size, fill, background)
    x, y = xy
    image.paste(tile, (x - tile.width + 2 if anchor == "r" else x, y))


# ---------------------------------------------------------------- the tower


def _draw_cells(image: Image.Image, cells: Sequence[Sequence]) -> None:
    """Every placed cell, with a seam wherever the piece changes: each piece reads as one block."""
    for row, entries in enumerate(cells):
        above = cells[row + 1] if row + 1 < ROWS else None
        below = cells[row - 1] if row else None
        for column, entry in enumerate(entries):
            if entry is None:
                continue
            piece = entry[1]
            up = above[column] if above is not None else None
            right = entries[column + 1] if column + 1 < COLUMNS else None
            sprite = _cell_sprite(
                entry[0],
                up is None or up[1] != piece,
                right is None or right[1] != piece,
                below is None or below[column] is None,
                column == 0 or entries[column - 1] is None,
            )
            image.paste(sprite, _cell_box(row, column)[:2])


def _draw_ghost(image: Image.Image, draw: ImageDraw.ImageDraw, ghost: dict) -> None:
    seat = ghost["seat"]
    for row, column in ghost["cells"]:
        image.paste(_ghost_sprite(seat), _cell_box(row, column)[:2])
    _outline(draw, ghost["cells"], mix(SEAT_COLOURS[seat], (255, 255, 255), 0.35), 3)


def _outline(draw: ImageDraw.ImageDraw, cells: Iterable[Sequence[int]], colour: RGB, width: int) -> None:
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


def _verdict(winners: Sequence[int], lang: str) -> str:
    letters = gettext(lang, " and ").join(seat_label(s) for s in winners)
    if len(winners) > 1:
        return gettext(lang, "Draw: {seats}", seats=letters)
    return gettext(lang, "{seat} wins", seat=letters) if letters else gettext(lang, "Nobody wins")


def _draw_die(image: Image.Image, view: dict, lang: str) -> None:
    top = TOWER_Y
    if view["winners"] is not None:
        verdict = _verdict(view["winners"], lang)
        _write(image, (PANEL_X, top), gettext(lang, "Game over"), HEADLINE, HIGHLIGHT, BACKGROUND)
        _write(image, (PANEL_X, top + 38), verdict, WORDS + 2, TEXT, BACKGROUND)
        return
    die = view["die"]
    if die is None:
        text_x, caption = PANEL_X, gettext(lang, "No dice: free choice")
    else:
        image.paste(_die(die), (PANEL_X, top))
        rolled = gettext(lang, "Logo: any shape") if die == ANY else gettext(lang, "Rolled {face}", face=die)
        text_x, caption = PANEL_X + DIE + 16, rolled
    to_move = gettext(lang, "{seat} to move", seat=seat_label(view["to_move"][0]))
    _write(image, (text_x, top + 2), to_move, HEADLINE, TEXT, BACKGROUND)
    _write(image, (text_x, top + 40), caption, WORDS, MUTED, BACKGROUND)


def _draw_seats(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, viewer: int | None, lang: str
) -> None:
    to_move = set(view["to_move"])
    winners = set(view["winners"] or [])
    resigned = set(view["resigned"])
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
        image.paste(_cell_sprite(seat), (PANEL_X + 10, y + 9))
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


def _draw_stock(image: Image.Image, left: dict, colour: RGB, x: int, y: int) -> None:
    """Five shape icons with the number of pieces of each still in hand."""
    faded = mix(PANEL, colour, 0.3)
    for index, shape in enumerate(SHAPES):
        count = left[shape]
        icon = _icon(shape, colour if count else faded, 7)
        slot_x = x + index * STOCK_SLOT
        paste(image, icon, (slot_x, y + 13 - icon.height // 2))
        _write(image, (slot_x + 36, y), str(count), WORDS, TEXT if count else MUTED, PANEL)


def _draw_news(image: Image.Image, view: dict, lang: str) -> None:
    """The narration of the last decision, wrapped under the players."""
    y = SEAT_BLOCK_Y + view["players"] * SEAT_BLOCK_H + 2
    last_line = font(WORDS).getbbox("Ag")[3]  # the last line needs its ink, not its spacing
    room = (HEIGHT - y - 4 - last_line) // NEWS_LINE_H + 1
    lines = [
        line for sentence in narrate(view, seat_label, lang) for line in wrap(sentence, PANEL_W - 8, WORDS)
    ]
    if len(lines) > room:
        lines = [*lines[: room - 1], "…"]
    for line in lines:
        _write(image, (PANEL_X + 4, y), line, WORDS, MUTED, BACKGROUND)
        y += NEWS_LINE_H
