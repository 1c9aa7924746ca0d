"""`MatchService`: owns the running matches and routes every click to a collaborator."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

import discord

from data.model import ALL_SHARDS, MatchRow, Shards, StorageUnavailable, now_iso
from data.repositories import Database
from games import GameError
from locales import N_, command, gettext, ngettext
from locales.audience import command_names, private_language
from matches.awards import Awards
from matches.beats import Beats
from matches.board import Board
from matches.clock import TurnClock
from matches.computers import Computers
from matches.deadlines import RunningMatches
from matches.game_ui import AnyGameUI
from matches.hints import Hints
from matches.lobby import Lobby
from matches.match import (
    ALIVE,
    BOARD,
    CANCEL,
    CLAIM,
    CLAIM_CONFIRM,
    HINT,
    HINT_CONFIRM,
    PRIVATE,
    REMATCH,
    REPLAY,
    RESIGN,
    RESIGN_CONFIRM,
    TAKEBACK,
    WATCH,
    Match,
    help_text,
    jump_url,
    later,
    start_text,
    tell,
)
from matches.notices import Notices
from matches.places import Places
from matches.presence import Absences, Presence
from matches.private import PrivateReplies
from matches.replays import Replays
from matches.seasons import SeasonKeeper
from matches.spec import Games
from matches.takeback import Takebacks, is_takeback
from matches.tournaments import Tournaments
from matches.turns import Turns

log = logging.getLogger(__name__)
# The controls of a board (a private reply may hold Hint too): pressed on an old board, they point to the new.
BOARD_CONTROLS = (PRIVATE, RESIGN, CLAIM, HINT, TAKEBACK)
# How far before its last look a process looks again for what others wrote: room for the
# clocks of two machines to differ.
CATCH_UP_OVERLAP = timedelta(minutes=1)


@asynccontextmanager
async def answering(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Answer a database fault privately: nothing was saved, nothing changed, try again."""
    try:
        yield
    except StorageUnavailable as error:
        log.warning("A press was refused for a database fault: %s", error)
        await tell(interaction, gettext(private_language(interaction), str(error)))


