"""My First Triominos pictures: the public table and a player's own hand.

Every card is a sprite pasted onto a lattice whose points land on whole pixels, so
neighbouring cards line up exactly. Each card face is drawn once, supersampled, as a
master (`master_sprite`); the size the table needs is scaled from it.

A board is mapped onto one palette learnt once (`palette`), and only what changed is
drawn: the table area on the palette is kept (`AREAS`), the next one is the last with
the changed boxes drawn again (`TableArea.compose` gives any box exactly as a whole
drawing does), and the place numbers and the panels are pasted from pieces mapped
once. `render` is thus `board_image` on the palette, to the byte.

What just happened is worded once, by `narrate`, for the board and the bot's message.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from locales import DEFAULT, N_, gettext, ngettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    Palette,
    centred_text,
    font,
    paste,
    seat_label,
    seat_tag,
    star_points,
    supersampled,
    to_png,
    wrap,
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
MAX_BOARD = (940, 680)  # the board never grows past this; cards shrink instead
MIN_WIDTH = 680
SIDE_RANGE = (20, 128)  # 20: even a 36-card line stays inside MAX_BOARD
HEADER = 50
CHIPS = 66  # the footer's band of seat chips, above the lines saying what happened
LINE = 26
CHIP_H = 48
TAG = 26  # the side of the seat tag in the header
MARGIN = 20
NARRATION_SIZE = 17
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


def row_height(side: int) -> int:
    """The height of a card of `side` in whole pixels."""
    return round(side * math.sqrt(3) / 2)


# Every face a card can show at a cell's clockwise corners: each card in each rotation.
FACES: tuple[tuple[int, int, int], ...] = tuple(
    sorted(
        {
            (card[turn], card[(turn + 1) % 3], card[(turn + 2) % 3])
            for card in ((a, b, c) for a in range(1, 6) for b in range(a, 6) for c in range(b, 6))
            for turn in range(3)
        }
    )
)


@cache
def master_sprite(values: tuple[int, int, int] | None, up: bool, pips: bool) -> Image.Image:
    """A card drawn once, supersampled, at the largest side it is shown at with (or
    without) its small triangles; every other size is scaled from it (`card_sprite`)."""
    side = SIDE_RANGE[1] if pips else PIPS_FROM_SIDE - 2
    height = row_height(side)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big_side = side * k
        card = inset(corners(big_side, height * k, up), 1.6 * k)
        centre = (sum(p[0] for p in card) / 3, sum(p[1] for p in card) / 3)
        line = max(k, round(big_side / 55))
        if values is None:
            draw.polygon(card, fill=JOKER_FACE, outline=INK, width=line)
            star_centre = centre if up else (centre[0], centre[1] - big_side * 0.02)
            star = star_points(star_centre, big_side * 0.2, big_side * 0.09)
            draw.polygon(star, fill=HIGHLIGHT, outline=INK, width=line)
        else:
            draw_number_card(draw, card, centre, values, big_side, line, pips=pips)

    return supersampled((side + 1, height + 1), paint)


@lru_cache(maxsize=256)
def card_sprite(values: tuple[int, int, int] | None, up: bool, side: int) -> Image.Image:
    """An RGBA card (values at the clockwise corners; None = joker) of the given side.

    Scaled from its master, a fraction of a millisecond: drawing it afresh at each side
    the table shrinks to would cost a few milliseconds per card.
    """
    master = master_sprite(values, up, side >= PIPS_FROM_SIDE)
    size = (side + 1, row_height(side) + 1)
    return master if master.size == size else master.resize(size, Image.Resampling.LANCZOS)


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


@cache
def place_shape(up: bool, side: int) -> Image.Image:
    """An open place without its label: a faint outlined triangle."""
    height = row_height(side)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        shape = inset(corners(side * k, height * k, up), 3 * k)
        draw.polygon(shape, fill=PLACE_FILL, outline=PLACE_EDGE, width=max(1, side // 45) * k)

    return supersampled((side + 1, height + 1), paint)


# --- the table area -------------------------------------------------------------------


Shape = tuple[tuple[int, int], ...]  # a cell's three grid points
Face = tuple[int, int, int] | None  # a card's values at those points; None for the joker
Cards = tuple[tuple[Shape, Face], ...]
Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class Lattice:
    """Grid points to whole pixels: `side` is even, so half a side is a whole pixel, and
    grid point (0, 0) lands on pixel (`left`, `top`) of a table area of `size`."""

    side: int
    left: int
    top: int
    size: tuple[int, int]

    @classmethod
    def fitting(cls, shapes: list[Shape]) -> Lattice:
        """The largest readable cards that fit every shape in the board area, centred."""
        xs = [2 * x + y for tri in shapes for x, y in tri]
        ys = [y for tri in shapes for _, y in tri]
        side = choose_side(max(xs) - min(xs), max(ys) - min(ys))
        board_w = (max(xs) - min(xs)) * side // 2
        width = max(MIN_WIDTH, board_w + 2 * MARGIN)
        left = (width - board_w) // 2 - min(xs) * side // 2
        size = (width, (max(ys) - min(ys)) * row_height(side) + 2 * MARGIN)
        return cls(side, left, MARGIN + max(ys) * row_height(side), size)

    def pixel(self, point: tuple[int, int]) -> tuple[int, int]:
        """Where grid point (x, y) lands; y grows upwards on the table."""
        x, y = point
        return self.left + (2 * x + y) * self.side // 2, self.top - y * row_height(self.side)

    def sprite_box(self, points: Shape) -> Box:
        """The box of a cell's sprite, its top-left corner where the sprite goes."""
        (ax, ay), (bx, by), (cx, cy) = points
        side, height = self.side, row_height(self.side)
        x = self.left + min(2 * ax + ay, 2 * bx + by, 2 * cx + cy) * side // 2
        y = self.top - max(ay, by, cy) * height
        return x, y, x + side + 1, y + height + 1

    def glow(self, points: Shape) -> list[tuple[int, int]]:
        """The glow under the last card: shows in the seams and on free sides without
        covering the numbers at its corners. Whole pixels, so that drawing it in any
        part of the area (`TableArea.compose`) fills the same pixels."""
        outline = tuple((float(x), float(y)) for x, y in (self.pixel(p) for p in points))
        return [(round(x), round(y)) for x, y in inset(outline, -max(3, self.side // 22))]


def choose_side(width_halves: int, rows: int) -> int:
    """The largest even side that fits the board area, within the readable range."""
    fit_w = MAX_BOARD[0] * 2 / max(width_halves, 1)
    fit_h = MAX_BOARD[1] / max(rows * math.sqrt(3) / 2, 0.1)
    side = int(min(fit_w, fit_h, SIDE_RANGE[1]))
    return max(SIDE_RANGE[0], side - side % 2)


def is_up(points: Shape) -> bool:
    """Up cells have two corners on their lower row, down cells one."""
    low = min(y for _, y in points)
    return sum(1 for _, y in points if y == low) == 2


def shape(points: list[list[int]]) -> Shape:
    return tuple((x, y) for x, y in points)


def bounds(points: list[tuple[int, int]]) -> Box:
    """The pixels a polygon may touch."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs) - 1, min(ys) - 1, max(xs) + 2, max(ys) + 2


def meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def outermost(boxes: list[Box]) -> list[Box]:
    """The boxes not inside another one."""
    unique = list(dict.fromkeys(boxes))
    return [
        box
        for box in unique
        if not any(
            o != box and o[0] <= box[0] and o[1] <= box[1] and o[2] >= box[2] and o[3] >= box[3]
            for o in unique
        )
    ]


def touches(sprite: Box, up: bool, box: Box) -> bool:
    """Whether the triangle drawn in `sprite` (its box) may colour a pixel of `box`: the
    triangle's widest row within the box's rows, widened by its soft edge, meets it."""
    top, bottom = max(box[1], sprite[1]), min(box[3], sprite[3])
    if top >= bottom or box[0] >= sprite[2] or box[2] <= sprite[0]:
        return False
    side, height = sprite[2] - sprite[0] - 1, sprite[3] - sprite[1] - 1
    row = bottom - 1 - sprite[1] if up else height - (top - sprite[1])
    half = row * side / (2 * height) + 2
    centre = sprite[0] + side / 2
    return box[0] < centre + half and box[2] > centre - half


@dataclass(frozen=True, slots=True)
class TableArea:
    """The table as drawn: cards, open places (their numbers go on top, see `labels`)
    and the last card's glow. Any box of it can be drawn again alone (`compose`), so a
    new area is made from one before by drawing again only the boxes that changed."""

    cards: Cards
    places: frozenset[Shape]
    last: int | None
    lattice: Lattice

    @classmethod
    def of(cls, view: dict) -> TableArea:
        cards = tuple(
            (shape(card["points"]), None if card["joker"] else tuple(card["values"]))
            for card in view["table"]
        )
        places = frozenset(shape(place["points"]) for place in view["places"])
        last = view.get("last_card")
        last = last if last is not None and 0 <= last < len(cards) else None
        return cls(cards, places, last, Lattice.fitting([s for s, _ in cards] + list(places)))

    def steps(self) -> list[tuple[Box, bool | None, Image.Image | list[tuple[int, int]]]]:
        """A whole drawing, in order: every place, the glow, every card; each a sprite of
        a cell pointing up or down (pasted at its box's corner) or a polygon (None), with
        the box it reaches."""
        lattice, side = self.lattice, self.lattice.side
        steps: list[tuple[Box, bool | None, Image.Image | list[tuple[int, int]]]] = []
        for points in sorted(self.places):
            up = is_up(points)
            steps.append((lattice.sprite_box(points), up, place_shape(up, side)))
        if self.last is not None:
            glow = lattice.glow(self.cards[self.last][0])
            steps.append((bounds(glow), None, glow))
        for points, face in self.cards:
            up = is_up(points)
            steps.append((lattice.sprite_box(points), up, card_sprite(face, up, side)))
        return steps

    def compose(
        self, box: Box, steps: list[tuple[Box, bool | None, Image.Image | list[tuple[int, int]]]]
    ) -> Image.Image:
        """The pixels of `box` exactly as the whole drawing gives them: the `steps` that
        reach into it, over the background."""
        x0, y0, x1, y1 = box
        image = Image.new("RGB", (x1 - x0, y1 - y0), BACKGROUND)
        for reach, up, thing in steps:
            if isinstance(thing, Image.Image):
                if up is not None and touches(reach, up, box):
                    paste(image, thing, (reach[0] - x0, reach[1] - y0))
            elif meets(reach, box):
                ImageDraw.Draw(image).polygon([(x - x0, y - y0) for x, y in thing], fill=HIGHLIGHT)
        return image

    def changes_since(self, before: TableArea) -> list[Box] | None:
        """The boxes to redraw to turn `before`'s picture into this one's (None: all)."""
        if before.lattice.side != self.lattice.side or len(before.cards) > len(self.cards):
            return None
        lattice = self.lattice
        boxes = [
            lattice.sprite_box(points)
            for index, (points, face) in enumerate(self.cards)
            if index >= len(before.cards) or before.cards[index] != (points, face)
        ]
        boxes += [lattice.sprite_box(points) for points in self.places ^ before.places]
        glows = {(area.last, area.cards[area.last][0]) for area in (self, before) if area.last is not None}
        if len(glows) != 1 or self.last != before.last:
            boxes += [bounds(lattice.glow(points)) for _, points in glows]
        return boxes if len(boxes) <= MAX_PATCHES else None

    def whole(self) -> Image.Image:
        """The whole area, drawn."""
        return self.compose((0, 0, *self.lattice.size), self.steps())

    def on_palette(self, before: tuple[TableArea, Image.Image] | None) -> Image.Image:
        """This area's picture mapped onto the palette: made from `before` (a previous
        area and its mapped picture) if only a few boxes need drawing, else whole."""
        boxes = None if before is None else self.changes_since(before[0])
        if before is None or boxes is None:
            return mapped(self.whole())
        old, old_image = before
        steps = self.steps()
        image = blank(self.lattice.size, BACKGROUND)
        # The same side: the old picture, moved by how far the table's origin moved.
        image.paste(old_image, (self.lattice.left - old.lattice.left, self.lattice.top - old.lattice.top))
        for box in outermost(boxes):
            image.paste(mapped(self.compose(box, steps)), box[:2])
        return image


MAX_PATCHES = 12  # more changed boxes than this: drawing the area whole is as quick


class AreaCache:
    """The last few table areas mapped onto the palette, to make the next from the closest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.areas: dict[TableArea, Image.Image] = {}
        self.lock = threading.Lock()

    def on_palette(self, area: TableArea) -> Image.Image:
        with self.lock:
            found = self.areas.get(area)
            candidates = list(self.areas.items())
        if found is not None:
            return found
        image = area.on_palette(closest(area, candidates))
        with self.lock:
            self.areas[area] = image
            while len(self.areas) > self.size:
                del self.areas[next(iter(self.areas))]
        return image

    def clear(self) -> None:
        with self.lock:
            self.areas.clear()


AREAS = AreaCache(8)


def closest(
    area: TableArea, candidates: list[tuple[TableArea, Image.Image]]
) -> tuple[TableArea, Image.Image] | None:
    """The candidate to make `area` from with the fewest boxes redrawn: most often the
    area drawn last, so that is asked first."""
    best, fewest = None, MAX_PATCHES + 1
    for candidate in reversed(candidates):
        changes = area.changes_since(candidate[0]) if candidate[0].lattice.side == area.lattice.side else None
        if changes is not None and len(changes) < fewest:
            best, fewest = candidate, len(changes)
            if fewest <= FEW_PATCHES:
                break
    return best


FEW_PATCHES = 6  # a placement's usual boxes: good enough, look no further


@lru_cache(maxsize=256)
def label_stamp(text: str, size: int) -> tuple[Image.Image, Image.Image, int, int]:
    """A place's number written on the place's colour, the mask of the pixels the
    writing touches, and its offset from the place's centre."""
    sprite, left, top = text_sprite(text, size, TEXT, "mm")
    image = Image.new("RGB", sprite.size, PLACE_FILL)
    paste(image, sprite, (0, 0))
    return image, sprite.getchannel("A").point(lambda alpha: 255 if alpha else 0), left, top


def labels(view: dict, lattice: Lattice, top: int) -> list[tuple[str, int, tuple[int, int]]]:
    """Each open place's number, its size and where its stamp goes: numbers change with
    every card laid, so they are written over the cached table area, not kept in it."""
    size = max(12, round(lattice.side * 0.26))
    found = []
    for place in view["places"]:
        pixels = [lattice.pixel(p) for p in shape(place["points"])]
        _, _, left, up = label_stamp(place["label"], size)
        x, y = sum(x for x, _ in pixels) / 3, sum(y for _, y in pixels) / 3
        found.append((place["label"], size, (round(x + left), round(y + up) + top)))
    return found


# --- what happened --------------------------------------------------------------------

HEXAGONS = {1: N_("a hexagon"), 2: N_("two hexagons"), 3: N_("three hexagons")}


def tokens(count: int, lang: str = DEFAULT) -> str:
    """ "1 token", "3 tokens"."""
    return ngettext(lang, "{n} token", "{n} tokens", count)


def narrate(view: dict, name: Callable[[int], str], lang: str = DEFAULT) -> list[str]:
    """The sentences saying what the last move (or the deal) did; `name(seat)` names a seat.

    The one wording of every event: the board writes it with seat letters, the bot's
    message with mentions.
    """
    event = view["last_event"]
    if event is None:
        return []
    kind, who = event["type"], name(event["seat"]) if event.get("seat") is not None else ""
    if kind == "start":
        return [
            gettext(lang, "The first card is on the table."),
            gettext(lang, "{who} was drawn to start.", who=who),
        ]
    if kind == "place":
        return _placed(event, who, lang)
    if kind == "take_joker":
        return [gettext(lang, "{who} took back the joker and put a card in its place.", who=who)]
    if kind == "buy":
        said = [gettext(lang, "{who} paid 1 token and drew a card.", who=who)]
        if event.get("pot_emptied"):
            said.append(gettext(lang, "That was the last card of the pot."))
        return said
    if kind == "pass":
        if event.get("reason") == "empty_pot":
            return [gettext(lang, "{who} passed: no card fits and the pot is empty.", who=who)]
        return [gettext(lang, "{who} passed: no card fits and no token is left to buy one.", who=who)]
    if kind == "resign":
        return [gettext(lang, "{who} left the game.", who=who)]
    return []


def _placed(event: dict, who: str, lang: str) -> list[str]:
    """A placed card: the tokens it earned, and why."""
    reasons = [pgettext(lang, "token for", "card")]
    hexagons = event["hexagons"]
    if hexagons:
        reasons.append(
            gettext(lang, HEXAGONS[hexagons])
            if hexagons in HEXAGONS
            else gettext(lang, "{count} hexagons", count=hexagons)
        )
    if event["bridge"]:
        reasons.append(gettext(lang, "a bridge"))
    if event["last_card"]:
        reasons.append(gettext(lang, "the last card"))
    paid, why = tokens(event["paid"], lang), " + ".join(reasons)
    if event["joker"]:
        said = [
            gettext(lang, "{who} placed the joker: +{tokens} ({reasons}).", who=who, tokens=paid, reasons=why)
        ]
    else:
        said = [
            gettext(lang, "{who} placed a card: +{tokens} ({reasons}).", who=who, tokens=paid, reasons=why)
        ]
    if event["paid"] < event["earned"]:
        said.append(gettext(lang, "The bank held only {tokens}.", tokens=paid))
    return said


# --- header and footer ----------------------------------------------------------------

# A piece of the header or footer, drawn and mapped once: ("text", text, size, colour,
# anchor, background), ("tag", seat) or ("chip", seat, width, to play?, viewer's?, left?, language).
Piece = tuple


@lru_cache(maxsize=512)
def text_sprite(text: str, size: int, fill: RGB, anchor: str) -> tuple[Image.Image, int, int]:
    """`text` as an RGBA sprite and its offset from the anchor point: drawn once."""
    face = font(size)
    left, top, right, bottom = (round(edge) for edge in face.getbbox(text, anchor=anchor))
    image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((-left, -top), text, font=face, fill=fill, anchor=anchor)
    return image, left, top


def put_text(
    image: Image.Image, at: tuple[float, float], text: str, size: int, fill: RGB = TEXT, anchor: str = "lm"
) -> None:
    """Write `text` as `draw.text` would (`anchor` as there), from the sprite cache."""
    sprite, left, top = text_sprite(text, size, fill, anchor)
    paste(image, sprite, (round(at[0] + left), round(at[1] + top)))


@lru_cache(maxsize=512)
def piece_image(piece: Piece) -> Image.Image:
    """A piece of a panel, on the panel's colour."""
    kind, *spec = piece
    if kind == "text":
        text, size, fill, anchor, background = spec
        sprite, _, _ = text_sprite(text, size, fill, anchor)
        image = Image.new("RGB", sprite.size, background)
        paste(image, sprite, (0, 0))
        return image
    if kind == "tag":
        (seat,) = spec
        image = Image.new("RGB", (TAG + 2, TAG + 2), PANEL)
        seat_tag(ImageDraw.Draw(image), (TAG / 2 + 1, TAG / 2 + 1), seat, TAG)
        return image
    return chip(*spec)


@lru_cache(maxsize=512)
def piece_on_palette(piece: Piece) -> Image.Image:
    return mapped(piece_image(piece))


def chip(seat: int, width: int, turn: bool, mine: bool, gone: bool, lang: str = DEFAULT) -> Image.Image:
    """A seat's chip without its numbers: its letter, a token and a card (or that it
    left); the seat to play is framed in yellow, the viewer's letter ringed."""
    image = Image.new("RGB", (width, CHIP_H), PANEL)
    draw = ImageDraw.Draw(image)
    edge = HIGHLIGHT if turn else SEAT_COLOURS[seat]
    draw.rounded_rectangle(
        (0, 0, width - 1, CHIP_H - 1), radius=10, fill=BACKGROUND, outline=edge, width=4 if turn else 2
    )
    cy = CHIP_H // 2
    if mine:
        draw.rounded_rectangle((3, cy - 17, 37, cy + 17), radius=8, outline=TEXT, width=2)
    seat_tag(draw, (20, cy), seat, 28)
    draw.ellipse((43, cy - 10, 63, cy + 10), fill=HIGHLIGHT, outline=INK, width=2)  # a token
    if gone:
        put_text(image, (101, cy), pgettext(lang, "score panel", "left"), 16, MUTED)
    else:
        draw.polygon([(109, cy - 9), (118, cy + 7), (100, cy + 7)], fill=TEXT, outline=INK)  # a card
    return image


def panels(
    view: dict, width: int, footer: int, viewer: int | None, lang: str = DEFAULT
) -> list[tuple[Piece, tuple[int, int]]]:
    """The pieces of the header (whose turn or who won, pot and bank) and of the footer
    at row `footer` (a chip per seat, what happened, the last-round warning), placed."""
    pieces: list[tuple[Piece, tuple[int, int]]] = []

    def text(
        at: tuple[float, float], words: str, size: int, fill: RGB = TEXT, anchor: str = "lm", on: RGB = PANEL
    ) -> int:
        sprite, left, top = text_sprite(words, size, fill, anchor)
        pieces.append((("text", words, size, fill, anchor, on), (round(at[0] + left), round(at[1] + top))))
        return sprite.width

    mid = HEADER // 2
    winners = view["winners"]
    if winners is not None:
        text((MARGIN, mid), _result(winners, lang), 22, HIGHLIGHT)
    elif view["to_move"]:
        pieces.append((("tag", view["to_move"][0]), (MARGIN - 1, mid - TAG // 2 - 1)))
        text((MARGIN + 36, mid), gettext(lang, "to play"), 22)
    bank = text(
        (width - MARGIN, mid), gettext(lang, "Bank: {count} tokens", count=view["bank"]), 18, anchor="rm"
    )
    pot = gettext(lang, "Pot: {count} cards", count=view["pot_size"])
    text((width - MARGIN - bank - 30, mid), pot, 18, anchor="rm")

    chip_w = (width - MARGIN * 2) // view["players"]
    middle = footer + 10 + CHIP_H // 2
    for seat in range(view["players"]):
        x = MARGIN + seat * chip_w + 3
        gone = seat in view["resigned"]
        pieces.append(
            (
                ("chip", seat, chip_w - 6, seat in view["to_move"], seat == viewer, gone, lang),
                (x, footer + 10),
            )
        )
        text((x + 68, middle), str(view["scores"][seat]), 22, on=BACKGROUND)
        if not gone:
            text((x + 122, middle), str(view["hand_sizes"][seat]), 20, on=BACKGROUND)
    for number, line in enumerate(footer_lines(view, width, lang)):
        text((MARGIN, footer + CHIPS + LINE // 2 + number * LINE), line, NARRATION_SIZE)
    if last_round_running(view):
        text((width - MARGIN, footer + CHIPS + LINE // 2), gettext(lang, "LAST ROUND"), 18, HIGHLIGHT, "rm")
    return pieces


def _result(winners: list[int], lang: str) -> str:
    if not winners:
        return gettext(lang, "Game over: Nobody wins!")
    names = " & ".join(seat_label(s) for s in winners)
    if len(winners) > 1:
        return gettext(lang, "Game over: {seats} win!", seats=names)
    return gettext(lang, "Game over: {seats} wins!", seats=names)


def footer_lines(view: dict, width: int, lang: str = DEFAULT) -> tuple[str, ...]:
    """What happened, wrapped beside the last-round warning."""
    room = width - 2 * MARGIN - (140 if last_round_running(view) else 0)
    return tuple(wrap(" ".join(narrate(view, seat_label, lang)), room, NARRATION_SIZE))


def last_round_running(view: dict) -> bool:
    return bool(view["last_round"] and view["to_move"])


def footer_height(lines: tuple[str, ...]) -> int:
    return CHIPS + LINE * max(1, len(lines)) + 4


# --- the board ------------------------------------------------------------------------


def board_image(view: dict, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The public table in `lang` as an RGB image; reads only public keys (never `hand` or `fits`).

    `render` gives this very image mapped onto the palette, made from parts mapped once."""
    area = TableArea.of(view)
    width, height = area.lattice.size
    image = Image.new("RGB", (width, HEADER + height + footer_height(footer_lines(view, width, lang))), PANEL)
    image.paste(area.whole(), (0, HEADER))
    for label, size, at in labels(view, area.lattice, HEADER):
        stamp, mask, _, _ = label_stamp(label, size)
        image.paste(stamp, at, mask)
    for piece, at in panels(view, width, HEADER + height, viewer, lang):
        image.paste(piece_image(piece), at)
    return image


def render(view: dict, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """The public table as PNG, its words in `lang`: `board_image` on the palette, exactly.

    Only what changed is drawn and mapped onto the palette: the table area's mapped
    picture is kept (`AREAS`) and the next one made from it; the place numbers and
    the pieces of the panels are pasted from mapped stamps.
    """
    ready()
    area = TableArea.of(view)
    width, height = area.lattice.size
    image = blank((width, HEADER + height + footer_height(footer_lines(view, width, lang))), PANEL)
    image.paste(AREAS.on_palette(area), (0, HEADER))
    for label, size, at in labels(view, area.lattice, HEADER):
        stamp, mask = mapped_stamp(label, size)
        image.paste(stamp, at, mask)
    for piece, at in panels(view, width, HEADER + height, viewer, lang):
        image.paste(piece_on_palette(piece), at)
    return to_png(image)


@cache
def ready() -> None:
    """Learn the palette (drawing every card's masters), then draw and map what every
    game shows: the open places at every side, the panels' numbers, the place numbers
    of the first cards and the chips of a narrow board. Once per process, so that no
    board waits for them."""
    palette()
    for side in range(SIDE_RANGE[0], SIDE_RANGE[1] + 1, 2):
        place_shape(True, side)
        place_shape(False, side)
    for number in range(ALL_TOKENS + 1):
        for size in (20, 22):
            piece_on_palette(("text", str(number), size, TEXT, "lm", BACKGROUND))
        piece_on_palette(("text", f"Bank: {number} tokens", 18, TEXT, "rm", PANEL))
        piece_on_palette(("text", f"Pot: {number} cards", 18, TEXT, "rm", PANEL))
    for label in range(1, 41):
        mapped_stamp(str(label), max(12, round(SIDE_RANGE[1] * 0.26)))
    for players in range(2, 5):  # the chips of a board of the narrowest width
        for seat in range(players):
            for turn in (True, False):
                piece_on_palette(
                    ("chip", seat, (MIN_WIDTH - 2 * MARGIN) // players - 6, turn, False, False, DEFAULT)
                )


ALL_TOKENS = 60  # the most tokens, cards in the pot or in a hand any seat can show


@lru_cache(maxsize=256)
def mapped_stamp(label: str, size: int) -> tuple[Image.Image, Image.Image]:
    stamp, mask, _, _ = label_stamp(label, size)
    return mapped(stamp), mask


def mapped(image: Image.Image) -> Image.Image:
    """`image` on the palette, mapped once to be pasted into boards as it is."""
    return palette().map(image)


def blank(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A palette image of `colour`, to paste mapped parts into."""
    image = Image.new("P", size, palette_index(colour))
    image.putpalette(palette_colours())
    return image


@cache
def palette_index(colour: RGB) -> int:
    return int(mapped(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)))  # type: ignore[arg-type]


@cache
def palette_colours() -> bytes:
    return bytes(palette().image.getpalette() or [])


# --- a hand ---------------------------------------------------------------------------


def hand_image(view: dict, seat: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The viewing seat's hand (or, with open hands, `seat`'s) in `lang`, cards numbered 1..n."""
    if seat is None:
        cards, fits = view["hand"], view.get("fits")
        title = ngettext(lang, "Your hand: {n} card", "Your hand: {n} cards", len(cards))
    else:
        cards, fits = view["hands"][seat], None
        title = ngettext(
            lang,
            "{seat}'s hand: {n} card",
            "{seat}'s hand: {n} cards",
            len(cards),
            seat=seat_label(seat),
        )
    side = HAND_SIDE
    card_h = row_height(side)
    cell_w, cell_h = side + 24, card_h + 70
    columns = max(1, min(HAND_COLUMNS, len(cards)))
    rows = max(1, math.ceil(len(cards) / HAND_COLUMNS))
    width = max(420, columns * cell_w + 2 * MARGIN)
    image = Image.new("RGB", (width, 56 + rows * cell_h + MARGIN), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 28), title, font=font(22), fill=TEXT, anchor="lm")
    if not cards:
        empty = gettext(lang, "No cards: buy one on your turn.")
        draw.text((MARGIN, 80), empty, font=font(18), fill=MUTED, anchor="lm")
    for index, card in enumerate(cards):
        x = MARGIN + (index % HAND_COLUMNS) * cell_w + 12
        y = 56 + (index // HAND_COLUMNS) * cell_h
        values = None if card.get("joker") else tuple(card["values"])
        paste(image, card_sprite(values, True, side), (x, y))
        centred_text(draw, (x + side // 2, y + card_h + 20), str(index + 1), 24, HIGHLIGHT)
        if fits is not None:
            caption = wrap(fits_text(fits[index], lang), cell_w - 8, 14)[:2]
            for line, text in enumerate(caption):
                centred_text(
                    draw,
                    (x + side // 2, y + card_h + 48 + 16 * line - 8 * (len(caption) - 1)),
                    text,
                    14,
                    MUTED,
                )
    return image


def render_hand(view: dict, seat: int | None = None, lang: str = DEFAULT) -> bytes:
    """A hand as PNG, its words in `lang` (see `hand_image`)."""
    return palette().png(hand_image(view, seat, lang))


def fits_text(fits: list, lang: str = DEFAULT) -> str:
    """Which places a card fits, short enough for a caption."""
    labels = sorted({label for label, _ in fits}, key=int)
    if not labels:
        return gettext(lang, "fits nowhere yet")
    shown = ", ".join(labels[:5]) + (" …" if len(labels) > 5 else "")
    return gettext(lang, "fits {places}", places=shown)


# --- the palette ----------------------------------------------------------------------


@cache
def palette() -> Palette:
    """The one palette of every Triominos picture, learnt from everything they draw: the
    cards (with and without their small triangles, up and down), open places, the glow,
    both panels with all four seats, a hand, and every flat colour.

    It first draws every card's masters (about two seconds, once), so that no board
    waits for one; boards are then only mapped onto the palette.
    """
    kinds = [(up, pips) for up in (True, False) for pips in (True, False)]
    for face in (*FACES, None):
        for up, pips in kinds:
            master_sprite(face, up, pips)
    # The colours of every card are those of the one-colour cards and the joker.
    learnt = [master_sprite(face, up, pips) for face in (*TRIPLES, None) for up, pips in kinds]
    sheet = Image.new("RGB", (sum(m.width for m in learnt), max(m.height for m in learnt)), BACKGROUND)
    x = 0
    for master in learnt:
        paste(sheet, master, (x, 0))
        x += master.width
    cards = [{"values": list(face)} for face in FACES[:6]] + [{"joker": True}]
    hand = hand_image({"hand": cards, "fits": [[["1", 0]]] + [[] for _ in cards[1:]]})
    return Palette.learn([board_image(sample_view(), viewer=0), hand, sheet, swatches()])


TRIPLES = tuple((value,) * 3 for value in VALUE_COLOURS)


def swatches() -> Image.Image:
    """Every flat colour drawn, in blocks big enough that the palette keeps each exactly."""
    flat = [
        BACKGROUND, PANEL, TEXT, MUTED, HIGHLIGHT, INK, JOKER_FACE, PLACE_FILL, PLACE_EDGE, (255, 255, 255),
        *SEAT_COLOURS[:4], *VALUE_COLOURS.values(),
    ]  # fmt: skip
    image = Image.new("RGB", (SWATCH * len(flat), SWATCH))
    for index, colour in enumerate(flat):
        image.paste(colour, (index * SWATCH, 0, (index + 1) * SWATCH, SWATCH))
    return image


SWATCH = 160  # pixels a side


def sample_view() -> dict:
    """A made-up running game of four seats: cards up and down, the joker, open places,
    the glow of the last card, every panel item. Only for learning the palette."""
    up = [[[x, 1], [x + 1, 0], [x, 0]] for x in range(4)]
    down = [[[x, 1], [x + 1, 1], [x + 1, 0]] for x in range(4)]
    faces = [[1, 2, 3], [3, 4, 5], [5, 1, 2], [4, 4, 4], [2, 5, 1], [1, 1, 3], [2, 2, 5]]
    table = [{"points": p, "values": v, "joker": False} for p, v in zip(up + down, faces, strict=False)]
    table.append({"points": down[-1], "values": [None, None, None], "joker": True})
    places = [{"label": str(n + 1), "points": [[x, 2], [x + 1, 1], [x, 1]]} for n, x in enumerate(range(4))]
    return {
        "players": 4,
        "to_move": [1],
        "scores": [4, 12, 7, 0],
        "last_event": {"type": "buy", "seat": 0, "pot_emptied": True},
        "winners": None,
        "resigned": [3],
        "table": table,
        "places": places,
        "hand_sizes": [6, 5, 9, 0],
        "pot_size": 0,
        "bank": 37,
        "last_round": True,
        "last_card": 2,
    }
