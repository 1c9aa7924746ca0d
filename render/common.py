"""The render toolkit every board shares: colours, fonts, seat labels, shapes, sprites
and the one way a board becomes a PNG.

**Palette strategy.** Boards are flat colours plus anti-aliased edges. Quantizing each
board afresh (median cut or octree) costs more than encoding it, so each renderer
builds one fixed palette, once, from a reference image holding every colour it draws
(its static layer and sprites: see `Palette.learn`), and each board is only mapped onto
that palette (`Palette.png`), without dithering. Mapping costs a fraction of the
encode and keeps the PNG small.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Point = tuple[float, float]

# Okabe–Ito: told apart by people with the common colour-vision deficiencies.
SEAT_COLOURS: tuple[RGB, ...] = (
    (0, 114, 178),  # blue
    (230, 159, 0),  # orange
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (86, 180, 233),  # sky blue
    (213, 94, 0),  # vermilion
)
SEAT_LETTERS = "ABCDEF"
BACKGROUND = (32, 34, 37)  # Discord's dark theme, so boards sit well in the client
PANEL = (47, 49, 54)
TEXT = (235, 236, 238)
MUTED = (150, 155, 162)
HIGHLIGHT = (255, 221, 87)
DARK_INK = (20, 20, 20)
LIGHT_INK = (255, 255, 255)
BREAKS = re.compile(r"[ \t\n]+")  # where lines may break (not at U+00A0 or U+202F)
SUPERSAMPLE = 4  # sprites are drawn this many times larger, then shrunk: smooth edges


FONT_FILE = Path(__file__).with_name("fonts") / "Inter-Regular.otf"  # SIL OFL 1.1: fonts/OFL.txt
FONT_SCALE = 0.9  # Inter's letters are a tenth larger than those the layouts were measured with


@dataclass(slots=True)
class TextSizes:
    """The font sizes text was set in while it was active (`recording_text_sizes`), in pixels of
    the image drawn: what a reader sees before the image is scaled for display."""

    pixels: set[float] = field(default_factory=set)

    @property
    def smallest(self) -> float:
        return min(self.pixels)


_TEXT_SIZES: ContextVar[TextSizes | None] = ContextVar("text_sizes", default=None)


@contextmanager
def recording_text_sizes() -> Iterator[TextSizes]:
    """Within the block, every `font` asked for in this context notes its size in the `TextSizes`
    yielded (text drawn from a cached sprite was noted when the sprite was drawn)."""
    sizes = TextSizes()
    token = _TEXT_SIZES.set(sizes)
    try:
        yield sizes
    finally:
        _TEXT_SIZES.reset(token)


def font(size: int, shrink: int = 1) -> ImageFont.FreeTypeFont:
    """The boards' typeface (Inter, bundled: every Latin letter German and French need, and no
    system font) at `size` layout pixels, for text drawn `shrink` times larger than it is shown
    (a supersampled sprite). Pillow's basic layout: the same on every machine, and five times
    faster than shaping with libraqm, which these Latin words do not need."""
    face = _typeface(size)
    note_text_size(face.size / shrink)
    return face


def note_text_size(pixels: float) -> None:
    """Note, while `recording_text_sizes`, text shown at `pixels` (text drawn once and then scaled
    notes the size it is shown at)."""
    if (sizes := _TEXT_SIZES.get()) is not None:
        sizes.pixels.add(pixels)


@lru_cache(maxsize=32)
def _typeface(size: int) -> ImageFont.FreeTypeFont:
    scaled = max(1, round(size * FONT_SCALE))
    return ImageFont.truetype(str(FONT_FILE), scaled, layout_engine=ImageFont.Layout.BASIC)


def words(text: str) -> list[str]:
    """`text` split where a line may break: at ordinary spaces only, so that a no-break space
    (French « Pioche », « 10 h ») keeps its neighbours on one line."""
    return [word for word in BREAKS.split(text) if word]


@lru_cache(maxsize=4096)
def advance(text: str, size: int) -> float:
    """How far `text` moves the pen at font `size` (cached: the words of boards repeat)."""
    return font(size).getlength(text)


def wrap(text: str, width: float, size: int) -> list[str]:
    """`text` as lines no wider than `width` pixels at font `size`, breaking between words."""
    space = advance(" ", size)
    lines: list[str] = []
    used = 0.0
    for word in words(text):
        length = advance(word, size)
        if lines and used + space + length <= width:
            lines[-1] += " " + word
            used += space + length
        else:
            lines.append(word)
            used = length
    return lines


def centred_text(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    text: str,
    size: int,
    fill: RGB = TEXT,
    shrink: int = 1,
    **kwargs: object,
) -> None:
    """Draw `text` centred on `centre` (`shrink`: see `font`)."""
    draw.text(centre, text, font=font(size, shrink), fill=fill, anchor="mm", **kwargs)  # type: ignore[arg-type]


def ink_for(colour: RGB) -> RGB:
    """Dark or light text, whichever reads better on `colour`."""
    r, g, b = colour
    return LIGHT_INK if 0.299 * r + 0.587 * g + 0.114 * b < 140 else DARK_INK


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """The colour `t` of the way from `a` to `b`."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def seat_label(seat: int) -> str:
    """A seat as every board writes it: its letter (drawn on or beside its colour)."""
    return SEAT_LETTERS[seat]


