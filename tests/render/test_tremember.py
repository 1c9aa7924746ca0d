"""Tremember renderer: deterministic, small, shows what it must and nothing secret."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from games.tremember import CELLS, ENGINE, MOTIFS, TrememberState
from render.common import BACKGROUND, HIGHLIGHT, SEAT_COLOURS, seat_label
from render.tremember import (
    card_face,
    motif_name,
    narrate,
    render,
    render_card,
)
from tests.games.test_tremember import hidden_twin, random_state
from tests.render.golden import Golden, in_fresh_process
from tests.render.golden import pixels as pixels_of

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def ordered_game(players: int = 2) -> TrememberState:
    """Card k at cell k (so pairs lie side by side), seat 0 to move."""
    state = ENGINE.new_game(players, seed=3)
    return replace(state, grid=tuple(range(CELLS)), turn=0, last_event=("start", 0))


def play(state: TrememberState, *moves: tuple[str, object]) -> TrememberState:
    for kind, arg in moves:
        move = {"type": kind, "from": arg} if kind == "push" else {"type": kind, "cell": arg}
        state = ENGINE.apply(state, ENGINE.current_seats(state)[0], move)
    return state


MISS = (  # sun at A1, moon at C1
    ("take", [5, 5]),
    ("push", "left"),
    ("flip", [0, 0]),
    ("flip", [0, 2]),
)


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def highlighted_changes(before: dict, after: dict) -> tuple[int, int, int, int] | None:
    """The box of the pixels in the highlight colour that the board of `after` has and the
    board of `before` has not (None: there are none)."""
    return coloured_changes(before, after, HIGHLIGHT).getbbox()


def coloured_changes(before: dict, after: dict, colour: tuple[int, int, int]) -> Image.Image:
    """A mask of the pixels near `colour` on the board of `after` that differ from `before`'s."""
    old, new = pixels(render(before)), pixels(render(after))
    mask = ImageChops.difference(old, new).convert("L").point(lambda v: 255 if v else 0)
    for band, target in zip(new.split(), colour, strict=True):
        mask = ImageChops.multiply(mask, band.point(lambda v, t=target: 255 if abs(v - t) <= 40 else 0))
    return mask


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


def test_push_arrows_are_drawn_only_at_the_legal_ends():
    """A hole at a corner can be closed from two ends: arrows there, none at the other two."""
    start = ENGINE.view(ordered_game(), None)
    corners = {
        corner: highlighted_changes(start, ENGINE.view(play(ordered_game(), ("take", cell)), None))
        for corner, cell in {"A1": [0, 0], "F1": [0, 5], "A6": [5, 0]}.items()
    }
    (a1_left, a1_top, a1_right, a1_bottom) = corners["A1"]  # arrows at the right and the bottom
    assert corners["F1"][0] < a1_left  # F1 has an arrow at the left end, A1 none
    assert corners["A6"][1] < a1_top  # A6 has an arrow at the top end, A1 none
    assert corners["F1"][2] < a1_right  # A1 has an arrow at the right end, F1 none
    assert corners["A6"][3] < a1_bottom  # A1 has an arrow at the bottom end, A6 none


def test_a_miss_shows_both_faces_until_the_next_move_only():
    missed = ENGINE.view(play(ordered_game(), *MISS), None)
    assert [flip["motif"] for flip in missed["last_flip"]] == ["sun", "moon"]
    assert render(missed) != render({**missed, "last_flip": None})
    later = ENGINE.view(play(ordered_game(), *MISS, ("take", [3, 3])), None)
    assert later["board"][0][0] is None and later["board"][0][2] is None
    assert render(later) == render({**later, "last_flip": missed["last_flip"]})


def test_a_found_pair_is_framed_in_the_finders_colour():
    state = play(
        ordered_game(),
        ("take", [5, 5]),
        ("push", "left"),
        ("flip", [0, 0]),
        ("flip", [0, 1]),
        ("take", [3, 3]),
    )
    view = ENGINE.view(state, None)
    assert view["found"][0][:2] == [0, 0]
    unmarked = {**view, "found": [[None] * 6 for _ in range(6)]}
    for seat in (0, 1):
        found = [[seat if finder is not None else None for finder in row] for row in view["found"]]
        marked = {**view, "found": found}
        marks = ImageChops.difference(pixels(render(unmarked)), pixels(render(marked))).getbbox()
        coloured = coloured_changes(unmarked, marked, SEAT_COLOURS[seat]).getbbox()
        assert marks is not None and coloured is not None
        assert all(abs(a - b) <= 2 for a, b in zip(coloured, marks, strict=True))  # round the cards
        assert coloured_changes(unmarked, marked, SEAT_COLOURS[1 - seat]).getbbox() is None


def test_the_peek_never_changes_the_board_image():
    state = play(ordered_game(), ("take", [1, 1]))
    taker, spectator = ENGINE.view(state, 0), ENGINE.view(state, None)
    assert taker["peek"] is not None
    assert render(taker) == render({**taker, "peek": None}) == render(spectator)


