"""Sequence Numbers images: deterministic, small, public, and showing what happened."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace

import pytest
from PIL import Image

from games.base import first_seat
from games.sequence_numbers import CARDS, CELLS_OF, ENGINE, SequenceState
from render.common import HIGHLIGHT, SEAT_COLOURS, seat_label
from render.sequence_numbers import CHOICE, DEAD, narrate, prepare, render, render_hand
from tests.games.test_sequence_numbers import card_for, hidden_twin, make, play, six_in_a_row
from tests.render.golden import Golden, area, in_fresh_process, pixels

PLUS = next(i for i, c in enumerate(CARDS) if c.kind == "plus")
MINUS = next(i for i, c in enumerate(CARDS) if c.kind == "minus")


def image(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def midgame(players: int = 4, seed: int = 3, moves: int = 40) -> SequenceState:
    state, rng = ENGINE.new_game(players, seed), random.Random(seed)
    for _ in range(moves):
        seat = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def locked_position() -> SequenceState:
    """Team 1 has a locked row B2–F2, team 2 a chip on F6; seat 0 holds plus cards."""
    state = ENGINE.new_game(4, seed=1)
    chips: list[int | None] = [None] * 100
    run = tuple(range(11, 16))
    for cell in run:
        chips[cell] = 0
    chips[55] = 1
    return replace(state, chips=tuple(chips), sequences=((run,), ()), turn=0)


def finished(players: int = 2, seed: int = 1) -> SequenceState:
    """A game played by random legal moves to its end."""
    state, rng = ENGINE.new_game(players, seed), random.Random(seed)
    while ENGINE.current_seats(state):
        seat = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def hand_with_a_dead_card() -> SequenceState:
    """Seat 0 holds a dead problem card (both its cells taken), a plus and a minus card."""
    dead = 0
    state = ENGINE.new_game(2, seed=4)
    chips = list(state.chips)
    for cell in CELLS_OF[CARDS[dead].answer]:
        chips[cell] = 1
    return replace(state, chips=tuple(chips), hands=((dead, PLUS, MINUS), state.hands[1]))


# Seeded boards and hands from the start to the end, each language, a seat's own view and a
# spectator's (the board is the same picture for both; the hand is the seat's alone).
CASES: dict[str, Callable[[], bytes]] = {
    "start": lambda: render(ENGINE.view(ENGINE.new_game(4, 5), None)),
    "start, seat A's view": lambda: render(ENGINE.view(ENGINE.new_game(4, 5), 0), viewer=0),
    "four, mid-game": lambda: render(ENGINE.view(midgame(), None)),
    "four, mid-game, German": lambda: render(ENGINE.view(midgame(), None), lang="de"),
    "four, mid-game, French": lambda: render(ENGINE.view(midgame(), None), lang="fr"),
    "six, mid-game, seat B's view": lambda: render(ENGINE.view(midgame(6, 2, 60), 1), viewer=1),
    "three, mid-game, French": lambda: render(ENGINE.view(midgame(3, 7, 30), None), lang="fr"),
    "a locked sequence": lambda: render(ENGINE.view(locked_position(), None)),
    "a lock to choose, German": lambda: render(ENGINE.view(six_in_a_row(), None), lang="de"),
    "two, the end": lambda: render(ENGINE.view(finished(), None)),
    "six in two teams, the end, German": lambda: render(ENGINE.view(finished(6, 3), None), lang="de"),
    "hand": lambda: render_hand(ENGINE.view(midgame(), 2)),
    "hand with a dead card, German": lambda: render_hand(ENGINE.view(hand_with_a_dead_card(), 0), "de"),
    "hand with a dead card, French": lambda: render_hand(ENGINE.view(hand_with_a_dead_card(), 0), "fr"),
    "a spectator's hand": lambda: render_hand(ENGINE.view(midgame(), None)),
}
GOLDEN: dict[str, Golden] = {  # recorded since the panel's lines are pieced from cached words
    "start": ((620, 756), "5bed7ade0c28310f42b5661aa33080209f3a2078a34625624597bf3013abc308"),
    "start, seat A's view": ((620, 756), "99147e175f0a7bebb5426b3af939ff161472a06eb07daaff3e48eed9b73a01bc"),
    "four, mid-game": ((620, 756), "13ba6374d1d3fa03982092b589fa8c45f23734fc0ca272317bfaf48e91b5d2e1"),
    "four, mid-game, German": (
        (620, 756),
        "dc477e052510a73bdd746946cd1ec7a11521bd579311c767d32f22d4ab247699",
    ),
    "four, mid-game, French": (
        (620, 756),
        "db5b2e8eaf32cdd54ff391940f24f4a970f93f061f0d91d21f60131ebdfbbdf0",
    ),
    "six, mid-game, seat B's view": (
        (620, 756),
        "c643428b7425d902cde6c3bd1ac6b3f39f29d8c962977bd5a2e3103ca7319830",
    ),
    "three, mid-game, French": (
        (620, 756),
        "1aa1086c6fc761617546e9cacfb0912ac1c967ee492ad7664e446918edd33273",
    ),
    "a locked sequence": ((620, 756), "7c63c8aef3d800b67a5bd768600a22f29d5b9f0c2e869015c0bdafc60c838f51"),
    "a lock to choose, German": (
        (620, 756),
        "05bdff1b5d40bf455791230cc38028bfd4266cd8c520221cc069d80a3237afd5",
    ),
    "two, the end": ((620, 756), "576afc8b4de19ad8ed9ca1e3d22fc05bef98847f778b1702df5519e46b441e91"),
    "six in two teams, the end, German": (
        (620, 756),
        "291b82d8120869ac8b20924af698f00e549d0a2fc9b50b4b317a256764660c76",
    ),
    "hand": ((530, 210), "64cc8d8fb89f4d0440af71144feb976c467fa610736294a75cf1e4e33bce8a4f"),
    "hand with a dead card, German": (
        (400, 210),
        "95475dc5905c28d4a404d47462c866a24d97dead1ca3eaa56082f93930f0801f",
    ),
    "hand with a dead card, French": (
        (400, 210),
        "495bdbbcb679df2b74be5396f1ec835ed5cb9bbf248b8b582e5800338f490d69",
    ),
    "a spectator's hand": ((260, 210), "9c44175a02980a81e19b074fe60918a83b476aa4d4f6f03b8a21bfeb43ffa2ce"),
}


def golden(name: str) -> Golden:
    return pixels(CASES[name]())


@pytest.mark.parametrize("name", GOLDEN)
def test_each_seeded_board_and_hand_is_drawn_pixel_for_pixel_as_recorded(name: str) -> None:
    assert golden(name) == GOLDEN[name]


def test_prepare_may_run_in_several_threads_at_once_and_again_and_changes_no_board() -> None:
    with ThreadPoolExecutor(4) as pool:
        for done in [pool.submit(prepare) for _ in range(4)]:
            done.result()
    prepare()
    assert golden("a lock to choose, German") == GOLDEN["a lock to choose, German"]


def test_a_fresh_process_with_other_string_hashes_draws_the_same_pixels() -> None:
    names = ["start", "four, mid-game, French", "a lock to choose, German", "hand with a dead card, German"]
    for seed in ("1", "4242"):
        assert in_fresh_process(__name__, names, seed) == {name: GOLDEN[name] for name in names}


def test_the_same_view_gives_the_same_bytes() -> None:
    view = ENGINE.view(midgame(), None)
    assert render(view) == render(view)


def test_the_board_is_a_discord_sized_palette_png_under_300_kb() -> None:
    png = render(ENGINE.view(midgame(6, 2, 60), None))
    assert png.startswith(b"\x89PNG") and len(png) <= 300_000
    picture = Image.open(io.BytesIO(png))
    assert picture.mode == "P" and 500 <= picture.width <= 800


def test_every_board_is_mapped_onto_one_fixed_palette() -> None:
    first = Image.open(io.BytesIO(render(ENGINE.view(midgame(2, 1, 10), None))))
    second = Image.open(io.BytesIO(render(ENGINE.view(midgame(6, 4, 50), None))))
    assert first.getpalette() == second.getpalette()


def test_the_public_board_ignores_hands_so_every_seat_sees_the_same_image() -> None:
    state = midgame()
    twin = hidden_twin(state, None, random.Random(5))
    assert twin.hands != state.hands
    public = render(ENGINE.view(state, None))
    assert render(ENGINE.view(twin, None)) == public
    assert all(render(ENGINE.view(state, seat)) == public for seat in range(4))


def drawn(state: SequenceState) -> Image.Image:
    return image(render(ENGINE.view(state, None)))


def test_a_chip_adds_its_team_colour_to_the_board() -> None:
    """Where: the golden "a locked sequence" board."""
    state = locked_position()  # team 2 has one chip, on F6
    chips = list(state.chips)
    chips[55] = None
    without = replace(state, chips=tuple(chips))
    assert area(drawn(state), SEAT_COLOURS[1]) - area(drawn(without), SEAT_COLOURS[1]) > 500
    assert area(drawn(state), SEAT_COLOURS[0]) == area(drawn(without), SEAT_COLOURS[0])


def test_locked_chips_show_white_rims_and_bar_that_the_same_chips_unlocked_do_not() -> None:
    state = locked_position()
    unlocked = replace(state, sequences=((), ()))
    white = (250, 250, 250)
    assert area(drawn(state), white, 24) - area(drawn(unlocked), white, 24) > 1_500


def test_the_last_move_cell_is_outlined_in_the_highlight_colour() -> None:
    """Where: the golden boards after a move."""
    state = locked_position()
    state = replace(state, hands=((PLUS, *state.hands[0][1:]), *state.hands[1:]))
    after = ENGINE.apply(state, 0, {"type": "play", "card": 0, "row": 8, "col": 3})
    assert area(drawn(after), HIGHLIGHT) - area(drawn(state), HIGHLIGHT) > 500


def test_the_runs_a_mover_may_lock_are_drawn_in_their_own_colour_until_one_is_locked() -> None:
    """Where (A3–E3 above row 3, B3–F3 below it): the golden "a lock to choose" board."""
    assert area(drawn(six_in_a_row()), CHOICE, 40) > 1_000
    assert area(drawn(lock_a3_e3()), CHOICE, 40) == 0


def lock_a3_e3() -> SequenceState:
    return ENGINE.apply(six_in_a_row(), 0, {"type": "lock", "from": "A3", "to": "E3"})


# --- narration --------------------------------------------------------------------------


def test_the_first_board_says_who_was_drawn_to_start() -> None:
    seed = next(s for s in range(50) if first_seat(s, 4) == 2)
    view = ENGINE.view(ENGINE.new_game(4, seed), None)
    assert narrate(view, seat_label) == ["C was drawn to start."]
    other = next(s for s in range(50) if first_seat(s, 4) == 1)
    assert render(view) != render(ENGINE.view(ENGINE.new_game(4, other), None))


def test_a_lock_choice_is_narrated_with_the_runs_to_choose_from() -> None:
    view = ENGINE.view(six_in_a_row(), None)
    text = CARDS[card_for("C3")].text
    assert narrate(view, seat_label) == [
        f"A played {text} on C3.",
        "A made more than five in a row and chooses which five chips to lock: A3–E3 or B3–F3.",
    ]
    assert narrate(ENGINE.view(lock_a3_e3(), None), lambda seat: f"<{seat}>") == [
        f"<0> played {text} on C3 and chose to lock A3–E3.",
        "Team 1 completed a sequence (1/2): A3–E3.",
    ]


def test_a_chip_that_completes_sequences_is_narrated_with_them() -> None:
    state = make(
        2, chips=dict.fromkeys(["A5", "B5", "C5", "D5"], 1), hands=[[MINUS], [card_for("E5")]], turn=1
    )
    view = ENGINE.view(play(state, 1, card_for("E5"), "E5"), None)
    assert narrate(view, seat_label)[1] == "B completed a sequence (1/1): A5–E5."


def test_trades_removals_skips_and_resignations_are_narrated() -> None:
    state = make(3, chips={"C3": 2}, hands=[[MINUS], [MINUS + 1], [card_for("E5")]])
    view = ENGINE.view(play(state, 0, MINUS, "C3"), None)
    assert narrate(view, seat_label) == [
        "A removed a chip from C3 with a minus card.",
        "B could not play a card and was skipped.",
    ]
    dead = card_for("E5")
    chips = {f"{'ABCDEFGHIJ'[x % 10]}{x // 10 + 1}": 1 for x in CELLS_OF[CARDS[dead].answer]}
    traded = ENGINE.apply(make(chips=chips, hands=[[dead, PLUS], [MINUS]]), 0, {"type": "trade", "card": 0})
    assert narrate(ENGINE.view(traded, None), seat_label) == [f"A traded a dead card ({CARDS[dead].text})."]
    resigned = ENGINE.resign(ENGINE.new_game(4, seed=2), 3)
    assert narrate(ENGINE.view(resigned, None), seat_label) == ["D resigned."]


# --- the hand ---------------------------------------------------------------------------


def test_the_hand_shows_one_numbered_card_per_card_held_and_marks_dead_ones() -> None:
    """Which card is marked: the golden hands."""
    state = hand_with_a_dead_card()
    view = ENGINE.view(state, 0)
    assert view["dead_cards"] == [0]
    png = render_hand(view)
    assert png == render_hand(view)
    picture = image(png)
    assert area(picture, DEAD) > 1_000
    assert area(image(render_hand(ENGINE.view(midgame(), 2))), DEAD) == 0
    fewer = replace(state, hands=(state.hands[0][:2], state.hands[1]))
    assert image(render_hand(ENGINE.view(fewer, 0))).width < picture.width
    assert render_hand(ENGINE.view(state, None))  # a spectator gets an empty hand image
