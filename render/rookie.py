"""Rookie board: the nine stacks, every seat's discard and point stacks, the last flip,
and what just happened.

Drawn only from the public view. Cards carry a symbol as well as a colour so that no
one needs colour vision to tell them apart; the X card is white with a black cross.

`narrate` and `prompt` are the one wording of what just happened and of what the player
to move is asked: the board writes them with seat letters, the cog's headline with
mentions.

Speed: every piece of the board that repeats — the static layer, each of the nine
table positions as it looks, each seat's row, the seat's discard stacks, every line of
text on its background — is drawn once (in full colour, sprites supersampled), mapped
onto the renderer's fixed `Palette` and cached. A render copies the static layer,
pastes those palette tiles and encodes. Mapping is a per-pixel nearest-colour lookup
without dithering, so mapping each tile once gives exactly the image `Palette.png`
would make of the whole full-colour board, without mapping the board every time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from locales import DEFAULT, N_, gettext, ngettext, pgettext
from render.common import (
    BACKGROUND,
    DARK_INK,
    HIGHLIGHT,
    MUTED,
    PANEL,
    SEAT_COLOURS,
    TEXT,
    Palette,
    advance,
    font,
    ink_for,
    mix,
    paste,
    seat_label,
    seat_tag,
    star_points,
    supersampled,
    to_png,
    words,
    wrap,
)

Colour = tuple[int, int, int]
Name = Callable[[int], str]

WIDTH = 780
HEADER = 46
MARGIN = 14
CELL_W, CELL_H = 108, 144
CARD_W, CARD_H = 74, 100
TABLE_X, TABLE_Y = MARGIN, HEADER + 10
PANEL_X = TABLE_X + 3 * CELL_W + 16
ROW_H = 70
ROW_W = WIDTH - MARGIN - PANEL_X
MINI_W, MINI_H = 32, 44
MINI_Y = 8
MINI_SIZE = (MINI_W + 28, MINI_H + 6)
STACKS = 3
STACK_X, STACK_Y = (CELL_W - 4) // 2 - CARD_W // 2 - 2, 8  # a stack's place within its cell
STACK_SIZE = (CARD_W + 7, CARD_H + 7)  # room for the edges of a tall stack, clear of the number
STRIP_Y = TABLE_Y + 3 * CELL_H + 6
STRIP_H = 70
FLIP_W, FLIP_H = 40, 56
BAND_Y = STRIP_Y + STRIP_H
LINE_H = 19
BAND_LINES = 3
GLYPH_PAD = 3
HEIGHT = BAND_Y + BAND_LINES * LINE_H + 14
CARD_SIZES = ((CARD_W, CARD_H), (MINI_W, MINI_H), (FLIP_W, FLIP_H))

CARD_FACES: dict[str, Colour] = {
    "red": (213, 50, 40),
    "yellow": (240, 196, 25),
    "green": (30, 150, 75),
    "blue": (35, 105, 205),
    "purple": (135, 70, 175),
    "X": (245, 245, 245),
}
SYMBOLS = {"red": "circle", "yellow": "triangle", "green": "square", "blue": "diamond", "purple": "star"}
CARD_BACK = (62, 72, 96)
CARD_EDGE = (20, 22, 25)
EDGES = (48, 55, 74)
OUTLINE = (80, 84, 92)
BADGE = (70, 74, 82)
TEAM_TAGS: tuple[tuple[Colour, Colour], ...] = (
    ((88, 88, 96), TEXT),
    ((200, 200, 206), DARK_INK),
    ((150, 120, 60), TEXT),
)


# --- the one wording ------------------------------------------------------------------------


# TRANSLATORS: the Rookie card colours (and the X card), as adjectives.
COLOUR_NAMES = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
    "X": "X",
}
A_CARDS = {
    "red": N_("a red card"),
    "yellow": N_("a yellow card"),
    "green": N_("a green card"),
    "blue": N_("a blue card"),
    "purple": N_("a purple card"),
    "X": N_("an X"),
}
# TRANSLATORS: the Rookie variants and decks, in the header of the board.
SETUP_WORDS = {"standard": N_("standard"), "team": N_("team"), "kids": N_("kids"), "pocket": N_("pocket")}
SIDES = {"before": N_("before you ({who}, {cards})"), "after": N_("after you ({who}, {cards})")}


def cards(count: int, lang: str = DEFAULT) -> str:
    return ngettext(lang, "{n} card", "{n} cards", count)


def colour(kind: str, lang: str = DEFAULT) -> str:
    """A card's colour in words ("red"), or X."""
    return gettext(lang, COLOUR_NAMES[kind]) if kind in COLOUR_NAMES else kind


