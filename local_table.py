"""The local table: the same bot on SimCord's simulated Discord, played in SimCord's browser
preview on 127.0.0.1 by a few local players, its virtual clock moving with the wall clock."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

from locales import DEFAULT as DEFAULT_LANGUAGE
from settings import DEFAULT_LOCAL_PORT, Settings

if TYPE_CHECKING:
    import simcord

LOCAL_GUILD, LOCAL_CHANNEL = "Game Table", "games"
DISCORD_LOCALES = {"en": "en-US", "de": "de", "fr": "fr"}  # the locale a client in each language sends

log = logging.getLogger("game_table")


class LocalTableError(Exception):
    """The local table cannot open; the message says what to do."""


async def run_local_table(settings: Settings, build: Callable[[Path], discord.Client]) -> None:
    """The bot `build` makes on a database file, on SimCord's simulated Discord, shown in a
    browser on 127.0.0.1 until the page is closed."""
    # The simulated client has no voice and a simulated gateway: discord.py's warnings about
    # them (some at SimCord's import) say nothing useful to someone playing at the local table.
    logging.getLogger("discord").setLevel(logging.ERROR)
    import simcord

    with tempfile.TemporaryDirectory(prefix="game-table-") as folder:
        # The simulated world lives in memory, so its matches live in a fresh database too.
        bot = build(Path(folder) / "local.db")
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
