"""Every state of a finished match, rebuilt from its seed, options and stored move log.

The bot logs a move as `(turn, seat, move)`: a player's move as the engine's move dict,
a move the turn clock played for an absent player with an extra `"by": "clock"` key,
and a resignation as `{"type": "resign"}` (`"reason": "timeout"` when the clock removed
the player), which the engine applies with `resign`. Replaying the log from
`new_game(players, seed, options)` gives back every state the match went through.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import AnyEngine, GameError

RESIGN = "resign"
CLOCK_KEY = "by"  # the key the turn clock adds to the moves it played


def replay_states(
    engine: AnyEngine,
    players: int,
    seed: int,
    options: Mapping[str, Any],
    log: Sequence[tuple[int, int, dict[str, Any]]],
) -> list[Any]:
    """The states of the match from its start to its last logged move (one more than the log).

    Raises `GameError` naming the first entry that does not replay.
    """
    state = engine.new_game(players, seed, options)
    states = [state]
    for index, (turn, seat, move) in enumerate(log):
        if turn != index:
            raise GameError(
                "The move log has move {found} where move {expected} belongs: the log is damaged.",
                found=turn + 1,
                expected=index + 1,
            )
        try:
            state = _apply(engine, state, seat, move)
        except GameError as error:
            raise GameError(
                "Move {turn} of the log does not replay: {error}", turn=turn + 1, error=str(error)
            ) from error
        states.append(state)
    return states


def _apply(engine: AnyEngine, state: Any, seat: int, move: dict[str, Any]) -> Any:
    """One logged move applied as the bot applied it."""
    if not isinstance(move, dict) or isinstance(seat, bool) or not isinstance(seat, int):
        raise GameError("it is not a seat and a move.")
    if move.get("type") == RESIGN:
        return engine.resign(state, seat)
    return engine.apply(state, seat, {key: value for key, value in move.items() if key != CLOCK_KEY})