@dataclass(frozen=True, slots=True)
class Signal:
    """A colour that means something on a board, with the mark drawn with it that says the same
    without colour (a letter, a symbol, a number), or None where the colour stands alone: then it
    must stay apart from the others of its palette for every colour vision
    (tests/render/test_colour_vision.py)."""

    meaning: str
    colour: RGB
    mark: str | None


def seat_signals(seats: int = len(SEAT_COLOURS)) -> tuple[Signal, ...]:
    """The colours of the first `seats` seats, each drawn with its letter, and the highlight that
    marks the seat to move or the last move, drawn without one."""
    seats_drawn = tuple(
        Signal(f"seat {seat_label(seat)}", SEAT_COLOURS[seat], seat_label(seat)) for seat in range(seats)
    )
    return (*seats_drawn, Signal("highlight", HIGHLIGHT, None))


def seat_tag(draw: ImageDraw.ImageDraw, centre: Point, seat: int, size: int = 22) -> None:
    """A seat's label as the boards show it: its letter on a rounded square of its colour."""
    x, y = centre
    half = size / 2
    colour = SEAT_COLOURS[seat]
    draw.rounded_rectangle((x - half, y - half, x + half, y + half), radius=size // 5, fill=colour)
    centred_text(draw, centre, seat_label(seat), int(size * 0.7), fill=ink_for(colour))


def star_points(centre: Point, outer: float, inner: float, tips: int = 5, turn: float = -90) -> list[Point]:
    """The outline of a star with `tips` points, the first pointing at `turn` degrees (up)."""
    cx, cy = centre
    points = []
    for index in range(tips * 2):
        radius = outer if index % 2 == 0 else inner
        angle = math.radians(turn + 180 * index / tips)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def paste(image: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an RGBA sprite by its own transparency."""
    image.paste(sprite, xy, sprite if sprite.mode == "RGBA" else None)


def supersampled(
    size: tuple[int, int],
    paint: Callable[[ImageDraw.ImageDraw, int], None],
    background: tuple[int, ...] = (0, 0, 0, 0),
) -> Image.Image:
    """An RGBA sprite of `size`, painted `SUPERSAMPLE` times larger (paint gets the scale) and shrunk."""
    big = Image.new("RGBA", (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE), background)
    paint(ImageDraw.Draw(big), SUPERSAMPLE)
    return big.resize(size, Image.Resampling.LANCZOS)


def to_png(image: Image.Image) -> bytes:
    """Encode `image` as PNG bytes, deterministically (no timestamps or metadata)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


class Palette:
    """A renderer's fixed palette (see the module docstring), learnt once from its colours."""

    def __init__(self, reference: Image.Image, colours: int = 256) -> None:
        self.image = reference.convert("RGB").quantize(colours, method=Image.Quantize.MEDIANCUT)

    @classmethod
    def learn(cls, samples: Iterable[Image.Image], colours: int = 256) -> Palette:
        """A palette for everything in `samples` (static layers, sprites), side by side."""
        tiles = [sample.convert("RGB") for sample in samples]
        width = sum(tile.width for tile in tiles)
        sheet = Image.new("RGB", (width, max(tile.height for tile in tiles)), BACKGROUND)
        x = 0
        for tile in tiles:
            sheet.paste(tile, (x, 0))
            x += tile.width
        return cls(sheet, colours)

    def map(self, image: Image.Image) -> Image.Image:
        """`image` mapped onto the palette, pixel by pixel (no dithering): parts mapped
        apart and pasted together give the same image as the whole mapped at once."""
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        return rgb.quantize(palette=self.image, dither=Image.Dither.NONE)

    def png(self, image: Image.Image) -> bytes:
        """`image` mapped onto the palette and encoded."""
        return to_png(self.map(image))


def to_palette_png(image: Image.Image, colours: int = 256) -> bytes:
    """Deprecated: quantizes every board afresh; renderers move to `Palette`."""
    return to_png(image.quantize(colours, method=Image.Quantize.FASTOCTREE))