class MatchService:
    """The match framework of one bot: it hosts the `games` it is given, resumes matches,
    routes clicks and keeps time (`beats`).

    `specs` are the games' specs, as given; `games` their move presentations (each game's
    `GameUI`, made here from its spec: the bot adds them as its cogs). `running` holds the
    matches of the guilds this process owns (`shards`): it runs their clocks and computer
    seats. A click on a match another process runs is played on a copy read from the database;
    every write is claimed there (a move at its turn, a reminder, a replacement), so nothing
    happens twice whichever process acts."""

    def __init__(
        self, bot: discord.Client, storage: Database, games: Games, shards: Shards = ALL_SHARDS
    ) -> None:
        self.storage = storage
        self.shards = shards
        self.specs = games
        self.games: Mapping[str, AnyGameUI] = MappingProxyType(
            {name: spec.presentation(bot, spec) for name, spec in games.items()}
        )
        self.running = RunningMatches()
        self.looked = now_iso()  # when `catch_up` last read what other processes wrote
        self.notices = Notices(bot, storage, self.games, games)
        self.board = Board(bot, storage, self.games, self.notices)
        self.replies = PrivateReplies(self.games)
        self.turns = Turns(storage, self.running, self.games, self.board, self.replies)
        self.lobby = Lobby(storage, self.running, self.games, games, self.board)
        self.replays = Replays(storage, self.games)
        self.hints = Hints(storage, self.games)
        self.computers = Computers(storage, self.running, self.games, self.turns, self.board)
        self.places = Places(storage, self.running, self.board, self.notices)
        self.awards = Awards(storage, games, shards)
        self.turns.ended = self.awards.match_ended
        self.takebacks = Takebacks(
            storage, self.running, self.games, self.board, self.replies, self.computers, self.hints
        )
        self.board.moved_on = self.takebacks.lapse
        self.computers.holds = self.takebacks.holds
        self.absences = Absences(Presence(bot), self.turns, self.board, self.replies)
        self.board.after_publish = self._after_publish
        self.board.lost_place = self.places.lost
        self.tournaments = Tournaments(
            bot, storage, self.games, self.running, self.board, self.turns, shards, self.awards
        )
        self.places.gone = self.tournaments.match_gone
        self.board.ended = self.tournaments.match_ended
        self.clock = TurnClock(
            storage,
            self.running,
            self.turns,
            self.board,
            self.notices,
            self.replies,
            self.computers,
            self.absences,
        )
        self.seasons = SeasonKeeper(bot, storage, shards, self.awards)
        sharded = shards.count is not None  # other processes share the database
        self.beats = Beats(
            self.running,
            self.clock,
            self.computers,
            self.heartbeat,
            self.catch_up if sharded else None,
            self.seasons.check,
        )

    async def resume(self) -> int:
        """Load every running match from the database; returns how many.

        Turn clocks are pushed back by the time the bot was away: an outage of the bot
        does not count against players.
        """
        self.looked = now_iso()
        outage = await self._outage()
        rows, set_aside = await self.storage.matches.resume_running(outage, self.shards)
        for row in rows:
            match, reason = self._revive(row)
            if match is None:
                log.warning("Match %s is set aside: %s", row.id, reason)
                if aside := await self.storage.matches.set_aside(row.id, reason):
                    set_aside.append(aside)
                continue
            self.running.add(match)
            if row.board_stale:  # its last redraw failed before the restart
                self.board.stale[row.id] = match
        for aside in set_aside:
            await self.notices.set_aside(aside)
        await self.takebacks.resume()
        for match in self.running.values():
            self.computers.schedule(match)  # a turn a computer was deciding when the bot stopped
        self.awards.start()  # the matches finished but not awarded yet, silently
        await self.heartbeat()
        await self.tournaments.resume()  # a round whose last match ended while the bot was away
        return len(self.running)

    def _revive(self, row: MatchRow) -> tuple[Match | None, str]:
        """The running match of a stored row, or why it cannot be played on."""
        engine = self.specs.engine(row.game)
        if engine is None:
            return None, N_("this bot no longer hosts its game")
        try:
            state = engine.load(row.state or "")
        except GameError:
            return None, N_("its stored position is unreadable")
        return Match(row=row, engine=engine, state=state), ""

    async def catch_up(self) -> None:
        """Take in what other processes wrote to this process's matches since the last look:
        a move played by a click that reached another process, a match started or ended there."""
        since = (datetime.fromisoformat(self.looked) - CATCH_UP_OVERLAP).isoformat()
        self.looked = now_iso()
        for match_id, (turn, status) in (await self.storage.matches.turns_since(since, self.shards)).items():
            match = self.running.get(match_id)
            if match is None:
                if status == "running":
                    await self.match(match_id)
                continue
            if turn == match.turn and status == "running":
                continue
            async with match.lock:
                await self.turns.reload(match)
            if match.row.status == "running":
                self.computers.schedule(match)
            else:
                await self.tournaments.match_ended(match)  # ended by a press another process took

    async def match(self, match_id: int) -> Match | None:
        """A running match: this process's own, or one read from the database (a match another
        process started, or runs: a guild of another shard)."""
        match = self.running.get(match_id)
        if match is not None:
            return match
        row = await self.storage.matches.get(match_id)
        if row is None or row.status != "running":
            return None
        match, _ = self._revive(row)
        if match is not None and self.shards.owns(row.guild_id):
            self.running.add(match)
            self.computers.schedule(match)
        return match

    async def used_by(self, interaction: discord.Interaction) -> None:
        """A member used the bot: they are on the server they used it in; and with a command (a
        deliberate use, not a press made every turn) DMs to them are tried again if Discord
        refused them before."""
        if interaction.guild_id is not None:
            self.absences.presence.seen(interaction.guild_id, interaction.user.id)
        if interaction.type is discord.InteractionType.application_command:
            await self.notices.closed_dms.used_bot(interaction.user.id)

    def _after_publish(self, match: Match) -> None:
        """In the process that runs the match: a computer due next plays; a person due next who
        left the server is resigned."""
        if self.running.get(match.id) is match:
            self.computers.schedule(match)
            self.absences.watch(match)

    @property
    def _alive_key(self) -> str:
        return ALIVE if self.shards == ALL_SHARDS else f"{ALIVE} ({self.shards.name})"

    async def _outage(self) -> timedelta:
        last = await self.storage.settings.get_meta(self._alive_key)
        try:
            return max(timedelta(0), discord.utils.utcnow() - datetime.fromisoformat(last or ""))
        except (TypeError, ValueError):  # never up before, or an unreadable note: no outage to add
            return timedelta(0)

    async def heartbeat(self) -> None:
        """Note that the bot is up (the clock calls this), to measure outages."""
        await self.storage.settings.set_meta(self._alive_key, now_iso())

    async def prepare(self) -> None:
        """Prepare every game's renderer (palettes, sprites, fonts) in threads, off the event loop,
        so that no first board learns them while players wait."""
        await asyncio.gather(*(asyncio.to_thread(spec.prepare) for spec in self.specs.values()))

    def start(self) -> None:
        """Keep time on the wall clock: the turn clock, computer seats, catching up (`beats`)."""
        self.beats.start()

    async def close(self) -> None:
        """Stop keeping time, the computers' decisions under way and the replay worker."""
        self.beats.stop()
        await self.awards.stop()
        await self.computers.stop()
        self.replays.close()

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: AnyGameUI,
        options: Mapping[str, Any],
        clock: int | None = None,
        computers: tuple[str, ...] = (),
    ) -> None:
        async with answering(interaction):
            await self.lobby.open(interaction, game, options, clock, computers=computers)

    async def on_lobby(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        async with answering(interaction):
            await self.lobby.on_button(interaction, match_id, action)

    async def on_lobby_computer(self, interaction: discord.Interaction, match_id: int, choice: str) -> None:
        async with answering(interaction):
            await self.lobby.on_computer(interaction, match_id, choice)

    async def on_component(
        self,
        interaction: discord.Interaction,
        match_id: int,
        turn: int,
        arg: str,
    ) -> None:
        """Route a click on a framework button (private view, resign, rematch): refuse
        politely what is not allowed, then act."""
        async with answering(interaction):
            if arg == REMATCH:
                await self.lobby.rematch(interaction, match_id)
                return
            if arg == WATCH:
                await self._watch(interaction, match_id)
                return
            if arg == REPLAY:
                await self.replays.send(interaction, match_id, private=True)
                return
            if arg == CANCEL:
                await self.lobby.cancel_listed(interaction, match_id)
                return
            if arg == BOARD and match_id not in self.running and await self._resume(interaction, match_id):
                return
            seated = await self._seated(interaction, match_id)
            if seated is None:
                return
            match, seat = seated
            if arg in BOARD_CONTROLS and not await self._from_board(interaction, match):
                return
            if arg == PRIVATE:
                await self.replies.send(interaction, match, seat)
            elif arg == BOARD:
                await self._bring_down(interaction, match)
            elif is_takeback(arg):
                await self.takebacks.press(interaction, match, turn, arg)
            elif arg == RESIGN:
                await self.turns.ask_resign(interaction, match)
            elif arg == RESIGN_CONFIRM:
                if await self._in_place(interaction, match, "p") and await self._current(
                    interaction, match, turn
                ):
                    await self.turns.resign(interaction, match, seat, turn=turn)
            elif arg in (HINT, HINT_CONFIRM):
                await self.hints.press(interaction, match, seat, confirmed=arg == HINT_CONFIRM)
            elif arg == CLAIM:
                await self.turns.ask_claim(interaction, match, seat)
            elif arg == CLAIM_CONFIRM:
                if await self._in_place(interaction, match, "p") and await self._current(
                    interaction, match, turn
                ):
                    await self.turns.claim(interaction, match, seat, turn=turn)
            elif await self._current(interaction, match, turn):
                # A control of a board drawn before this version of the bot: draw the current one.
                text = N_("These buttons are from an older version of the board — use the new one.")
                await tell(interaction, gettext(private_language(interaction), text))
                await self.board.edit(None, match)

    async def on_choice(
        self,
        interaction: discord.Interaction,
        *,
        match_id: int,
        turn: int,
        where: str,
        level: int,
        path: tuple[int, ...],
        index: int,
    ) -> None:
        """A click on a move choice: the same refusals as any game control, then the form decides."""
        async with answering(interaction):
            seated = await self._seated(interaction, match_id)
            if seated is None or not await self._in_place(interaction, seated[0], where):
                return
            match, seat = seated
            private = where == "p"
            if await self._current(
                interaction, match, turn, seat if private else None
            ) and await self._to_move(interaction, match, seat, private=private):
                await self.turns.choose(
                    interaction, match, seat, where=where, level=level, path=path, index=index
                )

    async def _watch(self, interaction: discord.Interaction, match_id: int) -> None:
        """A member of the match's server opens its live public view (no seat needed)."""
        match = await self.match(match_id)
        if match is None or interaction.guild_id != match.row.guild_id:
            mine = private_language(interaction)
            text = gettext(mine, "This match is over — its board shows the result and its replay.")
            await tell(
                interaction, await self._paused_text(match_id, mine, command_names(interaction)) or text
            )
            return
        await self.board.watch(interaction, match)

    async def _bring_down(self, interaction: discord.Interaction, match: Match) -> None:
        """Post the board again at the bottom of its channel, when chat has buried it."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with match.lock:
            posted = await self.board.repost(match)
        mine = private_language(interaction)
        if posted:
            said = gettext(mine, "The board is now at the bottom: {link}", link=match.jump_url())
        else:
            said = gettext(mine, "I could not post the board.")
        await interaction.followup.send(said, ephemeral=True)

    async def _resume(self, interaction: discord.Interaction, match_id: int) -> bool:
        """Bring a match set aside for a place the bot lost back into play, pressed by one of
        its players: its board is posted again at the bottom of its channel, whoever is to move
        gets a fresh clock and is pinged. False (nothing done) if it is no such match."""
        row = await self.storage.matches.get(match_id)
        if (
            row is None
            or not row.paused
            or row.guild_id != interaction.guild_id
            or interaction.user.id not in row.players
        ):
            return False
        mine = private_language(interaction)
        match, _ = self._revive(row)
        if match is None:
            return False
        await interaction.response.defer(ephemeral=True, thinking=True)
        match.row.status, match.row.deadline, match.row.moved_at = "running", later(row.clock_s), now_iso()
        async with self.places.resuming:  # one press at a time posts the board
            current = await self.storage.matches.get(match_id)
            if current is None or current.status != "set_aside":  # another press brought it back
                said = N_("The match is back in play already: {link}")
                link = jump_url(current) if current is not None else match.jump_url()
                await interaction.followup.send(gettext(mine, said, link=link), ephemeral=True)
                return True
            posted = await self.board.repost(match)
            if not posted:
                text = N_(
                    "I still cannot post the board of this match in <#{channel}>. Once a server admin "
                    "lets me View Channel, Send Messages, Embed Links and Attach Files there, press "
                    "this again."
                )
                await interaction.followup.send(gettext(mine, text, channel=row.channel_id), ephemeral=True)
                return True
            resumed = await self.storage.matches.resume_set_aside(match.id, match.row.deadline)
            if resumed and self.shards.owns(row.guild_id):
                self.running.add(match)
        said = N_("The match is back in play — its board is at the bottom: {link}")
        await interaction.followup.send(gettext(mine, said, link=match.jump_url()), ephemeral=True)
        if resumed:
            await self.board.announce(match, previous_seats=())
        return True

    async def _paused_text(self, match_id: int, lang: str, names: str) -> str | None:
        """What a press on a match set aside until it is resumed is told, in `lang` (the commands
        named in `names`); None for any other match."""
        row = await self.storage.matches.get(match_id)
        if row is None or not row.paused:
            return None
        return gettext(
            lang,
            "This match is paused: I lost what I need in its channel. Once that is fixed, any "
            "of its players brings it back with `{matches}` → **Board ↓**.",
            matches=command(names, "matches"),
        )

    async def _seated(self, interaction: discord.Interaction, match_id: int) -> tuple[Match, int] | None:
        """The running match and the clicking member's seat in it, or a private refusal."""
        match = await self.match(match_id)
        mine = private_language(interaction)
        if match is None or interaction.guild_id not in (None, match.row.guild_id):
            text = gettext(
                mine,
                "This match is over — start a new one (see {help}).",
                help=help_text(command_names(interaction)),
            )
            await tell(
                interaction,
                (match is None and await self._paused_text(match_id, mine, command_names(interaction)))
                or text,
            )
            return None
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            start = start_text(self.games[match.row.game].start_command, command_names(interaction))
            text = gettext(
                mine, "You are not playing in this match — start your own with {command}.", command=start
            )
            await tell(interaction, text)
            return None
        return match, seat

    async def _from_board(self, interaction: discord.Interaction, match: Match) -> bool:
        """Whether a press of a board control came from the match's board (or a private reply):
        one left on a board posted again since (its pointer could not be written) is answered
        with a link to the new board."""
        message = interaction.message
        if message is None or message.flags.ephemeral or message.id == match.row.message_id:
            return True
        text = gettext(private_language(interaction), "This board moved: {link}", link=match.jump_url())
        await tell(interaction, text)
        return False

    async def _in_place(self, interaction: discord.Interaction, match: Match, where: str) -> bool:
        """Whether a press came from where the framework put it: board choices on the match's
        board message, private ones (and the resign confirmation) on an ephemeral reply — never
        the other way, which would draw a private reply over the public board."""
        message = interaction.message
        if where == "p" and message is not None and message.flags.ephemeral:
            return True
        if where == "b" and message is not None and message.id == match.row.message_id:
            return True
        text = N_("That choice is no longer on offer here — use the latest board: {link}")
        await tell(interaction, gettext(private_language(interaction), text, link=match.jump_url()))
        return False

    async def _current(
        self, interaction: discord.Interaction, match: Match, turn: int, private_seat: int | None = None
    ) -> bool:
        """Whether a press was made at the match's turn; if not, say so — in the private reply of
        `private_seat` it was made in, redrawn as it stands now, when one is given."""
        if turn > match.turn:  # a board newer than memory: another process played meanwhile
            async with match.lock:
                await self.turns.reload(match)
        if turn == match.turn:
            return True
        if self._behind(interaction, match):
            await self._catch_up_board(interaction, match)
            return False
        if private_seat is not None:
            text = gettext(private_language(interaction), "The game moved on — this is how it stands now.")
            await self.replies.refuse(interaction, match, private_seat, text)
            return False
        text = N_("This board is out of date — use the buttons on the latest board: {link}")
        await tell(interaction, gettext(private_language(interaction), text, link=match.jump_url()))
        return False

    def _behind(self, interaction: discord.Interaction, match: Match) -> bool:
        """Whether the press came from the match's own board, one a failed edit left behind."""
        message = interaction.message
        on_board = message is not None and message.id == match.row.message_id
        return on_board and (match.id in self.board.stale or match.row.board_stale)

    async def _catch_up_board(self, interaction: discord.Interaction, match: Match) -> None:
        """A press on a board left behind redraws it at once (the clock need not come first)
        and is told why it made no move."""
        await interaction.response.defer()
        async with match.lock:
            await self.board.edit(None, match)
        mine = private_language(interaction)
        if match.id in self.board.stale:
            text = gettext(
                mine, "This board is behind and could not be redrawn just now — try again in a moment."
            )
        else:
            # TRANSLATORS: {n} is how many players are to move at once (it is not shown).
            text = ngettext(
                mine,
                "This board was behind and is redrawn now — {players} to move: {link}",
                "This board was behind and is redrawn now — {players} to move: {link}",
                len(match.engine.current_seats(match.state)),
                players=self.board.to_move_text(match, mine),
                link=match.jump_url(),
            )
        await tell(interaction, text)

    async def _to_move(
        self, interaction: discord.Interaction, match: Match, seat: int, *, private: bool = False
    ) -> bool:
        if seat in match.engine.current_seats(match.state):
            return True
        mine = private_language(interaction)
        to_move = self.board.to_move_text(match, mine)
        # TRANSLATORS: {n} is how many players are to move at once (it is not shown).
        text = ngettext(
            mine,
            "It is not your turn — {players} to move.",
            "It is not your turn — {players} to move.",
            len(match.engine.current_seats(match.state)),
            players=to_move,
        )
        await self.turns.refuse(interaction, match, seat, text, private=private)
        return False
