"""The local table: the real bot on SimCord, played in SimCord's preview page over HTTP.

The page is driven the way the browser drives it (SimCord's preview protocol over aiohttp,
through the local table's own server);
the process tests run `python bot.py --local` and send it real signals."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import discord
import pytest
import simcord
from discord import app_commands

import bot
from local_table import SETTLE_S as LOCAL_SETTLE_S
from local_table import LocalClock, PageServer, name_bot, seat_local_players, speaking, table_settings
from settings import DEFAULT_LOCAL_PLAYERS, Settings
from tests.e2e.helpers import SETTLE_S, channel_message, mover, open_and_start, play_on_board, title

TWO_MINUTES = 120
OPEN_LINE = "The local table is open:"


class Page:
    """One browser tab on the preview: what it last fetched, and the actions it sends."""

    def __init__(self, session: aiohttp.ClientSession, url: str) -> None:
        address = urlsplit(url)
        self.session = session
        self.base = f"http://{address.netloc}"
        self.headers = {"X-Simcord-Capability": address.fragment}
        self.state: dict[str, Any] = {}
        self.sequence = 0

    async def open(self, viewer: Any) -> Page:
        async with self.session.post(
            f"{self.base}/api/pages", json={"viewer_id": str(viewer.id)}, headers=self.headers
        ) as response:
            self.state = await response.json()
        self.headers["X-Simcord-Context"] = self.state["context"]["id"]
        return self

    async def poll(self) -> None:
        """What the page's 500 ms poll does: fetch the published state, without republishing."""
        async with self.session.get(f"{self.base}/api/state", headers=self.headers) as response:
            self.state = await response.json()

    @property
    def revision(self) -> int:
        return self.state["publishedRevision"]

    def shows(self, text: str) -> bool:
        """Whether `text` is written anywhere in the messages the page shows."""
        return text in repr(self.state["messages"])

    def message(self, message_id: int) -> dict[str, Any]:
        """A message as the page shows it."""
        return self.state["messages"][str(message_id)]

    async def run(self, invocation: str, **options: Any) -> tuple[int, dict[str, Any]]:
        """Run a slash command from the page's picker, on the revision it last fetched."""
        async with self.session.get(f"{self.base}/api/commands", headers=self.headers) as response:
            catalog = await response.json()
        entry = next(e for e in catalog["entries"] if e["invocation"] == invocation)
        return await self.act(
            "run_command",
            command_id=entry["commandId"],
            path=entry["path"],
            schema_fingerprint=entry["schemaFingerprint"],
            options=options,
        )

    async def click(self, message_id: int, label: str) -> tuple[int, dict[str, Any]]:
        """Press the button labelled `label` on a message, as the page last showed it."""
        key = next(c["control_key"] for c in controls(self.message(message_id)) if c.get("label") == label)
        return await self.act("click", target_id=str(message_id), control_key=key)

    async def act(self, kind: str, **fields: Any) -> tuple[int, dict[str, Any]]:
        """Send the page's action `kind`, on the revision it last fetched."""
        self.sequence += 1
        body = {
            "protocol_version": 3,
            "sequence": self.sequence,
            "request_id": uuid.uuid4().hex,
            "generation": self.state["context"]["generation"],
            "bot_generation": self.state["botGeneration"],
            "published_revision": self.revision,
            "kind": kind,
            **fields,
        }
        async with self.session.post(f"{self.base}/api/action", json=body, headers=self.headers) as response:
            return response.status, await response.json()


def controls(shown: Any) -> Iterator[dict[str, Any]]:
    """Every control (button, menu) in a message as the page shows it."""
    if isinstance(shown, dict):
        if "control_key" in shown:
            yield shown
        for value in shown.values():
            yield from controls(value)
    elif isinstance(shown, list):
        for value in shown:
            yield from controls(value)


def images_shown(shown: Any) -> int:
    """How many images in a message as the page shows it are there to see (not "unavailable")."""
    if isinstance(shown, list):
        return sum(images_shown(value) for value in shown)
    if not isinstance(shown, dict):
        return 0
    own = 1 if "asset_id" in shown and shown.get("available") is True else 0
    return own + sum(images_shown(value) for value in shown.values())