def a_card(kind: str, lang: str = DEFAULT) -> str:
    if kind in A_CARDS:
        return gettext(lang, A_CARDS[kind])
    return "an X" if kind == "X" else f"a {kind} card"


def narrate(view: dict, name: Name, lang: str = DEFAULT) -> list[str]:
    """What the last move did (or the start), one sentence per event, seats named by `name`.

    Sentences count positions and stacks from 1 and never name a card that is face
    down again: a miss is told without its colours.
    """
    events = view.get("events")
    if events is None:
        events = [view["last_event"]] if view.get("last_event") else []
    return [_sentence(view, event, name, lang) for event in events]


def _sentence(view: dict, event: dict, name: Name, lang: str) -> str:
    who = name(event["seat"])
    kind = event["type"]
    if kind == "start":
        return gettext(lang, "{who} was drawn to start.", who=who)
    if kind == "flip":
        return _flipped(event, who, lang)
    if kind == "pair":
        # Kids: the pair scores at once (the last pair is told by "collect").
        if view.get("variant") == "kids" and view["winners"] is None:
            text = N_("{who} turned up a pair of {colour} cards: 2 cards onto the point stack.")
            return gettext(lang, text, who=who, colour=colour(event["card"], lang))
        return gettext(
            lang, "{who} turned up a pair of {colour} cards.", who=who, colour=colour(event["card"], lang)
        )
    if kind == "miss":
        return gettext(lang, "{who} turned up two different colours: both are face down again.", who=who)
    if kind == "open":
        return _opened(event, who, lang)
    if kind in ("place", "secure", "turn_down", "arrange"):
        return _stacked(event, who, name, lang)
    if kind in ("rookie", "steal", "collect"):
        return _took(event, who, name, lang)
    return gettext(lang, "{who} resigned.", who=who)


def _flipped(event: dict, who: str, lang: str) -> str:
    where, source, card = event["position"] + 1, event["from"] + 1, a_card(event["card"], lang)
    if where == source:
        return gettext(
            lang, "{who} turned up {card} at position {position}.", who=who, card=card, position=where
        )
    return gettext(
        lang,
        "{who} turned up {card} from position {source}; it moved to empty position {position}.",
        who=who,
        card=card,
        source=source,
        position=where,
    )


def _opened(event: dict, who: str, lang: str) -> str:
    shown = gettext(lang, " and ").join(a_card(card, lang) for card in event["cards"])
    if len(event["cards"]) == 2:
        return gettext(
            lang, "{who} turned up {cards}: a colour beside an X, so both stay open.", who=who, cards=shown
        )
    return gettext(
        lang,
        "{who} chased with {card}, which matches no open card, so it stays open too.",
        who=who,
        card=shown,
    )


def _stacked(event: dict, who: str, name: Name, lang: str) -> str:
    """The moves that put cards on stacks: place, secure, turn down, arrange."""
    kind, count = event["type"], cards(event.get("count", 0), lang)
    if kind == "turn_down":
        return gettext(lang, "{who} turned the {cards} left open face down.", who=who, cards=count)
    if kind == "secure":
        text = N_("{who} secured three {colour} tops: {cards} onto the point stack.")
        return gettext(lang, text, who=who, colour=colour(event["card"], lang), cards=count)
    if kind == "arrange":
        tops = ", ".join(
            gettext(lang, "{colour} on {stack}", colour=colour(top, lang), stack=index + 1)
            for index, top in enumerate(event["tops"])
            if top
        )
        text = N_("The {cards} taken went onto {who}'s stacks, new tops: {tops}.")
        return gettext(lang, text, cards=count, who=who, tops=tops)
    pair, stacks = colour(event["card"], lang), _stacks(event["stacks"], lang)
    if event["owner"] == event["seat"]:
        return gettext(lang, "{who} put the {colour} pair on {stacks}.", who=who, colour=pair, stacks=stacks)
    text = N_("{who} put the {colour} pair on partner {partner}'s {stacks}.")
    return gettext(lang, text, who=who, colour=pair, partner=name(event["owner"]), stacks=stacks)


