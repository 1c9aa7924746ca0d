"""Pure game engines (standard library only) and the registry of them."""

from games.base import Engine, GameError, IllegalMove, NotYourTurn, Outcome

ENGINES: dict[str, Engine] = {}

__all__ = ["ENGINES", "Engine", "GameError", "IllegalMove", "NotYourTurn", "Outcome"]
