"""Computer players: a seat's move chosen from what that seat has seen.

`choose(game, level, views, legal, rng)` returns one element of `legal`. `views` are
the deciding seat's own `engine.view(state, seat)` after the start and after every
move so far, oldest first; the match state itself is never passed. A game gets a
player by adding a module `ai/<game>.py` with `choose(level, views, legal, rng)`.
Standard library only; the players may import `games` to simulate.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from collections.abc import Sequence

from games import ENGINES

LEVELS = ("easy", "normal", "hard")
# The games that have a computer player.
GAMES = tuple(name for name in ENGINES if importlib.util.find_spec(f"ai.{name}") is not None)


def choose(game: str, level: str, views: Sequence[dict], legal: list[dict], rng: random.Random) -> dict:
    """The move a computer seat at `level` makes now: one element of `legal`."""
    if game not in ENGINES:
        raise ValueError(f"There is no game {game!r} — choose one of {', '.join(sorted(ENGINES))}.")
    if level not in LEVELS:
        raise ValueError(f"There is no level {level!r} — choose one of {', '.join(LEVELS)}.")
    if not legal:
        raise ValueError("There is no legal move to choose from — ask only the seat that is to move.")
    if not views:
        raise ValueError("A computer player needs at least the view at the start of the match.")
    try:
        player = importlib.import_module(f"ai.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"ai.{game}":
            raise
        raise ValueError(
            f"{ENGINES[game].title} has no computer player yet — seat a person there instead."
        ) from None
    move: dict = player.choose(level, views, legal, rng)
    return move
