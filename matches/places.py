"""Places the bot lost. A match whose channel or server is gone, or where the bot lost a
permission it needs, is set aside once: its clock stops, its players are told once, and
nothing more is sent for it (no edits, pings, reminders, time-outs or computer moves) —
Discord would refuse each request again, and bans a bot that makes too many refused ones.
One set aside for a lost permission or server comes back when one of its players brings its
board down (`/matches` → Board ↓) once the bot may post there again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord

from data.model import SetAside
from data.repositories import Database
from matches.board import Board
from matches.deadlines import RunningMatches
from matches.match import Match
from matches.notices import Notices
from matches.refusals import DELETED, REMOVED, lost_place, resumable

log = logging.getLogger(__name__)


class Places:
    """Sets aside the matches (of `running`, shared with the service) whose place is lost."""

    def __init__(self, storage: Database, running: RunningMatches, board: Board, notices: Notices) -> None:
        self.storage = storage
        self.running = running
        self.board = board
        self.notices = notices
        self.resuming = asyncio.Lock()  # one match comes back at a time (its board posted once)
        # Told of a match set aside for good (its channel deleted): a tournament decides its table.
        self.gone: Callable[[Match], Awaitable[None]] | None = None

    async def lost(self, match: Match, error: discord.HTTPException) -> bool:
        """Whether `error`, met while publishing `match`, says the bot lost its place; if so the
        match is set aside (its players told, unless another call or process did it first)."""
        reason = lost_place(error)
        if reason is None:
            return False
        aside = await self.storage.matches.set_aside(match.id, reason, resumable=resumable(reason))
        self._forget(match, resumable(reason))
        if aside is not None:
            log.warning("Match %s is set aside: %s (%s)", match.id, reason, error)
            await self.notices.place_lost(aside)
            if not resumable(reason):
                await self._gone(match)
        return True

    async def channel_deleted(self, channel_id: int) -> None:
        """A channel (or thread) was deleted: its running matches end here, set aside."""
        for match in [match for match in self.running.values() if match.row.channel_id == channel_id]:
            log.warning("Match %s is set aside: %s", match.id, DELETED)
            aside = await self.storage.matches.set_aside(match.id, DELETED)
            self._forget(match, False)
            if aside is not None:
                await self.notices.place_lost(aside)
                await self._gone(match)

    async def _gone(self, match: Match) -> None:
        if self.gone is not None:
            await self.gone(match)

    async def guild_removed(self, guild_id: int) -> None:
        """The bot left a server or was removed from it: every running match of that server,
        in memory or only stored, is set aside until it is resumed there."""
        set_aside: list[SetAside] = await self.storage.matches.set_aside_guild(guild_id, REMOVED)
        for match in [match for match in self.running.values() if match.row.guild_id == guild_id]:
            self._forget(match, True)
        for aside in set_aside:
            log.warning("Match %s is set aside: %s", aside.id, REMOVED)
            await self.notices.place_lost(aside)

    def _forget(self, match: Match, can_resume: bool) -> None:
        """Stop everything this process does for the match: its clock, its computer seats
        (they play only matches in `running`), its spectators and a pending redraw."""
        running = self.running.remove(match.id)
        for known in (match, running):
            if known is not None:
                known.row.status, known.row.resumable = "set_aside", can_resume
                known.row.deadline, known.row.reminded = None, False
        self.board.stale.pop(match.id, None)
        self.board.watchers.pop(match.id, None)
