"""Everything on a Tremember board that never changes, drawn in RGB(A): the cards' faces and
back, the frames, the push arrows, and from them the tiles (a card with the gap around it),
the hole, the push band's ends and the background with its labels.

Sprites are drawn supersampled, once, and cached as `Frozen`s: immutable bytes, so nothing
handed out of a cache can be drawn on. The functions named `…_rgb` compose a fresh image on
every call: they feed the palette (`render.tremember.palette`), which caches them mapped.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.tremember import Side
from render.common import BACKGROUND, HIGHLIGHT, MUTED, RGB, centred_text, paste, seat_tag, supersampled
from render.frozen import Frozen
from render.tremember.colours import BACK, BACK_LINE, BAND, FACE, HOLE_FILL, INK, JOKER_FACE
from render.tremember.layout import (
    CARD,
    END,
    GAP,
    HEADER,
    HEIGHT,
    LABEL,
    MARGIN,
    PITCH,
    SIZE,
    TAG,
    WIDTH,
    X0,
    Y0,
)
from render.tremember.motifs import motif_masks


@lru_cache(maxsize=64)
def card_face_stamp(motif: str, size: int = CARD) -> Frozen:
    """The face of a `motif` card, RGBA, `size` pixels square."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big = size * k
        fill = JOKER_FACE if motif.startswith("joker") else FACE
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 10, fill=fill)
        for colour, mask in motif_masks(motif, big):
            draw.bitmap((0, 0), mask, fill=colour)

    return Frozen.of(supersampled((size, size), paint))


def card_face(motif: str, size: int = CARD) -> Image.Image:
    """The face of a `motif` card, RGBA, `size` pixels square: a new image from the cached stamp."""
    return card_face_stamp(motif, size).image()


@lru_cache(maxsize=4)
def card_back(size: int = CARD) -> Frozen:
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

    return Frozen.of(supersampled((size, size), paint))


@lru_cache(maxsize=16)
def _frame(colour: RGB, width: int) -> Frozen:
    """A rounded outline in the gap just outside a card."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big = PITCH * k
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big // 9, outline=colour, width=width * k)

    return Frozen.of(supersampled((PITCH, PITCH), paint))


@lru_cache(maxsize=4)
def _arrow(side: Side) -> Frozen:
    """A push arrow pointing from `side` toward the board, as wide as the band's end."""

    def paint(draw: ImageDraw.ImageDraw, k: int) -> None:
        big, m = END * k, END * k * 0.12
        draw.polygon([(m, m), (big - m, big / 2), (m, big - m)], fill=HIGHLIGHT, outline=INK, width=k)

    turns = {"left": 0, "top": 270, "right": 180, "bottom": 90}[side]
    return Frozen.of(supersampled((END, END), paint).rotate(turns))


def tile_rgb(face: str | None, frame: RGB | None, finder: int | None, band: bool) -> Image.Image:
    """The cell at (0, 0) of a PITCH-square tile: ground, card, frame, finder's tag."""
    tile = Image.new("RGB", (PITCH, PITCH), BAND if band else BACKGROUND)
    paste(tile, (card_face_stamp(face) if face else card_back()).image(), (GAP // 2, GAP // 2))
    if frame is not None:
        paste(tile, _frame(frame, 5 if frame == HIGHLIGHT else 4).image(), (0, 0))
    if finder is not None:
        seat_tag(ImageDraw.Draw(tile), (PITCH - 17, 13), finder, size=TAG)
    return tile


def hole_rgb() -> Image.Image:
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


def band_end_rgb(side: Side, arrow: bool) -> Image.Image:
    """The push band beyond the board at one end of the line, with the arrow if legal."""
    across = side in ("left", "right")
    size = (END, PITCH) if across else (PITCH, END)
    end = Image.new("RGB", size, BAND)
    if arrow:
        paste(end, _arrow(side).image(), (0, (PITCH - END) // 2) if across else ((PITCH - END) // 2, 0))
    return end


def base_rgb() -> Image.Image:
    """The background with column letters and row numbers."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for i in range(SIZE):
        centre = X0 + i * PITCH + CARD / 2
        centred_text(draw, (centre, HEADER + LABEL / 2), "ABCDEF"[i], 20, fill=MUTED)
        centred_text(draw, (MARGIN + LABEL / 2, Y0 + i * PITCH + CARD / 2), str(i + 1), 20, fill=MUTED)
    return image
