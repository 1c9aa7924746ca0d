"""One of two twin worlds racing one match through one PostgreSQL (see test_twins.py).

`python -m tests.e2e.twin ROLE DATABASE_URL FOLDER` builds a SimCord world with the same
server, channel and members as its twin (SimCord builds identical ids for identical steps)
and a bot process on the shared database that runs every shard (so both processes believe
they own the match, as during a hand-over). World "a" opens and starts a Tetris Link match;
world "b" finds it with `/matches` and brings its board down (Board ↓), so its bot reads the
match from the database. World b's clock runs one second ahead, so that the two worlds'
messages never share an id: one Discord would never have two messages with one id.

Then, round after round, both worlds make the same move at the same moment (a file
barrier in FOLDER); each writes what its player was told to FOLDER/<role>.json. Finally
both let the clock run past the deadline of the last turn.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

import simcord

from bot import GameBot, Settings, ShardedGameBot
from data.model import Shards
from tests.e2e.helpers import (
    SETTLE_S,
    all_text,
    body,
    channel_message,
    components,
    footer,
    has_card,
    mover,
    open_and_start,
    title,
    told,
)

ROUNDS = 6
EVERY_SHARD = Shards(1, (0,))  # SHARD_COUNT=1: a sharded process that owns every guild
BARRIER_S = 60.0


class Barrier:
    """Both worlds reach step `name` before either goes on."""

    def __init__(self, folder: Path, role: str) -> None:
        self.folder, self.role = folder, role
        self.other = "b" if role == "a" else "a"

    async def meet(self, name: str) -> None:
        (self.folder / f"{self.role}.{name}").touch()
        await asyncio.to_thread(self._wait, self.folder / f"{self.other}.{name}")

    @staticmethod
    def _wait(path: Path) -> None:
        end = time.monotonic() + BARRIER_S
        while not path.exists():
            if time.monotonic() > end:
                raise TimeoutError(f"the twin world never reached {path.name}")
            time.sleep(0.002)


class TwinBot(ShardedGameBot):
    """The bot of one twin world. The worlds share the database, where the first bot notes
    that it synced the command tree; each simulated Discord needs its own sync (one real
    Discord needs one), and both worlds must allocate the same ids for it."""

    async def sync_commands(self) -> None:
        await self.tree.sync()


def bot_on(database: str) -> GameBot:
    return TwinBot(Settings(database=database, shards=EVERY_SHARD))


async def race(role: str, url: str, folder: Path) -> None:
    barrier = Barrier(folder, role)
    seen: dict[str, Any] = {"rounds": [], "reminders": 0, "timeouts": 0}
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    bot = bot_on(url)
    async with simcord.run(bot, settle_timeout=SETTLE_S) as env:
        guild = env.create_guild("Twins")
        channel = guild.create_text_channel("games")
        alice, bob = (guild.add_member(env.create_user(name)) for name in ("alice", "bob"))
        seen["ids"] = [guild.id, channel.id, alice.id, bob.id]
        if role == "a":
            await open_and_start(channel, alice, [bob], "tetrislink new", dice=False, clock=120)
        else:
            await env.advance_time(1)
        await barrier.meet("started")
        for number in range(ROUNDS):
            await barrier.meet(f"round{number}")
            seen["rounds"].append(await play_round(channel, (alice, bob), barrier, number))
        await barrier.meet("clock")
        # Past the reminder (a quarter before the deadline), then past the deadline: the clock
        # looks every 15 s, and world b's clock is a second ahead.
        await env.advance_time(120 - 30 + 5)
        await env.advance_time(45)
        seen["reminders"] = sum("runs out" in m.content for m in dms(alice, bob))
        boards = [m for m in channel.history() if is_board(m)]
        seen["timeouts"] = sum(body(m).count("ran out of time") for m in boards)
        seen["boards"] = [f"{m.id}: {footer(m)}: {body(m)}" for m in boards]
    await bot.storage.close()  # SimCord leaves a detached bot's database open
    seen["errors"] = errors.messages
    (folder / f"{role}.json").write_text(json.dumps(seen))


class ErrorRecords(logging.Handler):
    """The ERROR records the bot logged (the test fails on any, as the suite does)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(self.format(record))


async def play_round(channel: Any, members: tuple[Any, Any], barrier: Barrier, number: int) -> str:
    """Make the round's move as the player to move: bring the board down (`/matches`, Board ↓:
    the other world's moves are not drawn in this one), pick the first shape that fits, then,
    once both worlds are there, drop it as it stands. Returns what the player was told ("" if
    the move was made)."""
    board = await bring_down(channel, members[0])
    player = mover(board, list(members))
    assert player is not None, "the match ended early"
    if drop(board) is None:
        shape = next(c for c in components(board) if (c.custom_id or "").startswith("m:") and not c.disabled)
        picked = await player.click(board, custom_id=shape.custom_id)
        assert picked.acknowledged and not told(picked), told(picked)
        board = channel_message(channel, board.id)
    button = drop(board)
    assert button is not None
    await barrier.meet(f"click{number}")
    result = await player.click(board, custom_id=button.custom_id)
    assert result.acknowledged
    return told(result)


async def bring_down(channel: Any, member: Any) -> Any:
    """The match's board, posted afresh at the bottom of the channel from `/matches`."""
    listed = await member.slash(channel, "matches")
    shown = listed.response.message
    buttons = [c for c in components(shown) if (c.label or "").startswith("Board #")]
    assert buttons, f"/matches shows no board: {shown.content} {all_text(shown)}"
    button = buttons[0]
    pressed = await member.click(listed.response.message, custom_id=button.custom_id)
    assert pressed.acknowledged and "now at the bottom" in told(pressed), told(pressed)
    return next(m for m in reversed(channel.history()) if is_board(m))


def is_board(message: Any) -> bool:
    return has_card(message) and title(message).startswith("Tetris Link #")


def drop(board: Any) -> Any | None:
    return next((c for c in components(board) if (c.label or "").startswith("Drop")), None)


def dms(*members: Any) -> list[Any]:
    return [m for member in members if member.user.dm_channel for m in member.user.dm_channel.history()]


if __name__ == "__main__":
    asyncio.run(race(sys.argv[1], sys.argv[2], Path(sys.argv[3])))
