"""The engine contract every game implements, and the helpers engines share.

An engine is a pure, deterministic rule book (modelled on OpenSpiel and boardgame.io):

- **Seats** are ints `0..players-1`; engines never see Discord users.
- **Chance** comes only from `chance(seed, step)`: a seed and a move list replay a game.
- **Who starts** is drawn by lot from the seed, one way for every game: `first_seat`.
  Seats (and teams) stay as they sat down; only the first seat to act is drawn.
- **A turn** of several decisions (take, push, flip) is several moves. `legal_moves`
  returns the complete list for a seat to decide now (`[]` for any other seat) and
  `apply` accepts exactly those moves, raising `NotYourTurn` or `IllegalMove` otherwise.
- **The end**: a game is over exactly when `current_seats(state)` is `()`; then, and
  only then, `outcome(state)` is an `Outcome`. No other flag says so.
- **Errors**: every refusal is a `GameError` whose message a player can act on, and
  `load` raises `GameError` for any text it cannot read (never JSON, key or type errors).
  The message is a literal English template and its values (`IllegalMove("{cell} is
  taken.", cell="C4")`), so the framework can show it in the player's language.
- **Player-facing text** names seats by their letter (A, B, ...), cells and places by
  the board's own coordinates, and counts from 1 (turn 1, column 1, card 1).
- **Views** are the only way out of a state. `view(state, seat)` is exactly what that
  seat may know and `view(state, None)` what a spectator may know: two states that
  differ only in what a seat cannot see give that seat equal views. Every view is
  JSON-able and carries at least the keys of `COMMON_VIEW_KEYS`:

  `players`     int, the number of seats
  `to_move`     list of the seats to decide now (`[]` when over)
  `scores`      list of ints by seat, as the game counts them
  `last_event`  dict or None: what the last move (or the start) did, with at least
                `type` (str) and `seat` (int or None); at the start it is
                `{"type": "start", "seat": <the seat drawn to start>, ...}`
  `winners`     None while the game runs; when over, the list of winning seats
                (every seat of a winning team; several on a draw; `[]` if nobody won)
  `resigned`    list of seats that resigned (or were removed)

  Each game adds the board keys documented at the end of its file in `rules/`.
- **Absent players**: `timeout_move(state, seat)` is the move the turn clock plays for
  a seat whose time ran out: one of `legal_moves(state, seat)`, the least consequential
  the rules allow, never one that scores for the absent player where a neutral move
  exists. Each engine's docstring of `timeout_move` says what it picks and why.
- **What a move reveals**: `reveals(state, seat, move, after)` (`after`: the state the move
  made) is true when some seat (or a spectator) learns from the move what it could not know
  before — a card flipped or drawn, a die rolled — and false when every view after it follows
  from that view before it and the move (the mover's own cards being laid are no secret kept
  from anyone then).
  Only a move that reveals nothing may be taken back: what was seen cannot be unseen.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypedDict, TypeVar

State = TypeVar("State")
Loaded = TypeVar("Loaded")
View_co = TypeVar("View_co", covariant=True)
Move = TypeVar("Move")
EventT = TypeVar("EventT")

COMMON_VIEW_KEYS = ("players", "to_move", "scores", "last_event", "winners", "resigned")


class Event(TypedDict):
    """The least every `last_event` carries: what happened (`type`) and who did it."""

    type: str
    seat: int | None


class CommonView(TypedDict, Generic[EventT]):
    """The keys every view carries (see the module docstring); a game's view type extends it,
    `EventT` being that game's `last_event` type."""

    players: int
    to_move: list[int]
    scores: list[int]
    last_event: EventT | None
    winners: list[int] | None
    resigned: list[int]


FIRST_SEAT_STEP = -1  # the chance step of the draw for the first seat, apart from every other


class Term(str):
    """A word of a game's vocabulary inside a refusal ("from the left", "red"): English like
    the template, shown translated by the framework. Write it as `Term("…")` with a literal,
    so that the translators' extraction finds it."""

    __slots__ = ()


MessageValue = str | int | float | tuple[str, ...]
"""What fills a GameError's placeholders; a tuple is a choice between its items ("A, B or C")."""


