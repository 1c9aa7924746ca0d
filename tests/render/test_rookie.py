"""Rookie board image: deterministic, small, highlights the last flip, leaks nothing, and
narrates in the one wording the cog uses too."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from PIL import Image

from games.base import first_seat
from games.rookie import ENGINE, RookieState
from render import rookie
from render.common import HIGHLIGHT, SEAT_COLOURS, seat_label, wrap
from tests.games.test_rookie import discards, flip, make, place, play, table
from tests.render.golden import Golden, area, in_fresh_process, pixels


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


def told(state: RookieState) -> list[str]:
    return rookie.narrate(ENGINE.view(state, None), seat_label)


def rookie_taken() -> RookieState:
    """A's X pair on stack 3 secures three X tops: a Rookie, the loot to arrange."""
    others = (discards("X", "X", ""), discards("RB", "", "G"), discards("Y", "", ""))
    return play(make(discards=others), flip(4), flip(5), place(0, 2, 2))


def steal_asked() -> RookieState:
    """An X pair placed: A chooses whose unsecured cards to take."""
    robbed = (discards("", "", ""), discards("R", "", ""), discards("GG", "B", ""))
    return play(make(discards=robbed), flip(4), flip(5), place(0, 0, 0))


# Seeded tables from the start to the end, each language, a seat's own view and a spectator's.
CASES: dict[str, Callable[[], bytes]] = {
    "start": lambda: rookie.render(ENGINE.view(ENGINE.new_game(3, 2), None)),
    "start, seat B's view": lambda: rookie.render(ENGINE.view(ENGINE.new_game(3, 2), 1), viewer=1),
    "first flip": lambda: rookie.render(
        ENGINE.view(ENGINE.apply(ENGINE.new_game(3, 2), first_seat(2, 3), flip(4)), None)
    ),
    "pocket deck, mid-game": lambda: rookie.render(ENGINE.view(played(3, 11, {"deck": "pocket"}, 120), None)),
    "teams, mid-game": lambda: rookie.render(ENGINE.view(played(4, 11, {"variant": "team"}, 200), None)),
    "teams, mid-game, German": lambda: rookie.render(
        ENGINE.view(played(4, 11, {"variant": "team"}, 200), None), lang="de"
    ),
    "teams, mid-game, French": lambda: rookie.render(
        ENGINE.view(played(4, 11, {"variant": "team"}, 200), None), lang="fr"
    ),
    "six in teams, seat D's view, German": lambda: rookie.render(
        ENGINE.view(played(6, 11, {"variant": "team"}, 150), 3), viewer=3, lang="de"
    ),
    "kids, the end": lambda: rookie.render(ENGINE.view(played(5, 11, {"variant": "kids"}, 10_000), None)),
    "standard, the end, French": lambda: rookie.render(
        ENGINE.view(played(2, 3, {}, 10_000), None), lang="fr"
    ),
    "a rookie to arrange": lambda: rookie.render(ENGINE.view(rookie_taken(), None)),
    "a steal to choose, German": lambda: rookie.render(ENGINE.view(steal_asked(), None), lang="de"),
}
GOLDEN: dict[str, Golden] = {  # recorded from the narrow layout, readable on a phone
    "start": ((640, 747), "899b476b33fa2e7b63128d2e81cc06744374984e0c5b781286b6e771d9cbb455"),
    "start, seat B's view": ((640, 747), "863cef621f3e6e21e06e675009d1f249fd521b99ce84a776de96603ce8b13baf"),
    "first flip": ((640, 747), "f308e55813fa597e1ce8c4a3277a9959e4cc77ad1d4ebe8177c5e7f749b2cdf6"),
    "pocket deck, mid-game": ((640, 747), "25250c8a0ed0212fa077acda56abefcf8069afbcfbd22b3eec5039956d99baee"),
    "teams, mid-game": ((640, 747), "7c31779e877b2d3b5d025fea88a01f8293f2f68b806bd555528f611b7e9ef19b"),
    "teams, mid-game, German": (
        (640, 747),
        "8b58b565882df77c9b9f8b02c0493fca29336c8523a4bdc4b91610497803c1f5",
    ),
    "teams, mid-game, French": (
        (640, 747),
        "79e3181293d322194767dd4ef508712da84d76b6a47d7344ad37779adcfd6b9a",
    ),
    "six in teams, seat D's view, German": (
        (640, 969),
        "32d7da9a02e700821c86aca9c20cfb9f1157d920e77da254e5db30f215ea1dcc",
    ),
    "kids, the end": ((640, 857), "ce7945404abdc47b161885fdce8f230fd378bec39fab1d49a1df1b9ec534e556"),
    "standard, the end, French": (
        (640, 747),
        "871e8b748f94a52551aac1d012f6f4735886611ca341eec72ac5c28c04a3dde4",
    ),
    "a rookie to arrange": ((640, 747), "ef1b1b3d3266e65bb3d3da2d99d95b6010df08f7be25b00bd8b4d751efc89f03"),
    "a steal to choose, German": (
        (640, 747),
        "2213b76743c5bc7db476886d8c8594301773b1461819f940d8470040ec1dd5c8",
    ),
}


