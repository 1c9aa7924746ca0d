"""The local table: the same bot on SimCord's simulated Discord, played in SimCord's browser
preview on 127.0.0.1 by a few local players, its virtual clock moving with the wall clock.

Only SimCord's public interface is used, with one exception: SimCord has no member locale
and builds every interaction as a client in en-US sends it, so `speaking` wraps its
`simcord.interactions.base_payload` (as the end-to-end tests' `client_locales` does)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar
from urllib.parse import parse_qs, urlencode, urlsplit

import aiohttp
import discord
from aiohttp import web

from locales import DEFAULT as DEFAULT_LANGUAGE
from settings import DEFAULT_LOCAL_PORT, Settings

if TYPE_CHECKING:
    import simcord

LOCAL_GUILD, LOCAL_CHANNEL = "Game Table", "games"
LOCAL_BOT = "Game Table"  # the bot's name at the local table (SimCord's own: "TestBot")
# How long the page waits for the bot to finish what an action started before it says the bot
# did not settle (SimCord's default: 5 s): a first board on a busy machine may take longer.
SETTLE_S = 30.0
DISCORD_LOCALES = {"en": "en-US", "de": "de", "fr": "fr"}  # the locale a client in each language sends

log = logging.getLogger("game_table")


class LocalTableError(Exception):
    """The local table cannot open; the message says what to do."""


async def run_local_table(settings: Settings, build: Callable[[Settings], discord.Client]) -> None:
    """The bot `build` makes from the local table's settings (see `table_settings`), on
    SimCord's simulated Discord, shown in a browser on 127.0.0.1 until the page is closed."""
    # The simulated client has no voice and a simulated gateway: discord.py's warnings about
    # them (some at SimCord's import) say nothing useful to someone playing at the local table.
    logging.getLogger("discord").setLevel(logging.ERROR)
    import simcord

    with tempfile.TemporaryDirectory(prefix="game-table-") as folder:
        # The simulated world lives in memory, so its matches live in a fresh database too.
        bot = build(table_settings(settings, Path(folder) / "local.db"))
        try:
            with speaking(settings.local_language):
                async with simcord.run(bot, settle_timeout=SETTLE_S) as env:
                    await _serve_local_table(env, settings)
        finally:
            await bot.close()


async def _serve_local_table(env: simcord.Env, settings: Settings) -> None:
    """Seat the local players and serve the page until it is closed."""
    channel, players = seat_local_players(env, settings.local_players, settings.local_language)
    await name_bot(env.bot)
    async with env.preview(channel, viewers=players, layout="channel", port=0) as preview:
        clock = LocalClock(env, preview)
        async with PageServer(preview, clock, settings.local_port) as page:
            print(f"The local table is open: {page.url}", flush=True)
            print(
                "Play in the browser; switch players with 'Viewing as' "
                f"({players[0].name} owns the server, for /settings). Ctrl+C ends.",
                flush=True,
            )
            pump = asyncio.create_task(clock.run())
            try:
                await preview.wait_closed()
            finally:
                pump.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await pump


def table_settings(settings: Settings, database: Path) -> Settings:
    """`settings` as the bot at the local table runs with them: on `database`, and naming the
    commands as the page's picker lists them — by their default names, whatever the member's
    locale (SimCord's picker reads no `name_localizations`)."""
    return replace(settings, database=database, localized_picker=False)


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


async def name_bot(bot: discord.Client) -> None:
    """Give the bot its name at the local table, where its messages and commands show it."""
    if bot.user is not None:
        await bot.user.edit(username=LOCAL_BOT)


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


