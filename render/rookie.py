"""Rookie board: the nine stacks, every player's discard and point stacks, the last flip.

Drawn only from the public view. Cards carry a symbol as well as a colour so that no
one needs colour vision to tell them apart; the X card is white with a black cross.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

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
    to_palette_png,
)

Colour = tuple[int, int, int]

WIDTH = 780
HEADER = 46
MARGIN = 14
CELL_W, CELL_H = 108, 144
CARD_W, CARD_H = 74, 100
TABLE_X, TABLE_Y = MARGIN, HEADER + 10
PANEL_X = TABLE_X + 3 * CELL_W + 16
ROW_H = 70
MINI_W, MINI_H = 32, 44
STRIP_Y = TABLE_Y + 3 * CELL_H + 6
HEIGHT = STRIP_Y + 74

CARD_FACES: dict[str, Colour] = {
    "red": (213, 50, 40),
    "yellow": (240, 196, 25),
    "green": (30, 150, 75),
    "blue": (35, 105, 205),
    "purple": (135, 70, 175),
    "X": (245, 245, 245),
}
SYMBOLS = {"red": "circle", "yellow": "triangle", "green": "square", "blue": "diamond"}
CARD_BACK = (62, 72, 96)
CARD_EDGE = (20, 22, 25)
DARK_INK = (25, 25, 28)


# --- sprites (cached: they never change) -----------------------------------------------


def _symbol_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Outline of a card symbol centred on (cx, cy) with radius r."""
    if shape == "triangle":
        return [(cx + r * math.cos(a), cy + r * math.sin(a)) for a in _angles(3, -90)]
    if shape == "square":
        s = r * 0.8
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)]
    # star, for purple
    points = []
    for i, angle in enumerate(_angles(10, -90)):
        radius = r if i % 2 == 0 else r * 0.45
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _angles(count: int, start_degrees: float) -> list[float]:
    return [math.radians(start_degrees + 360 * i / count) for i in range(count)]


def _draw_symbol(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    ink = DARK_INK if kind == "yellow" else (255, 255, 255)
    shape = SYMBOLS.get(kind, "star")
    if shape == "circle":
        draw.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=ink)
    else:
        draw.polygon(_symbol_points(shape, cx, cy, r), fill=ink)


def _draw_cross(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, width: int) -> None:
    for dx in (-r, r):
        draw.line((cx - dx, cy - r, cx + dx, cy + r), fill=DARK_INK, width=width)


