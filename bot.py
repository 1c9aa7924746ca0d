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
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord.ext import commands
from dotenv import dotenv_values

from cogs.registry import GAMES
from cogs.tree import GameTree
from data import open_storage
from data.model import ALL_SHARDS, Shards, StorageError, StorageUnavailable
from data.repositories import Database
from locales import DEFAULT as DEFAULT_LANGUAGE
from locales import LANGUAGES
from locales.translator import CatalogueTranslator
from matches import MatchService
from matches.components import DYNAMIC_ITEMS
from matches.spec import Games

if TYPE_CHECKING:
    import simcord

ROOT = Path(__file__).resolve().parent
EXTENSIONS = ("cogs.general", "cogs.league")  # the server-wide commands; each game's cog comes from its spec
LOCAL_GUILD, LOCAL_CHANNEL = "Game Table", "games"
DISCORD_LOCALES = {"en": "en-US", "de": "de", "fr": "fr"}  # the locale a client in each language sends
DEFAULT_DATABASE = ROOT / "data" / "game_table.db"
DEFAULT_LOCAL_PORT = 8765
DEFAULT_LOCAL_PLAYERS = ("Alice", "Bob", "Carol", "Dave")
# What ends the bot in a terminal: Ctrl+C, `kill`, and the terminal closing (not on Windows).
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)

log = logging.getLogger("game_table")


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting of the bot; `.env.example` documents each."""

    token: str | None = None
    database: str | Path = DEFAULT_DATABASE  # a SQLite file, or a database URL (see data/__init__.py)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    local_port: int = DEFAULT_LOCAL_PORT
    local_players: tuple[str, ...] = DEFAULT_LOCAL_PLAYERS
    shards: Shards = ALL_SHARDS  # with a count: run those shards (AutoShardedBot)
    local_language: str = DEFAULT_LANGUAGE  # the language the local table's server and players speak

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> Settings:
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
            # DATABASE_URL names the database; else DATABASE_PATH, a relative path being taken
            # from the project folder, wherever the bot is started.
            database=environ.get("DATABASE_URL", "").strip()
            or ROOT / (environ.get("DATABASE_PATH") or DEFAULT_DATABASE),
            dev_guild_id=number("DEV_GUILD_ID"),
            log_level=(environ.get("LOG_LEVEL") or "INFO").upper(),
            local_port=number("LOCAL_PORT") or DEFAULT_LOCAL_PORT,
            local_players=tuple(p.strip() for p in players.split(",") if p.strip()) or DEFAULT_LOCAL_PLAYERS,
            shards=read_shards(environ.get("SHARD_COUNT", ""), environ.get("SHARD_IDS", "")),
            local_language=read_language(environ.get("LOCAL_LANGUAGE", "")),
        )


def read_language(text: str) -> str:
    """LOCAL_LANGUAGE: one of the languages the bot speaks (English when empty)."""
    language = text.strip().lower() or DEFAULT_LANGUAGE
    if language not in LANGUAGES:
        raise SystemExit(
            f"LOCAL_LANGUAGE must be one of {', '.join(LANGUAGES)} (got {text!r}) — fix it in .env."
        )
    return language


def read_shards(count_text: str, ids_text: str) -> Shards:
    """SHARD_COUNT and SHARD_IDS ("0,1", "4-7" or a mix; all shards when empty) as `Shards`."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text:
        if ids_text:
            raise SystemExit(
                "SHARD_IDS needs SHARD_COUNT (how many shards the bot has in all) — set it in .env."
            )
        return ALL_SHARDS
    if not count_text.isdecimal() or int(count_text) < 1:
        raise SystemExit(
            f"SHARD_COUNT must be a whole number of at least 1 (got {count_text!r}) — fix it in .env."
        )
    count, ids = int(count_text), set[int]()
    for part in filter(None, (piece.strip() for piece in ids_text.split(","))):
        low, _, high = part.partition("-")
        if not low.strip().isdecimal() or not (high.strip() or low).isdecimal():
            raise SystemExit(
                f"SHARD_IDS must list shard numbers like 0,1 or 0-3 (got {ids_text!r}) — fix it in .env."
            )
        ids.update(range(int(low), int(high or low) + 1))
    if not ids_text:
        ids = set(range(count))
    if not ids or max(ids) >= count:
        raise SystemExit(
            f"SHARD_IDS must be shards 0 to {count - 1} of SHARD_COUNT={count} (got {ids_text!r})."
        )
    return Shards(count, tuple(sorted(ids)))


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


