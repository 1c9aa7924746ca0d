"""The picture the rules show of a bridge: a card (framed) placed between two cards of the table.

It lies against the card above it along one side, and its corner opposite that side touches
the card below it; the places on either side of it stay empty, so it spans a gap.
The corners that meet show the same numbers, as on the table. No words in the image; its alt
text says it in the player's language.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from locales import gettext
from render.common import BACKGROUND, HIGHLIGHT, paste, to_png
from render.triominos.draw import card_sprite
from render.triominos.layout import corners, row_height

SIDE = 110  # a card's side, in pixels
MARGIN = 14
# (values clockwise, pointing up, column in half sides, row): the table's two cards and the bridge.
ABOVE = ((3, 4, 2), True, 1, 0)
BRIDGE = ((2, 4, 1), False, 1, 1)
BELOW = ((1, 5, 3), True, 1, 2)


def bridge_picture(lang: str) -> tuple[bytes, str]:
    """The PNG of a bridge, and its alt text in `lang`."""
    alt = gettext(
        lang,
        "A bridge: the new card, framed, lies against the card above it along one side, and its "
        "opposite corner touches the card below it. The places on both sides of it stay empty.",
    )
    return _png(), alt


@lru_cache(maxsize=1)
def _png() -> bytes:
    height = row_height(SIDE)
    image = Image.new("RGB", (SIDE * 2 + 2 * MARGIN, height * 3 + 2 * MARGIN), BACKGROUND)
    for values, up, column, row in (ABOVE, BRIDGE, BELOW):
        x, y = _origin(column, row)
        paste(image, card_sprite(values, up, SIDE).image(), (round(x), round(y)))
    ImageDraw.Draw(image).polygon(_corners(*BRIDGE[1:]), outline=HIGHLIGHT, width=4)
    return to_png(image)


def _origin(column: int, row: int) -> tuple[float, float]:
    return MARGIN + column * SIDE / 2, MARGIN + row * row_height(SIDE)


def _corners(up: bool, column: int, row: int) -> list[tuple[float, float]]:
    x, y = _origin(column, row)
    return [(x + px, y + py) for px, py in corners(SIDE, row_height(SIDE), up)]
