"""The turn clock's heartbeat: every few seconds, the match framework checks deadlines;
every second, computer seats whose moment has come make their move."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from data.model import StorageUnavailable

if TYPE_CHECKING:
    from bot import GameBot

log = logging.getLogger(__name__)
TICK_S = 15
COMPUTER_BEAT_S = 1  # how finely computers time their moves
CATCH_UP_S = 60  # how often a shard process reads what the others wrote to its matches


class Clock(commands.Cog):
    """Drives every running match's deadline from the database-backed state in memory."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.tick.start()
        self.computer_beat.start()
        if self.bot.matches.shards.count is not None:  # other processes share the database
            self.catch_up.start()

    async def cog_unload(self) -> None:
        self.tick.cancel()
        self.computer_beat.cancel()
        self.catch_up.cancel()

    @tasks.loop(seconds=TICK_S)
    async def tick(self) -> None:
        """One beat; a fault is logged and the next beat comes all the same."""
        service = self.bot.matches
        try:
            await service.clock.tick(discord.utils.utcnow())
            if service.running:  # clocks and claims need to know how long the bot was away
                await service.heartbeat()
        except StorageUnavailable as error:
            log.warning("The turn clock skipped a beat: %s", error)
        except Exception:
            log.exception("The turn clock's beat failed; it goes on")

    @tasks.loop(seconds=CATCH_UP_S)
    async def catch_up(self) -> None:
        """Take in the moves other processes played in this process's matches."""
        try:
            await self.bot.matches.catch_up()
        except StorageUnavailable as error:
            log.warning("Catching up with the other processes waits: %s", error)
        except Exception:
            log.exception("Catching up with the other processes failed; it tries again")

    @tasks.loop(seconds=COMPUTER_BEAT_S)
    async def computer_beat(self) -> None:
        """Computer moves whose natural moment has come are played."""
        try:
            await self.bot.matches.computers.play_due(discord.utils.utcnow())
        except Exception:
            log.exception("The computers' beat failed; it goes on")


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Clock(bot))
