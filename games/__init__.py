"""Pure game engines (standard library only) and the registry of them."""

from games import rookie, sequence_numbers, tetris_link, tremember, triominos
from games.base import Engine, GameError, IllegalMove, NotYourTurn, Outcome

ENGINES: dict[str, Engine] = {
    module.ENGINE.name: module.ENGINE
    for module in (tremember, tetris_link, rookie, triominos, sequence_numbers)
}

__all__ = ["ENGINES", "Engine", "GameError", "IllegalMove", "NotYourTurn", "Outcome"]
