"""A podium: the top three of a table (a season's, a tournament's) as one picture.

First place stands in the middle on the highest step, second on the left, third on the right;
each step carries its rank as a large number on a gold, silver or bronze face (the number says
what the colour says), with the player's name and one line of detail above it. Places that are
shared stand on steps of the same height, colour and number. One or two places leave the other
steps out.

The words come in already in the reader's language (the title, the names, the details): the
picture only lays them out, and `podium_alt` says the same in words for screen readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image, ImageDraw

from render.common import (
    BACKGROUND,
    MUTED,
    PANEL,
    RGB,
    TEXT,
    Palette,
    Signal,
    advance,
    font,
    ink_for,
    star_points,
)

WIDTH, HEIGHT = 600, 340
MARGIN = 20
COLUMN = 176  # a step's width
GAP = 12  # between steps
FLOOR = HEIGHT - 24  # where the steps stand
TITLE_SIZE, NAME_SIZE, DETAIL_SIZE, RANK_SIZE = 22, 19, 16, 46
STEP_HEIGHTS = {1: 130, 2: 96, 3: 68}
ALT_LIMIT = 1024  # Discord's image descriptions

GOLD: RGB = (230, 181, 42)
SILVER: RGB = (178, 184, 192)
BRONZE: RGB = (184, 115, 51)
FACES = {1: GOLD, 2: SILVER, 3: BRONZE}
SIGNALS: tuple[Signal, ...] = (
    Signal("first place", GOLD, "1"),
    Signal("second place", SILVER, "2"),
    Signal("third place", BRONZE, "3"),
)
ELLIPSIS = "…"


@dataclass(frozen=True, slots=True)
class Place:
    """One place of a podium: its rank (1 to 3, equal for a shared place), the player's name as
    shown, and one line of detail ("1,284 · 31 wins", "5 points")."""

    rank: int
    name: str
    detail: str


def podium_image(title: str, places: Sequence[Place]) -> Image.Image:
    """The podium of `places` (one to three, best first) under `title`."""
    _check(places)
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text(
        (WIDTH / 2, MARGIN + TITLE_SIZE / 2),
        _fitted(title, WIDTH - 2 * MARGIN, TITLE_SIZE),
        font=font(TITLE_SIZE),
        fill=TEXT,
        anchor="mm",
    )
    draw.line((MARGIN, FLOOR, WIDTH - MARGIN, FLOOR), fill=PANEL, width=3)
    for index, place in enumerate(places):
        _step(draw, _left(index), place)
    return image


def render_podium(title: str, places: Sequence[Place]) -> bytes:
    """PNG bytes of `podium_image`, on the podium's palette."""
    return _palette().png(podium_image(title, places))


def podium_alt(title: str, places: Sequence[Place]) -> str:
    """The podium in words: "Season November 2026 — all games: 1. Alice (1,284 · 31 wins);
    2. Bob (…)", within Discord's 1,024 characters for an image description."""
    _check(places)
    text = f"{title}: " + "; ".join(f"{place.rank}. {place.name} ({place.detail})" for place in places)
    text = " ".join(text.split())
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1] + ELLIPSIS


@cache
def _palette() -> Palette:
    """The podium's palette, learnt once from a podium holding every colour it draws."""
    sample = [Place(1, "Aa", "1"), Place(2, "Bb", "2"), Place(3, "Cc", "3")]
    return Palette.learn([podium_image("Aa", sample)])


def _check(places: Sequence[Place]) -> None:
    if not 1 <= len(places) <= 3:
        raise ValueError(f"a podium shows one to three places, not {len(places)}")
    ranks = [place.rank for place in places]
    if ranks != sorted(ranks) or not all(1 <= rank <= index + 1 for index, rank in enumerate(ranks)):
        raise ValueError(f"a podium's ranks go best first, each at most its position: {ranks}")


def _left(index: int) -> int:
    """The left edge of the step of the `index`th place: the middle, then the left, then the right."""
    middle = (WIDTH - COLUMN) // 2
    return (middle, middle - COLUMN - GAP, middle + COLUMN + GAP)[index]


def _step(draw: ImageDraw.ImageDraw, left: int, place: Place) -> None:
    top = FLOOR - STEP_HEIGHTS[place.rank]
    face = FACES[place.rank]
    draw.rounded_rectangle((left, top, left + COLUMN, FLOOR), radius=6, fill=face)
    centre = left + COLUMN / 2
    draw.text(
        (centre, top + STEP_HEIGHTS[3] / 2),
        str(place.rank),
        font=font(RANK_SIZE),
        fill=ink_for(face),
        anchor="mm",
    )
    width = COLUMN - 8
    detail_y = top - 12 - DETAIL_SIZE / 2
    name_y = detail_y - DETAIL_SIZE / 2 - 6 - NAME_SIZE / 2
    draw.text(
        (centre, detail_y),
        _fitted(place.detail, width, DETAIL_SIZE),
        font=font(DETAIL_SIZE),
        fill=MUTED,
        anchor="mm",
    )
    draw.text(
        (centre, name_y), _fitted(place.name, width, NAME_SIZE), font=font(NAME_SIZE), fill=TEXT, anchor="mm"
    )
    if place.rank == 1:
        star_y = name_y - NAME_SIZE / 2 - 16
        draw.polygon(star_points((centre, star_y), 12, 5), fill=GOLD)


def _fitted(text: str, width: float, size: int) -> str:
    """`text` on one line no wider than `width` at font `size`, shortened with "…" if needed."""
    text = " ".join(text.split())
    if advance(text, size) <= width:
        return text
    while text and advance(text + ELLIPSIS, size) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS
