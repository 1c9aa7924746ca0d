"""The match framework: one lifecycle (lobby → turns → result) shared by every game.

A game's cog (a `GameCog`) adds only its commands, its board image and its move
components; everything else — seats, locks, persistence, the board message, pings,
DM notices, errors — happens in `MatchService`, with its lobby half in `cogs/lobby.py`
and its turn clock in `cogs/clock.py`; `cogs/match.py` holds what they all share.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.clock import TurnClock
from cogs.components import GameButton, items_view
from cogs.lobby import LobbyDesk
from cogs.match import (
    ALIVE,
    PRIVATE,
    REMATCH,
    RESIGN,
    RESIGN_CONFIRM,
    Match,
    PrivateReply,
    clock_text,
    later,
    private_payload,
    seat_name,
    tell,
)
from data.storage import MatchResult, SeatResult, Storage, now_iso
from games import ENGINES, Engine, GameError, Outcome

if TYPE_CHECKING:
    from bot import GameBot

log = logging.getLogger(__name__)


class GameCog(commands.GroupCog):
    """Base of every game's cog. Subclasses set `game` and override the hooks below."""

    game: str
    private_label = "My view"
    rules_text = ""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.engine: Engine = ENGINES[self.game]
        super().__init__()

    @property
    def service(self) -> MatchService:
        return self.bot.matches

    async def cog_load(self) -> None:
        self.service.register(self)

    # ------------------------------------------------------------------ hooks

    def describe_options(self, options: Mapping[str, Any]) -> str:
        """One line saying how the lobby's options set up the game."""
        return ", ".join(f"{key}: {value}" for key, value in options.items()) or "standard rules"

    def game_options(self, options: Mapping[str, Any], players: int) -> Mapping[str, Any]:
        """The options the engine gets for `players` seats (some apply only to some counts)."""
        return options

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        """The PNG under the board message, from the spectator view."""
        raise NotImplementedError

    def headline(self, match: Match, view: dict) -> list[str]:
        """Lines announcing what just happened (skips, scores, bonuses)."""
        return []

    def controls(self, match: Match, view: dict, ui: Mapping[str, Any]) -> list[discord.ui.Item]:
        """The move components of the board message for the seat(s) to move."""
        return []

    async def on_component(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        arg: str,
        values: list[str],
    ) -> None:
        """A seated player to move used one of this game's components."""
        raise NotImplementedError

    def private_view(self, match: Match, seat: int) -> PrivateReply:
        """What the "private view" button shows the seat (and the DM notice carries).

        Called off the event loop, so it may render images.
        """
        return PrivateReply(content="This game has no secrets: everything is on the board.")

    def score_text(self, view: dict, seat: int) -> str:
        return f"{view['scores'][seat]} pts"

    def seat_label(self, view: dict, seat: int) -> str:
        """How a seat is marked in text; matches its colour and letter on the board."""
        return seat_name(seat)

    def result_lines(self, match: Match, outcome: Outcome) -> list[str]:
        """Extra lines for the final board (e.g. the tie-break)."""
        return [f"Decided by the tie-break: {outcome.tiebreak}."] if outcome.tiebreak else []

    # --------------------------------------------------------------- commands

    async def open_lobby(
        self, interaction: discord.Interaction, options: dict[str, Any], clock: int | None = None
    ) -> None:
        """Post a lobby; `clock` is seconds per move (0: none; None: the server's default)."""
        await self.service.open_lobby(interaction, self, options, clock)

    @app_commands.command(name="rules", description="The rules of this game, short and clear")
    async def rules(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(title=f"{self.engine.title} — rules", description=self.rules_text)
        await interaction.response.send_message(embed=embed, ephemeral=True)


class MatchService(LobbyDesk, TurnClock):
    """Owns every match of the bot: the storage, the running matches and their locks."""

    def __init__(self, bot: GameBot, storage: Storage) -> None:
        self.bot = bot
        self.storage = storage
        self.cogs: dict[str, GameCog] = {}
        self.running: dict[int, Match] = {}

    def register(self, cog: GameCog) -> None:
        self.cogs[cog.game] = cog

    async def resume(self) -> int:
        """Load every running match from the database; returns how many.

        Turn clocks are pushed back by the time the bot was away: an outage of the bot
        does not count against players.
        """
        outage = await self._outage()
        for row in await self.storage.load_running():
            engine = ENGINES.get(row.game)
            if engine is None or row.state is None:
                log.warning("Match %s of unknown game %r is not resumed", row.id, row.game)
                continue
            if row.deadline and outage > timedelta(0):
                row.deadline = (datetime.fromisoformat(row.deadline) + outage).isoformat()
                await self.storage.set_deadline(row.id, row.deadline)
            self.running[row.id] = Match(row=row, engine=engine, state=engine.load(row.state))
        await self.heartbeat()
        return len(self.running)

    async def _outage(self) -> timedelta:
        last = await self.storage.get_meta(ALIVE)
        if last is None:
            return timedelta(0)
        return max(timedelta(0), discord.utils.utcnow() - datetime.fromisoformat(last))

    async def heartbeat(self) -> None:
        """Note that the bot is up (the clock loop calls this), to measure outages."""
        await self.storage.set_meta(ALIVE, now_iso())

    # ---------------------------------------------------------------- turns

    async def on_component(
        self,
        interaction: discord.Interaction,
        game: str,
        match_id: int,
        turn: int,
        arg: str,
        values: list[str],
    ) -> None:
        """Route a click: refuse politely what is not allowed, then hand it to the game."""
        match = self.running.get(match_id)
        if arg == REMATCH:
            await self._rematch(interaction, game, match_id)
            return
        if match is None:
            await tell(interaction, "This match is over — start a new one with the game's `new` command.")
            return
        seat = match.seat_of(interaction.user.id)
        if seat is None:
            await tell(
                interaction,
                "You are not playing in this match — start your own with the game's `new` command.",
            )
            return
        if arg == PRIVATE:
            await self._show_private(interaction, match, seat)
        elif arg == RESIGN:
            await self._resign(interaction, match, seat, confirmed=False)
        elif turn != match.turn:
            await tell(interaction, "This board is out of date — use the buttons on the latest board.")
        elif arg == RESIGN_CONFIRM:
            await self._resign(interaction, match, seat, confirmed=True)
        elif seat not in match.engine.current_seats(match.state):
            await tell(interaction, f"It is not your turn — {self._to_move_text(match)} to move.")
        else:
            await self.cogs[game].on_component(interaction, match, seat, arg, values)

    async def play(
        self,
        interaction: discord.Interaction,
        match: Match,
        seat: int,
        move: dict[str, Any],
        *,
        turn: int,
        private_note: str | None = None,
    ) -> bool:
        """Apply, commit and show one move made at `turn`; False when it was refused."""
        await interaction.response.defer()
        async with match.lock:
            if turn != match.turn:
                await tell(interaction, "Another move came first — use the latest board.")
                return False
            previous_seats = match.engine.current_seats(match.state)
            try:
                state = match.engine.apply(match.state, seat, move)
            except GameError as error:
                await tell(interaction, str(error))
                return False
            if not await self._commit(match, seat, interaction.user.id, move, state):
                await tell(interaction, "Another move came first — use the latest board.")
                return False
        if private_note is not None:
            await interaction.edit_original_response(content=private_note, attachments=[], view=None)
        await self._publish(interaction, match, previous_seats=previous_seats)
        return True

    async def _commit(
        self,
        match: Match,
        seat: int,
        user_id: int | None,
        move: dict[str, Any],
        state: Any,
        *,
        timeouts: dict[str, int] | None = None,
    ) -> bool:
        """Store the move in one transaction; only then does memory follow.

        `user_id` is None for a move the turn clock made; a player's own move clears
        their count of time-outs in a row.
        """
        outcome = match.engine.outcome(state)
        abandoned = move.get("reason") == "timeout"
        result = self._result(match, state, outcome, abandoned=abandoned) if outcome else None
        if timeouts is None:
            timeouts = {key: n for key, n in match.row.timeouts.items() if key != str(seat)}
        deadline = later(match.row.clock_s) if outcome is None else None
        saved = await self.storage.save_move(
            match.id,
            turn=match.turn,
            seat=seat,
            user_id=user_id,
            move=move,
            state=match.engine.dump(state),
            result=result,
            deadline=deadline,
            timeouts=timeouts,
        )
        if not saved:
            await self._reload(match)
            return False
        match.state = state
        match.row.turn += 1
        match.row.deadline, match.row.reminded, match.row.timeouts = deadline, False, timeouts
        if outcome is not None:
            match.row.status = "abandoned" if abandoned else "finished"
            match.rating_changes = await self.storage.rating_changes(match.id)
            self.running.pop(match.id, None)
        return True

    async def _reload(self, match: Match) -> None:
        """Another process moved first: take the stored state as the truth."""
        row = await self.storage.get(match.id)
        if row is None or row.state is None:
            return
        match.row, match.state = row, match.engine.load(row.state)
        if row.status != "running":
            self.running.pop(match.id, None)

    def _result(self, match: Match, state: Any, outcome: Outcome, *, abandoned: bool) -> MatchResult:
        teams = outcome.teams or tuple((seat,) for seat in range(len(match.players)))
        team_of = {seat: index for index, team in enumerate(teams) for seat in team}
        resigned = set(match.engine.view(state, None).get("resigned", ()))
        return MatchResult(
            draw=outcome.draw,
            abandoned=abandoned,
            tiebreak=outcome.tiebreak,
            seats=tuple(
                SeatResult(
                    seat=seat,
                    user_id=user,
                    team=team_of.get(seat, seat),
                    score=outcome.scores[seat],
                    winner=seat in outcome.winners,
                    resigned=seat in resigned,
                )
                for seat, user in enumerate(match.players)
            ),
        )

    async def show(self, interaction: discord.Interaction, match: Match, ui: Mapping[str, Any]) -> None:
        """Redraw the board with a UI state (e.g. a ghost piece) without making a move."""
        await interaction.response.defer()
        await self._edit_board(interaction, match, ui)

    async def _resign(
        self, interaction: discord.Interaction, match: Match, seat: int, *, confirmed: bool
    ) -> None:
        if not confirmed:
            confirm = GameButton(
                match.row.game,
                match.id,
                match.turn,
                RESIGN_CONFIRM,
                label="Yes, resign",
                style=discord.ButtonStyle.danger,
            )
            await interaction.response.send_message(
                f"Resign from {match.engine.title} #{match.id}? You cannot take it back.",
                view=items_view([confirm]),
                ephemeral=True,
            )
            return
        await interaction.response.defer()
        async with match.lock:
            previous_seats = match.engine.current_seats(match.state)
            try:
                state = match.engine.resign(match.state, seat)
            except GameError as error:
                await tell(interaction, str(error))
                return
            move = {"type": "resign"}
            if not await self._commit(match, seat, interaction.user.id, move, state):
                await tell(interaction, "The match changed meanwhile — try again.")
                return
        await interaction.edit_original_response(content="You resigned.", view=None)
        await self._publish(interaction, match, previous_seats=previous_seats)

    async def _show_private(self, interaction: discord.Interaction, match: Match, seat: int) -> None:
        reply = await asyncio.to_thread(self.cogs[match.row.game].private_view, match, seat)
        await interaction.response.send_message(**private_payload(reply), ephemeral=True)

    # ------------------------------------------------------------- the board

    async def _publish(
        self,
        interaction: discord.Interaction | None,
        match: Match,
        *,
        previous_seats: tuple[int, ...],
    ) -> None:
        """After a move: redraw the board, then ping and notify a newly due player."""
        await self._edit_board(interaction, match, {})
        match.notes.clear()
        seats = match.engine.current_seats(match.state) if match.row.status == "running" else ()
        due = [seat for seat in seats if seat not in previous_seats]
        if due:
            await self._ping(match, due)
            for seat in due:
                await self._notify(match, seat)
        elif not seats:
            await self._clear_ping(match)

    async def _edit_board(
        self, interaction: discord.Interaction | None, match: Match, ui: Mapping[str, Any]
    ) -> None:
        payload = await self.board_payload(match, ui)
        on_board = (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == match.row.message_id
        )
        if on_board:
            await interaction.edit_original_response(**payload)
        else:
            channel = self.bot.get_partial_messageable(match.row.channel_id)
            await channel.get_partial_message(match.row.message_id).edit(**payload)

    async def board_payload(self, match: Match, ui: Mapping[str, Any]) -> dict[str, Any]:
        """Embed, image and components of the board message, rendered off the event loop."""
        cog = self.cogs[match.row.game]
        view = match.view(None)
        image = await asyncio.to_thread(cog.board_image, view, ui)
        embed = self._board_embed(cog, match, view)
        embed.set_image(url="attachment://board.png")
        if match.row.status == "running":
            items = [*cog.controls(match, view, ui), *self._framework_buttons(cog, match)]
        else:
            items = [self._rematch_button(match)]
        return {
            "content": None,
            "embed": embed,
            "attachments": [discord.File(io.BytesIO(image), filename="board.png")],
            "view": items_view(items),
        }

    def _framework_buttons(self, cog: GameCog, match: Match) -> list[discord.ui.Item]:
        game, turn = match.row.game, match.turn
        return [
            GameButton(game, match.id, turn, PRIVATE, label=cog.private_label, row=4),
            GameButton(
                game,
                match.id,
                turn,
                RESIGN,
                label="Resign",
                style=discord.ButtonStyle.danger,
                row=4,
            ),
        ]

    def _rematch_button(self, match: Match) -> discord.ui.Item:
        return GameButton(
            match.row.game, match.id, match.turn, REMATCH, label="Rematch", style=discord.ButtonStyle.primary
        )

    def _board_embed(self, cog: GameCog, match: Match, view: dict) -> discord.Embed:
        lines = [*match.notes, *cog.headline(match, view)]
        outcome = match.engine.outcome(match.state)
        if outcome is None:
            lines.append(f"**Turn {match.turn + 1}:** {self._to_move_text(match, view)} to move.")
            if match.row.deadline:
                due = int(datetime.fromisoformat(match.row.deadline).timestamp())
                lines.append(f"⏰ Time runs out <t:{due}:R> ({clock_text(match.row.clock_s)}).")
            colour = discord.Colour.blurple()
        else:
            lines.append(self._winner_text(match, outcome))
            lines.extend(cog.result_lines(match, outcome))
            colour = discord.Colour.gold()
        players = "\n".join(
            f"{cog.seat_label(view, seat)} · <@{user}> — {cog.score_text(view, seat)}"
            for seat, user in enumerate(match.players)
        )
        embed = discord.Embed(
            title=f"{match.engine.title} #{match.id}",
            description="\n".join(lines),
            colour=colour,
        )
        embed.add_field(name="Players", value=players, inline=False)
        if match.rating_changes:
            embed.add_field(name="Ratings", value=self._rating_text(match), inline=False)
        embed.set_footer(text=f"match {match.id} · move {match.turn}")
        return embed

    def _rating_text(self, match: Match) -> str:
        return "\n".join(
            f"<@{match.players[seat]}> {before} → {after} ({after - before:+d})"
            for seat, (before, after) in sorted(match.rating_changes.items())
        )

    def _to_move_text(self, match: Match, view: dict | None = None) -> str:
        view = view if view is not None else match.view(None)
        label = self.cogs[match.row.game].seat_label
        seats = match.engine.current_seats(match.state)
        return " and ".join(f"<@{match.players[seat]}> ({label(view, seat)})" for seat in seats)

    def _winner_text(self, match: Match, outcome: Outcome) -> str:
        names = ", ".join(f"<@{match.players[seat]}>" for seat in outcome.winners)
        if not outcome.winners:
            return "**Game over** — nobody wins."
        if outcome.draw:
            return f"**Game over** — a draw between {names}."
        return f"**Game over** — {names} {'win' if len(outcome.winners) > 1 else 'wins'}!"

    # ------------------------------------------------------- pings and DMs

    async def _ping(self, match: Match, seats: list[int]) -> None:
        """Mention the players now due (an edit pings nobody), replacing the last ping."""
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        mentions = " ".join(f"<@{match.players[seat]}>" for seat in seats)
        try:
            message = await channel.send(
                f"{mentions} — your turn in **{match.engine.title} #{match.id}**: {match.jump_url()}",
                allowed_mentions=discord.AllowedMentions(users=True),
            )
        except discord.HTTPException as error:
            log.warning("Could not ping in match %s: %s", match.id, error)
            return
        await self._clear_ping(match)
        match.row.ping_message_id = message.id
        await self.storage.set_ping_message(match.id, message.id)

    async def _clear_ping(self, match: Match) -> None:
        old = match.row.ping_message_id
        if old is None:
            return
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        with contextlib.suppress(discord.HTTPException):  # already gone: nothing to tidy
            await channel.get_partial_message(old).delete()
        if match.row.ping_message_id == old:
            match.row.ping_message_id = None
            await self.storage.set_ping_message(match.id, None)

    async def _notify(self, match: Match, seat: int) -> None:
        """DM the player whose turn it is; closed DMs are said in the channel, once."""
        reply = await asyncio.to_thread(self.cogs[match.row.game].private_view, match, seat)
        notice = f"Your turn in **{match.engine.title} #{match.id}**: {match.jump_url()}"
        payload = private_payload(reply, interactive=False)
        payload["content"] = f"{notice}\n{payload['content']}"
        await self._dm(match, seat, payload)

    async def _dm(self, match: Match, seat: int, payload: dict[str, Any]) -> None:
        user_id = match.players[seat]
        try:
            user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
            await user.send(**payload)
        except discord.Forbidden:
            await self._dms_closed(match, seat)
        except discord.HTTPException as error:
            log.warning("Could not DM user %s: %s", user_id, error)

    async def _dms_closed(self, match: Match, seat: int) -> None:
        user_id = match.players[seat]
        if user_id in match.dm_closed:
            return
        match.dm_closed.add(user_id)
        cog = self.cogs[match.row.game]
        channel = self.bot.get_partial_messageable(match.row.channel_id)
        await channel.send(
            f"<@{user_id}>, I cannot send you direct messages, so your turn notices come here. "
            f"Use the **{cog.private_label}** button on the board to see what only you may see.",
            allowed_mentions=discord.AllowedMentions(users=True),
        )
