"""Triominos boards as PNG: the drawings of `draw` mapped onto the one palette, drawing
only what changed.

The table area on the palette is kept (`AREAS`), the next one is the last with the
changed boxes drawn again (`TableArea.compose` gives any box exactly as a whole drawing
does), and the place numbers and the panels are pasted from pieces mapped once. `render`
is thus `board_image` on the palette, to the byte. `prepare` learns the palette and maps
what every game shows, once, so that no board waits for them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache, lru_cache, wraps
from typing import TypeVar

from PIL import Image

from games.triominos import ALL_TOKENS, TriominosView
from locales import DEFAULT, LANGUAGES
from render.common import BACKGROUND, PANEL, RGB, TEXT, Palette, to_png
from render.frozen import Frozen
from render.triominos.draw import (
    FACES,
    Chip,
    Piece,
    TableArea,
    Words,
    board_image,
    board_size,
    chip_width,
    hand_image,
    label_size,
    label_stamp,
    labels,
    master_sprite,
    panels,
    piece_image,
    place_shape,
)
from render.triominos.layout import HEADER, MIN_WIDTH, SIDE_RANGE, outermost
from render.triominos.narration import bank_text, pot_text
from render.triominos.palette import TRIPLES, learn, sample_hand, sample_view

Value = TypeVar("Value")

MAX_PATCHES = 12  # more changed boxes than this: drawing the area whole is as quick
FEW_PATCHES = 6  # a placement's usual boxes: good enough, look no further
CARD_KINDS = tuple((up, pips) for up in (True, False) for pips in (True, False))


def once(compute: Callable[[], Value]) -> Callable[[], Value]:
    """`compute`, run at most once however many threads ask at the same time."""
    kept = cache(compute)
    lock = threading.Lock()

    @wraps(compute)
    def get() -> Value:
        with lock:
            return kept()

    return get


# --- the palette ----------------------------------------------------------------------


@once
def palette() -> Palette:
    """The one palette of every Triominos picture, learnt from everything they draw: the
    cards (with and without their small triangles, up and down), open places, the glow,
    both panels with all four seats, a hand, and every flat colour."""
    cards = [master_sprite(face, up, pips).image() for face in (*TRIPLES, None) for up, pips in CARD_KINDS]
    return learn(board_image(sample_view(), viewer=0), hand_image(sample_hand(FACES[:6])), cards)


def mapped(image: Image.Image) -> Image.Image:
    """`image` on the palette, mapped once to be pasted into boards as it is."""
    return palette().map(image)


def indices(image: Image.Image) -> Image.Image:
    """`image` mapped onto the palette, as its palette indices (mode L): boards are pieced
    together from such parts, pasted as they are, and given the palette at the end."""
    return Image.frombytes("L", image.size, mapped(image).tobytes())


def blank(size: tuple[int, int], colour: RGB) -> Image.Image:
    """A board of palette indices all `colour`, to paste mapped parts into."""
    return Image.new("L", size, palette_index(colour))


@cache
def palette_index(colour: RGB) -> int:
    return int(mapped(Image.new("RGB", (1, 1), colour)).getpixel((0, 0)))  # type: ignore[arg-type]


@cache
def palette_colours() -> bytes:
    return bytes(palette().image.getpalette() or [])


@lru_cache(maxsize=512)
def piece_on_palette(piece: Piece) -> Frozen:
    """A piece of a panel, mapped."""
    return Frozen.of(indices(piece_image(piece).image()))


@lru_cache(maxsize=1024)
def mapped_stamp(label: str, size: int) -> tuple[Frozen, Frozen]:
    """A place's number, mapped, and its mask."""
    stamp, mask, _, _ = label_stamp(label, size)
    return Frozen.of(indices(stamp.image())), mask


# --- the table area on the palette ----------------------------------------------------


def area_on_palette(area: TableArea, before: tuple[TableArea, Frozen] | None) -> Frozen:
    """The area's picture mapped onto the palette: made from `before` (a previous area
    and its mapped picture) if only a few boxes need drawing, else whole."""
    boxes = None if before is None else area.changes_since(before[0], MAX_PATCHES)
    if before is None or boxes is None:
        return Frozen.of(indices(area.whole()))
    old, old_picture = before
    steps = area.steps()
    image = blank(area.lattice.size, BACKGROUND)
    # The same side: the old picture, moved by how far the table's origin moved.
    image.paste(
        old_picture.image(), (area.lattice.left - old.lattice.left, area.lattice.top - old.lattice.top)
    )
    for box in outermost(boxes):
        image.paste(indices(area.compose(box, steps)), box[:2])
    return Frozen.of(image)


