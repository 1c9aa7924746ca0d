"""Tetris Link engine: every rule on a constructed position, then random playouts.

Each example of `rules/tetris_link.md` is a test named `test_rules_example_...`.
"""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameError, IllegalMove, NotYourTurn, chance, first_seat
from games.tetris_link import (
    ANY,
    COLUMNS,
    DIE_FACES,
    ENGINE,
    NO_FIT,
    NO_SHAPE_LEFT,
    ROWS,
    SHAPES,
    TetrisLinkState,
    column_heights,
    drop,
    orientations,
    piece_cells,
)

# ---------------------------------------------------------------- helpers


def free_game(players: int = 2) -> TetrisLinkState:
    """A no-dice game: any shape may be placed, so positions are easy to build."""
    return ENGINE.new_game(players, seed=1, options={"dice": False})


def put(
    state: TetrisLinkState,
    seat: int,
    shape: str,
    column: int,
    rotation: int = 0,
    flip: bool = False,
) -> TetrisLinkState:
    """Let `seat` place a piece, whoever's turn it is (to build positions)."""
    state = replace(state, to_move=seat, die=ANY if state.dice else None)
    move = {"type": "place", "shape": shape, "rotation": rotation, "flip": flip, "column": column}
    return ENGINE.apply(state, seat, move)


def gained_and_penalty(state: TetrisLinkState) -> tuple[int, int]:
    """What the last placement gained and lost, as the view announces it."""
    last = ENGINE.view(state, None)["last_event"]
    assert last["type"] == "place"
    return last["gained"], last["gap_penalty"]


def with_heights(state: TetrisLinkState, heights: list[int], seat: int = 0) -> TetrisLinkState:
    """Fill each column from the floor to `heights[c]`, one filler piece per column."""
    rows = [list(row) for row in state.board]
    pieces = list(state.pieces)
    for column, height in enumerate(heights):
        if height:
            pid = len(pieces)
            cells = tuple((r, column) for r in range(height))
            pieces.append((seat, "I", cells))
            for r, c in cells:
                rows[r][c] = pid
    return replace(
        state,
        board=tuple(tuple(row) for row in rows),
        pieces=tuple(pieces),
        scored=state.scored + (False,) * (len(pieces) - len(state.pieces)),
    )


def step_rolling(face: str, seed: int, start: int = 0) -> int:
    """The first chance step from `start` whose roll is `face`."""
    step = start
    while chance(seed, step).choice(DIE_FACES) != face:
        step += 1
    return step


def place_move(shape: str, column: int, rotation: int = 0, flip: bool = False) -> dict:
    return {"type": "place", "shape": shape, "rotation": rotation, "flip": flip, "column": column}


def hidden_twin(state: TetrisLinkState, seat: int | None, rng: random.Random) -> TetrisLinkState:
    """The same public position with other rolls to come: a different seed.

    Everything placed, held and rolled so far is public; only the future of the die is
    hidden, from every seat alike.
    """
    return replace(state, seed=state.seed + 1 + rng.randrange(10**9))


# ---------------------------------------------------------------- shapes


@pytest.mark.parametrize(("shape", "count"), [("I", 2), ("O", 1), ("T", 4), ("S", 4), ("L", 8)])
def test_each_shape_has_its_number_of_distinct_orientations(shape, count):
    assert len(orientations(shape)) == count
    every = {piece_cells(shape, r, f) for r in range(4) for f in (False, True)}
    assert len(every) == count


def test_rotation_turns_clockwise_with_row_zero_at_the_bottom():
    # L standing up, foot to the right; a clockwise quarter turn lays it as ### over #..
    assert piece_cells("L", 0, False) == ((0, 0), (0, 1), (1, 0), (2, 0))
    assert piece_cells("L", 1, False) == ((0, 0), (1, 0), (1, 1), (1, 2))
    assert piece_cells("I", 1, False) == ((0, 0), (1, 0), (2, 0), (3, 0))


def test_turning_a_piece_over_gives_its_mirror_image():
    assert piece_cells("L", 0, True) == ((0, 0), (0, 1), (1, 1), (2, 1))  # J
    assert piece_cells("S", 0, True) == ((0, 1), (0, 2), (1, 0), (1, 1))  # Z


def test_every_orientation_is_normalised_to_the_bottom_left():
    for shape in SHAPES:
        for _, _, cells in orientations(shape):
            assert min(r for r, _ in cells) == 0
            assert min(c for _, c in cells) == 0
            assert len(set(cells)) == 4


