"""Drawing the public Sequence Numbers board in full colour.

The frame (coordinates, panel), every cell (its number, or an unlocked chip on its tint)
and every row of cells are drawn once and cached as `Frozen` images: a move changes one
row, so a board pastes ten mostly cached rows, then draws the sequences, the last move,
the runs a mover may lock and the panel.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from games.sequence_numbers import COLUMNS, SIZE, SequenceView
from locales import DEFAULT, gettext, ngettext, pgettext
from render.common import (
    BACKGROUND,
    HIGHLIGHT,
    MUTED,
    PANEL,
    RGB,
    TEXT,
    centred_text,
    font,
    paste,
    seat_label,
    star_points,
    words,
)
from render.frozen import Frozen
from render.sequence_numbers.colours import CHOICE, DARK, FREE_FILL, GROUPS, WHITE, group, team_colour
from render.sequence_numbers.layout import (
    BOARD_PX,
    BOARD_X,
    BOARD_Y,
    CELL,
    CHOICE_OFFSETS,
    HEIGHT,
    LABEL,
    NARRATION_LINES,
    PAD,
    PANEL_TOP,
    SMALL,
    WIDTH,
    cell_box,
    cell_centre,
    parse_cell,
)
from render.sequence_numbers.narration import alone, narrate, status, team_glyph
from render.sequence_numbers.sprites import chip, paste_chip
from render.text import line

Chip = tuple[int, str]  # an unlocked chip as a cell shows it: its team and glyph


# --- the static layer and the cells ------------------------------------------------------


@cache
def frame() -> Frozen:
    """The static layer around the cells: coordinates and the panel."""
    image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for col, letter in enumerate(COLUMNS):
        x, _ = cell_centre(0, col)
        centred_text(draw, (x, PAD + LABEL // 2), letter, SMALL, MUTED)
    for row in range(SIZE):
        _, y = cell_centre(row, 0)
        centred_text(draw, (PAD + LABEL // 2, y), str(row + 1), SMALL, MUTED)
    draw.rounded_rectangle((PAD, PANEL_TOP, WIDTH - PAD, HEIGHT - PAD), radius=8, fill=PANEL)
    return Frozen.of(image)


@lru_cache(maxsize=128)
def _cell(number: int | None, chip_on: Chip | None = None, lang: str = DEFAULT) -> Frozen:
    """One cell, opaque: its number in its group's colours (a free corner: a star), or the
    tint under an unlocked chip (team, glyph), which hides the number."""
    image = Image.new("RGB", (CELL, CELL), BACKGROUND)
    draw = ImageDraw.Draw(image)
    box, centre = (2, 2, CELL - 2, CELL - 2), (CELL // 2, CELL // 2)
    if number is None:
        draw.rounded_rectangle(box, radius=6, fill=FREE_FILL)
        draw.polygon(star_points((CELL // 2, CELL // 2 - 7), 14, 6), fill=HIGHLIGHT)
        centred_text(draw, (CELL // 2, CELL - 13), pgettext(lang, "free corner", "FREE"), SMALL, TEXT)
        return Frozen.of(image)
    ink, tint = group(number)
    draw.rounded_rectangle(box, radius=6, fill=tint)
    if chip_on is None:
        centred_text(draw, centre, str(number), 24, ink)
    else:
        sprite = chip(chip_on[0], False, chip_on[1])
        offset = (CELL - sprite.width) // 2
        paste(image, sprite.image(), (offset, offset))
    return Frozen.of(image)


@lru_cache(maxsize=64)
def row(numbers: tuple[int | None, ...], chips: tuple[Chip | None, ...], lang: str = DEFAULT) -> Frozen:
    """A row of cells with its unlocked chips: a move changes one row, so the rest are reused."""
    strip = Image.new("RGB", (BOARD_PX, CELL), BACKGROUND)
    for col, (number, chip_on) in enumerate(zip(numbers, chips, strict=True)):
        if chip_on is not None and number is not None:
            # The chip hides the number: one tile serves every number of the tint.
            number = min(number // 10, len(GROUPS) - 1) * 10
        strip.paste(_cell(number, chip_on, lang).image(), (col * CELL, 0))
    return Frozen.of(strip)


# --- what a move changes -------------------------------------------------------------------


def _draw_sequences(draw: ImageDraw.ImageDraw, view: SequenceView) -> None:
    """A bar through each sequence, under its chips, so it shows between them."""
    for team, runs in enumerate(view["sequence_cells"]):
        for run in runs:
            start, end = cell_centre(*run[0]), cell_centre(*run[-1])
            draw.line((start, end), fill=WHITE, width=12)
            draw.line((start, end), fill=team_colour(team), width=6)


def _draw_last_move(draw: ImageDraw.ImageDraw, view: SequenceView) -> None:
    event = view["last_event"]
    if not event or "row" not in event:
        return
    left, top, right, bottom = cell_box(event["row"], event["col"])
    draw.rounded_rectangle((left, top, right - 1, bottom - 1), radius=8, outline=HIGHLIGHT, width=4)
    if event["type"] == "remove":
        # The chip is gone: a cross in the removed team's colour says what happened.
        cx, cy = cell_centre(event["row"], event["col"])
        team = event.get("team")
        colour = team_colour(team) if team is not None else HIGHLIGHT
        for dx in (-1, 1):
            draw.line((cx - 12, cy - 12 * dx, cx + 12, cy + 12 * dx), fill=DARK, width=8)
            draw.line((cx - 12, cy - 12 * dx, cx + 12, cy + 12 * dx), fill=colour, width=4)


def _draw_lock_choices(draw: ImageDraw.ImageDraw, view: SequenceView) -> None:
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


# --- the panel ---------------------------------------------------------------------------


def _draw_panel(image: Image.Image, view: SequenceView, viewer: int | None, lang: str) -> None:
    top, x = PANEL_TOP, PAD + 14
    legend = _legend(
        tuple(map(tuple, view["teams"])),
        tuple(view["resigned"]),
        tuple(view["sequences"]),
        view["sequences_to_win"],
        viewer,
        lang,
    )
    image.paste(legend.image(), (x, top + 6))
    colour = HIGHLIGHT if view["to_move"] or view["winners"] else TEXT
    image.paste(_label(status(view, viewer, lang), 18, colour).image(), (x, top + 52))
    deck = _label(ngettext(lang, "Deck: {n} card", "Deck: {n} cards", view["deck_size"]), SMALL, MUTED)
    image.paste(deck.image(), (WIDTH - PAD - 14 - deck.width, top + 56))
    sentences = narrate(view, seat_label, lang)
    for row_index, text in enumerate(_wrap(ImageDraw.Draw(image), sentences, WIDTH - 2 * PAD - 28)):
        image.paste(_label(text, SMALL, TEXT).image(), (x, top + 78 + row_index * 19))


@lru_cache(maxsize=64)
def _legend(
    teams: tuple[tuple[int, ...], ...],
    resigned: tuple[int, ...],
    sequences: tuple[int, ...],
    goal: int,
    viewer: int | None,
    lang: str = DEFAULT,
) -> Frozen:
    """The panel's first band: each team's chip, players and sequences (it changes rarely)."""
    band = Image.new("RGB", (WIDTH - 2 * PAD - 28, 42), PANEL)
    draw = ImageDraw.Draw(band)
    width = band.width // max(len(teams), 1)
    for team, seats in enumerate(teams):
        left = team * width
        paste_chip(band, (left + 14, 18), chip(team, False, team_glyph(teams, team), 13))
        you, gone = pgettext(lang, "score panel", " (you)"), pgettext(lang, "score panel", " (left)")
        players = " ".join(
            seat_label(s) + (you if s == viewer else "") + (gone if s in resigned else "") for s in seats
        )
        if alone(teams):
            title = gettext(lang, "Player {players}", players=players)
        else:
            title = gettext(lang, "Team {team}: {players}", team=team + 1, players=players)
        draw.text((left + 34, 6), title, font=font(15), fill=TEXT)
        done = gettext(lang, "sequences {count}/{needed}", count=sequences[team], needed=goal)
        draw.text((left + 34, 24), done, font=font(SMALL), fill=MUTED)
    return Frozen.of(band)


def _label(text: str, size: int, colour: RGB) -> Frozen:
    """One line of panel text on the panel's colour, pieced together from cached words."""
    return line(text, size, colour, PANEL)


