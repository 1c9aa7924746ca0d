"""My First Triominos pictures: deterministic, small, public-only; one wording of events."""

from __future__ import annotations

import io
import random
from dataclasses import replace

import pytest
from PIL import Image

from games.triominos import ENGINE, JOKER, TriominosState
from render import triominos
from render.common import seat_label
from render.triominos import narrate, render, render_hand
from tests.games.test_triominos import hidden_twin

PNG = b"\x89PNG\r\n\x1a\n"


def played(seed: int, players: int, moves: int, **options: bool) -> TriominosState:
    """A seeded game after up to `moves` moves, placing whenever it can."""
    return game(seed, players, moves, **options)[-1]


def game(seed: int, players: int, moves: int = 500, **options: bool) -> list[TriominosState]:
    """Every state of a seeded game, placing whenever it can (taking the joker back first)."""
    rng = random.Random(seed)
    states = [ENGINE.new_game(players, seed, options)]
    for _ in range(moves):
        state = states[-1]
        if ENGINE.outcome(state) is not None:
            break
        (seat,) = ENGINE.current_seats(state)
        legal = ENGINE.legal_moves(state, seat)
        swaps = [m for m in legal if m["type"] == "take_joker"]
        placing = [m for m in legal if m["type"] == "place"]
        states.append(ENGINE.apply(state, seat, rng.choice(swaps or placing or legal)))
    return states


def large_table() -> dict:
    """A finished four-player game: 30 and more cards on the table."""
    state = next(s for s in (played(seed, 4, 500) for seed in range(20)) if len(s.table) >= 30)
    return ENGINE.view(state, None)


def size_of(png: bytes) -> tuple[int, int]:
    """Pixel size of a PNG."""
    return Image.open(io.BytesIO(png)).size


def cold() -> None:
    """Forget every cached sprite, piece and table picture (what `ready` draws once per
    process stays: the palette, the card masters, the places' shapes)."""
    kept = {"ready", "palette", "palette_index", "palette_colours", "master_sprite", "place_shape"}
    for name, value in vars(triominos).items():
        if hasattr(value, "cache_clear") and name not in kept:
            value.cache_clear()
    triominos.AREAS.clear()


def test_the_same_view_gives_the_same_bytes_even_from_a_cold_cache():
    view = ENGINE.view(played(3, 3, 12), None)
    first = render(view)
    cold()
    assert render(view) == first


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (4, 3), (7, 4)])
def test_each_board_made_from_the_one_before_is_the_whole_board_on_the_palette(seed, players):
    states = game(seed, players)
    assert any(state.last_move and state.last_move[1] == "take_joker" for state in states)
    cold()
    for state in states:
        view = ENGINE.view(state, None)
        assert render(view) == triominos.palette().png(triominos.board_image(view))


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
    twin = hidden_twin(state, None, random.Random(7))
    assert twin.hands != state.hands and twin.pot != state.pot
    assert render(ENGINE.view(state, None)) == render(ENGINE.view(twin, None))
    mine = ENGINE.view(state, 0)
    public = {k: v for k, v in mine.items() if k not in {"hand", "fits", "swaps", "can_buy", "can_pass"}}
    assert render(mine) == render(public) == render(ENGINE.view(state, None))


def test_a_finished_game_names_the_winner():
    view = ENGINE.view(played(1, 2, 500), None)
    assert view["winners"] and not view["to_move"]
    running = {**view, "winners": None, "to_move": [0]}
    assert render(view).startswith(PNG) and render(view) != render(running)


def test_a_hand_is_drawn_for_its_owner_and_grows_with_the_cards():
    state = played(4, 2, 6)
    six = render_hand(ENGINE.view(replace(state, hands=(state.hands[0][:6], state.hands[1])), 0))
    two = render_hand(ENGINE.view(replace(state, hands=(state.hands[0][:2], state.hands[1])), 0))
    assert six.startswith(PNG) and size_of(six)[0] > size_of(two)[0]


def test_a_spectator_hand_is_an_empty_rack_and_open_hands_draw_any_seat():
    state = played(6, 3, 4, open_hands=True)
    assert render_hand(ENGINE.view(state, None)).startswith(PNG)
    assert render_hand(ENGINE.view(state, None), seat=2).startswith(PNG)


# --- the one wording of what happened -------------------------------------------------


def event_view(**event) -> dict:
    return {"last_event": event}


def test_the_start_names_the_seat_drawn_to_start():
    view = ENGINE.view(ENGINE.new_game(3, 4), None)
    seat = view["to_move"][0]
    assert narrate(view, seat_label) == [
        "The first card is on the table.",
        f"{seat_label(seat)} was drawn to start.",
    ]


def test_a_placement_is_told_with_its_tokens_and_every_bonus():
    event = {"type": "place", "seat": 1, "joker": False, "hexagons": 2, "bridge": False, "last_card": True}
    said = narrate(event_view(**event, earned=4, paid=4), seat_label)
    assert said == ["B placed a card: +4 tokens (card + two hexagons + the last card)."]
    said = narrate(event_view(**{**event, "joker": True, "hexagons": 0}, earned=2, paid=1), seat_label)
    assert said == ["B placed the joker: +1 token (card + the last card).", "The bank held only 1 token."]


@pytest.mark.parametrize(
    ("event", "said"),
    [
        ({"type": "buy", "seat": 0, "pot_emptied": False}, ["A paid 1 token and drew a card."]),
        (
            {"type": "buy", "seat": 2, "pot_emptied": True},
            ["C paid 1 token and drew a card.", "That was the last card of the pot."],
        ),
        (
            {"type": "pass", "seat": 3, "reason": "empty_pot"},
            ["D passed: no card fits and the pot is empty."],
        ),
        (
            {"type": "pass", "seat": 0, "reason": "no_tokens"},
            ["A passed: no card fits and no token is left to buy one."],
        ),
        ({"type": "take_joker", "seat": 1}, ["B took back the joker and put a card in its place."]),
        ({"type": "resign", "seat": 1}, ["B left the game."]),
    ],
    ids=["buy", "last card", "pass, empty pot", "pass, no tokens", "joker", "resign"],
)
def test_every_other_event_is_one_sentence_naming_the_seat(event, said):
    assert narrate(event_view(**event), seat_label) == said


def test_the_board_writes_the_narration_wrapping_a_long_one():
    state = played(2, 2, 0)
    view = ENGINE.view(state, None)
    short = size_of(render(view))
    long = {**view, "last_event": {"type": "place", "seat": 0, "joker": True, "hexagons": 2, "bridge": True}}
    long["last_event"] |= {"last_card": True, "earned": 5, "paid": 1}
    assert len(triominos.footer_lines(long, short[0])) == 2
    assert size_of(render(long))[1] > short[1]


def test_a_joker_on_the_table_is_drawn():
    state = next(s for s in game(7, 4) if any(p[0] == JOKER for p in s.table))
    assert render(ENGINE.view(state, None)).startswith(PNG)
