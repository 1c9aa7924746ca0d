"""Rookie in Discord."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.framework import GameCog
from render.rookie import render

if TYPE_CHECKING:
    from bot import GameBot


class Rookie(GameCog, group_name="rookie", group_description="Play Rookie"):
    """`/rookie new`, `/rookie rules` and the move controls."""

    game = "rookie"

    @app_commands.command(name="new", description="Open a Rookie lobby")
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_lobby(interaction, {})

    @app_commands.command(name="rules", description="The rules of Rookie, short and clear")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Rookie(bot))
