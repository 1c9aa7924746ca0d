"""Drawing Triominos pictures: card sprites, the table area, the header and footer, the
whole board and a hand, all in RGB (`render.triominos.board` maps them onto the palette).

Every card is a sprite pasted onto a lattice whose points land on whole pixels, so
neighbouring cards line up exactly. Each card face is drawn once, supersampled, as a
master (`master_sprite`); the size the table needs is scaled from it. Whatever is drawn
once and kept is kept as a `Frozen`: immutable bytes, a fresh image at each use.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from games.triominos import FACES as CARD_FACES
from games.triominos import PlaceFit, TriominosView
from locales import DEFAULT, gettext, ngettext, pgettext
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
    note_text_size,
    paste,
    seat_label,
    seat_tag,
    star_points,
    supersampled,
    wrap,
)
from render.frozen import Frozen
from render.triominos.layout import (
    CAPTION,
    CAPTION_LINE,
    CHIP_H,
    CHIPS,
    HAND_COLUMNS,
    HAND_SIDE,
    HEADER,
    LINE,
    MARGIN,
    NARRATION_SIZE,
    PIPS_FROM_SIDE,
    SIDE_RANGE,
    SMALL,
    TAG,
    Box,
    Corner,
    Lattice,
    Shape,
    bounds,
    corners,
    inset,
    is_up,
    lerp,
    meets,
    row_height,
    shape,
    touches,
)
from render.triominos.narration import (
    bank_text,
    fits_text,
    footer_lines,
    last_round_running,
    pot_text,
    result,
)
from render.triominos.palette import INK, JOKER_FACE, PLACE_EDGE, PLACE_FILL, VALUE_COLOURS, WHITE

# --- card sprites ---------------------------------------------------------------------

Face = tuple[int, int, int] | None  # a card's values at a cell's clockwise corners; None for the joker

# Every face a card can show at a cell's clockwise corners: each card in each rotation.
FACES: tuple[tuple[int, int, int], ...] = tuple(sorted({face for faces in CARD_FACES for face in faces}))


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
            draw.polygon(triangle, fill=WHITE, outline=INK, width=max(1, int(side / 60)))


@cache
def master_sprite(values: Face, up: bool, pips: bool) -> Frozen:
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
            draw_number_card(draw, card, centre, values, big_side, line, pips=pips, shrink=k)

    return Frozen.of(supersampled((side + 1, height + 1), paint))


@lru_cache(maxsize=256)
def card_sprite(values: Face, up: bool, side: int) -> Frozen:
    """An RGBA card (values at the clockwise corners; None = joker) of the given side.

    Scaled from its master, a fraction of a millisecond: drawing it afresh at each side
    the table shrinks to would cost a few milliseconds per card.
    """
    pips = side >= PIPS_FROM_SIDE
    master = master_sprite(values, up, pips)
    size = (side + 1, row_height(side) + 1)
    if values is not None:
        note_text_size(font(digit_size(side, pips)).size)
    return master if master.size == size else Frozen.of(master.image().resize(size, Image.Resampling.LANCZOS))


def digit_size(side: float, pips: bool) -> int:
    """The font size of a card's numbers at `side` (at least the smallest words' from the
    readable side up, see `layout`)."""
    return round(side * (0.2 if pips else 0.275))


def draw_number_card(
    draw: ImageDraw.ImageDraw,
    card: list[Corner],
    centre: Corner,
    values: tuple[int, int, int],
    side: float,
    line: int,
    *,
    pips: bool,
    shrink: int = 1,
) -> None:
    """Three coloured corner zones, each with its number and (if room) its triangles (`side`
    drawn `shrink` times larger than shown)."""
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
        size = digit_size(side, pips)
        stroke = max(2, round(size / 9))
        centred_text(draw, number, str(value), size, WHITE, shrink, stroke_width=stroke, stroke_fill=INK)
        if pips:
            draw_pips(draw, tip, centre, value, side)


@cache
def place_shape(up: bool, side: int) -> Frozen:
    """An open place without its label: a faint outlined triangle."""
    height = row_height(side)

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        outline = inset(corners(side * k, height * k, up), 3 * k)
        draw.polygon(outline, fill=PLACE_FILL, outline=PLACE_EDGE, width=max(1, side // 45) * k)

    return Frozen.of(supersampled((side + 1, height + 1), paint))


# --- the table area -------------------------------------------------------------------

Cards = tuple[tuple[Shape, Face], ...]
Glow = list[tuple[int, int]]  # the polygon of the last card's glow
# One step of drawing the area: the box it reaches, whether its cell points up (None for
# the glow), and its sprite (pasted at the box's corner) or polygon.
Step = tuple[Box, bool | None, Frozen | Glow]


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
    def of(cls, view: TriominosView) -> TableArea:
        cards = tuple(
            (shape(card["points"]), None if card["joker"] else face_of(card["values"]))
            for card in view["table"]
        )
        places = frozenset(shape(place["points"]) for place in view["places"])
        last = view.get("last_card")
        last = last if last is not None and 0 <= last < len(cards) else None
        return cls(cards, places, last, Lattice.fitting([s for s, _ in cards] + list(places)))

    def steps(self) -> list[Step]:
        """A whole drawing, in order: every place, the glow, every card."""
        lattice, side = self.lattice, self.lattice.side
        steps: list[Step] = []
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

    def compose(self, box: Box, steps: list[Step]) -> Image.Image:
        """The pixels of `box` exactly as the whole drawing gives them: the `steps` that
        reach into it, over the background."""
        x0, y0, x1, y1 = box
        image = Image.new("RGB", (x1 - x0, y1 - y0), BACKGROUND)
        for reach, up, thing in steps:
            if reach[0] >= x1 or reach[2] <= x0 or reach[1] >= y1 or reach[3] <= y0:
                continue  # out of the box: most steps are
            if isinstance(thing, Frozen):
                if up is not None and touches(reach, up, box):
                    paste(image, thing.image(), (reach[0] - x0, reach[1] - y0))
            elif meets(reach, box):
                ImageDraw.Draw(image).polygon([(x - x0, y - y0) for x, y in thing], fill=HIGHLIGHT)
        return image

    def changes_since(self, before: TableArea, most: int) -> list[Box] | None:
        """The boxes to redraw to turn `before`'s picture into this one's (None: all, or
        more than `most`)."""
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
        return boxes if len(boxes) <= most else None

    def whole(self) -> Image.Image:
        """The whole area, drawn."""
        return self.compose((0, 0, *self.lattice.size), self.steps())


def face_of(values: Sequence[int | None]) -> Face:
    """A number card's values as the view lists them, as a face."""
    a, b, c = values
    assert a is not None and b is not None and c is not None  # only the joker shows no numbers
    return a, b, c


