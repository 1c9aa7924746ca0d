"""Tremember engine: every rule in rules/tremember.md, playouts, saving, and leaks."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import GameError, IllegalMove, NotYourTurn, first_seat
from games.tremember import (
    CELLS,
    ENGINE,
    HOLE,
    MOTIFS,
    NO_CARD,
    NOBODY,
    TrememberState,
    motif_of,
    pair_points,
    rotate,
)

COLUMNS = "ABCDEF"


def cell(name: str) -> int:
    """Cell index of `B3`."""
    return (int(name[1]) - 1) * 6 + COLUMNS.index(name[0])


def rc(name: str) -> list[int]:
    """[row, col] of `B3`."""
    return list(divmod(cell(name), 6))


def ordered_game(players: int = 2) -> TrememberState:
    """A game whose card k lies at cell k, seat 0 to move: pairs sit side by side."""
    state = ENGINE.new_game(players, seed=1)
    return replace(state, grid=tuple(range(CELLS)), turn=0, last_event=("start", 0))


def place(state: TrememberState, card: int, at: str) -> TrememberState:
    """`state` with `card` swapped into cell `at`."""
    grid = list(state.grid)
    here, there = grid.index(card), cell(at)
    grid[here], grid[there] = grid[there], grid[here]
    return replace(state, grid=tuple(grid))


def place_pair(state: TrememberState, pair: int, a: str, b: str) -> TrememberState:
    """`state` with the two cards of motif number `pair` at cells a and b."""
    return place(place(state, 2 * pair, a), 2 * pair + 1, b)


def move(kind: str, at: str) -> dict:
    return {"type": kind, "cell": rc(at)}


def push(side: str) -> dict:
    return {"type": "push", "from": side}


def take_f6_push_row_6(state: TrememberState, seat: int = 0) -> TrememberState:
    """Take F6 and push row 6 from the left: rows 1–5 stay where they are."""
    state = ENGINE.apply(state, seat, move("take", "F6"))
    return ENGINE.apply(state, seat, push("left"))


def flip_pair(state: TrememberState, a: str, b: str, seat: int = 0) -> TrememberState:
    state = ENGINE.apply(state, seat, move("flip", a))
    return ENGINE.apply(state, seat, move("flip", b))


def finish_all_but(state: TrememberState, keep: set[int], seat: int = 0) -> TrememberState:
    """`state` with every pair found by `seat` except the motif numbers in `keep`."""
    found = tuple(NOBODY if card // 2 in keep else seat for card in range(CELLS))
    return replace(state, found_by=found)


# --- dealing ------------------------------------------------------------------------


def test_a_new_game_deals_36_face_down_cards_with_every_motif_twice():
    state = ENGINE.new_game(3, seed=42)
    view = ENGINE.view(state, None)
    assert sorted(state.grid) == list(range(CELLS))
    assert all(card is None for row in view["board"] for card in row)
    assert sorted(motif_of(card) for card in state.grid) == sorted(MOTIFS * 2)
    assert len(MOTIFS) == 18 and {"joker1", "joker2"} <= set(MOTIFS)
    assert view["phase"] == "take" and view["scores"] == [0, 0, 0]


def test_the_same_seed_deals_the_same_board_and_start_seat():
    assert ENGINE.new_game(4, seed=7) == ENGINE.new_game(4, seed=7)
    assert ENGINE.new_game(4, seed=7).grid != ENGINE.new_game(4, seed=8).grid


def test_the_starting_seat_is_drawn_by_lot_and_the_start_event_names_it():
    starts = set()
    for seed in range(40):
        state = ENGINE.new_game(4, seed=seed)
        assert state.turn == first_seat(seed, 4)
        view = ENGINE.view(state, None)
        assert view["last_event"] == {"type": "start", "seat": state.turn}
        assert view["to_move"] == [state.turn] and view["winners"] is None
        starts.add(state.turn)
    assert starts == {0, 1, 2, 3}


@pytest.mark.parametrize("players", [1, 7])
def test_seat_counts_outside_two_to_six_are_refused(players):
    with pytest.raises(GameError):
        ENGINE.new_game(players, seed=1)


def test_unknown_options_are_refused():
    with pytest.raises(GameError):
        ENGINE.new_game(2, seed=1, options={"speed": "fast"})


# --- take and push ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hole", "sides"),
    [
        ("A1", {"right", "bottom"}),
        ("C1", {"left", "right", "bottom"}),
        ("C3", {"left", "right", "top", "bottom"}),
    ],
)
def test_rulebook_example_legal_pushes_at_a_corner_an_edge_and_an_inner_hole(hole, sides):
    """Rules, "Examples for tests": hole at A1 → from the right of row 1 and the bottom of
    column A; hole at C1 → left, right, bottom; hole at C3 → all four."""
    state = ENGINE.apply(ordered_game(), 0, move("take", hole))
    assert {m["from"] for m in ENGINE.legal_moves(state, 0)} == sides
    assert set(ENGINE.view(state, None)["legal_pushes"]) == sides


@pytest.mark.parametrize(
    ("hole", "sides"),
    [
        ("F6", {"left", "top"}),
        ("A4", {"right", "top", "bottom"}),
        ("F2", {"left", "top", "bottom"}),
    ],
)
def test_only_pushes_that_move_another_card_are_legal(hole, sides):
    state = ENGINE.apply(ordered_game(), 0, move("take", hole))
    moves = ENGINE.legal_moves(state, 0)
    assert {m["from"] for m in moves} == sides
    assert all(m == push(m["from"]) for m in moves)
    assert set(ENGINE.view(state, None)["legal_pushes"]) == sides


@pytest.mark.parametrize(
    ("side", "moved", "lands"),
    [
        # Hole at C3 (card 14). Pushing from the left shifts A3, B3 right; the taken card
        # lands at A3. The other directions are symmetric.
        ("left", {"B3": 12, "C3": 13}, "A3"),
        ("right", {"C3": 15, "D3": 16, "E3": 17}, "F3"),
        ("top", {"C2": 2, "C3": 8}, "C1"),
        ("bottom", {"C3": 20, "C4": 26, "C5": 32}, "C6"),
    ],
)
def test_a_push_shifts_the_line_toward_the_hole_and_the_taken_card_lands_at_the_end(side, moved, lands):
    """Rules, step 2: pushed in from the left into row r with the hole at column c, the
    cards at columns 0..c-1 move right by one and the taken card lands at column 0."""
    state = ENGINE.apply(ordered_game(), 0, move("take", "C3"))
    state = ENGINE.apply(state, 0, push(side))
    for at, card in moved.items():
        assert state.grid[cell(at)] == card
    assert state.grid[cell(lands)] == 14
    assert HOLE not in state.grid
    assert sorted(state.grid) == list(range(CELLS))
    view = ENGINE.view(state, None)
    assert view["phase"] == "flip"
    assert view["last_event"] == {
        "type": "push",
        "seat": 0,
        "from": side,
        "cell": rc("C3"),
        "lands": rc(lands),
    }


def test_a_push_from_the_end_at_the_hole_is_refused_with_the_legal_sides_named():
    state = ENGINE.apply(ordered_game(), 0, move("take", "A1"))
    with pytest.raises(IllegalMove, match="Push from the right or from the bottom:"):
        ENGINE.apply(state, 0, push("left"))


def test_face_up_cards_move_with_the_pushed_line():
    state = finish_all_but(ordered_game(), keep=set(range(18)) - {0})  # pair 0 at A1, B1
    state = ENGINE.apply(state, 0, move("take", "C1"))
    state = ENGINE.apply(state, 0, push("left"))
    board = ENGINE.view(state, None)["board"]
    assert board[0][:3] == [None, "sun", "sun"]
    assert ENGINE.view(state, None)["found"][0][:3] == [None, 0, 0]


def test_a_face_up_card_cannot_be_taken_and_the_refusal_names_the_cell():
    state = finish_all_but(ordered_game(), keep=set(range(1, 18)))
    with pytest.raises(IllegalMove, match="A1 is face up"):
        ENGINE.apply(state, 0, move("take", "A1"))


def test_a_take_is_told_by_its_cell_only():
    state = ENGINE.apply(ordered_game(), 0, move("take", "B2"))
    assert ENGINE.view(state, 1)["last_event"] == {"type": "take", "seat": 0, "cell": rc("B2")}


def test_moves_out_of_phase_are_refused_with_what_to_do_instead():
    state = ordered_game()
    with pytest.raises(IllegalMove, match="take"):
        ENGINE.apply(state, 0, move("flip", "A1"))
    state = ENGINE.apply(state, 0, move("take", "A1"))
    with pytest.raises(IllegalMove, match="Push"):
        ENGINE.apply(state, 0, move("flip", "B1"))


@pytest.mark.parametrize("bad", [{"type": "take"}, {"type": "take", "cell": [6, 0]}, "A1"])
def test_malformed_moves_are_illegal(bad):
    with pytest.raises(IllegalMove):
        ENGINE.apply(ordered_game(), 0, bad)


def test_a_cell_off_the_board_is_refused_in_the_boards_own_coordinates():
    with pytest.raises(IllegalMove, match="A1 to F6"):
        ENGINE.apply(ordered_game(), 0, {"type": "take", "cell": [0, 6]})


def test_another_seat_cannot_move():
    with pytest.raises(NotYourTurn):
        ENGINE.apply(ordered_game(), 1, move("take", "A1"))
    assert ENGINE.legal_moves(ordered_game(), 1) == []


# --- flipping and scoring -------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "points"),
    [("B2", "C2", 3), ("B2", "C3", 2), ("B2", "E5", 1)],
)
def test_rulebook_example_scoring_3_side_by_side_2_at_a_corner_1_apart(a, b, points):
    """Rules, "Examples for tests": a pair at B2+C2 → 3; at B2+C3 → 2; at B2+E5 → 1."""
    state = take_f6_push_row_6(place_pair(ordered_game(), 3, a, b))
    state = flip_pair(state, a, b)
    view = ENGINE.view(state, None)
    assert view["scores"] == [points, 0]
    assert view["last_event"]["type"] == "pair" and view["last_event"]["points"] == points
    assert view["last_event"]["cells"] == [rc(a), rc(b)]


@pytest.mark.parametrize(
    ("a", "b", "points"),
    [("B2", "B3", 3), ("C3", "B2", 2), ("A1", "F5", 1), ("F1", "E2", 2), ("A5", "A4", 3)],
)
def test_a_pair_scores_by_how_the_two_cards_touch(a, b, points):
    assert pair_points(cell(a), cell(b)) == points
    state = flip_pair(take_f6_push_row_6(place_pair(ordered_game(), 3, a, b)), a, b)
    view = ENGINE.view(state, None)
    assert view["scores"] == [points, 0]
    assert view["board"][rc(a)[0]][rc(a)[1]] == "heart"
    assert view["found"][rc(b)[0]][rc(b)[1]] == 0


def test_rulebook_going_again_the_finder_of_a_pair_takes_another_turn():
    """Rules, step 3: after a pair "the same player takes another turn from step 1"."""
    state = flip_pair(take_f6_push_row_6(ordered_game()), "A1", "B1")
    assert ENGINE.current_seats(state) == (0,)
    view = ENGINE.view(state, None)
    assert view["phase"] == "take" and view["to_move"] == [0]
    assert view["last_event"]["type"] == "pair" and view["last_event"]["seat"] == 0


def test_rulebook_no_pair_turns_both_cards_down_and_passes_the_turn():
    """Rules, step 3: "No pair: both cards turn face down again; the next seat plays"."""
    state = flip_pair(take_f6_push_row_6(ordered_game()), "A1", "C1")
    view = ENGINE.view(state, None)
    assert ENGINE.current_seats(state) == (1,)
    assert view["board"][0][0] is None and view["board"][0][2] is None
    assert view["last_flip"] == [
        {"cell": [0, 0], "motif": "sun"},
        {"cell": [0, 2], "motif": "moon"},
    ]
    assert view["last_event"] == {
        "type": "miss",
        "seat": 0,
        "cells": [[0, 0], [0, 2]],
        "motifs": ["sun", "moon"],
    }
    assert view["scores"] == [0, 0]


def test_the_last_flip_is_gone_from_the_view_after_the_next_players_take():
    """The issue "the peek is forgotten": `last_flip` lasts until the next move only."""
    missed = flip_pair(take_f6_push_row_6(ordered_game()), "A1", "C1")
    assert ENGINE.view(missed, None)["last_flip"] is not None
    taken = ENGINE.apply(missed, 1, move("take", "D4"))
    for seat in (None, 0, 1):
        view = ENGINE.view(taken, seat)
        assert view["last_flip"] is None
        assert view["last_event"] == {"type": "take", "seat": 1, "cell": rc("D4")}
    pushed = ENGINE.apply(taken, 1, push("left"))
    assert ENGINE.view(pushed, None)["last_flip"] is None


def test_the_last_flip_of_a_pair_is_also_shown_only_until_the_next_move():
    found = flip_pair(take_f6_push_row_6(ordered_game()), "A1", "B1")
    assert ENGINE.view(found, None)["last_flip"] == [
        {"cell": [0, 0], "motif": "sun"},
        {"cell": [0, 1], "motif": "sun"},
    ]
    assert ENGINE.view(ENGINE.apply(found, 0, move("take", "C2")), None)["last_flip"] is None


def test_a_resignation_is_a_move_too_and_ends_the_showing_of_the_last_flip():
    missed = flip_pair(take_f6_push_row_6(ordered_game(3)), "A1", "C1")
    view = ENGINE.view(ENGINE.resign(missed, 2), None)
    assert view["last_flip"] is None and view["last_event"] == {"type": "resign", "seat": 2}


def test_the_first_card_turned_is_face_up_until_the_second_is_turned():
    state = take_f6_push_row_6(ordered_game())
    state = ENGINE.apply(state, 0, move("flip", "A1"))
    view = ENGINE.view(state, 1)
    assert view["board"][0][0] == "sun" and view["first_flip"] == [0, 0]
    assert view["last_event"] == {"type": "flip", "seat": 0, "cell": [0, 0], "motif": "sun"}
    assert {"type": "flip", "cell": [0, 0]} not in ENGINE.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="A1 is face up"):
        ENGINE.apply(state, 0, move("flip", "A1"))


def test_rulebook_points_once_scored_stay_when_a_push_separates_the_pair():
    """Rules, step 4: "Points once scored never change, whatever later pushes do"."""
    state = flip_pair(take_f6_push_row_6(ordered_game()), "A1", "B1")
    state = ENGINE.apply(state, 0, move("take", "A2"))
    state = ENGINE.apply(state, 0, push("top"))  # the sun at A1 drops to A2
    view = ENGINE.view(state, None)
    assert view["board"][1][0] == view["board"][0][1] == "sun"
    assert view["scores"] == [3, 0]


def test_rulebook_example_joker_rotation_a1_a2_scores_3_then_lies_at_f1_e1():
    """Rules, "Examples for tests": a joker pair found at A1+A2 scores 3, then the card
    that was at A1 is at F1 and the card that was at A2 is at E1; the finder goes again."""
    joker = MOTIFS.index("joker1")
    state = place_pair(ordered_game(), joker, "A1", "A2")
    before = state.grid
    state = flip_pair(take_f6_push_row_6(state), "A1", "A2")
    view = ENGINE.view(state, None)
    assert view["scores"] == [3, 0]
    assert view["board"][0][5] == view["board"][0][4] == "joker1"  # A1 → F1, A2 → E1
    assert state.grid[cell("F1")] == before[cell("A1")]
    assert state.grid[cell("E1")] == before[cell("A2")]
    event = view["last_event"]
    assert event["type"] == "pair" and event["rotated"] is True and event["points"] == 3
    assert event["cells"] == [rc("A1"), rc("A2")]
    assert event["cells_now"] == [rc("F1"), rc("E1")]
    assert view["last_flip"][0]["cell"] == rc("A1")  # where they lay when turned
    assert ENGINE.current_seats(state) == (0,)


def test_a_quarter_turn_maps_every_cell_by_new_r_c_equals_old_5_minus_c_r():
    old = tuple(range(CELLS))
    new = rotate(old)
    for r in range(6):
        for c in range(6):
            assert new[r * 6 + c] == old[(5 - c) * 6 + r]
    assert rotate(rotate(rotate(rotate(old)))) == old


# --- the end ------------------------------------------------------------------------


def last_pair_game(scores: tuple[int, int]) -> TrememberState:
    """Seat 0 to move with only the sun pair (A1, B1) face down."""
    state = finish_all_but(ordered_game(), keep={0})
    return replace(state, scores=scores)


def play_last_pair(state: TrememberState) -> TrememberState:
    state = ENGINE.apply(state, 0, move("take", "A1"))
    assert [m["from"] for m in ENGINE.legal_moves(state, 0)] == ["right", "bottom"]
    state = ENGINE.apply(state, 0, push("bottom"))  # the sun lands at A6, A2..A6 move up
    return flip_pair(state, "A6", "B1")


def test_rulebook_the_game_ends_when_every_card_is_face_up():
    state = play_last_pair(last_pair_game((10, 12)))
    view = ENGINE.view(state, None)
    assert view["to_move"] == [] and view["winners"] == [1]
    assert all(card is not None for row in view["board"] for card in row)
    assert ENGINE.current_seats(state) == ()
    assert ENGINE.legal_moves(state, 0) == []
    outcome = ENGINE.outcome(state)
    assert outcome.scores == (11, 12) and outcome.winners == (1,) and not outcome.draw
    with pytest.raises(IllegalMove, match="over"):
        ENGINE.apply(state, 0, move("take", "A1"))


def test_the_last_pair_found_gives_no_further_turn():
    state = play_last_pair(last_pair_game((10, 12)))
    view = ENGINE.view(state, 0)
    assert view["last_event"]["type"] == "pair" and view["to_move"] == []


def test_rulebook_equal_points_at_the_top_is_a_draw():
    outcome = ENGINE.outcome(play_last_pair(last_pair_game((11, 12))))
    assert outcome.scores == (12, 12)
    assert outcome.winners == (0, 1) and outcome.draw
    assert ENGINE.view(play_last_pair(last_pair_game((11, 12))), None)["winners"] == [0, 1]


def test_no_outcome_while_cards_are_face_down():
    assert ENGINE.outcome(ordered_game()) is None
    assert ENGINE.view(ordered_game(), None)["winners"] is None


# --- an absent player -----------------------------------------------------------------


def test_the_clock_takes_the_first_face_down_card_and_pushes_from_the_first_legal_end():
    state = finish_all_but(ordered_game(), keep=set(range(1, 18)))  # A1, B1 face up
    assert ENGINE.timeout_move(state, 0) == move("take", "C1")
    state = ENGINE.apply(state, 0, move("take", "C1"))
    assert ENGINE.timeout_move(state, 0) == push("left")


def test_the_clock_never_turns_a_pair_for_an_absent_player_while_a_miss_is_possible():
    state = take_f6_push_row_6(ordered_game())  # the suns lie at A1 and B1
    first = ENGINE.timeout_move(state, 0)
    assert first == move("flip", "A1")
    state = ENGINE.apply(state, 0, first)
    second = ENGINE.timeout_move(state, 0)
    assert second == move("flip", "C1")  # B1 would pair: the clock skips it
    state = ENGINE.apply(state, 0, second)
    assert ENGINE.view(state, None)["last_event"]["type"] == "miss"
    assert ENGINE.current_seats(state) == (1,) and state.scores == (0, 0)


def test_the_clock_turns_the_twin_only_when_it_is_the_last_face_down_card():
    state = ENGINE.apply(ENGINE.apply(last_pair_game((0, 0)), 0, move("take", "A1")), 0, push("bottom"))
    state = ENGINE.apply(state, 0, ENGINE.timeout_move(state, 0))
    assert ENGINE.legal_moves(state, 0) == [ENGINE.timeout_move(state, 0)]


def test_turns_played_by_the_clock_never_score_while_pairs_can_be_missed():
    state = ENGINE.new_game(3, seed=21)
    for _ in range(400):  # a hundred turns of take, push and two flips
        seat = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.timeout_move(state, seat))
    assert state.scores == (0, 0, 0)
    assert ENGINE.view(state, None)["face_down"] == CELLS


def test_the_clock_does_not_move_for_a_seat_that_is_not_to_move():
    with pytest.raises(NotYourTurn):
        ENGINE.timeout_move(ordered_game(), 1)


# --- resigning ----------------------------------------------------------------------


def test_a_resigned_seat_is_skipped_and_keeps_its_points():
    state = replace(ordered_game(3), scores=(4, 0, 0))
    state = ENGINE.resign(state, 1)
    state = flip_pair(take_f6_push_row_6(state), "A1", "C1")  # a miss
    assert ENGINE.current_seats(state) == (2,)
    assert ENGINE.view(state, None)["resigned"] == [1]


def test_resigning_mid_push_puts_the_taken_card_back_and_passes_the_turn():
    game = ordered_game(3)
    state = ENGINE.resign(ENGINE.apply(game, 0, move("take", "C3")), 0)
    assert state.grid == game.grid
    assert ENGINE.current_seats(state) == (1,)
    assert ENGINE.view(state, None)["phase"] == "take"


def test_resigning_after_the_first_flip_turns_that_card_down_again():
    state = ENGINE.apply(take_f6_push_row_6(ordered_game(3)), 0, move("flip", "A1"))
    state = ENGINE.resign(state, 0)
    assert ENGINE.view(state, None)["board"][0][0] is None
    assert ENGINE.current_seats(state) == (1,)


def test_the_game_ends_when_fewer_than_two_players_remain_and_leavers_never_win():
    state = replace(ordered_game(2), scores=(9, 1))
    state = ENGINE.resign(state, 0)
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (1,) and outcome.scores == (9, 1)
    assert ENGINE.current_seats(state) == ()
    view = ENGINE.view(state, None)
    assert view["winners"] == [1] and view["to_move"] == [] and view["resigned"] == [0]
    with pytest.raises(IllegalMove):
        ENGINE.resign(state, 1)


def test_a_seat_cannot_resign_twice():
    state = ENGINE.resign(ordered_game(3), 2)
    with pytest.raises(IllegalMove):
        ENGINE.resign(state, 2)


# --- playouts and saving --------------------------------------------------------------


def check_invariants(state: TrememberState) -> None:
    view = ENGINE.view(state, None)
    cards = [card for card in state.grid if card != HOLE]
    if state.phase == "push":
        cards.append(state.taken)
    assert sorted(cards) == list(range(CELLS))
    assert sum(state.found_by[c] != NOBODY for c in range(CELLS)) % 2 == 0
    for r in range(6):
        for c in range(6):
            card = state.grid[r * 6 + c]
            shown = view["board"][r][c]
            assert shown is None or shown == motif_of(card)
    assert (view["hole"] is not None) == (state.phase == "push")
    assert len(view["to_move"]) == (0 if ENGINE.outcome(state) else 1)
    assert (view["last_flip"] is not None) == (view["last_event"]["type"] in ("pair", "miss"))
    json.dumps(view)


def play_randomly(players: int, seed: int) -> tuple[TrememberState, int]:
    """A whole game of random legal moves; returns the end state and the points seen."""
    state = ENGINE.new_game(players, seed)
    rng = random.Random(seed)
    points = 0
    while ENGINE.outcome(state) is None:
        seat = ENGINE.current_seats(state)[0]
        moves = ENGINE.legal_moves(state, seat)
        assert moves
        state = ENGINE.apply(state, seat, rng.choice(moves))
        event = ENGINE.view(state, None)["last_event"]
        if event["type"] == "pair":
            points += event["points"]
        check_invariants(state)
    return state, points


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_games_reach_the_end_with_every_pair_scored(players):
    state, points = play_randomly(players, seed=players * 101)
    outcome = ENGINE.outcome(state)
    assert all(seat != NOBODY for seat in state.found_by)
    assert sum(outcome.scores) == points
    assert 18 <= points <= 54
    best = max(outcome.scores)
    assert outcome.winners == tuple(s for s in range(players) if outcome.scores[s] == best)
    assert outcome.draw == (len(outcome.winners) > 1)


def test_the_same_seed_and_moves_replay_the_same_game():
    assert play_randomly(3, seed=5) == play_randomly(3, seed=5)


def test_dump_and_load_round_trip_in_every_phase():
    state = ENGINE.new_game(3, seed=9)
    rng = random.Random(9)
    seen = set()
    while ENGINE.outcome(state) is None:
        text = ENGINE.dump(state)
        assert ENGINE.load(text) == state and isinstance(json.loads(text), dict)
        seen.add(state.last_event[0])
        seat = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    assert ENGINE.load(ENGINE.dump(state)) == state
    assert seen == {"start", "take", "push", "flip", "pair", "miss"}


@pytest.mark.parametrize(
    "damage",
    [
        {"grid": [0] * 36},
        {"phase": "over"},
        {"phase": "push"},
        {"taken": 3},
        {"found_by": [0] + [-1] * 35},
        {"turn": 5},
        {"scores": [1]},
        {"active": [1, 1]},
        {"first_flip": 40},
        {"last_event": ["pair", 0, 1]},
        {"last_event": ["push", 0, "diagonal", 3]},
        {"last_event": ["start", 9]},
        {"surprise": 1},
    ],
)
def test_a_damaged_save_is_a_game_error(damage):
    saved = json.loads(ENGINE.dump(ordered_game()))
    with pytest.raises(GameError, match="damaged"):
        ENGINE.load(json.dumps({**saved, **damage}))


@pytest.mark.parametrize("text", ["", "[]", "{}", "not json"])
def test_unreadable_text_is_a_game_error(text):
    with pytest.raises(GameError):
        ENGINE.load(text)


def old_save(state: TrememberState, **old: object) -> str:
    """`state` written in the first save format: last_move, last_pair, last_flip, phase "over"."""
    saved = json.loads(ENGINE.dump(state))
    del saved["last_event"]
    return json.dumps({**saved, "last_move": [], "last_pair": [], "last_flip": [], **old})


def test_a_save_of_the_first_format_still_loads():
    game = ordered_game()
    assert ENGINE.view(ENGINE.load(old_save(game)), None)["last_event"]["type"] == "start"
    taken = ENGINE.apply(game, 0, move("take", "C3"))
    assert ENGINE.load(old_save(taken, last_move=[0, "take", cell("C3")])) == taken
    missed = flip_pair(take_f6_push_row_6(game), "A1", "C1")
    flips = [[cell("A1"), 0], [cell("C1"), 2]]
    loaded = ENGINE.load(old_save(missed, last_move=[0, "flip", cell("C1"), 2], last_flip=flips))
    assert loaded == missed
    over = play_last_pair(last_pair_game((10, 12)))
    _, seat, *pair = over.last_event
    flips = [[pair[0], pair[1]], [pair[2], pair[3]]]
    text = old_save(
        over,
        phase="over",
        last_move=[seat, "flip", pair[2], pair[3]],
        last_flip=flips,
        last_pair=[seat, pair[1], pair[0], pair[2], pair[4], pair[5]],
    )
    assert ENGINE.load(text) == over and ENGINE.outcome(ENGINE.load(text)).winners == (1,)


# --- hidden information -------------------------------------------------------------


def random_state(seed: int, moves: int) -> TrememberState:
    state = ENGINE.new_game(2 + seed % 5, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if ENGINE.outcome(state) is not None:
            break
        seat = ENGINE.current_seats(state)[0]
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_moves(state, seat)))
    return state


def shown_by_last_flip(state: TrememberState) -> set[int]:
    """The cards the view still shows from the last turn (a miss until the next move)."""
    kind, _, *details = state.last_event
    return {details[1], details[3]} if kind in ("pair", "miss") else set()


def hidden_twin(state: TrememberState, seat: int | None, rng: random.Random) -> TrememberState:
    """`state` with every card `seat` cannot see shuffled among their places: the face-down
    cards on the board (but those the last flip still shows) and, for anyone but the
    taker, the card in the taker's hand."""
    shown = shown_by_last_flip(state)
    cells = [
        cell
        for cell, card in enumerate(state.grid)
        if card != HOLE and state.found_by[card] == NOBODY and card != state.first_flip and card not in shown
    ]
    in_hand = state.taken != NO_CARD and seat != state.turn
    cards = [state.grid[cell] for cell in cells] + ([state.taken] if in_hand else [])
    rng.shuffle(cards)
    grid = list(state.grid)
    for cell, card in zip(cells, cards, strict=False):
        grid[cell] = card
    return replace(state, grid=tuple(grid), taken=cards[-1] if in_hand else state.taken)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 600), st.integers(0, 10_000))
