"""My First Triominos pictures: the public table and a player's own hand.

- `layout`: sizes and the lattice that puts the table's grid points on whole pixels;
- `narration`: the words (what just happened, worded once by `narrate` for the board
  and the bot's message; who won; where a hand card fits);
- `palette`: the colours and what their one palette is learnt from;
- `draw`: card sprites, the table area, the panels, the whole board and a hand in RGB;
- `board`: boards and hands as PNG on the palette, drawing only what changed; `prepare`
  does once, at start-up, what a first board would otherwise wait for.
"""

from render.triominos.board import prepare, render, render_hand
from render.triominos.draw import board_image, hand_image
from render.triominos.narration import narrate, tokens

__all__ = ["board_image", "hand_image", "narrate", "prepare", "render", "render_hand", "tokens"]
