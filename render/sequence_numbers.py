"""Sequence Numbers images: the public board and a player's hand.

The board is drawn from the public parts of a view only (never `hand`), so every
player and spectator gets the same picture. The numbered grid is drawn once and
cached; each call pastes chip sprites and the status panel on a copy of it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    centred_text,
    font,
    to_palette_png,
    to_png,
)

SIZE = 10
CELL = 56
LABEL = 28  # room for the column letters and row numbers
PAD = 12
BOARD_X = PAD + LABEL
BOARD_Y = PAD + LABEL
BOARD_PX = SIZE * CELL
PANEL_H = 104
WIDTH = BOARD_X + BOARD_PX + PAD + 8
HEIGHT = BOARD_Y + BOARD_PX + PAD + PANEL_H
COLUMNS = "ABCDEFGHIJ"
TEAM_LETTERS = "ABC"
CHIP_RADIUS = 21

# Number groups by tens: a light text colour and a dark cell tint each, so a player
# looking for 34 scans only the cyan cells. Hues stay clear of the chip colours.
GROUPS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((236, 236, 240), (62, 64, 72)),  # 1–9
    ((240, 228, 66), (66, 62, 30)),  # 10–19
    ((255, 160, 196), (72, 42, 56)),  # 20–29
    ((128, 220, 245), (30, 58, 72)),  # 30–39
    ((170, 232, 140), (40, 64, 36)),  # 40–48
)
FREE_FILL = (78, 70, 40)
DARK = (20, 20, 22)
DEAD = (213, 94, 0)


def cell_box(row: int, col: int) -> tuple[int, int, int, int]:
    """The pixel box of a board cell (left, top, right, bottom)."""
    left, top = BOARD_X + col * CELL, BOARD_Y + row * CELL
    return left, top, left + CELL, top + CELL


def cell_centre(row: int, col: int) -> tuple[int, int]:
    left, top, _, _ = cell_box(row, col)
    return left + CELL // 2, top + CELL // 2


def team_colour(team: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[team % len(SEAT_COLOURS)]


def _star(centre: tuple[int, int], outer: float, inner: float) -> list[tuple[float, float]]:
    x, y = centre
    points = []
    for k in range(10):
        radius = outer if k % 2 == 0 else inner
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    return points


@lru_cache(maxsize=1)
def _grid(numbers: tuple[int | None, ...]) -> Image.Image:
    """The static layer: cells with their numbers, free corners, coordinates."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for col, letter in enumerate(COLUMNS):
        x, _ = cell_centre(0, col)
        centred_text(draw, (x, PAD + LABEL // 2), letter, 16, MUTED)
    for row in range(SIZE):
        _, y = cell_centre(row, 0)
        centred_text(draw, (PAD + LABEL // 2, y), str(row + 1), 16, MUTED)
    for index, number in enumerate(numbers):
        row, col = divmod(index, SIZE)
        left, top, right, bottom = cell_box(row, col)
        box = (left + 2, top + 2, right - 2, bottom - 2)
        if number is None:
            draw.rounded_rectangle(box, radius=6, fill=FREE_FILL)
            draw.polygon(_star(cell_centre(row, col), 17, 7), fill=HIGHLIGHT)
            centred_text(draw, (left + CELL // 2, bottom - 9), "FREE", 10, TEXT)
            continue
        ink, tint = GROUPS[min(number // 10, len(GROUPS) - 1)]
        draw.rounded_rectangle(box, radius=6, fill=tint)
        centred_text(draw, cell_centre(row, col), str(number), 24, ink)
    panel_top = BOARD_Y + BOARD_PX + PAD
    draw.rounded_rectangle((PAD, panel_top, WIDTH - PAD, HEIGHT - PAD), radius=8, fill=PANEL)
    return image


@lru_cache(maxsize=16)
def _chip(team: int, locked: bool, radius: int = CHIP_RADIUS) -> Image.Image:
    """A chip sprite with the team letter; a locked chip shows its rough, striped side."""
    side = 2 * radius + 8
    sprite = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(sprite)
    c = side // 2
    colour = team_colour(team)
    draw.ellipse((c - radius, c - radius, c + radius, c + radius), fill=colour, outline=DARK, width=2)
    if locked:
        # The rough side of a turned-over chip: diagonal stripes inside a white rim.
        inner = Image.new("L", (side, side), 0)
        ImageDraw.Draw(inner).ellipse(
            (c - radius + 3, c - radius + 3, c + radius - 3, c + radius - 3), fill=255
        )
        stripes = Image.new("L", (side, side), 0)
        for offset in range(-side, side, 7):
            ImageDraw.Draw(stripes).line((offset, side, offset + side, 0), fill=255, width=3)
        shade = tuple(v * 11 // 20 for v in colour)
        sprite.paste((*shade, 255), (0, 0), ImageChops.multiply(inner, stripes))
        draw.ellipse((c - radius, c - radius, c + radius, c + radius), outline=(250, 250, 250), width=4)
    size = radius + 1 if radius > 14 else radius + 3
    draw.text(
        (c, c),
        TEAM_LETTERS[team],
        font=font(size),
        fill=(255, 255, 255),
        anchor="mm",
        stroke_width=3,
        stroke_fill=DARK,
    )
    return sprite


def _paste_chip(
    image: Image.Image, centre: tuple[int, int], team: int, locked: bool, radius: int = CHIP_RADIUS
) -> None:
    sprite = _chip(team, locked, radius)
    half = sprite.width // 2
    image.paste(sprite, (centre[0] - half, centre[1] - half), sprite)


def _numbers(view: dict) -> tuple[int | None, ...]:
    return tuple(cell["number"] for row in view["board"] for cell in row)


def _draw_sequences(draw: ImageDraw.ImageDraw, view: dict) -> None:
    """A bar through each sequence, under the chips, so it shows between them."""
    for team, runs in enumerate(view.get("sequence_cells", [])):
        for run in runs:
            start, end = cell_centre(*run[0]), cell_centre(*run[-1])
            draw.line((start, end), fill=(250, 250, 250), width=12)
            draw.line((start, end), fill=team_colour(team), width=6)


def _draw_last_move(draw: ImageDraw.ImageDraw, view: dict) -> None:
    move = view.get("last_move")
    if not move or "row" not in move:
        return
    left, top, right, bottom = cell_box(move["row"], move["col"])
    draw.rounded_rectangle((left, top, right - 1, bottom - 1), radius=8, outline=HIGHLIGHT, width=4)
    if move["type"] == "remove":
        # The chip is gone: a cross in the removed team's colour says what happened.
        cx, cy = cell_centre(move["row"], move["col"])
        colour = team_colour(move["team"]) if move.get("team") is not None else HIGHLIGHT
        for dx in (-1, 1):
            draw.line((cx - 12, cy - 12 * dx, cx + 12, cy + 12 * dx), fill=DARK, width=8)
            draw.line((cx - 12, cy - 12 * dx, cx + 12, cy + 12 * dx), fill=colour, width=4)


def _seat_name(seat: int, viewer: int | None) -> str:
    return f"P{seat + 1}" + (" (you)" if seat == viewer else "")


def team_of(view: dict, seat: int) -> int:
    return next(t for t, seats in enumerate(view["teams"]) if seat in seats)


def _status(view: dict, viewer: int | None) -> str:
    if view.get("draw"):
        return "Draw: no one could play a card for a whole round."
    if view.get("winning_team") is not None:
        team = view["winning_team"]
        return f"Team {TEAM_LETTERS[team]} wins!"
    if view["to_move"]:
        seat = view["to_move"][0]
        return f"{_seat_name(seat, viewer)} to move (team {TEAM_LETTERS[team_of(view, seat)]})"
    return ""


def _last_move_text(view: dict) -> str:
    move = view.get("last_move")
    if not move:
        return "No move yet."
    who, card = f"P{move['seat'] + 1}", move["card"]
    label = {"problem": card.get("text", ""), "plus": "a plus", "minus": "a minus"}[card["kind"]]
    if move["type"] == "trade":
        return f"Last: {who} traded the dead card {label}."
    if move["type"] == "remove":
        return f"Last: {who} played {label} and removed the chip on {move['cell']}."
    return f"Last: {who} played {label} on {move['cell']}."


def _draw_panel(image: Image.Image, view: dict, viewer: int | None) -> None:
    draw = ImageDraw.Draw(image)
    top = BOARD_Y + BOARD_PX + PAD
    x = PAD + 14
    goal = view.get("sequences_to_win", 1)
    width = (WIDTH - 2 * PAD - 20) // max(len(view["teams"]), 1)
    for team, seats in enumerate(view["teams"]):
        left = x + team * width
        _paste_chip(image, (left + 14, top + 24), team, False, 13)
        players = " ".join(
            _seat_name(s, viewer) + (" (left)" if s in view.get("resigned", ()) else "") for s in seats
        )
        draw.text((left + 34, top + 12), f"Team {TEAM_LETTERS[team]}: {players}", font=font(15), fill=TEXT)
        count = view["sequences"][team]
        draw.text((left + 34, top + 30), f"sequences {count}/{goal}", font=font(13), fill=MUTED)
    status = _status(view, viewer)
    colour = HIGHLIGHT if view["to_move"] or view.get("winning_team") is not None else TEXT
    draw.text((x, top + 52), status, font=font(18), fill=colour)
    info = f"{_last_move_text(view)}   Deck: {view.get('deck_size', 0)} cards"
    if view.get("skipped"):
        skipped = ", ".join(f"P{s + 1}" for s in view["skipped"])
        info += f"   Skipped: {skipped}"
    draw.text((x, top + 76), info, font=font(13), fill=MUTED)


def render(view: dict, *, viewer: int | None = None) -> bytes:
    """The public board as PNG bytes: chips, locks, sequences, last move, whose turn."""
    image = _grid(_numbers(view)).copy()
    draw = ImageDraw.Draw(image)
    _draw_sequences(draw, view)
    for row, cells in enumerate(view["board"]):
        for col, cell in enumerate(cells):
            if cell["chip"] is not None:
                _paste_chip(image, cell_centre(row, col), cell["chip"], cell["locked"])
    _draw_last_move(draw, view)
    _draw_panel(image, view, viewer)
    return to_palette_png(image)


CARD_W, CARD_H, CARD_GAP = 116, 156, 14
CARD_FACE = (244, 241, 232)
CARD_INK = (30, 32, 36)


def _hand_card(draw: ImageDraw.ImageDraw, left: int, top: int, number: int, card: dict, dead: bool) -> None:
    box = (left, top, left + CARD_W, top + CARD_H)
    face = (150, 150, 150) if dead else CARD_FACE
    draw.rounded_rectangle(box, radius=10, fill=face, outline=DARK, width=2)
    draw.ellipse((left + 8, top + 8, left + 36, top + 36), fill=CARD_INK)
    centred_text(draw, (left + 22, top + 22), str(number), 18, CARD_FACE)
    centre = (left + CARD_W // 2, top + CARD_H // 2 + 6)
    if card["kind"] == "problem":
        centred_text(draw, centre, card["text"], 26, CARD_INK)
        hint = "= ?"
    else:
        _sign(draw, centre, plus=card["kind"] == "plus")
        hint = "any empty cell" if card["kind"] == "plus" else "remove a chip"
    centred_text(draw, (centre[0], top + CARD_H - 20), hint, 13, (90, 90, 96))
    if dead:
        draw.rectangle((left + 2, top + CARD_H - 56, left + CARD_W - 2, top + CARD_H - 36), fill=DEAD)
        centred_text(draw, (centre[0], top + CARD_H - 46), "DEAD · trade it", 13, (255, 255, 255))


def _sign(draw: ImageDraw.ImageDraw, centre: tuple[int, int], *, plus: bool) -> None:
    """A big plus or minus drawn as bars: the bundled font has no minus sign."""
    x, y = centre
    draw.rectangle((x - 26, y - 6, x + 26, y + 6), fill=CARD_INK)
    if plus:
        draw.rectangle((x - 6, y - 26, x + 6, y + 26), fill=CARD_INK)


def render_hand(view: dict) -> bytes:
    """The viewing seat's hand, cards numbered 1..n (hand index + 1), dead cards marked."""
    hand = view.get("hand", [])
    dead = set(view.get("dead_cards", []))
    count = max(len(hand), 1)
    width = 2 * PAD + count * CARD_W + (count - 1) * CARD_GAP
    height = 2 * PAD + 30 + CARD_H
    image = Image.new("RGB", (max(width, 260), height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    seat = view.get("seat")
    title = "Your hand" if seat is None else f"Your hand (P{seat + 1})"
    draw.text((PAD, PAD), title, font=font(18), fill=TEXT)
    if not hand:
        draw.text((PAD, PAD + 40), "No cards.", font=font(16), fill=MUTED)
    for index, card in enumerate(hand):
        left = PAD + index * (CARD_W + CARD_GAP)
        _hand_card(draw, left, PAD + 30, index + 1, card, index in dead)
    return to_png(image)
