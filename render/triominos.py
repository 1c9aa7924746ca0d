"""My First Triominos pictures: the public table and a player's own hand.

Every card is a sprite (drawn supersampled once, then cached) pasted onto a lattice
whose points land on whole pixels, so neighbouring cards line up exactly.
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

# The rulebook's colours (1 red ... 5 purple) in Okabe–Ito shades; the number and the
# small triangles carry the value too, so colour is never the only cue.
VALUE_COLOURS: dict[int, tuple[int, int, int]] = {
    1: (213, 94, 0),  # red (vermilion)
    2: (240, 228, 66),  # yellow
    3: (0, 114, 178),  # blue
    4: (0, 158, 115),  # green
    5: (150, 90, 170),  # purple
}
INK = (24, 25, 28)
JOKER_FACE = (250, 248, 240)
PLACE_FILL = (54, 57, 63)
PLACE_EDGE = (120, 125, 135)
SUPERSAMPLE = 3
MAX_BOARD = (940, 680)  # the board never grows past this; cards shrink instead
MIN_WIDTH = 680
SIDE_RANGE = (20, 128)  # 20: even a 36-card line stays inside MAX_BOARD
HEADER = 50
FOOTER = 96
MARGIN = 20
PIPS_FROM_SIDE = 60  # below this side the small triangles would be specks
HAND_SIDE = 124
HAND_COLUMNS = 6

Corner = tuple[float, float]


# --- card sprites ---------------------------------------------------------------------


def corners(side: int, height: int, up: bool) -> tuple[Corner, Corner, Corner]:
    """A cell's corners in sprite pixels, clockwise as the engine lists them."""
    if up:
        return (side / 2, 0), (side, height), (0, height)
    return (0, 0), (side, 0), (side / 2, height)


def lerp(a: Corner, b: Corner, t: float) -> Corner:
    """The point a fraction `t` of the way from `a` to `b`."""
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def inset(points: tuple[Corner, ...], by: float) -> list[Corner]:
    """The triangle shrunk towards its centroid by `by` pixels (a seam between cards)."""
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy)
        out.append(lerp((x, y), (cx, cy), by * 2 / d))  # corner-to-centroid is twice r_in
    return out


def pip_rows(value: int) -> tuple[int, ...]:
    """Small triangles per row, from the corner inwards, so they fill the wedge."""
    return {1: (1,), 2: (2,), 3: (1, 2), 4: (2, 2), 5: (2, 3)}[value]