@dataclass
class LocalTable:
    env: Any
    channel: Any
    players: list[Any]
    preview: Any
    clock: LocalClock
    server: PageServer
    session: aiohttp.ClientSession

    async def page(self, viewer: Any) -> Page:
        return await Page(self.session, self.server.url).open(viewer)


def table_bot(database: Path) -> bot.GameBot:
    """The bot as the local table builds it, on `database`."""
    return bot.create_bot(settings=table_settings(Settings.from_env(os.environ), database))


@asynccontextmanager
async def local_table(
    game_bot: bot.GameBot, language: str = "en", settle_s: float = SETTLE_S
) -> AsyncIterator[LocalTable]:
    """The local table's set-up around `game_bot` (speaking `language`), its preview, its clock
    and its page's server on a free port; an action settles in `settle_s` or the page says the
    bot did not settle."""
    with speaking(language):
        async with simcord.run(game_bot, settle_timeout=settle_s) as env:
            channel, players = seat_local_players(env, DEFAULT_LOCAL_PLAYERS, language)
            await name_bot(game_bot)
            async with (
                env.preview(channel, viewers=players, layout="channel", port=0) as preview,
                aiohttp.ClientSession() as session,
            ):
                clock = LocalClock(env, preview)
                async with PageServer(preview, clock, port=0) as server:
                    yield LocalTable(env, channel, players, preview, clock, server, session)


# ---------------------------------------------------------------- the moving clock


async def test_a_click_made_while_the_clock_moves_and_nothing_happens_is_not_refused_as_stale(database):
    async with local_table(table_bot(database)) as table:
        page = await table.page(table.players[0])
        fetched = page.revision

        for _ in range(3):
            await table.clock.advance(1)
        await table.clock.advance(20)  # past a heartbeat of the turn clock too

        status, result = await page.run("help")  # on the revision fetched before the clock moved
        assert status == 200 and not result["rejected"], result["diagnostics"]
        assert result["settlement"] == "settled"
        await page.poll()
        assert page.revision > fetched and page.shows("/tetrislink new")


async def test_the_page_shows_what_the_bot_did_when_the_clock_ran_out(database):
    async with local_table(table_bot(database)) as table:
        alice, bob = table.players[:2]
        board = await open_and_start(table.channel, alice, [bob], "tetrislink new", clock=TWO_MINUTES)
        page = await table.page(alice)
        fetched = page.revision
        assert not page.shows("ran out of time")

        await table.clock.advance(TWO_MINUTES + 20)

        await page.poll()
        assert page.revision > fetched
        assert page.shows("ran out of time") and page.shows(str(board.id))


async def test_a_player_alone_plays_a_computer_on_the_page_as_the_clock_moves(database):
    async with local_table(table_bot(database)) as table:
        alice = table.players[0]
        page = await table.page(alice)
        # The page's form sends a number as the text typed into it.
        status, result = await page.run("tetrislink new", dice=False, computers="1", level="hard")
        assert status == 200 and not result["rejected"], repr(result["diagnostics"])
        await page.poll()
        assert page.shows("🤖 Computer (hard)")
        lobby = next(m for m in table.channel.history() if "lobby" in title(m))
        await alice.click(lobby, label="Start")
        if mover(channel_message(table.channel, lobby.id), [alice]) is alice:
            await play_on_board(alice, table.channel, lobby.id)
        fetched = page.revision

        for _ in range(8):  # the page's clock moves by itself, second by second
            await table.clock.advance(1)
        await page.poll()
        assert page.revision > fetched
        assert page.shows("🤖 Computer (hard) (🟧 B) placed") or page.shows(
            "🤖 Computer (hard) (🟦 A) placed"
        )
        assert mover(channel_message(table.channel, lobby.id), [alice]) is alice


class Gate:
    """Two commands whose work waits at a gate the test opens, each saying when it got there:
    `/slow` answers only then, `/later` answers at once and leaves work that first waits for
    the clock to move a minute — so an advance of the clock lasts until the gate opens."""

    def __init__(self, game_bot: bot.GameBot) -> None:
        self.reached, self.opened = asyncio.Event(), asyncio.Event()
        self.chores: set[asyncio.Task[None]] = set()
        game_bot.tree.add_command(app_commands.Command(name="slow", description="-", callback=self.slow))
        game_bot.tree.add_command(app_commands.Command(name="later", description="-", callback=self.later))

    async def wait(self) -> None:
        self.reached.set()
        await self.opened.wait()

    async def slow(self, interaction: discord.Interaction) -> None:
        await self.wait()
        await interaction.response.send_message("Done.")

    async def later(self, interaction: discord.Interaction) -> None:
        task = asyncio.create_task(self.chore())
        self.chores.add(task)
        task.add_done_callback(self.chores.discard)
        await interaction.response.send_message("Later.")

    async def chore(self) -> None:
        await asyncio.sleep(60)  # virtual time: only an advance of the clock ends it
        await self.wait()


