"""Server-wide commands: /help and /matches."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game import GameCog
from cogs.league import LeaderboardPage
from data.model import MatchRow
from data.storage import StorageUnavailable
from games import title_of
from matches.components import DYNAMIC_ITEMS, GameButton, answered_by, items_view
from matches.match import BOARD, WATCH, players_text, tell

if TYPE_CHECKING:
    from bot import GameBot


log = logging.getLogger(__name__)
MATCHES_SHOWN = 12  # per list of /matches (25 buttons at most in all)


class General(commands.Cog):
    """Commands that are about the bot, not one game."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Every failed slash command is answered privately: a database fault asks to try again."""
        cause = getattr(error, "original", error)
        if isinstance(cause, StorageUnavailable):
            log.warning(
                "/%s met a database fault: %s", interaction.command and interaction.command.name, cause
            )
            await tell(interaction, str(cause))
        elif isinstance(error, app_commands.CheckFailure):
            await tell(interaction, str(error) or "You cannot use this command here.")
        else:
            log.error("/%s failed", interaction.command and interaction.command.name, exc_info=cause)
            await tell(interaction, "Something went wrong on my side — please try again in a moment.")

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Answer a press no component of this bot takes (an id it never made, or from a long
        gone version), so nobody is left with "This interaction failed"."""
        data: Any = interaction.data or {}
        if interaction.type is not discord.InteractionType.component:
            return
        if not answered_by((*DYNAMIC_ITEMS, LeaderboardPage), str(data.get("custom_id", ""))):
            await tell(interaction, "This button is no longer in use — use the latest board or `/matches`.")

    @app_commands.command(name="help", description="The games this bot hosts and how to play them")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="Game table",
            description=(
                "Start a match with a game's `new` command, friends press **Join**, the host "
                "presses **Start**. Alone, or a seat short? Give `new` some `computers` (and a "
                "`level`: easy, normal or hard), or add them with the lobby's menu. Play with the "
                "buttons under the board; what only you may see comes privately. Matches survive "
                "restarts: come back any time."
            ),
            colour=discord.Colour.blurple(),
        )
        for cog in self.bot.cogs.values():
            if not isinstance(cog, GameCog):
                continue
            embed.add_field(
                name=f"{cog.engine.title} ({players_text(cog.player_counts)} players)",
                value=f"{cog.start_command} · `/{cog.__cog_group_name__} rules`",
                inline=False,
            )
        embed.add_field(
            name="Everything else",
            value=(
                "`/matches` — your matches here (and a buried board brought down), and others to watch\n"
                "`/leaderboard [game]` — the server's ratings · `/stats [member]` · `/history [game]`\n"
                "`/replay match` — a finished match as an animation\n"
                "`/settings` — default turn clock, time-outs, a thread per match (Manage Server)\n"
                "`/help` — this page"
            ),
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="matches", description="Your lobbies and matches here, and the others to watch"
    )
    @app_commands.guild_only()
    async def matches(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        mine = await self.bot.storage.matches.active_for(interaction.user.id, interaction.guild_id)
        others = [
            match
            for match in self.bot.matches.running.values()
            if match.row.guild_id == interaction.guild_id and interaction.user.id not in match.players
        ]
        if not mine and not others:
            await interaction.response.send_message(
                "No match is being played here — start one with a game's `new` command (see `/help`).",
                ephemeral=True,
            )
            return
        embed = discord.Embed(title="Matches here", colour=discord.Colour.blurple())
        buttons: list[discord.ui.Item] = []
        if mine:
            embed.add_field(name="Yours", value="\n".join(map(_line, mine[:MATCHES_SHOWN])), inline=False)
            buttons += [_button(row, BOARD, f"Board #{row.id} ↓") for row in mine if row.status == "running"]
        if others:
            rows = [match.row for match in others[:MATCHES_SHOWN]]
            embed.add_field(
                name="Running — watch without joining", value="\n".join(map(_line, rows)), inline=False
            )
            buttons += [_button(row, WATCH, f"Watch #{row.id}") for row in rows]
        embed.set_footer(text="Board ↓ posts your board again at the bottom of its channel.")
        await interaction.response.send_message(embed=embed, view=items_view(buttons[:25]), ephemeral=True)


def _line(row: MatchRow) -> str:
    url = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"
    state = "lobby" if row.status == "lobby" else f"move {row.turn}"
    return f"**{title_of(row.game)} #{row.id}** — {state} — {url}"


def _button(row: MatchRow, arg: str, label: str) -> discord.ui.Item:
    return GameButton(row.game, row.id, row.turn, arg, label=label)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(General(bot))