def _took(event: dict, who: str, name: Name, lang: str) -> str:
    """The moves that take other seats' cards: Rookie, steal, the last pair's collection."""
    kind, count = event["type"], cards(event["count"], lang) if "count" in event else ""
    if kind == "rookie":
        text = N_("Rookie! {who} takes every other player's unsecured cards: {taken}.")
        return gettext(lang, text, who=who, taken=_taken(event, name, lang))
    if kind == "steal":
        text = N_("{who} took {cards} from {victim}'s discard stacks.")
        return gettext(lang, text, who=who, cards=count, victim=name(event["from"]))
    if not event["taken"]:
        return gettext(lang, "{who} took the last pair: {cards} onto the point stack.", who=who, cards=count)
    text = N_(
        "{who} took the last pair and collects every unsecured card: {cards} onto the point stack ({taken})."
    )
    return gettext(lang, text, who=who, cards=count, taken=_taken(event, name, lang))


def _stacks(stacks: Sequence[int], lang: str) -> str:
    first, second = (index + 1 for index in stacks)
    if first == second:
        return gettext(lang, "stack {stack}", stack=first)
    return gettext(lang, "stacks {first} and {second}", first=first, second=second)


def _taken(event: dict, name: Name, lang: str) -> str:
    """Whose unsecured cards a Rookie or the last pair took, and how many."""
    return ", ".join(
        gettext(lang, "{cards} from {victim}", cards=cards(count, lang), victim=name(seat))
        for seat, count in event["taken"]
    ) or gettext(lang, "there were none")


def prompt(view: dict, name: Name, lang: str = DEFAULT) -> str | None:
    """What the player to move is asked now, with what the choices would give (None once over)."""
    pending = view.get("pending")
    if not view["to_move"] or not pending:
        return None
    kind = pending["kind"]
    if kind == "start":
        return gettext(
            lang, "Open cards lie on the table: turn them down and flip two, or chase them with one card."
        )
    if kind == "flip":
        return (
            gettext(lang, "Flip a second card.") if pending["flipped"] else gettext(lang, "Flip two cards.")
        )
    if kind == "chase":
        return gettext(lang, "Chase: flip one more card to match an open card.")
    if kind == "place":
        return _place_prompt(view, pending, lang)
    if kind == "steal":
        sides = gettext(lang, " or ").join(_side(choice, name, lang) for choice in pending["choices"])
        return gettext(lang, "Take the unsecured cards of the player {sides}.", sides=sides)
    taken = ", ".join(f"{count} × {colour(card, lang)}" for card, count in pending["cards"].items())
    text = N_("Spread the {cards} taken ({taken}) on {who}'s stacks: choose the tops.")
    return gettext(lang, text, cards=cards(pending["count"], lang), taken=taken, who=name(pending["seat"]))


def _side(choice: dict, name: Name, lang: str) -> str:
    """ "before you (B, 3 cards)": a neighbour whose unsecured cards can be taken."""
    side = SIDES[choice["side"]]
    return gettext(lang, side, who=name(choice["from"]), cards=cards(choice["cards"], lang))


def _place_prompt(view: dict, pending: dict, lang: str) -> str:
    pair = colour(pending["card"], lang)
    if view.get("teams"):
        text = gettext(
            lang,
            "Place the {colour} pair on one or two discard stacks (yours or your partner's).",
            colour=pair,
        )
    else:
        text = gettext(lang, "Place the {colour} pair on one or two discard stacks (yours).", colour=pair)
    if pending["then_steal"]:
        text += " " + gettext(lang, "Then take a neighbour's unsecured cards.")
    return text


# --- text, cached word by word and line by line --------------------------------------------------


def _text_width(text: str, size: int) -> int:
    parts = text.split(" ")
    return round(sum(advance(part, size) for part in parts) + advance(" ", size) * (len(parts) - 1))


@lru_cache(maxsize=1024)
def _glyph(char: str, size: int) -> Image.Image:
    """A character's coverage mask, its pen position at (GLYPH_PAD, ascent).

    The font places characters at whole-pixel advances without kerning, so words set
    from these masks match the font's own rendering, at a fraction of its cost.
    """
    face = font(size)
    ascent, descent = face.getmetrics()
    mask = Image.new("L", (round(advance(char, size)) + 2 * GLYPH_PAD, ascent + descent), 0)
    ImageDraw.Draw(mask).text((GLYPH_PAD, ascent), char, font=face, fill=255, anchor="ls")
    return mask


