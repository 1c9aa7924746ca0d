"""The engine contract every game implements, and the errors it raises."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

State = TypeVar("State")


class GameError(ValueError):
    """A request the game cannot honour; the message is fit to show a player."""


class IllegalMove(GameError):
    """The move breaks a rule or is not on offer right now."""


class NotYourTurn(GameError):
    """The seat is not one of the seats to decide now."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    `scores` are by seat; `winners` are seats (every seat of a winning team);
    `draw` is true when several seats or teams share the win; `teams`, when the game
    has them, lists the seats of each team; `tiebreak` names what decided a tie.
    """

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    draw: bool = False
    teams: tuple[tuple[int, ...], ...] | None = None
    tiebreak: str | None = None
    details: dict[str, Any] = field(default_factory=dict)


class Engine(Protocol[State]):
    """A pure, deterministic game: every chance comes from the seed in the state."""

    name: str
    title: str
    min_players: int
    max_players: int

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> State: ...

    def current_seats(self, state: State) -> tuple[int, ...]: ...

    def legal_moves(self, state: State, seat: int) -> list[dict]: ...

    def apply(self, state: State, seat: int, move: dict) -> State: ...

    def view(self, state: State, seat: int | None) -> dict: ...

    def outcome(self, state: State) -> Outcome | None: ...

    def resign(self, state: State, seat: int) -> State: ...

    def dump(self, state: State) -> str: ...

    def load(self, text: str) -> State: ...


def chance(seed: int, step: int) -> random.Random:
    """The generator for the `step`-th chance event of the game seeded with `seed`.

    Keeping only (seed, step) in the state makes chance replayable and the state small.
    """
    return random.Random(f"{seed}/{step}")


def check_players(engine: Engine, players: int) -> None:
    """Raise a `GameError` unless `players` is a seat count the engine supports."""
    if not engine.min_players <= players <= engine.max_players:
        raise GameError(
            f"{engine.title} is for {engine.min_players}–{engine.max_players} players, "
            f"not {players}."
        )


def check_seat(state_seats: tuple[int, ...], seat: int) -> None:
    """Raise `NotYourTurn` unless `seat` is one of the seats to decide now."""
    if seat not in state_seats:
        raise NotYourTurn("It is not your turn — wait for the player named on the board.")
