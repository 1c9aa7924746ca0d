"""Replaying a stored move log (games/replay.py) gives back every state of the match."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest

from games import Engine, GameError
from games.replay import replay_states
from tests.registry import ENGINES

SETUPS = [
    *((name, engine.min_players, {}) for name, engine in ENGINES.items()),
    *((name, engine.max_players, {}) for name, engine in ENGINES.items()),
    ("tetris_link", 3, {"dice": False}),
    ("rookie", 4, {"variant": "team", "deck": "pocket"}),
    ("rookie", 3, {"variant": "kids"}),
    ("triominos", 3, {"open_hands": True, "joker": False}),
    ("sequence_numbers", 6, {"teams": 3}),
]
MAX_MOVES = 5000

Log = list[tuple[int, int, dict]]


def _id(setup: tuple[str, int, dict]) -> str:
    name, players, options = setup
    return f"{name}-{players}p-" + "-".join(f"{k}={v}" for k, v in options.items())


def logged_match(
    engine: Engine, players: int, seed: int, options: Mapping[str, Any], *, resign: float = 0.01
) -> tuple[list[Any], Log]:
    """A seeded random match to its end, logged as the bot logs it: the states it went through
    and `(turn, seat, move)` entries. Some turns are the clock's (`"by": "clock"`); now and
    then a seat still playing resigns (some through the clock, as a timeout)."""
    rng = random.Random(seed)
    state = engine.new_game(players, seed, options)
    states, log = [state], []
    while seats := engine.current_seats(state):
        assert len(log) < MAX_MOVES, f"{engine.name} did not end within {MAX_MOVES} moves"
        playing = [s for s in range(players) if s not in engine.view(state, None)["resigned"]]
        if rng.random() < resign:
            seat = rng.choice(playing)
            move: dict = rng.choice([{"type": "resign"}, {"type": "resign", "reason": "timeout"}])
            state = engine.resign(state, seat)
        elif rng.random() < 0.25:
            seat = seats[0]
            played = engine.timeout_move(state, seat)
            state = engine.apply(state, seat, played)
            move = {**played, "by": "clock"}
        else:
            seat = rng.choice(seats)
            move = rng.choice(engine.legal_moves(state, seat))
            state = engine.apply(state, seat, move)
        log.append((len(log), seat, move))
        states.append(state)
    return states, log


@pytest.mark.parametrize("setup", SETUPS, ids=_id)
def test_a_logged_match_replays_through_every_state_it_went_through(setup):
    name, players, options = setup
    engine = ENGINES[name]
    for seed in range(3):
        played, log = logged_match(engine, players, seed, options)
        replayed = replay_states(engine, players, seed, options, log)
        assert [engine.dump(state) for state in replayed] == [engine.dump(state) for state in played]
        assert engine.current_seats(replayed[-1]) == ()


@pytest.mark.parametrize("name", list(ENGINES))
def test_the_log_of_a_match_holds_clock_moves_and_resignations_and_still_replays(name):
    """The playouts above are only worth their name if the logs hold what the bot writes."""
    engine = ENGINES[name]
    kinds: set[str] = set()
    for seed in range(6):
        _, log = logged_match(engine, engine.max_players, seed, {}, resign=0.05)
        kinds |= {
            "clock" if move.get("by") == "clock" else move.get("reason", move["type"]) for *_, move in log
        }
    assert {"clock", "resign", "timeout"} <= kinds


class Strict:
    """A real engine whose `apply` takes exactly a legal move, as the contract words it
    (the engines themselves let an unknown extra key pass)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self.engine, name)

    def apply(self, state: Any, seat: int, move: dict) -> Any:
        if move not in self.engine.legal_moves(state, seat):
            raise GameError(f"{move} is not one of the legal moves.")
        return self.engine.apply(state, seat, move)


@pytest.mark.parametrize("name", list(ENGINES))
def test_the_clock_s_mark_is_dropped_so_the_engine_gets_its_own_move(name):
    engine = ENGINES[name]
    played, log = logged_match(engine, 2, 3, {}, resign=0)
    assert any(move.get("by") == "clock" for *_, move in log)
    replayed = replay_states(Strict(engine), 2, 3, {}, log)  # type: ignore[arg-type]
    assert engine.dump(replayed[-1]) == engine.dump(played[-1])


@pytest.mark.parametrize("name", list(ENGINES))
def test_a_move_that_is_illegal_at_its_point_in_the_log_is_refused(name):
    engine = ENGINES[name]
    players = engine.min_players
    _, log = logged_match(engine, players, 4, {}, resign=0)
    turn, seat, _ = log[3]
    tampered = [*log[:3], (turn, seat, {"type": "not a move"}), *log[4:]]
    with pytest.raises(GameError, match="Move 4 of the log does not replay"):
        replay_states(engine, players, 4, {}, tampered)


@pytest.mark.parametrize("name", list(ENGINES))
def test_a_move_logged_for_a_seat_not_to_move_is_refused(name):
    engine = ENGINES[name]
    players = engine.max_players
    _, log = logged_match(engine, players, 2, {}, resign=0)
    turn, seat, move = log[0]
    with pytest.raises(GameError, match="Move 1 of the log does not replay"):
        replay_states(engine, players, 2, {}, [(turn, (seat + 1) % players, move), *log[1:]])


@pytest.mark.parametrize("name", list(ENGINES))
def test_a_move_logged_after_the_end_is_refused(name):
    engine = ENGINES[name]
    _, log = logged_match(engine, 2, 5, {}, resign=0)
    *_, (turn, seat, move) = log
    with pytest.raises(GameError, match=f"Move {turn + 2} of the log does not replay"):
        replay_states(engine, 2, 5, {}, [*log, (turn + 1, seat, move)])


def test_a_log_with_a_missing_move_is_refused_as_damaged():
    engine = ENGINES["tetris_link"]
    _, log = logged_match(engine, 2, 1, {}, resign=0)
    with pytest.raises(GameError, match="has move 3 where move 2 belongs"):
        replay_states(engine, 2, 1, {}, [log[0], *log[2:]])


def test_an_entry_that_is_not_a_move_is_refused():
    engine = ENGINES["tremember"]
    with pytest.raises(GameError, match="Move 1 of the log does not replay: it is not a seat and a move"):
        replay_states(engine, 2, 1, {}, [(0, 0, ["take", 1])])  # type: ignore[list-item]