async def test_a_click_made_while_the_clock_advances_waits_for_it_and_is_played(database):
    game_bot = table_bot(database)
    gate = Gate(game_bot)
    async with local_table(game_bot) as table:
        page = await table.page(table.players[0])
        await (await table.page(table.players[1])).run("later")
        await page.poll()
        sent = table.server.received
        advancing = asyncio.create_task(table.clock.advance(90))
        await gate.reached.wait()  # the clock is mid-advance: the bot's work holds it
        clicking = asyncio.create_task(page.run("help"))
        while table.server.received == sent:  # until the click has reached the page's server
            await asyncio.sleep(0.01)
        gate.opened.set()
        await advancing
        status, result = await clicking

    assert status == 200, result  # not "context-unavailable"
    assert not result["rejected"] and result["settlement"] == "settled"
    assert not result["uncertain"] and result["outcomes"][0]["kind"] == "response"


async def test_the_clock_waits_for_a_click_being_played_instead_of_failing(database):
    game_bot = table_bot(database)
    gate = Gate(game_bot)
    async with local_table(game_bot) as table:
        page = await table.page(table.players[0])
        start = table.env.now()
        clicking = asyncio.create_task(page.run("slow"))
        await gate.reached.wait()  # the bot is answering the page's command
        advancing = asyncio.create_task(table.clock.advance(30))
        await asyncio.sleep(0)  # the clock tries to move while that command is played
        gate.opened.set()
        status, result = await clicking
        await advancing  # not "operation overlaps active preview.action"
        moved = (table.env.now() - start).total_seconds()

    assert status == 200 and result["settlement"] == "settled"
    assert moved >= 30


async def test_what_the_bot_ends_after_the_page_stopped_waiting_shows_at_the_clocks_next_move(database):
    game_bot = table_bot(database)
    gate = Gate(game_bot)
    async with local_table(game_bot, settle_s=0.2) as table:
        page = await table.page(table.players[0])
        status, result = await page.run("slow")  # the bot answers only once the gate opens
        assert status == 200 and result["settlement"] == "timeout"
        gate.opened.set()
        while not table.channel.history():  # the bot's answer, after the page stopped waiting
            await asyncio.sleep(0.01)
        await page.poll()
        assert not page.shows("Done.")

        await table.clock.advance(1)

        await page.poll()
        assert page.shows("Done.")


@pytest.mark.parametrize("game", ["tremember", "tetrislink", "rookie", "triominos", "sequence"])
async def test_start_on_the_page_shows_the_first_board_at_once(database, game):
    async with local_table(table_bot(database), settle_s=LOCAL_SETTLE_S) as table:
        alice, bob = await table.page(table.players[0]), await table.page(table.players[1])
        _, opened = await alice.run(f"{game} new")
        lobby = int(opened["outcomes"][0]["messageId"])
        await bob.poll()
        await bob.click(lobby, "Join")
        await alice.poll()  # what a tab fetches by itself, twice a second
        assert str(table.players[1].id) in repr(alice.message(lobby))  # Bob seated, in Alice's tab too

        status, started = await alice.click(lobby, "Start")

        assert status == 200 and started["settlement"] == "settled", started["diagnostics"]
        for tab in (alice, bob):  # each fetches what is published, without a refresh
            await tab.poll()
            board = tab.message(lobby)
            assert images_shown(board) and not any(c.get("label") == "Start" for c in controls(board))


# ---------------------------------------------------------------- links to messages


def tokens(shown: Any, kind: str) -> Iterator[dict[str, Any]]:
    """The markdown tokens of `kind` in a message as the page shows it."""
    if isinstance(shown, dict):
        if shown.get("type") == kind:
            yield shown
        for value in shown.values():
            yield from tokens(value, kind)
    elif isinstance(shown, list):
        for value in shown:
            yield from tokens(value, kind)


