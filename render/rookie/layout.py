"""Where everything lies on the Rookie table: sizes and positions in pixels.

The board is narrow for its words (a media gallery scales it by width): the table of nine
positions on the left, the seats' rows beside it, the last flip under both, and a band of
what just happened and what is asked across the foot. No word is set smaller than
`SMALL`, so that it reads on a phone.
"""

from __future__ import annotations

WIDTH = 640
MARGIN = 12
SMALL = 17  # the size of the smallest words: shown at 8 px or more on a phone
HEADER = 78  # two lines: the title and whose turn, then the set-up
TITLE_Y, DETAIL_Y = 32, 62  # their baselines
CELL_W, CELL_H = 124, 150
CARD_W, CARD_H = 74, 100
TABLE_X, TABLE_Y = MARGIN, HEADER + 10
PANEL_X = TABLE_X + 3 * CELL_W + 10
ROW_H = 112
ROW_W = WIDTH - MARGIN - PANEL_X
MINI_W, MINI_H = 32, 44
MINI_Y = 56
MINI_SIZE = (MINI_W + 26, MINI_H + 2)
STACKS = 3
STACK_X, STACK_Y = 10, 10  # a stack's place within its cell
STACK_SIZE = (CARD_W + 7, CARD_H + 7)  # room for the edges of a tall stack
BADGE_X, BADGE_Y, BADGE_R = CELL_W - 18, 28, 13  # a position's number, beside its stack
STRIP_H = 72
FLIP_W, FLIP_H = 40, 56
LINE_H = 23
BAND_LINES = 5  # what just happened, the teams' scores and what is asked
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
    return 18 + index * (MINI_W + 28)


def strip_y(seats: int) -> int:
    """The top of the strip of the last flip: under the table and every seat's row."""
    return max(TABLE_Y + 3 * CELL_H, row_top(seats)) + 8


def band_y(seats: int) -> int:
    """The top of the band of what just happened."""
    return strip_y(seats) + STRIP_H


def height(seats: int) -> int:
    """The board's height with `seats` rows."""
    return band_y(seats) + BAND_LINES * LINE_H + 14
