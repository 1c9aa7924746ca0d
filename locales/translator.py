"""The slash commands in every language: discord.py's `Translator` over the catalogues.

discord.py hands every name, description and choice of the command tree to
`CatalogueTranslator.translate` for each Discord locale when it syncs; names (of commands,
groups and options) are looked up in the context `COMMAND_NAME`, since Discord holds them to
its own rules, everything else without context. A string made with
`locale_str("…", translate=False)` (a language's own name, say) is never translated.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Location
from discord.app_commands import TranslationContextTypes, locale_str

from locales import COMMAND_NAME, TRANSLATED, language_of, translated

NAME_LOCATIONS = frozenset({Location.command_name, Location.group_name, Location.parameter_name})


def context_of(location: Location) -> str | None:
    """The catalogue context of a string at `location` of the command tree."""
    return COMMAND_NAME if location in NAME_LOCATIONS else None


def wants_translation(string: locale_str) -> bool:
    return bool(string.extras.get("translate", True))


class CatalogueTranslator(app_commands.Translator):
    """Translates the command tree into the languages the catalogues hold."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        lang = language_of(locale)
        if lang not in TRANSLATED or not wants_translation(string):
            return None
        return translated(lang, string.message, context_of(context.location))


@dataclass(frozen=True, slots=True)
class TreeString:
    """One translatable string of the command tree."""

    message: str
    context: str | None
    location: str  # where discord.py found it: command_name, parameter_description, choice_name…


class _Recorder(app_commands.Translator):
    """Translates nothing; notes every string it is asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.found: dict[TreeString, None] = {}  # ordered, without repeats

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: TranslationContextTypes
    ) -> str | None:
        if wants_translation(string) and any(char.isalpha() for char in string.message):
            found = TreeString(string.message, context_of(context.location), context.location.name)
            self.found[found] = None
        return None


async def tree_strings(
    tree: app_commands.CommandTree, guild: discord.abc.Snowflake | None = None
) -> list[TreeString]:
    """Every string of the command tree (of `guild`, else the global one) that the catalogues
    translate, in the order discord.py asks for them when it syncs."""
    recorder = _Recorder()
    for command in tree.get_commands(guild=guild):
        await command.get_translated_payload(tree, recorder)
    return list(recorder.found)
