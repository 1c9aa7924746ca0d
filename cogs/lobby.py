"""Lobbies: opening, joining, leaving, cancelling, starting, and rematches."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import discord

from cogs.components import lobby_view
from cogs.match import DEFAULT_CLOCK_S, DEFAULT_MAX_TIMEOUTS, Match, clock_text, later, seat_name, tell
from data.storage import MatchRow
from games import GameError

if TYPE_CHECKING:
    from cogs.framework import GameCog


class LobbyDesk:
    """The lobby half of `MatchService` (a mixin: it uses the service's storage and board)."""

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        cog: GameCog,
        options: dict[str, Any],
        clock: int | None = None,
        invited: list[int] | None = None,
    ) -> None:
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
        row = await self.storage.create_lobby(
            game=cog.game,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            host_id=interaction.user.id,
            seed=random.SystemRandom().randrange(2**31),
            options=options,
            clock_s=await self._clock_for(interaction.guild_id, clock),
            invited=invited,
        )
        mentions = " ".join(f"<@{user}>" for user in invited or () if user != row.host_id)
        await interaction.response.send_message(
            f"{mentions} — press **Join** to confirm the rematch." if mentions else None,
            embed=self._lobby_embed(cog, row),
            view=lobby_view(row.id),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        message = await interaction.original_response()
        await self.storage.set_message(row.id, message.id)

    async def _clock_for(self, guild_id: int, chosen: int | None) -> int | None:
        if chosen is None:
            default, _ = await self.storage.guild_settings(guild_id)
            chosen = DEFAULT_CLOCK_S if default is None else default
        return chosen or None

    async def max_timeouts(self, guild_id: int) -> int:
        _, chosen = await self.storage.guild_settings(guild_id)
        return chosen or DEFAULT_MAX_TIMEOUTS

    def _lobby_embed(self, cog: GameCog, row: MatchRow) -> discord.Embed:
        engine = cog.engine
        seats = "\n".join(
            f"{seat_name(seat)} · <@{user}>" + (" (host)" if user == row.host_id else "")
            for seat, user in enumerate(row.players)
        )
        if row.invited:
            waiting = [f"<@{user}>" for user in row.invited if user not in row.players]
            how = (
                f"A rematch: it starts when every player has pressed **Join** "
                f"(waiting for {', '.join(waiting)})."
            )
        else:
            how = (
                f"Press **Join** to take a seat. The host presses **Start** once "
                f"{engine.min_players}–{engine.max_players} players are seated."
            )
        embed = discord.Embed(
            title=f"{engine.title} — lobby #{row.id}",
            description=(
                f"**Players ({len(row.players)}/{engine.max_players}):**\n{seats}\n\n"
                f"**Setup:** {cog.describe_options(row.options)}; {clock_text(row.clock_s)}.\n{how}"
            ),
            colour=discord.Colour.blurple(),
        )
        embed.set_footer(text=f"match {row.id}")
        return embed

    async def on_lobby(self, interaction: discord.Interaction, match_id: int, action: str) -> None:
        row = await self.storage.get(match_id)
        if row is None or row.status != "lobby":
            await tell(
                interaction,
                "This lobby is closed — start a new match with the game's `new` command.",
            )
            return
        cog = self.cogs[row.game]
        user = interaction.user.id
        if action == "join":
            await self._join(interaction, cog, row, user)
        elif action == "leave":
            await self._leave(interaction, cog, row, user)
        elif user != row.host_id:
            await tell(interaction, f"Only the host, <@{row.host_id}>, can {action} this lobby.")
        elif action == "cancel":
            await self.storage.cancel(match_id)
            embed = discord.Embed(
                title=f"{cog.engine.title} — lobby #{row.id}",
                description="The host cancelled this match.",
            )
            await interaction.response.edit_message(embed=embed, view=None)
        else:
            await self._start(interaction, cog, row)

    async def _join(self, interaction: discord.Interaction, cog: GameCog, row: MatchRow, user: int) -> None:
        if user in row.players:
            await tell(interaction, "You already have a seat — wait for the host to press Start.")
        elif row.invited and user not in row.invited:
            await tell(
                interaction, "This rematch is for the players of the last match — start your own with `new`."
            )
        elif len(row.players) >= cog.engine.max_players:
            await tell(interaction, "This lobby is full — start another match with the `new` command.")
        elif await self.storage.join(row.id, user):
            row = await self.storage.get(row.id)
            assert row is not None
            if row.invited and set(row.players) == set(row.invited):
                await self._start(interaction, cog, row)
            else:
                await interaction.response.edit_message(embed=self._lobby_embed(cog, row))
        else:
            await tell(interaction, "This lobby just closed — start a new match.")

    async def _leave(self, interaction: discord.Interaction, cog: GameCog, row: MatchRow, user: int) -> None:
        if user == row.host_id:
            await tell(interaction, "You are the host — press Cancel to close the lobby instead.")
        elif await self.storage.leave(row.id, user):
            await self._refresh_lobby(interaction, cog, row.id)
        else:
            await tell(interaction, "You have no seat in this lobby.")

    async def _refresh_lobby(self, interaction: discord.Interaction, cog: GameCog, match_id: int) -> None:
        row = await self.storage.get(match_id)
        assert row is not None
        await interaction.response.edit_message(embed=self._lobby_embed(cog, row))

    async def _start(self, interaction: discord.Interaction, cog: GameCog, row: MatchRow) -> None:
        try:
            players = len(row.players)
            state = cog.engine.new_game(players, row.seed, cog.game_options(row.options, players))
        except GameError as error:
            await tell(interaction, f"{error} Wait for more players to join, or Cancel.")
            return
        await interaction.response.defer()
        if not await self.storage.start(row.id, cog.engine.dump(state), later(row.clock_s)):
            await interaction.followup.send("This lobby already started or closed.", ephemeral=True)
            return
        row.status, row.turn, row.deadline = "running", 0, later(row.clock_s)
        match = Match(row=row, engine=cog.engine, state=state)
        self.running[row.id] = match
        await self._publish(interaction, match, previous_seats=())

    async def _rematch(self, interaction: discord.Interaction, game: str, match_id: int) -> None:
        """A new lobby with the same players and options; it starts once all confirmed."""
        row = await self.storage.get(match_id)
        if row is None or row.status not in ("finished", "abandoned"):
            await tell(interaction, "A rematch can be asked for once the match is over.")
            return
        if interaction.user.id not in row.players:
            await tell(interaction, "Only its players can ask for a rematch — start your own with `new`.")
            return
        await self.open_lobby(
            interaction, self.cogs[game], row.options, row.clock_s or 0, invited=row.players
        )


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