def _wrap(draw: ImageDraw.ImageDraw, sentences: list[str], width: int) -> list[str]:
    """The sentences in at most `NARRATION_LINES` lines of `width`: one sentence a line
    where they fit so, else run together (and cut short with "…" if even that is too long)."""

    def fits(text: str) -> bool:
        # Measuring costs time: a line fits anyway when even 15 px a character (a W) fits.
        return len(text) * 15 <= width or draw.textlength(text, font=font(SMALL)) <= width

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


# --- the board -------------------------------------------------------------------------


Row = tuple[tuple[int | None, ...], tuple[Chip | None, ...]]  # a row's numbers and unlocked chips


def rows(view: SequenceView) -> list[Row]:
    """Each row of cells as `row` draws it: its numbers and the chips not under a sequence bar."""
    glyphs = [team_glyph(view["teams"], team) for team in range(len(view["teams"]))]
    sequences = _sequence_cells(view)
    return [
        (
            tuple(cell["number"] for cell in cells),
            tuple(
                None
                if cell["chip"] is None or (row_index, col) in sequences
                else (cell["chip"], glyphs[cell["chip"]])
                for col, cell in enumerate(cells)
            ),
        )
        for row_index, cells in enumerate(view["board"])
    ]


def drawn_over(view: SequenceView) -> list[tuple[int, int, int, int]]:
    """The boxes that anything drawn over the frame and the rows may touch: the panel, the
    last move, and each sequence or lock choice with its bar, chips and rails."""
    boxes = [(0, PANEL_TOP - 1, WIDTH, HEIGHT)]
    event = view["last_event"]
    if event and "row" in event:
        boxes.append(cell_box(event["row"], event["col"]))
    runs = [[(r, c) for r, c in run] for team in view["sequence_cells"] for run in team]
    runs += [[parse_cell(cell) for cell in run] for run in view["lock_choices"]]
    for run in runs:
        corners = [cell_box(r, c) for r, c in run]
        reach = CELL // 2  # rails and end stops reach this far beyond the run's cells
        boxes.append(
            (
                max(0, min(box[0] for box in corners) - reach),
                max(0, min(box[1] for box in corners) - reach),
                min(WIDTH, max(box[2] for box in corners) + reach),
                min(HEIGHT, max(box[3] for box in corners) + reach),
            )
        )
    return boxes


