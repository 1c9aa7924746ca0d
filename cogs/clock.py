"""The turn clock: reminders before time runs out, and what happens when it does."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot import GameBot
    from cogs.framework import Match

log = logging.getLogger(__name__)

TICK_S = 15


def reminder_lead(clock_s: int) -> timedelta:
    """How long before the deadline the reminder goes out: a quarter of the clock, at most an hour."""
    return timedelta(seconds=min(clock_s / 4, 3600))


class Clock(commands.Cog):
    """Drives every running match's deadline from the database-backed state in memory."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.tick.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()

    @tasks.loop(seconds=TICK_S)
    async def tick(self) -> None:
        service = self.bot.matches
        now = discord.utils.utcnow()
        for match in list(service.running.values()):
            try:
                await self._check(match, now)
            except Exception:  # one broken match must not stop every other clock
                log.exception("The clock of match %s failed", match.id)
        if any(match.row.deadline for match in service.running.values()):
            await service.heartbeat()  # only clocks need to know how long the bot was away

    async def _check(self, match: Match, now: datetime) -> None:
        if match.row.deadline is None or match.row.clock_s is None:
            return
        deadline = datetime.fromisoformat(match.row.deadline)
        if now >= deadline:
            await self.bot.matches.time_out(match)
        elif not match.row.reminded and now >= deadline - reminder_lead(match.row.clock_s):
            await self.bot.matches.remind(match)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Clock(bot))