@lru_cache(maxsize=4096)
def _word(word: str, size: int, ink: Colour, ground: Colour) -> Image.Image:
    """A word in `ink` on `ground`, its baseline at the font's ascent."""
    ascent, descent = font(size).getmetrics()
    tile = Image.new("RGB", (max(1, round(advance(word, size)) + 2), ascent + descent), ground)
    cursor = 0.0
    for char in word:
        tile.paste(ink, (round(cursor) - GLYPH_PAD, 0), _glyph(char, size))
        cursor += advance(char, size)
    return tile


@lru_cache(maxsize=2048)
def _line(text: str, size: int, ink: Colour, ground: Colour) -> Image.Image:
    """A line of text, pieced together from cached words."""
    face = font(size)
    ascent, descent = face.getmetrics()
    tile = Image.new("RGB", (max(1, _text_width(text, size) + 2), ascent + descent), ground)
    cursor = 0.0
    for word in text.split(" "):
        if word:
            tile.paste(_word(word, size, ink, ground), (round(cursor), 0))
        cursor += advance(word, size) + advance(" ", size)
    return tile


@lru_cache(maxsize=2048)
def _mapped_line(text: str, size: int, ink: Colour, ground: Colour) -> Image.Image:
    return _mapped(_line(text, size, ink, ground))


def _write(
    image: Image.Image,
    xy: tuple[int, int],
    text: str,
    size: int,
    ink: Colour,
    ground: Colour,
    anchor: str = "l",
) -> None:
    """Write `text` on `ground` with its baseline at y, from x on (anchor "l"), centred on
    x ("m") or ending at x ("r"); onto a full-colour tile or the palette board alike."""
    x, y = xy
    if anchor != "l":
        x -= _text_width(text, size) // (2 if anchor == "m" else 1)
    line = _line if image.mode == "RGB" else _mapped_line
    image.paste(line(text, size, ink, ground), (x, y - font(size).getmetrics()[0]))


def _shorten(text: str, width: int) -> str:
    """`text` cut at a word so that it fits `width` with an ellipsis."""
    kept = words(text)
    while kept and _text_width(" ".join(kept) + " …", 14) > width:
        kept.pop()
    return " ".join(kept) + " …"


# --- sprites (cached: they never change) -----------------------------------------------------


def _symbol(draw: ImageDraw.ImageDraw, kind: str, cx: float, cy: float, r: float) -> None:
    ink = ink_for(CARD_FACES[kind])
    shape = SYMBOLS[kind]
    if shape == "circle":
        draw.ellipse((cx - r * 0.85, cy - r * 0.85, cx + r * 0.85, cy + r * 0.85), fill=ink)
    elif shape == "triangle":
        corners = [math.radians(angle) for angle in (-90, 30, 150)]
        draw.polygon([(cx + r * math.cos(a), cy + r * math.sin(a)) for a in corners], fill=ink)
    elif shape == "square":
        s = r * 0.8
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=ink)
    elif shape == "diamond":
        draw.polygon([(cx, cy - r), (cx + r * 0.8, cy), (cx, cy + r), (cx - r * 0.8, cy)], fill=ink)
    else:
        draw.polygon(star_points((cx, cy), r, r * 0.45), fill=ink)


