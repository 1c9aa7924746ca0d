"""The colours of a Tetris Link board (the shared ones are in `render.common`).

The image stays in RGB, without a fixed `render.common.Palette`: measured on 4-player
playouts of the earlier 622 × 650 board, a fixed palette would make the render faster
(about 4 ms against 10.5 ms) and the PNG a third of the size (17 KB against 50 KB at most),
but its mapping plus the compose cost 1.7 times the encode of that smaller PNG, past the
budget of 1.5; in RGB it is about 1.2 (748 × 524: 12 ms, 62 KB at most). So there is no
palette to learn: `prepare` only draws the layers ahead of the first board.
"""

from __future__ import annotations

from render.common import RGB, Signal, seat_signals

WELL: RGB = (22, 23, 26)
GRID: RGB = (48, 50, 56)
EDGE: RGB = (12, 12, 14)  # the dark seam between different pieces
DIE_FACE: RGB = (238, 238, 238)
DIE_INK: RGB = (40, 40, 44)
LAST_MOVE: RGB = (255, 255, 255)  # white: no seat colour is near it, unlike the yellow highlight

# Every colour that means something on the board: each seat's pieces carry its letter; the seat
# to move's highlight and the last piece's outline are told by their colour alone.
SIGNALS: dict[str, tuple[Signal, ...]] = {"seats": (*seat_signals(4), Signal("last move", LAST_MOVE, None))}
