"""Rookie board: the nine stacks, every seat's discard and point stacks, the last flip,
and what just happened.

Drawn only from the public view. `narrate` and `prompt` are the one wording of what just
happened and of what the player to move is asked: the board writes them with seat letters,
the cog's headline with mentions.

The package: `layout` (where everything lies), `colours`, `sprites` (cards, drawn
supersampled), `palette` (the one palette, tiles mapped onto it), `narration` (the words)
and `draw` (tiles drawn once, then each board); text comes from `render.text`. Caches hold
`Frozen` images (immutable bytes); `prepare()` draws, once, everything a first board would
otherwise draw at first use.
"""

from __future__ import annotations

from threading import Lock

from games.rookie import RookieView
from locales import DEFAULT
from render.common import to_png
from render.rookie.colours import CARD_FACES
from render.rookie.draw import board_image, prepare_all
from render.rookie.layout import BAND_LINES
from render.rookie.narration import a_card, cards, colour, narrate, prompt
from render.rookie.sprites import card_sprite

__all__ = [
    "BAND_LINES",
    "CARD_FACES",
    "a_card",
    "board_image",
    "card_sprite",
    "cards",
    "colour",
    "narrate",
    "prepare",
    "prompt",
    "render",
]

_PREPARING = Lock()


def prepare() -> None:
    """Draw, once, the palette, the tiles, the static layer in every language and the glyphs,
    so that no board learns them at first use (safe to call from several threads, and again)."""
    with _PREPARING:
        prepare_all()


def render(view: RookieView, *, viewer: int | None = None, lang: str = DEFAULT) -> bytes:
    """PNG bytes of the public Rookie table described by `view` in `lang` (`viewer`: whose "you" to mark)."""
    return to_png(board_image(view, viewer, lang))
