"""A Tremember board drawn from a view: the mapped background, the 36 mapped tiles, and only
the header (headline and narration) and the scores drawn afresh. The board is drawn from
the public view only — `peek` is never read — so it cannot leak a face-down card.

Header text is set word by word from cached word masks: the words of the narration repeat
(seat letters, cells, motifs, verbs), so a render rasterizes almost no text.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from games.tremember import Side, TrememberView
from locales import DEFAULT, gettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    Point,
    centred_text,
    font,
    paste,
    seat_label,
    seat_tag,
    to_png,
    words,
)
from render.frozen import Frozen
from render.tremember.layout import (
    ARROW,
    GAP,
    GRID,
    HEADER,
    HEADLINE_SIZE,
    HEADLINE_Y,
    MARGIN,
    NARRATION_SIZE,
    NARRATION_Y,
    PEEK_SIZE,
    SCORES_HEIGHT,
    SCORES_TOP,
    SIZE,
    SMALL,
    TAG,
    WIDTH,
    X0,
    Y0,
    cell_xy,
    tile_xy,
)
from render.tremember.narration import instruction, motif_name, narrate, result
from render.tremember.palette import band_end, base, board_palette, hole, mapped, tile
from render.tremember.sprites import card_face

Cell = tuple[int, int]

# --- text from word masks -------------------------------------------------------------


@lru_cache(maxsize=4096)
def _word(word: str, size: int) -> tuple[Frozen, float]:
    """One word as a text mask (baseline at the font's ascent) and its advance."""
    face = font(size)
    ascent, descent = face.getmetrics()
    advance = face.getlength(word)
    mask = Image.new("L", (int(advance) + size // 2, ascent + descent))
    ImageDraw.Draw(mask).text((0, ascent), word, font=face, fill=255, anchor="ls")
    return Frozen.of(mask), advance


def wrap(sentences: list[str], width: float, size: int, lines: int) -> list[list[str]]:
    """The words of `sentences` in at most `lines` lines no wider than `width` (the last
    one cut short with an ellipsis)."""
    space = _word(" ", size)[1]
    out: list[list[str]] = []
    used = 0.0
    for word in words(" ".join(sentences)):
        advance = _word(word, size)[1]
        if out and used + space + advance <= width:
            out[-1].append(word)
            used += space + advance
        else:
            out.append([word])
            used = advance
    if len(out) > lines:
        out = out[:lines]
        last = [*out[-1], "…"]
        while len(last) > 2 and sum(_word(w, size)[1] + space for w in last) > width:
            del last[-2]
        out[-1] = last
    return out


def _write(image: Image.Image, xy: Point, line: list[str], size: int, fill: RGB) -> None:
    """The words of `line` from `xy` (left, vertical middle), set from the cached word masks."""
    ascent, descent = font(size).getmetrics()
    x, top = xy[0], round(xy[1] - (ascent + descent) / 2)
    space = _word(" ", size)[1]
    for word in line:
        mask, advance = _word(word, size)
        image.paste(fill, (round(x), top), mask.image())
        x += advance + space


def _width(line: list[str], size: int) -> float:
    """How wide `_write` sets the words of `line`."""
    return sum(_word(word, size)[1] for word in line) + _word(" ", size)[1] * (len(line) - 1)


# --- the board ----------------------------------------------------------------------


def _framed(view: TrememberView) -> set[Cell]:
    """The cards turned this turn, to frame in yellow: a first card, or the two just
    turned (where they lie now: a joker pair turned the board)."""
    cells = [view["first_flip"]] if view["first_flip"] else []
    event = view["last_event"]
    if event is not None and event["type"] == "pair":
        cells += event["cells_now"]
    elif event is not None and event["type"] == "miss":
        cells += event["cells"]
    return {(row, col) for row, col in cells}


def _shown(view: TrememberView) -> dict[Cell, str]:
    """The faces of a miss: on this image only, the cards are face down again."""
    event = view["last_event"]
    if event is None or event["type"] != "miss":
        return {}
    return {(flip["cell"][0], flip["cell"][1]): flip["motif"] for flip in view["last_flip"] or ()}


def _draw_board(image: Image.Image, view: TrememberView) -> None:
    """Every cell as one mapped tile, and the push band's ends with their arrows."""
    board, found = view["board"], view["found"]
    hole_at = (view["hole"][0], view["hole"][1]) if view["hole"] else None
    shown, framed = _shown(view), _framed(view)
    band_rows: set[int] = set()
    band_cols: set[int] = set()
    if hole_at is not None:
        sides = set(view["legal_pushes"])
        if sides & {"left", "right"}:
            band_rows.add(hole_at[0])
        if sides & {"top", "bottom"}:
            band_cols.add(hole_at[1])
        _draw_band_ends(image, hole_at, sides)
    tiles: dict[Frozen, list[tuple[int, int]]] = {}  # most tiles repeat: each is unpacked once
    for row in range(SIZE):
        for col in range(SIZE):
            if (row, col) == hole_at:
                stamp = hole()
            else:
                finder = found[row][col]
                frame = (
                    HIGHLIGHT if (row, col) in framed else None if finder is None else SEAT_COLOURS[finder]
                )
                face = board[row][col] or shown.get((row, col))
                stamp = tile(face, frame, finder, row in band_rows or col in band_cols)
            tiles.setdefault(stamp, []).append(tile_xy(row, col))
    for stamp, corners in tiles.items():
        sprite = stamp.image()
        for corner in corners:
            image.paste(sprite, corner)


def _draw_band_ends(image: Image.Image, hole_at: Cell, sides: set[Side]) -> None:
    """The band's ends beyond the tiles (END deep), an arrow at each legal one."""
    row, col = hole_at
    x, y = cell_xy(row, col)
    if sides & {"left", "right"}:
        image.paste(band_end("left", "left" in sides).image(), (X0 - ARROW, y - GAP // 2))
        image.paste(band_end("right", "right" in sides).image(), (X0 + GRID + GAP // 2, y - GAP // 2))
    if sides & {"top", "bottom"}:
        image.paste(band_end("top", "top" in sides).image(), (x - GAP // 2, Y0 - ARROW))
        image.paste(band_end("bottom", "bottom" in sides).image(), (x - GAP // 2, Y0 + GRID + GAP // 2))


def _header(view: TrememberView, lang: str) -> Image.Image:
    """The headline (who does what now, or the result) and the narration, in RGB."""
    strip = Image.new("RGB", (WIDTH, HEADER), BACKGROUND)
    if view["winners"] is not None:
        _write(strip, (MARGIN, HEADLINE_Y), words(result(view, lang)), HEADLINE_SIZE, TEXT)
    else:
        before, after = instruction(view, lang)
        x = MARGIN
        if before:
            _write(strip, (x, HEADLINE_Y), words(before), HEADLINE_SIZE, TEXT)
            x += round(_width(words(before), HEADLINE_SIZE) + _word(" ", HEADLINE_SIZE)[1])
        seat_tag(ImageDraw.Draw(strip), (x + 12, HEADLINE_Y), view["to_move"][0], size=TAG)
        _write(strip, (x + 32, HEADLINE_Y), words(after), HEADLINE_SIZE, TEXT)
    lines = wrap(narrate(view, seat_label, lang), WIDTH - 2 * MARGIN, NARRATION_SIZE, len(NARRATION_Y))
    for y, line in zip(NARRATION_Y, lines, strict=False):
        _write(strip, (MARGIN, y), line, NARRATION_SIZE, MUTED)
    return strip


@lru_cache(maxsize=256)
def _scores(
    scores: tuple[int, ...],
    to_move: tuple[int, ...],
    resigned: tuple[int, ...],
    viewer: int | None,
    lang: str,
) -> Frozen:
    """The score panels, mapped; one per seat, the seat to move outlined."""
    strip = Image.new("RGB", (WIDTH, SCORES_HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    n, gap = len(scores), 8
    width = (WIDTH - 2 * MARGIN - (n - 1) * gap) / n
    for seat, score in enumerate(scores):
        left = MARGIN + seat * (width + gap)
        draw.rounded_rectangle(
            (left, 0, left + width, SCORES_HEIGHT - 1),
            radius=10,
            fill=PANEL,
            outline=HIGHLIGHT if seat in to_move else None,
            width=3,
        )
        seat_tag(draw, (left + 24, SCORES_HEIGHT / 2), seat, size=32)
        label = pgettext(lang, "score panel", "left") if seat in resigned else str(score)
        colour = MUTED if seat in resigned else TEXT
        draw.text((left + 50, SCORES_HEIGHT / 2), label, font=font(24), fill=colour, anchor="lm")
        if seat == viewer:
            you = pgettext(lang, "score panel", "you")
            draw.text((left + width - 8, SCORES_HEIGHT / 2), you, font=font(SMALL), fill=MUTED, anchor="rm")
    return mapped(strip)


def board_image(view: TrememberView, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The finished board in `lang`, already on the palette (mode P): what `render` encodes."""
    image = base().image()
    _draw_board(image, view)
    image.paste(board_palette().map(_header(view, lang)), (0, 0))
    scores = _scores(tuple(view["scores"]), tuple(view["to_move"]), tuple(view["resigned"]), viewer, lang)
    image.paste(scores.image(), (0, SCORES_TOP))
    return image


def render(view: TrememberView, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """The public board as PNG bytes, its words in `lang`. `peek` is never drawn, whoever looks."""
    return to_png(board_image(view, viewer, lang))


# --- the peek -------------------------------------------------------------------------


def render_card(motif: str, lang: str = DEFAULT) -> bytes:
    """One card large with its name in `lang`: the private peek for the player who took it."""
    image = Image.new("RGB", (PEEK_SIZE + 40, PEEK_SIZE + 100), BACKGROUND)
    paste(image, card_face(motif, PEEK_SIZE), (20, 20))
    draw = ImageDraw.Draw(image)
    centred_text(
        draw,
        (image.width / 2, PEEK_SIZE + 48),
        gettext(lang, "Your card: {motif}", motif=motif_name(motif, lang)),
        22,
    )
    if motif.startswith("joker"):
        turns = gettext(lang, "a joker pair turns the board")
        centred_text(draw, (image.width / 2, PEEK_SIZE + 76), turns, 16, MUTED)
    return board_palette().png(image)
