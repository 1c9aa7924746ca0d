"""Sequence Numbers images: the public board and a player's hand.

The board is drawn from the public parts of a view only (never `hand`), so every
player and spectator gets the same picture. The frame (coordinates, panel), every cell
(its number, or an unlocked chip on its tint) and every row of cells are drawn once and
cached: a move changes one row, so a board pastes ten mostly cached rows, then draws the
sequences, the last move, the runs a mover may lock and the panel, and is mapped onto
the renderer's one palette (`palette`). What just happened is worded once, by
`narrate`, for the board and for the bot's message.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import cache, lru_cache

from PIL import Image, ImageChops, ImageDraw

from locales import DEFAULT, N_, gettext, ngettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    SEAT_COLOURS,
    SUPERSAMPLE,
    TEXT,
    Palette,
    centred_text,
    font,
    paste,
    seat_label,
    star_points,
    supersampled,
    to_png,
    words,
)

SIZE = 10
CELL = 56
LABEL = 28  # room for the column letters and row numbers
PAD = 12
BOARD_X = PAD + LABEL
BOARD_Y = PAD + LABEL
BOARD_PX = SIZE * CELL
PANEL_H = 140
WIDTH = BOARD_X + BOARD_PX + PAD + 8
HEIGHT = BOARD_Y + BOARD_PX + PAD + PANEL_H
PANEL_TOP = BOARD_Y + BOARD_PX + PAD
COLUMNS = "ABCDEFGHIJ"
CHIP_RADIUS = 21
NARRATION_LINES = 3

# Number groups by tens: a light text colour and a dark cell tint each, so a player
# looking for 34 scans only the cyan cells. Hues stay clear of the chip colours.
GROUPS: tuple[tuple[RGB, RGB], ...] = (
    ((236, 236, 240), (62, 64, 72)),  # 1–9
    ((240, 228, 66), (66, 62, 30)),  # 10–19
    ((255, 160, 196), (72, 42, 56)),  # 20–29
    ((128, 220, 245), (30, 58, 72)),  # 30–39
    ((170, 232, 140), (40, 64, 36)),  # 40–48
)
FREE_FILL = (78, 70, 40)
DARK = (20, 20, 22)
WHITE = (250, 250, 250)
DEAD = (213, 94, 0)
CHOICE = (255, 64, 200)  # the runs a mover may lock: apart from the chips and the last-move yellow
CHOICE_OFFSETS = (-25, 25, -31, 31)  # rails beside a run, in the cells' margins, one per candidate


# --- geometry and names -------------------------------------------------------------


def cell_box(row: int, col: int) -> tuple[int, int, int, int]:
    """The pixel box of a board cell (left, top, right, bottom)."""
    left, top = BOARD_X + col * CELL, BOARD_Y + row * CELL
    return left, top, left + CELL, top + CELL


def cell_centre(row: int, col: int) -> tuple[int, int]:
    left, top, _, _ = cell_box(row, col)
    return left + CELL // 2, top + CELL // 2


def parse_cell(name: str) -> tuple[int, int]:
    """`C4` -> (row 3, column 2)."""
    return int(name[1:]) - 1, COLUMNS.index(name[0])


def team_colour(team: int) -> RGB:
    return SEAT_COLOURS[team % len(SEAT_COLOURS)]


def team_of(view: dict, seat: int) -> int:
    return next(t for t, seats in enumerate(view["teams"]) if seat in seats)


def solo(view: dict) -> bool:
    """Whether every team is one player (2 or 3 players): then a team is named by its seat."""
    return all(len(seats) == 1 for seats in view["teams"])


def team_glyph(view: dict, team: int) -> str:
    """What a chip shows: its player's letter when players play alone, else the team number."""
    return seat_label(view["teams"][team][0]) if solo(view) else str(team + 1)


def run_name(cells: list[str]) -> str:
    """`A3–E3` for the cells of a run."""
    return f"{cells[0]}–{cells[-1]}"


# --- the one wording of what happened --------------------------------------------------