def test_deals_that_differ_only_in_face_down_cards_look_the_same_to_others(seed, moves, pick):
    state = random_state(seed, moves)
    for seat in [None, *range(state.players)]:
        other = hidden_twin(state, seat, random.Random(pick))
        assert ENGINE.view(state, seat) == ENGINE.view(other, seat)


def test_the_hidden_twin_really_moves_hidden_cards():
    state = ENGINE.apply(ordered_game(), 0, move("take", "C3"))
    spectator = hidden_twin(state, None, random.Random(1))
    assert spectator.grid != state.grid and spectator.taken != state.taken
    taker = hidden_twin(state, 0, random.Random(1))
    assert taker.taken == state.taken and taker.grid != state.grid


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 600))
def test_the_peek_is_only_in_the_takers_view_during_the_push(seed, moves):
    state = random_state(seed, moves)
    for seat in [None, *range(state.players)]:
        peek = ENGINE.view(state, seat)["peek"]
        if state.phase == "push" and seat == state.turn:
            assert peek == motif_of(state.taken)
        else:
            assert peek is None


def test_the_taker_sees_the_card_taken_and_nobody_else_does():
    state = ENGINE.apply(ordered_game(3), 0, move("take", "B1"))
    assert ENGINE.view(state, 0)["peek"] == "sun"
    assert ENGINE.view(state, 1)["peek"] is None
    assert ENGINE.view(state, None)["peek"] is None
    assert ENGINE.view(state, None)["hole"] == [0, 1]
    assert ENGINE.view(ENGINE.apply(state, 0, push("right")), 0)["peek"] is None
