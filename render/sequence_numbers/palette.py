"""The board's one palette, learnt once from made-up boards that show every colour a board can.

A board is drawn in full colour and mapped onto this fixed palette (no dithering), which
costs a fraction of quantizing each board afresh and keeps the PNG small.
"""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import Image

from games.sequence_numbers import BOARD, SIZE, SequenceSquare, SequenceView
from locales import DEFAULT, LANGUAGES, texts
from render.common import HIGHLIGHT, MUTED, PANEL, TEXT, Palette, font
from render.frozen import Frozen
from render.sequence_numbers.draw import Chip, board_image, drawn_over, frame, row, rows
from render.sequence_numbers.layout import BOARD_X, BOARD_Y, CELL, SMALL
from render.text import word

TEXT_SIZES = (15, 16, 17, 18, 24, 26)  # the sizes of the board's and the hand's words
PANEL_WORDS = ((SMALL, TEXT), (SMALL, MUTED), (18, TEXT), (18, HIGHLIGHT))  # the panel's lines: size, ink


@cache
def prepare_all() -> None:
    """Everything a first board would otherwise learn at first use: the palette of the
    game's board (drawing the sample boards draws every chip too), its rows without chips
    in every language, the fonts and the words of the panel."""
    palette(BOARD)
    for lang in LANGUAGES:
        for first in range(0, SIZE * SIZE, SIZE):
            row(BOARD[first : first + SIZE], (None,) * SIZE, lang)
    for size in TEXT_SIZES:
        font(size)
    for lang in LANGUAGES:  # the words of the panel's sentences, and every count
        spoken = [part for text in texts(lang, "render/sequence_numbers/") for part in text.split(" ")]
        for part in {*spoken, *map(str, range(len(BOARD) + 1))}:
            if part and "{" not in part:
                for size, ink in PANEL_WORDS:
                    word(part, size, ink, PANEL)


@cache
def palette(numbers: tuple[int | None, ...]) -> Palette:
    """The board's one palette, learnt from everything a board draws: the grid, every chip
    on every tint, bars, rails, crosses and the panel's text (`sample_views`)."""
    return Palette.learn([board_image(view) for view in sample_views(numbers)])


def on_palette(view: SequenceView, viewer: int | None = None, lang: str = DEFAULT) -> Image.Image:
    """`board_image` mapped onto the board's palette (mode P), mapping only what changes: the
    frame and the rows come mapped once, the boxes drawn over them are mapped each time
    (mapping is pixel by pixel, so this is the whole board mapped)."""
    numbers = numbers_of(view)
    image = board_image(view, viewer, lang)
    board = _frame_on(numbers).image()
    for row_index, (cells, chips) in enumerate(rows(view)):
        board.paste(_row_on(numbers, cells, chips, lang).image(), (BOARD_X, BOARD_Y + row_index * CELL))
    for box in drawn_over(view):
        board.paste(_indices(numbers, image.crop(box)).image(), box[:2])
    board.putpalette(_colours(numbers))
    return board


def _indices(numbers: tuple[int | None, ...], image: Image.Image) -> Frozen:
    """`image` mapped onto the palette of the board with `numbers`, as palette indices (mode L)."""
    mapped = palette(numbers).map(image)
    return Frozen("L", mapped.size, mapped.tobytes())


@lru_cache(maxsize=4)
def _frame_on(numbers: tuple[int | None, ...]) -> Frozen:
    return _indices(numbers, frame().image())


@lru_cache(maxsize=256)
def _row_on(
    numbers: tuple[int | None, ...], cells: tuple[int | None, ...], chips: tuple[Chip | None, ...], lang: str
) -> Frozen:
    return _indices(numbers, row(cells, chips, lang).image())


@lru_cache(maxsize=4)
def _colours(numbers: tuple[int | None, ...]) -> bytes:
    return bytes(palette(numbers).map(Image.new("RGB", (1, 1))).getpalette() or ())


def numbers_of(view: SequenceView) -> tuple[int | None, ...]:
    """The board's numbers, row by row (None: a free corner)."""
    return tuple(cell["number"] for row in view["board"] for cell in row)


def sample_views(numbers: tuple[int | None, ...]) -> list[SequenceView]:
    """Two made-up boards showing every colour a board can: chips of three teams (letters and
    numbers, locked or not) on every tint, sequences in every direction, a removal, a lock
    choice, a long panel. Only for learning the palette."""
    views: list[SequenceView] = []
    for teams in ([[0], [1], [2]], [[0, 3], [1, 4], [2, 5]]):
        board: list[list[SequenceSquare]] = [
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
                # Not drawn on the board: a hand is the seat's own image.
                "hand": [],
                "dead_cards": [],
                "seat": None,
                "hand_sizes": [0] * players,
                "discards": [[] for _ in range(players)],
                "traded": False,
            }
        )
    return views
