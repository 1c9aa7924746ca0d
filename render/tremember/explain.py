"""The picture the rules show of a push: a row whose hole lies at its right end, before and after.

Before: the arrow at the left end is where the card goes back in; the right end, where the hole
is, has a cross — a push from there would move no other card. After: every card slid one step,
the hole is closed, and the pushed card lies face down at the left end (framed). No words in
the image; its alt text says it in the player's language.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from locales import gettext
from render.common import BACKGROUND, HIGHLIGHT, paste, supersampled, to_png
from render.frozen import Frozen
from render.tremember.colours import INK
from render.tremember.layout import END, PITCH
from render.tremember.sprites import band_end_rgb, hole_rgb, tile_rgb

CARDS = 6  # the cards of one row of the board
ROW_GAP = 18  # between the row before and the row after
CROSS = (213, 94, 0)  # vermilion: the end a push may not come from
SCALE = 0.75  # the picture is drawn at the board's size, then shrunk to sit under the rules


def push_picture(lang: str) -> tuple[bytes, str]:
    """The PNG of a push, and its alt text in `lang`."""
    alt = gettext(
        lang,
        "A row of the board with the hole at its right end. You push your card in from the left: "
        "every card slides one step to the right, the hole closes, and your card lies face down "
        "at the left end. From the right end, where the hole is, no push is possible.",
    )
    return _png(), alt


@lru_cache(maxsize=1)
def _png() -> bytes:
    width = END * 2 + PITCH * CARDS
    image = Image.new("RGB", (width, PITCH * 2 + ROW_GAP), BACKGROUND)
    image.paste(band_end_rgb("left", arrow=True), (0, 0))
    for column in range(CARDS - 1):
        image.paste(tile_rgb(None, None, None, band=True), (END + column * PITCH, 0))
    image.paste(hole_rgb(), (END + (CARDS - 1) * PITCH, 0))
    image.paste(band_end_rgb("right", arrow=False), (END + CARDS * PITCH, 0))
    paste(image, _cross().image(), (END + CARDS * PITCH, (PITCH - END) // 2))
    below = PITCH + ROW_GAP
    for column in range(CARDS):
        frame = HIGHLIGHT if column == 0 else None
        image.paste(tile_rgb(None, frame, None, band=False), (END + column * PITCH, below))
    small = image.resize((round(image.width * SCALE), round(image.height * SCALE)), Image.Resampling.LANCZOS)
    return to_png(small)


@lru_cache(maxsize=1)
def _cross() -> Frozen:
    """A cross on the end a push may not come from."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big, m = END * k, END * k * 0.22
        for line in ((m, m, big - m, big - m), (m, big - m, big - m, m)):
            draw.line(line, fill=INK, width=9 * k)
            draw.line(line, fill=CROSS, width=6 * k)

    return Frozen.of(supersampled((END, END), paint))