def narrate(view: dict, name: Callable[[int], str], lang: str = DEFAULT) -> list[str]:
    """The sentences saying what the last move (or the start) did and what the mover
    must decide now; `name(seat)` names a seat. The board writes them with seat letters,
    the bot's message with mentions."""
    lines: list[str] = []
    event = view["last_event"]
    if event is not None:
        kind = event["type"]
        who = name(event["seat"]) if event.get("seat") is not None else ""
        if kind in ("place", "lock"):
            lines.append(_played(event, who, lang))
            lines += _completed(view, event, name, lang)
        else:
            lines += _other_event(event, who, lang)
    if view["lock_choices"] and view["to_move"]:
        runs = gettext(lang, " or ").join(run_name(run) for run in view["lock_choices"])
        text = N_("{who} made more than five in a row and chooses which five chips to lock: {runs}.")
        lines.append(gettext(lang, text, who=name(view["to_move"][0]), runs=runs))
    lines += [
        gettext(lang, "{who} could not play a card and was skipped.", who=name(seat))
        for seat in view["skipped"]
    ]
    return lines


def _other_event(event: dict, who: str, lang: str) -> list[str]:
    kind = event["type"]
    if kind == "start":
        return [gettext(lang, "{who} was drawn to start.", who=who)]
    if kind == "trade":
        return [gettext(lang, "{who} traded a dead card ({card}).", who=who, card=event["card"]["text"])]
    if kind == "remove":
        return [
            gettext(lang, "{who} removed a chip from {cell} with a minus card.", who=who, cell=event["cell"])
        ]
    if kind == "resign":
        return [gettext(lang, "{who} resigned.", who=who)]
    return []


def _played(event: dict, who: str, lang: str) -> str:
    card, cell = event["card"], event["cell"]
    played = card["text"] if card["kind"] == "problem" else gettext(lang, "a plus card")
    if event["type"] == "lock":
        text = N_("{who} played {card} on {cell} and chose to lock {run}.")
        return gettext(lang, text, who=who, card=played, cell=cell, run=run_name(event["locked"][0]))
    return gettext(lang, "{who} played {card} on {cell}.", who=who, card=played, cell=cell)


def _completed(view: dict, event: dict, name: Callable[[int], str], lang: str) -> list[str]:
    runs = event["locked"]
    if not runs:
        return []
    team = event["team"]
    side = name(view["teams"][team][0]) if solo(view) else gettext(lang, "Team {team}", team=team + 1)
    count = f"{view['sequences'][team]}/{view['sequences_to_win']}"
    joined = gettext(lang, " and ").join(run_name(run) for run in runs)
    text = ngettext(
        lang,
        "{side} completed a sequence ({count}): {runs}.",
        "{side} completed {n} sequences ({count}): {runs}.",
        len(runs),
        side=side,
        count=count,
        runs=joined,
    )
    return [text]


def status(view: dict, viewer: int | None = None, lang: str = DEFAULT) -> str:
    """Who is to do what, or how the game ended, as the board's panel says it."""

    def who(seat: int) -> str:
        you = pgettext(lang, "score panel", " (you)") if seat == viewer else ""
        team = "" if solo(view) else gettext(lang, " (team {team})", team=team_of(view, seat) + 1)
        return f"{seat_label(seat)}{you}{team}"

    winners = view["winners"]
    if winners is not None:
        if not winners:
            return gettext(lang, "Draw: no one could play a card for a whole round.")
        if solo(view):
            return gettext(lang, "{seat} wins!", seat=seat_label(winners[0]))
        return gettext(lang, "Team {team} wins!", team=team_of(view, winners[0]) + 1)
    if not view["to_move"]:
        return ""
    seat = view["to_move"][0]
    if view["lock_choices"]:
        return gettext(lang, "{who} to choose which five to lock", who=who(seat))
    return gettext(lang, "{who} to move", who=who(seat))


# --- sprites and the static layer --------------------------------------------------------


