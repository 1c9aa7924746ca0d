"""My First Triominos in Discord."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.framework import GameCog
from render.triominos import render

if TYPE_CHECKING:
    from bot import GameBot


class Triominos(GameCog, group_name="triominos", group_description="Play My First Triominos"):
    """`/triominos new`, `/triominos rules` and the move controls."""

    game = "triominos"

    @app_commands.command(name="new", description="Open a My First Triominos lobby")
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_lobby(interaction, {})

    @app_commands.command(name="rules", description="The rules of My First Triominos, short and clear")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Triominos(bot))
