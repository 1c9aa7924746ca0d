"""The bot's command tree: every failed slash command is answered privately."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from data.model import StorageUnavailable
from locales import gettext
from locales.audience import private_language
from matches.match import tell

log = logging.getLogger(__name__)


class GameTree(app_commands.CommandTree):
    """discord.py's command tree, answering each failure in the member's language: a database
    fault asks to try again, a check names what is missing, anything else is logged."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = getattr(error, "original", error)
        lang = private_language(interaction)
        if isinstance(cause, StorageUnavailable):
            log.warning(
                "/%s met a database fault: %s", interaction.command and interaction.command.name, cause
            )
            await tell(interaction, gettext(lang, str(cause)))
        elif isinstance(error, app_commands.NoPrivateMessage):
            await tell(interaction, gettext(lang, "This command works on a server only — use it there."))
        elif isinstance(error, app_commands.CheckFailure):
            await tell(interaction, str(error) or gettext(lang, "You cannot use this command here."))
        else:
            log.error("/%s failed", interaction.command and interaction.command.name, exc_info=cause)
            await tell(
                interaction, gettext(lang, "Something went wrong on my side — please try again in a moment.")
            )
