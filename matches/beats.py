"""The framework's own heartbeat: every few seconds the turn clock checks deadlines; every
second, computer seats whose moment has come make their move; a shard process reads now
and then what the others wrote to its matches. The turn clock's beat also ends the seasons
whose time has come.

Each beat is a method taking the time (`tick`, `computers_beat`) or nothing (`catch_up`),
so a match runs without Discord by calling them; `start` runs them on timers, `stop` ends
them. A fault in one beat is logged and the next beat comes all the same."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import datetime

import discord
from discord.ext import tasks

from data.model import StorageUnavailable
from matches.clock import TurnClock
from matches.computers import Computers
from matches.match import Match

log = logging.getLogger(__name__)
TICK_S = 15
COMPUTER_BEAT_S = 1  # how finely computers time their moves
CATCH_UP_S = 60  # how often a shard process reads what the others wrote to its matches


class Beats:
    """Drives every running match's deadline and computer seats from the state in memory."""

    def __init__(
        self,
        running: Mapping[int, Match],
        clock: TurnClock,
        computers: Computers,
        alive: Callable[[], Awaitable[None]],
        catch_up: Callable[[], Awaitable[None]] | None,
        seasons: Callable[[datetime], Awaitable[None]] | None = None,
    ) -> None:
        """`alive` notes that the bot is up; `catch_up` (None: this process is alone on its
        database) takes in what other processes wrote; `seasons` ends the seasons due."""
        self.running = running
        self.clock = clock
        self.computers = computers
        self.alive = alive
        self.other_processes = catch_up
        self.seasons = seasons

    async def tick(self, now: datetime) -> None:
        """The turn clock's beat: reminders and time-outs due by `now`."""
        try:
            await self.clock.tick(now)
            if self.running:  # clocks and claims need to know how long the bot was away
                await self.alive()
        except StorageUnavailable as error:
            log.warning("The turn clock skipped a beat: %s", error)
        except Exception:
            log.exception("The turn clock's beat failed; it goes on")
        await self.season_ends(now)

    async def season_ends(self, now: datetime) -> None:
        """The seasons whose time has come by `now` end."""
        if self.seasons is None:
            return
        try:
            await self.seasons(now)
        except StorageUnavailable as error:
            log.warning("Ending seasons waits for the next beat: %s", error)
        except Exception:
            log.exception("Ending seasons failed; the next beat tries again")

    async def computers_beat(self, now: datetime) -> None:
        """Computer moves whose natural moment has come by `now` are played."""
        try:
            await self.computers.play_due(now)
        except Exception:
            log.exception("The computers' beat failed; it goes on")

    async def catch_up(self) -> None:
        """Take in the moves other processes played in this process's matches."""
        if self.other_processes is None:
            return
        try:
            await self.other_processes()
        except StorageUnavailable as error:
            log.warning("Catching up with the other processes waits: %s", error)
        except Exception:
            log.exception("Catching up with the other processes failed; it tries again")

    def start(self) -> None:
        """Run the beats on their timers, on the wall clock (`discord.utils.utcnow`)."""
        self._tick.start()
        self._computers.start()
        if self.other_processes is not None:
            self._catch_up.start()

    def stop(self) -> None:
        self._tick.cancel()
        self._computers.cancel()
        self._catch_up.cancel()

    @tasks.loop(seconds=TICK_S)
    async def _tick(self) -> None:
        await self.tick(discord.utils.utcnow())

    @tasks.loop(seconds=COMPUTER_BEAT_S)
    async def _computers(self) -> None:
        await self.computers_beat(discord.utils.utcnow())

    @tasks.loop(seconds=CATCH_UP_S)
    async def _catch_up(self) -> None:
        await self.catch_up()
