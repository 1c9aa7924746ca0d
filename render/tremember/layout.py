"""Where everything sits on a Tremember board, in pixels: the header, the 6×6 cards with the
push band's room around them, the scores; and the size of the peeked card."""

from __future__ import annotations

SIZE = 6  # cards a side
CARD = 84
GAP = 8
PITCH = CARD + GAP  # a card with the gap around it: one tile
GRID = SIZE * PITCH - GAP
LABEL = 24  # the column letters and row numbers
ARROW = 34  # room for the push arrows on every side
END = ARROW - GAP // 2  # the push band beyond the board's tiles: where an arrow sits
MARGIN = 12
HEADLINE_Y = 20
NARRATION_Y = (48, 70)  # at most two lines of what just happened
HEADER = 88
X0 = MARGIN + LABEL + ARROW
Y0 = HEADER + LABEL + ARROW
SCORES_TOP = Y0 + GRID + ARROW + 4
SCORES_HEIGHT = 48
WIDTH = X0 + GRID + ARROW + MARGIN
HEIGHT = SCORES_TOP + SCORES_HEIGHT + MARGIN
HEADLINE_SIZE = 22
NARRATION_SIZE = 17
# The smallest words and a seat's tag: read on a phone showing the board 360 px wide.
SMALL = 17
TAG = 25  # its letter: SMALL
PEEK_SIZE = 240  # the card shown large to the player who took it


def cell_xy(row: int, col: int) -> tuple[int, int]:
    """The top left corner of the card at (row, col)."""
    return X0 + col * PITCH, Y0 + row * PITCH


def tile_xy(row: int, col: int) -> tuple[int, int]:
    """The top left corner of the tile (the card and the gap around it) at (row, col)."""
    x, y = cell_xy(row, col)
    return x - GAP // 2, y - GAP // 2
