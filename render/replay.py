"""Animated replays: a finished match as one animated image, a frame per public view kept.

**Which views.** A match of at most `MAX_FRAMES` views shows every one. A longer match is
condensed (`keyframes`) to `MAX_FRAMES`: the start, the end and every scoring move (a move
after which a score of the public view changed) are kept, and the rest of the frames are
sampled evenly from the other moves; if the scoring moves alone are too many, they are
sampled evenly in turn. This bounds a replay's time and size whatever the match's length.

Each frame is the board the game's renderer draws (`board_image`) under a caption strip:
the title, the real move number ("move 153/372") and a progress bar. The caption makes
every frame differ from the one before, so no encoder merges two moves into one frame; the
boards sit on one canvas, the largest board's size (a Triominos table grows). The start
shows a little longer than a move, the end is held; the animation loops.

**Format: animated WebP, lossless.** Measured against GIF of the very same frames
(`python -m benchmarks replay`, seeded 4-player matches): WebP is about half GIF's size
(60 moves: Tremember 0.26 MiB against 0.58, Rookie 0.24 against 0.50, Sequence Numbers
0.16 against 0.32; a 1,896-move Tremember 2.5 MiB against 4.6) and exact in full colour,
for an encode about three times GIF's that still fits the budget (0.3–0.5 s for 60
moves). `method=0` skips the colour-index transform and is ten times larger; lossy WebP
blurs the text and is larger than lossless on these flat boards. Both animate in Discord.

**Frames** are drawn straight from the views, never through PNG, and kept as palette
images (a byte a pixel) on one palette for the whole replay: exactly the colours of a
few sample boards when they are at most 256, else an octree's. The WebP encoder stores
each frame's changed rectangle with its colour-index transform.

**Size.** Frames shrink when needed so that all frames together hold at most
`PIXEL_BUDGET` pixels, which bounds the memory (and with it the file); a file still over
`MAX_BYTES` is made again, smaller and with fewer colours.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from locales import DEFAULT, gettext, ngettext
from render.common import BACKGROUND, HIGHLIGHT, MUTED, PANEL, TEXT, font

MAX_BYTES = 10 * 2**20  # Discord's upload limit
MAX_FRAMES = 120  # frames of a replay at most: a longer match is condensed
PIXEL_BUDGET = 64_000_000  # pixels over all frames: kept one byte each while the file is made
START_MS, MOVE_MS, HOLD_MS = 1000, 900, 3000
SAMPLES = 8  # boards the palette is learnt from
CAPTION = 40  # the caption strip's height at full size
TRACK = (64, 67, 74)  # the progress bar's empty part

BoardImage = Callable[..., Image.Image]  # a renderer's `board_image(view, viewer=None, lang=…)`
View = Mapping[str, Any]  # a spectator view: its `scores` are all a replay reads itself


@dataclass(frozen=True, slots=True)
class Replay:
    """An encoded replay: the file's bytes and name, its frame count and size in pixels, and
    the number of moves it covers (frames - 1 unless the match was condensed)."""

    data: bytes
    filename: str
    frames: int
    size: tuple[int, int]
    moves: int

    @property
    def condensed(self) -> bool:
        return self.frames < self.moves + 1


def replay(
    drawn: BoardImage, views: Sequence[View], *, title: str, lang: str = DEFAULT, limit: int = MAX_FRAMES
) -> Replay:
    """The animated replay of a game from its spectator `views`, oldest first, each board
    `drawn` by the game's renderer: a frame for each view `keyframes` keeps (all of them up
    to `limit`), its words (boards and captions) in `lang`.

    Only the views are drawn, so a replay shows what any spectator saw and nothing more.
    """
    if not views:
        raise ValueError("A replay needs at least one view: the start of the match.")
    moves = keyframes(views, limit)
    kept = [views[move] for move in moves]
    count = len(kept)
    board = functools.partial(drawn, lang=lang)
    samples = {index: board(kept[index]) for index in _sample_indexes(count)}
    largest = max(image.width * image.height for image in samples.values())
    scale = min(1.0, math.sqrt(PIXEL_BUDGET / (count * largest)))
    colours = 256
    captions = [(move, len(views) - 1) for move in moves]
    while True:
        frames = _frames(board, kept, captions, title, scale, colours, samples, lang)
        data = encode(frames)
        if len(data) <= MAX_BYTES:
            size = frames[0].size
            return Replay(data=data, filename="replay.webp", frames=count, size=size, moves=len(views) - 1)
        scale *= 0.9 * math.sqrt(MAX_BYTES / len(data))
        colours = max(32, colours // 2)


def keyframes(views: Sequence[View], limit: int = MAX_FRAMES) -> list[int]:
    """The indexes of the `views` a replay shows, at most `limit` (at least 2) of them: all when
    they are few enough, else the first, the last, the scoring moves and an even sample of the
    rest (see the module docstring)."""
    last = len(views) - 1
    if last < limit:
        return list(range(len(views)))
    scoring = [move for move in range(1, last) if views[move]["scores"] != views[move - 1]["scores"]]
    room = limit - 2
    if len(scoring) >= room:
        return [0, *_evenly(scoring, room), last]
    taken = set(scoring)
    rest = [move for move in range(1, last) if move not in taken]
    return sorted({0, last, *scoring, *_evenly(rest, room - len(scoring))})


def _evenly(items: Sequence[int], count: int) -> list[int]:
    """`count` of `items` spread evenly over them (each from the middle of its share)."""
    if count <= 0:
        return []
    share = len(items) / count
    return [items[int((k + 0.5) * share)] for k in range(count)]


def durations(count: int) -> list[int]:
    """How long each frame shows, in milliseconds: the start a little longer, the end held."""
    if count == 1:
        return [HOLD_MS]
    return [START_MS, *([MOVE_MS] * (count - 2)), HOLD_MS]


def caption_text(move: int, moves: int, lang: str = DEFAULT) -> str:
    """What the caption says of the frame after move `move` of `moves` (move 0 is the start),
    in `lang`."""
    if move == 0:
        return ngettext(lang, "start · {n} move", "start · {n} moves", moves)
    if move == moves:
        return gettext(lang, "move {index}/{moves} · end", index=move, moves=moves)
    return gettext(lang, "move {index}/{moves}", index=move, moves=moves)


def _sample_indexes(count: int) -> list[int]:
    """The frames the palette is learnt from: the first, the last and some evenly between."""
    return sorted({round(k * (count - 1) / (SAMPLES - 1)) for k in range(SAMPLES)})


def _frames(
    board: Callable[[View], Image.Image],
    views: Sequence[View],
    captions: Sequence[tuple[int, int]],
    title: str,
    scale: float,
    colours: int,
    samples: dict[int, Image.Image],
    lang: str,
) -> list[Image.Image]:
    """Every frame on one palette and one canvas, `scale` times the boards' size; `captions`
    holds each frame's (move, moves)."""
    strip_h = max(20, round(CAPTION * max(scale, 0.5)))
    shrunk = [_shrink(image, scale) for image in samples.values()]
    palette = _palette([*shrunk, _caption("Aa", 1, 2, shrunk[0].width, strip_h, lang)], colours)
    boards = [
        _map(_shrink(samples[index] if index in samples else board(view), scale), palette)
        for index, view in enumerate(views)
    ]
    width = max(image.width for image in boards)
    height = max(image.height for image in boards) + strip_h
    ground = _map(Image.new("RGB", (width, height), BACKGROUND), palette)
    for index, image in enumerate(boards):
        frame = ground.copy()
        move, moves = captions[index]
        frame.paste(_map(_caption(title, move, moves, width, strip_h, lang), palette), (0, 0))
        frame.paste(image, ((width - image.width) // 2, strip_h))
        boards[index] = frame  # the board is in the frame now: only one of them is kept
    return boards


def _shrink(image: Image.Image, scale: float) -> Image.Image:
    """`image` in full colour, `scale` times its size."""
    rgb = image.convert("RGB")
    if scale >= 1:
        return rgb
    size = (max(1, round(rgb.width * scale)), max(1, round(rgb.height * scale)))
    return rgb.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)


def _palette(samples: list[Image.Image], colours: int) -> Image.Image:
    """The replay's one palette: exactly the samples' colours when they are few enough,
    else an octree's (it keeps a rare colour apart better than median cut, and is faster)."""
    seen: set[tuple[int, ...]] = set()
    for sample in samples:
        found = sample.getcolors(colours)
        seen.update(colour for _, colour in found or () if isinstance(colour, tuple))
        if found is None or len(seen) > colours:
            return _sheet(samples).quantize(colours, method=Image.Quantize.FASTOCTREE)
    exact = Image.new("P", (1, 1))
    exact.putpalette([value for colour in sorted(seen) for value in colour])
    return exact


def _sheet(samples: list[Image.Image]) -> Image.Image:
    """The samples side by side in one image."""
    sheet = Image.new("RGB", (sum(s.width for s in samples), max(s.height for s in samples)), BACKGROUND)
    x = 0
    for sample in samples:
        sheet.paste(sample, (x, 0))
        x += sample.width
    return sheet


def _map(image: Image.Image, palette: Image.Image) -> Image.Image:
    """`image` on the replay's palette, nearest colour, no dithering (flat colours stay flat)."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _caption(title: str, move: int, moves: int, width: int, height: int, lang: str) -> Image.Image:
    """The strip over a board: the title, the move shown and a progress bar."""
    strip = Image.new("RGB", (width, height), PANEL)
    draw = ImageDraw.Draw(strip)
    size = max(11, round(height * 0.45))
    bar = max(2, height // 10)
    middle = (height - bar) / 2
    where = caption_text(move, moves, lang)
    right = width - size // 2
    draw.text((right, middle), where, font=font(size), fill=TEXT, anchor="rm")
    room = right - draw.textlength(where, font=font(size)) - size
    draw.text((size // 2, middle), _fit(draw, title, size, room), font=font(size), fill=MUTED, anchor="lm")
    draw.rectangle((0, height - bar, width, height), fill=TRACK)
    done = round(width * move / max(1, moves))
    if done:
        draw.rectangle((0, height - bar, done - 1, height), fill=HIGHLIGHT)
    return strip


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, room: float) -> str:
    """`text`, shortened with an ellipsis to fit `room` pixels."""
    if draw.textlength(text, font=font(size)) <= room:
        return text
    while text and draw.textlength(text + "…", font=font(size)) > room:
        text = text[:-1]
    return text.rstrip() + "…" if text else ""


def encode(frames: list[Image.Image]) -> bytes:
    """The frames as one looping animated WebP, lossless (see the module docstring)."""
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="WEBP",
        save_all=True,
        append_images=frames[1:],
        duration=durations(len(frames)),
        loop=0,
        lossless=True,
        quality=0,
        method=1,
        kmin=0,
        kmax=0,  # no key frames: a replay plays from its start, and every key frame costs
    )
    return buffer.getvalue()
