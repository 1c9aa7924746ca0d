"""Images kept as immutable values, for the renderers' caches.

A cache that handed out a PIL image would hand out something any caller could draw on,
changing every later board. `Frozen` keeps the pixels as bytes instead; `image()` gives a
read-only view of them (no copy for palette, grey and RGBA pixels): Pillow copies such an
image before anything draws on it, so the cached pixels never change. RGB pixels are kept
four bytes apiece, as Pillow holds them, so that giving them back is a plain copy.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image


@dataclass(frozen=True, slots=True)
class Frozen:
    """An image's mode, size, pixels and (palette images) palette, as immutable values."""

    mode: str
    size: tuple[int, int]
    data: bytes
    palette: bytes | None = None

    @classmethod
    def of(cls, image: Image.Image) -> Frozen:
        palette = image.getpalette() if image.mode == "P" else None
        pixels = image.tobytes("raw", "RGBX") if image.mode == "RGB" else image.tobytes()
        return cls(image.mode, image.size, pixels, None if palette is None else bytes(palette))

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    def image(self) -> Image.Image:
        """The pixels as a read-only image (RGB: a fresh copy): drawing on it draws on a copy."""
        if self.mode == "RGB":
            return Image.frombytes("RGB", self.size, self.data, "raw", "RGBX")
        image = Image.frombuffer(self.mode, self.size, self.data, "raw", self.mode, 0, 1)
        if self.palette is not None:
            image.putpalette(self.palette)
        return image
