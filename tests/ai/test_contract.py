"""The contract every computer player shares (`ai.choose`)."""

from __future__ import annotations

import random

import pytest

import ai
from games import ENGINES
from games.tetris_link import ENGINE


def test_every_game_has_a_computer_player():
    assert set(ai.GAMES) == set(ENGINES)


def test_an_unknown_game_or_level_is_refused_with_the_choices():
    state = ENGINE.new_game(2, 1)
    seat = state.to_move
    assert seat is not None
    views, legal = [ENGINE.view(state, seat)], ENGINE.legal_moves(state, seat)
    with pytest.raises(ValueError, match="choose one of easy, normal, hard"):
        ai.choose("tetris_link", "expert", views, legal, random.Random(0))
    with pytest.raises(ValueError, match="There is no game 'chess'"):
        ai.choose("chess", "easy", views, legal, random.Random(0))


def test_a_game_without_a_computer_player_says_so(monkeypatch):
    monkeypatch.setitem(ai.ENGINES, "tetris_link_solo", ENGINE)  # an engine no player module is named after
    with pytest.raises(ValueError, match="Tetris Link has no computer player yet"):
        ai.choose("tetris_link_solo", "easy", [{}], [{"type": "pass"}], random.Random(0))