# ---------------------------------------------------------------- dropping


def test_a_piece_falls_to_the_floor_of_an_empty_tower():
    empty = [[None] * COLUMNS for _ in range(ROWS)]
    assert drop(empty, "I", 0, False, 3) == ((0, 3), (0, 4), (0, 5), (0, 6))


def test_a_piece_falls_straight_and_cannot_slide_under_an_overhang():
    # An upside-down T (stem down) leaves empty cells under both arms.
    state = put(free_game(), 0, "T", 0, rotation=2)
    assert state.board[0][0] is None and state.board[1][0] is not None
    assert drop(state.board, "I", 1, False, 0) == ((2, 0), (3, 0), (4, 0), (5, 0))


def test_drop_works_on_the_cells_of_a_view():
    state = put(free_game(), 0, "O", 4)
    cells = ENGINE.view(state, None)["cells"]
    assert drop(cells, "O", 0, False, 4) == ((2, 4), (2, 5), (3, 4), (3, 5))


def test_a_piece_sticking_out_at_the_side_is_refused():
    empty = [[None] * COLUMNS for _ in range(ROWS)]
    assert drop(empty, "I", 0, False, 7) is None
    assert drop(empty, "O", 0, False, -1) is None


def test_a_piece_sticking_out_of_the_top_is_refused():
    state = with_heights(free_game(), [17] + [0] * 9)
    assert drop(state.board, "I", 1, False, 0) is None
    assert drop(state.board, "O", 0, False, 0) == ((17, 0), (17, 1), (18, 0), (18, 1))
    with pytest.raises(IllegalMove, match="stick out"):
        ENGINE.apply(state, 0, place_move("I", 0, rotation=1))
    verticals = [m for m in ENGINE.legal_moves(state, 0) if m["shape"] == "I" and m["rotation"]]
    assert 0 not in {m["column"] for m in verticals}


def test_legal_moves_list_each_distinct_placement_once():
    state = free_game()
    moves = ENGINE.legal_moves(state, 0)
    landed = [
        (m["shape"], drop(state.board, m["shape"], m["rotation"], m["flip"], m["column"])) for m in moves
    ]
    assert len(landed) == len(set(landed))
    # I: 7 flat + 10 upright; O: 9; T: 8+8+9+9; S: 8+8+9+9; L: 4 × 9 + 4 × 8.
    assert len(moves) == 17 + 9 + 34 + 34 + 68


def test_an_equivalent_rotation_and_flip_is_accepted():
    state = free_game()
    assert ENGINE.apply(state, 0, place_move("O", 2, rotation=3, flip=True)).board == (
        ENGINE.apply(state, 0, place_move("O", 2)).board
    )


def test_malformed_moves_are_refused_with_a_sentence():
    state = free_game()
    for move in (
        {"type": "pass"},
        place_move("Z", 0),
        place_move("T", 0, rotation=4),
        place_move("T", 10),
        {**place_move("T", 0), "flip": "yes"},
    ):
        with pytest.raises(IllegalMove):
            ENGINE.apply(state, 0, move)


def test_a_seat_out_of_turn_is_told_to_wait():
    with pytest.raises(NotYourTurn):
        ENGINE.apply(free_game(), 1, place_move("O", 0))
    assert ENGINE.legal_moves(free_game(), 1) == []


# ---------------------------------------------------------------- scoring


def test_rules_example_plus_three_and_minus_one():
    """Linking a third piece that leaves one empty cell under it: +3 for the group, −1."""
    state = put(free_game(), 0, "I", 0)  # row 0, columns 0-3
    state = put(state, 0, "O", 5)  # columns 5-6
    state = put(state, 0, "I", 1)  # row 1, columns 1-4: links both, one empty cell in 4
    assert gained_and_penalty(state) == (3, 1)
    assert state.scores[0] == 2


def test_rules_example_plus_one_and_minus_one():
    """A fourth piece joins the scored group over one empty cell: +1 for it, −1."""
    state = put(free_game(), 0, "I", 0)
    state = put(state, 0, "O", 5)
    state = put(state, 0, "I", 1)
    state = put(state, 0, "I", 0)  # on top of the group, one empty cell in column 0
    assert gained_and_penalty(state) == (1, 1)
    assert state.scores[0] == 2


