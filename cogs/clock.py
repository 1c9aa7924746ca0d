"""The turn clock's heartbeat: every few seconds, the match framework checks deadlines."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from data.storage import StorageUnavailable

if TYPE_CHECKING:
    from bot import GameBot

log = logging.getLogger(__name__)
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
        """One beat; a fault is logged and the next beat comes all the same."""
        service = self.bot.matches
        try:
            await service.clock.tick(discord.utils.utcnow())
            if service.clock.running_clocks:
                await service.heartbeat()  # only clocks need to know how long the bot was away
        except StorageUnavailable as error:
            log.warning("The turn clock skipped a beat: %s", error)
        except Exception:
            log.exception("The turn clock's beat failed; it goes on")


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Clock(bot))
