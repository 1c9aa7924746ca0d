"""Turns: a move is applied under the match lock, committed, then shown; resignations
and the private view of a seat."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord

from data.model import CLAIMED, RESIGNED, Departure, MatchResult, SeatResult, now_iso
from data.repositories import Database
from games import GameError, Outcome
from locales import N_, gettext
from locales.audience import private_language
from matches.board import Board
from matches.components import GameButton, items_view
from matches.deadlines import RunningMatches
from matches.game_ui import AnyGameUI
from matches.match import CLAIM_CONFIRM, RESIGN_CONFIRM, Match, error_text, humans, later, tell, who
from matches.presentation import next_path
from matches.private import PrivateReplies

STALE = N_("Another move came first — use the latest board.")
RESIGN_MOVE = {"type": "resign"}  # as the move log keeps every resignation
EARLY_MOVES = 2  # a person who leaves before every person played this many turns abandons the match


class Turns:
    """Applies and stores the moves of running matches (`running`, shared with the service)."""

    def __init__(
        self,
        storage: Database,
        running: RunningMatches,
        games: Mapping[str, AnyGameUI],
        board: Board,
        replies: PrivateReplies,
    ) -> None:
        self.storage = storage
        self.running = running
        self.games = games
        self.board = board
        self.replies = replies
        self.ended: Callable[[Match], Awaitable[None]] = _nothing  # e.g. its achievements are awarded

    async def play(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        move: dict[str, Any],
        *,
        turn: int,
        private: bool = False,
    ) -> bool:
        """Apply, commit and show one move made at `turn` (in the seat's private reply when
        `private`); False when it was refused."""
        await interaction.response.defer()
        mine = private_language(interaction)
        async with match.lock:
            refused: str | None = None
            previous_seats = match.engine.current_seats(match.state)
            try:
                if turn != match.turn or not await self._applied(match, seat, interaction.user.id, move):
                    refused = gettext(mine, STALE)
            except GameError as error:
                refused = error_text(error, mine)
        if refused is not None:
            await self.refuse(interaction, match, seat, refused, private=private)
            return False
        await self.board.publish(interaction, match, previous_seats=previous_seats)
        return True

    async def _applied(self, match: Match, seat: int, user_id: int, move: dict[str, Any]) -> bool:
        """Apply and commit the seat's move (under the match lock); False when another move came
        first. Raises GameError when the game refuses it."""
        before = match.state
        state = match.engine.apply(before, seat, move)
        if not await self.commit(match, seat, user_id, move, state):
            return False
        if match.row.status == "running" and not match.engine.reveals(before, seat, move, state):
            match.takeback_by = user_id  # the board offers them Take back
        return True

    async def refuse(
        self, interaction: discord.Interaction, match: Match, seat: int, text: str, *, private: bool
    ) -> None:
        """Say why a press was refused: in the seat's private reply, redrawn in place, when it
        was made there; otherwise privately."""
        if private:
            await self.replies.refuse(interaction, match, seat, text)
        else:
            await tell(interaction, text)

    async def show(
        self,
        interaction: discord.Interaction,
        match: Match,
        path: tuple[int, ...],
    ) -> None:
        """Redraw the board with a partial choice (e.g. a ghost piece) without making a move."""
        await interaction.response.defer()
        await self.board.edit(interaction, match, path)

    async def commit(
        self,
        match: Match,
        seat: int,
        user_id: int | None,
        move: dict[str, Any],
        state: Any,
        *,
        timeouts: dict[str, int] | None = None,
        departures: list[Departure] | None = None,
    ) -> bool:
        """Store the move in one transaction; only then does memory follow.

        `user_id` is None for a move the bot made (the clock's, a resignation of a member no
        longer on the server); a player's own move clears their count of time-outs in a row.
        `departures`: the match's departures with the one this move makes (a resignation).
        """
        outcome = match.engine.outcome(state)
        left = match.row.departures if departures is None else departures
        result = _result(match, state, outcome, left) if outcome else None
        if timeouts is None:
            timeouts = {key: n for key, n in match.row.timeouts.items() if key != str(seat)}
        deadline = later(match.row.clock_s) if outcome is None else None
        saved = await self.storage.matches.record_move(
            match.id,
            turn=match.turn,
            seat=seat,
            user_id=user_id,
            move=move,
            state=match.engine.dump(state),
            result=result,
            deadline=deadline,
            timeouts=timeouts,
            departures=departures,
        )
        if not saved:
            await self.reload(match)
            return False
        match.state, match.takeback_by = state, None
        match.row.turn += 1
        match.row.deadline, match.row.reminded, match.row.timeouts = deadline, False, timeouts
        match.row.departures, match.row.moved_at = left, now_iso()
        if result is not None:
            match.row.status = "abandoned" if result.abandoned else "finished"
            await self._read_result(match)
            await self.ended(match)
            self.running.remove(match.id)
        self.running.watch(match)
        return True

    async def _read_result(self, match: Match) -> None:
        match.rating_changes = await self.storage.league.rating_changes(match.id)
        match.unrated = await self.storage.league.unrated_reason(match.id)
        match.hints = await self.storage.matches.hints(match.id)

    async def reload(self, match: Match) -> None:
        """Another process wrote to the match (a move, a reminder, a replacement): take the
        stored row as the truth. Call it under the match lock."""
        row = await self.storage.matches.get(match.id)
        if row is None or row.state is None:
            return
        match.row, match.state = row, match.engine.load(row.state)
        match.takeback_by = None  # another process moved: the move it could ask back is not the last
        if row.status != "running":
            await self._read_result(match)
            self.running.remove(match.id)
        self.running.watch(match)

    async def departure(self, match: Match, seat: int, reason: str) -> Departure:
        """The departure of `seat`'s person now, by `reason`: early (the match is then abandoned,
        unrated) while some person's seat has not made two moves of its own. A person alone with
        computers abandons nothing: that match is unrated anyway and ends as the game says."""
        left = {d.seat for d in match.row.departures}
        people = [s for s, user in enumerate(match.players) if s in left or humans([user])]
        made = await self.storage.matches.own_moves(match.id) if len(people) > 1 else {}
        early = len(people) > 1 and any(made.get(s, 0) < EARLY_MOVES for s in people)
        return Departure(seat, match.players[seat], match.turn, reason, early)

    async def leave(self, match: Match, seat: int, reason: str, *, by: int | None) -> bool:
        """Resign `seat` under the match lock: its person leaves the match by `reason` (a move
        `by` that member, None for the bot). Raises GameError when the game refuses; False
        when another move came first. The next board says when this leaves the match unrated."""
        state = match.engine.resign(match.state, seat)
        departure = await self.departure(match, seat, reason)
        note = abandoning_note(match, departure)
        departures = [*match.row.departures, departure]
        if not await self.commit(match, seat, by, RESIGN_MOVE, state, departures=departures):
            return False
        if note and match.row.status == "running":
            match.notes.append(note)
        return True

    async def ask_resign(self, interaction: discord.Interaction, match: Match) -> None:
        mine = private_language(interaction)
        confirm = GameButton(
            match.row.game,
            match.id,
            match.turn,
            RESIGN_CONFIRM,
            label=gettext(mine, "Yes, resign"),
            style=discord.ButtonStyle.danger,
        )
        await interaction.response.send_message(
            gettext(
                mine,
                "Resign from {game} #{id}? You cannot take it back.",
                game=match.engine.title,
                id=match.id,
            ),
            view=items_view([confirm]),
            ephemeral=True,
        )

    async def resign(self, interaction: discord.Interaction, match: Match, seat: int, *, turn: int) -> None:
        """Resign `seat`, confirmed at `turn`: a confirmation the game has moved past since is refused."""
        await interaction.response.defer()
        mine = private_language(interaction)
        async with match.lock:
            if turn != match.turn:
                text = gettext(mine, "The game moved on since you asked — press **Resign** again to resign.")
                await tell(interaction, text)
                return
            previous_seats = match.engine.current_seats(match.state)
            if not await self._left(interaction, match, seat, RESIGNED):
                return
        await interaction.edit_original_response(content=gettext(mine, "You resigned."), view=None)
        await self.board.publish(interaction, match, previous_seats=previous_seats)
        await self.replies.refresh(match, seat)  # nothing they held stays on their screen

    async def _left(self, interaction: discord.Interaction, match: Match, seat: int, reason: str) -> bool:
        """`seat`'s person leaves by `reason`, at the press of `interaction` (under the match lock);
        False, said privately, when the game refuses or another move came first."""
        mine = private_language(interaction)
        try:
            if await self.leave(match, seat, reason, by=interaction.user.id):
                return True
        except GameError as error:
            await tell(interaction, error_text(error, mine))
            return False
        await tell(interaction, gettext(mine, "The match changed meanwhile — try again."))
        return False

    async def ask_claim(self, interaction: discord.Interaction, match: Match, seat: int) -> None:
        """A press of Claim: say when the match may be claimed, or ask to confirm the claim."""
        mine = private_language(interaction)
        refusal = self._claim_refusal(match, seat, mine)
        if refusal is not None:
            await tell(interaction, refusal)
            return
        absent = match.players[match.engine.current_seats(match.state)[0]]
        confirm = GameButton(
            match.row.game,
            match.id,
            match.turn,
            CLAIM_CONFIRM,
            label=gettext(mine, "Yes, claim"),
            style=discord.ButtonStyle.danger,
        )
        text = gettext(
            mine,
            "Claim {game} #{id}? {player} has not moved for 3 days: it counts as their resignation.",
            game=match.engine.title,
            id=match.id,
            player=who(absent, mine),
        )
        await interaction.response.send_message(text, view=items_view([confirm]), ephemeral=True)

    def _claim_refusal(self, match: Match, seat: int, lang: str) -> str | None:
        """Why `seat` may not claim the match now, or None."""
        since = match.claimable_from()
        if since is None and match.row.clock_s:
            return gettext(lang, "There is nothing to claim: a turn clock plays for absent players here.")
        if since is None:  # a computer is due, nobody else plays, or the match is over
            return gettext(lang, "There is nothing to claim in this match now.")
        if seat in match.engine.current_seats(match.state):
            return gettext(lang, "It is your turn — make your move (or resign).")
        if seat in match.view(None)["resigned"]:
            return gettext(lang, "You have left this match already.")
        if discord.utils.utcnow() < since:
            absent = match.players[match.engine.current_seats(match.state)[0]]
            return gettext(
                lang,
                "You can claim this match <t:{when}:R> if {player} has not moved by then.",
                when=int(since.timestamp()),
                player=who(absent, lang),
            )
        return None

    async def claim(self, interaction: discord.Interaction, match: Match, seat: int, *, turn: int) -> None:
        """Claim the match, confirmed at `turn`: its person to move resigns, by the claimant's hand."""
        await interaction.response.defer()
        mine = private_language(interaction)
        async with match.lock:
            refusal = self._claim_refusal(match, seat, mine) if turn == match.turn else None
            if turn != match.turn or refusal is not None:
                await tell(interaction, refusal or gettext(mine, "The match changed meanwhile — try again."))
                return
            previous_seats = match.engine.current_seats(match.state)
            absent = previous_seats[0]
            if not await self._left(interaction, match, absent, CLAIMED):
                return
        text = gettext(
            mine, "You claimed the match: {player} has resigned.", player=who(match.players[absent], mine)
        )
        await interaction.edit_original_response(content=text, view=None)
        await self.board.publish(interaction, match, previous_seats=previous_seats)
        await self.replies.refresh(match, absent)

    async def choose(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        *,
        where: str,
        level: int,
        path: tuple[int, ...],
        index: int,
    ) -> None:
        """An option of a form was chosen: make its move, or show the next level."""
        game = self.games[match.row.game]
        private = where == "p"
        lang = private_language(interaction) if private else match.language
        legal = match.engine.legal_moves(match.state, seat)
        form = game.present(match.view(seat if private else None), legal, path, private=private, lang=lang)
        option = form.option(level, index)
        if option is None or (option.move is not None and option.move not in legal):
            text = N_("That choice is no longer on offer — use the latest board.")
            await self.refuse(
                interaction, match, seat, gettext(private_language(interaction), text), private=private
            )
        elif option.move is not None:
            if await self.play(interaction, match, seat, option.move, turn=match.turn, private=private):
                await self.replies.after_move(interaction, match, seat, where=where)
        elif private:
            await self.replies.navigate(interaction, match, seat, next_path(form, level, index))
        else:
            await self.show(interaction, match, next_path(form, level, index))


