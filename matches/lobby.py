"""Lobbies: opening, joining, leaving, cancelling, starting, and rematches."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from typing import Any

import discord

from ai import LEVELS
from data.repositories import Database
from data.storage import MatchRow
from games import GameError
from matches.board import Board
from matches.clock import clock_for
from matches.components import REMOVE, lobby_view
from matches.game_ui import GameUI
from matches.match import (
    Match,
    clock_text,
    computer_id,
    computer_level,
    humans,
    later,
    mentions,
    players_text,
    seat_name,
    tell,
    who,
)

log = logging.getLogger(__name__)


class Lobby:
    """Seats players before a match and starts it (adding it to `running`)."""

    def __init__(
        self, storage: Database, running: dict[int, Match], games: Mapping[str, GameUI], board: Board
    ) -> None:
        self.storage = storage
        self.running = running
        self.games = games
        self.board = board

    async def open(
        self,
        interaction: discord.Interaction,
        game: GameUI,
        options: Mapping[str, Any],
        clock: int | None = None,
        invited: list[int] | None = None,
        computers: tuple[str, ...] = (),
    ) -> None:
        """Post a lobby; `clock` is seconds per move (0: none; None: the server's default);
        `computers` the levels of the computer seats it starts with."""
        if len(computers) >= game.engine.max_players or not set(computers) <= set(LEVELS):
            await tell(
                interaction,
                f"{game.engine.title} seats at most {game.engine.max_players - 1} computers beside you, "
                f"each {', '.join(LEVELS)} — try again with fewer.",
            )
            return
        if interaction.guild_id is None or interaction.channel_id is None:
            await tell(interaction, "Matches are played in a server channel — use this there.")
            return
        missing = _missing_permissions(interaction)
        if missing:
            await tell(
                interaction,
                f"I need the {missing} permission in this channel to host a match — "
                "ask a server admin to grant it, or use another channel.",
            )
            return
        row = await self.storage.matches.open_lobby(
            game=game.game,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            seed=random.SystemRandom().randrange(2**31),
            options=dict(options),
            clock_s=await clock_for(self.storage, interaction.guild_id, clock),
            invited=invited,
        )
        for level in computers:
            await self.storage.matches.join_lobby(
                row.id, computer_id(row.players, level), game.engine.max_players
            )
            row = await self._reread(row)
        invitees = mentions([user for user in invited or () if user != row.host_id])
        lobby: dict[str, Any] = {
            "content": f"{invitees} — press **Join** to confirm the rematch." if invitees else None,
            "embed": self._embed(game, row),
            "view": lobby_view(row.id),
            "allowed_mentions": discord.AllowedMentions(users=True),
        }
        if await self._in_thread(interaction, game, row, lobby):
            return
        await interaction.response.send_message(**lobby)
        message = await interaction.original_response()
        await self.storage.matches.set_board_message(row.id, message.id)

    async def _in_thread(
        self, interaction: discord.Interaction, game: GameUI, row: MatchRow, lobby: dict[str, Any]
    ) -> bool:
        """With `/settings threads on`, post the lobby in a thread of its own, leaving a line
        in the channel that links to it; False where threads are off or not possible here
        (where the bot may not create them, a note says so on the lobby)."""
        assert interaction.guild_id is not None
        if isinstance(interaction.channel, discord.Thread):
            return False  # a rematch inside a match's thread stays there
        if not (await self.storage.settings.for_guild(interaction.guild_id)).threads:
            return False
        title = f"{game.engine.title} #{row.id}"
        await interaction.response.send_message(f"🧵 **{title}** — a new lobby, in its own thread.")
        starter = await interaction.original_response()
        try:
            thread = await starter.create_thread(name=title, auto_archive_duration=10080)
            message = await thread.send(**lobby)
        except discord.HTTPException as error:
            note = (
                "(Threads are on, but I may not create threads here, so this match is played in the channel.)"
            )
            lobby["content"] = f"{lobby['content'] or ''}\n{note}".strip()
            await interaction.edit_original_response(**lobby)
            log.info("Lobby %s stays in the channel: %s", row.id, error)
            await self.storage.matches.set_board_message(row.id, starter.id)
            return True
        await self.storage.matches.move_to_channel(row.id, thread.id)
        await self.storage.matches.set_board_message(row.id, message.id)
        await interaction.edit_original_response(
            content=f"🧵 **{title}** — a new lobby: join it in {thread.mention}."
        )
        return True

    def _embed(self, game: GameUI, row: MatchRow) -> discord.Embed:
        engine = game.engine
        seats = "\n".join(
            f"{seat_name(seat)} · {who(user)}" + (" (host)" if user == row.host_id else "")
            for seat, user in enumerate(row.players)
        )
        if row.invited:
            waiting = [who(user) for user in row.invited if user not in row.players]
            how = (
                f"A rematch: it starts when every player has pressed **Join** "
                f"(waiting for {', '.join(waiting)})."
            )
        else:
            how = (
                f"Press **Join** to take a seat. The host may seat computers with the menu, and "
                f"presses **Start** once {players_text(game.player_counts)} players are seated."
            )
        embed = discord.Embed(
            title=f"{engine.title} — lobby #{row.id}",
            description=(
                f"**Players ({len(row.players)}/{engine.max_players}):**\n{seats}\n\n"
                f"**Setup:** {game.describe_options(row.options)}; {clock_text(row.clock_s)}.\n{how}"
            ),
            colour=discord.Colour.blurple(),
        )
        embed.set_footer(text=f"match {row.id}")
        return embed

    async def _open_lobby(
        self, interaction: discord.Interaction, match_id: int
    ) -> tuple[GameUI, MatchRow] | None:
        """The open lobby a press under it belongs to, or a private refusal."""
        row = await self.storage.matches.get(match_id)
        game = self.games.get(row.game) if row is not None else None
        if row is None or game is None or row.status != "lobby" or row.guild_id != interaction.guild_id:
            await tell(interaction, "This lobby is closed — start a new match (see `/help`).")
            return None
        if interaction.message is None or interaction.message.id != row.message_id:
            await tell(interaction, "These buttons belong under their lobby — use the lobby's own message.")
            return None
        return game, row

    async def on_button(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        """Join / Leave / Start / Cancel pressed under a lobby."""
        found = await self._open_lobby(interaction, match_id)
        if found is None:
            return
        game, row = found
        user = interaction.user.id
        if action == "join":
            await self._join(interaction, game, row, user)
        elif action == "leave":
            await self._leave(interaction, game, row, user)
        elif user != row.host_id:
            await tell(interaction, f"Only the host, {who(row.host_id)}, can {action} this lobby.")
        elif action == "cancel":
            await self.storage.matches.cancel_lobby(match_id)
            embed = discord.Embed(
                title=f"{game.engine.title} — lobby #{row.id}", description="The host cancelled this match."
            )
            await interaction.response.edit_message(embed=embed, view=None)
            await self.board.close_thread(row.channel_id)
        else:
            await self._start(interaction, game, row)

    async def on_computer(self, interaction: discord.Interaction, match_id: int, choice: str) -> None:
        """The host seats a computer at a level, or removes the last one seated."""
        found = await self._open_lobby(interaction, match_id)
        if found is None:
            return
        game, row = found
        computers = [user for user in row.players if computer_level(user)]
        if interaction.user.id != row.host_id:
            await tell(interaction, f"Only the host, {who(row.host_id)}, can seat computers in this lobby.")
        elif row.invited:
            await tell(
                interaction, "A rematch keeps the seats of the last match — start a new one to change them."
            )
        elif choice == REMOVE and not computers:
            await tell(interaction, "No computer is seated in this lobby.")
        elif choice == REMOVE:
            await self.storage.matches.leave_lobby(row.id, computers[-1])
            await self._redraw(interaction, game, row)
        elif choice not in LEVELS:
            await tell(interaction, "That choice is no longer on offer — use the lobby's own menu.")
        elif len(row.players) >= game.engine.max_players:
            await tell(
                interaction, f"This lobby is full — {game.engine.title} seats {game.engine.max_players}."
            )
        elif await self.storage.matches.join_lobby(
            row.id, computer_id(row.players, choice), game.engine.max_players
        ):
            await self._redraw(interaction, game, row)
        else:
            await tell(interaction, "This lobby just changed — try again.")

    async def _redraw(self, interaction: discord.Interaction, game: GameUI, row: MatchRow) -> None:
        """Show the lobby's seats as stored now (the menu's pick cleared)."""
        await interaction.response.edit_message(
            embed=self._embed(game, await self._reread(row)), view=lobby_view(row.id)
        )

    async def _reread(self, row: MatchRow) -> MatchRow:
        """The lobby as stored now (as it was, should it no longer be readable)."""
        return await self.storage.matches.get(row.id) or row

    async def _join(self, interaction: discord.Interaction, game: GameUI, row: MatchRow, user: int) -> None:
        if user in row.players:
            await tell(interaction, "You already have a seat — wait for the host to press Start.")
        elif row.invited and user not in row.invited:
            await tell(
                interaction,
                f"This rematch is for the players of the last match — start your own with {game.start_command}.",  # noqa: E501
            )
        elif len(row.players) >= game.engine.max_players:
            await tell(interaction, f"This lobby is full — start another match with {game.start_command}.")
        elif await self.storage.matches.join_lobby(row.id, user, game.engine.max_players):
            joined = await self.storage.matches.get(row.id)
            if joined is None:
                await tell(interaction, "This lobby can no longer be read — start a new match (see `/help`).")
            elif joined.invited and set(humans(joined.players)) == set(joined.invited):
                await self._start(interaction, game, joined)
            else:
                await interaction.response.edit_message(embed=self._embed(game, joined))
        else:
            await tell(interaction, "This lobby just closed — start a new match.")

    async def _leave(self, interaction: discord.Interaction, game: GameUI, row: MatchRow, user: int) -> None:
        if user == row.host_id:
            await tell(interaction, "You are the host — press Cancel to close the lobby instead.")
        elif await self.storage.matches.leave_lobby(row.id, user):
            left = await self.storage.matches.get(row.id)
            if left is None:
                await tell(interaction, "This lobby can no longer be read — start a new match (see `/help`).")
            else:
                await interaction.response.edit_message(embed=self._embed(game, left))
        else:
            await tell(interaction, "You have no seat in this lobby.")

    async def _start(self, interaction: discord.Interaction, game: GameUI, row: MatchRow) -> None:
        try:
            players = len(row.players)
            state = game.engine.new_game(players, row.seed, game.game_options(row.options, players))
        except GameError as error:
            await tell(interaction, f"{error} Wait for more players to join, or Cancel.")
            return
        await interaction.response.defer()
        if not await self.storage.matches.start(row.id, game.engine.dump(state), later(row.clock_s)):
            await interaction.followup.send("This lobby already started or closed.", ephemeral=True)
            return
        row.status, row.turn, row.deadline = "running", 0, later(row.clock_s)
        match = Match(row=row, engine=game.engine, state=state)
        self.running[row.id] = match
        await self.board.publish(interaction, match, previous_seats=())

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """A new lobby with the same players and options; it starts once all confirmed."""
        row = await self.storage.matches.get(match_id)
        game = self.games.get(row.game) if row is not None else None
        if row is None or game is None or row.guild_id != interaction.guild_id:
            await tell(interaction, "There is no such match here — start a new one (see `/help`).")
            return
        if row.status not in ("finished", "abandoned"):
            await tell(interaction, "A rematch can be asked for once the match is over.")
            return
        if interaction.user.id not in row.players:
            await tell(
                interaction,
                f"Only its players can ask for a rematch — start your own with {game.start_command}.",
            )
            return
        levels = tuple(level for user in row.players if (level := computer_level(user)))
        people = humans(row.players)  # a match alone against computers needs nobody to confirm
        invited = people if len(people) > 1 else None
        await self.open(interaction, game, row.options, row.clock_s or 0, invited=invited, computers=levels)


def _missing_permissions(interaction: discord.Interaction) -> str | None:
    permissions = interaction.app_permissions
    needed = {
        "View Channel": permissions.view_channel,
        "Send Messages": permissions.send_messages,
        "Embed Links": permissions.embed_links,
        "Attach Files": permissions.attach_files,
    }
    missing = [name for name, granted in needed.items() if not granted]
    return ", ".join(missing) if missing else None