def test_rules_example_plus_four_and_minus_two():
    """A piece links a pair and a single into a group of four over two empty cells."""
    state = with_heights(free_game(), [0, 0, 0, 0, 1, 1, 0, 0, 0, 0], seat=1)
    state = put(state, 0, "O", 0)
    state = put(state, 0, "O", 2)  # a pair: no points yet
    state = put(state, 0, "O", 6)
    assert state.scores[0] == 0
    state = put(state, 0, "I", 3)  # row 2, columns 3-6, over one empty cell in 4 and in 5
    assert gained_and_penalty(state) == (4, 2)
    assert state.scores[0] == 2


def test_rules_example_a_first_player_who_must_start_with_s_or_z_loses_one_point():
    seed = next(s for s in range(500) if ENGINE.new_game(2, s).die == "S")
    state = ENGINE.new_game(2, seed)
    starter = state.to_move
    moves = ENGINE.legal_moves(state, starter)
    assert {m["shape"] for m in moves} == {"S"}
    assert {piece_cells("S", m["rotation"], m["flip"]) for m in moves} == {
        cells for _, _, cells in orientations("S")
    }  # S and Z, lying and standing: every one of them leaves a gap
    for move in moves:
        after = ENGINE.apply(state, starter, move)
        assert gained_and_penalty(after) == (0, 1)
        assert after.scores[starter] == -1


def test_rules_example_linking_three_gives_plus_three():
    state = put(free_game(), 0, "O", 0)
    state = put(state, 0, "O", 2)
    state = put(state, 0, "O", 4)
    assert gained_and_penalty(state) == (3, 0)
    assert state.scores[0] == 3


def test_rules_example_each_further_piece_gives_plus_one():
    state = put(free_game(), 0, "O", 0)
    state = put(state, 0, "O", 2)
    state = put(state, 0, "O", 4)
    state = put(state, 0, "O", 6)
    assert gained_and_penalty(state) == (1, 0)
    state = put(state, 0, "O", 0)  # on top of the first piece
    assert gained_and_penalty(state) == (1, 0)
    assert state.scores[0] == 5


def test_rules_example_a_single_piece_and_two_linked_pieces_score_nothing():
    state = put(free_game(), 0, "O", 0)
    assert gained_and_penalty(state) == (0, 0)
    state = put(state, 0, "O", 2)
    assert gained_and_penalty(state) == (0, 0)
    assert state.scores[0] == 0


def test_rules_example_one_empty_cell_costs_one_and_two_or_more_cost_two_never_more():
    base = with_heights(free_game(), [1, 0, 0, 3], seat=1)
    assert gained_and_penalty(put(base, 0, "O", 0)) == (0, 1)
    assert gained_and_penalty(put(base, 0, "I", 0)) == (0, 2)  # eight empty cells
    assert put(base, 0, "I", 0).scores[0] == -2


def test_rules_example_a_new_group_may_start_anywhere_and_either_group_may_grow():
    state = put(free_game(), 0, "O", 0)
    state = put(state, 1, "O", 2)  # seat 1 blocks the way to the right
    state = put(state, 0, "O", 6)  # seat 0 starts a second group elsewhere
    assert ENGINE.view(state, None)["largest_group"] == [1, 1]
    left = put(state, 0, "O", 0)  # grow the first group...
    right = put(state, 0, "O", 8)  # ...or the second
    assert ENGINE.view(left, None)["largest_group"] == ENGINE.view(right, None)["largest_group"] == [2, 1]


def test_cells_hidden_under_an_overhang_do_not_count_as_gaps_again():
    state = put(free_game(), 1, "T", 0, rotation=2)  # leaves holes under its arms
    state = put(state, 0, "O", 0)
    assert gained_and_penalty(state) == (0, 0)


def test_rules_example_pieces_touching_only_diagonally_or_of_another_colour_do_not_link():
    state = put(free_game(), 0, "O", 0)
    state = put(state, 1, "O", 2)  # touches, but another colour
    state = put(state, 0, "O", 4)
    state = put(state, 0, "O", 2)  # on seat 1's O: touches both of seat 0's diagonally only
    assert gained_and_penalty(state) == (0, 0)
    assert ENGINE.view(state, None)["largest_group"] == [1, 1]


def test_rules_example_joining_two_scored_groups_pays_only_for_the_new_piece():
    state = free_game()
    for column in (0, 2):  # left group: three upright Is in columns 0-2, the middle last
        state = put(state, 0, "I", column, rotation=1)
    state = put(state, 0, "I", 1, rotation=1)
    assert state.scores[0] == 3
    for column in (5, 7, 5):  # right group: three Os in columns 5-8
        state = put(state, 0, "O", column)
    assert state.scores[0] == 6
    state = put(state, 0, "O", 3)  # columns 3-4 touch columns 2 and 5
    assert gained_and_penalty(state) == (1, 0)
    assert ENGINE.view(state, None)["largest_group"][0] == 7
    assert state.scores[0] == 7