def board_image(view: SequenceView, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """The public board in `lang` as an RGB image (before the palette): the frame, the rows of
    cells, and over them (within `drawn_over`'s boxes) sequences, the last move, lock choices
    and the panel."""
    image = frame().image()  # a fresh image: Frozen gives RGB pixels as a copy
    for row_index, (numbers, chips) in enumerate(rows(view)):
        image.paste(row(numbers, chips, lang).image(), (BOARD_X, BOARD_Y + row_index * CELL))
    glyphs = [team_glyph(view["teams"], team) for team in range(len(view["teams"]))]
    draw = ImageDraw.Draw(image)
    _draw_sequences(draw, view)
    for r, c in sorted(_sequence_cells(view)):
        cell = view["board"][r][c]
        if cell["chip"] is not None:
            sprite = chip(cell["chip"], cell["locked"], glyphs[cell["chip"]])
            paste_chip(image, cell_centre(r, c), sprite)
    _draw_last_move(draw, view)
    _draw_lock_choices(draw, view)
    _draw_panel(image, view, viewer, lang)
    return image


def _sequence_cells(view: SequenceView) -> set[tuple[int, int]]:
    """The cells under a sequence bar: their chips go on top of the bar."""
    return {(r, c) for runs in view["sequence_cells"] for run in runs for r, c in run}