@pytest.mark.parametrize("seed", range(8))
def test_deals_that_differ_only_in_face_down_cards_give_identical_images(seed):
    state = random_state(seed, 40 + 37 * seed)
    other = hidden_twin(state, None, random.Random(seed))
    assert other != state
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


def test_every_board_is_on_the_one_fixed_palette():
    palettes = {
        bytes(Image.open(io.BytesIO(render(ENGINE.view(random_state(seed, 60 * seed), None)))).getpalette())
        for seed in range(4)
    }
    assert len(palettes) == 1


def test_the_first_board_says_who_was_drawn_to_start():
    for seed in range(6):
        state = ENGINE.new_game(3, seed)
        view = ENGINE.view(state, None)
        assert narrate(view, seat_label)[0] == f"{seat_label(state.turn)} was drawn to start."
    views = [ENGINE.view(ENGINE.new_game(2, seed), None) for seed in range(12)]
    starters = {view["last_event"]["seat"]: render(view) for view in views}
    assert len(starters) == 2 and len(set(starters.values())) == 2  # a different first board


@pytest.mark.parametrize(
    ("moves", "said"),
    [
        ([("take", [2, 2])], ["A took the card at C3: only they saw it."]),
        (
            [("take", [2, 2]), ("push", "top")],
            ["A pushed column C down: the taken card lies face down at C1."],
        ),
        ([("take", [5, 5]), ("push", "left"), ("flip", [0, 0])], ["A turned a sun at A1."]),
        ([("take", [5, 5]), ("push", "left"), ("flip", [4, 0])], ["A turned an arrow at A5."]),
        (
            [("take", [5, 5]), ("push", "left"), ("flip", [0, 0]), ("flip", [0, 2])],
            ["A turned a sun at A1 and a moon at C1: no pair, both turn face down again."],
        ),
        (
            [("take", [5, 5]), ("push", "left"), ("flip", [0, 0]), ("flip", [0, 1])],
            ["A found a sun pair at A1 + B1: +3 (side by side).", "A plays again."],
        ),
    ],
)
def test_each_event_is_narrated_in_one_wording_with_board_coordinates(moves, said):
    view = ENGINE.view(play(ordered_game(), *moves), None)
    assert narrate(view, seat_label) == said
    assert narrate(view, lambda seat: f"<@{seat}>")[0].startswith("<@0> ")


def test_a_joker_pair_is_narrated_with_the_turn_of_the_board():
    joker = 2 * MOTIFS.index("joker2")
    grid = list(range(CELLS))
    grid[0], grid[joker], grid[7], grid[joker + 1] = joker, 0, joker + 1, 7  # A1 and B2
    state = replace(ordered_game(), grid=tuple(grid))
    state = play(state, ("take", [5, 5]), ("push", "left"), ("flip", [0, 0]), ("flip", [1, 1]))
    assert narrate(ENGINE.view(state, None), seat_label) == [
        "A found a joker pair at A1 + B2: +2 (touching at a corner).",
        "The whole board turned 90° clockwise: the pair lies at F1 + E2 now.",
        "A plays again.",
    ]


def test_a_resignation_and_the_last_pair_are_narrated():
    state = ENGINE.resign(ordered_game(3), 1)
    assert narrate(ENGINE.view(state, None), seat_label) == ["B left the game; their points stay."]
    last = ENGINE.view(random_state(4, 10_000), None)
    assert last["winners"] is not None and not narrate(last, seat_label)[-1].endswith("plays again.")


MOTIF_WORDS = re.compile(r"\b(" + "|".join(sorted({motif_name(m) for m in MOTIFS})) + r")\b")


@pytest.mark.parametrize("seed", range(6))
def test_the_narration_names_only_cards_the_board_shows(seed):
    state = ENGINE.new_game(2 + seed % 4, seed)
    rng = random.Random(seed)
    while ENGINE.current_seats(state):
        view = ENGINE.view(state, None)
        shown = {motif_name(m) for row in view["board"] for m in row if m}
        shown |= {motif_name(flip["motif"]) for flip in view["last_flip"] or []}
        assert set(MOTIF_WORDS.findall(" ".join(narrate(view, seat_label)))) <= shown
        seat = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))


def joker_pair_game() -> TrememberState:
    """A joker pair found at A1 + A2: the board turned under it."""
    joker = 2 * MOTIFS.index("joker1")
    grid = list(range(CELLS))
    grid[0], grid[joker], grid[6], grid[joker + 1] = joker, 0, joker + 1, 6
    state = replace(ordered_game(), grid=tuple(grid))
    return play(state, ("take", [5, 5]), ("push", "left"), ("flip", [0, 0]), ("flip", [1, 0]))


