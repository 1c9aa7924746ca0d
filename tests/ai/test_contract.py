"""The contract every computer player shares (`ai.choose`), over every game the tests know."""

from __future__ import annotations

import random

import pytest

import ai
from tests.registry import TESTED


@pytest.mark.parametrize("tested", TESTED, ids=lambda tested: tested.name)
def test_every_game_has_a_computer_player_whose_moves_are_legal(tested):
    engine, player = tested.spec.engine, tested.spec.choose
    assert player is not None
    state = engine.new_game(engine.min_players, 1)
    seat = engine.current_seats(state)[0]
    legal = engine.legal_moves(state, seat)
    for level in ai.LEVELS:
        assert ai.choose(player, level, [engine.view(state, seat)], legal, random.Random(0)) in legal


def test_an_unknown_level_is_refused_with_the_choices():
    engine, player = TESTED[0].spec.engine, TESTED[0].spec.choose
    state = engine.new_game(2, 1)
    seat = engine.current_seats(state)[0]
    views, legal = [engine.view(state, seat)], engine.legal_moves(state, seat)
    with pytest.raises(ValueError, match="choose one of easy, normal, hard"):
        ai.choose(player, "expert", views, legal, random.Random(0))


def test_a_game_without_a_computer_player_says_so():
    with pytest.raises(ValueError, match="This game has no computer player yet"):
        ai.choose(None, "easy", [{}], [{"type": "pass"}], random.Random(0))