def test_rules_example_joining_an_unscored_pair_to_a_scored_group_pays_for_the_pair_and_the_link():
    state = free_game()
    for column in (0, 1, 2):
        state = put(state, 0, "I", column, rotation=1)
    state = put(state, 0, "I", 5, rotation=1)
    state = put(state, 0, "I", 6, rotation=1)  # a pair: no points
    assert state.scores[0] == 3
    state = put(state, 0, "O", 3)
    assert gained_and_penalty(state) == (3, 0)


def test_a_placement_is_announced_with_what_it_scored_and_its_group():
    state = put(free_game(), 0, "I", 0)
    state = put(state, 0, "O", 5)
    state = put(state, 0, "I", 1)
    assert ENGINE.view(state, None)["last_event"] == {
        "type": "place",
        "seat": 0,
        "shape": "I",
        "cells": [[1, 1], [1, 2], [1, 3], [1, 4]],
        "gained": 3,
        "gap_penalty": 1,
        "group": 3,
    }


# ---------------------------------------------------------------- the die and turns


def test_rules_start_seats_roll_in_order_from_a_drawn_seat_until_one_rolls_the_logo_and_starts():
    for seed in range(30):
        state = ENGINE.new_game(3, seed)
        start = ENGINE.view(state, None)["last_event"]
        assert start["type"] == "start"
        rolls = start["rolls"]
        drawn = first_seat(seed, 3)
        assert [seat for seat, _ in rolls] == [(drawn + i) % 3 for i in range(len(rolls))]
        assert all(face != ANY for _, face in rolls[:-1]) and rolls[-1][1] == ANY
        assert start["seat"] == rolls[-1][0] == state.to_move
        # The starter then rolls for the first turn like everyone else.
        assert state.rolls == len(rolls) + 1
        assert state.die == chance(seed, len(rolls)).choice(DIE_FACES)


def starts_by_seat(players: int, dice: bool, seeds: int = 3000) -> list[int]:
    starts = [0] * players
    for seed in range(seeds):
        start = ENGINE.view(ENGINE.new_game(players, seed, {"dice": dice}), None)["last_event"]
        starts[start["seat"]] += 1
    return starts