class PageServer:
    """The local table's page on 127.0.0.1:`port`: SimCord's preview, served through this server,
    which hands the page's actions (its POST /api/action) on one at a time with the advances of
    the clock, holding the clock's lock for each. SimCord runs one operation at a time and refuses
    an overlapping one, so a click made while the clock moves waits for it, and the other way round.
    What the bot did is shown in every open tab (SimCord shows a press's result in its own tab
    only); an action the bot had not finished when the page stopped waiting is shown at the
    clock's next move (see `LocalClock.advance`).

    Everything else is passed on as it is, the browser's Host and Origin read as SimCord's own
    once this server has checked them: only a page of this address may call it — but for the
    links to the channel's messages, which open them on the page (see `MessageLinks`)."""

    ACTION = ("POST", "/api/action")
    OPEN = ("POST", "/api/pages")  # a tab opening the page: on the message its address names
    # The actions after which SimCord republishes only the tab that sent them (the player's own
    # controls); a slash command republishes them all.
    ONE_TAB = frozenset({"click", "select", "modal_submit"})
    # Headers of one connection, not of the request or the answer passed on.
    HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"})
    READDRESSED = frozenset({"host", "origin"})  # told SimCord's server as its own once checked

    def __init__(self, preview: simcord.Preview, clock: LocalClock, port: int) -> None:
        self.inner = urlsplit(preview.url)  # SimCord's own server, on a port of its choosing
        self.clock = clock
        self.channel = preview.channel
        self.port = port
        self.received = 0  # how many actions the page sent
        self.runner: web.AppRunner | None = None
        self.session: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        """The page's address, with SimCord's capability; treat it as a secret."""
        return f"http://127.0.0.1:{self.port}/#{self.inner.fragment}"

    async def __aenter__(self) -> PageServer:
        app = web.Application()
        app.router.add_route("*", "/{path:.*}", self.pass_on)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", self.port)
        try:
            await site.start()
        except OSError as error:
            await self.runner.cleanup()
            reason = os.strerror(error.errno) if error.errno else str(error)
            other = self.port + 1 if 0 < self.port < 65535 else DEFAULT_LOCAL_PORT
            raise LocalTableError(
                f"The local table cannot use port {self.port} ({reason}) — set LOCAL_PORT in .env to a "
                f"free port, e.g. LOCAL_PORT={other}."
            ) from None
        self.port = self.runner.addresses[0][1]  # the one the system chose, for port 0
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None))
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        if self.session is not None:
            await self.session.close()
        if self.runner is not None:
            await self.runner.cleanup()

    async def pass_on(self, request: web.Request) -> web.StreamResponse:
        """Pass `request` on to SimCord's server (an action through `act`)."""
        own = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        origin = request.headers.get("Origin")
        if request.host not in own or origin not in {None, "null", *(f"http://{host}" for host in own)}:
            raise web.HTTPForbidden()
        dropped = self.HOP | self.READDRESSED
        headers = {key: value for key, value in request.headers.items() if key.lower() not in dropped}
        headers["Host"] = self.inner.netloc
        if origin is not None:
            headers["Origin"] = origin if origin == "null" else f"http://{self.inner.netloc}"
        body = await request.read()
        if (request.method, request.path) == self.OPEN:
            return await self.open_page(request, headers, body)
        if (request.method, request.path) != self.ACTION:
            answer = await self.ask(request, headers, body)
            if request.path == "/" and MessageLinks.QUERY in request.query:
                # Let the page tell this server, when it opens, the message its address names.
                answer.headers["Referrer-Policy"] = "same-origin"
            return answer
        self.received += 1
        return await self.act(request, headers, body)

    async def act(self, request: web.Request, headers: dict[str, str], body: bytes) -> web.Response:
        """Pass a page's action on once the clock is still; once the bot has done with it, show
        every tab what it did."""
        async with self.clock.lock:
            answer = await self.ask(request, headers, body)
            if not settled(answer):  # the clock's next move shows what the bot does meanwhile
                return answer
            if action_kind(body) not in self.ONE_TAB:  # SimCord published it in every tab
                self.clock.published()
                return answer
            try:
                await self.clock.republish()  # in the other players' tabs too
            except TimeoutError as error:  # the clock's next move shows it
                log.warning("The bot took too long to settle after a page's action: %s", error)
            return answer

    async def open_page(self, request: web.Request, headers: dict[str, str], body: bytes) -> web.Response:
        """Open a page (a browser tab) on the message, and as the player, named by the address
        it was opened at (`MessageLinks`); that message gone, where SimCord opens it."""
        named = parse_qs(urlsplit(request.headers.get("Referer", "")).query)
        message, viewer = (named.get(key, [""])[0] for key in (MessageLinks.QUERY, MessageLinks.VIEWER))
        asked: Any = None
        with contextlib.suppress(ValueError):
            asked = json.loads(body or b"{}")
        if not message.isdecimal() or not isinstance(asked, dict) or "target_id" in asked:
            return await self.ask(request, headers, body)
        opened = {"viewer_id": viewer} if viewer.isdecimal() else {}
        answer = await self.ask(
            request, headers, json.dumps({**opened, **asked, "target_id": message}).encode()
        )
        if answer.status == 400:  # the message is gone, or not for this player
            return await self.ask(request, headers, body)
        return answer

    async def ask(self, request: web.Request, headers: dict[str, str], body: bytes) -> web.Response:
        """SimCord's server's answer to `request` (sent with `headers` and `body`), as it gave it
        but for the links to the channel's messages, which lead to them on the page."""
        assert self.session is not None
        address = f"http://{self.inner.netloc}{request.path_qs}"
        async with self.session.request(request.method, address, headers=headers, data=body) as answer:
            content = await answer.read()
            kept = {key: value for key, value in answer.headers.items() if key.lower() not in self.HOP}
            if answer.content_type == "application/json":
                content = self.links().rewritten(content)
            return web.Response(status=answer.status, body=content, headers=kept)

    def links(self) -> MessageLinks:
        """The rewriting of links to the channel's messages, to this server's address."""
        guild = self.channel.guild
        return MessageLinks(
            discord=f"https://discord.com/channels/{guild.id if guild else '@me'}/{self.channel.id}",
            page=f"http://127.0.0.1:{self.port}/",
            capability=self.inner.fragment,
            label=f"#{self.channel.name or LOCAL_CHANNEL} › 💬",
        )


