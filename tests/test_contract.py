"""The engine contract (games/base.py), checked over every game the tests know (`tests.registry`:
the hosted games and Nim, a game that lives only in the tests).

A new game gets every check here by its spec; its entry in `tests.registry` also names a
`hidden_twin(state, seat, rng)` that returns a state differing from `state` only in what
`seat` cannot see (seat None: a spectator).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import Engine, GameError, IllegalMove, NotYourTurn
from games.base import COMMON_VIEW_KEYS
from tests.registry import TESTED

ENGINES = {tested.name: tested.spec.engine for tested in TESTED}
TWINS = {tested.name: tested.hidden_twin for tested in TESTED}
SETUPS = [(tested.name, players) for tested in TESTED for players in tested.spec.player_counts]
MAX_MOVES = 5000


def _id(setup: tuple[str, int]) -> str:
    return f"{setup[0]}-{setup[1]}p"


def playout(engine: Engine, players: int, seed: int) -> Iterator[Any]:
    """Every state of one seeded random game, the end included."""
    state = engine.new_game(players, seed)
    rng = random.Random(seed)
    yield state
    for _ in range(MAX_MOVES):
        seats = engine.current_seats(state)
        if not seats:
            return
        seat = rng.choice(seats)
        state = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))
        yield state
    raise AssertionError(f"{engine.name} did not end within {MAX_MOVES} moves")


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_random_playouts_end_with_an_outcome_and_winners_in_the_view(setup):
    name, players = setup
    engine = ENGINES[name]
    for seed in range(3):
        *_, last = playout(engine, players, seed)
        outcome = engine.outcome(last)
        assert engine.current_seats(last) == ()
        assert outcome is not None
        assert all(engine.legal_moves(last, seat) == [] for seat in range(players))
        for seat in (None, *range(players)):
            view = engine.view(last, seat)
            assert view["to_move"] == []
            assert view["winners"] == list(outcome.winners)


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_every_state_keeps_the_contract(setup):
    """Views carry the common keys and are JSON; the running/over signals agree;
    every legal move applies; the time-out move is legal; dump/load round-trips."""
    name, players = setup
    engine = ENGINES[name]
    rng = random.Random(7)
    for state in playout(engine, players, seed=11):
        seats = engine.current_seats(state)
        assert (engine.outcome(state) is None) == bool(seats)
        for seat in (None, *range(players)):
            view = engine.view(state, seat)
            assert set(COMMON_VIEW_KEYS) <= set(view), f"missing {set(COMMON_VIEW_KEYS) - set(view)}"
            assert json.loads(json.dumps(view)) == view
            assert view["players"] == players
            assert view["to_move"] == list(seats)
            assert len(view["scores"]) == players
            assert (view["winners"] is None) == bool(seats)
            event = view["last_event"]
            assert event is None or ({"type", "seat"} <= set(event))
        assert engine.dump(engine.load(engine.dump(state))) == engine.dump(state)
        for seat in seats:
            legal = engine.legal_moves(state, seat)
            assert legal, "a seat to move always has a legal move"
            assert engine.timeout_move(state, seat) in legal
            for move in rng.sample(legal, min(len(legal), 4)):
                engine.apply(state, seat, move)


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_other_seats_cannot_move(setup):
    name, players = setup
    engine = ENGINES[name]
    state = engine.new_game(players, seed=3)
    seats = engine.current_seats(state)
    move = engine.legal_moves(state, seats[0])[0]
    for seat in set(range(players)) - set(seats):
        assert engine.legal_moves(state, seat) == []
        with pytest.raises(NotYourTurn):
            engine.apply(state, seat, move)


@pytest.mark.parametrize("name", list(ENGINES))
@pytest.mark.parametrize(
    "text",
    ["", "{", "null", "[]", "42", '"text"', "{}", '{"players": "two"}', "[1, 2, 3]"],
)
def test_unreadable_text_is_a_game_error(name, text):
    with pytest.raises(GameError):
        ENGINES[name].load(text)


@pytest.mark.parametrize("name", list(ENGINES))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_damaged_saves_load_or_raise_a_game_error(name, data):
    """A saved state with one value changed, or one key gone, never raises anything but GameError."""
    engine = ENGINES[name]
    saved = json.loads(engine.dump(engine.new_game(engine.min_players, seed=5)))
    assert isinstance(saved, dict)
    key = data.draw(st.sampled_from(sorted(saved)))
    junk = st.one_of(
        st.none(), st.integers(-3, 10**6), st.text(max_size=3), st.lists(st.integers(), max_size=2)
    )
    if data.draw(st.booleans()):
        del saved[key]
    else:
        saved[key] = data.draw(junk)
    with contextlib.suppress(GameError):
        engine.load(json.dumps(saved))


@pytest.mark.parametrize("name", list(ENGINES))
@settings(max_examples=30, deadline=None)
@given(
    move=st.dictionaries(
        st.sampled_from(["type", "cell", "card", "side", "column", "place", "seat"]),
        st.one_of(st.none(), st.integers(-5, 200), st.text(max_size=4)),
        max_size=4,
    )
)
def test_any_move_is_applied_or_refused_with_a_game_error(name, move):
    engine = ENGINES[name]
    state = engine.new_game(engine.min_players, seed=9)
    seat = engine.current_seats(state)[0]
    if move in engine.legal_moves(state, seat):
        engine.apply(state, seat, move)
    else:
        with pytest.raises(IllegalMove):
            engine.apply(state, seat, move)


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_hidden_information_stays_hidden(setup):
    """Twin states that differ only in what a seat cannot see give that seat equal views."""
    name, players = setup
    engine = ENGINES[name]
    twin = TWINS[name]
    rng = random.Random(13)
    states = list(playout(engine, players, seed=17))
    for state in states[:: max(1, len(states) // 12)]:
        for seat in (None, *range(players)):
            other = twin(state, seat, rng)
            assert engine.view(other, seat) == engine.view(state, seat)


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_the_first_seat_is_drawn_by_lot(setup):
    """Over many seeds every seat starts equally often (within five standard deviations)."""
    name, players = setup
    engine = ENGINES[name]
    trials = 1200
    starts = [0] * players
    for seed in range(trials):
        event = engine.view(engine.new_game(players, seed), None)["last_event"]
        assert event is not None and event["type"] == "start"
        starts[event["seat"]] += 1
    expected = trials / players
    spread = 5 * (trials * (1 / players) * (1 - 1 / players)) ** 0.5
    assert all(abs(count - expected) <= spread for count in starts), starts


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_a_move_said_to_reveal_nothing_teaches_no_seat_anything(setup):
    """After a move `reveals` calls harmless, every seat's (and a spectator's) view follows from
    its view before and the move: twins it could not tell apart stay twins after the same move.
    A move names a card by its place in the mover's hand, so the twins of the others are held to
    the same card laid (the same public view after the move); the mover's own twin always is."""
    name, players = setup
    engine = ENGINES[name]
    twin = TWINS[name]
    rng = random.Random(19)
    states = list(playout(engine, players, seed=23))
    for state in states[:: max(1, len(states) // 40)]:
        for seat in engine.current_seats(state):
            legal = engine.legal_moves(state, seat)
            for move in rng.sample(legal, min(len(legal), 6)):
                after = engine.apply(state, seat, move)
                if engine.reveals(state, seat, move, after):
                    continue
                for observer in (None, *range(players)):
                    other = twin(state, observer, rng)
                    with contextlib.suppress(GameError):  # the twin may not hold what was laid
                        moved = engine.apply(other, seat, move)
                        if observer == seat or engine.view(moved, None) == engine.view(after, None):
                            assert engine.view(moved, observer) == engine.view(after, observer)


@pytest.mark.parametrize(
    ("name", "players", "kinds"),
    [
        ("tremember", 2, {"take": True, "push": False, "flip": True}),
        ("rookie", 2, {"flip": True, "place": False, "turn_down": False}),
        ("triominos", 2, {"buy": True, "place": False}),
        ("tetris_link", 2, {"place": True}),
        ("sequence_numbers", 2, {"play": True, "trade": True}),
        ("nim", 2, {"take": False}),
    ],
)
def test_flips_draws_and_rolls_reveal_and_other_moves_do_not(name, players, kinds):
    engine = ENGINES[name]
    found: dict[str, set[bool]] = {}
    for state in playout(engine, players, seed=29):
        for seat in engine.current_seats(state):
            for move in engine.legal_moves(state, seat)[:8]:
                after = engine.apply(state, seat, move)
                found.setdefault(move["type"], set()).add(engine.reveals(state, seat, move, after))
    for kind, revealing in kinds.items():  # a last move that ends the game draws and rolls nothing
        assert revealing in found[kind] if revealing else found[kind] == {False}, kind