@cache
def _frame() -> Image.Image:
    """The static layer around the cells: coordinates and the panel."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for col, letter in enumerate(COLUMNS):
        x, _ = cell_centre(0, col)
        centred_text(draw, (x, PAD + LABEL // 2), letter, 16, MUTED)
    for row in range(SIZE):
        _, y = cell_centre(row, 0)
        centred_text(draw, (PAD + LABEL // 2, y), str(row + 1), 16, MUTED)
    draw.rounded_rectangle((PAD, PANEL_TOP, WIDTH - PAD, HEIGHT - PAD), radius=8, fill=PANEL)
    return image


@lru_cache(maxsize=128)
def _cell(number: int | None, chip: tuple[int, str] | None = None, lang: str = DEFAULT) -> Image.Image:
    """One cell, opaque: its number in its group's colours (a free corner: a star), or the
    tint under an unlocked chip (team, glyph), which hides the number."""
    image = Image.new("RGB", (CELL, CELL), BACKGROUND)
    draw = ImageDraw.Draw(image)
    box, centre = (2, 2, CELL - 2, CELL - 2), (CELL // 2, CELL // 2)
    if number is None:
        draw.rounded_rectangle(box, radius=6, fill=FREE_FILL)
        draw.polygon(star_points(centre, 17, 7), fill=HIGHLIGHT)
        centred_text(draw, (CELL // 2, CELL - 9), pgettext(lang, "free corner", "FREE"), 10, TEXT)
        return image
    ink, tint = _group(number)
    draw.rounded_rectangle(box, radius=6, fill=tint)
    if chip is None:
        centred_text(draw, centre, str(number), 24, ink)
    else:
        sprite = _chip(chip[0], False, chip[1])
        offset = (CELL - sprite.width) // 2
        paste(image, sprite, (offset, offset))
    return image


@lru_cache(maxsize=64)
def _row(
    numbers: tuple[int | None, ...], chips: tuple[tuple[int, str] | None, ...], lang: str = DEFAULT
) -> Image.Image:
    """A row of cells with its unlocked chips: a move changes one row, so the rest are reused."""
    strip = Image.new("RGB", (BOARD_PX, CELL), BACKGROUND)
    for col, (number, chip) in enumerate(zip(numbers, chips, strict=True)):
        if chip is not None and number is not None:
            # The chip hides the number: one tile serves every number of the tint.
            number = min(number // 10, len(GROUPS) - 1) * 10
        strip.paste(_cell(number, chip, lang), (col * CELL, 0))
    return strip


def _group(number: int) -> tuple[RGB, RGB]:
    return GROUPS[min(number // 10, len(GROUPS) - 1)]


@lru_cache(maxsize=64)
def _chip(team: int, locked: bool, glyph: str, radius: int = CHIP_RADIUS) -> Image.Image:
    """A chip sprite with its glyph; a locked chip shows its rough, striped side in a white rim."""
    side = 2 * radius + 8
    c = side / 2
    colour = team_colour(team)

    def disc(draw: ImageDraw.ImageDraw, s: int) -> None:
        box = ((c - radius) * s, (c - radius) * s, (c + radius) * s, (c + radius) * s)
        draw.ellipse(box, fill=colour, outline=DARK, width=2 * s)

    sprite = supersampled((side, side), disc)
    if locked:
        shade = tuple(v * 11 // 20 for v in colour)
        sprite.paste((*shade, 255), (0, 0), _stripes(side, radius))

    def face(draw: ImageDraw.ImageDraw, s: int) -> None:
        if locked:
            box = ((c - radius) * s, (c - radius) * s, (c + radius) * s, (c + radius) * s)
            draw.ellipse(box, outline=WHITE, width=4 * s)
        size = radius + 1 if radius > 14 else radius + 3
        draw.text(
            (c * s, c * s),
            glyph,
            font=font(size * s),
            fill=(255, 255, 255),
            anchor="mm",
            stroke_width=3 * s,
            stroke_fill=DARK,
        )

    return Image.alpha_composite(sprite, supersampled((side, side), face))


def _stripes(side: int, radius: int) -> Image.Image:
    """The mask of a locked chip's stripes: diagonal bars inside the rim, smoothed."""
    s, c = SUPERSAMPLE, side * SUPERSAMPLE / 2
    inner = Image.new("L", (side * s, side * s), 0)
    r = (radius - 3) * s
    ImageDraw.Draw(inner).ellipse((c - r, c - r, c + r, c + r), fill=255)
    stripes = Image.new("L", inner.size, 0)
    draw = ImageDraw.Draw(stripes)
    for offset in range(-side, side, 7):
        draw.line((offset * s, side * s, (offset + side) * s, 0), fill=255, width=3 * s)
    return ImageChops.multiply(inner, stripes).resize((side, side), Image.Resampling.LANCZOS)


def _paste_chip(image: Image.Image, centre: tuple[int, int], sprite: Image.Image) -> None:
    half = sprite.width // 2
    paste(image, sprite, (centre[0] - half, centre[1] - half))


# --- the board -------------------------------------------------------------------------


def _numbers(view: dict) -> tuple[int | None, ...]:
    return tuple(cell["number"] for row in view["board"] for cell in row)


def _draw_sequences(draw: ImageDraw.ImageDraw, view: dict) -> None:
    """A bar through each sequence, under its chips, so it shows between them."""
    for team, runs in enumerate(view["sequence_cells"]):
        for run in runs:
            start, end = cell_centre(*run[0]), cell_centre(*run[-1])
            draw.line((start, end), fill=WHITE, width=12)
            draw.line((start, end), fill=team_colour(team), width=6)