# --- words and labels -----------------------------------------------------------------


@lru_cache(maxsize=2048)
def text_sprite(text: str, size: int, fill: RGB, anchor: str) -> tuple[Frozen, int, int]:
    """`text` as an RGBA sprite and its offset from the anchor point: drawn once."""
    face = font(size)
    left, top, right, bottom = (round(edge) for edge in face.getbbox(text, anchor=anchor))
    image = Image.new("RGBA", (max(1, right - left), max(1, bottom - top)), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((-left, -top), text, font=face, fill=fill, anchor=anchor)
    return Frozen.of(image), left, top


def put_text(
    image: Image.Image, at: tuple[float, float], text: str, size: int, fill: RGB = TEXT, anchor: str = "lm"
) -> None:
    """Write `text` as `draw.text` would (`anchor` as there), from the sprite cache."""
    sprite, left, top = text_sprite(text, size, fill, anchor)
    paste(image, sprite.image(), (round(at[0] + left), round(at[1] + top)))


@lru_cache(maxsize=1024)
def label_stamp(text: str, size: int) -> tuple[Frozen, Frozen, int, int]:
    """A place's number written on the place's colour, the mask of the pixels the
    writing touches, and its offset from the place's centre."""
    sprite, left, top = text_sprite(text, size, TEXT, "mm")
    writing = sprite.image()
    image = Image.new("RGB", sprite.size, PLACE_FILL)
    paste(image, writing, (0, 0))
    mask = writing.getchannel("A").point(lambda alpha: 255 if alpha else 0)
    return Frozen.of(image), Frozen.of(mask), left, top


def label_size(side: int) -> int:
    """The font size of the place numbers on a table of cards of `side`."""
    return max(SMALL, round(side * 0.26))


def labels(view: TriominosView, lattice: Lattice, top: int) -> list[tuple[str, int, tuple[int, int]]]:
    """Each open place's number, its size and where its stamp goes: numbers change with
    every card laid, so they are written over the cached table area, not kept in it."""
    size = label_size(lattice.side)
    found = []
    for place in view["places"]:
        _, _, left, up = label_stamp(place["label"], size)
        x, y = lattice.centre(shape(place["points"]))
        found.append((place["label"], size, (round(x + left), round(y + up) + top)))
    return found


# --- header and footer ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Words:
    """Words of a panel on the panel's (or a chip's) colour."""

    text: str
    size: int
    fill: RGB
    anchor: str
    background: RGB


@dataclass(frozen=True, slots=True)
class Tag:
    """A seat's letter on its colour, in the header."""

    seat: int


@dataclass(frozen=True, slots=True)
class Chip:
    """A seat's chip in the footer, without its numbers."""

    seat: int
    width: int
    turn: bool
    mine: bool
    gone: bool
    lang: str = DEFAULT


Piece = Words | Tag | Chip  # a piece of the header or footer, drawn (and mapped) once


@lru_cache(maxsize=512)
def piece_image(piece: Piece) -> Frozen:
    """A piece of a panel, on the panel's colour."""
    if isinstance(piece, Words):
        sprite, _, _ = text_sprite(piece.text, piece.size, piece.fill, piece.anchor)
        image = Image.new("RGB", sprite.size, piece.background)
        paste(image, sprite.image(), (0, 0))
        return Frozen.of(image)
    if isinstance(piece, Tag):
        image = Image.new("RGB", (TAG + 2, TAG + 2), PANEL)
        seat_tag(ImageDraw.Draw(image), (TAG / 2 + 1, TAG / 2 + 1), piece.seat, TAG)
        return Frozen.of(image)
    return Frozen.of(chip(piece))


def chip(piece: Chip) -> Image.Image:
    """A seat's chip without its numbers: its letter, a token and a card (or that it
    left); the seat to play is framed in yellow, the viewer's letter ringed."""
    width, seat = piece.width, piece.seat
    image = Image.new("RGB", (width, CHIP_H), PANEL)
    draw = ImageDraw.Draw(image)
    edge = HIGHLIGHT if piece.turn else SEAT_COLOURS[seat]
    draw.rounded_rectangle(
        (0, 0, width - 1, CHIP_H - 1), radius=10, fill=BACKGROUND, outline=edge, width=4 if piece.turn else 2
    )
    cy = CHIP_H // 2
    if piece.mine:
        draw.rounded_rectangle((3, cy - 17, 37, cy + 17), radius=8, outline=TEXT, width=2)
    seat_tag(draw, (20, cy), seat, 28)
    draw.ellipse((43, cy - 10, 63, cy + 10), fill=HIGHLIGHT, outline=INK, width=2)  # a token
    if piece.gone:
        put_text(image, (101, cy), pgettext(piece.lang, "score panel", "left"), SMALL, MUTED)
    else:
        draw.polygon([(109, cy - 9), (118, cy + 7), (100, cy + 7)], fill=TEXT, outline=INK)  # a card
    return image


def chip_width(width: int, players: int) -> int:
    """The width of each seat's slot in the footer of a board `width` wide."""
    return (width - MARGIN * 2) // players


def panels(
    view: TriominosView, width: int, footer: int, viewer: int | None, lang: str = DEFAULT
) -> list[tuple[Piece, tuple[int, int]]]:
    """The pieces of the header (whose turn or who won, pot and bank) and of the footer
    at row `footer` (a chip per seat, what happened, the last-round warning), placed."""
    pieces: list[tuple[Piece, tuple[int, int]]] = []

    def text(
        at: tuple[float, float], words: str, size: int, fill: RGB = TEXT, anchor: str = "lm", on: RGB = PANEL
    ) -> int:
        sprite, left, top = text_sprite(words, size, fill, anchor)
        pieces.append((Words(words, size, fill, anchor, on), (round(at[0] + left), round(at[1] + top))))
        return sprite.width

    mid = HEADER // 2
    winners = view["winners"]
    if winners is not None:
        text((MARGIN, mid), result(winners, lang), 22, HIGHLIGHT)
    elif view["to_move"]:
        # The whole sentence is one template; the seat's tag is drawn where "{seat}" stands.
        before, _, after = gettext(lang, "{seat} to play").partition("{seat}")
        x = MARGIN + (text((MARGIN, mid), before.strip(), 22) + 8 if before.strip() else 0)
        pieces.append((Tag(view["to_move"][0]), (x - 1, mid - TAG // 2 - 1)))
        text((x + 36, mid), after.strip(), 22)
    bank = text((width - MARGIN, mid), bank_text(view["bank"], lang), 18, anchor="rm")
    pot = pot_text(view["pot_size"], lang)
    text((width - MARGIN - bank - 30, mid), pot, 18, anchor="rm")

    slot = chip_width(width, view["players"])
    middle = footer + 10 + CHIP_H // 2
    for seat in range(view["players"]):
        x = MARGIN + seat * slot + 3
        gone = seat in view["resigned"]
        pieces.append(
            (Chip(seat, slot - 6, seat in view["to_move"], seat == viewer, gone, lang), (x, footer + 10))
        )
        text((x + 68, middle), str(view["scores"][seat]), 22, on=BACKGROUND)
        if not gone:
            text((x + 122, middle), str(view["hand_sizes"][seat]), 20, on=BACKGROUND)
    for number, line in enumerate(footer_lines(view, width, lang)):
        text((MARGIN, footer + CHIPS + LINE // 2 + number * LINE), line, NARRATION_SIZE)
    if last_round_running(view):
        text((width - MARGIN, footer + CHIPS + LINE // 2), gettext(lang, "LAST ROUND"), 18, HIGHLIGHT, "rm")
    return pieces


def footer_height(lines: tuple[str, ...]) -> int:
    """The footer's height with `lines` of narration."""
    return CHIPS + LINE * max(1, len(lines)) + 4


def board_size(view: TriominosView, area: TableArea, lang: str) -> tuple[int, int]:
    """The whole board's size: the header, the table area and the footer."""
    width, height = area.lattice.size
    return width, HEADER + height + footer_height(footer_lines(view, width, lang))


# --- the board and a hand -------------------------------------------------------------


def board_image(view: TriominosView, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The public table in `lang` as an RGB image; reads only public keys (never `hand` or `fits`).

    `render` gives this very image mapped onto the palette, made from parts mapped once."""
    area = TableArea.of(view)
    image = Image.new("RGB", board_size(view, area, lang), PANEL)
    image.paste(area.whole(), (0, HEADER))
    for label, size, at in labels(view, area.lattice, HEADER):
        stamp, mask, _, _ = label_stamp(label, size)
        image.paste(stamp.image(), at, mask.image())
    for piece, at in panels(view, area.lattice.size[0], HEADER + area.lattice.size[1], viewer, lang):
        image.paste(piece_image(piece).image(), at)
    return image


def hand_image(view: TriominosView, seat: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The viewing seat's hand (or, with open hands, `seat`'s) in `lang`, cards numbered 1..n."""
    fits: list[list[PlaceFit]] | None
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
    cell_w, cell_h = side + 24, card_h + 78
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
        values = None if card.get("joker") else face_of(card["values"])
        paste(image, card_sprite(values, True, side).image(), (x, y))
        centred_text(draw, (x + side // 2, y + card_h + 20), str(index + 1), 24, HIGHLIGHT)
        if fits is not None:
            caption = wrap(fits_text(fits[index], lang), cell_w - 20, CAPTION)[:2]
            for line, text in enumerate(caption):
                middle = y + card_h + 52 + CAPTION_LINE * (line - (len(caption) - 1) / 2)
                centred_text(draw, (x + side // 2, middle), text, CAPTION, MUTED)
    return image
