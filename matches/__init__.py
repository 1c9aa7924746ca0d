"""The match framework every game runs on: lobby, turns, clock, board publishing and
private views, as collaborators of one `MatchService`.

`matches` never imports `bot.py` or a game's cog: what it needs of a game is the
`GameUI` protocol (matches/game_ui.py), and of the bot a `discord.Client` and a storage.
"""

from matches.service import MatchService

__all__ = ["MatchService"]
