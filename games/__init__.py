"""Pure game engines (standard library only): one module per game, and the contract they share.

Which games a bot hosts is not decided here: each game's spec (matches/spec.py) names its
engine, and the bot is given the specs it hosts."""

from games.base import Engine, GameError, IllegalMove, NotYourTurn, Outcome

__all__ = ["Engine", "GameError", "IllegalMove", "NotYourTurn", "Outcome"]
