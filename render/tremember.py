"""Tremember board images: the public 6×6 board, and one card large for the peek.

Everything that never changes (labels, card backs, the 18 card faces, frames,
arrows) is drawn once, supersampled, and cached; a render only pastes sprites and
writes the two status lines and the scores. The board is drawn from the public view
only — `peek` is never read — so it cannot leak a face-down card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from math import cos, pi, sin

from PIL import Image, ImageDraw, ImageFilter

from games.tremember import MOTIFS, SIDES
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

RGB = tuple[int, int, int]
SUPERSAMPLE = 4

# Layout of the board image, in pixels.
CARD = 84
GAP = 8
PITCH = CARD + GAP
GRID = 6 * PITCH - GAP
LABEL = 24  # the column letters and row numbers
ARROW = 34  # room for the push arrows on every side
MARGIN = 12
HEADER = 66  # two status lines
X0 = MARGIN + LABEL + ARROW
Y0 = HEADER + LABEL + ARROW
SCORES_TOP = Y0 + GRID + ARROW + 4
SCORES_HEIGHT = 48
WIDTH = X0 + GRID + ARROW + MARGIN
HEIGHT = SCORES_TOP + SCORES_HEIGHT + MARGIN

# Card colours: light faces, a blue-grey back, lilac for the two jokers.
FACE = (246, 241, 228)
JOKER_FACE = (228, 216, 244)
BACK = (72, 84, 122)
BACK_LINE = (104, 118, 160)
INK = (30, 30, 34)
HOLE_FILL = (24, 25, 28)
BAND = (58, 56, 42)  # the line a push shifts, tinted toward the highlight

# Okabe–Ito hues for the motifs: each hue is used by two very different shapes,
# so the shape alone always tells a motif apart, and the colour helps.
YELLOW = (240, 228, 66)
ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
BLUE = (0, 114, 178)
VERMILION = (213, 94, 0)
PURPLE = (204, 121, 167)
BLACK = (40, 40, 44)

Point = tuple[float, float]
Painter = Callable[[ImageDraw.ImageDraw, Callable[[float, float], Point], float], None]


# --- motif shapes: each is a list of (colour, painter, outlined) parts on a unit box ------


def _poly(points: Sequence[Point]) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, at: Callable[[float, float], Point], s: float) -> None:
        draw.polygon([at(x, y) for x, y in points], fill=255)

    return paint


def _disc(cx: float, cy: float, r: float, fill: int = 255) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, at: Callable[[float, float], Point], s: float) -> None:
        x0, y0 = at(cx - r, cy - r)
        x1, y1 = at(cx + r, cy + r)
        draw.ellipse((x0, y0, x1, y1), fill=fill)

    return paint


def _rect(x0: float, y0: float, x1: float, y1: float) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, at: Callable[[float, float], Point], s: float) -> None:
        draw.rectangle((*at(x0, y0), *at(x1, y1)), fill=255)

    return paint


def _line(points: Sequence[Point], width: float) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, at: Callable[[float, float], Point], s: float) -> None:
        draw.line([at(x, y) for x, y in points], fill=255, width=round(width * s), joint="curve")

    return paint


def _all(*painters: Painter) -> Painter:
    def paint(draw: ImageDraw.ImageDraw, at: Callable[[float, float], Point], s: float) -> None:
        for painter in painters:
            painter(draw, at, s)

    return paint


def _star_points(cx: float, cy: float, outer: float, inner: float, tips: int) -> list[Point]:
    return [
        (
            cx + (outer if i % 2 == 0 else inner) * sin(i * pi / tips),
            cy - (outer if i % 2 == 0 else inner) * cos(i * pi / tips),
        )
        for i in range(2 * tips)
    ]


def _sun_rays() -> Painter:
    rays = []
    for i in range(8):
        a = i * pi / 4
        tip = (0.5 + 0.45 * cos(a), 0.5 + 0.45 * sin(a))
        left = (0.5 + 0.27 * cos(a - 0.28), 0.5 + 0.27 * sin(a - 0.28))
        right = (0.5 + 0.27 * cos(a + 0.28), 0.5 + 0.27 * sin(a + 0.28))
        rays.append(_poly([left, tip, right]))
    return _all(*rays, _disc(0.5, 0.5, 0.24))


def _leaf_points() -> list[Point]:
    """A pointed oval along the diagonal, from the stem (bottom left) to the tip."""
    start, end, bulge = (0.16, 0.84), (0.9, 0.1), 0.2
    ax, ay = end[0] - start[0], end[1] - start[1]
    length = (ax * ax + ay * ay) ** 0.5
    nx, ny = -ay / length, ax / length
    steps = [i / 16 for i in range(17)]
    edge = [(t, bulge * sin(pi * t)) for t in steps] + [(t, -bulge * sin(pi * t)) for t in reversed(steps)]
    return [(start[0] + t * ax + w * nx, start[1] + t * ay + w * ny) for t, w in edge]


def _turn_arrow() -> Painter:
    """A thick clockwise arrow round the centre, open at the top right."""
    cx, cy, r = 0.5, 0.52, 0.32
    angles = [(-40 + 290 * i / 24) * pi / 180 for i in range(25)]
    arc = [(cx + r * cos(a), cy + r * sin(a)) for a in angles]
    end = angles[-1]
    (ex, ey), (tx, ty), (nx, ny) = arc[-1], (-sin(end), cos(end)), (cos(end), sin(end))
    head = [
        (ex + 0.2 * tx, ey + 0.2 * ty),
        (ex + 0.17 * nx, ey + 0.17 * ny),
        (ex - 0.17 * nx, ey - 0.17 * ny),
    ]
    return _all(_line(arc, 0.14), _poly(head))


Part = tuple[RGB, Painter, bool]

MOTIF_PARTS: dict[str, list[Part]] = {
    "sun": [(YELLOW, _sun_rays(), True)],
    "moon": [(BLUE, _all(_disc(0.46, 0.5, 0.38), _disc(0.64, 0.4, 0.32, fill=0)), True)],
    "star": [(ORANGE, _poly(_star_points(0.5, 0.54, 0.46, 0.19, 5)), True)],
    "heart": [
        (
            VERMILION,
            _all(
                _disc(0.31, 0.36, 0.2),
                _disc(0.69, 0.36, 0.2),
                _poly([(0.12, 0.42), (0.88, 0.42), (0.5, 0.88)]),
            ),
            True,
        )
    ],
    "drop": [(SKY, _all(_disc(0.5, 0.63, 0.27), _poly([(0.5, 0.06), (0.25, 0.54), (0.75, 0.54)])), True)],
    "leaf": [
        (GREEN, _poly(_leaf_points()), True),
        (INK, _line([(0.1, 0.9), (0.72, 0.28)], 0.035), False),
    ],
    "bolt": [
        (
            YELLOW,
            _poly(
                [
                    (0.6, 0.04),
                    (0.2, 0.55),
                    (0.46, 0.55),
                    (0.36, 0.96),
                    (0.8, 0.4),
                    (0.54, 0.4),
                    (0.7, 0.04),
                ]
            ),
            True,
        )
    ],
    "diamond": [(PURPLE, _poly([(0.5, 0.04), (0.86, 0.5), (0.5, 0.96), (0.14, 0.5)]), True)],
    "fish": [
        (
            SKY,
            _all(
                _poly([(0.04, 0.22), (0.3, 0.5), (0.04, 0.78)]),
                _disc(0.56, 0.5, 0.3),
                _poly([(0.26, 0.5), (0.6, 0.2), (0.96, 0.5), (0.6, 0.8)]),
            ),
            True,
        ),
        (INK, _disc(0.72, 0.44, 0.05), False),
    ],
    "cross": [(VERMILION, _all(_rect(0.36, 0.06, 0.64, 0.94), _rect(0.06, 0.36, 0.94, 0.64)), True)],
    "hexagon": [
        (
            BLUE,
            _poly(
                [(0.5 + 0.46 * cos(a), 0.5 + 0.46 * sin(a)) for a in (i * pi / 3 + pi / 6 for i in range(6))]
            ),
            True,
        )
    ],
    "ring": [(BLACK, _all(_disc(0.5, 0.5, 0.42), _disc(0.5, 0.5, 0.22, fill=0)), True)],
    "arrow": [
        (
            BLACK,
            _all(_rect(0.06, 0.38, 0.56, 0.62), _poly([(0.5, 0.12), (0.95, 0.5), (0.5, 0.88)])),
            True,
        )
    ],
    "flower": [
        (
            PURPLE,
            _all(
                *(_disc(0.5 + 0.27 * cos(i * pi / 3), 0.5 + 0.27 * sin(i * pi / 3), 0.17) for i in range(6))
            ),
            True,
        ),
        (YELLOW, _disc(0.5, 0.5, 0.15), True),
    ],
    "crown": [
        (
            ORANGE,
            _all(
                _poly(
                    [
                        (0.08, 0.82),
                        (0.08, 0.32),
                        (0.3, 0.56),
                        (0.5, 0.22),
                        (0.7, 0.56),
                        (0.92, 0.32),
                        (0.92, 0.82),
                    ]
                ),
                _disc(0.08, 0.3, 0.07),
                _disc(0.5, 0.2, 0.07),
                _disc(0.92, 0.3, 0.07),
            ),
            True,
        )
    ],
    "tree": [
        (
            GREEN,
            _all(
                _poly([(0.5, 0.04), (0.78, 0.4), (0.22, 0.4)]),
                _poly([(0.5, 0.22), (0.88, 0.7), (0.12, 0.7)]),
                _rect(0.4, 0.68, 0.6, 0.96),
            ),
            True,
        )
    ],
    # The jokers, on lilac cards: a clockwise arrow (they turn the board) and a jester.
    "joker1": [(VERMILION, _turn_arrow(), True)],
    "joker2": [
        (GREEN, _poly(_star_points(0.5, 0.6, 0.42, 0.26, 8)), True),
        (FACE, _disc(0.5, 0.46, 0.28), True),
        (INK, _all(_disc(0.39, 0.4, 0.045), _disc(0.61, 0.4, 0.045)), False),
        (VERMILION, _disc(0.5, 0.5, 0.06), False),
        (INK, _line([(0.36, 0.58), (0.44, 0.64), (0.56, 0.64), (0.64, 0.58)], 0.035), False),
    ],
}


def _paint_motif(image: Image.Image, motif: str, box: tuple[int, int, int, int]) -> None:
    """Draw `motif` into `box` of `image`, each part with a dark outline."""
    x0, y0, x1, y1 = box
    s = x1 - x0

    def at(x: float, y: float) -> Point:
        return (x0 + x * s, y0 + y * (y1 - y0))

    stroke = max(2.0, s * 0.035)
    for colour, painter, outlined in MOTIF_PARTS[motif]:
        mask = Image.new("L", image.size, 0)
        painter(ImageDraw.Draw(mask), at, s)
        if outlined:
            # Blur and threshold grows any shape evenly, so composite shapes get one outline.
            grown = mask.filter(ImageFilter.GaussianBlur(stroke / 1.75))
            image.paste(INK, (0, 0), grown.point(lambda v: 255 if v > 10 else 0))
        image.paste(colour, (0, 0), mask)


# --- sprites ------------------------------------------------------------------------


def _rounded_card(size: int, fill: RGB) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    """A supersampled RGBA card of side `size`, its draw handle and the scale."""
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 10, fill=fill)
    return image, draw, SUPERSAMPLE


def _shrink(image: Image.Image, size: int) -> Image.Image:
    return image.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def card_face(motif: str, size: int = CARD) -> Image.Image:
    """The face of a `motif` card, RGBA, `size` pixels square."""
    image, _, k = _rounded_card(size, JOKER_FACE if motif.startswith("joker") else FACE)
    inset = round(size * k * 0.14)
    big = size * k
    rgb = Image.new("RGB", image.size, FACE)
    rgb.paste(image, (0, 0), image)
    _paint_motif(rgb, motif, (inset, inset, big - inset, big - inset))
    rgb.putalpha(image.getchannel("A"))
    return _shrink(rgb, size)


@lru_cache(maxsize=4)
def card_back(size: int = CARD) -> Image.Image:
    """The back of every card: blue-grey with a quiet lattice."""
    image, draw, k = _rounded_card(size, BACK)
    big = size * k
    inset = big // 9
    draw.rounded_rectangle(
        (inset, inset, big - inset, big - inset), radius=big // 14, outline=BACK_LINE, width=2 * k
    )
    step = (big - 2 * inset) // 4
    for i in range(1, 4):
        p = inset + i * step
        draw.line((p, inset, inset, p), fill=BACK_LINE, width=k)
        draw.line((big - p, big - inset, big - inset, big - p), fill=BACK_LINE, width=k)
    c = big // 2
    r = big // 7
    draw.polygon([(c, c - r), (c + r, c), (c, c + r), (c - r, c)], fill=BACK_LINE)
    return _shrink(image, size)


@lru_cache(maxsize=16)
def _frame(colour: RGB, width: int) -> Image.Image:
    """A rounded outline in the gap just outside a card."""
    size = CARD + GAP
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, big - 1, big - 1), radius=big // 9, outline=colour, width=width * SUPERSAMPLE
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _ink_on(colour: RGB) -> RGB:
    """Dark text on light colours, white on dark ones."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 130 else (255, 255, 255)


