"""The turn clock's heartbeat: every few seconds, the match framework checks deadlines."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

if TYPE_CHECKING:
    from bot import GameBot

TICK_S = 15


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
        await service.clock.tick(discord.utils.utcnow())
        if service.clock.running_clocks:
            await service.heartbeat()  # only clocks need to know how long the bot was away


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Clock(bot))
