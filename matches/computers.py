"""Computer seats take their turns: decided off the event loop from the seat's own views
(rebuilt from the stored move log), played under the match lock like a person's move, a
natural moment after the turn came.

A decision belongs to a turn: the move is played only if the match is still at that turn,
so a decision overtaken by anything (a resignation, a restart that decided again) is
dropped, never played twice. After a restart `resume` decides the turns that were due again
(the same seeded choice).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import discord

import ai
from data.model import StorageUnavailable
from data.repositories import Database
from games import GameError
from matches.board import Board
from matches.game_ui import AnyGameUI
from matches.match import Match, computer_level
from matches.turns import Turns

log = logging.getLogger(__name__)

# Seconds before a computer's move shows: time to read the board, then a little more for
# a turn's later steps (the board is already read).
FIRST_PAUSE = (2.5, 4.5)
NEXT_PAUSE = (1.2, 2.0)


@dataclass(frozen=True, slots=True)
class Decision:
    """A computer's move for one turn, to be played once its moment comes."""

    turn: int
    seat: int
    move: dict[str, Any]
    at: datetime


class Computers:
    """Plays the computer seats of running matches (`running`, shared with the service):
    `schedule` decides a due turn off the event loop, `play_due` (called every second by
    the bot's computer beat) plays the decisions whose moment has come."""

    def __init__(
        self,
        storage: Database,
        running: Mapping[int, Match],
        games: Mapping[str, AnyGameUI],
        turns: Turns,
        board: Board,
    ) -> None:
        self.storage = storage
        self.running = running
        self.games = games
        self.turns = turns
        self.board = board
        self.thinking: dict[int, asyncio.Task[None]] = {}  # decisions under way, by match
        self.decided: dict[int, Decision] = {}  # decisions waiting for their moment, by match
        self.failed: set[int] = set()  # matches whose decision a fault stopped: decided again
        self.holds: Callable[[Match], bool] = lambda match: False  # e.g. a take-back request is open

    def due(self, match: Match) -> int | None:
        """The computer seat the match waits for now, if any."""
        if match.row.status != "running" or self.holds(match):
            return None
        seats = match.engine.current_seats(match.state)
        return next((seat for seat in seats if computer_level(match.players[seat])), None)

    def schedule(self, match: Match) -> None:
        """Decide the turn of the computer seat due in `match`, unless that is under way."""
        seat = self.due(match)
        decided = self.decided.get(match.id)
        if seat is None or match.id in self.thinking or (decided and decided.turn == match.turn):
            return
        name = f"computer in match {match.id}"
        task = asyncio.create_task(self._decide(match, seat, match.turn), name=name)
        self.thinking[match.id] = task
        task.add_done_callback(lambda done: self._forget(match.id, done))

    def retry(self) -> None:
        """Decide again the turns whose decision a fault stopped (the turn clock's beat)."""
        failed, self.failed = self.failed, set()
        for match_id in failed:
            if (match := self.running.get(match_id)) is not None:
                self.schedule(match)

    def forget(self, match_id: int) -> None:
        """Drop the decision of the match's turn, decided or under way: the turn was taken back."""
        self.decided.pop(match_id, None)
        if (task := self.thinking.get(match_id)) is not None:
            task.cancel()

    def _forget(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self.thinking.get(match_id) is task:
            del self.thinking[match_id]

    async def play_due(self, now: datetime) -> None:
        """Play every decision whose moment has come; one fault never stops the others."""
        for match_id, decision in list(self.decided.items()):
            if decision.at > now:
                continue
            del self.decided[match_id]
            match = self.running.get(match_id)
            if match is None:
                continue
            try:
                await self._play(match, decision)
            except StorageUnavailable as error:  # nothing was saved: the turn is decided again
                log.warning("A computer in match %s waits for the database: %s", match_id, error)
                self.schedule(match)
            except Exception:
                log.exception("The computer's move in match %s failed", match_id)
                self.failed.add(match_id)

    async def stop(self) -> None:
        """Cancel the decisions under way (the bot is closing; a restart decides them again)."""
        tasks = list(self.thinking.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _decide(self, match: Match, seat: int, turn: int) -> None:
        """Decide the turn off the event loop and keep the move for its moment: a natural
        pause after the turn came, whatever the deciding took."""
        level = computer_level(match.players[seat])
        assert level is not None
        came = discord.utils.utcnow()
        rng = random.Random(f"{match.row.seed}:{turn}:{seat}")
        log_rows: list[tuple[int, int, dict[str, Any]]] = []
        try:
            log_rows = await self.storage.matches.move_log(match.id)
            move = await asyncio.to_thread(self._choose, match, seat, level, log_rows, rng)
        except (StorageUnavailable, GameError) as error:  # the turn clock's next beat tries again
            log.warning("A computer in match %s could not decide: %s", match.id, error)
            self.failed.add(match.id)
            return
        except Exception:  # a fault of the player itself: the match goes on all the same
            log.exception(
                "The computer player of match %s failed; it plays the turn as the clock would", match.id
            )
            if match.turn != turn:
                return
            move = match.engine.timeout_move(match.state, seat)
        pause = rng.uniform(*(NEXT_PAUSE if _same_seat_again(log_rows, seat) else FIRST_PAUSE))
        if match.turn == turn:
            self.decided[match.id] = Decision(turn, seat, move, came + timedelta(seconds=pause))

    def _choose(
        self,
        match: Match,
        seat: int,
        level: str,
        log_rows: list[tuple[int, int, dict[str, Any]]],
        rng: random.Random,
    ) -> dict[str, Any]:
        """The seat's move from its own views after every logged move (off the event loop)."""
        spec, engine = self.games[match.row.game].spec, match.engine
        states = spec.states(len(match.players), match.row.seed, match.row.options, log_rows)
        views = [engine.view(state, seat) for state in states]
        return ai.choose(spec.choose, level, views, engine.legal_moves(states[-1], seat), rng)

    async def _play(self, match: Match, decision: Decision) -> None:
        async with match.lock:
            if self.running.get(match.id) is not match or match.turn != decision.turn:
                return  # the match moved on meanwhile: this decision is void
            if self.holds(match):
                return  # decided again once nothing holds it
            seat, previous_seats = decision.seat, match.engine.current_seats(match.state)
            state = match.engine.apply(match.state, seat, decision.move)
            if not await self.turns.commit(match, seat, match.players[seat], decision.move, state):
                return
        await self.board.publish(None, match, previous_seats=previous_seats)


def _same_seat_again(log_rows: list[tuple[int, int, dict[str, Any]]], seat: int) -> bool:
    """Whether the seat made the last move too (a later step of its turn)."""
    return bool(log_rows) and log_rows[-1][1] == seat
