"""Tremember in Discord."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.framework import GameCog
from render.tremember import render

if TYPE_CHECKING:
    from bot import GameBot


class Tremember(GameCog, group_name="tremember", group_description="Play Tremember"):
    """`/tremember new`, `/tremember rules` and the move controls."""

    game = "tremember"

    @app_commands.command(name="new", description="Open a Tremember lobby")
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_lobby(interaction, {})

    @app_commands.command(name="rules", description="The rules of Tremember, short and clear")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Tremember(bot))
