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
from locales import command, gettext, ngettext
from locales.audience import private_language, public_language
from matches.game_ui import GameUI
from matches.match import alt_text, error_text, standing, tell
from render.replay import replay

FINISHED = ("finished", "abandoned")


class Replays:
    """Answers `/replay` and the Replay button of a finished board."""

    def __init__(self, storage: Database, games: Mapping[str, GameUI]) -> None:
        self.storage = storage
        self.games = games

    async def send(self, interaction: discord.Interaction, match_id: int, *, private: bool) -> None:
        """Answer with the replay of match `match_id` of this server, or say why there is none; a
        public replay is described in the server's language, a private one in the member's."""
        row = await self.storage.matches.get(match_id)
        game = self.games.get(row.game) if row is not None else None
        mine = private_language(interaction)
        if row is None or game is None or row.guild_id != interaction.guild_id:
            history = f"`{command(mine, 'history')}`"
            text = gettext(
                mine,
                "There is no match #{id} to replay here — {history} lists them.",
                id=match_id,
                history=history,
            )
            await tell(interaction, text)
        elif row.status == "running":
            text = gettext(
                mine, "Match #{id} is still being played: its replay comes once it ends.", id=match_id
            )
            await tell(interaction, text)
        elif row.status not in FINISHED:
            await tell(
                interaction, gettext(mine, "Match #{id} never finished, so it has no replay.", id=match_id)
            )
        else:
            await interaction.response.defer(ephemeral=private, thinking=True)
            lang = mine if private else await public_language(self.storage.settings, interaction)
            try:
                file = await asyncio.to_thread(
                    replay_file, game, row, await self.storage.matches.move_log(row.id), lang
                )
            except GameError as error:
                refusal = error_text(error, mine)
                text = gettext(mine, "Match #{id} cannot be replayed: {error}", id=match_id, error=refusal)
                await tell(interaction, text)
                return
            await interaction.followup.send(file=file, ephemeral=private)


def replay_file(game: GameUI, row: MatchRow, log: list[tuple[int, int, dict]], lang: str) -> discord.File:
    """The replay of a finished match as an attachment, described for screen readers in `lang`."""
    engine, players = game.engine, len(row.players)
    states = replay_states(engine, players, row.seed, game.game_options(row.options, players), log)
    title = f"{engine.title} #{row.id}"
    made = replay(game.game, [engine.view(state, None) for state in states], title=title, lang=lang)
    alt = ngettext(
        lang,
        "Animated replay of {title}, one frame per move: {n} move. {result}",
        "Animated replay of {title}, one frame per move: {n} moves. {result}",
        len(log),
        title=title,
        result=standing(engine, states[-1], lang),
    )
    return discord.File(io.BytesIO(made.data), filename=made.filename, description=alt_text(alt, lang))
