"""Every board stays readable with a colour vision deficiency: each board of every game (two to
four players: the start, a third of the way, two thirds, the end, and seat A's own hand) is
rendered, seen as a protanope, a deuteranope and a tritanope would see it (tests/render/vision.py:
Machado et al. 2009, severity 1.0, in linear light), and every pair of the colours that mean
something on it (each renderer's `SIGNALS`, found on the board as drawn) either stays apart or
carries a mark that tells them apart. The simulated boards are written to the test's `tmp_path`
(`pytest --basetemp=DIR` keeps them to look at).

Apart means CIEDE2000 ≥ 10. A difference of 1 is just noticeable for two patches side by side in
good light; the colours on a board are small (a chip, a frame, a piece), rarely side by side, and
seen on screens and in rooms nobody controls, so a colour that stands alone is asked to be ten such
steps from every other: the distance Okabe–Ito's seat colours keep for the three deficiencies.
"""

from __future__ import annotations

import importlib
import io
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from render import rookie, sequence_numbers
from render.common import RGB, Signal
from tests.games.test_sequence_numbers import six_in_a_row
from tests.registry import HOSTED
from tests.render.vision import DEFICIENCIES, ciede2000, delta_e, simulate, simulated

APART = 10.0  # CIEDE2000 between two colours that stand alone (see the module docstring)
FOUND = 8  # how far (in each channel) the board's colour may lie from the declared one: its palette
LEAST_AREA = 150  # pixels of a colour that make it one drawn on purpose (a tag, a frame), not edges
SIGNAL_MODULES = {
    "rookie": "render.rookie.colours",
    "sequence_numbers": "render.sequence_numbers.colours",
    "tetris_link": "render.tetris_link.palette",
    "tremember": "render.tremember.colours",
    "triominos": "render.triominos.palette",
}
OPTIONS: dict[str, dict[int, dict[str, Any]]] = {"rookie": {4: {"variant": "team"}}}  # team tags too


def lock_to_choose() -> bytes:
    """A Sequence Numbers board asking which five of six chips to lock (its rails)."""
    return sequence_numbers.render(HOSTED["sequence_numbers"].engine.view(six_in_a_row(), None))