class AreaCache:
    """The last few table areas mapped onto the palette, to make the next from the closest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.areas: dict[TableArea, Frozen] = {}
        self.lock = threading.Lock()

    def on_palette(self, area: TableArea) -> Frozen:
        with self.lock:
            found = self.areas.get(area)
            candidates = list(self.areas.items())
        if found is not None:
            return found
        picture = area_on_palette(area, closest(area, candidates))
        with self.lock:
            self.areas[area] = picture
            while len(self.areas) > self.size:
                del self.areas[next(iter(self.areas))]
        return picture


AREAS = AreaCache(8)


def closest(area: TableArea, candidates: list[tuple[TableArea, Frozen]]) -> tuple[TableArea, Frozen] | None:
    """The candidate to make `area` from with the fewest boxes redrawn: most often the
    area drawn last, so that is asked first."""
    best, fewest = None, MAX_PATCHES + 1
    for candidate in reversed(candidates):
        changes = area.changes_since(candidate[0], MAX_PATCHES)
        if changes is not None and len(changes) < fewest:
            best, fewest = candidate, len(changes)
            if fewest <= FEW_PATCHES:
                break
    return best


# --- boards and hands -----------------------------------------------------------------


def render(view: TriominosView, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """The public table as PNG, its words in `lang`: `board_image` on the palette, exactly.

    Only what changed is drawn and mapped onto the palette: the table area's mapped
    picture is kept (`AREAS`) and the next one made from it; the place numbers and
    the pieces of the panels are pasted from mapped stamps.
    """
    prepare()
    area = TableArea.of(view)
    image = blank(board_size(view, area, lang), PANEL)
    image.paste(AREAS.on_palette(area).image(), (0, HEADER))
    for label, size, at in labels(view, area.lattice, HEADER):
        stamp, mask = mapped_stamp(label, size)
        image.paste(stamp.image(), at, mask.image())
    width, height = area.lattice.size
    for piece, at in panels(view, width, HEADER + height, viewer, lang):
        image.paste(piece_on_palette(piece).image(), at)
    image.putpalette(palette_colours())
    return to_png(image)


def render_hand(view: TriominosView, seat: int | None = None, lang: str = DEFAULT) -> bytes:
    """A hand as PNG, its words in `lang` (see `hand_image`)."""
    return palette().png(hand_image(view, seat, lang))


@once
def prepare() -> None:
    """Learn the palette, draw every card's masters, then draw and map what every game
    shows: the open places at every side, the panels' numbers in every language, the place
    numbers at every side and the chips of a narrow board. Once per process (a second call, or a
    call while another thread prepares, waits and returns), so that no board waits for them.
    """
    palette()
    for face in (*FACES, None):
        for up, pips in CARD_KINDS:
            master_sprite(face, up, pips)
    for side in range(SIDE_RANGE[0], SIDE_RANGE[1] + 1, 2):
        place_shape(True, side)
        place_shape(False, side)
    for number in range(ALL_TOKENS + 1):  # no count of tokens, or of cards in the pot or a hand, is higher
        for size in (20, 22):
            piece_on_palette(Words(str(number), size, TEXT, "lm", BACKGROUND))
        for lang in LANGUAGES:
            piece_on_palette(Words(bank_text(number, lang), 18, TEXT, "rm", PANEL))
            piece_on_palette(Words(pot_text(number, lang), 18, TEXT, "rm", PANEL))
    for size in sorted({label_size(side) for side in range(SIDE_RANGE[0], SIDE_RANGE[1] + 1, 2)}):
        for label in range(1, 41):
            mapped_stamp(str(label), size)
    for players in range(2, 5):  # the chips of a board of the narrowest width
        for seat in range(players):
            for turn in (True, False):
                piece_on_palette(Chip(seat, chip_width(MIN_WIDTH, players) - 6, turn, False, False, DEFAULT))
