"""Where everything lies on the Rookie table: sizes and positions in pixels."""

from __future__ import annotations

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
HEIGHT = BAND_Y + BAND_LINES * LINE_H + 14
CARD_SIZES = ((CARD_W, CARD_H), (MINI_W, MINI_H), (FLIP_W, FLIP_H))


def cell_origin(position: int) -> tuple[int, int]:
    """The top left corner of table position `position` (0–8, three to a row)."""
    row, column = divmod(position, 3)
    return TABLE_X + column * CELL_W, TABLE_Y + row * CELL_H


def row_top(seat: int) -> int:
    """The top of a seat's row in the panel beside the table."""
    return TABLE_Y + seat * ROW_H


def mini_x(index: int) -> int:
    """Left edge of discard stack `index` within a seat's row."""
    return 128 + index * (MINI_W + 30)
