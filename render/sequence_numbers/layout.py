"""Where everything lies on the Sequence Numbers board and hand: sizes and positions in pixels."""

from __future__ import annotations

from games.sequence_numbers import SIZE, named_cell

CELL = 56
LABEL = 28  # room for the column letters and row numbers
PAD = 12
BOARD_X = PAD + LABEL
BOARD_Y = PAD + LABEL
BOARD_PX = SIZE * CELL
PANEL_H = 144
WIDTH = BOARD_X + BOARD_PX + PAD + 8
HEIGHT = BOARD_Y + BOARD_PX + PAD + PANEL_H
PANEL_TOP = BOARD_Y + BOARD_PX + PAD
CHIP_RADIUS = 21
NARRATION_LINES = 3
CHOICE_OFFSETS = (-25, 25, -31, 31)  # rails beside a run, in the cells' margins, one per candidate
CARD_W, CARD_H, CARD_GAP = 116, 156, 14  # the hand's cards
SMALL = 16  # the board's smallest words: read on a phone showing the board 360 px wide


def cell_box(row: int, col: int) -> tuple[int, int, int, int]:
    """The pixel box of a board cell (left, top, right, bottom)."""
    left, top = BOARD_X + col * CELL, BOARD_Y + row * CELL
    return left, top, left + CELL, top + CELL


def cell_centre(row: int, col: int) -> tuple[int, int]:
    left, top, _, _ = cell_box(row, col)
    return left + CELL // 2, top + CELL // 2


def parse_cell(name: str) -> tuple[int, int]:
    """`C4` -> (row 3, column 2)."""
    return divmod(named_cell(name), SIZE)
