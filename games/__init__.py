"""Pure game engines (standard library only) and the registry of them."""

from games import rookie, sequence_numbers, tetris_link, tremember, triominos
from games.base import Engine, GameError, IllegalMove, NotYourTurn, Outcome

ENGINES: dict[str, Engine] = {
    module.ENGINE.name: module.ENGINE
    for module in (tremember, tetris_link, rookie, triominos, sequence_numbers)
}


def title_of(game: str) -> str:
    """A game's title for lists of matches, also for a stored game this bot no longer hosts."""
    engine = ENGINES.get(game)
    return engine.title if engine is not None else f"{game} (no longer hosted)"


__all__ = ["ENGINES", "Engine", "GameError", "IllegalMove", "NotYourTurn", "Outcome", "title_of"]
