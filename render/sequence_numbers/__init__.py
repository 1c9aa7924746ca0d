"""Sequence Numbers images: the public board and a player's hand.

The board is drawn from the public parts of a view only (never `hand`), so every player
and spectator gets the same picture, mapped onto the renderer's one palette. What just
happened is worded once, by `narrate`, for the board and for the bot's message.

The package: `layout` (where everything lies), `colours`, `sprites` (chips), `narration`
(the words, and how teams are named), `draw` (the board in full colour, from cached
cells and rows), `palette` (the one palette, learnt from sample boards) and `hand`. Caches
hold `Frozen` images (immutable bytes); `prepare()` learns, once, what a first board would
otherwise learn at first use.
"""

from __future__ import annotations

from threading import Lock

from games.sequence_numbers import SequenceView
from locales import DEFAULT
from render.common import to_png
from render.sequence_numbers.colours import CHOICE, DEAD
from render.sequence_numbers.draw import board_image
from render.sequence_numbers.hand import render_hand
from render.sequence_numbers.layout import cell_box, cell_centre, parse_cell
from render.sequence_numbers.narration import narrate, solo, status
from render.sequence_numbers.palette import on_palette, prepare_all

__all__ = [
    "CHOICE",
    "DEAD",
    "board_image",
    "cell_box",
    "cell_centre",
    "narrate",
    "parse_cell",
    "prepare",
    "render",
    "render_hand",
    "solo",
    "status",
]

_PREPARING = Lock()


def prepare() -> None:
    """Learn, once, the palette, the rows without chips in every language and the fonts, so
    that no board learns them at first use (safe to call from several threads, and again)."""
    with _PREPARING:
        prepare_all()


def render(view: SequenceView, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """The public board as PNG bytes, its words in `lang`: chips, locks, sequences, last move, lock
    choice, whose turn."""
    return to_png(on_palette(view, viewer, lang))