def links(shown: Any) -> Iterator[tuple[str, str]]:
    """Every link in a message as the page shows it: its address and its text."""
    if isinstance(shown, dict):
        for value in shown.values():
            yield from links(value)
    elif isinstance(shown, list):
        for index, token in enumerate(shown):
            if isinstance(token, dict) and token.get("type") == "link_open":
                text = "".join(
                    t.get("content", "") for t in shown[index + 1 :][:1] if t.get("type") == "text"
                )
                yield token["href"], text
            else:
                yield from links(token)


async def test_the_turn_ping_links_to_the_board_on_the_page_and_opens_it_there(database):
    async with local_table(table_bot(database)) as table:
        alice, bob = table.players[:2]
        board = await open_and_start(table.channel, alice, [bob], "tetrislink new")
        ping = table.channel.last_message
        assert "your turn" in ping.content and f"/{board.id}" in ping.content  # Discord's link
        page = await table.page(bob)

        [(href, text)] = list(links(page.message(ping.id)))

        address, own = urlsplit(href), urlsplit(table.server.url)
        assert (address.netloc, address.path) == (own.netloc, "/")
        assert address.query == f"message={board.id}&viewer={bob.id}"
        assert address.fragment == own.fragment  # the tab it opens may use the page
        assert text == "#games › 💬"  # as Discord writes a link to a message, not the address
        assert not [link for link in links(page.state["messages"]) if "discord.com" in repr(link)]

        opened = href.split("#")[0]  # a new tab, the address without its fragment
        async with table.session.get(opened) as tab:
            assert tab.status == 200 and tab.headers["Referrer-Policy"] == "same-origin"
        capability = {"X-Simcord-Capability": own.fragment}
        headers = {**capability, "Referer": opened}
        async with table.session.post(f"{page.base}/api/pages", json={}, headers=headers) as response:
            shown = await response.json()
            assert (shown["targetId"], shown["viewerId"]) == (str(board.id), str(bob.id))
        headers["Referer"] = f"{page.base}/?message=123456789"  # a message that is gone
        async with table.session.post(f"{page.base}/api/pages", json={}, headers=headers) as response:
            assert response.status == 200  # the page opens as usual


# ---------------------------------------------------------------- names


async def test_the_page_names_the_players_and_the_bot_where_it_renders_mentions(database):
    async with local_table(table_bot(database)) as table:
        alice, bob = table.players[:2]
        await open_and_start(table.channel, alice, [bob], "tetrislink new")
        page = await table.page(alice)
        async with page.session.get(f"{page.base}/api/commands", headers=page.headers) as response:
            application = (await response.json())["application"]

        ping = page.message(table.channel.last_message.id)

        assert application["name"] == "Game Table" and ping["author"]["name"] == "Game Table"
        [mention] = tokens(ping, "mention")  # the player drawn to start
        names = {
            str(player.id): name for player, name in zip(table.players, DEFAULT_LOCAL_PLAYERS, strict=True)
        }
        assert mention["label"] == f"@{names[mention['id']]}"
        assert not page.shows("TestBot")


# ---------------------------------------------------------------- the page's address


async def test_the_page_answers_its_own_address_only(database):
    async with local_table(table_bot(database)) as table:
        own = f"http://127.0.0.1:{table.server.port}"
        capability = {"X-Simcord-Capability": urlsplit(table.server.url).fragment}
        viewer = {"viewer_id": str(table.players[0].id)}

        async with table.session.get(f"{own}/") as page:
            assert page.status == 200 and page.content_type == "text/html"
        async with table.session.post(f"{own}/api/pages", json=viewer, headers=capability) as opened:
            assert opened.status == 200
        async with table.session.get(f"{own}/", headers={"Host": "game-table.example"}) as rebound:
            assert rebound.status == 403
        foreign = {**capability, "Origin": "http://game-table.example"}
        async with table.session.post(f"{own}/api/pages", json=viewer, headers=foreign) as forged:
            assert forged.status == 403


# ---------------------------------------------------------------- the server's owner


@pytest.mark.parametrize(
    ("language", "said"),
    [("de", "Spieltisch"), ("fr", "Table de jeu"), ("en", "Game table")],
)
async def test_the_local_table_speaks_the_language_it_is_set_to(database, language, said):
    async with local_table(table_bot(database), language) as table:
        page = await table.page(table.players[1])
        status, _ = await page.run("help")
        await page.poll()
        assert status == 200 and page.shows(said)


