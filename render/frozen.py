"""Images kept as immutable values, for the renderers' caches.

A cache that handed out a PIL image would hand out something any caller could draw on,
changing every later board. `Frozen` keeps the pixels as bytes instead; `image()` gives a
read-only view of them (no copy for palette, grey and RGBA pixels): Pillow copies such an
image before anything draws on it, so the cached pixels never change.
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
        return cls(image.mode, image.size, image.tobytes(), None if palette is None else bytes(palette))

    @property
    def width(self) -> int:
        return self.size[0]

    @property
    def height(self) -> int:
        return self.size[1]

    def image(self) -> Image.Image:
        """The pixels as a read-only image: drawing on it draws on a copy."""
        image = Image.frombuffer(self.mode, self.size, self.data, "raw", self.mode, 0, 1)
        if self.palette is not None:
            image.putpalette(self.palette)
        return image
