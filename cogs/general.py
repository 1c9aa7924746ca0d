"""Server-wide commands: /help and /matches."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from cogs.achievements import AchievementsPage
from cogs.game import GameCog
from cogs.league import LeaderboardPage
from cogs.limits import COMPONENT_LIMIT, fitting
from data.model import MatchRow
from locales import command, gettext, name, pgettext
from locales.audience import MemberLanguages, picker_language, private_language
from matches.cards import TEXT_LIMIT, Card, card_message, text_size
from matches.components import DYNAMIC_ITEMS, GameButton, answered_by
from matches.match import BOARD, CANCEL, WATCH, jump_url, match_title, players_text, tell
from matches.spec import Games
from matches.tournaments import TournamentButton

if TYPE_CHECKING:
    from bot import GameBot


log = logging.getLogger(__name__)
MATCHES_SHOWN = 12  # per list of /matches, each with its button (24 in five rows: within 40 components)


class General(commands.Cog):
    """Commands that are about the bot, not one game."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.languages = MemberLanguages(bot.storage.settings)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Remember the member's language for their DMs (and that they take DMs again, if
        Discord refused one); answer a press no component of this bot takes (an id it never
        made, or from a long gone version), so nobody is left with "This interaction failed"."""
        await self.languages.remember(interaction)
        await self.bot.matches.used_by(interaction)
        data: Any = interaction.data or {}
        if interaction.type is not discord.InteractionType.component:
            return
        if not answered_by(
            (*DYNAMIC_ITEMS, LeaderboardPage, AchievementsPage, TournamentButton),
            str(data.get("custom_id", "")),
        ):
            lang = private_language(interaction)
            await tell(
                interaction,
                gettext(
                    lang,
                    "This button is no longer in use — use the latest board or `{matches}`.",
                    matches=command(picker_language(self.bot, lang), "matches"),
                ),
            )

    @app_commands.command(
        name="help", description=locale_str("The games this bot hosts and how to play them")
    )
    async def help(self, interaction: discord.Interaction) -> None:
        lang = private_language(interaction)
        names = picker_language(self.bot, lang)
        embed = discord.Embed(
            title=gettext(lang, "Game table"),
            description=_introduction(lang, names),
            colour=discord.Colour.blurple(),
        )
        for cog in self.bot.matches.games.values():  # the hosted games' presentations
            if not isinstance(cog, GameCog):
                continue
            group = cog.__cog_group_name__
            embed.add_field(
                name=gettext(
                    lang,
                    "{game} ({players} players)",
                    game=cog.engine.title,
                    players=players_text(cog.player_counts, lang),
                ),
                value=f"`{command(names, f'{group} new')}` · `{command(names, f'{group} rules')}`",
                inline=False,
            )
        embed.add_field(name=gettext(lang, "💡 Hints"), value=_hints(lang), inline=False)
        embed.add_field(name=gettext(lang, "🏁 Seasons"), value=_seasons(lang, names), inline=False)
        embed.add_field(name=gettext(lang, "🏅 Achievements"), value=_achievements(lang, names), inline=False)
        embed.add_field(name=gettext(lang, "🏆 Tournaments"), value=_tournaments(lang, names), inline=False)
        embed.add_field(
            name=gettext(lang, "Everything else"), value=_other_commands(lang, names), inline=False
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(
        name="matches", description=locale_str("Your lobbies and matches here, and the others to watch")
    )
    @app_commands.guild_only()
    async def matches(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        lang = private_language(interaction)
        mine = await self.bot.storage.matches.active_for(interaction.user.id, interaction.guild_id)
        others = [
            match
            for match in self.bot.matches.running.values()
            if match.row.guild_id == interaction.guild_id and interaction.user.id not in match.players
        ]
        if not mine and not others:
            said = gettext(
                lang,
                "No match is being played here — start one with a game's `{new}` command (see `{help}`).",
                new=name(picker_language(self.bot, lang), "new"),
                help=command(picker_language(self.bot, lang), "help"),
            )
            await interaction.response.send_message(said, ephemeral=True)
            return
        card = Card(
            heading=gettext(lang, "Matches here"),
            footer=gettext(lang, "Board ↓ posts your board again at the bottom of its channel."),
            accent=discord.Colour.blurple(),
        )
        lists = [
            (gettext(lang, "Yours"), mine, True),
            (gettext(lang, "Running — watch without joining"), [match.row for match in others], False),
        ]
        lists = [(title, rows, own) for title, rows, own in lists if rows]
        room = _room(card, [title for title, _, _ in lists])
        parts: list[tuple[str, str]] = []
        buttons: list[discord.ui.DynamicItem[Any]] = []
        for title, rows, own in lists:
            text, shown = _listed(rows, self.bot.games, lang, room)
            parts.append((title, text))
            for row in shown:
                button = _mine_button(row, interaction.user.id, lang) if own else _watch_button(row, lang)
                buttons += [button] if button is not None else []
        card = dataclasses.replace(card, parts=tuple(parts), items=buttons[:COMPONENT_LIMIT])
        await interaction.response.send_message(**card_message(card), ephemeral=True)


def _introduction(lang: str, names: str) -> str:
    """The first lines of /help, in `lang`, naming the commands and options in `names`."""
    return gettext(
        lang,
        "Start a match with a game's `{new}` command, friends press **Join**, the host presses "
        "**Start**. Alone, or a seat short? Give `{new}` some `{computers}` (and a `{level}`: easy, "
        "normal or hard), or add them with the lobby's menu. Play with the buttons under the "
        "board; what only you may see comes privately. Matches survive restarts: come back any time.",
        new=name(names, "new"),
        computers=name(names, "computers"),
        level=name(names, "level"),
    )


def _hints(lang: str) -> str:
    """What /help says of hints and the ratings."""
    return gettext(
        lang,
        "On your turn, **Hint** privately shows the move the normal computer would make, and why. "
        "A match in which someone used a hint is unrated, unless everyone who used one lost it: "
        "in a rated match you are asked to confirm your first hint.",
    )


def _seasons(lang: str, names: str) -> str:
    """What /help says of seasons and how ratings restart (`data.ratings.soft_reset`)."""
    return gettext(
        lang,
        "With `{settings}`, the league runs in monthly or quarterly seasons (UTC). When one ends, "
        "its final tables are kept (`{leaderboard} {season}:`), its podium is announced, and every "
        "rating restarts softly: μ′ = 25 + ½ (μ − 25) and σ′ = min(25/3, √(σ² + (25/6)²)). You keep "
        "half of your lead over a newcomer, and the bot is less sure of you, so the first results "
        "of a season count more.",
        settings=command(names, "settings seasons"),
        leaderboard=command(names, "leaderboard"),
        season=name(names, "season"),
    )


def _achievements(lang: str, names: str) -> str:
    """What /help says of achievements: what counts towards them, and where to see them."""
    return gettext(
        lang,
        "Finished matches earn achievements, each once, told on the final board; `{achievements}` "
        "lists yours, those still locked and how rare each is. Wins count from rated matches and "
        "from matches against computers, feats from any finished match; nothing counts from an "
        "abandoned match, nor from a match in which you asked for a hint.",
        achievements=command(names, "achievements"),
    )


def _tournaments(lang: str, names: str) -> str:
    """What /help says of tournaments: the formats and how they score, naming the commands in
    `names`."""
    return gettext(
        lang,
        "`{new}` opens a sign-up. **Swiss**: rounds paired by points, nobody meets twice while it "
        "can be avoided, a bye (a win) for the odd player out. **Knockout**: a bracket seeded by "
        "rating, byes for the top seeds; tables of two only. **Round robin**: everyone meets. At "
        "tables of two a win is 1 point and a draw ½; at tables of three or more, places score "
        "3-1-0, 3-2-1-0… (shared on ties). The next round starts when the last match of a round "
        "ends. `{standings}` shows the table (ties: Buchholz, then Sonneborn–Berger, then rating); "
        "`{leave}` withdraws you, forfeiting your remaining games.",
        new=command(names, "tournament new"),
        standings=command(names, "tournament standings"),
        leave=command(names, "tournament leave"),
    )


def _other_commands(lang: str, names: str) -> str:
    """The lines of /help about the commands that are not a game's, in `lang`, naming the
    commands and options in `names`."""
    game, member, match = name(names, "game"), name(names, "member"), name(names, "match")
    lines = (
        gettext(
            lang,
            "`{matches}` — your matches here (and a buried board brought down), and others to watch",
            matches=command(names, "matches"),
        ),
        gettext(
            lang,
            "`{leaderboard} [{game}] [{season}]` — the server's ratings (a past season's too) · "
            "`{stats} [{member}] [{versus}]` · `{history} [{game}]`",
            leaderboard=command(names, "leaderboard"),
            stats=command(names, "stats"),
            history=command(names, "history"),
            game=game,
            member=member,
            season=name(names, "season"),
            versus=name(names, "versus"),
        ),
        gettext(
            lang,
            "`{replay} {match}` — a finished match as an animation",
            replay=command(names, "replay"),
            match=match,
        ),
        gettext(
            lang,
            "`{settings}` — default turn clock, time-outs, a thread per match, language, seasons "
            "(Manage Server)",
            settings=command(names, "settings"),
        ),
        gettext(lang, "`{help}` — this page", help=command(names, "help")),
    )
    return "\n".join(lines)


def _room(card: Card, titles: list[str]) -> int:
    """The characters each of the lists called `titles` may take in `card` (they share what is left)."""
    empty = dataclasses.replace(card, parts=tuple((title, "") for title in titles))
    return (TEXT_LIMIT - text_size(empty)) // max(1, len(titles))


def _listed(rows: list[MatchRow], games: Games, lang: str, room: int) -> tuple[str, list[MatchRow]]:
    """A list of the first `rows` that fit in `room` characters (at most `MATCHES_SHOWN`, the rest
    counted), and the rows it lists."""
    text, shown = fitting(
        lang, [_line(games, lang, row) for row in rows[:MATCHES_SHOWN]], total=len(rows), limit=room
    )
    return text, rows[:shown]


def _line(games: Games, lang: str, row: MatchRow) -> str:
    url = jump_url(row)
    if row.status == "lobby":
        state = gettext(lang, "lobby")
    elif row.status == "set_aside":
        state = gettext(lang, "paused — Board ↓ resumes it")
    else:
        state = gettext(lang, "move {number}", number=row.turn)
    title = match_title(games.title_of(row.game), row.id, lang)
    return pgettext(lang, "list line", "**{title}** — {state} — {link}", title=title, state=state, link=url)


def _mine_button(row: MatchRow, user_id: int, lang: str) -> discord.ui.DynamicItem[Any] | None:
    """The button of one of the member's own matches: Board ↓ (which also brings back a paused
    one), or Cancel for a lobby they host — its message may be gone."""
    if row.status == "lobby":
        if row.host_id != user_id:
            return None
        return _button(row, CANCEL, gettext(lang, "Cancel lobby #{number}", number=row.id))
    return _button(row, BOARD, gettext(lang, "Board #{number} ↓", number=row.id))


def _watch_button(row: MatchRow, lang: str) -> discord.ui.DynamicItem[Any]:
    return _button(row, WATCH, gettext(lang, "Watch #{number}", number=row.id))


def _button(row: MatchRow, arg: str, label: str) -> discord.ui.DynamicItem[Any]:
    return GameButton(row.game, row.id, row.turn, arg, label=label)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(General(bot))
