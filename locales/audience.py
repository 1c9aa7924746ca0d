"""Whose language a message speaks.

- Public messages (boards, lobbies, results, leaderboards): the language a manager chose with
  `/settings language`, else the server's own (`interaction.guild_locale`, or the guild's
  preferred locale where there is no interaction: reminders, clock notices).
- Private replies (ephemeral): the member's client language (`interaction.locale`).
- DMs: the language the member last used with the bot (`MemberLanguages.remember` notes it
  on each interaction).

Anything the bot does not speak is English.
"""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from data.model import StorageUnavailable
from locales import DEFAULT, LANGUAGES, language_of

log = logging.getLogger(__name__)
REMEMBERED_MEMBERS = 10_000  # how many members' languages a bot keeps in memory


class LanguageSettings(Protocol):
    """What choosing a language needs of `SettingsRepository`."""

    async def guild_language(self, guild_id: int) -> str | None: ...

    async def member_locale(self, user_id: int) -> str | None: ...

    async def set_member_locale(self, user_id: int, locale: str) -> None: ...


class Picker(Protocol):
    """What the bot's settings say of the members' command picker."""

    localized_picker: bool  # False where the picker lists commands by their English names only


def picker_language(client: discord.Client, lang: str) -> str:
    """The language in which a member of language `lang` finds the commands in their picker:
    `lang` on Discord, English on the local table (its picker ignores translated names)."""
    settings: Picker | None = getattr(client, "settings", None)
    return lang if settings is None or settings.localized_picker else DEFAULT


def command_names(interaction: discord.Interaction) -> str:
    """The language in which the member who pressed or typed finds the commands in their picker."""
    return picker_language(interaction.client, private_language(interaction))


async def public_language(
    settings: LanguageSettings, source: discord.Interaction | discord.Guild | None
) -> str:
    """The language of the public messages of the server `source` is in (or is): the one its
    managers chose, else the server's own."""
    if isinstance(source, discord.Interaction):
        guild_id, locale = source.guild_id, source.guild_locale
    elif isinstance(source, discord.Guild):
        guild_id, locale = source.id, source.preferred_locale
    else:
        return DEFAULT
    if guild_id is None:
        return DEFAULT
    return await guild_language(settings, guild_id, locale)


async def guild_language(settings: LanguageSettings, guild_id: int, locale: object = None) -> str:
    """A server's public language by its id: the chosen one, else that of `locale` (the
    server's preferred locale, when known)."""
    chosen = await settings.guild_language(guild_id)
    return chosen if chosen in LANGUAGES else language_of(locale)


def private_language(interaction: discord.Interaction) -> str:
    """The language of a private reply: the member's client language."""
    return language_of(interaction.locale)


async def dm_language(settings: LanguageSettings, user_id: int) -> str:
    """The language of a DM: the one the member last used with the bot (English if never)."""
    return language_of(await settings.member_locale(user_id))


class MemberLanguages:
    """Remembers each member's client locale for their DMs, writing only when it changed
    since this bot last saw it."""

    def __init__(self, settings: LanguageSettings, capacity: int = REMEMBERED_MEMBERS) -> None:
        self.settings = settings
        self.capacity = capacity
        self.seen: dict[int, str] = {}  # user id → locale last stored, oldest first

    async def remember(self, interaction: discord.Interaction) -> None:
        """Note the locale of the member behind `interaction`; a database fault is logged and
        the interaction goes on."""
        user_id, locale = interaction.user.id, str(interaction.locale.value)
        if self.seen.get(user_id) == locale:
            return
        try:
            if await self.settings.member_locale(user_id) != locale:
                await self.settings.set_member_locale(user_id, locale)
        except StorageUnavailable as error:
            log.warning("Could not remember the language of member %d: %s", user_id, error)
            return
        self.seen.pop(user_id, None)
        self.seen[user_id] = locale
        if len(self.seen) > self.capacity:
            del self.seen[next(iter(self.seen))]
