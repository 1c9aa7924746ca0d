"""Where everything sits on a Tetris Link board, in pixels: the tower on the left, the die,
the players and the narration on the right.

The image has the shape of the box Discord shows an embed's image in (400 × 280-300), so
it is shown as large as that box allows, at about half its size: the panel's text is drawn
large enough to read there.
"""

from __future__ import annotations

from games.tetris_link import COLUMNS, ROWS

CELL = 24
MARGIN = 14
TOWER_X = MARGIN
TOWER_Y = MARGIN
TOWER_W = COLUMNS * CELL
TOWER_H = ROWS * CELL
HEIGHT = TOWER_Y + TOWER_H + 30  # the column numbers under the tower
# Discord shows an embed's image at most 400 px wide and about 300 tall (SimCord's preview:
# 280): a board of that box's shape fills it.
WIDTH = HEIGHT * 400 // 280
PANEL_X = TOWER_X + TOWER_W + 22
PANEL_W = WIDTH - PANEL_X - MARGIN
DIE = 68  # the die's side
# Text sizes: the smallest (the column numbers and the letters on the cells) reads at 8 px or more
# when a phone shows the board 360 px wide.
HEADLINE = 30
WORDS = 22
SCORE = 34
NUMBERS = 19  # the column numbers and the letters on the cells
SEAT_BLOCK_H = 72
SEAT_BLOCK_Y = TOWER_Y + DIE + 14
NEWS_LINE_H = 26
STOCK_SLOT = 88  # the width of one shape and its count in a seat's stock


def cell_box(row: int, column: int) -> tuple[int, int, int, int]:
    """Pixel box of a tower cell; row 0 is the bottom row."""
    x = TOWER_X + column * CELL
    y = TOWER_Y + (ROWS - 1 - row) * CELL
    return x, y, x + CELL, y + CELL


def seat_block_y(seat: int) -> int:
    """The top of a seat's block in the panel."""
    return SEAT_BLOCK_Y + seat * SEAT_BLOCK_H


def seat_block_box(seat: int) -> tuple[int, int, int, int]:
    """The box of a seat's block in the panel (its frame, when outlined)."""
    y = seat_block_y(seat)
    return PANEL_X, y, PANEL_X + PANEL_W - 1, y + SEAT_BLOCK_H - 8
