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

from games.rookie import CARDS_PER_KIND, KINDS, RookieView
from locales import DEFAULT, LANGUAGES, NP_, and_list, gettext, pgettext, texts
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    TEXT,
    advance,
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
    BADGE_R,
    BADGE_X,
    BADGE_Y,
    BAND_LINES,
    CARD_H,
    CARD_W,
    CELL_H,
    CELL_W,
    DETAIL_Y,
    FLIP_H,
    FLIP_W,
    HEADER,
    LINE_H,
    MARGIN,
    MINI_H,
    MINI_SIZE,
    MINI_W,
    MINI_Y,
    PANEL_X,
    ROW_H,
    ROW_W,
    SMALL,
    STACK_SIZE,
    STACK_X,
    STACK_Y,
    TITLE_Y,
    WIDTH,
    band_y,
    cell_origin,
    height,
    mini_x,
    row_top,
    strip_y,
)
from render.rookie.narration import cards, narrate, prompt, setup_word
from render.rookie.palette import colours, mapped
from render.rookie.sprites import card_sprite, stack_edges
from render.text import glyph, line, text_width, word

PROMPT_LINES = 2  # what the player is asked, at most (the message under the board says it whole)
TURN = 20  # the size of whose turn it is, in the header
POINTS = 28  # the size of a seat's points
TEXT_SIZES = (SMALL, TURN, POINTS)  # every size `_write` sets text in, but the title's
CARDS = max(CARDS_PER_KIND.values()) * len(KINDS)  # the most cards a game has
LETTERS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    ".,:;!?'’()·×–—…«»\u00a0\u202fäöüÄÖÜßéèêëàâîïôûùçÉÈÊÀÇœŒ"
)

# --- text on tiles and on boards ------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _mapped_word(text: str, size: int, ink: RGB, ground: RGB) -> Frozen:
    return mapped(word(text, size, ink, ground).image())


@cache
def _index(colour: RGB) -> int:
    """The palette index `colour` maps to."""
    return mapped(Image.new("RGB", (1, 1), colour)).data[0]


@lru_cache(maxsize=2048)
def _mapped_line(text: str, size: int, ink: RGB, ground: RGB) -> Frozen:
    """`line` on the palette, pieced together from words mapped once: mapping is pixel by pixel,
    so this is `line` mapped, without mapping every new line."""
    ascent, descent = font(size).getmetrics()
    tile = Image.new("L", (max(1, text_width(text, size) + 2), ascent + descent), _index(ground))
    cursor = 0.0
    for part in text.split(" "):
        if part:
            tile.paste(_mapped_word(part, size, ink, ground).image(), (round(cursor), 0))
        cursor += advance(part, size) + advance(" ", size)
    return Frozen.of(tile)


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
    while kept and text_width(" ".join(kept) + " …", SMALL) > width:
        kept.pop()
    return " ".join(kept) + " …"


# --- the tiles (full colour drawn once, kept mapped) ------------------------------------------------


@lru_cache(maxsize=8)
def _base(seats: int) -> Frozen:
    """What every board of `seats` seats shares: background, header bar and title, the band's rule."""
    image = Image.new("RGB", (WIDTH, height(seats)), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 1), fill=PANEL)
    _write(image, (MARGIN, TITLE_Y), "ROOKIE", 24, TEXT, PANEL)
    draw.line((MARGIN, band_y(seats), WIDTH - MARGIN, band_y(seats)), fill=PANEL, width=2)
    return mapped(image)