@pytest.mark.parametrize("dice", [True, False], ids=["dice", "no-dice"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_starts_equally_often(players, dice):
    seeds = 3000
    starts = starts_by_seat(players, dice, seeds)
    expected = seeds / players
    spread = 5 * (seeds * (1 / players) * (1 - 1 / players)) ** 0.5  # five standard deviations
    assert all(abs(count - expected) <= spread for count in starts), starts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_starting_rolls_begin_at_every_seat_equally_often(players):
    seeds = 3000
    first_rollers = [0] * players
    for seed in range(seeds):
        rolls = ENGINE.view(ENGINE.new_game(players, seed), None)["last_event"]["rolls"]
        first_rollers[rolls[0][0]] += 1
    spread = 5 * (seeds * (1 / players) * (1 - 1 / players)) ** 0.5
    assert all(abs(count - seeds / players) <= spread for count in first_rollers), first_rollers


def test_a_rolled_shape_must_be_played():
    state = replace(ENGINE.new_game(2, 5), die="T", to_move=0)
    assert {m["shape"] for m in ENGINE.legal_moves(state, 0)} == {"T"}
    with pytest.raises(IllegalMove, match="rolled T"):
        ENGINE.apply(state, 0, place_move("O", 0))


def test_the_logo_lets_the_player_choose_any_shape_they_have():
    state = replace(ENGINE.new_game(2, 5), die=ANY, to_move=0)
    state = replace(state, left=((0, 5, 5, 5, 5), state.left[1]))
    assert {m["shape"] for m in ENGINE.legal_moves(state, 0)} == {"O", "T", "S", "L"}
    with pytest.raises(IllegalMove, match="no I pieces"):
        ENGINE.apply(state, 0, place_move("I", 0))


def test_a_seat_without_the_rolled_shape_is_skipped_and_the_next_seat_rolls():
    seed = 5
    state = replace(ENGINE.new_game(3, seed), die=ANY, to_move=0, events=())
    state = replace(state, left=(state.left[0], (0, 5, 5, 5, 5), state.left[2]))
    state = replace(state, rolls=step_rolling("I", seed))
    after = ENGINE.apply(state, 0, place_move("O", 0))
    skip = {"type": "skip", "seat": 1, "die": "I", "reason": NO_SHAPE_LEFT}
    assert ENGINE.view(after, None)["events"][0] == skip
    assert after.to_move == 2  # seat 1 does not roll again
    assert after.rolls == state.rolls + 2


def test_a_roll_for_a_shape_that_fits_nowhere_skips_the_turn():
    seed = 9
    # Columns of 18 with a full column every third: an O still fits on top, an I nowhere
    # once seat 0 has filled the last column.
    heights = [18, 18, 20, 18, 18, 20, 18, 18, 20, 16]
    state = with_heights(ENGINE.new_game(2, seed), heights, seat=1)
    state = replace(state, die="I", to_move=0, rolls=step_rolling("I", seed), events=())
    after = ENGINE.apply(state, 0, place_move("I", 9, rotation=1))
    skip = {"type": "skip", "seat": 1, "die": "I", "reason": NO_FIT}
    assert ENGINE.view(after, None)["events"][0] == skip


def test_rules_without_dice_the_seat_drawn_by_lot_starts_and_chooses_any_shape():
    for seed in range(10):
        state = ENGINE.new_game(3, seed, {"dice": False})
        drawn = first_seat(seed, 3)
        view = ENGINE.view(state, None)
        assert view["last_event"] == {"type": "start", "seat": drawn, "rolls": []}
        assert state.to_move == drawn and view["die"] is None and view["dice"] is False
        assert {m["shape"] for m in ENGINE.legal_moves(state, drawn)} == set(SHAPES)
        state = ENGINE.apply(state, drawn, place_move("L", 0))
        assert state.to_move == (drawn + 1) % 3 and state.rolls == 0


def test_without_dice_a_seat_is_skipped_only_when_nothing_fits():
    state = with_heights(free_game(), [20] * 7 + [16, 20, 12])
    state = replace(state, left=(state.left[0], (0, 1, 0, 0, 0)), to_move=0)
    state = ENGINE.apply(state, 0, place_move("I", 9, rotation=1))
    # No two neighbouring columns have room left: seat 1's only piece, an O, fits
    # nowhere, while seat 0 can still stand an I up: seat 0 moves again.
    assert {"type": "skip", "seat": 1, "die": None, "reason": NO_FIT} in ENGINE.view(state, None)["events"]
    assert state.to_move == 0


def test_options_are_checked():
    with pytest.raises(GameError):
        ENGINE.new_game(2, 1, {"dice": "no"})
    with pytest.raises(GameError):
        ENGINE.new_game(2, 1, {"speed": 3})
    with pytest.raises(GameError):
        ENGINE.new_game(5, 1)


# ---------------------------------------------------------------- the end


def test_the_game_ends_when_the_tower_is_full():
    state = with_heights(free_game(), [20] * 8 + [18, 18])
    state = ENGINE.apply(state, 0, place_move("O", 8))
    view = ENGINE.view(state, None)
    assert view["winners"] is not None and view["to_move"] == [] and view["die"] is None
    assert {"type": "end", "seat": None, "reason": "tower full"} in view["events"]
    assert ENGINE.current_seats(state) == ()
    assert ENGINE.outcome(state) is not None
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.apply(state, 0, place_move("O", 0))


def test_the_game_ends_when_no_piece_left_in_hand_fits():
    state = with_heights(free_game(), [19, 20] * 4 + [17, 17])
    state = ENGINE.apply(state, 0, place_move("O", 8))  # only single holes remain
    assert ENGINE.view(state, None)["events"][-1] == {"type": "end", "seat": None, "reason": "no piece fits"}


def test_the_game_ends_when_every_piece_is_played():
    state = free_game()
    state = replace(state, left=((0, 1, 0, 0, 0), (0, 0, 0, 0, 0)))
    state = ENGINE.apply(state, 0, place_move("O", 0))
    assert ENGINE.view(state, None)["events"][-1] == {
        "type": "end",
        "seat": None,
        "reason": "every piece played",
    }


def over(state: TetrisLinkState, scores: tuple[int, ...]) -> TetrisLinkState:
    return replace(state, to_move=None, die=None, scores=scores)


def test_the_highest_score_wins_even_when_negative():
    outcome = ENGINE.outcome(over(free_game(3), (-4, -1, -7)))
    assert outcome.winners == (1,) and not outcome.draw and outcome.scores == (-4, -1, -7)


def test_a_tie_on_points_goes_to_the_largest_group():
    state = put(free_game(), 0, "O", 0)
    state = put(state, 0, "O", 2)  # seat 0: a group of two
    state = put(state, 1, "O", 6)  # seat 1: a single piece
    outcome = ENGINE.outcome(over(state, (3, 3)))
    assert outcome.winners == (0,) and not outcome.draw
    assert outcome.tiebreak == "largest group"
    assert outcome.details["largest_group"] == [2, 1]


def test_a_tie_on_points_and_group_size_is_a_draw_among_them():
    state = put(free_game(3), 0, "O", 0)
    state = put(state, 1, "O", 4)
    state = put(state, 2, "O", 8)
    outcome = ENGINE.outcome(over(state, (2, 2, 1)))
    assert outcome.winners == (0, 1) and outcome.draw
    assert ENGINE.view(over(state, (2, 2, 1)), None)["winners"] == [0, 1]


def test_a_running_game_has_no_outcome():
    assert ENGINE.outcome(free_game()) is None


# ---------------------------------------------------------------- resigning


def test_a_resigned_seat_is_skipped_from_then_on():
    state = ENGINE.resign(free_game(3), 1)
    assert ENGINE.view(state, None)["resigned"] == [1]
    state = ENGINE.apply(state, 0, place_move("O", 0))
    assert state.to_move == 2
    state = ENGINE.apply(state, 2, place_move("O", 4))
    assert state.to_move == 0


def test_resigning_on_your_turn_passes_the_turn():
    state = ENGINE.resign(free_game(3), 0)
    assert state.to_move == 1


def test_a_resigned_seat_keeps_its_pieces_and_points_but_never_wins():
    state = put(free_game(2), 0, "O", 0)
    state = replace(state, scores=(10, -3), to_move=0)
    state = ENGINE.resign(state, 0)
    assert ENGINE.current_seats(state) == ()
    assert state.board[0][0] is not None and state.scores == (10, -3)
    assert ENGINE.outcome(state).winners == (1,)
    view = ENGINE.view(state, None)
    assert view["last_event"] == {"type": "resign", "seat": 0}
    assert view["events"][-1] == {"type": "end", "seat": None, "reason": "resignations"}


def test_the_game_goes_on_while_two_seats_remain():
    state = ENGINE.resign(free_game(4), 3)
    state = ENGINE.resign(state, 2)
    assert ENGINE.current_seats(state) == (0,)
    state = ENGINE.resign(state, 1)
    assert ENGINE.current_seats(state) == ()
    assert ENGINE.outcome(state).winners == (0,)


def test_resigning_twice_or_after_the_end_is_refused():
    state = ENGINE.resign(free_game(3), 1)
    with pytest.raises(GameError):
        ENGINE.resign(state, 1)
    with pytest.raises(GameError):
        ENGINE.resign(over(free_game(), (0, 0)), 0)


# ---------------------------------------------------------------- whole games


def play_out(players: int, seed: int, dice: bool = True, low: bool = False) -> list[TetrisLinkState]:
    """Random legal moves to the end (with `low`, mostly the lowest landing, so the
    tower fills up); returns every state on the way."""
    rng = random.Random(seed)
    state = ENGINE.new_game(players, seed, {"dice": dice})
    states = [state]
    while ENGINE.current_seats(state):
        (seat,) = ENGINE.current_seats(state)
        moves = ENGINE.legal_moves(state, seat)
        assert moves, "the seat to move always has a legal move"
        if rng.random() < 0.01 and len(state.resigned) < players - 1:
            state = ENGINE.resign(state, seat)
        else:
            if low:
                moves = sorted(moves, key=lambda m: top_row(state, m))[:3]
            state = ENGINE.apply(state, seat, rng.choice(moves))
        states.append(state)
    return states


def top_row(state: TetrisLinkState, move: dict) -> int:
    cells = drop(state.board, move["shape"], move["rotation"], move["flip"], move["column"])
    assert cells is not None  # a legal move fits
    return max(r for r, _ in cells)


def check_invariants(state: TetrisLinkState) -> None:
    view = ENGINE.view(state, None)
    assert json.loads(json.dumps(view)) == view
    assert view["last_event"]["type"] in ("start", "place", "resign")
    assert all(event["type"] in ("skip", "end") for event in view["events"])
    assert ENGINE.load(ENGINE.dump(state)) == state
    filled = sum(cell is not None for row in view["cells"] for cell in row)
    assert filled == 4 * len(state.pieces)
    for seat in range(state.players):
        placed = sum(p[0] == seat for p in state.pieces)
        assert placed + sum(view["pieces_left"][seat].values()) == 25
    assert all(to not in view["resigned"] for to in view["to_move"])
    heights = column_heights(state.board)
    assert max(heights) <= ROWS


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), dice=st.booleans(), low=st.booleans())
def test_random_games_reach_the_end_with_every_invariant_kept(players, seed, dice, low):
    states = play_out(players, seed, dice, low)
    for state in states:
        check_invariants(state)
    final = states[-1]
    outcome = ENGINE.outcome(final)
    assert outcome is not None and outcome.winners
    assert not set(outcome.winners) & set(final.resigned)
    active = [s for s in range(players) if s not in final.resigned]
    if len(active) >= 2:  # nobody could place anything they still had
        for seat in active:
            probe = replace(final, to_move=seat, die=None)
            assert ENGINE.legal_moves(probe, seat) == []