def _draw_last_move(draw: ImageDraw.ImageDraw, view: dict) -> None:
    event = view["last_event"]
    if not event or "row" not in event:
        return
    left, top, right, bottom = cell_box(event["row"], event["col"])
    draw.rounded_rectangle((left, top, right - 1, bottom - 1), radius=8, outline=HIGHLIGHT, width=4)
    if event["type"] == "remove":
        # The chip is gone: a cross in the removed team's colour says what happened.
        cx, cy = cell_centre(event["row"], event["col"])
        colour = team_colour(event["team"]) if event.get("team") is not None else HIGHLIGHT
        for dx in (-1, 1):
            draw.line((cx - 12, cy - 12 * dx, cx + 12, cy + 12 * dx), fill=DARK, width=8)
            draw.line((cx - 12, cy - 12 * dx, cx + 12, cy + 12 * dx), fill=colour, width=4)


def _draw_lock_choices(draw: ImageDraw.ImageDraw, view: dict) -> None:
    """Each run the mover may lock as a rail beside it, with end stops: one rail per run,
    on alternate sides, so runs along one line stay apart."""
    for index, run in enumerate(view["lock_choices"]):
        (x0, y0), (x1, y1) = cell_centre(*parse_cell(run[0])), cell_centre(*parse_cell(run[-1]))
        length = math.hypot(x1 - x0, y1 - y0)
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        offset = CHOICE_OFFSETS[index % len(CHOICE_OFFSETS)]
        px, py = -uy * offset, ux * offset
        # Reach from the first cell's edge to the last cell's, along the run.
        ex, ey = ux * CELL * 0.42, uy * CELL * 0.42
        a = (x0 + px - ex, y0 + py - ey)
        b = (x1 + px + ex, y1 + py + ey)
        stop = 6 if offset < 0 else -6  # end stops point towards the run
        for width, colour in ((7, DARK), (3, CHOICE)):
            draw.line((a, b), fill=colour, width=width)
            for x, y in (a, b):
                draw.line((x, y, x - uy * stop * 1.6, y + ux * stop * 1.6), fill=colour, width=width)


def _draw_panel(image: Image.Image, view: dict, viewer: int | None, lang: str) -> None:
    top, x = PANEL_TOP, PAD + 14
    legend = _legend(
        tuple(map(tuple, view["teams"])),
        tuple(view["resigned"]),
        tuple(view["sequences"]),
        view["sequences_to_win"],
        viewer,
        lang,
    )
    image.paste(legend, (x, top + 6))
    colour = HIGHLIGHT if view["to_move"] or view["winners"] else TEXT
    image.paste(_label(status(view, viewer, lang), 18, colour), (x, top + 52))
    deck = _label(gettext(lang, "Deck: {count} cards", count=view["deck_size"]), 13, MUTED)
    image.paste(deck, (WIDTH - PAD - 14 - deck.width, top + 56))
    draw = ImageDraw.Draw(image)
    sentences = narrate(view, seat_label, lang)
    for row, line in enumerate(_wrap(draw, sentences, WIDTH - 2 * PAD - 28)):
        draw.text((x, top + 78 + row * 17), line, font=font(13), fill=TEXT)


@lru_cache(maxsize=64)
def _legend(
    teams: tuple[tuple[int, ...], ...],
    resigned: tuple[int, ...],
    sequences: tuple[int, ...],
    goal: int,
    viewer: int | None,
    lang: str = DEFAULT,
) -> Image.Image:
    """The panel's first band: each team's chip, players and sequences (it changes rarely)."""
    band = Image.new("RGB", (WIDTH - 2 * PAD - 28, 42), PANEL)
    draw = ImageDraw.Draw(band)
    view = {"teams": teams}
    width = band.width // max(len(teams), 1)
    for team, seats in enumerate(teams):
        left = team * width
        _paste_chip(band, (left + 14, 18), _chip(team, False, team_glyph(view, team), 13))
        you, gone = pgettext(lang, "score panel", " (you)"), pgettext(lang, "score panel", " (left)")
        players = " ".join(
            seat_label(s) + (you if s == viewer else "") + (gone if s in resigned else "") for s in seats
        )
        if solo(view):
            title = gettext(lang, "Player {players}", players=players)
        else:
            title = gettext(lang, "Team {team}: {players}", team=team + 1, players=players)
        draw.text((left + 34, 6), title, font=font(15), fill=TEXT)
        done = gettext(lang, "sequences {count}/{needed}", count=sequences[team], needed=goal)
        draw.text((left + 34, 24), done, font=font(13), fill=MUTED)
    return band