@lru_cache(maxsize=18)
def _cell_frame(position: int, flipped: bool) -> Frozen:
    """A table position without its cards: its panel and number, the last flip's outline."""
    tile = Image.new("RGB", (CELL_W, CELL_H), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((2, 2, CELL_W - 4, CELL_H - 4), 10, fill=PANEL)
    if flipped:
        draw.rounded_rectangle((0, 0, CELL_W - 2, CELL_H - 2), 12, outline=HIGHLIGHT, width=4)
    box = (BADGE_X - BADGE_R, BADGE_Y - BADGE_R, BADGE_X + BADGE_R, BADGE_Y + BADGE_R)
    draw.ellipse(box, fill=BADGE)
    _write(tile, (BADGE_X, BADGE_Y + 6), str(position + 1), SMALL, TEXT, BADGE, anchor="m")
    return mapped(tile)


@lru_cache(maxsize=64)
def _stack(depth: int, top: str | None, lang: str = DEFAULT) -> Frozen:
    """A stack on the table: its top card over edges as deep as the stack is tall (-1: empty)."""
    tile = Image.new("RGB", STACK_SIZE, PANEL)
    if depth < 0:
        ImageDraw.Draw(tile).rounded_rectangle((0, 0, CARD_W, CARD_H), 8, outline=OUTLINE, width=2)
        _write(
            tile,
            (CARD_W // 2, CARD_H // 2 + 6),
            pgettext(lang, "stack", "empty"),
            SMALL,
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
    """A seat's row without its discard stacks: tag, status over team, points and outline."""
    tile = Image.new("RGB", (ROW_W + 4, ROW_H - 4), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    bottom = ROW_H - 8
    draw.rounded_rectangle((2, 2, ROW_W + 2, bottom), 8, fill=PANEL)
    draw.rounded_rectangle((2, 2, 10, bottom), 4, fill=SEAT_COLOURS[seat])
    if to_move:
        draw.rounded_rectangle((0, 0, ROW_W + 3, bottom + 1), 9, outline=HIGHLIGHT, width=3)
    seat_tag(draw, (33, 29), seat, 34)
    if status:
        text = pgettext(lang, "score panel", status)  # status: one of `_status`'s words, never empty here
        ink = HIGHLIGHT if status in ("to move", "winner") else MUTED
        _write(tile, (58, 26), text, SMALL, ink, PANEL)
    if team is not None:
        fill, ink = TEAM_TAGS[team % len(TEAM_TAGS)]
        label = gettext(lang, "Team {team}", team=team + 1)
        width = text_width(label, SMALL) + 14
        draw.rounded_rectangle((56, 33, 56 + width, 55), 11, fill=fill)
        _write(tile, (56 + width // 2, 50), label, SMALL, ink, fill, anchor="m")
    _write(tile, (ROW_W - 6, 24), pgettext(lang, "score panel", "points"), SMALL, MUTED, PANEL, anchor="r")
    _write(tile, (ROW_W - 4, 56 if kids else 58), str(points), POINTS, TEXT, PANEL, anchor="r")
    return mapped(tile)


@lru_cache(maxsize=512)
def _mini(top: str | None, count: int) -> Frozen:
    """A discard stack in a seat's row: its top card (or outline) and its card count."""
    tile = Image.new("RGB", MINI_SIZE, PANEL)
    if count:
        paste(tile, card_sprite(top, MINI_W, MINI_H).image(), (0, 0))
    else:
        ImageDraw.Draw(tile).rounded_rectangle((0, 0, MINI_W - 1, MINI_H - 1), 5, outline=OUTLINE)
    _write(tile, (MINI_W + 4, MINI_H), str(count), SMALL, MUTED, PANEL)
    return mapped(tile)


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
    tile = Image.new("RGB", (30, 30), PANEL)
    seat_tag(ImageDraw.Draw(tile), (15, 15), seat, 28)
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
    layers, the glyphs of the letters the boards' words are set in and, on the palette, the
    words of every sentence the band may write."""
    tiles()
    for seats in range(2, len(SEAT_COLOURS) + 1):
        _base(seats)
    for lang in LANGUAGES:
        _mapped_line(gettext(lang, "Just turned up"), SMALL, MUTED, BACKGROUND)
    for size in TEXT_SIZES:
        for char in LETTERS:
            glyph(char, size)
    for lang in LANGUAGES:  # the words of every sentence the band may write, and every count
        spoken = [part for text in texts(lang, "render/rookie/") for part in text.split(" ")]
        for part in {*spoken, *map(str, range(CARDS + 1))}:
            if part and "{" not in part:
                for ink in (TEXT, MUTED):
                    _mapped_word(part, SMALL, ink, BACKGROUND)


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
    _write(image, (MARGIN, DETAIL_Y), detail, SMALL, MUTED, PANEL)
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
    _write(image, (right, TITLE_Y), message, TURN, TEXT, PANEL, anchor="r")
    if winners is None:
        tag = _turn_tag(view["to_move"][0]).image()
        left = right - text_width(message, TURN) - 38
        image.paste(tag, (left, TITLE_Y - 22))
        if before:
            _write(image, (left - 8, TITLE_Y), before, TURN, TEXT, PANEL, anchor="r")


@lru_cache(maxsize=256)
def _cell_label(count: int, is_open: bool, lang: str) -> tuple[str, RGB]:
    """What a table position's label says of its cards, and in which ink."""
    if not count:
        return "", MUTED
    if is_open:
        return gettext(lang, "open · {count}", count=count), HIGHLIGHT
    return cards(count, lang), MUTED


def _draw_table(image: Image.Image, view: RookieView, lang: str) -> None:
    """Each table position: its frame and number, its stack, and the label of its cards, each
    pasted from its own tile (a position changes with nearly every move)."""
    flipped = {entry["position"] for entry in view.get("last_flip") or ()}
    open_positions = set(view.get("open", ()))
    for p, position in enumerate(view["positions"]):
        count = position["count"]
        depth = min(3, (count + 2) // 4) if count else -1
        x, y = cell_origin(p)
        image.paste(_cell_frame(p, p in flipped).image(), (x, y))
        image.paste(_stack(depth, position["top"], lang).image(), (x + STACK_X, y + STACK_Y))
        label, ink = _cell_label(count, p in open_positions, lang)
        if label:
            _write(image, (x + (CELL_W - 2) // 2, y + CELL_H - 14), label, SMALL, ink, PANEL, anchor="m")


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
    """The cards of the last flip, each with where it lies."""
    top = strip_y(len(view["seats"]))
    _write(image, (MARGIN, top + 24), gettext(lang, "Just turned up"), SMALL, MUTED, BACKGROUND)
    x = MARGIN + 122
    flips = view.get("last_flip") or ()
    if not flips:
        _write(image, (x, top + 40), gettext(lang, "nothing yet"), SMALL, MUTED, BACKGROUND)
    for entry in flips:
        image.paste(_flip_card(entry["card"]).image(), (x, top + 6))
        position, source = entry["position"] + 1, entry["from"] + 1
        if position == source:
            where = gettext(lang, "at {position}", position=position)
        else:
            where = gettext(lang, "from {source} to {position}", source=source, position=position)
        _write(image, (x + FLIP_W + 8, top + 40), where, SMALL, TEXT, BACKGROUND)
        x += FLIP_W + 8 + text_width(where, SMALL) + 28


def _cut(lines: list[str], most: int, width: int) -> list[str]:
    """At most `most` of `lines`, the last one ending in an ellipsis if any were left out."""
    if len(lines) <= most:
        return lines
    return [*lines[: most - 1], _shorten(" ".join(lines[most - 1 :]), width)]


def _draw_band(image: Image.Image, view: RookieView, lang: str) -> None:
    """What just happened (the words of `narrate`), the teams' scores and what the player to move
    is asked, across the foot of the board."""
    width = WIDTH - 2 * MARGIN
    scores: list[tuple[str, RGB]] = []
    if view.get("team_scores"):
        text = "   ".join(
            gettext(lang, "Team {team}: {score}", team=t + 1, score=score)
            for t, score in enumerate(view["team_scores"])
        )
        scores.append((text, HIGHLIGHT))
    asked = prompt(view, seat_label, lang)
    asking = [(text, MUTED) for text in _cut(wrap(asked, width, SMALL), PROMPT_LINES, width)] if asked else []
    told = [text for sentence in narrate(view, seat_label, lang) for text in wrap(sentence, width, SMALL)]
    room = BAND_LINES - len(scores) - len(asking)
    lines = [(text, TEXT) for text in _cut(told, room, width)] + scores + asking
    top = band_y(len(view["seats"]))
    for row, (text, ink) in enumerate(lines):
        _write(image, (MARGIN, top + 24 + LINE_H * row), text, SMALL, ink, BACKGROUND)


def board_image(view: RookieView, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The finished table in `lang`, on the renderer's palette (mode P): what `render` encodes.

    The board is pieced together from tiles of palette indices, then given the palette."""
    tiles()
    image = _base(len(view["seats"])).image().copy()
    _draw_header(image, view, lang)
    _draw_table(image, view, lang)
    _draw_seats(image, view, viewer, lang)
    _draw_strip(image, view, lang)
    _draw_band(image, view, lang)
    image.putpalette(colours())
    return image