@lru_cache(maxsize=8)
def _badge(seat: int) -> Image.Image:
    """The finder's seat letter on their colour, for the corner of a found card."""
    colour = SEAT_COLOURS[seat]
    size = 26
    big = size * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    ImageDraw.Draw(image).ellipse((0, 0, big - 1, big - 1), fill=colour, outline=INK, width=2 * SUPERSAMPLE)
    image = image.resize((size, size), Image.Resampling.LANCZOS)
    centred_text(
        ImageDraw.Draw(image),
        (size / 2, size / 2 + 1),
        SEAT_LETTERS[seat],
        16,
        fill=_ink_on(colour),
    )
    return image


@lru_cache(maxsize=4)
def _arrow(side: str) -> Image.Image:
    """A push arrow pointing from `side` toward the board."""
    big = ARROW * SUPERSAMPLE
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    m = big * 0.12
    draw.polygon([(m, m), (big - m, big / 2), (m, big - m)], fill=HIGHLIGHT, outline=INK)
    image = image.resize((ARROW, ARROW), Image.Resampling.LANCZOS)
    turns = {"left": 0, "top": 270, "right": 180, "bottom": 90}[side]
    return image.rotate(turns)


@lru_cache(maxsize=1)
def _base() -> Image.Image:
    """The background with column letters and row numbers."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i in range(6):
        centre = X0 + i * PITCH + CARD / 2
        centred_text(draw, (centre, HEADER + LABEL / 2), "ABCDEF"[i], 20, fill=MUTED)
        centred_text(draw, (MARGIN + LABEL / 2, Y0 + i * PITCH + CARD / 2), str(i + 1), 20, fill=MUTED)
    return image


# --- the board ----------------------------------------------------------------------


def _cell_xy(row: int, col: int) -> tuple[int, int]:
    return X0 + col * PITCH, Y0 + row * PITCH


def _paste(image: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    image.paste(sprite, xy, sprite)


def _fresh_flip(view: dict) -> str | None:
    """ "pair" or "miss" right after a second card was turned, else None.

    Only then is `last_flip` drawn: the next move replaces the image, so the board
    never serves as a longer memory aid than the table does.
    """
    move = view.get("last_move") or {}
    if move.get("type") != "flip" or view["phase"] == "flip" or not view.get("last_flip"):
        return None
    first, second = view["last_flip"]
    return "pair" if first["motif"] == second["motif"] else "miss"


def _draw_push(image: Image.Image, view: dict) -> None:
    """The hole, the shifting lines tinted, and an arrow at every legal push."""
    row, col = view["hole"]
    draw = ImageDraw.Draw(image)
    sides = view.get("legal_pushes", [])
    if {"left", "right"} & set(sides):
        _, y = _cell_xy(row, 0)
        draw.rectangle((X0 - ARROW, y - GAP // 2, X0 + GRID + ARROW, y + CARD + GAP // 2), fill=BAND)
    if {"top", "bottom"} & set(sides):
        x, _ = _cell_xy(0, col)
        draw.rectangle((x - GAP // 2, Y0 - ARROW, x + CARD + GAP // 2, Y0 + GRID + ARROW), fill=BAND)
    x, y = _cell_xy(row, col)
    anchor = {
        "left": (X0 - ARROW, y + (CARD - ARROW) // 2),
        "right": (X0 + GRID, y + (CARD - ARROW) // 2),
        "top": (x + (CARD - ARROW) // 2, Y0 - ARROW),
        "bottom": (x + (CARD - ARROW) // 2, Y0 + GRID),
    }
    for side in sides:
        _paste(image, _arrow(side), anchor[side])


def _highlighted(view: dict) -> set[tuple[int, int]]:
    """The cells of the cards turned this turn, to frame in yellow."""
    cells = []
    if view.get("first_flip"):
        cells.append(view["first_flip"])
    fresh = _fresh_flip(view)
    if fresh == "pair":
        # A joker pair turned the board: frame the cards where they lie now.
        cells += view["last_pair"]["cells_now"]
    elif fresh == "miss":
        cells += [flip["cell"] for flip in view["last_flip"]]
    return {(row, col) for row, col in cells}


def _draw_cards(image: Image.Image, view: dict) -> None:
    """Every card, framed in its finder's colour or, if just turned, in yellow."""
    board, found = view["board"], view.get("found")
    hole = tuple(view["hole"]) if view.get("hole") else None
    shown = {}
    if _fresh_flip(view) == "miss":
        # The two faces stay on this image only; the cards are face down again.
        shown = {tuple(flip["cell"]): flip["motif"] for flip in view["last_flip"]}
    highlighted = _highlighted(view)
    draw = ImageDraw.Draw(image)
    for row in range(6):
        for col in range(6):
            x, y = _cell_xy(row, col)
            if (row, col) == hole:
                draw.rounded_rectangle(
                    (x, y, x + CARD - 1, y + CARD - 1),
                    radius=8,
                    fill=HOLE_FILL,
                    outline=HIGHLIGHT,
                    width=2,
                )
                continue
            motif = board[row][col] or shown.get((row, col))
            _paste(image, card_face(motif) if motif else card_back(), (x, y))
            seat = found[row][col] if found else None
            corner = (x - GAP // 2, y - GAP // 2)
            if (row, col) in highlighted:
                _paste(image, _frame(HIGHLIGHT, 5), corner)
            elif seat is not None:
                _paste(image, _frame(SEAT_COLOURS[seat], 4), corner)
            if seat is not None:
                _paste(image, _badge(seat), (x + CARD - 22, y - 4))


def _seat_name(seat: int) -> str:
    return f"Player {SEAT_LETTERS[seat]}"


def _motif_name(motif: str) -> str:
    return "joker" if motif.startswith("joker") else motif


def _cell_name(cell: Sequence[int]) -> str:
    return f"{'ABCDEF'[cell[1]]}{cell[0] + 1}"


def _headline(view: dict) -> tuple[str, RGB | None]:
    """What happens now, and the seat colour to show beside it."""
    phase = view["phase"]
    if phase == "over":
        winners = view.get("winners") or []
        if len(winners) == 1:
            return f"Game over: {_seat_name(winners[0])} wins", SEAT_COLOURS[winners[0]]
        names = ", ".join(SEAT_LETTERS[s] for s in winners)
        return f"Game over: a draw between {names}", None
    seat = view["to_move"][0]
    todo = {
        "take": "take a face-down card",
        "push": "push the card back in at an arrow",
        "flip": "turn a second card" if view.get("first_flip") else "turn two face-down cards",
    }[phase]
    return f"{_seat_name(seat)}: {todo}", SEAT_COLOURS[seat]


def _event(view: dict) -> str:
    """The last thing that happened, in words."""
    move = view.get("last_move")
    if not move:
        return "Find the pairs. The board keeps moving!"
    who = _seat_name(move["seat"])
    kind = move["type"]
    if kind == "resign":
        return f"{who} left the game."
    if kind == "take":
        return f"{who} took the card at {_cell_name(move['cell'])}."
    if kind == "push":
        row, col = move["cell"]
        line = f"row {row + 1}" if move["from"] in ("left", "right") else f"column {'ABCDEF'[col]}"
        return f"{who} pushed {line} in from the {move['from']}."
    if not _fresh_flip(view):
        return f"{who} turned a {_motif_name(move['motif'])} at {_cell_name(move['cell'])}."
    a, b = view["last_flip"]
    pair = view["last_pair"]
    if _fresh_flip(view) == "miss":
        return (
            f"{who} turned {_motif_name(a['motif'])} ({_cell_name(a['cell'])}) and "
            f"{_motif_name(b['motif'])} ({_cell_name(b['cell'])}): no pair."
        )
    text = f"{who} found a {_motif_name(pair['motif'])} pair: +{pair['points']}"
    if pair["rotated"]:
        return text + ", and the board turned 90° clockwise!"
    return text + (" and goes again." if view["phase"] != "over" else ".")


def _draw_header(draw: ImageDraw.ImageDraw, view: dict) -> None:
    headline, colour = _headline(view)
    x = MARGIN
    if colour is not None:
        draw.ellipse((x, 12, x + 20, 32), fill=colour)
        x += 30
    draw.text((x, 22), headline, font=font(22), fill=TEXT, anchor="lm")
    draw.text((MARGIN, 50), _event(view), font=font(17), fill=MUTED, anchor="lm")


def _draw_scores(draw: ImageDraw.ImageDraw, view: dict, viewer: int | None) -> None:
    scores = view["scores"]
    resigned = set(view.get("resigned", []))
    to_move = set(view.get("to_move", []))
    n = len(scores)
    gap = 8
    width = (WIDTH - 2 * MARGIN - (n - 1) * gap) / n
    top, bottom = SCORES_TOP, SCORES_TOP + SCORES_HEIGHT
    for seat, score in enumerate(scores):
        left = MARGIN + seat * (width + gap)
        draw.rounded_rectangle(
            (left, top, left + width, bottom),
            radius=10,
            fill=PANEL,
            outline=HIGHLIGHT if seat in to_move else None,
            width=3,
        )
        colour = MUTED if seat in resigned else SEAT_COLOURS[seat]
        draw.rounded_rectangle((left + 8, top + 8, left + 40, bottom - 8), radius=6, fill=colour)
        centred_text(draw, (left + 24, (top + bottom) / 2 + 1), SEAT_LETTERS[seat], 20, fill=_ink_on(colour))
        label = "left" if seat in resigned else str(score)
        draw.text((left + 50, (top + bottom) / 2), label, font=font(24), fill=TEXT, anchor="lm")
        if seat == viewer:
            draw.text(
                (left + width - 8, (top + bottom) / 2),
                "you",
                font=font(14),
                fill=MUTED,
                anchor="rm",
            )


def _compose(view: dict, viewer: int | None) -> Image.Image:
    """The board image in full colour."""
    image = _base().copy()
    if view.get("hole"):
        _draw_push(image, view)
    _draw_cards(image, view)
    draw = ImageDraw.Draw(image)
    _draw_header(draw, view)
    _draw_scores(draw, view, viewer)
    return image


def _palette_views() -> list[dict]:
    """Two boards that between them show every sprite, frame, badge and text colour."""
    motifs = [m for m in MOTIFS for _ in range(2)]
    faces = {
        "phase": "flip",
        "to_move": [0],
        "scores": [0] * 6,
        "resigned": [5],
        "board": [motifs[r * 6 : r * 6 + 6] for r in range(6)],
        "found": [[(r * 6 + c) % 6 for c in range(6)] for r in range(6)],
        "first_flip": [0, 0],
    }
    pushing = {
        "phase": "push",
        "to_move": [0],
        "scores": [0] * 6,
        "board": [[None] * 6 for _ in range(6)],
        "hole": [2, 2],
        "legal_pushes": list(SIDES),
    }
    return [faces, pushing]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """A fixed 256-colour palette fitted to the board's own colours.

    Palette PNGs encode four times faster than full colour (the budget is 25 ms),
    and a fixed palette keeps colours steady from one render to the next.
    """
    boards = [_compose(view, viewer=0) for view in _palette_views()]
    strip = Image.new("RGB", (WIDTH, HEIGHT * len(boards)))
    for i, board in enumerate(boards):
        strip.paste(board, (0, i * HEIGHT))
    return strip.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def render(view: dict, *, viewer: int | None = None) -> bytes:
    """The public board as PNG bytes. `peek` is never drawn, whoever looks."""
    image = _compose(view, viewer)
    return to_png(image.quantize(palette=_palette(), dither=Image.Dither.NONE))


PEEK_SIZE = 240


def render_card(motif: str) -> bytes:
    """One card large with its name: the private peek for the player who took it."""
    image = Image.new("RGB", (PEEK_SIZE + 40, PEEK_SIZE + 100), BACKGROUND)
    _paste(image, card_face(motif, PEEK_SIZE), (20, 20))
    draw = ImageDraw.Draw(image)
    centred_text(draw, (image.width / 2, PEEK_SIZE + 48), f"Your card: {_motif_name(motif)}", 22)
    if motif.startswith("joker"):
        centred_text(draw, (image.width / 2, PEEK_SIZE + 76), "a joker pair turns the board", 16, MUTED)
    return to_png(image)
