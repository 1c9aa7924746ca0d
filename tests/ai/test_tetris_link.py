"""The Tetris Link computer players: legal to the end, deterministic, view-only, ranked."""

from __future__ import annotations

import random

import pytest

import ai
import ai.tetris_link
from ai import arena
from ai.tetris_link import FITS, drop, normal_placement, place, read_board
from benchmarks.references import tetris_link as reference
from games.tetris_link import ENGINE, SHAPES, TetrisLinkState
from tests.games.test_tetris_link import hidden_twin

Levels = tuple[str, ...]


def play(levels: Levels, seed: int, dice: bool = True) -> TetrisLinkState:
    """A seeded match to the end, each seat played by the computer at its level."""
    state: TetrisLinkState = arena.play(ENGINE, ai.tetris_link.choose, levels, seed, {"dice": dice})
    return state


@pytest.mark.parametrize("level", ai.LEVELS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_level_plays_a_match_to_the_end_with_legal_moves_only(level, players):
    state = play((level,) * players, seed=players, dice=players != 3)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners
    assert len(state.pieces) > 10 * players


def first_decision(level: str, state: TetrisLinkState, seed: int) -> dict:
    seat = state.to_move
    assert seat is not None
    return ai.choose(
        ai.tetris_link.choose,
        level,
        [ENGINE.view(state, seat)],
        ENGINE.legal_moves(state, seat),
        random.Random(seed),
    )


def midgame(seed: int) -> TetrisLinkState:
    """A position some twenty placements in, by time-out moves."""
    state = ENGINE.new_game(2, seed)
    for _ in range(20):
        assert state.to_move is not None
        state = ENGINE.apply(state, state.to_move, ENGINE.timeout_move(state, state.to_move))
    return state


@pytest.mark.parametrize("level", ai.LEVELS)
def test_the_same_views_legal_moves_and_seed_give_the_same_choice(level):
    state = midgame(3)
    choices = [first_decision(level, state, seed=7) for _ in range(3)]
    assert choices[0] == choices[1] == choices[2]


@pytest.mark.parametrize("level", ai.LEVELS)
def test_states_with_equal_views_for_the_seat_give_the_same_choice(level):
    rng = random.Random(5)
    for seed in range(4):
        state = midgame(seed)
        twin = hidden_twin(state, state.to_move, rng)
        assert twin.seed != state.seed
        assert ENGINE.view(twin, twin.to_move) == ENGINE.view(state, state.to_move)
        assert first_decision(level, twin, seed) == first_decision(level, state, seed)


def test_the_playouts_of_hard_place_where_normal_would():
    """Hard's fast search for normal's move finds a placement of the highest value."""
    compared = 0
    for seed in range(3):
        state = ENGINE.new_game(3, seed)
        rng = random.Random(seed)
        while state.to_move is not None:
            board = read_board(ENGINE.view(state, state.to_move))
            for seat in range(state.players):
                shapes = [shape for shape, count in zip(SHAPES, state.left[seat], strict=True) if count]
                everything = [
                    placement
                    for shape in shapes
                    for fit in FITS[shape]
                    for column in range(len(fit.masks))
                    if (placement := drop(board, seat, fit, column)) is not None
                ]
                found = normal_placement(board, seat, shapes)
                assert (found is None) == (not everything)
                if found is not None:
                    assert found.value() == pytest.approx(max(p.value() for p in everything))
                    compared += 1
            state = ENGINE.apply(state, state.to_move, rng.choice(ENGINE.legal_moves(state, state.to_move)))
    assert compared > 100


def two_pairs_of_i() -> tuple[TetrisLinkState, int]:
    """Each seat has two I pieces lying flat, one on the other; the first seat to move is next."""
    state = ENGINE.new_game(2, 0, {"dice": False})
    seat = state.to_move
    assert seat is not None
    other = 1 - seat
    flat = {"type": "place", "shape": "I", "rotation": 0, "flip": False}
    for mover, column in ((seat, 0), (other, 6), (seat, 0), (other, 6)):
        state = ENGINE.apply(state, mover, {**flat, "column": column})
    return state, seat


def test_normal_and_hard_take_the_placement_that_links_three_for_three_points():
    """Two I pieces lie side by side; a third beside them links three for +3."""
    state, seat = two_pairs_of_i()
    legal = ENGINE.legal_moves(state, seat)
    for level in ("normal", "hard"):
        move = ai.choose(ai.tetris_link.choose, level, [ENGINE.view(state, seat)], legal, random.Random(1))
        after = ENGINE.apply(state, seat, move)
        assert after.scores[seat] == 3, level


def test_the_players_reading_of_the_view_scores_every_placement_as_the_engine_does():
    """Points and gap penalties simulated from the view alone match the engine's."""
    checked = 0
    for seed in range(5):
        state = ENGINE.new_game(3, seed)
        rng = random.Random(seed)
        while state.to_move is not None:
            seat = state.to_move
            move = rng.choice(ENGINE.legal_moves(state, seat))
            placement = place(read_board(ENGINE.view(state, seat)), seat, move)
            state = ENGINE.apply(state, seat, move)
            assert placement is not None and state.last_move is not None
            assert (placement.gained, placement.penalty) == state.last_move[3:5]
            checked += placement.gained > 0
    assert checked >= 3  # some of the placements scored


def test_the_reference_plays_legal_moves_to_the_end_whatever_its_level():
    """The published heuristic hard is measured against: the same seeded match whatever level."""
    ends = [arena.play(ENGINE, reference.choose, (level, level), seed=3) for level in ai.LEVELS]
    outcome = ENGINE.outcome(ends[0])
    assert outcome is not None and outcome.winners
    assert ends[0] == ends[1] == ends[2]


def test_the_reference_takes_the_placement_that_links_three_for_three_points():
    state, seat = two_pairs_of_i()
    legal = ENGINE.legal_moves(state, seat)
    for seed in range(3):
        move = reference.choose("easy", [ENGINE.view(state, seat)], legal, random.Random(seed))
        assert ENGINE.apply(state, seat, move).scores[seat] == 3
