"""Taking a move back by consent.

The player who just moved, when their move revealed nothing (`engine.reveals`), finds
"↩️ Take back" on the board. Their press posts a public request under the board that names the
people asked, with Accept / Decline that only they may use (computers accept at once). The last
Accept returns the match to its state before the move, replayed from the move log without it
(so every chance comes out the same), gives the mover the turn back with a fresh clock and says
so on the board; the move is kept beside the log (`takebacks`). One Decline ends the request,
and so does the next move (a player's, the clock's or a computer's): the move stands. One request
per move. Every press carries the match, its turn and the request, so a press after the match
moved on changes nothing and says why; requests survive a restart in the database.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import discord

from data.model import ACCEPTED, ASKED, DECLINED, LAPSED, Takeback, now_iso
from data.repositories import Database
from games.replay import CLOCK_KEY, RESIGN
from locales import N_, and_list, gettext, ngettext
from locales.audience import private_language
from matches.board import Board
from matches.components import GameButton, items_view
from matches.computers import Computers
from matches.deadlines import RunningMatches
from matches.game_ui import AnyGameUI
from matches.hints import Hints
from matches.match import TAKEBACK, TAKEBACK_NO, TAKEBACK_YES, Match, humans, later, tell, who
from matches.private import PrivateReplies

log = logging.getLogger(__name__)

TOOK_BACK = N_("↩️ {player} took back their move.")
REVEALED = N_(
    "That move showed something that cannot be unseen (a card turned up or drawn, a die rolled): "
    "it cannot be taken back."
)
NOT_YOURS = N_("Only the player who just moved can ask to take that move back — and only a move they made.")
MOVED_ON = N_("The next move came first: that move can no longer be taken back.")
OVER = {  # what a press on a request that is over says, by how it ended
    ASKED: N_("The next move came first: this request has lapsed and nothing was taken back."),
    LAPSED: N_("The next move came first: this request has lapsed and nothing was taken back."),
    DECLINED: N_("This request was declined: the move stands."),
    ACCEPTED: N_("That move was taken back already."),
}
LAPSED_TEXT = N_("⌛ The next move came first: the move of {player} stands.")


def is_takeback(arg: str) -> bool:
    """Whether a framework button's `arg` is one of taking a move back."""
    return arg == TAKEBACK or arg.startswith((TAKEBACK_YES, TAKEBACK_NO))


def answer_arg(kind: str, takeback_id: int) -> str:
    """The `arg` of an Accept (`TAKEBACK_YES`) or Decline (`TAKEBACK_NO`) of one request."""
    return f"{kind}{takeback_id}"


def request_id(arg: str) -> int | None:
    """The request an Accept or Decline `arg` answers (None if it names none)."""
    number = arg.removeprefix(TAKEBACK_YES).removeprefix(TAKEBACK_NO)
    return int(number) if number.isascii() and number.isdigit() and len(number) <= 18 else None


def asked_about(match: Match, mover: int) -> list[int]:
    """The people a request of `mover` asks: every other person still playing (computers
    accept at once)."""
    resigned = set(match.view(None)["resigned"])
    seated = [user for seat, user in enumerate(match.players) if seat not in resigned]
    return [user for user in humans(seated) if user != mover]


