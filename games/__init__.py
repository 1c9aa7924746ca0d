"""Pure game engines (standard library only) and the registry of them."""

from games import tetris_link
from games.base import Engine, GameError, IllegalMove, NotYourTurn, Outcome

ENGINES: dict[str, Engine] = {engine.name: engine for engine in (tetris_link.ENGINE,)}

__all__ = ["ENGINES", "Engine", "GameError", "IllegalMove", "NotYourTurn", "Outcome"]
