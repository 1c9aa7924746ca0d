"""The motifs printed on Tremember's cards: each a list of coloured parts, painted on a unit
box, the outlined ones with one dark outline round the whole part."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import cos, pi, sin

from PIL import Image, ImageDraw, ImageFilter

from render.common import RGB, Point, star_points
from render.tremember.colours import (
    BLACK,
    BLUE,
    FACE,
    GREEN,
    INK,
    ORANGE,
    PURPLE,
    SKY,
    VERMILION,
    YELLOW,
)

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


def motif_masks(motif: str, size: int) -> list[tuple[RGB, Image.Image]]:
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