def test_scores_are_the_sum_of_what_each_placement_gained_and_lost():
    states = play_out(3, 42)
    totals = [0, 0, 0]
    for before, after in itertools.pairwise(states):
        if len(after.pieces) > len(before.pieces):
            seat, _, _, gained, penalty = after.last_move
            totals[seat] += gained - penalty
    assert tuple(totals) == states[-1].scores


def test_a_tower_filled_by_low_placements_ends_nearly_full():
    final = play_out(4, 5, low=True)[-1]
    assert sum(cell is not None for row in final.board for cell in row) > 150


def test_the_same_seed_and_moves_replay_the_same_game():
    states = play_out(4, 7, low=True)
    replayed = ENGINE.new_game(4, 7)
    assert replayed == states[0]
    for before, after in itertools.pairwise(states):
        seat = before.to_move
        if seat in after.resigned and seat not in before.resigned:
            replayed = ENGINE.resign(replayed, seat)
        else:
            pid = len(before.pieces)
            _, shape, cells = after.pieces[pid]
            move = next(
                m
                for m in ENGINE.legal_moves(before, seat)
                if m["shape"] == shape
                and drop(before.board, shape, m["rotation"], m["flip"], m["column"]) == cells
            )
            replayed = ENGINE.apply(replayed, seat, move)
        assert replayed == after