@lru_cache(maxsize=64)
def card_sprite(kind: str | None, width: int, height: int) -> Image.Image:
    """A card face (`kind`) or back (`None`) as an RGBA sprite, supersampled."""

    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        w, h = width * scale, height * scale
        radius = max(3, width // 9) * scale
        edge = max(1, width // 30) * scale
        if kind is None:
            draw.rounded_rectangle(
                (0, 0, w - 1, h - 1), radius, fill=CARD_BACK, outline=CARD_EDGE, width=2 * scale
            )
            inset = max(4, width // 8) * scale
            inner = (inset, inset, w - 1 - inset, h - 1 - inset)
            draw.rounded_rectangle(inner, radius // 2, outline=mix(CARD_BACK, TEXT, 0.2), width=edge)
            return
        draw.rounded_rectangle(
            (0, 0, w - 1, h - 1), radius, fill=CARD_FACES[kind], outline=CARD_EDGE, width=2 * scale
        )
        cx, cy, r = w / 2, h / 2, w * 0.33
        if kind == "X":
            thick = max(3, width // 7) * scale
            for dx in (-r, r):
                draw.line((cx - dx, cy - r, cx + dx, cy + r), fill=ink_for(CARD_FACES[kind]), width=thick)
        else:
            _symbol(draw, kind, cx, cy, r)

    return supersampled((width, height), paint)


@lru_cache(maxsize=8)
def _stack_edges(depth: int) -> Image.Image:
    """Card edges peeking out under a stack, deeper for taller stacks."""

    def paint(draw: ImageDraw.ImageDraw, scale: int) -> None:
        for layer in range(depth, 0, -1):
            offset = layer * 2 * scale
            box = (offset, offset, offset + (CARD_W - 1) * scale, offset + (CARD_H - 1) * scale)
            draw.rounded_rectangle(box, 8 * scale, fill=EDGES, outline=CARD_EDGE, width=scale)

    return supersampled((CARD_W + 8, CARD_H + 8), paint)


# --- the palette -------------------------------------------------------------------------------


@cache
def _palette() -> Palette:
    """The renderer's one palette, learnt from a sheet of everything it draws: every
    ground, card face and back (with their edges on both grounds), stack edges, seat
    tags, team tags, outlines, and text in every ink on every ground it is written on."""
    samples: list[Image.Image] = []
    fills = [
        BACKGROUND,
        PANEL,
        BADGE,
        OUTLINE,
        EDGES,
        CARD_BACK,
        HIGHLIGHT,
        *SEAT_COLOURS,
        *CARD_FACES.values(),
    ]
    samples += [Image.new("RGB", (48, 48), fill) for fill in fills]
    sprites = [card_sprite(kind, *size) for kind in (*CARD_FACES, None) for size in CARD_SIZES]
    for ground in (PANEL, BACKGROUND):
        for sprite in [*sprites, *(_stack_edges(depth) for depth in (1, 2, 3))]:
            tile = Image.new("RGB", sprite.size, ground)
            paste(tile, sprite, (0, 0))
            samples.append(tile)
        frame = Image.new("RGB", (60, 40), ground)
        ImageDraw.Draw(frame).rounded_rectangle((0, 0, 59, 39), 9, outline=HIGHLIGHT, width=3)
        ImageDraw.Draw(frame).rounded_rectangle((8, 8, 50, 30), 5, outline=OUTLINE, width=2)
        samples.append(frame)
        for ink in (TEXT, MUTED, HIGHLIGHT):
            samples.append(_line("Rookie: turned 0123456789 · cards", 14, ink, ground))
    tags = Image.new("RGB", (40 * len(SEAT_COLOURS), 40), PANEL)
    for seat in range(len(SEAT_COLOURS)):
        seat_tag(ImageDraw.Draw(tags), (20 + 40 * seat, 20), seat, 36)
    samples += [tags, _line("0123456789 points", 24, TEXT, PANEL), _line("123456789", 15, TEXT, BADGE)]
    samples += [_line("Team 123", 12, ink, fill) for fill, ink in TEAM_TAGS]
    return Palette.learn(samples)


def _mapped(image: Image.Image) -> Image.Image:
    """A full-colour tile mapped onto the palette once, to be pasted into boards as it is."""
    return _palette().map(image)


# --- the tiles (full colour drawn once, kept mapped) ------------------------------------------------


def _cell_origin(position: int) -> tuple[int, int]:
    row, column = divmod(position, 3)
    return TABLE_X + column * CELL_W, TABLE_Y + row * CELL_H


def _row_top(seat: int) -> int:
    return TABLE_Y + seat * ROW_H


def _mini_x(index: int) -> int:
    """Left edge of discard stack `index` within a seat's row."""
    return 128 + index * (MINI_W + 30)


@cache
def _base(lang: str) -> Image.Image:
    """What every board shares: background, header bar and title, the strip's label."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, HEADER - 1), fill=PANEL)
    _write(image, (MARGIN, HEADER // 2 + 8), "ROOKIE", 22, TEXT, PANEL)
    _write(image, (MARGIN, STRIP_Y + 22), gettext(lang, "Just turned up"), 14, MUTED, BACKGROUND)
    draw.line((MARGIN, BAND_Y, WIDTH - MARGIN, BAND_Y), fill=PANEL, width=2)
    return _mapped(image)


@lru_cache(maxsize=18)
def _cell_frame(position: int, flipped: bool) -> Image.Image:
    """A table position without its cards: its panel and number, the last flip's outline."""
    tile = Image.new("RGB", (CELL_W, CELL_H), BACKGROUND)
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle((2, 2, CELL_W - 4, CELL_H - 4), 10, fill=PANEL)
    if flipped:
        draw.rounded_rectangle((0, 0, CELL_W - 2, CELL_H - 2), 12, outline=HIGHLIGHT, width=4)
    badge_y = CELL_H - 18
    draw.ellipse((8, badge_y - 11, 30, badge_y + 11), fill=BADGE)
    _write(tile, (19, badge_y + 5), str(position + 1), 15, TEXT, BADGE, anchor="m")
    return _mapped(tile)


@lru_cache(maxsize=64)
def _stack(depth: int, top: str | None, lang: str = DEFAULT) -> Image.Image:
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
            paste(tile, _stack_edges(depth), (0, 0))
        paste(tile, card_sprite(top, CARD_W, CARD_H), (0, 0))
    return _mapped(tile)


@lru_cache(maxsize=512)
def _row_frame(
    seat: int, team: int | None, kids: bool, status: str, to_move: bool, points: int, lang: str = DEFAULT
) -> Image.Image:
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
    return _mapped(tile)


@lru_cache(maxsize=512)
def _mini(top: str | None, count: int) -> Image.Image:
    """A discard stack in a seat's row: its top card (or outline) and its card count."""
    tile = Image.new("RGB", MINI_SIZE, PANEL)
    if count:
        paste(tile, card_sprite(top, MINI_W, MINI_H), (0, 0))
    else:
        ImageDraw.Draw(tile).rounded_rectangle((0, 0, MINI_W - 1, MINI_H - 1), 5, outline=OUTLINE)
    _write(tile, (MINI_W + 4, MINI_H), str(count), 13, MUTED, PANEL)
    return _mapped(tile)


@lru_cache(maxsize=16)
def _turn_tag(seat: int) -> Image.Image:
    tile = Image.new("RGB", (28, 28), PANEL)
    seat_tag(ImageDraw.Draw(tile), (14, 14), seat, 26)
    return _mapped(tile)


@lru_cache(maxsize=8)
def _flip_card(card: str) -> Image.Image:
    """A card of the last flip, small, on the strip."""
    tile = Image.new("RGB", (FLIP_W, FLIP_H), BACKGROUND)
    paste(tile, card_sprite(card, FLIP_W, FLIP_H), (0, 0))
    return _mapped(tile)


# --- per render -----------------------------------------------------------------------------------


def _status(view: dict, seat: int, viewer: int | None) -> str:
    """A seat's status in English: `_row_frame` translates it (context "score panel")."""
    if view["seats"][seat].get("resigned"):
        return "left"
    if view["winners"] is not None and seat in view["winners"]:
        return "winner"
    if seat in view["to_move"]:
        return "to move"
    return "you" if seat == viewer else ""


def _setup_word(word: str, lang: str) -> str:
    return gettext(lang, SETUP_WORDS[word]) if word in SETUP_WORDS else word


def _draw_header(image: Image.Image, view: dict, lang: str) -> None:
    detail = gettext(
        lang,
        "{variant} · {deck} deck · {cards} on the table",
        variant=_setup_word(view.get("variant", "standard"), lang),
        deck=_setup_word(view.get("deck", "standard"), lang),
        cards=cards(view.get("table_cards", 0), lang),
    )
    _write(image, (MARGIN + 104, HEADER // 2 + 5), detail, 14, MUTED, PANEL)
    winners = view["winners"]
    if winners is None:
        message = pgettext(lang, "score panel", "to move")
    elif winners:
        message = gettext(
            lang, "Game over · won by {seats}", seats=", ".join(seat_label(seat) for seat in winners)
        )
    else:
        message = gettext(lang, "Game over · nobody won")
    right = WIDTH - MARGIN
    _write(image, (right, HEADER // 2 + 6), message, 18, TEXT, PANEL, anchor="r")
    if winners is None:
        image.paste(_turn_tag(view["to_move"][0]), (right - _text_width(message, 18) - 36, HEADER // 2 - 14))


def _draw_table(image: Image.Image, view: dict, lang: str) -> None:
    flipped = {entry["position"] for entry in view.get("last_flip") or ()}
    open_positions = set(view.get("open", ()))
    for p, position in enumerate(view["positions"]):
        x, y = _cell_origin(p)
        count = position["count"]
        image.paste(_cell_frame(p, p in flipped), (x, y))
        depth = min(3, (count + 2) // 4) if count else -1
        image.paste(_stack(depth, position["top"], lang), (x + STACK_X, y + STACK_Y))
        if count:
            if p in open_positions:
                label, ink = gettext(lang, "open · {count}", count=count), HIGHLIGHT
            else:
                label, ink = cards(count, lang), MUTED
            _write(image, (x + CELL_W - 12, y + CELL_H - 13), label, 14, ink, PANEL, anchor="r")


def _draw_seats(image: Image.Image, view: dict, viewer: int | None, lang: str) -> None:
    team_of = {seat: t for t, team in enumerate(view.get("teams") or ()) for seat in team}
    kids = view.get("variant") == "kids"
    for seat, player in enumerate(view["seats"]):
        x, y = PANEL_X - 2, _row_top(seat) - 2
        status = _status(view, seat, viewer)
        to_move, points = seat in view["to_move"], player["points"]
        frame = _row_frame(seat, team_of.get(seat), kids, status, to_move, points, lang)
        image.paste(frame, (x, y))
        if not kids:
            for index, stack in enumerate(player["stacks"]):
                image.paste(_mini(stack["top"], stack["count"]), (x + _mini_x(index), y + MINI_Y))


def _draw_strip(image: Image.Image, view: dict, lang: str) -> None:
    """The cards of the last flip, and what the player to move is asked."""
    x = MARGIN + 112
    flips = view.get("last_flip") or ()
    if not flips:
        _write(image, (x, STRIP_Y + 39), gettext(lang, "nothing yet"), 14, MUTED, BACKGROUND)
    for entry in flips:
        image.paste(_flip_card(entry["card"]), (x, STRIP_Y + 6))
        position, source = entry["position"] + 1, entry["from"] + 1
        if position == source:
            where = gettext(lang, "at {position}", position=position)
        else:
            where = gettext(lang, "from {source} to {position}", source=source, position=position)
        _write(image, (x + FLIP_W + 6, STRIP_Y + 39), where, 14, TEXT, BACKGROUND)
        x += 110
    lines: list[tuple[str, Colour]] = []
    if view.get("team_scores"):
        scores = "   ".join(
            gettext(lang, "Team {team}: {score}", team=t + 1, score=score)
            for t, score in enumerate(view["team_scores"])
        )
        lines.append((scores, HIGHLIGHT))
    asked = prompt(view, seat_label, lang)
    if asked:
        lines += [(line, MUTED) for line in wrap(asked, ROW_W, 14)]
    for row, (line, ink) in enumerate(lines[:3]):
        _write(image, (PANEL_X, STRIP_Y + 19 + LINE_H * row), line, 14, ink, BACKGROUND)


def _draw_band(image: Image.Image, view: dict, lang: str) -> None:
    """What just happened, in the words of `narrate`."""
    width = WIDTH - 2 * MARGIN
    told = [line for sentence in narrate(view, seat_label, lang) for line in wrap(sentence, width, 14)]
    if len(told) > BAND_LINES:
        told = [*told[: BAND_LINES - 1], _shorten(" ".join(told[BAND_LINES - 1 :]), width)]
    for row, line in enumerate(told):
        _write(image, (MARGIN, BAND_Y + 20 + LINE_H * row), line, 14, TEXT, BACKGROUND)


@cache
def _sprites() -> None:
    """Draw the finite sets of tiles at once, with the static layer, as sprites are."""
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


def render(view: dict, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """PNG bytes of the public Rookie table described by `view` in `lang` (`viewer`: whose "you" to mark)."""
    return to_png(board_image(view, viewer, lang))


def board_image(view: dict, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The finished table in `lang`, on the renderer's palette (mode P): what `render` encodes."""
    _sprites()
    image = _base(lang).copy()
    _draw_header(image, view, lang)
    _draw_table(image, view, lang)
    _draw_seats(image, view, viewer, lang)
    _draw_strip(image, view, lang)
    _draw_band(image, view, lang)
    return image
