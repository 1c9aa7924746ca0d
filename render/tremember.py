"""Tremember board images: the public 6×6 board, and one card large for the peek.

Everything that never changes is drawn once, supersampled, and cached, already mapped
onto the renderer's fixed palette (`render.common.Palette`): the background with its
labels, every card tile (a face or the back, on the plain or the push-band ground, with
its frame and finder's tag), the push arrows. A render copies the mapped background,
pastes the 36 mapped tiles, and draws only the header (headline and narration) and the
scores, which are mapped on their own. The board is drawn from the public view only —
`peek` is never read — so it cannot leak a face-down card.

`narrate(view, name)` is the one wording of what just happened: the board writes it
with seat letters, the bot's message with mentions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from math import cos, pi, sin

from PIL import Image, ImageDraw, ImageFilter

from games.tremember import MOTIFS, SIDES
from locales import DEFAULT, N_, gettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
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
    words,
)

RGB = tuple[int, int, int]

# Layout of the board image, in pixels.
CARD = 84
GAP = 8
PITCH = CARD + GAP
GRID = 6 * PITCH - GAP
LABEL = 24  # the column letters and row numbers
ARROW = 34  # room for the push arrows on every side
END = ARROW - GAP // 2  # the push band beyond the board's tiles: where an arrow sits
MARGIN = 12
HEADLINE_Y = 20
NARRATION_Y = (48, 70)  # at most two lines of what just happened
HEADER = 88
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
    "star": [(ORANGE, _poly(star_points((0.5, 0.54), 0.46, 0.19)), True)],
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
        (GREEN, _poly(star_points((0.5, 0.6), 0.42, 0.26, tips=8)), True),
        (FACE, _disc(0.5, 0.46, 0.28), True),
        (INK, _all(_disc(0.39, 0.4, 0.045), _disc(0.61, 0.4, 0.045)), False),
        (VERMILION, _disc(0.5, 0.5, 0.06), False),
        (INK, _line([(0.36, 0.58), (0.44, 0.64), (0.56, 0.64), (0.64, 0.58)], 0.035), False),
    ],
}


def _motif_masks(motif: str, size: int) -> list[tuple[RGB, Image.Image]]:
    """The layers of `motif` on a `size`-pixel card as (colour, mask), each outlined
    part preceded by its dark outline: blur and threshold grows any shape evenly, so
    composite shapes get one outline."""
    inset = round(size * 0.14)
    s = size - 2 * inset

    def at(x: float, y: float) -> Point:
        return (inset + x * s, inset + y * s)

    stroke = max(2.0, s * 0.035)
    layers = []
    for colour, painter, outlined in MOTIF_PARTS[motif]:
        mask = Image.new("L", (size, size), 0)
        painter(ImageDraw.Draw(mask), at, s)
        if outlined:
            grown = mask.filter(ImageFilter.GaussianBlur(stroke / 1.75))
            layers.append((INK, grown.point(lambda v: 255 if v > 10 else 0)))
        layers.append((colour, mask))
    return layers


@lru_cache(maxsize=64)
def card_face(motif: str, size: int = CARD) -> Image.Image:
    """The face of a `motif` card, RGBA, `size` pixels square."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big = size * k
        fill = JOKER_FACE if motif.startswith("joker") else FACE
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 10, fill=fill)
        for colour, mask in _motif_masks(motif, big):
            draw.bitmap((0, 0), mask, fill=colour)

    return supersampled((size, size), paint)


@lru_cache(maxsize=4)
def card_back(size: int = CARD) -> Image.Image:
    """The back of every card: blue-grey with a quiet lattice."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big = size * k
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 10, fill=BACK)
        inset = big // 9
        draw.rounded_rectangle(
            (inset, inset, big - inset, big - inset), radius=big // 14, outline=BACK_LINE, width=2 * k
        )
        step = (big - 2 * inset) // 4
        for i in range(1, 4):
            p = inset + i * step
            draw.line((p, inset, inset, p), fill=BACK_LINE, width=k)
            draw.line((big - p, big - inset, big - inset, big - p), fill=BACK_LINE, width=k)
        c, r = big // 2, big // 7
        draw.polygon([(c, c - r), (c + r, c), (c, c + r), (c - r, c)], fill=BACK_LINE)

    return supersampled((size, size), paint)


@lru_cache(maxsize=16)
def _frame(colour: RGB, width: int) -> Image.Image:
    """A rounded outline in the gap just outside a card."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big = PITCH * k
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 9, outline=colour, width=width * k)

    return supersampled((PITCH, PITCH), paint)


