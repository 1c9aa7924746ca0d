"""The board message of a match (embed, image, components) and what follows a move:
the edit in place, the ping of the player now due and their DM notice."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import discord

from games import Outcome
from matches.components import GameButton, form_items, items_view
from matches.game_ui import GameUI
from matches.match import PRIVATE, REMATCH, RESIGN, Match, clock_text
from matches.notices import Notices
from matches.presentation import Form

log = logging.getLogger(__name__)


class Board:
    """Draws and publishes boards; knows each game's UI by name."""

    def __init__(self, bot: discord.Client, games: Mapping[str, GameUI], notices: Notices) -> None:
        self.bot = bot
        self.games = games
        self.notices = notices

    async def publish(
        self, interaction: discord.Interaction | None, match: Match, *, previous_seats: tuple[int, ...]
    ) -> None:
        """After a move: redraw the board, then ping and notify a newly due player."""
        await self.edit(interaction, match)
        match.notes.clear()
        seats = match.engine.current_seats(match.state) if match.row.status == "running" else ()
        due = [seat for seat in seats if seat not in previous_seats]
        if due:
            await self.notices.ping(match, due)
            for seat in due:
                await self.notices.notify(match, seat)
        elif not seats:
            await self.notices.clear_ping(match)

    async def edit(
        self,
        interaction: discord.Interaction | None,
        match: Match,
        path: tuple[int, ...] = (),
    ) -> None:
        """Redraw the board message in place (through the interaction when it is the board),
        with the choices picked so far (`path`) on it."""
        payload = await self.payload(match, path)
        if (
            interaction is not None
            and interaction.message is not None
            and interaction.message.id == match.row.message_id
        ):
            await interaction.edit_original_response(**payload)
        elif match.row.message_id is not None:
            channel = self.bot.get_partial_messageable(match.row.channel_id)
            await channel.get_partial_message(match.row.message_id).edit(**payload)

    async def payload(self, match: Match, path: tuple[int, ...] = ()) -> dict[str, Any]:
        """Embed, image and components of the board message, rendered off the event loop.

        The seat to move's choices on the board come from the game's form at `path`;
        its preview (a partial choice) is drawn on the image."""
        game = self.games[match.row.game]
        view = match.view(None)
        form = self.board_form(match, path)
        image = await asyncio.to_thread(game.board_image, view, form.preview)
        embed = self.embed(game, match, view)
        embed.set_image(url="attachment://board.png")
        if match.row.status != "running":
            items = [self._rematch_button(match)]
        else:
            items = [*form_items(match.id, match.turn, "b", form), *self._framework_buttons(game, match)]
        return {
            "content": None,
            "embed": embed,
            "attachments": [discord.File(io.BytesIO(image), filename="board.png")],
            "view": items_view(items),
        }

    def board_form(self, match: Match, path: tuple[int, ...] = ()) -> Form:
        """The choices the board offers the (first) seat to move."""
        seats = match.engine.current_seats(match.state) if match.row.status == "running" else ()
        legal = match.engine.legal_moves(match.state, seats[0]) if seats else []
        return self.games[match.row.game].present(match.view(None), legal, path, private=False)

    def embed(self, game: GameUI, match: Match, view: dict) -> discord.Embed:
        lines = [*match.notes, *game.headline(match, view)]
        outcome = match.engine.outcome(match.state)
        if outcome is None:
            lines.append(f"**Turn {match.turn + 1}:** {self.to_move_text(match, view)} to move.")
            if match.row.deadline:
                due = int(datetime.fromisoformat(match.row.deadline).timestamp())
                lines.append(f"⏰ Time runs out <t:{due}:R> ({clock_text(match.row.clock_s)}).")
            colour = discord.Colour.blurple()
        else:
            lines.append(_winner_text(match, outcome))
            lines.extend(game.result_lines(match, outcome))
            colour = discord.Colour.gold()
        players = "\n".join(
            f"{game.seat_label(view, seat)} · <@{user}> — {game.score_text(view, seat)}"
            for seat, user in enumerate(match.players)
        )
        embed = discord.Embed(
            title=f"{match.engine.title} #{match.id}", description="\n".join(lines), colour=colour
        )
        embed.add_field(name="Players", value=players, inline=False)
        if match.rating_changes:
            embed.add_field(name="Ratings", value=_rating_text(match), inline=False)
        embed.set_footer(text=f"match {match.id} · move {match.turn}")
        return embed

    def to_move_text(self, match: Match, view: dict | None = None) -> str:
        view = view if view is not None else match.view(None)
        label = self.games[match.row.game].seat_label
        seats = match.engine.current_seats(match.state)
        return " and ".join(f"<@{match.players[seat]}> ({label(view, seat)})" for seat in seats)

    def _framework_buttons(self, game: GameUI, match: Match) -> list[discord.ui.Item]:
        name, turn = match.row.game, match.turn
        return [
            GameButton(name, match.id, turn, PRIVATE, label=game.private_label, row=4),
            GameButton(name, match.id, turn, RESIGN, label="Resign", style=discord.ButtonStyle.danger, row=4),
        ]

    def _rematch_button(self, match: Match) -> discord.ui.Item:
        return GameButton(
            match.row.game, match.id, match.turn, REMATCH, label="Rematch", style=discord.ButtonStyle.primary
        )


def _rating_text(match: Match) -> str:
    return "\n".join(
        f"<@{match.players[seat]}> {before} → {after} ({after - before:+d})"
        for seat, (before, after) in sorted(match.rating_changes.items())
    )


def _winner_text(match: Match, outcome: Outcome) -> str:
    names = ", ".join(f"<@{match.players[seat]}>" for seat in outcome.winners)
    if not outcome.winners:
        return "**Game over** — nobody wins."
    if outcome.draw:
        return f"**Game over** — a draw between {names}."
    return f"**Game over** — {names} {'win' if len(outcome.winners) > 1 else 'wins'}!"
