"""Server-wide commands: /help and /matches."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.game import GameCog
from games import ENGINES

if TYPE_CHECKING:
    from bot import GameBot


class General(commands.Cog):
    """Commands that are about the bot, not one game."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="The games this bot hosts and how to play them")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="Game table",
            description=(
                "Start a match with a game's `new` command, friends press **Join**, the host "
                "presses **Start**. Play with the buttons under the board; what only you may "
                "see comes privately. Matches survive restarts: come back any time."
            ),
            colour=discord.Colour.blurple(),
        )
        for cog in self.bot.cogs.values():
            if not isinstance(cog, GameCog):
                continue
            engine = cog.engine
            embed.add_field(
                name=f"{engine.title} ({engine.min_players}–{engine.max_players} players)",
                value=f"`/{cog.__cog_group_name__} new` · `/{cog.__cog_group_name__} rules`",
                inline=False,
            )
        embed.add_field(
            name="Everything else",
            value=(
                "`/matches` — your lobbies and running matches here\n"
                "`/leaderboard [game]` — the server's ratings · `/stats [member]` · `/history [game]`\n"
                "`/settings` — default turn clock and time-outs (Manage Server)\n"
                "`/help` — this page"
            ),
            inline=False,
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="matches", description="Your lobbies and running matches here")
    @app_commands.guild_only()
    async def matches(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        rows = await self.bot.storage.matches.active_for(interaction.user.id, interaction.guild_id)
        if not rows:
            await interaction.response.send_message(
                "You are in no match on this server — start one with a game's `new` command (see `/help`).",
                ephemeral=True,
            )
            return
        lines = []
        for row in rows[:20]:
            url = f"https://discord.com/channels/{row.guild_id}/{row.channel_id}/{row.message_id}"
            state = "lobby" if row.status == "lobby" else f"move {row.turn}"
            lines.append(f"**{ENGINES[row.game].title} #{row.id}** — {state} — {url}")
        embed = discord.Embed(title="Your matches", description="\n".join(lines))
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(General(bot))
