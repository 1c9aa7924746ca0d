"""Tetris Link board image and narration: deterministic, small, showing the ghost, the
last move and what just happened in the same words as the Discord message."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from games.base import first_seat
from games.tetris_link import ENGINE, NO_FIT, NO_PIECE_LEFT, NO_SHAPE_LEFT, drop
from render.common import BACKGROUND, PANEL, seat_label
from render.tetris_link import narrate, render
from tests.render.golden import Golden, in_fresh_process
from tests.render.golden import pixels as pixels_of


def place(state, seat: int, shape: str, column: int, rotation: int = 0):
    state = replace(state, to_move=seat, die=None)
    move = {"type": "place", "shape": shape, "rotation": rotation, "flip": False, "column": column}
    return ENGINE.apply(state, seat, move)


def mid_game_view() -> dict:
    state = ENGINE.new_game(3, seed=4, options={"dice": False})
    for seat, shape, column in [(0, "I", 0), (1, "O", 4), (2, "T", 6), (0, "L", 0)]:
        state = place(state, seat, shape, column)
    return ENGINE.view(state, None)


def pixels(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def test_the_same_view_renders_the_same_bytes():
    view = mid_game_view()
    assert render(view) == render(view)


def test_the_image_fits_discord_and_the_size_budget():
    for players in (2, 3, 4):
        png = render(ENGINE.view(ENGINE.new_game(players, seed=players), None))
        image = pixels(png)
        assert len(png) <= 300_000
        assert 600 <= image.width <= 900 and image.height <= 900


def changed(before: dict, after: dict, **options) -> tuple[int, int, int, int] | None:
    """The box of the pixels that differ between the boards of two views (None: none do)."""
    return ImageChops.difference(pixels(render(before)), pixels(render(after, **options))).getbbox()


def inside(box: tuple[int, int, int, int] | None, outer: tuple[int, int, int, int] | None) -> bool:
    assert box is not None and outer is not None
    return outer[0] <= box[0] and outer[1] <= box[1] and box[2] <= outer[2] and box[3] <= outer[3]


def with_cells(view: dict, cells, entry: list[int] | None) -> dict:
    """`view` with `entry` ([seat, piece id], or None: empty) on `cells`."""
    rows = [list(row) for row in view["cells"]]
    for row, column in cells:
        rows[row][column] = entry
    return dict(view, cells=rows)


def test_the_last_move_is_outlined_and_no_other_piece():
    view = mid_game_view()
    plain = dict(view, last_move=None)
    outline = changed(plain, view)
    piece = changed(with_cells(plain, view["last_move"]["cells"], None), plain)
    assert outline is not None and inside(outline, piece)  # on the last piece, not on any other


def test_the_ghost_is_drawn_where_the_piece_would_land_and_nowhere_else():
    view = mid_game_view()
    cells = drop(view["cells"], "O", 0, False, 8)
    ghost = {"seat": 1, "cells": [list(cell) for cell in cells]}
    placed = changed(view, with_cells(view, cells, [1, 99]))
    assert inside(changed(view, view, ghost=ghost), placed)
    assert changed(view, view, ghost=ghost) == placed  # over every cell it would land on


def test_a_ghost_looks_different_from_a_placed_piece_of_the_same_seat():
    view = mid_game_view()
    cells = drop(view["cells"], "O", 0, False, 8)
    ghost = {"seat": 1, "cells": [list(cell) for cell in cells]}
    placed = with_cells(view, cells, [1, 99])
    box = changed(view, placed)
    assert pixels(render(view, ghost=ghost)).crop(box).tobytes() != pixels(render(placed)).crop(box).tobytes()


def test_the_viewer_and_the_end_of_the_game_render():
    state = ENGINE.new_game(2, seed=3)
    state = ENGINE.resign(state, 1)
    view = ENGINE.view(state, 0)
    assert view["winners"] == [0]
    assert render(view, viewer=0) != render(view)


def narration_box(view: dict) -> tuple[int, int, int, int] | None:
    """Where the board writes the narration: what differs from the same board told nothing."""
    return changed(dict(view, last_event=None, events=[]), view)


def test_the_board_writes_the_narration_under_the_players_on_empty_ground():
    view = mid_game_view()
    other = dict(view, last_event={"type": "resign", "seat": 1}, events=[])
    assert render(view) != render(other)
    box = narration_box(view)
    silent = pixels(render(dict(view, last_event=None, events=[])))
    assert box is not None
    area = silent.crop(box)
    assert area.getcolors() == [(area.width * area.height, BACKGROUND)]  # it covers nothing
    rows = [silent.crop((0, y, silent.width, y + 1)).getcolors(silent.width) for y in range(silent.height)]
    panels = [y for y, colours in enumerate(rows) if any(colour == PANEL for _, colour in colours)]
    assert box[1] > max(panels)  # below the players' panels


def test_a_long_narration_is_cut_to_the_room_under_the_players():
    view = ENGINE.view(ENGINE.new_game(4, seed=1), None)
    rolls = [[seat % 4, "T"] for seat in range(80)] + [[0, "any"]]
    long = dict(view, last_event={"type": "start", "seat": 0, "rolls": rolls})
    box, height = narration_box(long), pixels(render(long)).height
    assert box is not None and box[3] < height - 4  # written to near the bottom, not off it
    assert height - box[3] < 30


# Discord shows an embed's image in a box at most 400 px wide and about 300 tall (SimCord's
# preview: 280), shrunk to fit: what is legible there is what the players can read.
SHOWN_IN = (400, 280)


def test_the_board_is_shown_as_large_as_discord_allows_and_its_words_read_there():
    view = ENGINE.view(ENGINE.new_game(4, seed=6, options={"dice": False}), None)
    assert letters(view)[0].endswith(" was drawn to start.")  # capitals high, nothing below the line
    image = pixels(render(view))
    scale = min(SHOWN_IN[0] / image.width, SHOWN_IN[1] / image.height)
    box = narration_box(view)

    assert image.width * scale >= SHOWN_IN[0] - 4  # the box's width is used as well as its height
    assert box is not None and (box[3] - box[1]) * scale >= 7.5  # capitals 7.5 px high, like 11 px text


def finished_view(seat: int | None) -> dict:
    """A game played to its end (seeded), as `seat` sees it."""
    state = ENGINE.new_game(2, seed=5)
    while ENGINE.current_seats(state):
        turn = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, turn, ENGINE.timeout_move(state, turn))
    return ENGINE.view(state, seat)


GHOST = {"seat": 1, "cells": [[0, 8], [0, 9], [1, 8], [1, 9]]}
# Boards of today's renderer, pixel for pixel: the start with and without dice, a game under
# way with and without a ghost, a resignation and the end, for a player and a spectator, in
# each language.
GOLDEN_BOARDS: dict[str, tuple[Callable[[], bytes], Golden]] = {
    "start, dice, 4 seats": (
        lambda: render(ENGINE.view(ENGINE.new_game(4, seed=1), None)),
        ((748, 524), "55c977ef703b941201772be92b80af48abdfe97066f70c486d149ae0cb933655"),
    ),
    "start, no dice, 2 seats, de": (
        lambda: render(ENGINE.view(ENGINE.new_game(2, seed=6, options={"dice": False}), None), lang="de"),
        ((748, 524), "500da69e1afacdd14cc2b1be583b1d46ca9b51b96293309553bd79757914df54"),
    ),
    "mid-game": (
        lambda: render(mid_game_view()),
        ((748, 524), "b6bb80f3bc4908bfb881a44365f90058856b46920ed26c6e44d1730d95530620"),
    ),
    "mid-game, a player's view, fr": (
        lambda: render(mid_game_view(), viewer=2, lang="fr"),
        ((748, 524), "be2cbcb6e06586ddfebd159d28f97814214acbbd2807d01e494c6f9749da87f8"),
    ),
    "mid-game with a ghost": (
        lambda: render(mid_game_view(), ghost=GHOST),
        ((748, 524), "0fc643c4739b274ba0667826783071f07d968fe1d4500fa932e4f973795191da"),
    ),
    "mid-game with a ghost, de": (
        lambda: render(mid_game_view(), ghost=GHOST, lang="de"),
        ((748, 524), "6601c4594128a8cebbe16c54255525be57d4c971e0bb782dc7121bb80cba006e"),
    ),
    "resigned, fr": (
        lambda: render(ENGINE.view(ENGINE.resign(ENGINE.new_game(3, seed=2), 1), None), lang="fr"),
        ((748, 524), "9e0b1bd29b8d27c82fb56b329530be8fb01b27aada5ef5abcd7744fcbd636178"),
    ),
    "end, a player's view": (
        lambda: render(finished_view(0), viewer=0),
        ((748, 524), "20946fe197139eba2d88950374fb7da5b7e57b2e232cfbfeea5ba3356180c1e7"),
    ),
    "end, spectator, de": (
        lambda: render(finished_view(None), lang="de"),
        ((748, 524), "78cd6984f6dfc1719df04cee064ea726e63932ddfae680b5ef3328171096c629"),
    ),
    "end, spectator, fr": (
        lambda: render(finished_view(None), lang="fr"),
        ((748, 524), "3c696496bc903fbbdc6bf5f92637e41e623dcc346efdfbe39806481e96e84a31"),
    ),
}


def golden(name: str) -> Golden:
    return pixels_of(GOLDEN_BOARDS[name][0]())


@pytest.mark.parametrize("board", GOLDEN_BOARDS)
def test_boards_look_exactly_as_recorded(board):
    assert golden(board) == GOLDEN_BOARDS[board][1]


def test_boards_look_the_same_in_another_process_with_another_hash_seed():
    names = ("mid-game with a ghost, de", "end, spectator, fr")
    assert in_fresh_process(__name__, list(names), "4242") == {name: GOLDEN_BOARDS[name][1] for name in names}


# ---------------------------------------------------------------- narration


def letters(view: dict) -> list[str]:
    return narrate(view, seat_label)


def test_the_first_board_says_who_was_drawn_to_roll_first_the_rolls_and_who_starts():
    seed = next(
        s for s in range(100) if len(ENGINE.view(ENGINE.new_game(3, s), None)["last_event"]["rolls"]) > 2
    )
    view = ENGINE.view(ENGINE.new_game(3, seed), None)
    rolls = view["last_event"]["rolls"]
    drawn, starter = "ABC"[first_seat(seed, 3)], "ABC"[view["to_move"][0]]
    names = {"I": "I", "O": "O", "T": "T", "S": "S/Z", "L": "L/J", "any": "logo"}
    faces = ", ".join(f"{'ABC'[seat]} {names[face]}" for seat, face in rolls)
    assert letters(view) == [
        f"{drawn} was drawn to roll first.",
        f"Starting rolls: {faces}.",
        f"{starter} rolled the logo and starts.",
    ]


def test_without_dice_the_first_board_says_who_was_drawn_to_start():
    view = ENGINE.view(ENGINE.new_game(4, seed=6, options={"dice": False}), None)
    assert letters(view) == [f"{'ABCD'[first_seat(6, 4)]} was drawn to start."]


def placed(shape: str, cells: list, gained: int = 0, penalty: int = 0, group: int = 1) -> dict:
    event = {"type": "place", "seat": 1, "shape": shape, "cells": cells}
    return {"last_event": {**event, "gained": gained, "gap_penalty": penalty, "group": group}, "events": []}


def test_a_placement_is_told_with_its_columns_from_one_and_what_it_scored():
    assert letters(placed("O", [[0, 0], [0, 1], [1, 0], [1, 1]])) == ["B placed an O in columns 1 and 2."]
    assert letters(placed("I", [[0, 9], [1, 9], [2, 9], [3, 9]], 3, 1, 3)) == [
        "B placed an I in column 10: +3 for a group of 3, -1 for an empty cell under it."
    ]
    assert letters(placed("T", [[2, 3], [2, 4], [2, 5], [3, 4]], 0, 2)) == [
        "B placed a T in columns 4–6: -2 for empty cells under it."
    ]


def test_a_placed_s_or_l_is_named_as_the_figure_it_makes():
    assert letters(placed("S", [[0, 0], [0, 1], [1, 1], [1, 2]]))[0].startswith("B placed an S ")
    assert letters(placed("S", [[0, 1], [0, 2], [1, 0], [1, 1]]))[0].startswith("B placed a Z ")
    assert letters(placed("L", [[0, 0], [0, 1], [1, 0], [2, 0]]))[0].startswith("B placed an L ")
    assert letters(placed("L", [[0, 0], [0, 1], [1, 1], [2, 1]]))[0].startswith("B placed a J ")


def test_skipped_turns_and_the_end_follow_the_decision():
    view = {
        "last_event": {"type": "resign", "seat": 0},
        "events": [
            {"type": "skip", "seat": 1, "die": "T", "reason": NO_SHAPE_LEFT},
            {"type": "skip", "seat": 2, "die": "any", "reason": NO_FIT},
            {"type": "skip", "seat": 3, "die": None, "reason": NO_FIT},
            {"type": "skip", "seat": 1, "die": "I", "reason": NO_PIECE_LEFT},
            {"type": "end", "seat": None, "reason": "tower full"},
        ],
    }
    assert letters(view) == [
        "A resigned.",
        "B rolled T but has no T piece left: turn skipped.",
        "C rolled the logo but no piece fits anywhere: turn skipped.",
        "D has no piece that fits: turn skipped.",
        "B has no pieces left: turn skipped.",
        "The game ends: the tower is full.",
    ]


def test_the_narration_names_seats_the_way_it_is_told():
    view = placed("O", [[0, 0], [0, 1], [1, 0], [1, 1]])
    assert narrate(view, lambda seat: f"<@{100 + seat}>") == ["<@101> placed an O in columns 1 and 2."]
