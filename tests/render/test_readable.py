"""Every picture stays readable at the size Discord shows it: a media gallery scales an image to
about 550 px wide on a desktop and 360 px on a phone. The smallest text of every picture the
renderers make (each game's board for two to four players at the start, a third, two thirds and
the end; each private picture; the rules' pictures with words), in every language, must be at
least 10 px once the image is scaled to 550 px wide and 8 px at 360 px.

Text sizes are those the renderers set their text in (`render.common.recording_text_sizes`), in
pixels of the image (font size in pixels: the em, as a browser's `font-size`). The renderers'
caches are emptied first, so that text drawn once into a cached sprite is drawn, and noted, again
(text drawn only to learn a palette is noted too: the check errs on the strict side).

`python -m tests.render.test_readable` prints the table of the smallest sizes as shown.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from PIL import Image

from games.tremember import MOTIFS
from locales import DEFAULT, LANGUAGES
from render import sequence_numbers, tremember, triominos
from render.common import recording_text_sizes
from render.triominos.explain import bridge_picture
from tests.registry import HOSTED
from tests.render import test_player_card as player_card
from tests.render.test_colour_vision import playout

DESKTOP, PHONE = 550, 360  # the widths a media gallery shows an image at
LEAST = {DESKTOP: 10.0, PHONE: 8.0}  # the smallest text wanted at each, in pixels


def boards(game: str) -> Iterator[bytes]:
    """The spectator's board of `game` for 2, 3 and 4 players (those it takes) at the start, a third,
    two thirds and the end, in every language."""
    engine = HOSTED[game].engine
    for players in (2, 3, 4):
        if players not in HOSTED[game].player_counts:
            continue
        states = playout(game, players, seed=players)
        for index in (0, len(states) // 3, 2 * len(states) // 3, -1):
            view = engine.view(states[index], None)
            for lang in LANGUAGES:
                yield HOSTED[game].render(view, lang=lang)


def hands(game: str) -> Iterator[bytes]:
    """Seat A's own hand for 2, 3 and 4 players, a third of the way, in every language."""
    render = {"sequence_numbers": sequence_numbers.render_hand, "triominos": triominos.render_hand}[game]
    engine = HOSTED[game].engine
    for players in (2, 3, 4):
        if players in HOSTED[game].player_counts:
            states = playout(game, players, seed=players)
            view = engine.view(states[len(states) // 3], 0)
            for lang in LANGUAGES:
                yield render(view, lang=lang)


def peeks() -> Iterator[bytes]:
    """The card a Tremember player peeks at, every motif, in every language."""
    for motif in MOTIFS:
        for lang in LANGUAGES:
            yield tremember.render_card(motif, lang)


PICTURES: dict[tuple[str, str], Callable[[], Iterator[bytes]]] = {
    **{(game, "board"): lambda game=game: boards(game) for game in sorted(HOSTED)},
    ("sequence_numbers", "hand"): lambda: hands("sequence_numbers"),
    ("triominos", "hand"): lambda: hands("triominos"),
    ("tremember", "peek"): peeks,
    ("triominos", "rules picture"): lambda: iter([bridge_picture(DEFAULT)[0]]),  # its cards' numbers
    ("player", "card"): player_card.pictures,  # /stats: no game, one match, a few games, many
}


@dataclass(frozen=True)
class Measured:
    """The smallest text of one kind of picture and the widest such picture."""

    smallest: float
    width: int

    def shown(self, width: int) -> float:
        """The smallest text in pixels once the picture is scaled to `width`."""
        return self.smallest * width / self.width


def forget_caches() -> None:
    """Empty every cache of the renderers, so that the next pictures draw all their text anew."""
    for name, module in list(sys.modules.items()):
        if name == "render" or name.startswith("render."):
            for value in vars(module).values():
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def measure(picture: tuple[str, str]) -> Measured:
    forget_caches()
    with recording_text_sizes() as sizes:
        widths = [Image.open(io.BytesIO(png)).width for png in PICTURES[picture]()]
    return Measured(sizes.smallest, max(widths))


@pytest.mark.parametrize("picture", sorted(PICTURES), ids=" ".join)
def test_the_smallest_text_is_readable_at_the_width_discord_shows_the_picture(picture):
    measured = measure(picture)
    for width, least in LEAST.items():
        assert measured.shown(width) >= least, (
            f"{' '.join(picture)}: text of {measured.smallest:g} px on a {measured.width} px wide "
            f"picture shows at {measured.shown(width):.1f} px at {width} px wide (want >= {least:g})"
        )


if __name__ == "__main__":
    print(f"{'picture':28s} {'width':>5s} {'text':>5s} {'@550':>6s} {'@360':>6s}")
    for picture in sorted(PICTURES):
        m = measure(picture)
        shown = f"{m.shown(DESKTOP):6.1f} {m.shown(PHONE):6.1f}"
        print(f"{' '.join(picture):28s} {m.width:5d} {m.smallest:5g} {shown}")