@pytest.mark.parametrize(("language", "new"), [("de", "neu"), ("fr", "nouvelle-partie")])
async def test_help_names_the_commands_as_the_pages_picker_lists_them(database, language, new):
    async with local_table(table_bot(database), language) as table:
        page = await table.page(table.players[1])
        async with page.session.get(f"{page.base}/api/commands", headers=page.headers) as response:
            listed = {entry["invocation"] for entry in (await response.json())["entries"]}

        status, _ = await page.run("help")
        await page.poll()

        assert status == 200 and "tetrislink new" in listed and "matches" in listed
        assert page.shows("`/tetrislink new`") and page.shows("`/matches`")
        assert not page.shows(f"/tetrislink {new}")


async def test_what_the_bot_tells_on_the_page_names_the_commands_as_its_picker_lists_them(database):
    async with local_table(table_bot(database), "de") as table:
        alice, bob, carol = [await table.page(player) for player in table.players[:3]]
        _, opened = await alice.run("tetrislink new")
        lobby = int(opened["outcomes"][0]["messageId"])
        await bob.poll()
        await bob.click(lobby, "Beitreten")
        await alice.poll()
        await alice.click(lobby, "Starten")
        await carol.poll()

        status, _ = await carol.click(lobby, "Aufgeben")  # Carol does not play in this match
        await carol.poll()

        assert status == 200 and carol.shows("`/tetrislink new`") and not carol.shows("/tetrislink neu")


def test_the_local_language_is_one_the_bot_speaks():
    assert Settings.from_env({"LOCAL_LANGUAGE": "FR"}).local_language == "fr"
    with pytest.raises(SystemExit, match="LOCAL_LANGUAGE must be one of en, de, fr"):
        Settings.from_env({"LOCAL_LANGUAGE": "ja"})


async def test_the_first_local_player_owns_the_server_and_may_change_the_settings(simcord_env):
    channel, players = seat_local_players(simcord_env, DEFAULT_LOCAL_PLAYERS)
    owner, guest = players[0], players[1]

    changed = await owner.slash(channel, "settings clock", clock=600)

    assert changed.response.content.startswith("New matches now get 10 min")
    assert channel.guild.owner.id == owner.id
    with pytest.raises(simcord.SetupError, match="settings"):
        await guest.slash(channel, "settings clock", clock=600)  # hidden without Manage Server


# ---------------------------------------------------------------- the process


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def start_bot(tmp_path: Path, port: int) -> asyncio.subprocess.Process:
    """`python bot.py --local` on `port`, its temporary folders under tmp_path/tmp."""
    (tmp_path / "tmp").mkdir(exist_ok=True)
    environ = {
        **os.environ,
        "LOCAL_PORT": str(port),
        "TMPDIR": str(tmp_path / "tmp"),
        "DISCORD_TOKEN": "",
        "LOG_LEVEL": "WARNING",
    }
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(bot.__file__)),
        "--local",
        env=environ,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def ended(process: asyncio.subprocess.Process) -> tuple[int, str]:
    """The exit code and the error output, once the process ends (or a failure if it hangs)."""
    try:
        _, err = await asyncio.wait_for(process.communicate(), timeout=20)
    except TimeoutError:
        process.kill()
        await process.communicate()
        pytest.fail("the bot did not end")
    assert process.returncode is not None
    return process.returncode, err.decode()


def table_folders(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "tmp").glob("game-table-*"))


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
async def test_a_stop_signal_ends_the_local_table_cleanly(tmp_path, stop):
    process = await start_bot(tmp_path, free_port())
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), timeout=30)
    assert line.decode().startswith(OPEN_LINE), line
    assert len(table_folders(tmp_path)) == 1

    process.send_signal(stop)

    code, err = await ended(process)
    assert code == 0, err
    assert "Traceback" not in err
    assert table_folders(tmp_path) == []


async def test_a_port_in_use_is_one_sentence_naming_local_port(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = await start_bot(tmp_path, port)
        code, err = await ended(process)

    assert code == 1
    assert err.strip().splitlines() == [
        f"The local table cannot use port {port} (Address already in use) — set LOCAL_PORT in .env "
        f"to a free port, e.g. LOCAL_PORT={port + 1}."
    ]
    assert table_folders(tmp_path) == []