@lru_cache(maxsize=4)
def _arrow(side: str) -> Image.Image:
    """A push arrow pointing from `side` toward the board, as wide as the band's end."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big, m = END * k, END * k * 0.12
        draw.polygon([(m, m), (big - m, big / 2), (m, big - m)], fill=HIGHLIGHT, outline=INK, width=k)

    turns = {"left": 0, "top": 270, "right": 180, "bottom": 90}[side]
    return supersampled((END, END), paint).rotate(turns)


# --- tiles: a cell with the gap around it, composed once and mapped onto the palette -------


def _tile_rgb(face: str | None, frame: RGB | None, finder: int | None, band: bool) -> Image.Image:
    """The cell at (0, 0) of a PITCH-square tile: ground, card, frame, finder's tag."""
    tile = Image.new("RGB", (PITCH, PITCH), BAND if band else BACKGROUND)
    paste(tile, card_face(face) if face else card_back(), (GAP // 2, GAP // 2))
    if frame is not None:
        paste(tile, _frame(frame, 5 if frame == HIGHLIGHT else 4), (0, 0))
    if finder is not None:
        seat_tag(ImageDraw.Draw(tile), (PITCH - 15, 11), finder, size=20)
    return tile


@lru_cache(maxsize=1024)
def _tile(face: str | None, frame: RGB | None, finder: int | None, band: bool) -> Image.Image:
    """A tile mapped onto the palette, once (a few hundred tiles occur at most)."""
    return _palette().map(_tile_rgb(face, frame, finder, band))


@cache
def _hole_rgb() -> Image.Image:
    """The hole left by the taken card, on the push band."""
    tile = Image.new("RGB", (PITCH, PITCH), BAND)
    ImageDraw.Draw(tile).rounded_rectangle(
        (GAP // 2, GAP // 2, GAP // 2 + CARD - 1, GAP // 2 + CARD - 1),
        radius=8,
        fill=HOLE_FILL,
        outline=HIGHLIGHT,
        width=2,
    )
    return tile


@cache
def _hole() -> Image.Image:
    return _palette().map(_hole_rgb())


@lru_cache(maxsize=8)
def _band_end_rgb(side: str, arrow: bool) -> Image.Image:
    """The push band beyond the board at one end of the line, with the arrow if legal."""
    across = side in ("left", "right")
    size = (END, PITCH) if across else (PITCH, END)
    end = Image.new("RGB", size, BAND)
    if arrow:
        paste(end, _arrow(side), (0, (PITCH - END) // 2) if across else ((PITCH - END) // 2, 0))
    return end


@lru_cache(maxsize=8)
def _band_end(side: str, arrow: bool) -> Image.Image:
    return _palette().map(_band_end_rgb(side, arrow))


@cache
def _base_rgb() -> Image.Image:
    """The background with column letters and row numbers."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i in range(6):
        centre = X0 + i * PITCH + CARD / 2
        centred_text(draw, (centre, HEADER + LABEL / 2), "ABCDEF"[i], 20, fill=MUTED)
        centred_text(draw, (MARGIN + LABEL / 2, Y0 + i * PITCH + CARD / 2), str(i + 1), 20, fill=MUTED)
    return image


@cache
def _base() -> Image.Image:
    return _palette().map(_base_rgb())


# --- words ------------------------------------------------------------------------------


# TRANSLATORS: the pictures on the Tremember cards.
MOTIF_NAMES = {  # both joker motifs are simply "joker"
    "sun": N_("sun"),
    "moon": N_("moon"),
    "star": N_("star"),
    "heart": N_("heart"),
    "drop": N_("drop"),
    "leaf": N_("leaf"),
    "bolt": N_("bolt"),
    "diamond": N_("diamond"),
    "fish": N_("fish"),
    "cross": N_("cross"),
    "hexagon": N_("hexagon"),
    "ring": N_("ring"),
    "arrow": N_("arrow"),
    "flower": N_("flower"),
    "crown": N_("crown"),
    "tree": N_("tree"),
    "joker": N_("joker"),
}
# TRANSLATORS: a Tremember card by its picture, as the object of "turned …" / "found … pair".
A_MOTIFS = {
    "sun": N_("a sun"),
    "moon": N_("a moon"),
    "star": N_("a star"),
    "heart": N_("a heart"),
    "drop": N_("a drop"),
    "leaf": N_("a leaf"),
    "bolt": N_("a bolt"),
    "diamond": N_("a diamond"),
    "fish": N_("a fish"),
    "cross": N_("a cross"),
    "hexagon": N_("a hexagon"),
    "ring": N_("a ring"),
    "arrow": N_("an arrow"),
    "flower": N_("a flower"),
    "crown": N_("a crown"),
    "tree": N_("a tree"),
    "joker": N_("a joker"),
}


def motif_name(motif: str, lang: str = DEFAULT) -> str:
    """The name players read in `lang`: both joker motifs are simply "joker"."""
    word = "joker" if motif.startswith("joker") else motif
    return gettext(lang, MOTIF_NAMES[word]) if word in MOTIF_NAMES else word


def a_motif(motif: str, lang: str = DEFAULT) -> str:
    """`a sun`, `an arrow` (in `lang`: "eine Sonne", "einen Mond")."""
    word = "joker" if motif.startswith("joker") else motif
    if word in A_MOTIFS:
        return gettext(lang, A_MOTIFS[word])
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def cell_name(cell: Sequence[int]) -> str:
    """`B3` for [2, 1] (row, column)."""
    return f"{'ABCDEF'[cell[1]]}{cell[0] + 1}"


LINES_MOVED = {  # the end a card comes in from: the line it moves, and which way
    "left": N_("row {row} right"),
    "right": N_("row {row} left"),
    "top": N_("column {column} down"),
    "bottom": N_("column {column} up"),
}


def line_moved(side: str, hole: Sequence[int], lang: str = DEFAULT) -> str:
    """`column B down`: the line a push from `side` moves, and which way."""
    return gettext(lang, LINES_MOVED[side], row=hole[0] + 1, column="ABCDEF"[hole[1]])


TOUCH = {3: N_("side by side"), 2: N_("touching at a corner"), 1: N_("apart")}


def narrate(view: dict, name: Callable[[int], str], lang: str = DEFAULT) -> list[str]:
    """The sentences saying what the last move (or the deal) did; `name(seat)` names a seat.

    The one wording of every event: the board writes it with seat letters, the bot's
    message with mentions. Only cards face up on this board (or shown by it until the
    next move, as a miss is) are ever named.
    """
    event = view["last_event"]
    if event is None:
        return []
    kind, who = event["type"], name(event["seat"])
    if kind == "start":
        return [
            gettext(lang, "{who} was drawn to start.", who=who),
            gettext(lang, "Find the pairs: the board keeps moving!"),
        ]
    if kind == "take":
        return [
            gettext(
                lang,
                "{who} took the card at {cell}: only they saw it.",
                who=who,
                cell=cell_name(event["cell"]),
            )
        ]
    if kind == "push":
        line, lands = line_moved(event["from"], event["cell"], lang), cell_name(event["lands"])
        return [
            gettext(
                lang,
                "{who} pushed {line}: the taken card lies face down at {cell}.",
                who=who,
                line=line,
                cell=lands,
            )
        ]
    if kind == "flip":
        motif, cell = a_motif(event["motif"], lang), cell_name(event["cell"])
        return [gettext(lang, "{who} turned {motif} at {cell}.", who=who, motif=motif, cell=cell)]
    if kind == "miss":
        return [_missed(event, who, lang)]
    if kind == "pair":
        return _paired(view, event, who, lang)
    if kind == "resign":
        return [gettext(lang, "{who} left the game; their points stay.", who=who)]
    return []


def _touch(points: int, lang: str) -> str:
    """How the pair's cards lie, which gives its points."""
    how = TOUCH[points]
    return gettext(lang, how)


def _missed(event: dict, who: str, lang: str) -> str:
    (a, b), (ma, mb) = event["cells"], event["motifs"]
    return gettext(
        lang,
        "{who} turned {first} at {a} and {second} at {b}: no pair, both turn face down again.",
        who=who,
        first=a_motif(ma, lang),
        a=cell_name(a),
        second=a_motif(mb, lang),
        b=cell_name(b),
    )


def _paired(view: dict, event: dict, who: str, lang: str) -> list[str]:
    cells = " + ".join(cell_name(cell) for cell in event["cells"])
    said = [
        gettext(
            lang,
            "{who} found {motif} pair at {cells}: +{points} ({touch}).",
            who=who,
            motif=a_motif(event["motif"], lang),
            cells=cells,
            points=event["points"],
            touch=_touch(event["points"], lang),
        )
    ]
    if event["rotated"]:
        now = " + ".join(cell_name(cell) for cell in event["cells_now"])
        said.append(
            gettext(lang, "The whole board turned 90° clockwise: the pair lies at {cells} now.", cells=now)
        )
    if view["winners"] is None:
        said.append(gettext(lang, "{who} plays again.", who=who))
    return said


@lru_cache(maxsize=4096)
def _word(word: str, size: int) -> tuple[Image.Image, float]:
    """One word as a text mask (baseline at the font's ascent) and its advance.

    Header text is set word by word from these: the words of the narration repeat
    (seat letters, cells, motifs, verbs), so a render rasterizes almost no text.
    """
    face = font(size)
    ascent, descent = face.getmetrics()
    advance = face.getlength(word)
    mask = Image.new("L", (int(advance) + size // 2, ascent + descent))
    ImageDraw.Draw(mask).text((0, ascent), word, font=face, fill=255, anchor="ls")
    return mask, advance


def wrap(sentences: list[str], width: float, size: int, lines: int) -> list[list[str]]:
    """The words of `sentences` in at most `lines` lines no wider than `width` (the last
    one cut short with an ellipsis)."""
    space = _word(" ", size)[1]
    out: list[list[str]] = []
    used = 0.0
    for word in words(" ".join(sentences)):
        advance = _word(word, size)[1]
        if out and used + space + advance <= width:
            out[-1].append(word)
            used += space + advance
        else:
            out.append([word])
            used = advance
    if len(out) > lines:
        out = out[:lines]
        last = [*out[-1], "…"]
        while len(last) > 2 and sum(_word(w, size)[1] + space for w in last) > width:
            del last[-2]
        out[-1] = last
    return out


def _write(image: Image.Image, xy: Point, words: list[str], size: int, fill: RGB) -> None:
    """`words` from `xy` (left, vertical middle), set from the cached word masks."""
    ascent, descent = font(size).getmetrics()
    x, top = xy[0], round(xy[1] - (ascent + descent) / 2)
    space = _word(" ", size)[1]
    for word in words:
        mask, advance = _word(word, size)
        image.paste(fill, (round(x), top), mask)
        x += advance + space


def _instruction(view: dict, lang: str) -> str:
    """What the seat to move does now, for the headline."""
    if view["phase"] == "take":
        return gettext(lang, "to move: take a face-down card")
    if view["phase"] == "push":
        return gettext(lang, "to move: push the card back in at an arrow")
    if view["first_flip"]:
        return gettext(lang, "to move: turn a second card")
    return gettext(lang, "to move: turn two face-down cards")


def _result(view: dict, lang: str) -> str:
    winners = view["winners"]
    if not winners:
        return gettext(lang, "Game over: nobody wins.")
    if len(winners) == 1:
        return gettext(
            lang,
            "Game over: {seat} wins with {points} points!",
            seat=seat_label(winners[0]),
            points=view["scores"][winners[0]],
        )
    seats = gettext(lang, " and ").join(seat_label(s) for s in winners)
    return gettext(lang, "Game over: a draw between {seats}.", seats=seats)


# --- the board ----------------------------------------------------------------------


def _cell_xy(row: int, col: int) -> tuple[int, int]:
    """The top left corner of the card at (row, col)."""
    return X0 + col * PITCH, Y0 + row * PITCH


def _framed(view: dict) -> set[tuple[int, int]]:
    """The cards turned this turn, to frame in yellow: a first card, or the two just
    turned (where they lie now: a joker pair turned the board)."""
    cells = [view["first_flip"]] if view["first_flip"] else []
    event = view["last_event"] or {}
    if event.get("type") == "pair":
        cells += event["cells_now"]
    elif event.get("type") == "miss":
        cells += event["cells"]
    return {(row, col) for row, col in cells}


def _draw_board(image: Image.Image, view: dict) -> None:
    """Every cell as one mapped tile, and the push band's ends with their arrows."""
    board, found = view["board"], view["found"]
    hole = tuple(view["hole"]) if view["hole"] else None
    shown = {}
    if (view["last_event"] or {}).get("type") == "miss":
        # The two faces stay on this image only; the cards are face down again.
        shown = {tuple(flip["cell"]): flip["motif"] for flip in view["last_flip"]}
    framed = _framed(view)
    band_rows: set[int] = set()
    band_cols: set[int] = set()
    if hole is not None:
        sides = set(view["legal_pushes"])
        if sides & {"left", "right"}:
            band_rows.add(hole[0])
        if sides & {"top", "bottom"}:
            band_cols.add(hole[1])
        _draw_band_ends(image, hole, sides)
    for row in range(6):
        for col in range(6):
            x, y = _cell_xy(row, col)
            corner = (x - GAP // 2, y - GAP // 2)
            if (row, col) == hole:
                image.paste(_hole(), corner)
                continue
            finder = found[row][col]
            frame = HIGHLIGHT if (row, col) in framed else None if finder is None else SEAT_COLOURS[finder]
            face = board[row][col] or shown.get((row, col))
            band = row in band_rows or col in band_cols
            image.paste(_tile(face, frame, finder, band), corner)


def _draw_band_ends(image: Image.Image, hole: tuple[int, int], sides: set[str]) -> None:
    """The band's ends beyond the tiles (END deep), an arrow at each legal one."""
    row, col = hole
    x, y = _cell_xy(row, col)
    if sides & {"left", "right"}:
        image.paste(_band_end("left", "left" in sides), (X0 - ARROW, y - GAP // 2))
        image.paste(_band_end("right", "right" in sides), (X0 + GRID + GAP // 2, y - GAP // 2))
    if sides & {"top", "bottom"}:
        image.paste(_band_end("top", "top" in sides), (x - GAP // 2, Y0 - ARROW))
        image.paste(_band_end("bottom", "bottom" in sides), (x - GAP // 2, Y0 + GRID + GAP // 2))


def _header(view: dict, lang: str) -> Image.Image:
    """The headline (who does what now, or the result) and the narration, in RGB."""
    strip = Image.new("RGB", (WIDTH, HEADER), BACKGROUND)
    if view["winners"] is not None:
        _write(strip, (MARGIN, HEADLINE_Y), words(_result(view, lang)), 22, TEXT)
    else:
        seat_tag(ImageDraw.Draw(strip), (MARGIN + 12, HEADLINE_Y), view["to_move"][0], size=24)
        _write(strip, (MARGIN + 32, HEADLINE_Y), words(_instruction(view, lang)), 22, TEXT)
    lines = wrap(narrate(view, seat_label, lang), WIDTH - 2 * MARGIN, 17, len(NARRATION_Y))
    for y, line in zip(NARRATION_Y, lines, strict=False):
        _write(strip, (MARGIN, y), line, 17, MUTED)
    return strip


@lru_cache(maxsize=256)
def _scores(
    scores: tuple[int, ...],
    to_move: tuple[int, ...],
    resigned: tuple[int, ...],
    viewer: int | None,
    lang: str,
) -> Image.Image:
    """The score panels, mapped; one per seat, the seat to move outlined."""
    strip = Image.new("RGB", (WIDTH, SCORES_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    n, gap = len(scores), 8
    width = (WIDTH - 2 * MARGIN - (n - 1) * gap) / n
    for seat, score in enumerate(scores):
        left = MARGIN + seat * (width + gap)
        draw.rounded_rectangle(
            (left, 0, left + width, SCORES_HEIGHT - 1),
            radius=10,
            fill=PANEL,
            outline=HIGHLIGHT if seat in to_move else None,
            width=3,
        )
        seat_tag(draw, (left + 24, SCORES_HEIGHT / 2), seat, size=32)
        label = pgettext(lang, "score panel", "left") if seat in resigned else str(score)
        colour = MUTED if seat in resigned else TEXT
        draw.text((left + 50, SCORES_HEIGHT / 2), label, font=font(24), fill=colour, anchor="lm")
        if seat == viewer:
            you = pgettext(lang, "score panel", "you")
            draw.text((left + width - 8, SCORES_HEIGHT / 2), you, font=font(14), fill=MUTED, anchor="rm")
    return _palette().map(strip)


def board_image(view: dict, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The finished board in `lang`, already on the palette (mode P): what `render` encodes."""
    image = _base().copy()
    _draw_board(image, view)
    image.paste(_palette().map(_header(view, lang)), (0, 0))
    scores = _scores(tuple(view["scores"]), tuple(view["to_move"]), tuple(view["resigned"]), viewer, lang)
    image.paste(scores, (0, SCORES_TOP))
    return image


def render(view: dict, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """The public board as PNG bytes, its words in `lang`. `peek` is never drawn, whoever looks."""
    return to_png(board_image(view, viewer, lang))


# --- the palette ------------------------------------------------------------------------


def _samples() -> list[Image.Image]:
    """Every colour the renderer draws: the background and labels, every tile's parts
    (faces, back, frames, tags, hole, band and arrows) and text on every ground."""
    tiles = [_tile_rgb(motif, None, None, False) for motif in MOTIFS]
    tiles += [_tile_rgb(None, SEAT_COLOURS[seat], seat, band) for seat in range(6) for band in (False, True)]
    tiles += [_tile_rgb("sun", HIGHLIGHT, None, False), _tile_rgb(None, HIGHLIGHT, None, True), _hole_rgb()]
    tiles += [_band_end_rgb(side, True) for side in SIDES]
    text = Image.new("RGB", (WIDTH, 2 * SCORES_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(text)
    for seat in range(6):
        seat_tag(draw, (20 + 40 * seat, 20), seat, size=24)
        seat_tag(draw, (20 + 40 * seat, 60), seat, size=32)
    draw.text((260, 20), "Take a face-down card 0123456789", font=font(22), fill=TEXT, anchor="lm")
    draw.text((260, 60), "pushed column B down", font=font(17), fill=MUTED, anchor="lm")
    panel = Image.new("RGB", (WIDTH // 2, SCORES_HEIGHT), PANEL)
    ImageDraw.Draw(panel).rounded_rectangle(
        (0, 0, 200, SCORES_HEIGHT - 1), radius=10, outline=HIGHLIGHT, width=3
    )
    ImageDraw.Draw(panel).text((210, 24), "12 left you", font=font(24), fill=TEXT, anchor="lm")
    ImageDraw.Draw(panel).text((330, 24), "left you", font=font(24), fill=MUTED, anchor="lm")
    return [_base_rgb(), *tiles, text, panel, card_face("crown", PEEK_SIZE)]


@cache
def _palette() -> Palette:
    """The renderer's one fixed palette, learnt once from everything it draws."""
    return Palette.learn(_samples())


# --- the peek -------------------------------------------------------------------------

PEEK_SIZE = 240


def render_card(motif: str, lang: str = DEFAULT) -> bytes:
    """One card large with its name in `lang`: the private peek for the player who took it."""
    image = Image.new("RGB", (PEEK_SIZE + 40, PEEK_SIZE + 100), BACKGROUND)
    paste(image, card_face(motif, PEEK_SIZE), (20, 20))
    draw = ImageDraw.Draw(image)
    centred_text(
        draw,
        (image.width / 2, PEEK_SIZE + 48),
        gettext(lang, "Your card: {motif}", motif=motif_name(motif, lang)),
        22,
    )
    if motif.startswith("joker"):
        turns = gettext(lang, "a joker pair turns the board")
        centred_text(draw, (image.width / 2, PEEK_SIZE + 76), turns, 16, MUTED)
    return _palette().png(image)
