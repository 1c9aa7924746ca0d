"""Tremember renderer: deterministic, small, shows what it must and nothing secret."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image

from games.tremember import CELLS, ENGINE, HOLE, MOTIFS, NOBODY, TrememberState
from render.common import BACKGROUND, HIGHLIGHT
from render.tremember import (
    ARROW,
    CARD,
    GAP,
    X0,
    Y0,
    card_face,
    render,
    render_card,
)
from tests.games.test_tremember import random_state

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def ordered_game(players: int = 2) -> TrememberState:
    """Card k at cell k (so pairs lie side by side), seat 0 to move."""
    return replace(ENGINE.new_game(players, seed=3), grid=tuple(range(CELLS)), turn=0)


def play(state: TrememberState, *moves: tuple[str, object]) -> TrememberState:
    for kind, arg in moves:
        move = {"type": kind, "from": arg} if kind == "push" else {"type": kind, "cell": arg}
        state = ENGINE.apply(state, ENGINE.current_seats(state)[0], move)
    return state


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(colour: tuple[int, ...], target: tuple[int, int, int], tolerance: int = 40) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))


def cell_origin(row: int, col: int) -> tuple[int, int]:
    return X0 + col * (CARD + GAP), Y0 + row * (CARD + GAP)


def test_a_board_renders_as_a_png_of_discord_preview_width():
    image = pixels(render(ENGINE.view(ENGINE.new_game(4, seed=1), None)))
    assert 500 <= image.width <= 800


def test_the_same_view_gives_the_same_bytes():
    view = ENGINE.view(random_state(11, 300), None)
    assert render(view) == render(view)
    assert render(view).startswith(PNG_SIGNATURE)


@pytest.mark.parametrize("moves", [0, 1, 2, 3, 4, 250, 5000])
def test_every_board_stays_under_300_kb(moves):
    state = random_state(moves + 1, moves)
    assert len(render(ENGINE.view(state, None))) <= 300 * 1024


def test_push_arrows_are_drawn_only_at_the_legal_sides():
    state = play(ordered_game(), ("take", [0, 0]))  # hole at A1: right and bottom only
    image = pixels(render(ENGINE.view(state, None)))
    x, y = cell_origin(0, 0)
    middle = CARD // 2
    right = (X0 + 6 * (CARD + GAP) - GAP + ARROW // 2, y + middle)
    bottom = (x + middle, Y0 + 6 * (CARD + GAP) - GAP + ARROW // 2)
    left = (X0 - ARROW // 2, y + middle)
    top = (x + middle, Y0 - ARROW // 2)
    assert near(image.getpixel(right), HIGHLIGHT)
    assert near(image.getpixel(bottom), HIGHLIGHT)
    assert not near(image.getpixel(left), HIGHLIGHT)
    assert not near(image.getpixel(top), HIGHLIGHT)


def test_the_hole_is_drawn_empty_during_the_push():
    state = play(ordered_game(), ("take", [2, 2]))
    image = pixels(render(ENGINE.view(state, None)))
    x, y = cell_origin(2, 2)
    assert image.getpixel((x + CARD // 2, y + CARD // 2))[0] < 40


def test_a_miss_shows_both_faces_framed_until_the_next_move():
    state = play(ordered_game(), ("take", [5, 5]), ("push", "left"))
    missed = play(state, ("flip", [0, 0]), ("flip", [0, 2]))  # sun and moon
    image = pixels(render(ENGINE.view(missed, None)))
    for col in (0, 2):
        x, y = cell_origin(0, col)
        assert near(image.getpixel((x - 2, y + CARD // 2)), HIGHLIGHT)  # the frame
        assert near(image.getpixel((x + 6, y + 6)), (246, 241, 228))  # a face, not a back
    x, y = cell_origin(0, 1)
    assert not near(image.getpixel((x - 2, y + CARD // 2)), HIGHLIGHT)
    later = pixels(render(ENGINE.view(play(missed, ("take", [3, 3])), None)))
    x, y = cell_origin(0, 0)
    assert not near(later.getpixel((x + 6, y + 6)), (246, 241, 228))


def test_a_found_pair_is_framed_in_the_finders_colour():
    state = play(
        ordered_game(),
        ("take", [5, 5]),
        ("push", "left"),
        ("flip", [0, 0]),
        ("flip", [0, 1]),
        ("take", [3, 3]),
    )
    image = pixels(render(ENGINE.view(state, None)))
    x, y = cell_origin(0, 0)
    assert near(image.getpixel((x - 2, y + CARD // 2)), (0, 114, 178))  # seat A's blue


def test_the_peek_never_changes_the_board_image():
    state = play(ordered_game(), ("take", [1, 1]))
    taker, spectator = ENGINE.view(state, 0), ENGINE.view(state, None)
    assert taker["peek"] is not None
    assert render(taker) == render({**taker, "peek": None}) == render(spectator)


@pytest.mark.parametrize("seed", range(8))
def test_deals_that_differ_only_in_face_down_cards_give_identical_images(seed):
    state = random_state(seed, 40 + 37 * seed)
    shown = {card for _, card in state.last_flip}
    hidden = [
        cell
        for cell, card in enumerate(state.grid)
        if card != HOLE and state.found_by[card] == NOBODY and card != state.first_flip and card not in shown
    ]
    a, b = next((a, b) for a in hidden for b in hidden if state.grid[a] // 2 != state.grid[b] // 2)
    grid = list(state.grid)
    grid[a], grid[b] = grid[b], grid[a]
    other = replace(state, grid=tuple(grid))
    assert render(ENGINE.view(state, None)) == render(ENGINE.view(other, None))


def test_all_eighteen_motifs_are_drawn_differently():
    faces = [card_face(motif).convert("RGB").tobytes() for motif in MOTIFS]
    assert len(set(faces)) == len(MOTIFS)


@pytest.mark.parametrize("motif", MOTIFS)
def test_a_peeked_card_renders_large_on_its_own(motif):
    png = render_card(motif)
    image = pixels(png)
    assert png.startswith(PNG_SIGNATURE) and image.width >= 200
    assert image.getpixel((2, 2)) == BACKGROUND


def test_the_finished_game_and_the_viewer_mark_render():
    state = random_state(4, 10_000)
    assert ENGINE.outcome(state) is not None
    assert render(ENGINE.view(state, 1), viewer=1) != render(ENGINE.view(state, None))


def test_a_joker_pair_is_framed_where_the_turned_board_put_it():
    joker = 2 * MOTIFS.index("joker1")
    grid = list(range(CELLS))
    grid[0], grid[joker], grid[6], grid[joker + 1] = joker, 0, joker + 1, 6  # A1 and A2
    state = replace(ordered_game(), grid=tuple(grid))
    state = play(state, ("take", [5, 5]), ("push", "left"), ("flip", [0, 0]), ("flip", [1, 0]))
    image = pixels(render(ENGINE.view(state, None)))
    for col in (4, 5):  # A1 went to F1, A2 to E1
        x, y = cell_origin(0, col)
        assert near(image.getpixel((x - 2, y + CARD // 2)), HIGHLIGHT)
    x, y = cell_origin(0, 0)
    assert not near(image.getpixel((x - 2, y + CARD // 2)), HIGHLIGHT)
