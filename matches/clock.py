"""The turn clock: reminders before time runs out, and what happens when it does."""

from __future__ import annotations

import logging
from datetime import datetime

import discord

from data.model import TIMED_OUT, StorageUnavailable
from data.repositories import Database
from locales import N_, gettext, ngettext
from matches.board import Board
from matches.computers import Computers
from matches.deadlines import RunningMatches, reminder_lead
from matches.match import DEFAULT_CLOCK_S, DEFAULT_MAX_TIMEOUTS, MAX_AUTO_MOVES, Match, computer_id, who
from matches.notices import Notices
from matches.presence import Absences
from matches.private import PrivateReplies
from matches.turns import Turns, abandoning_note

log = logging.getLogger(__name__)

# What the clock names each kind of move it played for an absent player (the engines' move types).
MOVE_KINDS = {
    "arrange": N_("arrange"),
    "buy": N_("buy a card"),
    "flip": N_("flip"),
    "lock": N_("lock"),
    "pass": N_("pass"),
    "place": N_("place"),
    "play": N_("play a card"),
    "push": N_("push"),
    "steal": N_("steal"),
    "take": N_("take"),
    "take_joker": N_("take back the joker"),
    "trade": N_("trade a card"),
    "turn_down": N_("turn down"),
}


async def clock_for(storage: Database, guild_id: int, chosen: int | None) -> int | None:
    """Seconds per move of a new match: the host's choice, else the server's default (0: none)."""
    if chosen is None:
        default = (await storage.settings.for_guild(guild_id)).clock_s
        chosen = DEFAULT_CLOCK_S if default is None else default
    return chosen or None