@lru_cache(maxsize=256)
def _label(text: str, size: int, colour: RGB) -> Image.Image:
    """One line of panel text on the panel's colour; the status and deck lines repeat a lot."""
    width = max(1, math.ceil(font(size).getlength(text)))
    label = Image.new("RGB", (width, size + 6), PANEL)
    ImageDraw.Draw(label).text((0, 0), text, font=font(size), fill=colour)
    return label


def _wrap(draw: ImageDraw.ImageDraw, sentences: list[str], width: int) -> list[str]:
    """The sentences in at most `NARRATION_LINES` lines of `width`: one sentence a line
    where they fit so, else run together (and cut short with "…" if even that is too long)."""

    def fits(text: str) -> bool:
        # Measuring costs time: a line fits anyway when even 12 px a character (a W) fits.
        return len(text) * 12 <= width or draw.textlength(text, font=font(13)) <= width

    def wrapped(paragraphs: list[str]) -> list[str]:
        lines: list[str] = []
        for paragraph in paragraphs:
            if fits(paragraph):
                lines.append(paragraph)
                continue
            lines.append("")
            for word in words(paragraph):
                joined = f"{lines[-1]} {word}".strip()
                if lines[-1] and not fits(joined):
                    lines.append(word)
                else:
                    lines[-1] = joined
        return lines

    lines = wrapped(sentences)
    if len(lines) > NARRATION_LINES:
        lines = wrapped([" ".join(sentences)])
    if len(lines) > NARRATION_LINES:
        lines = [*lines[: NARRATION_LINES - 1], f"{lines[NARRATION_LINES - 1]} …"]
    return lines


