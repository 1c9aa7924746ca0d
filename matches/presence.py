"""Players who are no longer on a match's server: found when their turn comes or their time
runs out, and resigned on that turn.

The bot has no member events (they need the privileged members intent), so it asks Discord:
a member whose fetch answers Unknown Member (or Unknown User, a deleted account) has left.
Any other answer, or none, counts as present: nobody is resigned on a doubt. A member found
present — or who used the bot there — is not asked about again for ten minutes, so live play
costs almost no requests; a member whose time ran out is always asked.
"""

from __future__ import annotations

import asyncio
import logging
import time

import discord

from data.model import DEPARTED, StorageUnavailable
from games import GameError
from matches.board import Board
from matches.match import Match, humans
from matches.private import PrivateReplies
from matches.turns import Turns

log = logging.getLogger(__name__)

GONE_CODES = frozenset({10007, 10013})  # Unknown Member, Unknown User
PRESENT_FOR_S = 600.0  # how long a member found present is taken to be present, between turns
_FORGET_AT = 10_000  # past this many remembered members, the stale ones are dropped


class Presence:
    """Asks Discord whether members are still on a server, remembering who was, for a while."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._seen: dict[tuple[int, int], float] = {}  # (guild, member) -> when found present

    async def gone(self, guild_id: int, user_id: int, *, fresh: bool = False) -> bool:
        """True only when Discord says `user_id` is not a member of the server (any more);
        `fresh`: ask even if they were found present a moment ago."""
        key = (guild_id, user_id)
        now = time.monotonic()
        if not fresh and now - self._seen.get(key, -PRESENT_FOR_S) < PRESENT_FOR_S:
            return False
        guild = self.bot.get_guild(guild_id)
        if guild is None:  # not the bot's server (any more): not this question
            return False
        try:
            await guild.fetch_member(user_id)
        except discord.NotFound as error:
            return error.code in GONE_CODES
        except (TimeoutError, discord.HTTPException, OSError) as error:  # no answer: a doubt
            log.info("Whether member %s is still on server %s is unknown: %s", user_id, guild_id, error)
            return False
        self.seen(guild_id, user_id)
        return False

    def seen(self, guild_id: int, user_id: int) -> None:
        """Note that `user_id` is on the server now (found there, or they just used the bot there)."""
        now = time.monotonic()
        if len(self._seen) >= _FORGET_AT:
            self._seen = {k: t for k, t in self._seen.items() if now - t < PRESENT_FOR_S}
        self._seen[guild_id, user_id] = now


class Absences:
    """Resigns the people due in a match who are no longer on its server, then shows the board."""

    def __init__(self, presence: Presence, turns: Turns, board: Board, replies: PrivateReplies) -> None:
        self.presence = presence
        self.turns = turns
        self.board = board
        self.replies = replies
        self.checking: dict[int, asyncio.Task[None]] = {}  # checks under way, by match

    def watch(self, match: Match) -> None:
        """Check the people now due in `match` in the background (after a board was shown)."""
        if match.row.status != "running" or match.id in self.checking:
            return
        task = asyncio.create_task(self._watch(match))
        self.checking[match.id] = task
        task.add_done_callback(lambda _: self.checking.pop(match.id, None))

    async def _watch(self, match: Match) -> None:
        try:
            while await self.check(match):  # the next person due may have left too
                pass
        except StorageUnavailable as error:  # nothing was saved: their next turn asks again
            log.warning("A departed player of match %s waits to be resigned: %s", match.id, error)
        except Exception:  # a task of its own: nobody else would say what failed
            log.exception("Resigning a departed player of match %s failed", match.id)

    async def check(self, match: Match, *, fresh: bool = False) -> bool:
        """Resign the first person due in `match` who left its server; True if one was.
        `fresh`: ask Discord about each, whatever was found a moment ago (their time ran out)."""
        turn = match.turn
        for seat in match.engine.current_seats(match.state):
            user = match.players[seat]
            if humans([user]) and await self.presence.gone(match.row.guild_id, user, fresh=fresh):
                return await self._resign(match, seat, user, turn)
        return False

    async def _resign(self, match: Match, seat: int, user: int, turn: int) -> bool:
        async with match.lock:
            if match.turn != turn or match.row.status != "running" or match.players[seat] != user:
                return False  # they moved, or the match went on, meanwhile
            previous_seats = match.engine.current_seats(match.state)
            try:
                if not await self.turns.leave(match, seat, DEPARTED, by=None):
                    return False
            except GameError as error:
                log.warning("Departed player %s of match %s could not be resigned: %s", user, match.id, error)
                return False
        await self.board.publish(None, match, previous_seats=previous_seats)
        await self.replies.refresh(match, seat)
        return True
