"""My First Triominos pictures: deterministic, small, public-only, quick enough."""

from __future__ import annotations

import io
import random
import statistics
import time
from dataclasses import replace

import pytest
from PIL import Image

from games.triominos import ENGINE, TriominosState
from render import triominos
from render.triominos import render, render_hand

PNG = b"\x89PNG\r\n\x1a\n"


def played(seed: int, players: int, moves: int, **options: bool) -> TriominosState:
    """A seeded game after up to `moves` moves, placing whenever it can."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed, options)
    for _ in range(moves):
        if ENGINE.outcome(state) is not None:
            break
        (seat,) = ENGINE.current_seats(state)
        legal = ENGINE.legal_moves(state, seat)
        placing = [m for m in legal if m["type"] == "place"]
        state = ENGINE.apply(state, seat, rng.choice(placing or legal))
    return state


def large_table() -> dict:
    """A finished four-player game: 30 and more cards on the table."""
    state = next(s for s in (played(seed, 4, 500) for seed in range(20)) if len(s.table) >= 30)
    return ENGINE.view(state, None)


def size_of(png: bytes) -> tuple[int, int]:
    """Pixel size of a PNG."""
    return Image.open(io.BytesIO(png)).size


def test_the_same_view_gives_the_same_bytes_even_from_a_cold_cache():
    view = ENGINE.view(played(3, 3, 12), None)
    first = render(view)
    triominos.card_sprite.cache_clear()
    triominos.place_sprite.cache_clear()
    assert render(view) == first


@pytest.mark.parametrize("moves", [0, 10, 500])
def test_every_stage_of_a_game_is_a_png_under_300_kb_within_the_size_limit(moves):
    png = render(ENGINE.view(played(5, 4, moves), 0), viewer=0)
    assert png.startswith(PNG) and len(png) <= 300_000
    width, height = size_of(png)
    assert 500 <= width <= 1000 and height <= 1000


def test_a_large_table_still_fits_within_the_size_limit():
    png = render(large_table())
    width, height = size_of(png)
    assert len(png) <= 300_000 and width <= 1000 and height <= 1000


def test_the_picture_grows_with_the_table():
    small = size_of(render(ENGINE.view(played(2, 2, 0), None)))
    large = size_of(render(large_table()))
    assert large[1] > small[1]


def test_the_public_picture_ignores_hands_fits_and_the_pot_order():
    state = played(7, 3, 9)
    hand, pot = state.hands[1], state.pot
    assert len(pot) >= len(hand)
    new_pot = tuple(reversed(hand + pot[len(hand) :]))
    twin = replace(state, hands=(state.hands[0], pot[: len(hand)], state.hands[2]), pot=new_pot)
    assert twin.hands != state.hands and len(twin.pot) == len(state.pot)
    assert render(ENGINE.view(state, None)) == render(ENGINE.view(twin, None))
    mine = ENGINE.view(state, 0)
    public = {k: v for k, v in mine.items() if k not in {"hand", "fits", "swaps"}}
    assert render(mine) == render(public) == render(ENGINE.view(state, None))


def test_a_finished_game_names_the_winner_without_error():
    view = ENGINE.view(played(1, 2, 500), None)
    assert view["over"] and render(view).startswith(PNG)


def test_a_hand_is_drawn_for_its_owner_and_grows_with_the_cards():
    state = played(4, 2, 6)
    six = render_hand(ENGINE.view(replace(state, hands=(state.hands[0][:6], state.hands[1])), 0))
    two = render_hand(ENGINE.view(replace(state, hands=(state.hands[0][:2], state.hands[1])), 0))
    assert six.startswith(PNG) and size_of(six)[0] > size_of(two)[0]


def test_a_spectator_hand_is_an_empty_rack_and_open_hands_draw_any_seat():
    state = played(6, 3, 4, open_hands=True)
    assert render_hand(ENGINE.view(state, None)).startswith(PNG)
    assert render_hand(ENGINE.view(state, None), seat=2).startswith(PNG)


def test_a_large_table_renders_quickly():
    # The budget (median 25 ms) is measured by benchmark; this only catches a blow-up.
    view = large_table()
    render(view)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        render(view)
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.15
