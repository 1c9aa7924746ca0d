"""Drawing the Rookie table: tiles drawn once and kept mapped on the palette, and per board
only what changed.

Every piece of the board that repeats — the static layer, each of the nine table positions
as it looks, each seat's row, the seat's discard stacks, every line of text on its
background — is drawn once (in full colour, sprites supersampled), mapped onto the
renderer's fixed palette and cached as a `Frozen` image. A board copies the static layer,
pastes those tiles and is encoded.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image, ImageDraw

from games.rookie import RookieView
from locales import DEFAULT, LANGUAGES, NP_, and_list, gettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    font,
    paste,
    seat_label,
    seat_tag,
    words,
    wrap,
)
from render.frozen import Frozen
from render.rookie.colours import BADGE, CARD_FACES, OUTLINE, TEAM_TAGS
from render.rookie.layout import (
    BAND_LINES,
    BAND_Y,
    CARD_H,
    CARD_W,
    CELL_H,
    CELL_W,
    FLIP_H,
    FLIP_W,
    HEADER,
    HEIGHT,
    LINE_H,
    MARGIN,
    MINI_H,
    MINI_SIZE,
    MINI_W,
    MINI_Y,
    PANEL_X,
    ROW_H,
    ROW_W,
    STACK_SIZE,
    STACK_X,
    STACK_Y,
    STRIP_Y,
    WIDTH,
    cell_origin,
    mini_x,
    row_top,
)
from render.rookie.narration import cards, narrate, prompt, setup_word
from render.rookie.palette import colours, mapped
from render.rookie.sprites import card_sprite, stack_edges
from render.rookie.text import glyph, line, text_width

PROMPT_LINES = 3  # the lines beside the last flip: team scores, then what the player is asked
TEXT_SIZES = (12, 13, 14, 15, 18, 24)  # every size `_write` sets text in, but the title's
LETTERS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    ".,:;!?'’()·×–—…«»\u00a0\u202fäöüÄÖÜßéèêëàâîïôûùçÉÈÊÀÇœŒ"
)

# --- text on tiles and on boards ------------------------------------------------------------------


@lru_cache(maxsize=2048)
def _mapped_line(text: str, size: int, ink: RGB, ground: RGB) -> Frozen:
    return mapped(line(text, size, ink, ground).image())


def _write(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    ink: RGB,
    ground: RGB,
    anchor: str = "l",
) -> None:
    """Write `text` on `ground` with its baseline at y, from x on (anchor "l"), centred on
    x ("m") or ending at x ("r"); onto a full-colour tile or a board of palette indices alike."""
    x, y = xy
    if anchor != "l":
        x -= text_width(text, size) // (2 if anchor == "m" else 1)
    set_in = line if image.mode == "RGB" else _mapped_line
    image.paste(set_in(text, size, ink, ground).image(), (x, y - font(size).getmetrics()[0]))


def _shorten(text: str, width: int) -> str:
    """`text` cut at a word so that it fits `width` with an ellipsis."""
    kept = words(text)
    while kept and text_width(" ".join(kept) + " …", 14) > width:
        kept.pop()
    return " ".join(kept) + " …"


# --- the tiles (full colour drawn once, kept mapped) ------------------------------------------------


@cache
def _base(lang: str) -> Frozen:
    """What every board shares: background, header bar and title, the strip's label."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 1), fill=PANEL)
    _write(image, (MARGIN, HEADER // 2 + 8), "ROOKIE", 22, TEXT, PANEL)
    _write(image, (MARGIN, STRIP_Y + 22), gettext(lang, "Just turned up"), 14, MUTED, BACKGROUND)
    draw.line((MARGIN, BAND_Y, WIDTH - MARGIN, BAND_Y), fill=PANEL, width=2)
    return mapped(image)


@lru_cache(maxsize=18)
def _cell_frame(position: int, flipped: bool) -> Frozen:
    """A table position without its cards: its panel and number, the last flip's outline."""
    tile = Image.new("RGB", (CELL_W, CELL_H), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((2, 2, CELL_W - 4, CELL_H - 4), 10, fill=PANEL)
    if flipped:
        draw.rounded_rectangle((0, 0, CELL_W - 2, CELL_H - 2), 12, outline=HIGHLIGHT, width=4)
    badge_y = CELL_H - 18
    draw.ellipse((8, badge_y - 11, 30, badge_y + 11), fill=BADGE)
    _write(tile, (19, badge_y + 5), str(position + 1), 15, TEXT, BADGE, anchor="m")
    return mapped(tile)


@lru_cache(maxsize=64)
def _stack(depth: int, top: str | None, lang: str = DEFAULT) -> Frozen:
    """A stack on the table: its top card over edges as deep as the stack is tall (-1: empty)."""
    tile = Image.new("RGB", STACK_SIZE, PANEL)
    if depth < 0:
        ImageDraw.Draw(tile).rounded_rectangle((0, 0, CARD_W, CARD_H), 8, outline=OUTLINE, width=2)
        _write(
            tile,
            (CARD_W // 2, CARD_H // 2 + 5),
            pgettext(lang, "stack", "empty"),
            14,
            MUTED,
            PANEL,
            anchor="m",
        )
    else:
        if depth:
            paste(tile, stack_edges(depth).image(), (0, 0))
        paste(tile, card_sprite(top, CARD_W, CARD_H).image(), (0, 0))
    return mapped(tile)


@lru_cache(maxsize=512)
def _row_frame(
    seat: int, team: int | None, kids: bool, status: str, to_move: bool, points: int, lang: str = DEFAULT
) -> Frozen:
    """A seat's row without its discard stacks: tag, status, team, points and outline."""
    tile = Image.new("RGB", (ROW_W + 4, ROW_H - 4), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((2, 2, ROW_W + 2, ROW_H - 6), 8, fill=PANEL)
    draw.rounded_rectangle((2, 2, 10, ROW_H - 6), 4, fill=SEAT_COLOURS[seat])
    if to_move:
        draw.rounded_rectangle((0, 0, ROW_W + 3, ROW_H - 5), 9, outline=HIGHLIGHT, width=3)
    seat_tag(draw, (37, 33), seat, 36)
    if status:
        text = pgettext(lang, "score panel", status)  # status: one of `_status`'s words, never empty here
        _write(tile, (64, 28), text, 14, HIGHLIGHT if status in ("to move", "winner") else MUTED, PANEL)
    if team is not None:
        fill, ink = TEAM_TAGS[team % len(TEAM_TAGS)]
        draw.rounded_rectangle((64, 43, 122, 59), 8, fill=fill)
        _write(tile, (93, 55), gettext(lang, "Team {team}", team=team + 1), 12, ink, fill, anchor="m")
    _write(tile, (ROW_W - 10, 24), pgettext(lang, "score panel", "points"), 13, MUTED, PANEL, anchor="r")
    _write(tile, (ROW_W - 8, 56), str(points), 24, TEXT, PANEL, anchor="r")
    return mapped(tile)


@lru_cache(maxsize=512)
def _mini(top: str | None, count: int) -> Frozen:
    """A discard stack in a seat's row: its top card (or outline) and its card count."""
    tile = Image.new("RGB", MINI_SIZE, PANEL)
    if count:
        paste(tile, card_sprite(top, MINI_W, MINI_H).image(), (0, 0))
    else:
        ImageDraw.Draw(tile).rounded_rectangle((0, 0, MINI_W - 1, MINI_H - 1), 5, outline=OUTLINE)
    _write(tile, (MINI_W + 4, MINI_H), str(count), 13, MUTED, PANEL)
    return mapped(tile)


@lru_cache(maxsize=1024)
def _position(
    position: int, flipped: bool, depth: int, top: str | None, label: str, ink: RGB, lang: str
) -> Frozen:
    """A table position as a board shows it: its frame, its stack, and the label of its cards."""
    tile = _cell_frame(position, flipped).image().copy()
    tile.paste(_stack(depth, top, lang).image(), (STACK_X, STACK_Y))
    if label:
        _write(tile, (CELL_W - 12, CELL_H - 13), label, 14, ink, PANEL, anchor="r")
    return Frozen.of(tile)


@lru_cache(maxsize=1024)
def _seat_row(
    seat: int,
    team: int | None,
    kids: bool,
    status: str,
    to_move: bool,
    points: int,
    lang: str,
    stacks: tuple[tuple[str | None, int], ...],
) -> Frozen:
    """A seat's row as a board shows it: its frame and (unless kids) its discard stacks."""
    tile = _row_frame(seat, team, kids, status, to_move, points, lang).image().copy()
    if not kids:
        for index, (top, count) in enumerate(stacks):
            tile.paste(_mini(top, count).image(), (mini_x(index), MINI_Y))
    return Frozen.of(tile)


@lru_cache(maxsize=16)
def _turn_tag(seat: int) -> Frozen:
    tile = Image.new("RGB", (28, 28), PANEL)
    seat_tag(ImageDraw.Draw(tile), (14, 14), seat, 26)
    return mapped(tile)


@lru_cache(maxsize=8)
def _flip_card(card: str) -> Frozen:
    """A card of the last flip, small, on the strip."""
    tile = Image.new("RGB", (FLIP_W, FLIP_H), BACKGROUND)
    paste(tile, card_sprite(card, FLIP_W, FLIP_H).image(), (0, 0))
    return mapped(tile)


@cache
def tiles() -> None:
    """Draw the finite sets of tiles at once, as sprites are."""
    for position in range(9):
        _cell_frame(position, False)
        _cell_frame(position, True)
    for kind in (*CARD_FACES, None):
        for depth in range(4):
            _stack(depth, kind, DEFAULT)
    _stack(-1, None, DEFAULT)
    for kind in CARD_FACES:
        _flip_card(kind)
    for seat in range(len(SEAT_COLOURS)):
        _turn_tag(seat)


def prepare_all() -> None:
    """Everything a first board would otherwise draw at first use: the tiles, the static
    layer in every language, and the glyphs of the letters the boards' words are set in."""
    tiles()
    for lang in LANGUAGES:
        _base(lang)
    for size in TEXT_SIZES:
        for char in LETTERS:
            glyph(char, size)


# --- per board ------------------------------------------------------------------------------------


def _status(view: RookieView, seat: int, viewer: int | None) -> str:
    """A seat's status in English: `_row_frame` translates it (context "score panel")."""
    if view["seats"][seat].get("resigned"):
        return "left"
    if view["winners"] is not None and seat in view["winners"]:
        return "winner"
    if seat in view["to_move"]:
        return NP_("score panel", "to move")[1]
    return "you" if seat == viewer else ""


def _draw_header(image: Image.Image, view: RookieView, lang: str) -> None:
    detail = gettext(
        lang,
        "{variant} · {deck} deck · {cards} on the table",
        variant=setup_word(view.get("variant", "standard"), lang),
        deck=setup_word(view.get("deck", "standard"), lang),
        cards=cards(view.get("table_cards", 0), lang),
    )
    _write(image, (MARGIN + 104, HEADER // 2 + 5), detail, 14, MUTED, PANEL)
    winners = view["winners"]
    if winners is None:
        # The whole sentence is one template; the seat's tag is drawn where "{seat}" stands.
        before, _, message = pgettext(lang, "score panel", "{seat} to move").partition("{seat}")
        before, message = before.strip(), message.strip()
    elif winners:
        message = gettext(
            lang, "Game over · won by {seats}", seats=and_list(lang, [seat_label(seat) for seat in winners])
        )
    else:
        message = gettext(lang, "Game over · nobody won")
    right = WIDTH - MARGIN
    _write(image, (right, HEADER // 2 + 6), message, 18, TEXT, PANEL, anchor="r")
    if winners is None:
        tag = _turn_tag(view["to_move"][0]).image()
        left = right - text_width(message, 18) - 36
        image.paste(tag, (left, HEADER // 2 - 14))
        if before:
            _write(image, (left - 8, HEADER // 2 + 6), before, 18, TEXT, PANEL, anchor="r")


def _draw_table(image: Image.Image, view: RookieView, lang: str) -> None:
    flipped = {entry["position"] for entry in view.get("last_flip") or ()}
    open_positions = set(view.get("open", ()))
    for p, position in enumerate(view["positions"]):
        count = position["count"]
        depth = min(3, (count + 2) // 4) if count else -1
        label, ink = "", MUTED
        if count and p in open_positions:
            label, ink = gettext(lang, "open · {count}", count=count), HIGHLIGHT
        elif count:
            label = cards(count, lang)
        image.paste(
            _position(p, p in flipped, depth, position["top"], label, ink, lang).image(), cell_origin(p)
        )


def _draw_seats(image: Image.Image, view: RookieView, viewer: int | None, lang: str) -> None:
    team_of = {seat: t for t, team in enumerate(view.get("teams") or ()) for seat in team}
    kids = view.get("variant") == "kids"
    for seat, player in enumerate(view["seats"]):
        x, y = PANEL_X - 2, row_top(seat) - 2
        status = _status(view, seat, viewer)
        to_move, points = seat in view["to_move"], player["points"]
        stacks = tuple((stack["top"], stack["count"]) for stack in player["stacks"])
        row = _seat_row(seat, team_of.get(seat), kids, status, to_move, points, lang, stacks)
        image.paste(row.image(), (x, y))


def _draw_strip(image: Image.Image, view: RookieView, lang: str) -> None:
    """The cards of the last flip, and what the player to move is asked."""
    x = MARGIN + 112
    flips = view.get("last_flip") or ()
    if not flips:
        _write(image, (x, STRIP_Y + 39), gettext(lang, "nothing yet"), 14, MUTED, BACKGROUND)
    for entry in flips:
        image.paste(_flip_card(entry["card"]).image(), (x, STRIP_Y + 6))
        position, source = entry["position"] + 1, entry["from"] + 1
        if position == source:
            where = gettext(lang, "at {position}", position=position)
        else:
            where = gettext(lang, "from {source} to {position}", source=source, position=position)
        _write(image, (x + FLIP_W + 6, STRIP_Y + 39), where, 14, TEXT, BACKGROUND)
        x += 110
    lines: list[tuple[str, RGB]] = []
    if view.get("team_scores"):
        scores = "   ".join(
            gettext(lang, "Team {team}: {score}", team=t + 1, score=score)
            for t, score in enumerate(view["team_scores"])
        )
        lines.append((scores, HIGHLIGHT))
    asked = prompt(view, seat_label, lang)
    if asked:
        lines += [(text, MUTED) for text in wrap(asked, ROW_W, 14)]
    if len(lines) > PROMPT_LINES:  # the message under the board says it whole
        rest = " ".join(text for text, _ in lines[PROMPT_LINES - 1 :])
        lines = [*lines[: PROMPT_LINES - 1], (_shorten(rest, ROW_W), MUTED)]
    for row, (text, ink) in enumerate(lines):
        _write(image, (PANEL_X, STRIP_Y + 19 + LINE_H * row), text, 14, ink, BACKGROUND)


def _draw_band(image: Image.Image, view: RookieView, lang: str) -> None:
    """What just happened, in the words of `narrate`."""
    width = WIDTH - 2 * MARGIN
    told = [text for sentence in narrate(view, seat_label, lang) for text in wrap(sentence, width, 14)]
    if len(told) > BAND_LINES:
        told = [*told[: BAND_LINES - 1], _shorten(" ".join(told[BAND_LINES - 1 :]), width)]
    for row, text in enumerate(told):
        _write(image, (MARGIN, BAND_Y + 20 + LINE_H * row), text, 14, TEXT, BACKGROUND)


def board_image(view: RookieView, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The finished table in `lang`, on the renderer's palette (mode P): what `render` encodes.

    The board is pieced together from tiles of palette indices, then given the palette."""
    tiles()
    image = _base(lang).image().copy()
    _draw_header(image, view, lang)
    _draw_table(image, view, lang)
    _draw_seats(image, view, viewer, lang)
    _draw_strip(image, view, lang)
    _draw_band(image, view, lang)
    image.putpalette(colours())
    return image