def _english_choice(items: tuple[str, ...]) -> str:
    """Items as a choice in English: "A", "A or B", "A, B or C"."""
    return " or ".join(items) if len(items) < 3 else f"{', '.join(items[:-1])} or {items[-1]}"


class GameError(ValueError):
    """A request the game cannot honour; the message is fit to show a player.

    `template` is the English message with `{placeholders}` and `values` fills them, so
    the framework can show it in the player's language; `str(error)` is the English text.
    Raise sites pass the template as a literal: the translators' extraction finds it there.
    """

    def __init__(self, template: str, /, **values: MessageValue) -> None:
        self.template = template
        self.values: dict[str, MessageValue] = dict(values)
        english = {key: _english_choice(v) if isinstance(v, tuple) else v for key, v in values.items()}
        super().__init__(template.format_map(english) if values else template)


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


class Engine(Protocol[State, View_co, Move]):
    """A pure, deterministic game: every chance comes from the seed in the state. `View_co` is
    the game's view type (a `CommonView`), `Move` its move type."""

    name: str
    title: str
    min_players: int
    max_players: int

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> State: ...

    def current_seats(self, state: State) -> tuple[int, ...]: ...

    def legal_moves(self, state: State, seat: int) -> list[Move]: ...

    def apply(self, state: State, seat: int, move: Move) -> State: ...

    def timeout_move(self, state: State, seat: int) -> Move: ...

    def view(self, state: State, seat: int | None) -> View_co: ...

    def outcome(self, state: State) -> Outcome | None: ...

    def reveals(self, state: State, seat: int, move: Move, after: State) -> bool: ...

    def resign(self, state: State, seat: int) -> State: ...

    def dump(self, state: State) -> str: ...

    def load(self, text: str) -> State: ...


def chance(seed: int, step: int) -> random.Random:
    """The generator for the `step`-th chance event of the game seeded with `seed`.

    Keeping only (seed, step) in the state makes chance replayable and the state small.
    """
    return random.Random(f"{seed}/{step}")


def first_seat(seed: int, players: int) -> int:
    """The seat drawn by lot to start (or to begin the starting rolls): uniform over seats."""
    return chance(seed, FIRST_SEAT_STEP).randrange(players)


AnyEngine = Engine[Any, Any, Any]
"""An engine of any game, as the framework holds them."""


def check_players(engine: AnyEngine, players: int) -> None:
    """Raise a `GameError` unless `players` is a seat count the engine supports."""
    if not engine.min_players <= players <= engine.max_players:
        raise GameError(
            "{game} is for {low}–{high} players, not {players}.",
            game=engine.title,
            low=engine.min_players,
            high=engine.max_players,
            players=players,
        )


def seat_counts(engine: AnyEngine) -> tuple[int, ...]:
    """The seat counts a game can start with under its default options (Sequence Numbers:
    2, 3, 4 or 6 — five cannot form equal teams)."""
    counts = []
    for players in range(engine.min_players, engine.max_players + 1):
        try:
            engine.new_game(players, 0, {})
        except GameError:
            continue
        counts.append(players)
    return tuple(counts)


def check_seat(state_seats: tuple[int, ...], seat: int) -> None:
    """Raise `NotYourTurn` unless `seat` is one of the seats to decide now."""
    if seat not in state_seats:
        raise NotYourTurn("It is not your turn — wait for the player named on the board.")


def load_json(text: str, build: Callable[[Any], Loaded], title: str) -> Loaded:
    """Parse a dumped state with `build`; anything unreadable becomes one `GameError`."""
    try:
        return build(json.loads(text))
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as error:
        if isinstance(error, GameError):
            raise
        raise GameError(
            "This saved {game} game cannot be read ({problem}).", game=title, problem=error.__class__.__name__
        ) from error


def common_view(
    *,
    players: int,
    to_move: tuple[int, ...] | list[int],
    scores: tuple[int, ...] | list[int],
    last_event: EventT | None,
    outcome: Outcome | None,
    resigned: tuple[int, ...] | list[int] = (),
) -> CommonView[EventT]:
    """The keys every view carries (see the module docstring), in one shape for all games."""
    return {
        "players": players,
        "to_move": list(to_move),
        "scores": list(scores),
        "last_event": last_event,
        "winners": None if outcome is None else list(outcome.winners),
        "resigned": sorted(resigned),
    }