def draw_pips(draw: ImageDraw.ImageDraw, tip: Corner, centre: Corner, value: int, side: float) -> None:
    """`value` small triangles pointing at their corner, between number and centre."""
    dx, dy = centre[0] - tip[0], centre[1] - tip[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length  # inwards along the bisector
    px, py = -uy, ux  # across the bisector
    size = side * 0.085
    rows = pip_rows(value)
    for row, count in enumerate(rows):
        along = side * (0.38 + 0.1 * row - 0.03 * (len(rows) - 1))
        for k in range(count):
            across = (k - (count - 1) / 2) * size * 1.35
            cx = tip[0] + ux * along + px * across
            cy = tip[1] + uy * along + py * across
            triangle = [
                (cx - ux * size * 0.6, cy - uy * size * 0.6),
                (cx + ux * size * 0.4 + px * size * 0.55, cy + uy * size * 0.4 + py * size * 0.55),
                (cx + ux * size * 0.4 - px * size * 0.55, cy + uy * size * 0.4 - py * size * 0.55),
            ]
            draw.polygon(triangle, fill=(255, 255, 255), outline=INK, width=max(1, int(side / 60)))


def draw_star(draw: ImageDraw.ImageDraw, centre: Corner, radius: float, width: int) -> None:
    """A five-pointed star: the joker's sign."""
    points = []
    for k in range(10):
        r = radius if k % 2 == 0 else radius * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((centre[0] + r * math.cos(angle), centre[1] + r * math.sin(angle)))
    draw.polygon(points, fill=HIGHLIGHT, outline=INK, width=width)


@lru_cache(maxsize=512)
def card_sprite(values: tuple[int, int, int] | None, up: bool, side: int) -> Image.Image:
    """An RGBA card (values at the clockwise corners; None = joker) of the given side."""
    height = round(side * math.sqrt(3) / 2)
    k = SUPERSAMPLE
    big_side = side * k
    image = Image.new("RGBA", ((side + 1) * k, (height + 1) * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    outer = corners(big_side, height * k, up)
    card = inset(outer, 1.6 * k)
    centre = (sum(p[0] for p in card) / 3, sum(p[1] for p in card) / 3)
    line = max(k, round(big_side / 55))
    if values is None:
        draw.polygon(card, fill=JOKER_FACE, outline=INK, width=line)
        star_centre = centre if up else (centre[0], centre[1] - big_side * 0.02)
        draw_star(draw, star_centre, big_side * 0.2, line)
    else:
        draw_number_card(draw, card, centre, values, big_side, line, pips=side >= PIPS_FROM_SIDE)
    return image.reduce(k)  # a box filter: enough to smooth the edges, and fast


def draw_number_card(
    draw: ImageDraw.ImageDraw,
    card: list[Corner],
    centre: Corner,
    values: tuple[int, int, int],
    side: float,
    line: int,
    *,
    pips: bool,
) -> None:
    """Three coloured corner zones, each with its number and (if room) its triangles."""
    for i, value in enumerate(values):
        tip, after, before = card[i], card[(i + 1) % 3], card[(i + 2) % 3]
        zone = [tip, lerp(tip, after, 0.5), centre, lerp(tip, before, 0.5)]
        draw.polygon(zone, fill=VALUE_COLOURS[value], outline=INK, width=max(1, line // 2))
    draw.polygon(card, outline=INK, width=line)
    for i, value in enumerate(values):
        tip = card[i]
        # Far enough in that the digit clears the narrow tip of the wedge.
        at = 0.2 if pips else 0.3
        number = lerp(tip, centre, at / 0.577)
        size = round(side * (0.2 if pips else 0.27))
        stroke = max(2, round(size / 9))
        centred_text(draw, number, str(value), size, (255, 255, 255), stroke_width=stroke, stroke_fill=INK)
        if pips:
            draw_pips(draw, tip, centre, value, side)


@lru_cache(maxsize=64)
def place_sprite(label: str, up: bool, side: int) -> Image.Image:
    """An open place: a faint outlined triangle with its label."""
    height = round(side * math.sqrt(3) / 2)
    image = Image.new("RGBA", (side + 1, height + 1), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    shape = inset(corners(side, height, up), 3)
    draw.polygon(shape, fill=PLACE_FILL, outline=PLACE_EDGE, width=max(1, side // 45))
    cx = sum(p[0] for p in shape) / 3
    cy = sum(p[1] for p in shape) / 3
    centred_text(draw, (cx, cy), label, max(12, round(side * 0.26)), TEXT)
    return image


# --- the board ------------------------------------------------------------------------


class Lattice:
    """Grid points to whole pixels: side even, so half a side is a whole pixel."""

    def __init__(self, side: int, min_x2: int, max_y: int, left: int, top: int) -> None:
        self.side = side
        self.height = round(side * math.sqrt(3) / 2)
        self.left = left - min_x2 * side // 2
        self.top = top + max_y * self.height

    def pixel(self, point: list[int]) -> tuple[int, int]:
        """Where grid point (x, y) lands; y grows upwards on the table."""
        x, y = point
        return self.left + (2 * x + y) * self.side // 2, self.top - y * self.height


def extent(triangles: list[list[list[int]]]) -> tuple[int, int, int, int]:
    """(min 2x+y, max 2x+y, min y, max y) over every point: the table's bounding box."""
    xs = [2 * x + y for tri in triangles for x, y in tri]
    ys = [y for tri in triangles for _, y in tri]
    return min(xs), max(xs), min(ys), max(ys)


def choose_side(width_halves: int, rows: int) -> int:
    """The largest even side that fits the board area, within the readable range."""
    fit_w = MAX_BOARD[0] * 2 / max(width_halves, 1)
    fit_h = MAX_BOARD[1] / max(rows * math.sqrt(3) / 2, 0.1)
    side = int(min(fit_w, fit_h, SIDE_RANGE[1]))
    return max(SIDE_RANGE[0], side - side % 2)


def is_up(points: list[list[int]]) -> bool:
    """Up cells have two corners on their lower row, down cells one."""
    low = min(y for _, y in points)
    return sum(1 for _, y in points if y == low) == 2


def sprite_origin(lattice: Lattice, points: list[list[int]]) -> tuple[int, int]:
    """Top-left pixel of a cell's sprite."""
    pixels = [lattice.pixel(p) for p in points]
    return min(x for x, _ in pixels), min(y for _, y in pixels)


def draw_board(view: dict, image: Image.Image, lattice: Lattice) -> None:
    """Open places, the last card's glow, then the cards."""
    side = lattice.side
    for place in view["places"]:
        points = place["points"]
        sprite = place_sprite(place["label"], is_up(points), side)
        image.paste(sprite, sprite_origin(lattice, points), sprite)
    last = view.get("last_card")
    if last is not None and 0 <= last < len(view["table"]):
        # A glow under the card shows in the seams and on free sides without covering
        # the numbers at its corners.
        outline = [lattice.pixel(p) for p in view["table"][last]["points"]]
        glow = inset(tuple(outline), -max(3, side // 22))
        ImageDraw.Draw(image).polygon(glow, fill=HIGHLIGHT)
    for card in view["table"]:
        points = card["points"]
        values = None if card["joker"] else tuple(card["values"])
        sprite = card_sprite(values, is_up(points), side)
        image.paste(sprite, sprite_origin(lattice, points), sprite)


def seat_name(seat: int) -> str:
    """How a seat is named on the picture."""
    return f"Player {SEAT_LETTERS[seat]}"


def winners(view: dict) -> list[int]:
    """Seats with the most tokens among those still playing."""
    active = [s for s in range(len(view["scores"])) if s not in view["resigned"]]
    best = max((view["scores"][s] for s in active), default=0)
    return [s for s in active if view["scores"][s] == best]


def draw_header(view: dict, draw: ImageDraw.ImageDraw, width: int) -> None:
    """Whose turn (or who won), the last-round warning, pot and bank."""
    draw.rectangle((0, 0, width, HEADER), fill=PANEL)
    mid = HEADER // 2
    if view["over"]:
        best = winners(view)
        names = " & ".join(seat_name(s) for s in best)
        text = f"Game over: {names} {'win' if len(best) > 1 else 'wins'}!"
        draw.text((MARGIN, mid), text, font=font(22), fill=HIGHLIGHT, anchor="lm")
    elif view["to_move"]:
        seat = view["to_move"][0]
        draw.ellipse((MARGIN, mid - 11, MARGIN + 22, mid + 11), fill=SEAT_COLOURS[seat])
        draw.text((MARGIN + 32, mid), f"{seat_name(seat)} to play", font=font(22), fill=TEXT, anchor="lm")
    right = f"Pot: {view['pot_size']} cards    Bank: {view['bank']} tokens"
    draw.text((width - MARGIN, mid), right, font=font(18), fill=TEXT, anchor="rm")


def draw_coin(draw: ImageDraw.ImageDraw, x: int, y: int, r: int) -> None:
    """A token."""
    draw.ellipse((x - r, y - r, x + r, y + r), fill=HIGHLIGHT, outline=INK, width=2)


def draw_card_icon(draw: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A tiny face-down card, for hand sizes."""
    draw.polygon([(x, y - 9), (x + 9, y + 7), (x - 9, y + 7)], fill=TEXT, outline=INK)


def draw_chip(draw: ImageDraw.ImageDraw, view: dict, seat: int, box: tuple, viewer: int | None) -> None:
    """A seat's letter, tokens and cards in hand; the seat to play is framed in yellow."""
    x0, y0, _, y1 = box
    turn = seat in view["to_move"]
    gone = seat in view["resigned"]
    edge = HIGHLIGHT if turn else SEAT_COLOURS[seat]
    draw.rounded_rectangle(box, radius=10, fill=BACKGROUND, outline=edge, width=4 if turn else 2)
    cy = (y0 + y1) // 2
    ring = TEXT if seat == viewer else SEAT_COLOURS[seat]
    draw.ellipse((x0 + 8, cy - 15, x0 + 38, cy + 15), fill=SEAT_COLOURS[seat], outline=ring, width=3)
    centred_text(draw, (x0 + 23, cy), SEAT_LETTERS[seat], 18, INK)
    draw_coin(draw, x0 + 56, cy, 10)
    draw.text((x0 + 71, cy), str(view["scores"][seat]), font=font(22), fill=TEXT, anchor="lm")
    if gone:
        draw.text((x0 + 104, cy), "left", font=font(16), fill=MUTED, anchor="lm")
        return
    draw_card_icon(draw, x0 + 112, cy)
    draw.text((x0 + 125, cy), str(view["hand_sizes"][seat]), font=font(20), fill=TEXT, anchor="lm")


def draw_footer(view: dict, draw: ImageDraw.ImageDraw, top: int, width: int, viewer: int | None) -> None:
    """One chip per seat, the last move's bonuses and the last-round warning."""
    draw.rectangle((0, top, width, top + FOOTER), fill=PANEL)
    seats = len(view["scores"])
    chip_w = (width - MARGIN * 2) // seats
    for seat in range(seats):
        x0 = MARGIN + seat * chip_w
        draw_chip(draw, view, seat, (x0 + 3, top + 10, x0 + chip_w - 3, top + 58), viewer)
    draw.text((MARGIN, top + 78), last_move_text(view), font=font(17), fill=TEXT, anchor="lm")
    if view["last_round"] and not view["over"]:
        draw.text((width - MARGIN, top + 78), "LAST ROUND", font=font(18), fill=HIGHLIGHT, anchor="rm")


def last_move_text(view: dict) -> str:
    """One line saying what just happened, bonuses included."""
    move = view.get("last_move")
    if move is None:
        return "The first card is on the table."
    who = seat_name(move["seat"])
    kind = move["type"]
    if kind == "buy":
        return f"{who} bought a card."
    if kind == "pass":
        return f"{who} passed."
    if kind == "take_joker":
        return f"{who} took back the joker."
    bonus = view.get("last_bonus") or {}
    reasons = ["card"]
    if bonus.get("hexagons"):
        count = bonus["hexagons"]
        reasons.append("hexagon" if count == 1 else f"{count} hexagons")
    if bonus.get("bridge"):
        reasons.append("bridge")
    if bonus.get("last_card"):
        reasons.append("last card")
    paid = bonus.get("paid", 0)
    tokens = "token" if paid == 1 else "tokens"
    return f"{who} placed a card: +{paid} {tokens} ({' + '.join(reasons)})."


def render(view: dict, *, viewer: int | None = None) -> bytes:
    """The public table as PNG; reads only public keys (never `hand` or `fits`)."""
    shapes = [c["points"] for c in view["table"]] + [p["points"] for p in view["places"]]
    min_x2, max_x2, min_y, max_y = extent(shapes)
    side = choose_side(max_x2 - min_x2, max_y - min_y)
    height = round(side * math.sqrt(3) / 2)
    board_w = (max_x2 - min_x2) * side // 2
    board_h = (max_y - min_y) * height
    width = max(MIN_WIDTH, board_w + 2 * MARGIN)
    total_h = HEADER + board_h + 2 * MARGIN + FOOTER
    image = Image.new("RGB", (width, total_h), BACKGROUND)
    lattice = Lattice(side, min_x2, max_y, (width - board_w) // 2, HEADER + MARGIN)
    draw_board(view, image, lattice)
    draw = ImageDraw.Draw(image)
    draw_header(view, draw, width)
    draw_footer(view, draw, total_h - FOOTER, width, viewer)
    return encode(image)


def encode(image: Image.Image) -> bytes:
    """PNG of a palette version: the flat card colours survive, encoding is 3x faster."""
    return to_palette_png(image, 128)


# --- a hand ---------------------------------------------------------------------------


def render_hand(view: dict, seat: int | None = None) -> bytes:
    """The viewing seat's hand (or, with open hands, `seat`'s), cards numbered 1..n."""
    if seat is None:
        cards, fits, title = view["hand"], view.get("fits"), "Your hand"
    else:
        cards, fits, title = view["hands"][seat], None, f"{seat_name(seat)}'s hand"
    side = HAND_SIDE
    card_h = round(side * math.sqrt(3) / 2)
    cell_w, cell_h = side + 24, card_h + 70
    columns = max(1, min(HAND_COLUMNS, len(cards)))
    rows = max(1, math.ceil(len(cards) / HAND_COLUMNS))
    width = max(420, columns * cell_w + 2 * MARGIN)
    image = Image.new("RGB", (width, 56 + rows * cell_h + MARGIN), BACKGROUND)
    draw = ImageDraw.Draw(image)
    count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
    draw.text((MARGIN, 28), f"{title}: {count}", font=font(22), fill=TEXT, anchor="lm")
    if not cards:
        draw.text((MARGIN, 80), "No cards: buy one on your turn.", font=font(18), fill=MUTED, anchor="lm")
    for index, card in enumerate(cards):
        x = MARGIN + (index % HAND_COLUMNS) * cell_w + 12
        y = 56 + (index // HAND_COLUMNS) * cell_h
        values = None if card.get("joker") else tuple(card["values"])
        sprite = card_sprite(values, True, side)
        image.paste(sprite, (x, y), sprite)
        centred_text(draw, (x + side // 2, y + card_h + 20), str(index + 1), 24, HIGHLIGHT)
        if fits is not None:
            centred_text(draw, (x + side // 2, y + card_h + 48), fits_text(fits[index]), 14, MUTED)
    return encode(image)


def fits_text(fits: list) -> str:
    """Which places a card fits, short enough for a caption."""
    labels = sorted({label for label, _ in fits}, key=int)
    if not labels:
        return "fits nowhere yet"
    shown = ", ".join(labels[:5]) + (" ..." if len(labels) > 5 else "")
    return f"fits {shown}"
