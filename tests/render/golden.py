"""Boards checked by their pixels, never by the renderer's own geometry: golden images (the hash
of a board's decoded pixels and its size, so a change to how a renderer is organised is proved
to change no pixel, in this process and in a fresh one) and the area a colour covers."""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parents[2]

Golden = tuple[tuple[int, int], str]


def pixels(png: bytes) -> Golden:
    """The size of the image `png` encodes and the sha256 of its RGBA pixels."""
    image = Image.open(io.BytesIO(png)).convert("RGBA")
    return image.size, hashlib.sha256(image.tobytes()).hexdigest()


def area(image: Image.Image, colour: tuple[int, int, int], tolerance: int = 12) -> int:
    """How many pixels of the RGB `image` are within `tolerance` of `colour` in every channel."""
    difference = ImageChops.difference(image, Image.new("RGB", image.size, colour))
    near = [band.point(lambda value: 255 if value <= tolerance else 0) for band in difference.split()]
    return ImageChops.multiply(ImageChops.multiply(near[0], near[1]), near[2]).histogram()[255]


def in_fresh_process(module: str, names: list[str], hash_seed: str) -> dict[str, Golden]:
    """`module.golden(name)` for each name, computed by a new interpreter whose str hashes are
    seeded with `hash_seed` (set iteration and dict order of strings differ from this process)."""
    code = f"import json, {module} as m; print(json.dumps({{n: m.golden(n) for n in {names!r}}}))"
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    return {name: ((size[0], size[1]), digest) for name, (size, digest) in found.items()}