def board_image(view: dict, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The public board in `lang` as an RGB image (before the palette)."""
    image = _frame().copy()
    glyphs = [team_glyph(view, team) for team in range(len(view["teams"]))]
    sequences = _sequence_cells(view)
    for row, cells in enumerate(view["board"]):
        numbers = tuple(cell["number"] for cell in cells)
        chips = tuple(
            None if cell["chip"] is None or (row, col) in sequences else (cell["chip"], glyphs[cell["chip"]])
            for col, cell in enumerate(cells)
        )
        image.paste(_row(numbers, chips, lang), (BOARD_X, BOARD_Y + row * CELL))
    draw = ImageDraw.Draw(image)
    _draw_sequences(draw, view)
    for row, col in sorted(sequences):
        cell = view["board"][row][col]
        if cell["chip"] is not None:
            sprite = _chip(cell["chip"], cell["locked"], glyphs[cell["chip"]])
            _paste_chip(image, cell_centre(row, col), sprite)
    _draw_last_move(draw, view)
    _draw_lock_choices(draw, view)
    _draw_panel(image, view, viewer, lang)
    return image


def _sequence_cells(view: dict) -> set[tuple[int, int]]:
    """The cells under a sequence bar: their chips go on top of the bar."""
    return {(r, c) for runs in view["sequence_cells"] for run in runs for r, c in run}


def render(view: dict, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """The public board as PNG bytes, its words in `lang`: chips, locks, sequences, last move, lock
    choice, whose turn."""
    return palette(_numbers(view)).png(board_image(view, viewer, lang))


# --- the palette ------------------------------------------------------------------------


@cache
def palette(numbers: tuple[int | None, ...]) -> Palette:
    """The board's one palette, learnt from everything a board draws: the grid, every chip
    on every tint, bars, rails, crosses and the panel's text (`sample_views`)."""
    return Palette.learn([board_image(view) for view in sample_views(numbers)])


def sample_views(numbers: tuple[int | None, ...]) -> list[dict]:
    """Two made-up boards showing every colour a board can: chips of three teams (letters and
    numbers, locked or not) on every tint, sequences in every direction, a removal, a lock
    choice, a long panel. Only for learning the palette."""
    views = []
    for teams in ([[0], [1], [2]], [[0, 3], [1, 4], [2, 5]]):
        board = [
            [
                {
                    "number": numbers[r * SIZE + c],
                    "chip": None if numbers[r * SIZE + c] is None or (r + 2 * c) % 4 == 0 else (r + c) % 3,
                    "locked": False,
                }
                for c in range(SIZE)
            ]
            for r in range(SIZE)
        ]
        runs = [[[1, c] for c in range(5)], [[r, 8] for r in range(5, 10)], [[r, r] for r in range(2, 7)]]
        runs.append([[r, 9 - r] for r in range(4, 9)])
        for team, run in enumerate(runs):
            for r, c in run:
                board[r][c] = {**board[r][c], "chip": team % 3, "locked": True}
        players = sum(len(t) for t in teams)
        views.append(
            {
                "players": players,
                "to_move": [1],
                "scores": [1] * players,
                "winners": None,
                "resigned": [0],
                "skipped": [2],
                "board": board,
                "teams": teams,
                "sequences": [2, 1, 1],
                "sequences_to_win": 2,
                "sequence_cells": [[runs[0], runs[3]], [runs[1]], [runs[2]]],
                "lock_choices": [
                    ["A3", "B3", "C3", "D3", "E3"],
                    ["B3", "C3", "D3", "E3", "F3"],
                    ["A4", "B5", "C6", "D7", "E8"],
                    ["B5", "C6", "D7", "E8", "F9"],
                ],
                "deck_size": 42,
                "last_event": {"type": "remove", "seat": 1, "row": 4, "col": 4, "cell": "E5", "team": 2},
            }
        )
    return views


# --- the hand ---------------------------------------------------------------------------

CARD_W, CARD_H, CARD_GAP = 116, 156, 14
CARD_FACE = (244, 241, 232)
CARD_INK = (30, 32, 36)


def _hand_card(
    draw: ImageDraw.ImageDraw, left: int, top: int, number: int, card: dict, dead: bool, lang: str
) -> None:
    box = (left, top, left + CARD_W, top + CARD_H)
    face = (150, 150, 150) if dead else CARD_FACE
    draw.rounded_rectangle(box, radius=10, fill=face, outline=DARK, width=2)
    draw.ellipse((left + 8, top + 8, left + 36, top + 36), fill=CARD_INK)
    centred_text(draw, (left + 22, top + 22), str(number), 18, CARD_FACE)
    centre = (left + CARD_W // 2, top + CARD_H // 2 + 6)
    if card["kind"] == "problem":
        centred_text(draw, centre, card["text"], 26, CARD_INK)
        hint = "= ?"
    else:
        _sign(draw, centre, plus=card["kind"] == "plus")
        hint = gettext(lang, "any empty cell") if card["kind"] == "plus" else gettext(lang, "remove a chip")
    centred_text(draw, (centre[0], top + CARD_H - 20), hint, 13, (90, 90, 96))
    if dead:
        draw.rectangle((left + 2, top + CARD_H - 56, left + CARD_W - 2, top + CARD_H - 36), fill=DEAD)
        centred_text(
            draw, (centre[0], top + CARD_H - 46), gettext(lang, "DEAD · trade it"), 13, (255, 255, 255)
        )


def _sign(draw: ImageDraw.ImageDraw, centre: tuple[int, int], *, plus: bool) -> None:
    """A big plus or minus drawn as bars, bolder than any letter."""
    x, y = centre
    draw.rectangle((x - 26, y - 6, x + 26, y + 6), fill=CARD_INK)
    if plus:
        draw.rectangle((x - 6, y - 26, x + 6, y + 26), fill=CARD_INK)


def render_hand(view: dict, lang: str = DEFAULT) -> bytes:
    """The viewing seat's hand in `lang`, cards numbered 1..n (hand index + 1), dead cards marked."""
    hand = view["hand"]
    dead = set(view["dead_cards"])
    count = max(len(hand), 1)
    width = 2 * PAD + count * CARD_W + (count - 1) * CARD_GAP
    height = 2 * PAD + 30 + CARD_H
    image = Image.new("RGB", (max(width, 260), height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    seat = view["seat"]
    title = (
        gettext(lang, "Your hand")
        if seat is None
        else gettext(lang, "Your hand ({seat})", seat=seat_label(seat))
    )
    draw.text((PAD, PAD), title, font=font(18), fill=TEXT)
    if not hand:
        draw.text((PAD, PAD + 40), gettext(lang, "No cards."), font=font(16), fill=MUTED)
    for index, card in enumerate(hand):
        left = PAD + index * (CARD_W + CARD_GAP)
        _hand_card(draw, left, PAD + 30, index + 1, card, index in dead, lang)
    return to_png(image)
