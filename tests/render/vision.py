"""Colour vision deficiencies simulated on a board's pixels, and how far apart two colours look.

Simulation: Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation
of Color Vision Deficiency", the matrices of severity 1.0 (protanopia, deuteranopia, tritanopia),
applied to linear-light sRGB. Distance: CIEDE2000 (Sharma, Wu and Dalal 2005) between CIELAB
colours under D65. Pure Pillow and `math`.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageFilter

RGB = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

MACHADO: dict[str, Matrix] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
DEFICIENCIES = tuple(MACHADO)
LUT_SIZE = 65  # the largest 3D table Pillow takes: between its points a colour is interpolated


def to_linear(channel: float) -> float:
    """An sRGB channel (0–1) in linear light."""
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def to_srgb(channel: float) -> float:
    """A linear-light channel (0–1) sRGB-encoded, clipped to the gamut."""
    channel = min(1.0, max(0.0, channel))
    return channel * 12.92 if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


def simulate_unit(rgb: tuple[float, float, float], deficiency: str) -> tuple[float, float, float]:
    """An sRGB colour of channels 0–1 as seen with `deficiency`."""
    linear = [to_linear(c) for c in rgb]
    seen = [
        sum(weight * value for weight, value in zip(row, linear, strict=True)) for row in MACHADO[deficiency]
    ]
    return to_srgb(seen[0]), to_srgb(seen[1]), to_srgb(seen[2])


def simulate(colour: RGB, deficiency: str) -> RGB:
    """An 8-bit sRGB colour as seen with `deficiency`."""
    r, g, b = simulate_unit((colour[0] / 255, colour[1] / 255, colour[2] / 255), deficiency)
    return round(r * 255), round(g * 255), round(b * 255)


@cache
def _table(deficiency: str) -> ImageFilter.Color3DLUT:
    return ImageFilter.Color3DLUT.generate(LUT_SIZE, lambda r, g, b: simulate_unit((r, g, b), deficiency))


def simulated(image: Image.Image, deficiency: str) -> Image.Image:
    """`image` (RGB) as seen with `deficiency`: exactly per colour when it has at most 256 colours
    (a board on its palette), else through a 3D table interpolated between its points."""
    rgb = image.convert("RGB")
    found = rgb.getcolors(256)
    if found is None:
        return rgb.filter(_table(deficiency))
    colours = [colour for _, colour in found]
    palette = Image.new("P", (1, 1))
    palette.putpalette([channel for colour in colours for channel in colour])
    indexed = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    indexed.putpalette([channel for colour in colours for channel in simulate(colour, deficiency)])
    return indexed.convert("RGB")


def lab(colour: RGB) -> tuple[float, float, float]:
    """CIELAB (D65) of an 8-bit sRGB colour."""
    r, g, b = (to_linear(c / 255) for c in colour)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(first: RGB, second: RGB) -> float:
    """CIEDE2000 between two 8-bit sRGB colours (1: just noticeable side by side)."""
    return ciede2000(lab(first), lab(second))


def ciede2000(first: tuple[float, float, float], second: tuple[float, float, float]) -> float:
    """CIEDE2000 between two CIELAB colours."""
    (l1, a1, b1), (l2, a2, b2) = first, second
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    dh = 0.0
    if c1p and c2p:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dhh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    h_mean = h1p + h2p
    if c1p and c2p:
        h_mean = (
            (h1p + h2p) / 2 if abs(h1p - h2p) <= 180 else (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
        )
    t = (
        1
        - 0.17 * math.cos(math.radians(h_mean - 30))
        + 0.24 * math.cos(math.radians(2 * h_mean))
        + 0.32 * math.cos(math.radians(3 * h_mean + 6))
        - 0.20 * math.cos(math.radians(4 * h_mean - 63))
    )
    sl = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    sc = 1 + 0.045 * cp_mean
    sh = 1 + 0.015 * cp_mean * t
    rt = (
        -2
        * math.sqrt(cp_mean**7 / (cp_mean**7 + 25**7))
        * math.sin(math.radians(60 * math.exp(-(((h_mean - 275) / 25) ** 2))))
    )
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhh / sh) ** 2 + rt * (dc / sc) * (dhh / sh))
