"""Rookie board image: deterministic, small, highlights the last flip, leaks nothing."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from games.rookie import ENGINE, RookieState
from render import rookie
from render.common import HIGHLIGHT


def played(players: int, seed: int, options: dict, moves: int) -> RookieState:
    """A game after some random legal moves."""
    state = ENGINE.new_game(players, seed, options)
    rng = random.Random(seed)
    for _ in range(moves):
        if ENGINE.outcome(state) is not None:
            break
        (seat,) = ENGINE.current_seats(state)
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def image_of(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(colour: tuple[int, ...], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(colour, wanted, strict=True))


@pytest.mark.parametrize(
    ("players", "options", "moves"),
    [
        (2, {}, 0),
        (3, {"deck": "pocket"}, 120),
        (4, {"variant": "team"}, 200),
        (6, {"variant": "team"}, 150),
        (5, {"variant": "kids"}, 10_000),
    ],
)
def test_every_variant_renders_the_same_bytes_twice_within_the_size_limit(players, options, moves):
    view = ENGINE.view(played(players, 11, options, moves), None)
    png = rookie.render(view)
    assert png.startswith(b"\x89PNG") and len(png) <= 300_000
    assert rookie.render(view) == png
    assert 500 <= image_of(png).width <= 800


def test_the_last_flip_is_outlined_in_the_highlight_colour():
    state = ENGINE.apply(ENGINE.new_game(3, 2), 0, {"type": "flip", "position": 4})
    x, y = rookie._cell_origin(4)
    edge = (x + 1, y + rookie.CELL_H // 2)
    assert close(image_of(rookie.render(ENGINE.view(state, None))).getpixel(edge), HIGHLIGHT)
    before = ENGINE.new_game(3, 2)
    assert not close(image_of(rookie.render(ENGINE.view(before, None))).getpixel(edge), HIGHLIGHT)


def test_two_deals_differing_only_in_face_down_cards_give_identical_images():
    state = played(4, 8, {}, 60)
    up = set(state.open) | set(state.flipped)
    # Swap the top cards of two face-down stacks: nothing public changes.
    hidden = [p for p in range(9) if state.table[p] and p not in up]
    first, second = hidden[0], hidden[-1]
    table = list(state.table)
    table[first] = (*table[first][:-1], state.table[second][-1])
    table[second] = (*table[second][:-1], state.table[first][-1])
    other = replace(state, table=tuple(table))
    assert rookie.render(ENGINE.view(other, None)) == rookie.render(ENGINE.view(state, None))
    fresh = [rookie.render(ENGINE.view(ENGINE.new_game(4, seed), None)) for seed in (1, 2)]
    assert fresh[0] == fresh[1]


def test_a_viewer_is_marked_without_changing_the_table():
    view = ENGINE.view(ENGINE.new_game(3, 1), 1)
    assert rookie.render(view, viewer=1) != rookie.render(view)


def test_an_x_card_looks_unlike_every_colour_card():
    faces = {kind: rookie.card_sprite(kind, 40, 56).tobytes() for kind in rookie.CARD_FACES}
    assert len(set(faces.values())) == len(faces)
    assert rookie.card_sprite(None, 40, 56).tobytes() not in faces.values()
