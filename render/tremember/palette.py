"""Tremember's one fixed palette, and the board's static layers mapped onto it.

The palette is learnt once from every colour the renderer draws (`render.common.Palette`);
each tile, the hole, the push band's ends and the background are mapped onto it once and
cached as `Frozen`s, so a board only pastes them. `prepare` does all of it ahead of the
first board.
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from games.tremember import MOTIFS, SIDES, Side
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    Palette,
    font,
    seat_tag,
)
from render.frozen import Frozen
from render.tremember.layout import PEEK_SIZE, SCORES_HEIGHT, TAG, WIDTH
from render.tremember.sprites import (
    band_end_rgb,
    base_rgb,
    card_face,
    hole_rgb,
    tile_rgb,
)

SEATS = len(SEAT_COLOURS)


def _samples() -> list[Image.Image]:
    """Every colour the renderer draws: the background and labels, every tile's parts
    (faces, back, frames, tags, hole, band and arrows) and text on every ground."""
    tiles = [tile_rgb(motif, None, None, False) for motif in MOTIFS]
    tiles += [
        tile_rgb(None, SEAT_COLOURS[seat], seat, band) for seat in range(SEATS) for band in (False, True)
    ]
    tiles += [tile_rgb("sun", HIGHLIGHT, None, False), tile_rgb(None, HIGHLIGHT, None, True), hole_rgb()]
    tiles += [band_end_rgb(side, True) for side in SIDES]
    text = Image.new("RGB", (WIDTH, 2 * SCORES_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(text)
    for seat in range(SEATS):
        seat_tag(draw, (20 + 40 * seat, 20), seat, size=TAG)
        seat_tag(draw, (20 + 40 * seat, 60), seat, size=32)
    draw.text((260, 20), "Take a face-down card 0123456789", font=font(22), fill=TEXT, anchor="lm")
    draw.text((260, 60), "pushed column B down", font=font(17), fill=MUTED, anchor="lm")
    panel = Image.new("RGB", (WIDTH // 2, SCORES_HEIGHT), PANEL)
    ImageDraw.Draw(panel).rounded_rectangle(
        (0, 0, 200, SCORES_HEIGHT - 1), radius=10, outline=HIGHLIGHT, width=3
    )
    ImageDraw.Draw(panel).text((210, 24), "12 left you", font=font(24), fill=TEXT, anchor="lm")
    ImageDraw.Draw(panel).text((330, 24), "left you", font=font(24), fill=MUTED, anchor="lm")
    return [base_rgb(), *tiles, text, panel, card_face("crown", PEEK_SIZE)]


@cache
def board_palette() -> Palette:
    """The renderer's one fixed palette, learnt once from everything it draws. The cached
    object is only ever read: it maps images, it is never drawn on."""
    return Palette.learn(_samples())


def mapped(image: Image.Image) -> Frozen:
    """`image` mapped onto the palette, as a stamp of its palette indices only: it is pasted
    onto a board, which carries the palette."""
    indices = board_palette().map(image)
    return Frozen(indices.mode, indices.size, indices.tobytes())


@lru_cache(maxsize=1024)
def tile(face: str | None, frame: RGB | None, finder: int | None, band: bool) -> Frozen:
    """A tile mapped onto the palette, once (a few hundred tiles occur at most)."""
    return mapped(tile_rgb(face, frame, finder, band))


@cache
def hole() -> Frozen:
    return mapped(hole_rgb())


@lru_cache(maxsize=8)
def band_end(side: Side, arrow: bool) -> Frozen:
    return mapped(band_end_rgb(side, arrow))


@cache
def base() -> Frozen:
    """The background with its labels, mapped, with the palette: every board starts from it."""
    return Frozen.of(board_palette().map(base_rgb()))


_PREPARING = threading.Lock()


def prepare() -> None:
    """Learn the palette and map the layers every board needs (the background, the backs,
    the hole and the push band's ends), so that no board learns them at first use.
    Thread-safe and idempotent: a second call finds everything cached."""
    with _PREPARING:
        base()
        hole()
        for band in (False, True):
            tile(None, None, None, band)
            tile(None, HIGHLIGHT, None, band)
        for side in SIDES:
            for arrow in (False, True):
                band_end(side, arrow)
