"""Replays: a finished match's move log played again into public views and drawn as one
animated image, off the event loop. A running match has none: it would tell secrets."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Mapping

import discord

from data.repositories import Database
from data.storage import MatchRow
from games import GameError
from games.replay import replay_states
from matches.game_ui import GameUI
from matches.match import alt_text, standing, tell
from render.replay import replay

FINISHED = ("finished", "abandoned")


class Replays:
    """Answers `/replay` and the Replay button of a finished board."""

    def __init__(self, storage: Database, games: Mapping[str, GameUI]) -> None:
        self.storage = storage
        self.games = games

    async def send(self, interaction: discord.Interaction, match_id: int, *, private: bool) -> None:
        """Answer with the replay of match `match_id` of this server, or say why there is none."""
        row = await self.storage.matches.get(match_id)
        game = self.games.get(row.game) if row is not None else None
        if row is None or game is None or row.guild_id != interaction.guild_id:
            await tell(interaction, f"There is no match #{match_id} to replay here — `/history` lists them.")
        elif row.status == "running":
            await tell(
                interaction, f"Match #{match_id} is still being played: its replay comes once it ends."
            )
        elif row.status not in FINISHED:
            await tell(interaction, f"Match #{match_id} never finished, so it has no replay.")
        else:
            await interaction.response.defer(ephemeral=private, thinking=True)
            try:
                file = await asyncio.to_thread(
                    replay_file, game, row, await self.storage.matches.move_log(row.id)
                )
            except GameError as error:
                await tell(interaction, f"Match #{match_id} cannot be replayed: {error}")
                return
            await interaction.followup.send(file=file, ephemeral=private)


def replay_file(game: GameUI, row: MatchRow, log: list[tuple[int, int, dict]]) -> discord.File:
    """The replay of a finished match as an attachment, described for screen readers."""
    engine, players = game.engine, len(row.players)
    states = replay_states(engine, players, row.seed, game.game_options(row.options, players), log)
    title = f"{engine.title} #{row.id}"
    made = replay(game.game, [engine.view(state, None) for state in states], title=title)
    result = standing(engine, states[-1])
    alt = f"Animated replay of {title}, one frame per move: {len(log)} moves. {result}"
    return discord.File(io.BytesIO(made.data), filename=made.filename, description=alt_text(alt))