@lru_cache(maxsize=64)
def card_sprite(kind: str | None, width: int, height: int) -> Image.Image:
    """A card face (`kind`) or back (`None`) as an RGBA sprite."""
    image = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = max(3, width // 9)
    box = (0, 0, width - 1, height - 1)
    if kind is None:
        draw.rounded_rectangle(box, radius, fill=CARD_BACK, outline=CARD_EDGE, width=2)
        inset = max(4, width // 8)
        draw.rounded_rectangle(
            (inset, inset, width - 1 - inset, height - 1 - inset),
            radius // 2,
            outline=(92, 104, 132),
            width=max(1, width // 30),
        )
        return image
    draw.rounded_rectangle(box, radius, fill=CARD_FACES[kind], outline=CARD_EDGE, width=2)
    cx, cy, r = width / 2, height / 2, width * 0.33
    if kind == "X":
        _draw_cross(draw, cx, cy, r, max(3, width // 7))
    else:
        _draw_symbol(draw, kind, cx, cy, r)
    return image


@lru_cache(maxsize=8)
def _stack_edges(depth: int) -> Image.Image:
    """Card edges peeking out under a stack, deeper for taller stacks."""
    image = Image.new("RGBA", (CARD_W + 8, CARD_H + 8), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for layer in range(depth, 0, -1):
        offset = layer * 2
        draw.rounded_rectangle(
            (offset, offset, offset + CARD_W - 1, offset + CARD_H - 1),
            8,
            fill=(48, 55, 74),
            outline=CARD_EDGE,
        )
    return image


# --- the static layer --------------------------------------------------------------------


def _row_top(seat: int) -> int:
    return TABLE_Y + seat * ROW_H


@lru_cache(maxsize=32)
def _base(players: int, variant: str, teams: tuple[tuple[int, ...], ...]) -> Image.Image:
    """Everything that only depends on the seat count and the variant."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 1), fill=PANEL)
    draw.text((MARGIN, HEADER // 2), "ROOKIE", font=font(22), fill=TEXT, anchor="lm")
    for p in range(9):
        x, y = _cell_origin(p)
        draw.rounded_rectangle((x + 2, y + 2, x + CELL_W - 4, y + CELL_H - 4), 10, fill=PANEL)
        badge_y = y + CELL_H - 18
        draw.ellipse((x + 8, badge_y - 11, x + 30, badge_y + 11), fill=(70, 74, 82))
        centred_text(draw, (x + 19, badge_y), str(p + 1), 15)
    team_of = {seat: t for t, team in enumerate(teams) for seat in team}
    for seat in range(players):
        top = _row_top(seat)
        draw.rounded_rectangle((PANEL_X, top, WIDTH - MARGIN, top + ROW_H - 8), 8, fill=PANEL)
        draw.rounded_rectangle((PANEL_X, top, PANEL_X + 8, top + ROW_H - 8), 4, fill=SEAT_COLOURS[seat])
        draw.ellipse((PANEL_X + 16, top + 12, PANEL_X + 54, top + 50), fill=SEAT_COLOURS[seat])
        centred_text(draw, (PANEL_X + 35, top + 31), SEAT_LETTERS[seat], 22, fill=DARK_INK)
        if seat in team_of:
            _team_tag(draw, PANEL_X + 62, top + 49, team_of[seat])
        if variant != "kids":
            for index in range(3):
                x = _mini_x(index)
                draw.rounded_rectangle(
                    (x, top + 6, x + MINI_W - 1, top + 6 + MINI_H - 1), 5, outline=(80, 84, 92)
                )
        draw.text((WIDTH - MARGIN - 12, top + 12), "points", font=font(13), fill=MUTED, anchor="ra")
    draw.text((MARGIN, STRIP_Y + 8), "Just turned up", font=font(14), fill=MUTED, anchor="la")
    return image


def _team_tag(draw: ImageDraw.ImageDraw, x: int, y: int, team: int) -> None:
    label = f"Team {team + 1}"
    fill = ((88, 88, 96), (200, 200, 206), (150, 120, 60))[team % 3]
    ink = TEXT if team % 3 != 1 else DARK_INK
    draw.rounded_rectangle((x, y - 8, x + 58, y + 8), 8, fill=fill)
    centred_text(draw, (x + 29, y), label, 12, fill=ink)


def _cell_origin(position: int) -> tuple[int, int]:
    row, column = divmod(position, 3)
    return TABLE_X + column * CELL_W, TABLE_Y + row * CELL_H


def _mini_x(index: int) -> int:
    return PANEL_X + 128 + index * (MINI_W + 30)


# --- per render -----------------------------------------------------------------------------


def _paste(image: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    image.paste(sprite, (x, y), sprite)


def _draw_table(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict) -> None:
    flipped = {entry["position"] for entry in view.get("last_flip") or ()}
    open_positions = set(view.get("open", ()))
    for p, position in enumerate(view["positions"]):
        x, y = _cell_origin(p)
        cx = x + (CELL_W - 4) // 2
        card_x, card_y = cx - CARD_W // 2 - 2, y + 8
        count = position["count"]
        if p in flipped:
            draw.rounded_rectangle((x, y, x + CELL_W - 2, y + CELL_H - 2), 12, outline=HIGHLIGHT, width=4)
        if count == 0:
            draw.rounded_rectangle(
                (card_x, card_y, card_x + CARD_W, card_y + CARD_H), 8, outline=(80, 84, 92), width=2
            )
            centred_text(draw, (cx, card_y + CARD_H // 2), "empty", 14, fill=MUTED)
            draw.text(
                (x + CELL_W - 12, y + CELL_H - 18),
                "0 cards",
                font=font(14),
                fill=MUTED,
                anchor="rm",
            )
            continue
        depth = min(3, (count - 1 + 3) // 4)
        if depth:
            _paste(image, _stack_edges(depth), card_x, card_y)
        _paste(image, card_sprite(position["top"], CARD_W, CARD_H), card_x, card_y)
        label = _cards(count)
        if p in open_positions:
            label = f"open · {count}"
        ink = HIGHLIGHT if p in open_positions else MUTED
        draw.text((x + CELL_W - 12, y + CELL_H - 18), label, font=font(14), fill=ink, anchor="rm")


def _draw_players(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict, viewer: int | None) -> None:
    turn = view.get("turn")
    winners = set(view.get("winners") or ())
    kids = view.get("variant") == "kids"
    for seat, player in enumerate(view["players"]):
        top = _row_top(seat)
        if seat == turn:
            draw.rounded_rectangle(
                (PANEL_X - 2, top - 2, WIDTH - MARGIN + 2, top + ROW_H - 6),
                9,
                outline=HIGHLIGHT,
                width=3,
            )
        name = f"Player {SEAT_LETTERS[seat]}"
        status = "left" if player.get("resigned") else "winner" if seat in winners else ""
        if seat == viewer and not status:
            status = "you"
        draw.text((PANEL_X + 62, top + 10), name, font=font(15), fill=TEXT, anchor="la")
        if status:
            ink = HIGHLIGHT if status == "winner" else MUTED
            # Above the team tag, which sits at the bottom of the row.
            draw.text((PANEL_X + 62, top + 26), status, font=font(13), fill=ink, anchor="la")
        if not kids:
            for index, stack in enumerate(player["stacks"]):
                x = _mini_x(index)
                if stack["count"]:
                    _paste(image, card_sprite(stack["top"], MINI_W, MINI_H), x, top + 6)
                draw.text(
                    (x + MINI_W + 4, top + 44),
                    str(stack["count"]),
                    font=font(13),
                    fill=MUTED,
                    anchor="ls",
                )
        draw.text(
            (WIDTH - MARGIN - 12, top + 50),
            str(player["points"]),
            font=font(24),
            fill=TEXT,
            anchor="rs",
        )


def _draw_header(draw: ImageDraw.ImageDraw, view: dict) -> None:
    variant = view.get("variant", "standard")
    deck = view.get("deck", "standard")
    detail = f"{variant} · {deck} deck · {view.get('table_cards', 0)} cards on the table"
    draw.text((MARGIN + 104, HEADER // 2), detail, font=font(14), fill=MUTED, anchor="lm")
    if view.get("winners") is not None:
        letters = ", ".join(SEAT_LETTERS[s] for s in view["winners"])
        message, colour = f"Game over · won by {letters}", HIGHLIGHT
    elif view.get("turn") is not None:
        message, colour = f"Player {SEAT_LETTERS[view['turn']]} to move", SEAT_COLOURS[view["turn"]]
    else:
        message, colour = "", TEXT
    draw.text((WIDTH - MARGIN, HEADER // 2), message, font=font(18), fill=TEXT, anchor="rm")
    if message:
        # A seat-coloured dot names the player; the text stays readable on the dark bar.
        left = WIDTH - MARGIN - font(18).getlength(message) - 26
        draw.ellipse((left, HEADER // 2 - 9, left + 18, HEADER // 2 + 9), fill=colour)


def _draw_strip(image: Image.Image, draw: ImageDraw.ImageDraw, view: dict) -> None:
    """The cards of the last flip, with where they lie, so a miss can still be read."""
    x = MARGIN + 112
    if not view.get("last_flip"):
        draw.text((x, STRIP_Y + 34), "nothing yet", font=font(14), fill=MUTED, anchor="lm")
    for entry in view.get("last_flip") or ():
        _paste(image, card_sprite(entry["card"], 40, 56), x, STRIP_Y + 6)
        where = f"at {entry['position'] + 1}"
        if entry.get("from", entry["position"]) != entry["position"]:
            where = f"from {entry['from'] + 1} to {entry['position'] + 1}"
        draw.text((x + 46, STRIP_Y + 34), where, font=font(14), fill=TEXT, anchor="lm")
        x += 110
    lines = []
    if view.get("team_scores"):
        lines.append("   ".join(f"Team {t + 1}: {score}" for t, score in enumerate(view["team_scores"])))
    if view.get("turn") is not None:
        lines.extend(_wrap(_prompt(view), WIDTH - MARGIN - PANEL_X))
    for row, line in enumerate(lines[:3]):
        ink = HIGHLIGHT if row == 0 and view.get("team_scores") else TEXT
        draw.text((PANEL_X, STRIP_Y + 14 + 20 * row), line, font=font(14), fill=ink, anchor="lm")


def _prompt(view: dict) -> str:
    """What the player to move is asked, with what the choices would give."""
    pending = view.get("pending") or {}
    prompt = pending.get("prompt", "")
    if pending.get("kind") == "steal":
        sides = [
            f"{choice['side']}: {SEAT_LETTERS[choice['from']]} ({_cards(choice['cards'])})"
            for choice in pending.get("choices", ())
        ]
        prompt += " · " + ", ".join(sides)
    elif pending.get("kind") == "arrange":
        prompt += f" · {_cards(pending.get('count', 0))} taken"
    return prompt + "."


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap for the 14 px font."""
    lines: list[str] = []
    for word in text.split():
        candidate = f"{lines[-1]} {word}" if lines else word
        if lines and font(14).getlength(candidate) <= width:
            lines[-1] = candidate
        else:
            lines.append(word)
    return lines


def render(view: dict, *, viewer: int | None = None) -> bytes:
    """PNG bytes of the public Rookie table described by `view`."""
    teams = tuple(tuple(team) for team in view.get("teams") or ())
    image = _base(len(view["players"]), view.get("variant", "standard"), teams).copy()
    draw = ImageDraw.Draw(image)
    _draw_header(draw, view)
    _draw_table(image, draw, view)
    _draw_players(image, draw, view, viewer)
    _draw_strip(image, draw, view)
    return to_palette_png(image)