class TurnClock:
    """Reminds and times out the players of running matches whose deadline comes."""

    def __init__(
        self,
        storage: Database,
        running: RunningMatches,
        turns: Turns,
        board: Board,
        notices: Notices,
        replies: PrivateReplies,
        computers: Computers,
        absences: Absences,
    ) -> None:
        self.storage = storage
        self.running = running
        self.turns = turns
        self.board = board
        self.notices = notices
        self.replies = replies
        self.computers = computers
        self.absences = absences

    async def tick(self, now: datetime) -> None:
        """Remind or time out the matches whose moment has come (found in the deadline index,
        not by walking every match); one broken match never stops the others. Boards a failed
        edit left behind are redrawn first, computer decisions a fault stopped decided again."""
        await self.board.redraw_stale()
        self.computers.retry()
        for match in self.running.due(now):
            try:
                await self._check(match, now)
            except StorageUnavailable as error:  # nothing was saved: the next beat tries again
                log.warning("The clock of match %s waits: %s", match.id, error)
            except discord.HTTPException as error:
                await self._refused(match, error)
            except Exception:
                log.exception("The clock of match %s failed", match.id)
            finally:
                self.running.watch(match)  # its next moment (or the same again, had it to wait)

    async def _refused(self, match: Match, error: discord.HTTPException) -> None:
        """Discord refused what the clock sent for `match`: set it aside if its place is lost."""
        try:
            lost = await self.board.lost_place(match, error)
        except StorageUnavailable as fault:  # still running: the next refusal tries again
            log.warning("Match %s waits to be set aside: %s", match.id, fault)
            return
        if not lost:
            log.error("The clock of match %s failed", match.id, exc_info=error)

    async def _check(self, match: Match, now: datetime) -> None:
        if self.computers.due(match) is not None:  # computers never run out of time
            self.computers.schedule(match)  # (again, if a fault stopped its last try)
            return
        if match.row.deadline is None or match.row.clock_s is None:
            return
        deadline = datetime.fromisoformat(match.row.deadline)
        if now >= deadline:
            await self.time_out(match)
        elif not match.row.reminded and now >= deadline - reminder_lead(match.row.clock_s):
            await self.remind(match)

    async def remind(self, match: Match) -> None:
        """DM the players due that their time runs out soon (closed DMs: said in the channel) —
        if this process claims the reminder: another one may have sent it, or moved on."""
        if await self.storage.matches.mark_reminded(match.id, turn=match.turn):
            match.row.reminded = True
            await self.notices.remind(match)
            return
        async with match.lock:
            await self.turns.reload(match)

    async def time_out(self, match: Match) -> None:
        """The clock ran out: play the turn as the rules allow, or seat a computer (normal) in
        place of a player who keeps timing out, so the others can finish. A player no longer on
        the server is resigned instead."""
        if await self.absences.check(match, fresh=True):
            return
        chosen = (await self.storage.settings.for_guild(match.row.guild_id)).max_timeouts
        limit = chosen or DEFAULT_MAX_TIMEOUTS
        async with match.lock:
            seats = match.engine.current_seats(match.state)
            deadline = match.row.deadline
            # A move made while this waited for the lock has already reset the clock.
            if not seats or deadline is None or discord.utils.utcnow() < datetime.fromisoformat(deadline):
                return
            seat = seats[0]
            timeouts = {**match.row.timeouts, str(seat): match.row.timeouts.get(str(seat), 0) + 1}
            replaced = timeouts[str(seat)] >= limit
            if replaced and not await self._replace(match, seat, timeouts, limit):
                return
            if not replaced:
                played = await self._auto_play(match, seat, timeouts)
                if played is None:  # another process played this turn first: it shows it
                    return
                note = gettext(
                    match.language,
                    "⏰ {player} ran out of time: {played}",
                    player=who(match.players[seat], match.language),
                    played=played,
                )
                match.notes.append(note)
        if replaced:  # the computer is newly due; the player's screen shows their seat no more
            await self.board.publish(None, match, previous_seats=())

            def text(lang: str) -> str:
                return gettext(
                    lang,
                    "A computer plays your seat in {game} #{id} now.",
                    game=match.engine.title,
                    id=match.id,
                )

            await self.replies.release(match, seat, text)
        else:
            await self.board.publish(None, match, previous_seats=seats)
            await self.replies.refresh(match, seat)  # what was played for them leaves their screen

    async def _replace(self, match: Match, seat: int, timeouts: dict[str, int], limit: int) -> bool:
        """Seat a normal computer instead of the seat's absent player and say so on the next
        board; False if the match ended meanwhile."""
        person, computer = match.players[seat], computer_id(match.players, "normal")
        rest = {key: count for key, count in timeouts.items() if key != str(seat)}
        # The player has resigned at this moment: rated last when the match ends, whatever the
        # computer then does with their seat.
        departure = await self.turns.departure(match, seat, TIMED_OUT)
        abandoning = abandoning_note(match, departure)
        departures = [*match.row.departures, departure]
        if not await self.storage.matches.replace_player(
            match.id, seat, computer, rest, replacing=person, departures=departures
        ):
            await self.turns.reload(match)  # ended, or another process replaced them first
            return False
        match.players[seat], match.row.timeouts, match.row.departures = computer, rest, departures
        lang = match.language
        note = ngettext(
            lang,
            "⏰ {player} ran out of time {n} time in a row: that counts as resigning, and {computer} "
            "plays their seat from now on without changing anyone's rating.",
            "⏰ {player} ran out of time {n} times in a row: that counts as resigning, and {computer} "
            "plays their seat from now on without changing anyone's rating.",
            limit,
            player=who(person, lang),
            computer=who(computer, lang),
        )
        match.notes.append(note)
        if abandoning:
            match.notes.append(abandoning)
        return True

    async def _auto_play(self, match: Match, seat: int, timeouts: dict[str, int]) -> str | None:
        """Play the seat's turn for them with the engine's `timeout_move`: what the rules
        allow an absent player, never a move that scores for them where a neutral one exists.
        None if another process had played the turn already (its commit claims the time-out)."""
        played = []
        for _ in range(MAX_AUTO_MOVES):
            if seat not in match.engine.current_seats(match.state):
                break
            move = match.engine.timeout_move(match.state, seat)
            state = match.engine.apply(match.state, seat, move)
            if not await self.turns.commit(
                match, seat, None, {**move, "by": "clock"}, state, timeouts=timeouts
            ):
                break
            played.append(move.get("type", "move"))
        if not played:
            return None
        lang = match.language
        kinds = ", ".join(gettext(lang, MOVE_KINDS.get(kind, kind)) for kind in dict.fromkeys(played))
        return gettext(lang, "the turn was played for them ({moves}).", moves=kinds)
