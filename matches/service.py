"""`MatchService`: owns the running matches and routes every click to a collaborator."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import discord

from data.storage import Storage, now_iso
from games import ENGINES
from matches.board import Board
from matches.clock import TurnClock
from matches.game_ui import GameUI
from matches.lobby import Lobby
from matches.match import ALIVE, PRIVATE, REMATCH, RESIGN, RESIGN_CONFIRM, Match, tell
from matches.notices import Notices
from matches.private import PrivateReplies
from matches.turns import Turns

log = logging.getLogger(__name__)


class MatchService:
    """The match framework of one bot: games register, matches resume, clicks are routed."""

    def __init__(self, bot: discord.Client, storage: Storage) -> None:
        self.storage = storage
        self.games: dict[str, GameUI] = {}
        self.running: dict[int, Match] = {}
        self.notices = Notices(bot, storage, self.games)
        self.board = Board(bot, self.games, self.notices)
        self.replies = PrivateReplies(self.games)
        self.turns = Turns(storage, self.running, self.games, self.board, self.replies)
        self.lobby = Lobby(storage, self.running, self.games, self.board)
        self.clock = TurnClock(storage, self.running, self.turns, self.board, self.notices, self.replies)

    def register(self, game: GameUI) -> None:
        self.games[game.game] = game

    async def resume(self) -> int:
        """Load every running match from the database; returns how many.

        Turn clocks are pushed back by the time the bot was away: an outage of the bot
        does not count against players.
        """
        outage = await self._outage()
        for row in await self.storage.matches.resume_running(outage):
            engine = ENGINES.get(row.game)
            if engine is None or row.state is None:
                log.warning("Match %s of unknown game %r is not resumed", row.id, row.game)
                continue
            self.running[row.id] = Match(row=row, engine=engine, state=engine.load(row.state))
        await self.heartbeat()
        return len(self.running)

    async def _outage(self) -> timedelta:
        last = await self.storage.settings.get_meta(ALIVE)
        if last is None:
            return timedelta(0)
        return max(timedelta(0), discord.utils.utcnow() - datetime.fromisoformat(last))

    async def heartbeat(self) -> None:
        """Note that the bot is up (the clock calls this), to measure outages."""
        await self.storage.settings.set_meta(ALIVE, now_iso())

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        game: GameUI,
        options: Mapping[str, Any],
        clock: int | None = None,
    ) -> None:
        await self.lobby.open(interaction, game, options, clock)

    async def on_lobby(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        await self.lobby.on_button(interaction, match_id, action)

    async def on_component(
        self,
        interaction: discord.Interaction,
        match_id: int,
        turn: int,
        arg: str,
    ) -> None:
        """Route a click on a framework button (private view, resign, rematch): refuse
        politely what is not allowed, then act."""
        if arg == REMATCH:
            await self.lobby.rematch(interaction, match_id)
            return
        seated = await self._seated(interaction, match_id)
        if seated is None:
            return
        match, seat = seated
        if arg == PRIVATE:
            await self.replies.send(interaction, match, seat)
        elif arg == RESIGN:
            await self.turns.ask_resign(interaction, match)
        elif arg == RESIGN_CONFIRM:
            if await self._current(interaction, match, turn):
                await self.turns.resign(interaction, match, seat)
        elif await self._current(interaction, match, turn):
            # A control of a board drawn before this version of the bot: draw the current one.
            await tell(interaction, "These buttons are from an older version of the board — use the new one.")
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
        seated = await self._seated(interaction, match_id)
        if seated is None:
            return
        match, seat = seated
        if await self._current(interaction, match, turn) and await self._to_move(interaction, match, seat):
            await self.turns.choose(
                interaction, match, seat, where=where, level=level, path=path, index=index
            )

    async def _seated(self, interaction: discord.Interaction, match_id: int) -> tuple[Match, int] | None:
        """The running match and the clicking member's seat in it, or a private refusal."""
        match = self.running.get(match_id)
        if match is None:
            await tell(interaction, "This match is over — start a new one with the game's `new` command.")
            return None
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            await tell(
                interaction,
                "You are not playing in this match — start your own with the game's `new` command.",
            )
            return None
        return match, seat

    async def _current(self, interaction: discord.Interaction, match: Match, turn: int) -> bool:
        if turn == match.turn:
            return True
        await tell(interaction, "This board is out of date — use the buttons on the latest board.")
        return False

    async def _to_move(self, interaction: discord.Interaction, match: Match, seat: int) -> bool:
        if seat in match.engine.current_seats(match.state):
            return True
        await tell(interaction, f"It is not your turn — {self.board.to_move_text(match)} to move.")
        return False