def golden(name: str) -> Golden:
    return pixels(CASES[name]())


@pytest.mark.parametrize("name", GOLDEN)
def test_each_seeded_table_is_drawn_pixel_for_pixel_as_recorded(name):
    assert golden(name) == GOLDEN[name]


def test_prepare_may_run_in_several_threads_at_once_and_again_and_changes_no_board():
    with ThreadPoolExecutor(4) as pool:
        for done in [pool.submit(rookie.prepare) for _ in range(4)]:
            done.result()
    rookie.prepare()
    assert golden("teams, mid-game, German") == GOLDEN["teams, mid-game, German"]


def test_a_fresh_process_with_other_string_hashes_draws_the_same_pixels():
    names = ["start", "teams, mid-game, French", "a rookie to arrange"]
    for seed in ("1", "4242"):
        assert in_fresh_process(__name__, names, seed) == {name: GOLDEN[name] for name in names}


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
    assert Image.open(io.BytesIO(png)).mode == "P"


def test_the_last_flip_is_outlined_in_the_highlight_colour():
    """The outline of a table position, in the highlight colour, appears with the flip (where:
    the golden "first flip" board)."""
    before = ENGINE.new_game(3, 2)
    after = ENGINE.apply(before, first_seat(2, 3), {"type": "flip", "position": 4})
    outlined = area(image_of(rookie.render(ENGINE.view(after, None))), HIGHLIGHT)
    assert outlined - area(image_of(rookie.render(ENGINE.view(before, None))), HIGHLIGHT) > 1_000


def test_two_deals_differing_only_in_face_down_cards_give_identical_images():
    state = played(4, 8, {}, 60)
    up = set(state.open) | set(state.flipped)
    # Swap the top cards of two face-down stacks: nothing public changes.
    hidden = [p for p in range(9) if state.table[p] and p not in up]
    first, second = hidden[0], hidden[-1]
    stacks = list(state.table)
    stacks[first] = (*stacks[first][:-1], state.table[second][-1])
    stacks[second] = (*stacks[second][:-1], state.table[first][-1])
    other = replace(state, table=tuple(stacks))
    assert rookie.render(ENGINE.view(other, None)) == rookie.render(ENGINE.view(state, None))
    seeds = [seed for seed in range(50) if first_seat(seed, 4) == 1][:2]
    fresh = [rookie.render(ENGINE.view(ENGINE.new_game(4, seed), None)) for seed in seeds]
    assert fresh[0] == fresh[1]


def test_a_viewer_is_marked_without_changing_the_table():
    view = ENGINE.view(ENGINE.new_game(3, 1), 1)
    assert rookie.render(view, viewer=1) != rookie.render(view)


