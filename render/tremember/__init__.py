"""Tremember board images: the public 6×6 board, and one card large for the peek.

- `layout`: where everything sits, in pixels;
- `colours`, `motifs`, `sprites`: the cards, frames, arrows and tiles, drawn once;
- `palette`: the one fixed palette, learnt once, and the static layers mapped onto it;
- `narration`: the words (`narrate` is the one wording of what just happened);
- `draw`: a board from a view (`render`, `board_image`) and the peeked card (`render_card`).

Every cache holds immutable values (stamps of bytes, tuples, strings); `prepare()` fills
the ones a first board needs, off the event path.
"""

from __future__ import annotations

from render.tremember.draw import board_image, render, render_card
from render.tremember.layout import ARROW, CARD, GAP, X0, Y0
from render.tremember.narration import a_motif, cell_name, line_moved, motif_name, narrate
from render.tremember.palette import prepare
from render.tremember.sprites import card_face

__all__ = [
    "ARROW",
    "CARD",
    "GAP",
    "X0",
    "Y0",
    "a_motif",
    "board_image",
    "card_face",
    "cell_name",
    "line_moved",
    "motif_name",
    "narrate",
    "prepare",
    "render",
    "render_card",
]
