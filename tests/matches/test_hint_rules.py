"""The rules behind hints that need no bot: which games offer the hint under the board (those
whose seats see nothing a spectator does not), and when hints leave a result unrated."""

from __future__ import annotations

import random

import pytest

from cogs.registry import GAMES
from data.model import MatchResult, SeatResult
from data.ratings import hinted


def seat_and_spectator_views(name: str, seed: int):
    """Every (seat view, spectator view) of one seeded random two-player game."""
    engine = GAMES[name].engine
    state = engine.new_game(2, seed, GAMES[name].options({}, 2))
    rng = random.Random(seed)
    while seats := engine.current_seats(state):
        for seat in (0, 1):
            yield engine.view(state, seat), engine.view(state, None)
        state = engine.apply(state, seats[0], rng.choice(engine.legal_moves(state, seats[0])))


@pytest.mark.parametrize("name", list(GAMES))
def test_a_game_declares_secrets_exactly_when_a_seat_sees_more_than_spectators(name):
    differ = any(
        seat != spectator for seed in range(3) for seat, spectator in seat_and_spectator_views(name, seed)
    )
    assert GAMES[name].secrets == differ


def result(winners: set[int], *, draw: bool = False, teams: tuple[int, ...] = (0, 1, 2)) -> MatchResult:
    return MatchResult(
        draw=draw,
        seats=tuple(SeatResult(seat, 10 + seat, teams[seat], 0, seat in winners) for seat in range(3)),
    )


@pytest.mark.parametrize(
    ("outcome", "hints", "unrated"),
    [
        (result({0}), {}, False),  # nobody used a hint
        (result({0}), {1: 2, 2: 1}, False),  # every hinter lost
        (result({0}), {0: 1}, True),  # the winner used one
        (result({0, 1}, draw=True), {1: 1}, True),  # a hinter drew
        (result({0, 1}, teams=(0, 0, 1)), {1: 1}, True),  # a hinter's team won
        (result({0}), {0: 0, 1: 1}, False),  # a seat without hints counts for nothing
    ],
)
def test_hints_leave_a_result_unrated_unless_every_hinter_lost(outcome, hints, unrated):
    assert hinted(outcome, hints) == unrated


@pytest.mark.parametrize("name", list(GAMES))
def test_every_reason_a_hint_gives_in_a_played_match_has_its_games_words(name):
    """Seeded matches of normal computers (the hint's player): each decision's reason is one the
    game's cog words in every language."""
    spec = GAMES[name]
    reasons = spec.presentation.hint_reasons
    engine, given = spec.engine, {}
    for seed in range(3):
        state = engine.new_game(2, seed, spec.options({}, 2))
        views = [[engine.view(state, seat)] for seat in (0, 1)]
        rng = random.Random(seed)
        while seats := engine.current_seats(state):
            seat = seats[0]
            move = spec.choose("normal", views[seat], engine.legal_moves(state, seat), rng)
            reason = spec.explain(views[seat], move)
            given[reason.key, tuple(sorted(reason.values.items()))] = reason
            state = engine.apply(state, seat, move)
            for other in (0, 1):
                views[other].append(engine.view(state, other))
    assert len({key for key, _ in given}) > 1
    for reason in given.values():
        for lang in ("en", "de", "fr"):
            assert reasons.text(reason, lang), (reason, lang)
