"""The turn clock: reminders before time runs out, and what happens when it does."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from cogs.match import MAX_AUTO_MOVES, Match

if TYPE_CHECKING:
    from bot import GameBot

log = logging.getLogger(__name__)

TICK_S = 15


def reminder_lead(clock_s: int) -> timedelta:
    """How long before the deadline the reminder goes out: a quarter of the clock, at most an hour."""
    return timedelta(seconds=min(clock_s / 4, 3600))


class TurnClock:
    """The clock half of `MatchService` (a mixin): reminders and time-outs."""

    async def remind(self, match: Match) -> None:
        """DM the players due that their time runs out soon (closed DMs: said in the channel)."""
        match.row.reminded = True
        await self.storage.set_reminded(match.id)
        due = int(datetime.fromisoformat(match.row.deadline).timestamp()) if match.row.deadline else 0
        for seat in match.engine.current_seats(match.state):
            text = (
                f"⏰ Your time in **{match.engine.title} #{match.id}** runs out <t:{due}:R>: "
                f"{match.jump_url()}"
            )
            await self._dm(match, seat, {"content": text})

    async def time_out(self, match: Match) -> None:
        """The clock ran out: play the turn as the rules allow, or remove a player who keeps timing out."""
        limit = await self.max_timeouts(match.row.guild_id)
        async with match.lock:
            seats = match.engine.current_seats(match.state)
            deadline = match.row.deadline
            # A move made while this waited for the lock has already reset the clock.
            if not seats or deadline is None or discord.utils.utcnow() < datetime.fromisoformat(deadline):
                return
            seat = seats[0]
            timeouts = {**match.row.timeouts, str(seat): match.row.timeouts.get(str(seat), 0) + 1}
            mention = f"<@{match.players[seat]}>"
            if timeouts[str(seat)] >= limit:
                state = match.engine.resign(match.state, seat)
                move = {"type": "resign", "reason": "timeout"}
                note = f"⏰ {mention} ran out of time {limit} times in a row and was removed as resigned."
                if not await self._commit(match, seat, None, move, state, timeouts=timeouts):
                    return
            else:
                note = f"⏰ {mention} ran out of time: " + await self._auto_play(match, seat, timeouts)
            match.notes.append(note)
        await self._publish(None, match, previous_seats=seats)

    async def _auto_play(self, match: Match, seat: int, timeouts: dict[str, int]) -> str:
        """Play the seat's turn for them: a pass or skip where there is one, else the first legal move."""
        played = []
        for _ in range(MAX_AUTO_MOVES):
            if seat not in match.engine.current_seats(match.state):
                break
            moves = match.engine.legal_moves(match.state, seat)
            move = next((m for m in moves if m.get("type") in ("pass", "skip")), moves[0])
            state = match.engine.apply(match.state, seat, move)
            if not await self._commit(match, seat, None, {**move, "by": "clock"}, state, timeouts=timeouts):
                break
            played.append(move.get("type", "move"))
        kinds = ", ".join(dict.fromkeys(played)) or "nothing"
        return f"the turn was played for them ({kinds})."


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
