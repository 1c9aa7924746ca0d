"""/achievements [member]: what a member earned on the server, what is still locked, and how rare
each one is (the share of the server's players — people with a finished match — who hold it)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.limits import FIELD_LIMIT
from data.model import Award
from games.feats import Achievement
from locales import command, gettext, ngettext, number, percent, pgettext
from locales.audience import picker_language, private_language
from matches.cards import TEXT_LIMIT, Card, card_message
from matches.match import tell

if TYPE_CHECKING:
    from bot import GameBot

Section = tuple[str, list[str]]  # a part of the list: its title and its lines
Field = tuple[str, str]  # a named part of the card: name, value
PAGE_ROOM = TEXT_LIMIT - 500  # what a page's parts may hold: its heading, summary and footer take the rest


def rarity_text(holders: int, players: int, lang: str) -> str:
    """ "12% of players": the share of the server's players who hold an achievement (1% at least
    when anyone holds it, so a rare one never reads as nobody's)."""
    share = holders / players if players else 0.0
    if holders:
        share = max(share, 0.01)
    return gettext(lang, "{percent} of players", percent=percent(lang, share))


def entry_line(achievement: Achievement, lang: str, rarity: str, earned: Award | None) -> str:
    """One achievement in the list: its emoji (a lock while locked), name, description, when it
    was earned and its rarity."""
    name = gettext(lang, achievement.name)
    description = gettext(lang, achievement.description)
    if earned is None:
        return pgettext(
            lang,
            "achievement line",
            "🔒 {emoji} **{name}** — {description} · {rarity}",
            emoji=achievement.emoji,
            name=name,
            description=description,
            rarity=rarity,
        )
    return pgettext(
        lang,
        "achievement line",
        "{emoji} **{name}** — {description} · {when} · {rarity}",
        emoji=achievement.emoji,
        name=name,
        description=description,
        when=f"<t:{int(datetime.fromisoformat(earned.earned_at).timestamp())}:d>",
        rarity=rarity,
    )


def sections(
    catalogue: Sequence[Achievement],
    earned: Sequence[Award],
    players: int,
    holders: Mapping[str, int],
    lang: str,
) -> list[Section]:
    """The member's earned achievements (in the order earned), then the locked ones (in the
    catalogue's order)."""
    known = {achievement.key: achievement for achievement in catalogue}
    held = {award.key: award for award in earned if award.key in known}

    def line(achievement: Achievement) -> str:
        rarity = rarity_text(holders.get(achievement.key, 0), players, lang)
        return entry_line(achievement, lang, rarity, held.get(achievement.key))

    mine = [line(known[key]) for key in held]
    locked = [line(achievement) for achievement in catalogue if achievement.key not in held]
    found: list[Section] = []
    if mine:
        found.append((ngettext(lang, "Earned — {n}", "Earned — {n}", len(mine)), mine))
    if locked:
        found.append((ngettext(lang, "Locked — {n}", "Locked — {n}", len(locked)), locked))
    return found


def fields_of(parts: Sequence[Section]) -> list[Field]:
    """The sections as a card's named parts of at most `FIELD_LIMIT` characters each, a long section
    continued in further fields of the same title."""
    fields: list[Field] = []
    for title, lines in parts:
        value = ""
        for line in lines:
            joined = f"{value}\n{line}" if value else line
            if len(joined) > FIELD_LIMIT and value:
                fields.append((title, value))
                joined = line
            value = joined[:FIELD_LIMIT]
        if value:
            fields.append((title, value))
    return fields


def pages_of(fields: Sequence[Field], room: int = PAGE_ROOM) -> list[list[Field]]:
    """The fields split into pages of at most `room` characters (names and values)."""
    pages: list[list[Field]] = [[]]
    used = 0
    for name, value in fields:
        size = len(name) + len(value)
        if pages[-1] and used + size > room:
            pages.append([])
            used = 0
        pages[-1].append((name, value))
        used += size
    return pages


async def achievements_page(
    bot: GameBot, guild_id: int, user_id: int, page: int, lang: str
) -> dict[str, Any]:
    """One page of a member's achievements on a server, in `lang`, with its page buttons."""
    catalogue = list(bot.matches.awards.catalogue.values())
    earned = await bot.storage.achievements.earned(guild_id, user_id)
    players, holders = await bot.storage.achievements.rarity(guild_id)
    parts = sections(catalogue, earned, players, holders, lang)
    pages = pages_of(fields_of(parts))
    page = min(max(page, 0), len(pages) - 1)
    held = sum(1 for award in earned if award.key in bot.matches.awards.catalogue)
    summary = ngettext(
        lang,
        "<@{member}> holds {held} of {n} achievement.",
        "<@{member}> holds {held} of {n} achievements.",
        len(catalogue),
        member=user_id,
        held=number(lang, held),
    )
    footer = gettext(
        lang, "Rarity: the share of this server's players (a finished match or more) who hold it."
    )
    if len(pages) > 1:
        footer = gettext(lang, "page {page} of {pages}", page=page + 1, pages=len(pages)) + " · " + footer
    buttons = (
        [
            AchievementsPage(user_id, page - 1, gettext(lang, "◀ Previous"), disabled=page == 0),
            AchievementsPage(user_id, page + 1, gettext(lang, "Next ▶"), disabled=page >= len(pages) - 1),
        ]
        if len(pages) > 1
        else []
    )
    card = Card(
        heading=gettext(lang, "🏅 Achievements"),
        body=summary,
        parts=tuple(pages[page]),
        footer=footer,
        accent=discord.Colour.gold(),
        items=buttons,
    )
    return card_message(card)


class AchievementsPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ach:(?P<user>\d{1,20}):(?P<page>-?\d{1,4})",
):
    """Turns a member's list of achievements to another page (the member and page are in the id)."""

    def __init__(self, user_id: int, page: int, label: str = "Page", *, disabled: bool = False) -> None:
        self.user_id, self.page = user_id, page
        button = discord.ui.Button[discord.ui.View](
            label=label, custom_id=f"ach:{user_id}:{page}", disabled=disabled
        )
        super().__init__(button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> AchievementsPage:
        return cls(int(match["user"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameBot = interaction.client  # type: ignore[assignment]
        lang = private_language(interaction)
        if interaction.guild_id is None:
            said = gettext(
                lang,
                "Achievements belong to a server — use `{achievements}` there.",
                achievements=command(picker_language(bot, lang), "achievements"),
            )
            await tell(interaction, said)
            return
        page = await achievements_page(bot, interaction.guild_id, self.user_id, self.page, lang)
        await interaction.response.edit_message(**page)


class Achievements(commands.Cog):
    """/achievements: each member's achievements on a server."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(
        name="achievements", description=locale_str("A member's achievements here, and those still locked")
    )
    @app_commands.describe(member=locale_str("Whose achievements (you, if left empty)"))
    @app_commands.guild_only()
    async def achievements(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        assert interaction.guild_id is not None
        user = member or interaction.user
        lang = private_language(interaction)
        page = await achievements_page(self.bot, interaction.guild_id, user.id, 0, lang)
        await interaction.response.send_message(**page, ephemeral=True)


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(AchievementsPage)
    await bot.add_cog(Achievements(bot))
