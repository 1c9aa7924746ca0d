"""Sequence Numbers in Discord."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from cogs.framework import GameCog
from render.sequence_numbers import render

if TYPE_CHECKING:
    from bot import GameBot


class SequenceNumbers(GameCog, group_name="sequence", group_description="Play Sequence Numbers"):
    """`/sequence new`, `/sequence rules` and the move controls."""

    game = "sequence_numbers"

    @app_commands.command(name="new", description="Open a Sequence Numbers lobby")
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_lobby(interaction, {})

    @app_commands.command(name="rules", description="The rules of Sequence Numbers, short and clear")
    async def rules(self, interaction: discord.Interaction) -> None:
        await self.show_rules(interaction)

    def board_image(self, view: dict, ui: Mapping[str, Any]) -> bytes:
        return render(view)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(SequenceNumbers(bot))
