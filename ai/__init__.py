"""Computer players: a seat's move chosen from what that seat has seen.

A game's player is a function `choose(level, views, legal, rng)` in `ai/<game>.py` that
returns one element of `legal`; the game's spec names it. `views` are the deciding seat's
own `engine.view(state, seat)` after the start and after every move so far, oldest first;
the match state itself is never passed. Standard library only; the players may import
`games` to simulate.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

LEVELS = ("easy", "normal", "hard")

Move = TypeVar("Move")
Player = Callable[[str, Sequence[Any], list[Move], random.Random], Move]
"""A game's computer player: `choose(level, views, legal, rng)`."""


def choose(
    player: Player[Move] | None,
    level: str,
    views: Sequence[Any],
    legal: list[Move],
    rng: random.Random,
) -> Move:
    """The move `player` makes at `level` now: one element of `legal`."""
    if player is None:
        raise ValueError("This game has no computer player yet — seat a person there instead.")
    if level not in LEVELS:
        raise ValueError(f"There is no level {level!r} — choose one of {', '.join(LEVELS)}.")
    if not legal:
        raise ValueError("There is no legal move to choose from — ask only the seat that is to move.")
    if not views:
        raise ValueError("A computer player needs at least the view at the start of the match.")
    return player(level, views, legal, rng)