def test_dump_and_load_round_trip_exactly():
    state = play_out(3, 3)[10]
    text = ENGINE.dump(state)
    assert ENGINE.load(text) == state
    assert ENGINE.dump(ENGINE.load(text)) == text


def test_loading_something_that_is_not_a_saved_game_is_refused():
    for text in ("[1, 2]", "{}", '{"version": 1, "players": 2}', "not json", '{"version": 9}'):
        with pytest.raises(GameError):
            ENGINE.load(text)


def damaged(state: TetrisLinkState, **changes) -> str:
    data = json.loads(ENGINE.dump(state))
    data.update(changes)
    return json.dumps(data)


def test_a_save_that_contradicts_itself_is_refused_as_damaged():
    state = play_out(3, 3)[10]
    board = [list(row) for row in state.board]
    board[0][0] = None if board[0][0] is not None else 0
    left = [list(counts) for counts in state.left]
    left[0][0] += 1
    for text in (
        damaged(state, board=board),  # a piece with a cell missing
        damaged(state, left=left),  # a piece both placed and in hand
        damaged(state, scored=[True]),  # flags for one piece only
        damaged(state, to_move=5),
        damaged(state, die="X"),
        damaged(state, events=[]),
        damaged(state, events=[["end", "tower full"]]),  # no decision before the end
        damaged(state, last_move=[0, "I", [[19, 9]] * 4, 0, 0]),  # no such piece
    ):
        with pytest.raises(GameError, match="damaged"):
            ENGINE.load(text)


def as_version_1(state: TetrisLinkState) -> str:
    """How the previous version saved `state`: no placement event, a "score" event
    only when points changed, and no start event without dice."""
    data = json.loads(ENGINE.dump(state))
    first, *rest = data["events"]
    if first[0] == "place":
        _, seat, _, _, gained, penalty, group = first
        first = [["score", seat, gained, penalty, group]] if gained or penalty else []
    elif first[0] == "start" and not state.dice:
        first = []
    else:
        first = [first]
    data.update(version=1, events=first + rest)
    return json.dumps(data)


