"""My First Triominos pictures: deterministic, small, public-only; one wording of events."""

from __future__ import annotations

import hashlib
import io
import random
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from games.triominos import ENGINE, JOKER, TriominosState
from render.common import seat_label
from render.triominos import narrate, render, render_hand
from tests.games.test_triominos import hidden_twin
from tests.render.golden import pixels

PNG = b"\x89PNG\r\n\x1a\n"
ROOT = Path(__file__).resolve().parents[2]


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


def in_a_fresh_process(code: str) -> list[str]:
    """The lines `code` prints when run in a new Python process, where nothing is cached
    yet (this module is imported as `t`)."""
    script = f"import tests.render.test_triominos as t\n{code}"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT, timeout=300
    )
    return done.stdout.split()


def sha(png: bytes) -> str:
    return hashlib.sha256(png).hexdigest()


def with_joker_on_the_table() -> TriominosState:
    return next(s for s in game(7, 4) if any(p[0] == JOKER for p in s.table))


def mid_game(seat: int | None = None) -> dict:
    return ENGINE.view(played(3, 3, 12), seat)


# Seeded pictures and the pixels they had before the renderer became a package: start,
# mid-game, end; each language; a seat's own board and hand against a spectator's.
GOLDEN: dict[str, tuple[Callable[[], bytes], tuple[int, int], str]] = {
    "start, 2 seats": (
        lambda: render(ENGINE.view(played(2, 2, 0), None)),
        (680, 408),
        "29df37d9c58a58b9201bce4decde82525ccdf97be8cd4676e0e3a173be855d97",
    ),
    "mid-game, 3 seats": (
        lambda: render(mid_game()),
        (680, 852),
        "e6f57b2870ade2cec2824e8f80f2b687dc50458eee372aa4a0ed5d5fc3322a54",
    ),
    "mid-game, seat A's own board": (
        lambda: render(mid_game(0), viewer=0),
        (680, 852),
        "0e9753fc2b05e9d89a7e048c50f5d15e93395cb239a7b09af3f552ece9a5d34f",
    ),
    "mid-game, German": (
        lambda: render(mid_game(), lang="de"),
        (680, 852),
        "fb72dba737c70a91201d7134a7fc936cc7fb1fbb639145d4112794140005008c",
    ),
    "mid-game, French": (
        lambda: render(mid_game(), lang="fr"),
        (680, 852),
        "f6f119e2a4ca320ad5f404815ab593cdca06ff656384e63be472e10c42ad9d6e",
    ),
    "the joker on the table, 4 seats": (
        lambda: render(ENGINE.view(with_joker_on_the_table(), None)),
        (680, 741),
        "24b1310eb7d54fd417d29b07e4dc298688327a5a4a1a68abc1d34bb81a88366f",
    ),
    "end, 4 seats, a large table": (
        lambda: render(large_table()),
        (680, 744),
        "5e5eda78065d4e4928653c78fccf48a4ca1b3fe51f29c537c02c4d385874c4c9",
    ),
    "end, 2 seats, German": (
        lambda: render(ENGINE.view(played(1, 2, 500), None), lang="de"),
        (680, 807),
        "b03712ac7811357e177e718e6dd035c2afd0c884bfeb924c590405b1e77461fb",
    ),
    "seat A's hand": (
        lambda: render_hand(ENGINE.view(played(4, 2, 6), 0)),
        (632, 446),
        "31bb0baee44d35d12185605a4e9f95684c312c2ff831f15956711721d6b63f75",
    ),
    "seat A's hand, French": (
        lambda: render_hand(ENGINE.view(played(4, 2, 6), 0), lang="fr"),
        (632, 446),
        "10343426dafc57be407265372b6adb93805678dde0b329bf4da02553adc8ebcc",
    ),
    "seat B's hand, German": (
        lambda: render_hand(ENGINE.view(played(4, 2, 6), 1), lang="de"),
        (484, 261),
        "543a72655dbfd0b431ec513829fa0fbdc77a6224e3a67946b49b45e840b984f9",
    ),
    "a spectator's empty rack": (
        lambda: render_hand(ENGINE.view(played(6, 3, 4, open_hands=True), None)),
        (420, 261),
        "05643c68efef93603f384eb0060be34f4bcd17ad6d8e3b8f82faf05965e954ca",
    ),
    "open hands, seat C's hand": (
        lambda: render_hand(ENGINE.view(played(6, 3, 4, open_hands=True), None), seat=2),
        (632, 446),
        "a739c82ce5ffb229b3dececdb2e57fb4b0b8bcf4f005d5e89081d85b0ebcfc99",
    ),
}


@pytest.mark.parametrize("name", GOLDEN)
def test_each_seeded_picture_keeps_its_pixels(name):
    make, size, digest = GOLDEN[name]
    assert pixels(make()) == (size, digest)


def test_the_same_view_gives_the_same_bytes_in_a_fresh_process_and_after_other_boards():
    render(large_table())
    render(ENGINE.view(played(3, 3, 12), 0), viewer=0, lang="fr")
    here = sha(render(ENGINE.view(played(3, 3, 12), None)))
    assert in_a_fresh_process("print(t.sha(t.render(t.ENGINE.view(t.played(3, 3, 12), None))))") == [here]


def test_pictures_drawn_while_other_threads_prepare_the_renderer_keep_their_pixels():
    code = (
        "from concurrent.futures import ThreadPoolExecutor\n"
        "from render.triominos import prepare\n"
        "with ThreadPoolExecutor(4) as pool:\n"
        "    preparing = [pool.submit(prepare) for _ in range(3)]\n"
        "    drawn = list(pool.map(lambda make: t.pixels(make())[1], [m for m, _, _ in t.GOLDEN.values()]))\n"
        "prepare()\n"
        "print(*drawn, *(t.pixels(make())[1] for make, _, _ in t.GOLDEN.values()))"
    )
    golden = [digest for _, _, digest in GOLDEN.values()]
    assert in_a_fresh_process(code) == golden + golden


GAMES = [(1, 2), (4, 3), (7, 4)]  # (seed, players): each game has a joker taken back


def test_boards_drawn_in_the_order_of_play_equal_those_drawn_backwards_from_the_end():
    """In order, each board is made from the one before; backwards, the table shrinks, so
    each is drawn another way (whole, or from a later board): the bytes are the same."""
    games = [game(seed, players) for seed, players in GAMES]
    for states in games:
        assert any(state.last_move and state.last_move[1] == "take_joker" for state in states)
    forwards = [sha(render(ENGINE.view(state, None))) for states in games for state in states]
    code = (
        "for seed, players in t.GAMES:\n"
        "    states = t.game(seed, players)\n"
        "    print(*reversed([t.sha(t.render(t.ENGINE.view(s, None))) for s in reversed(states)]))"
    )
    assert in_a_fresh_process(code) == forwards


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
    assert size_of(render(long))[0] == short[0] and size_of(render(long))[1] > short[1]


def test_a_joker_on_the_table_is_drawn():
    state = next(s for s in game(7, 4) if any(p[0] == JOKER for p in s.table))
    assert render(ENGINE.view(state, None)).startswith(PNG)
