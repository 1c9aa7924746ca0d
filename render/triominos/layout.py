"""Where things go on a Triominos picture: its sizes, the lattice that puts the table's
grid points on whole pixels, and the boxes a drawing reaches."""

from __future__ import annotations

import math
from dataclasses import dataclass

MIN_WIDTH = 680
# The table's area: cards shrink to fit it, so that the board stays narrow enough to read on a
# phone (a media gallery scales it by width) ...
READABLE_BOARD = (MIN_WIDTH - 40, 680)
# ... but never below READABLE_SIDE, whose numbers still read there: a table too wide for that
# grows the board instead, up to MAX_BOARD, past which cards shrink again.
MAX_BOARD = (940, 800)
READABLE_SIDE = 66
SIDE_STEP = 8  # cards of the readable area change size in steps of this many pixels
SIDE_RANGE = (20, 128)  # 20: even a 36-card line stays inside MAX_BOARD
HEADER = 50
CHIPS = 66  # the footer's band of seat chips, above the lines saying what happened
LINE = 26
CHIP_H = 48
TAG = 26  # the side of the seat tag in the header
MARGIN = 20
SMALL = 18  # the smallest words and numbers: shown at 8 px or more on a phone
NARRATION_SIZE = SMALL
PIPS_FROM_SIDE = 88  # below this side the small triangles leave too little room for the numbers
HAND_SIDE = 124
# Four cards a row, so that a phone showing the hand 360 px wide still reads its captions.
HAND_COLUMNS = 4
CAPTION, CAPTION_LINE = SMALL, 20  # where a hand card fits

Corner = tuple[float, float]
Shape = tuple[tuple[int, int], ...]  # a cell's three grid points
Box = tuple[int, int, int, int]


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


def row_height(side: int) -> int:
    """The height of a card of `side` in whole pixels."""
    return round(side * math.sqrt(3) / 2)


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

    def centre(self, points: Shape) -> Corner:
        """The pixel at the centroid of a cell."""
        pixels = [self.pixel(p) for p in points]
        return sum(x for x, _ in pixels) / 3, sum(y for _, y in pixels) / 3


def choose_side(width_halves: int, rows: int) -> int:
    """The largest side, a multiple of `SIDE_STEP`, that fits the readable board area; if that
    is below the readable side, the readable side, or less if even that overflows the largest
    board area. Sides in steps: a growing table keeps its side, and its drawing, for longer."""
    side = min(fitting(READABLE_BOARD, width_halves, rows), SIDE_RANGE[1])
    if side >= READABLE_SIDE:
        return max(READABLE_SIDE, side - side % SIDE_STEP)
    side = min(READABLE_SIDE, fitting(MAX_BOARD, width_halves, rows))
    return max(SIDE_RANGE[0], side - side % 2)


def fitting(area: tuple[int, int], width_halves: int, rows: int) -> int:
    """The largest side at which a table `width_halves` half sides wide and `rows` rows high fits `area`."""
    fit_w = area[0] * 2 / max(width_halves, 1)
    fit_h = area[1] / max(rows * math.sqrt(3) / 2, 0.1)
    return int(min(fit_w, fit_h))


def is_up(points: Shape) -> bool:
    """Up cells have two corners on their lower row, down cells one."""
    low = min(y for _, y in points)
    return sum(1 for _, y in points if y == low) == 2


def shape(points: list[list[int]]) -> Shape:
    """A cell's grid points as the view writes them, as a hashable shape."""
    return tuple((x, y) for x, y in points)


def bounds(points: list[tuple[int, int]]) -> Box:
    """The pixels a polygon may touch."""
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs) - 1, min(ys) - 1, max(xs) + 2, max(ys) + 2


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes overlap."""
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