async def run_discord(settings: Settings) -> None:
    # Say what is wrong with the database before connecting, not after a login.
    await (await open_storage(settings.database)).close()
    bot = create_bot(settings=settings)
    async with bot:
        await bot.start(settings.token or "")


class LocalTableError(Exception):
    """The local table cannot open; the message says what to do."""


async def run_local_table(settings: Settings) -> None:
    """The same bot on SimCord's simulated Discord, shown in a browser on 127.0.0.1."""
    # The simulated client has no voice and a simulated gateway: discord.py's warnings about
    # them (some at SimCord's import) say nothing useful to someone playing at the local table.
    logging.getLogger("discord").setLevel(logging.ERROR)
    import simcord

    with tempfile.TemporaryDirectory(prefix="game-table-") as folder:
        # The simulated world lives in memory, so its matches live in a fresh database too.
        bot = create_bot(database=Path(folder) / "local.db", settings=settings)
        try:
            with speaking(settings.local_language):
                async with simcord.run(bot) as env:
                    await _serve_local_table(env, settings)
        finally:
            await bot.close()


async def _serve_local_table(env: simcord.Env, settings: Settings) -> None:
    """Seat the local players and serve the preview page until it is closed."""
    channel, players = seat_local_players(env, settings.local_players, settings.local_language)
    async with _preview(env, channel, players, settings.local_port) as preview:
        print(f"The local table is open: {preview.url}", flush=True)
        print(
            "Play in the browser; switch players with 'Viewing as' "
            f"({players[0].name} owns the server, for /settings). Ctrl+C ends.",
            flush=True,
        )
        pump = asyncio.create_task(LocalClock(env, preview).run())
        try:
            await preview.wait_closed()
        finally:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump


def seat_local_players(
    env: simcord.Env, names: Sequence[str], language: str = DEFAULT_LANGUAGE
) -> tuple[simcord.ChannelHandle, list[simcord.MemberActor]]:
    """The local table's server (speaking `language`): its games channel and one member per
    name. The first player owns the server, so the commands that need Manage Server
    (`/settings`) work at the table."""
    import simcord

    users = [env.create_user(name) for name in names]
    # The owner is a member already.
    guild = env.create_guild(LOCAL_GUILD, owner=users[0], preferred_locale=DISCORD_LOCALES[language])
    channel = guild.create_text_channel(LOCAL_CHANNEL)
    members = [simcord.MemberActor(env, guild, users[0]), *(guild.add_member(user) for user in users[1:])]
    return channel, members


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Make every interaction at the local table carry `language` as its member's and its
    server's locale, as a Discord client in that language sends them. SimCord's simulated
    Discord fixes both at en-US: its actors and preview build every interaction with
    `simcord.interactions.base_payload`, which this wraps until the block ends."""
    import simcord.interactions

    build = simcord.interactions.base_payload
    locale = DISCORD_LOCALES[language]

    def in_language(backend: Any, **fields: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **fields)
        payload["locale"] = locale
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = locale
        return record, payload

    simcord.interactions.base_payload = in_language
    try:
        yield
    finally:
        simcord.interactions.base_payload = build


@contextlib.asynccontextmanager
async def _preview(
    env: simcord.Env, channel: simcord.ChannelHandle, players: list[simcord.MemberActor], port: int
) -> AsyncIterator[simcord.Preview]:
    """SimCord's preview of the table on `port`; a port it cannot take is a `LocalTableError`."""
    import simcord

    preview = env.preview(channel, viewers=players, layout="channel", port=port)
    try:
        await preview.__aenter__()
    except simcord.SetupError as error:
        cause = error.__cause__
        if not isinstance(cause, OSError):
            raise
        reason = os.strerror(cause.errno) if cause.errno else str(cause)
        other = port + 1 if 0 < port < 65535 else DEFAULT_LOCAL_PORT
        raise LocalTableError(
            f"The local table cannot use port {port} ({reason}) — set LOCAL_PORT in .env to a free "
            f"port, e.g. LOCAL_PORT={other}."
        ) from None
    try:
        yield preview
    finally:
        await preview.close()