def test_an_x_card_looks_unlike_every_colour_card():
    faces = {kind: rookie.card_sprite(kind, 40, 56).data for kind in rookie.CARD_FACES}
    assert len(set(faces.values())) == len(faces)
    assert rookie.card_sprite(None, 40, 56).data not in faces.values()


def test_the_first_board_says_who_was_drawn_to_start():
    seeds = {first_seat(seed, 3): seed for seed in range(30)}
    for starter, seed in seeds.items():
        view = ENGINE.view(ENGINE.new_game(3, seed), None)
        assert rookie.narrate(view, seat_label) == [f"{seat_label(starter)} was drawn to start."]
    # The header's seat tag is the starter's colour, and each starter gives another board.
    images = {
        starter: image_of(rookie.render(ENGINE.view(ENGINE.new_game(3, seed), None)))
        for starter, seed in seeds.items()
    }
    assert len({image.tobytes() for image in images.values()}) == 3
    for starter, image in images.items():
        header = image.crop((0, 0, image.width, 40))  # the band across the top
        tags = [area(header, colour) for colour in SEAT_COLOURS[:3]]
        assert tags[starter] > 300 and sum(tags) == tags[starter]


def test_narration_counts_positions_and_stacks_from_one_and_names_seats_by_letter():
    state = play(make(table=table("", "BR", "", "BG", "BX", "BX", "BY", "BP", "RGB")), flip(8))
    assert told(state) == ["A turned up a blue ◆ card from position 9; it moved to empty position 1."]
    state = play(make(), flip(0), flip(1))
    assert told(state) == ["A turned up a pair of red ● cards."]
    assert told(play(state, place(0, 0, 2))) == ["A put the red ● pair on stacks 1 and 3."]
    assert told(play(make(), flip(0), flip(2))) == [
        "A turned up two different colours: both are face down again."
    ]


def test_a_rookie_is_told_with_what_it_took_from_whom():
    others = (discards("X", "X", ""), discards("RB", "", "G"), discards("Y", "", ""))
    state = play(make(discards=others), flip(4), flip(5), place(0, 2, 2))
    assert told(state) == [
        "A put the X pair on stack 3.",
        "A secured three X tops: 4 cards onto the point stack.",
        "Rookie! A takes every other player's unsecured cards: 3 cards from B, 1 card from C.",
    ]
    view = ENGINE.view(state, None)
    assert rookie.prompt(view, seat_label) == (
        "Spread the 4 cards taken (1 × red ●, 1 × yellow ▲, 1 × green ■, 1 × blue ◆) "
        "on A's stacks: choose the tops."
    )


def test_the_prompt_for_a_steal_names_both_neighbours_and_what_they_hold():
    robbed = (discards("", "", ""), discards("R", "", ""), discards("GG", "B", ""))
    state = play(make(discards=robbed), flip(4), flip(5), place(0, 0, 0))
    assert rookie.prompt(ENGINE.view(state, None), seat_label) == (
        "Take the unsecured cards of the player before you (C, 3 cards) or after you (B, 1 card)."
    )


def test_the_last_pair_in_the_kids_variant_is_told_once():
    state = make(players=2, variant="kids", table=table("R", "R", *[""] * 7))
    assert told(play(state, flip(0), flip(1))) == [
        "A turned up a pair of red ● cards.",
        "A took the last pair: 2 cards onto the point stack.",
    ]
    assert rookie.prompt(ENGINE.view(play(state, flip(0), flip(1)), None), seat_label) is None


def test_a_long_narration_is_cut_to_the_band_and_still_renders():
    others = (discards("X", "X", ""), discards("RB", "", "G"), discards("Y", "", ""))
    view = ENGINE.view(play(make(discards=others), flip(4), flip(5), place(0, 2, 2)), None)
    view["events"] = view["events"] * 4
    lines = [line for sentence in rookie.narrate(view, seat_label) for line in wrap(sentence, 616, 17)]
    assert len(lines) > rookie.BAND_LINES
    assert rookie.render(view).startswith(b"\x89PNG")
