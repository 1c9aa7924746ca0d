"""Sequence Numbers images: deterministic, small, public, and showing what happened."""

from __future__ import annotations

import io
import random
from dataclasses import replace

from PIL import Image

from games.sequence_numbers import CARDS, CELLS_OF, ENGINE, SequenceState
from render.common import HIGHLIGHT, SEAT_COLOURS
from render.sequence_numbers import (
    CARD_GAP,
    CARD_H,
    CARD_W,
    CELL,
    DEAD,
    PAD,
    cell_box,
    cell_centre,
    render,
    render_hand,
)

PLUS = next(i for i, c in enumerate(CARDS) if c.kind == "plus")
MINUS = next(i for i, c in enumerate(CARDS) if c.kind == "minus")


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(pixel: tuple[int, ...], colour: tuple[int, int, int], tolerance: int = 16) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=True))


def midgame(players: int = 4, seed: int = 3, moves: int = 40) -> SequenceState:
    state, rng = ENGINE.new_game(players, seed), random.Random(seed)
    for _ in range(moves):
        seat = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def locked_position() -> SequenceState:
    """Team A has a locked row B2–F2; seat 0 holds plus cards."""
    state = ENGINE.new_game(4, seed=1)
    chips = [None] * 100
    run = tuple(range(11, 16))
    for cell in run:
        chips[cell] = 0
    chips[55] = 1
    return replace(state, chips=tuple(chips), sequences=((run,), ()))


def test_the_same_view_gives_the_same_bytes() -> None:
    view = ENGINE.view(midgame(), None)
    assert render(view) == render(view)


def test_the_board_is_a_discord_sized_png_under_300_kb() -> None:
    png = render(ENGINE.view(midgame(6, 2, 60), None))
    picture = image(png)
    assert png.startswith(b"\x89PNG") and len(png) <= 300_000
    assert 500 <= picture.width <= 800


def test_the_public_board_ignores_hands_so_every_seat_sees_the_same_image() -> None:
    state = midgame()
    pool = [c for h in state.hands for c in h] + list(state.deck)
    random.Random(5).shuffle(pool)
    sizes = [len(h) for h in state.hands]
    hands = tuple(tuple(pool[sum(sizes[:i]) : sum(sizes[: i + 1])]) for i in range(4))
    twin = replace(state, hands=hands, deck=tuple(pool[sum(sizes) :]))
    assert twin.hands != state.hands
    public = render(ENGINE.view(state, None))
    assert render(ENGINE.view(twin, None)) == public
    assert all(render(ENGINE.view(state, seat)) == public for seat in range(4))


def test_chips_appear_in_their_team_colour_on_their_cell() -> None:
    state = locked_position()
    picture = image(render(ENGINE.view(state, None)))
    x, y = cell_centre(5, 5)  # F6, team B, not locked
    assert close(picture.getpixel((x - 15, y)), SEAT_COLOURS[1])
    x, y = cell_centre(7, 7)  # empty
    assert not any(close(picture.getpixel((x - 15, y)), c) for c in SEAT_COLOURS[:2])


def test_locked_chips_show_a_white_rim_and_unlocked_ones_do_not() -> None:
    picture = image(render(ENGINE.view(locked_position(), None)))
    x, y = cell_centre(1, 2)  # C2, locked
    assert close(picture.getpixel((x - 19, y)), (250, 250, 250), 24)
    x, y = cell_centre(5, 5)
    assert not close(picture.getpixel((x - 19, y)), (250, 250, 250), 60)


def test_the_last_move_cell_is_outlined_in_the_highlight_colour() -> None:
    state = locked_position()
    state = replace(state, hands=((PLUS, *state.hands[0][1:]), *state.hands[1:]))
    after = ENGINE.apply(state, 0, {"type": "play", "card": 0, "row": 8, "col": 3})
    picture = image(render(ENGINE.view(after, None)))
    left, top, _, _ = cell_box(8, 3)
    assert close(picture.getpixel((left + 1, top + CELL // 2)), HIGHLIGHT)
    other_left, other_top, _, _ = cell_box(2, 3)
    assert not close(picture.getpixel((other_left + 1, other_top + CELL // 2)), HIGHLIGHT)


def test_the_hand_shows_one_numbered_card_per_card_held_and_marks_dead_ones() -> None:
    dead = 0  # a problem card; both cells of its answer get chips below
    state = ENGINE.new_game(2, seed=4)
    chips = list(state.chips)
    for cell in CELLS_OF[CARDS[dead].answer]:
        chips[cell] = 1
    state = replace(state, chips=tuple(chips), hands=((dead, PLUS, MINUS), state.hands[1]))
    view = ENGINE.view(state, 0)
    assert view["dead_cards"] == [0]
    png = render_hand(view)
    assert png == render_hand(view)
    picture = image(png)
    banner_y = PAD + 30 + CARD_H - 46
    assert close(picture.getpixel((PAD + 6, banner_y)), DEAD)
    assert not close(picture.getpixel((PAD + CARD_W + CARD_GAP + 6, banner_y)), DEAD)
    fewer = replace(state, hands=((dead, PLUS), state.hands[1]))
    assert image(render_hand(ENGINE.view(fewer, 0))).width < picture.width
    assert render_hand(ENGINE.view(state, None))  # a spectator gets an empty hand image
