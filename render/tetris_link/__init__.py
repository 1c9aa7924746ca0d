"""Tetris Link board image: the tower on the left, players and the die on the right.

- `layout`: where everything sits, in pixels (the board has the shape of Discord's image box);
- `palette`: the colours (and why the board stays in RGB);
- `sprites`: everything that repeats, drawn once and cached as immutable stamps;
- `narration`: the words (`narrate` is the one wording of what just happened);
- `draw`: a board from a view, with an optional ghost of a placement (`render`, `board_image`).

`prepare()` draws ahead of the first board what every board needs, off the event path.
"""

from __future__ import annotations

from render.tetris_link.draw import Ghost, board_image, render
from render.tetris_link.layout import CELL, HEIGHT, PANEL_W, PANEL_X, SEAT_BLOCK_H, SEAT_BLOCK_Y
from render.tetris_link.narration import FACE_NAMES, face_name, narrate
from render.tetris_link.palette import LAST_MOVE
from render.tetris_link.sprites import prepare

__all__ = [
    "CELL",
    "FACE_NAMES",
    "HEIGHT",
    "LAST_MOVE",
    "PANEL_W",
    "PANEL_X",
    "SEAT_BLOCK_H",
    "SEAT_BLOCK_Y",
    "Ghost",
    "board_image",
    "face_name",
    "narrate",
    "prepare",
    "render",
]