# Boards of today's renderer, pixel for pixel: the start, each step of a turn, a joker
# pair, a long game, the end for a player and for a spectator, in each language.
GOLDEN_BOARDS: dict[str, tuple[Callable[[], bytes], Golden]] = {
    "start, 4 seats": (
        lambda: render(ENGINE.view(ENGINE.new_game(4, seed=1), None)),
        ((660, 788), "931c6a3ca4aa7d6d65233a3d4d32748ca95fcc0ea327d08f2e53c8d2d8af90ff"),
    ),
    "taken, the taker's view": (
        lambda: render(ENGINE.view(play(ordered_game(), ("take", [2, 2])), 0), viewer=0),
        ((660, 788), "1cf73eb960c26138bd77f213d32c42a8267e2e4a705d441f3cdfa8e12c2c57f9"),
    ),
    "taken at a corner, spectator": (
        lambda: render(ENGINE.view(play(ordered_game(), ("take", [0, 0])), None)),
        ((660, 788), "eeb4855a0ab4ce1741716f319d332d7709c0f4122011f20335d984c93b5e0220"),
    ),
    "first flip, de": (
        lambda: render(ENGINE.view(play(ordered_game(), *MISS[:3]), None), lang="de"),
        ((660, 788), "e846655e062cd5d33748283d1b02791407a5bdc71b6f989bad56a3fe2d1536ae"),
    ),
    "miss, en": (
        lambda: render(ENGINE.view(play(ordered_game(), *MISS), None)),
        ((660, 788), "458b35b83c451ccb5850e15ea84748c404d26dca6b9140432a63a908158b2d5f"),
    ),
    "miss, de": (
        lambda: render(ENGINE.view(play(ordered_game(), *MISS), None), lang="de"),
        ((660, 788), "b456646c056fd7eca0f94a5a7a7b8ae9344b526fba59a6e413675aa30f92b162"),
    ),
    "miss, fr": (
        lambda: render(ENGINE.view(play(ordered_game(), *MISS), None), lang="fr"),
        ((660, 788), "cfb1f69727a5e53b38362462e3157f19e886aa5a0d8c96754488a860ff47acd8"),
    ),
    "miss, then the next take": (
        lambda: render(ENGINE.view(play(ordered_game(), *MISS, ("take", [3, 3])), None)),
        ((660, 788), "cbb099b2745471d95fd78c55f5b60afb668cd212c5414aec60d4ffe0e856a024"),
    ),
    "a found pair, then the next take": (
        lambda: render(
            ENGINE.view(play(ordered_game(), *MISS[:3], ("flip", [0, 1]), ("take", [3, 3])), None)
        ),
        ((660, 788), "5c46979ce3d55e4864c439805c33c92e0e44cef558ea6dfe0a18bdfd76610854"),
    ),
    "joker pair, fr": (
        lambda: render(ENGINE.view(joker_pair_game(), None), lang="fr"),
        ((660, 788), "62bfe42a89add4117ed4b7c682fe022ed5bde79bcb793c87dd2bad300a7fe0b3"),
    ),
    "mid-game, 3 seats": (
        lambda: render(ENGINE.view(random_state(11, 300), None)),
        ((660, 788), "f173e78842cd113dbec1034993c90132159add963477eeee43ebac835c45df11"),
    ),
    "resigned seat, de": (
        lambda: render(ENGINE.view(ENGINE.resign(ordered_game(3), 1), 2), viewer=2, lang="de"),
        ((660, 788), "3981a3596cc4c9fffcdd3817ab5570103cfe52fa8cf2d5a953a733a65d12d077"),
    ),
    "end, a player's view": (
        lambda: render(ENGINE.view(random_state(4, 10_000), 1), viewer=1),
        ((660, 788), "4b87ff46bea240eb1352f07664707410ce74865b3650080db9f7a0f38f1a33e0"),
    ),
    "end, spectator, fr": (
        lambda: render(ENGINE.view(random_state(4, 10_000), None), lang="fr"),
        ((660, 788), "d083a2a388477f84444063daefd5574b55769a7cd29d821f955e1e240ae53692"),
    ),
    "peeked card": (
        lambda: render_card("crown"),
        ((280, 340), "6164444f5c5610b68073cc1a3483a42dbc590a93afebd65c708c33a00e17b822"),
    ),
    "peeked joker, de": (
        lambda: render_card("joker2", "de"),
        ((280, 340), "3a24f56591be9a3ac8d71221ad5441d1b005502a22d1ea308ff2ae8731f15126"),
    ),
    "peeked card, fr": (
        lambda: render_card("leaf", "fr"),
        ((280, 340), "4b219fc5c98e5bd8f10f56e8aab86b28a79fe34c6bb79392d8f41a403e63d19a"),
    ),
}


def golden(name: str) -> Golden:
    return pixels_of(GOLDEN_BOARDS[name][0]())


@pytest.mark.parametrize("board", GOLDEN_BOARDS)
def test_boards_look_exactly_as_recorded(board):
    assert golden(board) == GOLDEN_BOARDS[board][1]


def test_boards_look_the_same_in_another_process_with_another_hash_seed():
    names = ("miss, de", "end, spectator, fr", "peeked joker, de")
    assert in_fresh_process(__name__, list(names), "4242") == {name: GOLDEN_BOARDS[name][1] for name in names}