def test_a_game_saved_by_the_previous_version_loads_with_its_last_event():
    states = play_out(3, 5) + play_out(2, 6, dice=False)[:3]
    for state in states:
        assert ENGINE.load(as_version_1(state)) == state


def test_a_spectator_sees_what_every_seat_sees():
    state = play_out(2, 11)[6]
    assert ENGINE.view(state, None) == ENGINE.view(state, 0) == ENGINE.view(state, 1)


def test_a_hidden_twin_has_other_rolls_to_come_behind_the_same_views():
    """The twin the contract test uses really hides something: the die's future."""
    rng = random.Random(1)
    state = ENGINE.new_game(2, 8)
    twin = hidden_twin(state, None, rng)
    assert ENGINE.view(twin, None) == ENGINE.view(state, None)
    move = ENGINE.timeout_move(state, state.to_move)
    dice = [(a.die, b.die) for a, b in itertools.islice(twin_games(state, twin, move), 12)]
    assert any(mine != theirs for mine, theirs in dice)


def twin_games(state: TetrisLinkState, twin: TetrisLinkState, move: dict):
    """Both states after the same first move, then each after its own time-out moves."""
    seat = state.to_move
    assert seat is not None
    state, twin = ENGINE.apply(state, seat, move), ENGINE.apply(twin, seat, move)
    while state.to_move is not None and twin.to_move is not None:
        yield state, twin
        state = ENGINE.apply(state, state.to_move, ENGINE.timeout_move(state, state.to_move))
        twin = ENGINE.apply(twin, twin.to_move, ENGINE.timeout_move(twin, twin.to_move))


def test_the_view_has_the_contract_keys():
    view = ENGINE.view(ENGINE.new_game(2, 3), None)
    assert len(view["cells"]) == ROWS and all(len(row) == COLUMNS for row in view["cells"])
    assert view["pieces_left"] == [dict.fromkeys(SHAPES, 5)] * 2
    assert view["die"] in DIE_FACES
    assert view["players"] == 2 and view["scores"] == [0, 0] and view["winners"] is None
    assert view["last_event"]["type"] == "start" and view["events"] == []
    assert view["last_move"] is None and view["largest_group"] == [0, 0]


# ---------------------------------------------------------------- absent players


def consequences(state: TetrisLinkState, seat: int) -> dict[str, tuple[int, int]]:
    """(gained, gap penalty) of every legal placement, by applying it."""
    found = {}
    for move in ENGINE.legal_moves(state, seat):
        found[json.dumps(move)] = gained_and_penalty(ENGINE.apply(state, seat, move))
    return found


def test_an_absent_player_never_scores_where_a_placement_without_points_exists():
    for state in play_out(3, 21)[::9]:
        if state.to_move is None:
            continue
        seat = state.to_move
        move = ENGINE.timeout_move(state, seat)
        assert move in ENGINE.legal_moves(state, seat)
        found = consequences(state, seat)
        assert found[json.dumps(move)] == min(found.values())  # fewest points, then least gap


def test_an_absent_player_places_without_points_gap_or_touching_any_piece():
    state = put(free_game(), 0, "O", 0)
    state = put(state, 0, "O", 2)  # seat 0 has a pair: a third piece touching it would score
    state = put(state, 1, "O", 6)  # columns 7-8: only column 10 is clear of every piece
    state = replace(state, to_move=0)
    after = ENGINE.apply(state, 0, ENGINE.timeout_move(state, 0))
    assert gained_and_penalty(after) == (0, 0)
    cells = ENGINE.view(after, None)["last_event"]["cells"]
    assert cells == [[0, 9], [1, 9], [2, 9], [3, 9]]  # an I standing in column 10


def test_an_absent_player_takes_the_smallest_gap_when_every_placement_leaves_one():
    # Every column but the last two is full, and those differ by three: an O leaves a
    # gap in any case, an upright I in column 9 or 10 does not.
    state = with_heights(free_game(), [20] * 8 + [13, 10], seat=1)
    state = replace(state, die="O", dice=True, to_move=0)
    after = ENGINE.apply(state, 0, ENGINE.timeout_move(state, 0))
    assert gained_and_penalty(after) == (0, 2)
    state = replace(state, die=ANY)
    after = ENGINE.apply(state, 0, ENGINE.timeout_move(state, 0))
    assert gained_and_penalty(after) == (0, 0)


def test_only_the_seat_to_move_has_a_time_out_move():
    state = free_game()
    with pytest.raises(NotYourTurn):
        ENGINE.timeout_move(state, 1)