def six_seats() -> bytes:
    """A Rookie table of six, in teams: the fifth and sixth seats' colours."""
    states = playout("rookie", 6, seed=6, options={"variant": "team"})
    return rookie.render(HOSTED["rookie"].engine.view(states[len(states) // 3], None))


# Boards a seeded match of two to four seldom shows, which draw colours that mean something.
EXTRA: dict[str, dict[str, Callable[[], bytes]]] = {
    "sequence_numbers": {"a lock to choose": lock_to_choose},
    "rookie": {"6 players in teams": six_seats},
}


def signals(game: str) -> dict[str, tuple[Signal, ...]]:
    palettes: dict[str, tuple[Signal, ...]] = importlib.import_module(SIGNAL_MODULES[game]).SIGNALS
    return palettes


def playout(game: str, players: int, seed: int, options: dict[str, Any] | None = None) -> list[Any]:
    """Every state of a seeded random match of `game`."""
    engine = HOSTED[game].engine
    state = engine.new_game(players, seed, options or OPTIONS.get(game, {}).get(players, {}))
    rng = random.Random(seed)
    states = [state]
    while seats := engine.current_seats(state):
        seat = rng.choice(seats)
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        states.append(state)
    return states


def boards(game: str) -> dict[str, Callable[[], bytes]]:
    """The pictures of `game` checked: for 2, 3 and 4 players (those it takes), the spectator's
    board at the start, a third of the way, two thirds and the end, and seat A's own hand."""
    engine = HOSTED[game].engine
    module = importlib.import_module(f"render.{game}")
    made: dict[str, Callable[[], bytes]] = {}
    for players in (2, 3, 4):
        if players not in HOSTED[game].player_counts:
            continue
        states = playout(game, players, seed=players)
        picked = {"start": 0, "a third": len(states) // 3, "two thirds": 2 * len(states) // 3, "end": -1}
        for when, index in picked.items():
            view = engine.view(states[index], None)
            made[f"{players} players, {when}"] = lambda view=view: module.render(view)
        if hasattr(module, "render_hand"):
            view = engine.view(states[len(states) // 3], 0)
            made[f"{players} players, seat A's hand"] = lambda view=view: module.render_hand(view)
    return {**made, **EXTRA.get(game, {})}


def decoded(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as image:
        return image.convert("RGB")


def as_drawn(image: Image.Image, colour: RGB) -> RGB | None:
    """The colour of `image` that stands for `colour`: the most used one within `FOUND` of it in
    every channel (a board on a palette shifts colours a little), if it covers `LEAST_AREA`."""
    near = [
        (count, found)
        for count, found in image.getcolors(image.width * image.height) or []
        if max(abs(a - b) for a, b in zip(found, colour, strict=True)) <= FOUND
    ]
    count, found = max(near, default=(0, colour))
    return found if count >= LEAST_AREA else None


def seen(original: Image.Image, simulation: Image.Image, colour: RGB) -> RGB:
    """How the pixels of `colour` in `original` look in `simulation` (their mean)."""
    difference = ImageChops.difference(original, Image.new("RGB", original.size, colour))
    bands = [band.point(lambda value: 255 if value == 0 else 0) for band in difference.split()]
    mask = ImageChops.multiply(ImageChops.multiply(bands[0], bands[1]), bands[2])
    r, g, b = ImageStat.Stat(simulation, mask).mean
    return round(r), round(g), round(b)


@dataclass(frozen=True)
class Pair:
    """Two meaningful colours of one palette on one board, and how far apart they look."""

    board: str
    palette: str
    first: Signal
    second: Signal
    deficiency: str
    distance: float

    @property
    def marked(self) -> bool:
        """Whether a mark drawn with each tells them apart without colour."""
        return None not in (self.first.mark, self.second.mark) and self.first.mark != self.second.mark

    def __str__(self) -> str:
        return (
            f"{self.board}, {self.palette}: {self.first.meaning} / {self.second.meaning} "
            f"({self.deficiency}): ΔE00 {self.distance:.1f}"
        )


def pairs(game: str, folder: Path | None = None) -> Iterator[Pair]:
    """Every pair of meaningful colours on every board of `game` under every deficiency (the
    simulated boards written to `folder`)."""
    for name, make in boards(game).items():
        image = decoded(make())
        drawn = {
            palette: [
                (signal, found) for signal in found_signals if (found := as_drawn(image, signal.colour))
            ]
            for palette, found_signals in signals(game).items()
        }
        for deficiency in DEFICIENCIES:
            simulation = simulated(image, deficiency)
            if folder is not None:
                simulation.save(folder / f"{game} - {name} - {deficiency}.png".replace("'", ""))
            for palette, present in drawn.items():
                looks = [(signal, seen(image, simulation, found)) for signal, found in present]
                for (first, a), (second, b) in combinations(looks, 2):
                    yield Pair(name, palette, first, second, deficiency, delta_e(a, b))


@pytest.mark.parametrize("game", sorted(SIGNAL_MODULES))
def test_every_pair_of_meaningful_colours_stays_apart_or_carries_a_mark_for_every_colour_vision(
    game, tmp_path
):
    checked = list(pairs(game, tmp_path))
    confused = [str(pair) for pair in checked if pair.distance < APART and not pair.marked]
    assert not confused, "\n".join(confused)
    # Every meaningful colour was found, as drawn, on some board, and checked.
    found = {(pair.palette, signal.meaning) for pair in checked for signal in (pair.first, pair.second)}
    assert found == {(palette, signal.meaning) for palette, some in signals(game).items() for signal in some}


def test_every_game_declares_the_colours_that_mean_something_on_its_boards():
    assert set(SIGNAL_MODULES) == set(HOSTED)
    for game in HOSTED:
        for palette, declared in signals(game).items():
            assert len({signal.colour for signal in declared}) == len(declared) >= 2, (game, palette)


@pytest.mark.parametrize(
    ("first", "second", "distance"),
    [  # Sharma, Wu and Dalal (2005), table 1: pairs 1, 7, 17, 20 and 34
        ((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
        ((50, 0, 0), (50, -1, 2), 2.3669),
        ((50, 2.5, 0), (56, -27, -3), 31.9030),
        ((50, 2.5, 0), (50, 3.1736, 0.5854), 1.0),
        ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
    ],
)
def test_colour_differences_are_those_the_ciede2000_reference_gives(first, second, distance):
    assert ciede2000(first, second) == pytest.approx(distance, abs=1e-4)


@pytest.mark.parametrize("deficiency", DEFICIENCIES)
def test_a_simulation_keeps_greys_and_sees_a_board_of_many_colours_as_one_of_few(deficiency):
    """A board on a palette is simulated colour by colour; one in full colour through a table
    interpolated between its points, which shifts no colour by a noticeable difference."""
    assert simulate((128, 128, 128), deficiency) == (128, 128, 128)
    faces = [(213, 50, 40), (240, 196, 25), (30, 150, 75), (35, 105, 205), (135, 70, 175), (32, 34, 37)]
    few = Image.new("RGB", (len(faces), 1))
    few.putdata(faces)
    many = Image.radial_gradient("L").convert("RGB")  # 256 greys and the faces: past a palette
    many.paste(few, (0, 0))
    exact, through_table = simulated(few, deficiency), simulated(many, deficiency)
    for x in range(len(faces)):
        assert delta_e(through_table.getpixel((x, 0)), exact.getpixel((x, 0))) < 1


def test_a_colour_that_stands_alone_too_near_another_is_found():
    """The check itself: two blues a deuteranope cannot tell apart, one without a mark."""
    blue, purple = Signal("blue", (35, 105, 205), None), Signal("purple", (135, 70, 175), "★")
    image = Image.new("RGB", (40, 20), blue.colour)
    image.paste(purple.colour, (20, 0, 40, 20))
    simulation = simulated(image, "deuteranopia")
    distance = delta_e(seen(image, simulation, blue.colour), seen(image, simulation, purple.colour))
    pair = Pair("sample", "cards", blue, purple, "deuteranopia", distance)
    assert distance < APART and not pair.marked