async def _nothing(match: Match) -> None:
    return None


def abandoning_note(match: Match, departure: Departure) -> str | None:
    """What the next board says when `departure` (not yet among the match's) abandons the match."""
    if not departure.early or any(d.early for d in match.row.departures):
        return None
    return gettext(
        match.language,
        "{player} left before everyone had made two moves: this match is abandoned and will not be rated.",
        player=who(departure.user_id, match.language),
    )


def stayers_winning(outcome: Outcome, teams: tuple[tuple[int, ...], ...], gone: set[int]) -> set[int]:
    """The seats that win the match for the league: the game's winners who stayed; when every
    winner had left (a stand-in computer won their seat), the best-scoring team of those who
    stayed — they are rated among themselves, so the best of them won."""
    winners = set(outcome.winners) - gone
    if winners or not outcome.winners:
        return winners
    stayed = [kept for team in teams if (kept := [seat for seat in team if seat not in gone])]
    best = {tuple(team): max(outcome.scores[seat] for seat in team) for team in stayed}
    top = max(best.values(), default=None)
    return {seat for team, score in best.items() if score == top for seat in team}


def _result(match: Match, state: Any, outcome: Outcome, departures: list[Departure]) -> MatchResult:
    """The match's result for the league: a seat a person left is theirs (not the stand-in
    computer's), resigned and winning nothing; abandoned when a person left early."""
    teams = outcome.teams or tuple((seat,) for seat in range(len(match.players)))
    team_of = {seat: index for index, team in enumerate(teams) for seat in team}
    resigned = set(match.engine.view(state, None)["resigned"])
    left = {d.seat: d for d in departures}
    winners = stayers_winning(outcome, teams, resigned | set(left))
    return MatchResult(
        draw=outcome.draw,
        abandoned=any(d.early for d in departures),
        tiebreak=outcome.tiebreak,
        seats=tuple(
            SeatResult(
                seat=seat,
                user_id=left[seat].user_id if seat in left else user,
                team=team_of.get(seat, seat),
                score=outcome.scores[seat],
                winner=seat in winners,
                resigned=seat in resigned or seat in left,
                left=left[seat].reason if seat in left else None,
                left_at=left[seat].turn if seat in left else None,
            )
            for seat, user in enumerate(match.players)
        ),
    )