class Takebacks:
    """Asks, answers and carries out the taking back of moves in running matches; `open` holds
    the requests still asked, by match (read back from the database at a restart)."""

    def __init__(
        self,
        storage: Database,
        running: RunningMatches,
        games: Mapping[str, AnyGameUI],
        board: Board,
        replies: PrivateReplies,
        computers: Computers,
        hints: Hints,
    ) -> None:
        self.storage = storage
        self.running = running
        self.games = games
        self.board = board
        self.replies = replies
        self.computers = computers
        self.hints = hints
        self.open: dict[int, Takeback] = {}

    async def resume(self) -> None:
        """Take up the requests still asked when the bot stopped."""
        self.open = {request.match_id: request for request in await self.storage.takebacks.pending()}

    async def press(self, interaction: discord.Interaction, match: Match, turn: int, arg: str) -> None:
        """A press of Take back, Accept or Decline by a player of the match, at `turn`."""
        if arg == TAKEBACK:
            await self._ask(interaction, match, turn)
            return
        await self._answer(interaction, match, request_id(arg), accept=arg.startswith(TAKEBACK_YES))

    async def _ask(self, interaction: discord.Interaction, match: Match, turn: int) -> None:
        mine = private_language(interaction)
        async with match.lock:
            refusal = await self._refusal(match, turn, interaction.user.id)
            if refusal is not None:
                await tell(interaction, gettext(mine, refusal))
                return
            mover = interaction.user.id
            asked = asked_about(match, mover)
            request = await self.storage.takebacks.ask(
                match.id, turn=match.turn - 1, user_id=mover, asked=asked
            )
            if request is None:
                text = N_("You asked to take back this move already — one request per move.")
                await tell(interaction, gettext(mine, text))
                return
            match.takeback_by = None
            await interaction.response.defer()
            previous = match.engine.current_seats(match.state)
            if asked:
                taken = False
                await self._post(interaction, match, request)
            else:  # only computers to ask: they accept at once
                taken = await self._take_back(match, request, mover)
        if taken:
            await self._show(interaction, match, previous)
        else:
            await self.board.edit(interaction, match)  # without Take back: it was asked

    async def _refusal(self, match: Match, turn: int, user_id: int) -> str | None:
        """Why `user_id` may not ask to take back the match's last move, at `turn`, or None."""
        if turn != match.turn or match.row.status != "running":
            return MOVED_ON
        moves = await self.storage.matches.move_log(match.id)
        if not moves or moves[-1][0] != match.turn - 1:
            return MOVED_ON
        _, seat, move = moves[-1]
        if match.players[seat] != user_id or move.get("type") == RESIGN or CLOCK_KEY in move:
            return NOT_YOURS
        before = (await self._states(match, moves[:-1]))[-1]
        return REVEALED if match.engine.reveals(before, seat, move, match.state) else None

    async def _states(self, match: Match, moves: list[tuple[int, int, dict[str, Any]]]) -> list[Any]:
        """The match's states through `moves`, replayed from its seed off the event loop."""
        spec, row = self.games[match.row.game].spec, match.row
        return await asyncio.to_thread(spec.states, len(match.players), row.seed, row.options, moves)

    async def _post(self, interaction: discord.Interaction, match: Match, request: Takeback) -> None:
        """The public request under the board, naming (and pinging) the people asked; if the
        channel refuses it, the request lapses at once and the mover is told."""
        channel = self.board.bot.get_partial_messageable(match.row.channel_id)
        try:
            message = await channel.send(
                self._request_text(match, request),
                view=self._answers(match, request),
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException as error:
            log.warning("The take-back request of match %s could not be posted: %s", match.id, error)
            await self.storage.takebacks.close(request.id, LAPSED, None)
            text = N_("I could not post your request in this channel just now: your move stands.")
            await tell(interaction, gettext(private_language(interaction), text))
            return
        await self.storage.takebacks.set_message(request.id, message.id)
        self.open[match.id] = replace(request, message_id=message.id)

    def _request_text(self, match: Match, request: Takeback) -> str:
        lang = match.language
        waiting = request.waiting_for
        text = ngettext(
            lang,
            "↩️ {player} asks to take back their last move. {asked}, do you accept? "
            "Playing the next move declines.",
            "↩️ {player} asks to take back their last move. {asked}, do you accept? "
            "Playing the next move declines.",
            len(waiting),
            player=who(request.user_id, lang),
            asked=and_list(lang, [who(user, lang) for user in waiting]),
        )
        if request.accepted:
            accepted = and_list(lang, [who(user, lang) for user in request.accepted])
            text += "\n" + ngettext(
                lang,
                "✅ {players} accepted.",
                "✅ {players} accepted.",
                len(request.accepted),
                players=accepted,
            )
        return text

    def _answers(self, match: Match, request: Takeback) -> discord.ui.View:
        lang, name = match.language, match.row.game
        accept = GameButton(
            name,
            match.id,
            match.turn,
            answer_arg(TAKEBACK_YES, request.id),
            label=gettext(lang, "Accept"),
            style=discord.ButtonStyle.success,
        )
        decline = GameButton(
            name,
            match.id,
            match.turn,
            answer_arg(TAKEBACK_NO, request.id),
            label=gettext(lang, "Decline"),
            style=discord.ButtonStyle.danger,
        )
        return items_view([accept, decline])

    async def _answer(
        self, interaction: discord.Interaction, match: Match, takeback_id: int | None, *, accept: bool
    ) -> None:
        mine, user = private_language(interaction), interaction.user.id
        async with match.lock:  # the request as it is now: Accepts may have come meanwhile
            request = None if takeback_id is None else await self.storage.takebacks.get(takeback_id)
            if request is None or request.match_id != match.id:
                text = N_("That request is not one of this match — use the buttons under its board.")
                await tell(interaction, gettext(mine, text))
                return
            if request.status != ASKED or match.turn != request.turn + 1 or match.row.status != "running":
                await self._over(interaction, match, request)
                return
            refusal = self._answer_refusal(request, user, mine)
            if refusal is not None:
                await tell(interaction, refusal)
                return
            if not accept:
                await self._decline(interaction, match, request)
                return
            noted = await self.storage.takebacks.accept(request.id, user)
            if noted is None:
                await self._over(interaction, match, request)
                return
            if noted.waiting_for:
                self.open[match.id] = noted
                await interaction.response.edit_message(
                    content=self._request_text(match, noted), view=self._answers(match, noted)
                )
                return
            await interaction.response.defer()
            previous = match.engine.current_seats(match.state)
            if not await self._take_back(match, request, user):
                await self._over(interaction, match, request)
                return
        done = gettext(match.language, TOOK_BACK, player=who(request.user_id, match.language))
        await interaction.edit_original_response(content=done, view=None)
        await self._show(interaction, match, previous)

    @staticmethod
    def _answer_refusal(request: Takeback, user: int, lang: str) -> str | None:
        """Why `user` may not answer the open `request`, in `lang`, or None."""
        names = and_list(lang, [who(asked, lang) for asked in request.waiting_for])
        if user not in request.asked:
            return ngettext(
                lang,
                "Only {players} can answer this request.",
                "Only {players} can answer this request.",
                len(request.waiting_for),
                players=names,
            )
        if user in request.accepted:
            return gettext(lang, "You accepted already — waiting for {players}.", players=names)
        return None

    async def _decline(self, interaction: discord.Interaction, match: Match, request: Takeback) -> None:
        user, lang = interaction.user.id, match.language
        if not await self.storage.takebacks.close(request.id, DECLINED, user):
            await self._over(interaction, match, request)
            return
        self.open.pop(match.id, None)
        text = gettext(
            lang,
            "✖️ {player} declined: the move of {mover} stands.",
            player=who(user, lang),
            mover=who(request.user_id, lang),
        )
        await interaction.response.edit_message(content=text, view=None)
        if self.running.get(match.id) is match:
            self.computers.schedule(match)  # a computer due next plays on

    async def _over(self, interaction: discord.Interaction, match: Match, request: Takeback) -> None:
        """A press on a request that is over: said privately; a request the next move lapsed is
        closed and its message says so."""
        if request.status == ASKED:
            await self._lapse(match, request)
        await tell(interaction, gettext(private_language(interaction), OVER[request.status]))

    async def _take_back(self, match: Match, request: Takeback, user_id: int) -> bool:
        """Return the match to its state before the move (under the match lock): replayed from
        the move log without it, stored with the mover's fresh clock in one transaction."""
        moves = await self.storage.matches.move_log(match.id)
        if len(moves) != request.turn + 1:
            return False
        state = (await self._states(match, moves[:-1]))[-1]
        deadline = later(match.row.clock_s)
        dumped = match.engine.dump(state)
        taken = await self.storage.takebacks.take_back(
            request.id, user_id=user_id, state=dumped, deadline=deadline
        )
        if not taken:
            return False
        self.open.pop(match.id, None)
        self.computers.forget(match.id)  # a decision for the turn taken back is void
        self.hints.forget(match.id)  # so are the hints of the turn after it
        match.state, match.row.turn, match.row.state = state, request.turn, dumped
        match.row.deadline, match.row.reminded, match.row.moved_at = deadline, False, now_iso()
        match.takeback_by = None
        match.notes.append(gettext(match.language, TOOK_BACK, player=who(request.user_id, match.language)))
        self.running.watch(match)
        return True

    async def _show(self, interaction: discord.Interaction, match: Match, previous: tuple[int, ...]) -> None:
        """After a move was taken back: the board, and every seat's private replies on screen."""
        await self.board.publish(interaction, match, previous_seats=previous)
        for seat in range(len(match.players)):
            await self.replies.refresh(match, seat)

    def holds(self, match: Match) -> bool:
        """Whether a computer due in the match waits: a request about the last move is open
        (a computer accepts, and lets the people asked answer before it plays on)."""
        request = self.open.get(match.id)
        return request is not None and match.turn == request.turn + 1

    async def lapse(self, match: Match) -> None:
        """After a move: the request of the match the move made stale lapses (the board's hook)."""
        request = self.open.get(match.id)
        if request is not None and (match.turn != request.turn + 1 or match.row.status != "running"):
            await self._lapse(match, request)

    async def _lapse(self, match: Match, request: Takeback) -> None:
        """Close a request the next move came before; its message says the move stands."""
        self.open.pop(match.id, None)
        if not await self.storage.takebacks.close(request.id, LAPSED, None):
            return
        message_id = request.message_id
        if message_id is None:  # asked in another process, or posting it failed
            return
        text = gettext(match.language, LAPSED_TEXT, player=who(request.user_id, match.language))
        channel = self.board.bot.get_partial_messageable(match.row.channel_id)
        try:
            await channel.get_partial_message(message_id).edit(content=text, view=None)
        except discord.HTTPException as error:  # deleted meanwhile: the request is closed all the same
            log.info("The take-back request of match %s could not be closed on screen: %s", match.id, error)
