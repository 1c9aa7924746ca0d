"""Drawing helpers every renderer shares: fonts, seat colours, PNG encoding."""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

# Okabe–Ito: told apart by people with the common colour-vision deficiencies.
SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
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


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled font at `size` pixels: no system font is needed."""
    return ImageFont.load_default(size=size)


def centred_text(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int] = TEXT,
    **kwargs: object,
) -> None:
    """Draw `text` centred on `centre`."""
    draw.text(centre, text, font=font(size), fill=fill, anchor="mm", **kwargs)


def to_png(image: Image.Image) -> bytes:
    """Encode `image` as PNG bytes, deterministically (no timestamps or metadata)."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=6)
    return buffer.getvalue()


def to_palette_png(image: Image.Image, colours: int = 256) -> bytes:
    """PNG of a palette version of `image`: boards use few flat colours, and a palette
    image encodes several times faster than RGB, which keeps renders within budget."""
    return to_png(image.quantize(colours, method=Image.Quantize.FASTOCTREE))
