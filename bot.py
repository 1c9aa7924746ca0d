"""Entry point: read the settings, build the bot, run it on Discord or on the local table.

python bot.py            # Discord when DISCORD_TOKEN is set, else the local table
python bot.py --local    # the local table (SimCord's browser preview) in any case
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import logging
import os
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

import aiohttp
import discord
from discord.ext import commands

from data.storage import Storage, StorageError
from matches import MatchService
from matches.components import DYNAMIC_ITEMS

ROOT = Path(__file__).resolve().parent
EXTENSIONS = (
    "cogs.general",
    "cogs.league",
    "cogs.clock",
    "cogs.tremember",
    "cogs.tetris_link",
    "cogs.rookie",
    "cogs.triominos",
    "cogs.sequence_numbers",
)
LOCAL_GUILD, LOCAL_CHANNEL = "Game Table", "games"
DEFAULT_DATABASE = ROOT / "data" / "game_table.db"
DEFAULT_LOCAL_PORT = 8765
DEFAULT_LOCAL_PLAYERS = ("Alice", "Bob", "Carol", "Dave")

log = logging.getLogger("game_table")


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the bot; `.env.example` documents each."""

    token: str | None = None
    database: Path = DEFAULT_DATABASE
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    local_port: int = DEFAULT_LOCAL_PORT
    local_players: tuple[str, ...] = DEFAULT_LOCAL_PLAYERS

    @classmethod
    def from_env(cls, environ: dict[str, str]) -> Settings:
        def number(key: str) -> int | None:
            value = environ.get(key, "").strip()
            if not value:
                return None
            if not value.isdigit():
                raise SystemExit(f"{key} must be a number (got {value!r}) — fix it in .env.")
            return int(value)

        players = environ.get("LOCAL_PLAYERS", "")
        return cls(
            token=environ.get("DISCORD_TOKEN", "").strip() or None,
            # A relative path is taken from the project folder, wherever the bot is started.
            database=ROOT / (environ.get("DATABASE_PATH") or DEFAULT_DATABASE),
            dev_guild_id=number("DEV_GUILD_ID"),
            log_level=(environ.get("LOG_LEVEL") or "INFO").upper(),
            local_port=number("LOCAL_PORT") or DEFAULT_LOCAL_PORT,
            local_players=tuple(p.strip() for p in players.split(",") if p.strip()) or DEFAULT_LOCAL_PLAYERS,
        )


def read_env_file(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file (comments and blanks skipped)."""
    if not path.is_file():
        return {}
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and "=" in line:
            key, value = line.split("=", 1)
            values[key.strip()] = value.strip().strip("'\"")
    return values


class GameBot(commands.Bot):
    """The game-table bot: the match service over one SQLite database."""

    storage: Storage
    matches: MatchService

    def __init__(self, settings: Settings) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.database)
        self.matches = MatchService(self, self.storage)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        resumed = await self.matches.resume()
        log.info("Resumed %d running matches", resumed)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync to the development guild if set, else globally — only when the tree changed."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        target = f"guild:{guild.id}" if guild else "global"
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"command_tree:{target}"
        if await self.storage.settings.get_meta(key) == digest:
            return
        await self.tree.sync(guild=guild)
        await self.storage.settings.set_meta(key, digest)
        log.info("Synced %d commands (%s)", len(payload), target)

    async def close(self) -> None:
        await super().close()
        if hasattr(self, "storage"):
            await self.storage.close()


def create_bot(database: str | Path | None = None, settings: Settings | None = None) -> GameBot:
    """Build the bot; `database` overrides the configured database path."""
    settings = settings or Settings()
    if database is not None:
        settings = replace(settings, database=Path(database))
    return GameBot(settings)


async def run_discord(settings: Settings) -> None:
    # Say what is wrong with the database before connecting, not after a login.
    await (await Storage.open(settings.database)).close()
    bot = create_bot(settings=settings)
    async with bot:
        await bot.start(settings.token or "")


async def run_local_table(settings: Settings) -> None:
    """The same bot on SimCord's simulated Discord, shown in a browser on 127.0.0.1."""
    # The simulated client has no voice and a simulated gateway: discord.py's warnings about
    # them (some at SimCord's import) say nothing useful to someone playing at the local table.
    logging.getLogger("discord").setLevel(logging.ERROR)
    import simcord

    with tempfile.TemporaryDirectory(prefix="game-table-") as folder:
        # The simulated world lives in memory, so its matches live in a fresh database too.
        bot = create_bot(database=Path(folder) / "local.db", settings=settings)
        async with simcord.run(bot) as env:
            guild = env.create_guild(LOCAL_GUILD)
            channel = guild.create_text_channel(LOCAL_CHANNEL)
            players = [guild.add_member(env.create_user(name)) for name in settings.local_players]
            preview = env.preview(channel, viewers=players, layout="channel", port=settings.local_port)
            async with preview:
                print(f"The local table is open: {preview.url}", flush=True)
                print("Play in the browser; switch players with 'Viewing as'. Ctrl+C ends.")
                pump = asyncio.create_task(_pump_clock(env, preview))
                try:
                    await preview.wait_closed()
                finally:
                    pump.cancel()


async def _pump_clock(env, preview) -> None:
    """Move the virtual clock with the wall clock so turn clocks and timeouts fire."""
    loop = asyncio.get_running_loop()
    last = loop.time()
    while True:
        await asyncio.sleep(1)
        now = loop.time()
        try:
            await env.advance_time(now - last)
            await preview.refresh()
            last = now
        except Exception as error:  # a click is being handled: try again next second
            log.debug("Clock pump skipped a beat: %s", error)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The game-table Discord bot.")
    parser.add_argument("--local", action="store_true", help="play on the local table")
    args = parser.parse_args(argv)
    settings = Settings.from_env({**read_env_file(ROOT / ".env"), **os.environ})
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    local = args.local or settings.token is None
    if local and not args.local:
        print("No DISCORD_TOKEN is set, so the bot opens the local table instead.")
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run_local_table(settings) if local else run_discord(settings))
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN — copy the bot token again from the Developer "
            "Portal (Bot → Reset Token) into .env.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "Discord refused an intent this bot asked for — check the Bot page of the Developer Portal.",
            file=sys.stderr,
        )
        return 1
    except StorageError as error:
        print(error, file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError) as error:
        print(f"Cannot reach Discord ({error}) — check this machine's internet connection.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