@dataclass(frozen=True, slots=True)
class MessageLinks:
    """The links the bot writes for Discord to the messages of the page's channel
    (`discord`/<message id>, or `discord` alone for the channel), rewritten in what the page
    is sent so that they open the message on the page, seen by the same player:
    `page`?message=<id>&viewer=<id>#`capability`, written as Discord writes such a link
    (`label`: "#games › 💬") — the capability is not to be seen. Other links are left as they are."""

    QUERY: ClassVar[str] = "message"
    VIEWER: ClassVar[str] = "viewer"
    MARK: ClassVar[bytes] = b"https://discord.com/channels/"

    discord: str
    page: str
    capability: str
    label: str

    def rewritten(self, content: bytes) -> bytes:
        """`content` (a JSON answer of SimCord's) with the links rewritten."""
        if self.MARK not in content:
            return content
        try:
            value = json.loads(content)
        except ValueError:
            return content
        viewer = value.get("viewerId") if isinstance(value, dict) else None  # a page's state
        self.rewrite(value, viewer if isinstance(viewer, str) else None)
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()

    def rewrite(self, value: Any, viewer: str | None) -> None:
        """Rewrite the links in a JSON value in place, for `viewer`: in every list of markdown
        tokens, a link's address, and its text where it is the address itself."""
        if isinstance(value, dict):
            for item in value.values():
                self.rewrite(item, viewer)
        elif isinstance(value, list):
            href = None  # the address of the link whose text tokens these are, rewritten
            for token in value:
                kind = token.get("type") if isinstance(token, dict) else None
                if kind == "link_open" and (local := self.local(token.get("href"), viewer)) is not None:
                    href, token["href"] = token["href"], local
                elif kind == "link_close":
                    href = None
                elif kind == "text" and href is not None and token.get("content") == href:
                    token["content"] = self.label
                else:
                    self.rewrite(token, viewer)

    def local(self, href: Any, viewer: str | None) -> str | None:
        """The page's address, for `viewer`, of a link to the channel or one of its messages;
        None for another link."""
        if not isinstance(href, str):
            return None
        if href == self.discord:
            return f"{self.page}#{self.capability}"
        message = href.removeprefix(f"{self.discord}/")
        if message == href or not message.isdecimal():
            return None
        named = {self.QUERY: message} | ({self.VIEWER: viewer} if viewer else {})
        return f"{self.page}?{urlencode(named)}#{self.capability}"


def action_kind(body: bytes) -> str | None:
    """What a page's action (its JSON `body`) does: "click", "run_command"…"""
    with contextlib.suppress(ValueError):
        action = json.loads(body)
        return str(action.get("kind")) if isinstance(action, dict) else None
    return None


def settled(answer: web.Response) -> bool:
    """Whether the answer to a page's action says the bot finished what the action started."""
    if answer.status != 200 or not isinstance(answer.body, bytes):
        return False
    with contextlib.suppress(ValueError):
        receipt = json.loads(answer.body)
        return isinstance(receipt, dict) and receipt.get("settlement") == "settled"
    return False


class LocalClock:
    """Moves SimCord's virtual clock with the wall clock, so turn clocks and time-outs fire.

    Each advance holds `lock`, which the page's server holds for each of the page's actions:
    SimCord refuses an operation that overlaps another.

    The page is republished only when the bot did something it does not show yet: every
    republication bumps the page's revision, and SimCord refuses a click made on an older one.
    """

    def __init__(self, env: simcord.Env, preview: simcord.Preview) -> None:
        self.env = env
        self.preview = preview
        self.lock = asyncio.Lock()
        self.shown = len(env.http_requests)  # how many of the bot's requests the page took in

    def published(self) -> None:
        """Note that the page shows all that the bot did so far."""
        self.shown = len(self.env.http_requests)

    async def republish(self) -> None:
        """Show every tab of the page all that the bot did so far (the caller holds `lock`)."""
        await self.preview.refresh()
        self.published()

    async def advance(self, seconds: float) -> bool:
        """Move the clock `seconds` on; republish the page if the bot did something it does not
        show: meanwhile, or after the page stopped waiting for an action."""
        async with self.lock:
            await self.env.advance_time(seconds)
            # Whatever the page shows changes only through a write of the bot's (a GET changes nothing).
            acted = any(request.method != "GET" for request in self.env.http_requests[self.shown :])
            if acted:
                await self.republish()
            self.published()
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
