"""The games this bot hosts: each game's spec, declared in its own cog module, listed once."""

from cogs import rookie, sequence_numbers, tetris_link, tremember, triominos
from matches.spec import Games

GAMES = Games(module.SPEC for module in (tremember, tetris_link, rookie, triominos, sequence_numbers))

__all__ = ["GAMES"]