class LocalClock:
    """Moves SimCord's virtual clock with the wall clock, so turn clocks and time-outs fire.

    SimCord runs one operation at a time and refuses an overlapping one, and its preview has
    no lock of its own: the page's actions (all of them reach `Preview._action`, from the
    preview server's POST /api/action) are wrapped to take this clock's lock, so a click waits
    for an advance of the clock, and the other way round.

    The page is republished only when the advance made the bot do something: every
    republication bumps the page's revision, and SimCord refuses a click made on an older one.
    """

    def __init__(self, env: simcord.Env, preview: simcord.Preview) -> None:
        self.env = env
        self.preview = preview
        self.lock = asyncio.Lock()
        preview._action = self._serialised(preview._action)  # type: ignore[method-assign]

    def _serialised(self, action: Callable[..., Awaitable[Any]]) -> Callable[..., Coroutine[Any, Any, Any]]:
        async def serialised(*args: Any, **kwargs: Any) -> Any:
            async with self.lock:
                return await action(*args, **kwargs)

        return serialised

    async def advance(self, seconds: float) -> bool:
        """Move the clock `seconds` on; republish the page if the bot acted meanwhile."""
        async with self.lock:
            before = len(self.env.http_requests)
            await self.env.advance_time(seconds)
            # Whatever the page shows changes only through a write of the bot's (a GET changes nothing).
            acted = any(request.method != "GET" for request in self.env.http_requests[before:])
            if acted:
                await self.preview.refresh()
            return acted

    async def run(self, tick_s: float = 1.0) -> None:
        """Keep the virtual clock level with the wall clock, checking every `tick_s` seconds,
        until the page is closed."""
        import simcord

        loop = asyncio.get_running_loop()
        wall, virtual = loop.time(), self.env.now()
        while True:
            await asyncio.sleep(tick_s)
            target = virtual + timedelta(seconds=loop.time() - wall)
            behind = (target - self.env.now()).total_seconds()
            if behind <= 0:
                continue
            try:
                await self.advance(behind)
            except TimeoutError as error:  # what did settle is kept: the next tick catches up
                log.warning("The bot took too long to settle while the clock moved: %s", error)
            except simcord.SetupError:  # the page was closed (its end button) while the clock moved
                return


async def until_signalled(work: Coroutine[Any, Any, None]) -> None:
    """Run `work`; SIGINT, SIGTERM or SIGHUP cancels it, so it closes what it opened and
    returns normally. Later signals do not interrupt that clean-up."""
    task = asyncio.ensure_future(work)
    loop = asyncio.get_running_loop()
    caught: list[int] = []

    def stop(number: int) -> None:
        if not caught:
            caught.append(number)
            task.cancel()

    installed = []
    for number in STOP_SIGNALS:
        try:
            loop.add_signal_handler(number, stop, number)
        except NotImplementedError:  # Windows: Ctrl+C still cancels through asyncio.run
            continue
        installed.append(number)
    try:
        await task
    except asyncio.CancelledError:
        if not caught:
            raise
        log.info("Stopped by signal %s", signal.Signals(caught[0]).name)
    finally:
        for number in installed:
            loop.remove_signal_handler(number)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The game-table Discord bot.")
    parser.add_argument("--local", action="store_true", help="play on the local table")
    args = parser.parse_args(argv)
    file = {key: value for key, value in dotenv_values(ROOT / ".env").items() if value is not None}
    settings = Settings.from_env({**file, **os.environ})  # the environment wins over .env
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    local = args.local or settings.token is None
    if local and not args.local:
        print("No DISCORD_TOKEN is set, so the bot opens the local table instead.")
    try:
        asyncio.run(until_signalled(run_local_table(settings) if local else run_discord(settings)))
    except KeyboardInterrupt:  # where signals cannot be handled in the loop (Windows)
        pass
    except LocalTableError as error:
        print(error, file=sys.stderr)
        return 1
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
