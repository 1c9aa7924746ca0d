"""Seasons: with `/settings seasons monthly` or `quarterly`, a server's league runs in seasons
that end at the start of each month or quarter (UTC).

At a season's end, the process that runs the server (its shard) ends it once, in one
transaction (`SeasonRepository.end`): the final table of every game and across all games is
archived (`/leaderboard season:`), every rating restarts softly (`data.ratings.soft_reset`) and
the next season begins. The end is looked for on every beat of the turn clock, from the first
after start-up: a boundary passed while the bot was down is handled then, once. The podium of
the table across all games is then announced in the channel where most of the season's matches
were played (a match's thread counts for its channel; a channel that is gone gives way to the
next busiest, the later one on a tie), and not at all if none is left or nothing was played.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping
from datetime import UTC, datetime

import discord

from data.model import MONTHLY, QUARTERLY, Season, SeasonEnd, Shards, Standing, next_boundary
from data.repositories import Database
from games.feats import Achievement
from locales import command, gettext, month_or_quarter, ngettext, number, pgettext
from locales.audience import guild_language, picker_language
from matches.achievements import Placing
from matches.awards import Awards, earned_line
from matches.match import alt_text, who
from render.podium import Place, podium_alt, render_podium

log = logging.getLogger(__name__)
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
NEVER = datetime.min.replace(tzinfo=UTC)


def season_name(season: Season, lang: str) -> str:
    """A season as players name it: its month or quarter ("November 2026", "Q4 2026")."""
    return month_or_quarter(lang, season.period.date(), quarter=season.kind == QUARTERLY)


def season_title(season: Season, table: str, lang: str) -> str:
    """ "Season November 2026 — all games": a season's table of `table` (a game, or all games)."""
    return gettext(lang, "Season {season} — {table}", season=season_name(season, lang), table=table)


def standing_detail(standing: Standing, lang: str) -> str:
    """A player's rating and wins in a season's table: "1,284 · 31 wins"."""
    wins = ngettext(lang, "{n} win", "{n} wins", standing.wins)
    return pgettext(
        lang, "rating and wins", "{rating} · {wins}", rating=number(lang, standing.rating), wins=wins
    )


async def season_placings(storage: Database, guild_id: int, user_id: int) -> list[Placing]:
    """A player's final places across all games in the server's ended seasons, oldest first."""
    placings = await storage.seasons.placings(guild_id, user_id)
    return [Placing("season", datetime.fromisoformat(ended), rank) for ended, rank in placings]


class SeasonKeeper:
    """Ends the seasons of this process's servers when their time comes, and announces them."""

    def __init__(self, bot: discord.Client, storage: Database, shards: Shards, awards: Awards) -> None:
        self.bot = bot
        self.storage = storage
        self.shards = shards
        self.awards = awards
        self.next_look = NEVER  # no season of any server ends before this (a month's start)

    async def check(self, now: datetime) -> None:
        """End every season of this process's servers whose time has come by `now` (looking in
        the database only from each month's start on, and at the first beat once ready)."""
        if now < self.next_look or not self.bot.is_ready():
            return
        for season in await self.storage.seasons.due(now):
            if self.shards.owns(season.guild_id):
                ended = await self.storage.seasons.end(season.id, now)
                if ended is not None:
                    await self.announce(ended, await self._podium_awards(ended))
        self.next_look = next_boundary(MONTHLY, now)

    async def _podium_awards(self, ended: SeasonEnd) -> dict[int, tuple[Achievement, ...]]:
        """Award the podium's places across all games (what each newly earned, by player)."""
        at = datetime.fromisoformat(ended.season.ended_at or ended.season.ends_at)
        earned = {
            standing.user_id: tuple(
                await self.awards.award_placings(
                    ended.season.guild_id, standing.user_id, [Placing("season", at, standing.rank)]
                )
            )
            for standing in ended.podium
        }
        return {user: new for user, new in earned.items() if new}

    async def announce(self, ended: SeasonEnd, earned: Mapping[int, tuple[Achievement, ...]]) -> None:
        """The podium across all games, in the channel where the season was played most, with
        the achievements its places `earned`."""
        guild = self.bot.get_guild(ended.season.guild_id)
        if guild is None or not ended.podium:
            return
        channel = self._busiest(guild, ended.channels)
        if channel is None:
            log.info("Season %s ended with no channel left to announce it in", ended.season.id)
            return
        lang = await guild_language(self.storage.settings, guild.id, guild.preferred_locale)
        names = await asyncio.gather(*(self._name(guild, s.user_id, lang) for s in ended.podium))
        places = [
            Place(s.rank, name, standing_detail(s, lang)) for s, name in zip(ended.podium, names, strict=True)
        ]
        title = season_title(ended.season, gettext(lang, "all games"), lang)
        image = await asyncio.to_thread(render_podium, title, places)
        picture = discord.File(
            io.BytesIO(image), filename="podium.png", description=alt_text(podium_alt(title, places), lang)
        )
        try:
            await channel.send(self._text(ended, earned, lang), file=picture)
        except discord.HTTPException as error:
            log.warning("The end of season %s could not be announced: %s", ended.season.id, error)

    def _text(self, ended: SeasonEnd, earned: Mapping[int, tuple[Achievement, ...]], lang: str) -> str:
        names = picker_language(self.bot, lang)
        heading = gettext(
            lang,
            "🏁 **Season {season}** is over — its podium across all games is below. Its final tables "
            "stay on `{leaderboard}`. Every rating now restarts softly for the new season: each player "
            "keeps half of their lead, and the first results count more (`{help}` says how).",
            season=season_name(ended.season, lang),
            leaderboard=command(names, "leaderboard"),
            help=command(names, "help"),
        )
        lines = [
            f"{MEDALS.get(s.rank, '🏅')} {who(s.user_id, lang)} — {standing_detail(s, lang)}"
            for s in ended.podium
        ]
        told = [earned_line(user, achievements, lang) for user, achievements in earned.items()]
        return "\n".join([heading, *lines, *told])

    def _busiest(
        self, guild: discord.Guild, channels: tuple[tuple[int, int, str], ...]
    ) -> discord.TextChannel | None:
        """The channel still there where most of the season's matches were played (a thread's
        matches count for its channel), the one played in last on a tie."""
        counts: dict[int, tuple[int, str]] = {}
        places: dict[int, discord.TextChannel] = {}
        for channel_id, played, last in channels:
            place = guild.get_channel_or_thread(channel_id)
            if isinstance(place, discord.Thread):
                place = place.parent
            if not isinstance(place, discord.TextChannel):
                continue
            before, latest = counts.get(place.id, (0, ""))
            counts[place.id], places[place.id] = (before + played, max(latest, last)), place
        if not counts:
            return None
        return places[max(counts, key=lambda place: counts[place])]

    async def _name(self, guild: discord.Guild, user_id: int, lang: str) -> str:
        """A member's name as the server shows it, or "a former member"."""
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                return gettext(lang, "a former member")
        return member.display_name
