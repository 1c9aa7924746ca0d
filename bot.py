"""Entry point: the bot itself (its commands, its database, its matches) and `python bot.py`.

python bot.py            # Discord when DISCORD_TOKEN is set, else the local table
python bot.py --local    # the local table (SimCord's browser preview) in any case

Its settings are read in `settings.py`, it is run by `launcher.py`, and played offline on the
local table of `local_table.py`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
from collections.abc import Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

import launcher
from cogs.registry import GAMES
from cogs.tree import GameTree
from data import open_storage
from data.model import StorageUnavailable
from data.repositories import Database
from locales.translator import CatalogueTranslator
from matches import MatchService
from matches.components import DYNAMIC_ITEMS
from matches.spec import Games
from settings import Settings

# The server-wide commands; each game's cog comes from its spec.
EXTENSIONS = ("cogs.general", "cogs.league", "cogs.achievements", "cogs.tournament")

log = logging.getLogger("game_table")


class GameBot(commands.Bot):
    """The game-table bot: the match service over its database."""

    storage: Database
    matches: MatchService

    def __init__(self, settings: Settings, games: Games = GAMES, **options: Any) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            tree_cls=GameTree,
            **options,
        )
        self.settings = settings
        self.games = games

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogueTranslator())
        self.storage = await open_storage(self.settings.database)
        self.matches = MatchService(self, self.storage, self.games, self.settings.shards)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        for game in self.matches.games.values():  # each game's presentation is its cog
            if not isinstance(game, commands.Cog):
                raise TypeError(f"The presentation of {game.game} must be a cog (a GameCog).")
            await self.add_cog(game)
        await self.matches.prepare()
        self.matches.start()
        resumed = await self.matches.resume()
        log.info("Resumed %d running matches", resumed)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync to the development guild if set, else globally — only when the tree changed,
        its names, descriptions and their translations being what Discord is sent."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        payload = [
            await command.get_translated_payload(self.tree, translator)
            if translator is not None
            else command.to_dict(self.tree)
            for command in self.tree.get_commands(guild=guild)
        ]
        target = f"guild:{guild.id}" if guild else "global"
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"command_tree:{target}"
        if await self.storage.settings.get_meta(key) == digest:
            return
        await self.tree.sync(guild=guild)
        await self.storage.settings.set_meta(key, digest)
        log.info("Synced %d commands (%s)", len(payload), target)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from a server: its matches are set aside (resumable) and left alone."""
        await self._lose_places(self.matches.places.guild_removed(guild.id), f"server {guild.id}")

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel was deleted: the matches played in it end there, set aside."""
        await self._lose_places(self.matches.places.channel_deleted(channel.id), f"channel {channel.id}")

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A thread was deleted: the match played in it ends there, set aside."""
        thread = payload.thread_id
        await self._lose_places(self.matches.places.channel_deleted(thread), f"thread {thread}")

    async def _lose_places(self, work: Coroutine[Any, Any, None], place: str) -> None:
        """Set aside the matches of a place that is gone; a database fault leaves them to the
        first refused request, which sets them aside then."""
        try:
            await work
        except StorageUnavailable as error:
            log.warning("The matches of %s are set aside later: %s", place, error)

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if hasattr(self, "matches"):
                await self.matches.close()
            # An open connection's thread would keep the process alive after the bot ends.
            if hasattr(self, "storage"):
                await self.storage.close()


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The bot running some of the shards of a larger installation (SHARD_COUNT, SHARD_IDS):
    it runs the matches of its shards' guilds; other processes run the rest, all on one
    PostgreSQL."""

    def __init__(self, settings: Settings, games: Games = GAMES) -> None:
        shards = settings.shards
        super().__init__(settings, games, shard_count=shards.count, shard_ids=list(shards.ids))


def create_bot(
    database: str | Path | None = None, settings: Settings | None = None, games: Games = GAMES
) -> GameBot:
    """Build the bot hosting `games` (the five by default) from `settings`, else from the
    environment (DATABASE_URL, SHARD_COUNT, SHARD_IDS…); `database` (a SQLite file or a database
    URL) overrides the configured one. A bot with a shard count is an `AutoShardedBot` running
    those shards."""
    settings = settings or Settings.from_env(os.environ)
    if database is not None:
        settings = replace(settings, database=database)
    if settings.shards.count is not None:
        return ShardedGameBot(settings, games)
    return GameBot(settings, games)


def main(argv: list[str] | None = None) -> int:
    """`python bot.py [--local]`: the exit code."""
    return launcher.main(argv, create_bot)


if __name__ == "__main__":
    sys.exit(main())
