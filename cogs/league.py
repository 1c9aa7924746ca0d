"""The server's league: /leaderboard, /stats, /history and the /settings of its matches."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands
from discord.utils import escape_markdown

from cogs.limits import fitting
from cogs.player_card import HISTORY_LIMIT, badges, card_file, record, versus_card
from data.model import QUARTERLY, SEASON_KINDS, Season
from data.ratings import LISTED_GAMES, LISTED_OPPONENTS, OVERALL, REPEAT_LIMIT
from locales import (
    LANGUAGE_NAMES,
    LANGUAGES,
    N_,
    command,
    duration,
    gettext,
    language_of,
    name,
    ngettext,
    number,
    pgettext,
    signed,
)
from locales.audience import picker_language, private_language, public_language
from matches.cards import TEXT_LIMIT, Card, card_message, text_size
from matches.lobby import may_thread
from matches.match import (
    CLOCK_CHOICES,
    DEFAULT_CLOCK_S,
    DEFAULT_MAX_TIMEOUTS,
    left_mark,
    match_title,
    tell,
    unrated_text,
    who,
)
from matches.seasons import season_name, season_title
from matches.spec import Games

if TYPE_CHECKING:
    from bot import GameBot

PAGE_SIZE = 10
LEADERBOARD = N_("Leaderboard — {game}")  # the title of every leaderboard message
SERVER_LANGUAGE = "server"  # the `/settings language` choice that follows the server's own
LANGUAGE_CHOICES = [
    *(
        app_commands.Choice(name=locale_str(text, translate=False), value=lang)
        for lang, text in LANGUAGE_NAMES.items()
    ),
    app_commands.Choice(name=locale_str("server default"), value=SERVER_LANGUAGE),
]


def board_title(games: Games, game: str, lang: str) -> str:
    return gettext(lang, "all games") if game == OVERALL else games.title_of(game)


def game_choices(games: Games) -> list[app_commands.Choice[str | int | float]]:
    """The `game` option's choices: the games the bot hosts."""
    return [
        app_commands.Choice[str | int | float](name=locale_str(spec.title, translate=False), value=name)
        for name, spec in games.items()
    ]


async def leaderboard_page(
    bot: GameBot, guild_id: int, game: str, page: int, lang: str, season: Season | None = None
) -> dict[str, Any]:
    """The card and paging buttons of one page of a server's table, in `lang` (of an ended
    `season`: its final table): its members by name, none of them pinged."""
    if season is not None:
        return await season_page(bot, season, game, page, lang)
    total = await bot.storage.league.rated_players(guild_id, game)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows = await bot.storage.league.leaderboard(guild_id, game, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    title = gettext(lang, LEADERBOARD, game=board_title(bot.games, game, lang))
    if rows:
        lines = [_leaderboard_line(row, page * PAGE_SIZE + index + 1, lang) for index, row in enumerate(rows)]
        listed = "\n".join(lines)
    else:
        listed = gettext(
            lang,
            "Nobody is listed here yet — start a match with a game's `{new}` command (matches with "
            "computers are not rated).",
            new=name(picker_language(bot, lang), "new"),
        )
    footer = gettext(
        lang,
        "page {page} of {pages} · ratings by OpenSkill, newcomers start at {start}",
        page=page + 1,
        pages=pages,
        start=number(lang, 1000),
    )
    buttons = [
        LeaderboardPage(game, page - 1, gettext(lang, "◀ Previous"), disabled=page == 0),
        LeaderboardPage(game, page + 1, gettext(lang, "Next ▶"), disabled=page >= pages - 1),
    ]
    card = Card(
        heading=title,
        body=listed,
        footer=f"{footer}\n{rules_text(lang)}",
        accent=discord.Colour.gold(),
        items=buttons,
    )
    return card_message(card)


async def season_page(bot: GameBot, season: Season, game: str, page: int, lang: str) -> dict[str, Any]:
    """One page of an ended season's final table of `game`, in `lang`."""
    total = await bot.storage.seasons.standing_count(season.id, game)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows = await bot.storage.seasons.standings(season.id, game, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    table = season_title(season, board_title(bot.games, game, lang), lang)
    listed = (
        "\n".join(
            _leaderboard_line(
                {"user_id": s.user_id, "rating": s.rating, "wins": s.wins, "games": s.games}, s.rank, lang
            )
            for s in rows
        )
        if rows
        else gettext(lang, "Nobody played a rated match of this table in that season.")
    )
    footer = gettext(
        lang,
        "page {page} of {pages} · the season's final table: each player's rating at its end, and "
        "their rated matches in it",
        page=page + 1,
        pages=pages,
    )
    buttons = [
        LeaderboardPage(game, page - 1, gettext(lang, "◀ Previous"), disabled=page == 0, season=season.id),
        LeaderboardPage(
            game, page + 1, gettext(lang, "Next ▶"), disabled=page >= pages - 1, season=season.id
        ),
    ]
    card = Card(
        heading=gettext(lang, LEADERBOARD, game=table),
        body=listed,
        footer=footer,
        accent=discord.Colour.gold(),
        items=buttons,
    )
    return card_message(card)


def rules_text(lang: str) -> str:
    """The rules that keep the table honest, as the leaderboard and /stats state them."""
    return gettext(
        lang,
        "Members are listed after {games} rated matches against {opponents} different members. "
        "Between the same members (any two people of a match), only the first {repeats} results "
        "in 24 hours change ratings. A match abandoned before everyone has made two moves is "
        "unrated; whoever leaves a match (resigns, times out, leaves the server) ranks last.",
        games=LISTED_GAMES,
        opponents=LISTED_OPPONENTS,
        repeats=REPEAT_LIMIT,
    )


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"lb:(?P<game>[a-z_*]{1,32}):(?P<page>-?\d{1,6})(?::s(?P<season>\d{1,18}))?",
):
    """Turns the leaderboard to another page (works after restarts: the page, and the season of
    a past season's table, are in the id)."""

    def __init__(
        self, game: str, page: int, label: str = "Page", *, disabled: bool = False, season: int | None = None
    ) -> None:
        self.game, self.page, self.season = game, page, season
        custom_id = f"lb:{game}:{page}" + (f":s{season}" if season is not None else "")
        super().__init__(discord.ui.Button(label=label, custom_id=custom_id, disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPage:
        season = match["season"]
        return cls(match["game"], int(match["page"]), season=None if season is None else int(season))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Turn the page of the leaderboard message pressed; anywhere else, answer privately."""
        bot: GameBot = interaction.client  # type: ignore[assignment]
        private = private_language(interaction)
        if interaction.guild_id is None:
            said = gettext(
                private,
                "Leaderboards belong to a server — use `{leaderboard}` there.",
                leaderboard=command(private, "leaderboard"),
            )
            await tell(interaction, said)
        elif await _known_game(bot.games, interaction, self.game):
            season = await _ended_season(bot, interaction, self.season) if self.season is not None else None
            if self.season is not None and season is None:
                return
            if _is_leaderboard(interaction.message):
                lang = await public_language(bot.storage.settings, interaction)
                page = await leaderboard_page(bot, interaction.guild_id, self.game, self.page, lang, season)
                await interaction.response.edit_message(
                    content=None, embeds=[], **page
                )  # an embed becomes a card
            else:  # a page button that is not under a leaderboard: show the page privately
                page = await leaderboard_page(
                    bot, interaction.guild_id, self.game, self.page, private, season
                )
                await interaction.response.send_message(**page, ephemeral=True)


class League(commands.Cog):
    """Ratings, results and settings of one server; nothing crosses servers."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        # The `game` choices are the games this bot hosts, known only now: discord.py declares
        # choices with the class, so they are set on this cog's own copies of the commands.
        for chosen in (self.leaderboard, self.history):
            parameter = chosen._params["game"]
            chosen._params["game"] = dataclasses.replace(parameter, choices=game_choices(bot.games))

    @app_commands.command(name="leaderboard", description=locale_str("The server's table of ratings"))
    @app_commands.describe(
        game=locale_str("One game's table (leave empty for the table across all games)"),
        season=locale_str("A past season's final table (leave empty for the table now)"),
    )
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: str | None = None, season: str | None = None
    ) -> None:
        assert interaction.guild_id is not None
        if not await _known_game(self.bot.games, interaction, game or OVERALL):
            return
        ended = None
        if season is not None:
            ended = await _ended_season(self.bot, interaction, int(season) if season.isdigit() else None)
            if ended is None:
                return
        lang = await public_language(self.bot.storage.settings, interaction)
        page = await leaderboard_page(self.bot, interaction.guild_id, game or OVERALL, 0, lang, ended)
        await interaction.response.send_message(**page)

    @leaderboard.autocomplete("season")
    async def leaderboard_seasons(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The server's ended seasons, the latest first, named in the member's language."""
        if interaction.guild_id is None:
            return []
        lang = private_language(interaction)
        ended = await self.bot.storage.seasons.ended(interaction.guild_id)
        named = [(season_name(season, lang), season.id) for season in ended]
        return [
            app_commands.Choice(name=label, value=str(season_id))
            for label, season_id in named
            if current.casefold() in label.casefold()
        ][:25]

    @app_commands.command(
        name="stats", description=locale_str("A player's games, wins, ratings and recent results")
    )
    @app_commands.describe(
        member=locale_str("Whose stats (you, if left empty)"),
        versus=locale_str("Another member: the matches the two played against each other instead"),
    )
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | None = None,
        versus: discord.Member | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        user = member or interaction.user
        lang = private_language(interaction)
        if versus is not None:
            await self._versus(interaction, user, versus, lang)
            return
        games = await self.bot.storage.league.player_ratings(interaction.guild_id, user.id)
        against, won = await self.bot.storage.league.computer_record(interaction.guild_id, user.id)
        season = await self.bot.storage.seasons.current(interaction.guild_id)
        this_season = (
            await self.bot.storage.seasons.record_since(interaction.guild_id, user.id, season.started_at)
            if season is not None
            else {}
        )
        title = gettext(lang, "Stats — {name}", name=escape_markdown(user.display_name))
        said = (
            gettext(lang, "{member} has no rated match on this server yet.", member=user.mention)
            if not games and not against
            else ""
        )
        parts: list[tuple[str, str]] = []
        for entry in games:
            rating = (
                gettext(lang, "rating **{rating}**", rating=entry["rating"])
                if entry["listed"]
                else gettext(lang, "provisional rating **{rating}**", rating=entry["rating"])
            )
            value = f"{rating} · {record(lang, entry['wins'], entry['games'])}"
            if season is not None:
                played, wins = this_season.get(entry["game"], (0, 0))
                value = gettext(
                    lang,
                    "{rating}\n{season}: {record} · all time: {all_time}",
                    rating=rating,
                    season=season_name(season, lang),
                    record=record(lang, wins, played),
                    all_time=record(lang, entry["wins"], entry["games"]),
                )
            parts.append((board_title(self.bot.games, entry["game"], lang), value))
        small_print = rules_text(lang) if any(not entry["listed"] for entry in games) else ""
        if against:
            parts.append((gettext(lang, "With computers (unrated)"), record(lang, won, against)))
        if hints := await self.bot.storage.league.hints_used(interaction.guild_id, user.id):
            used = ngettext(
                lang, "{n} hint used in finished matches", "{n} hints used in finished matches", hints
            )
            parts.append((gettext(lang, "💡 Hints"), used))
        if taken := await self.bot.storage.takebacks.count(interaction.guild_id, user.id):
            taken_back = ngettext(lang, "{n} move taken back", "{n} moves taken back", taken)
            parts.append((gettext(lang, "Taken back"), taken_back))
        recent = await self.bot.storage.league.recent_results(interaction.guild_id, user_id=user.id, limit=5)
        history = await self.bot.storage.league.rating_history(
            interaction.guild_id, user.id, limit=HISTORY_LIMIT
        )
        earned = await self.bot.storage.achievements.earned(interaction.guild_id, user.id)
        held = badges(self.bot.matches.awards.catalogue, earned, lang)
        picture = await card_file(self.bot.games, user.display_name, games, history, held, lang)
        card = Card(
            heading=title,
            body=said,
            parts=tuple(parts),
            footer=small_print,
            accent=discord.Colour.blurple(),
            picture=picture.filename,
            alt=picture.description,
        )
        if recent:
            lines = [_result_line(self.bot.games, result, lang, user.id) for result in recent]
            card = _with_list(card, gettext(lang, "Recent results"), lines, lang)
        await interaction.response.send_message(**card_message(card), file=picture, ephemeral=True)

    async def _versus(
        self, interaction: discord.Interaction, user: discord.abc.User, other: discord.abc.User, lang: str
    ) -> None:
        """The head-to-head record of two members, privately."""
        assert interaction.guild_id is not None
        if other.id == user.id:
            said = gettext(
                lang,
                "That is {member} twice — choose another member for `{versus}` to see their matches against "
                "each other.",
                member=user.mention,
                versus=name(picker_language(self.bot, lang), "versus"),
            )
            await interaction.response.send_message(said, ephemeral=True)
            return
        played = await self.bot.storage.league.head_to_head(interaction.guild_id, user.id, other.id)
        card = versus_card(self.bot.games, user, other, played, lang)
        await interaction.response.send_message(**card_message(card), ephemeral=True)

    @app_commands.command(name="history", description=locale_str("The server's recent matches"))
    @app_commands.describe(game=locale_str("Only this game's matches"))
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        if game is not None and not await _known_game(self.bot.games, interaction, game):
            return
        lang = private_language(interaction)
        recent = await self.bot.storage.league.recent_results(interaction.guild_id, game=game, limit=10)
        title = (
            gettext(lang, "Recent matches — {game}", game=self.bot.games.title_of(game))
            if game
            else gettext(lang, "Recent matches")
        )
        card = Card(heading=title, accent=discord.Colour.blurple())
        room = TEXT_LIMIT - text_size(card) - 1  # the lines go under the heading, after a line break
        said = (
            fitting(lang, [_result_line(self.bot.games, r, lang) for r in recent], limit=room)[0]
            if recent
            else gettext(
                lang,
                "No match has finished here yet — start one with a game's `{new}` command.",
                new=name(picker_language(self.bot, lang), "new"),
            )
        )
        card = dataclasses.replace(card, body=said)
        await interaction.response.send_message(**card_message(card), ephemeral=True)

    @app_commands.command(name="replay", description=locale_str("An animated replay of a finished match"))
    @app_commands.describe(match=locale_str("The match's number, as /history, /stats and /matches show it"))
    @app_commands.guild_only()
    async def replay(
        self, interaction: discord.Interaction, match: app_commands.Range[int, 1, 10**12]
    ) -> None:
        await self.bot.matches.replays.send(interaction, match, private=False)

    settings = app_commands.Group(
        name="settings",
        description=locale_str("How this server's matches are played (Manage Server)"),
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @settings.command(name="show", description=locale_str("This server's match settings"))
    async def settings_show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        lang = private_language(interaction)
        clock, timeouts, threads = await self.bot.storage.settings.for_guild(interaction.guild_id)
        lines = [
            ngettext(
                lang,
                "New matches get **{clock}** unless the host picks another; a player who runs out of "
                "time **once** is replaced by a computer (normal).",
                "New matches get **{clock}** unless the host picks another; a player who runs out of "
                "time **{n}** times in a row is replaced by a computer (normal).",
                timeouts or DEFAULT_MAX_TIMEOUTS,
                clock=_clock(lang, DEFAULT_CLOCK_S if clock is None else clock),
            ),
            gettext(lang, "Each new lobby gets its own thread.")
            if threads
            else gettext(lang, "Lobbies are posted in the channel."),
            await self._language_line(lang, interaction),
            await self._seasons_line(lang, interaction.guild_id),
        ]
        await interaction.response.send_message(" ".join(lines), ephemeral=True)

    async def _seasons_line(self, lang: str, guild_id: int) -> str:
        """What /settings show says of the server's seasons."""
        season = await self.bot.storage.seasons.current(guild_id)
        if season is None:
            return gettext(lang, "Seasons are off: ratings run on without resets.")
        return _season_under_way(season, lang)

    async def _language_line(self, lang: str, interaction: discord.Interaction) -> str:
        """What /settings show says of the language of the server's public messages."""
        assert interaction.guild_id is not None
        chosen = await self.bot.storage.settings.guild_language(interaction.guild_id)
        if chosen is not None and chosen in LANGUAGE_NAMES:
            return gettext(lang, "Boards and lobbies speak **{language}**.", language=LANGUAGE_NAMES[chosen])
        return gettext(
            lang,
            "Boards and lobbies speak the server's language (now **{language}**).",
            language=LANGUAGE_NAMES[language_of(interaction.guild_locale)],
        )

    @settings.command(
        name="threads", description=locale_str("Whether each new match is played in its own thread")
    )
    @app_commands.describe(
        threads=locale_str("on: a thread per match, linked from the channel; off: in the channel")
    )
    async def settings_threads(self, interaction: discord.Interaction, threads: Literal["on", "off"]) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        lang = private_language(interaction)
        if threads == "on" and not may_thread(interaction.app_permissions):
            text = gettext(
                lang,
                "I need the Create Public Threads and Send Messages in Threads permissions in this "
                "channel to give each match its own thread — ask a server admin to grant them, then "
                "try again.",
            )
            await interaction.response.send_message(text, ephemeral=True)
            return
        await self.bot.storage.settings.set_threads(interaction.guild_id, threads == "on")
        said = (
            gettext(lang, "Each new lobby now gets its own thread, archived when its match ends.")
            if threads == "on"
            else gettext(lang, "New lobbies are now posted in the channel.")
        )
        await interaction.response.send_message(said, ephemeral=True)

    @settings.command(
        name="seasons", description=locale_str("Whether the league runs in seasons, with soft resets")
    )
    @app_commands.describe(
        seasons=locale_str("monthly or quarterly: seasons end at the start of each month or quarter (UTC)")
    )
    async def settings_seasons(
        self, interaction: discord.Interaction, seasons: Literal["off", "monthly", "quarterly"]
    ) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        lang = private_language(interaction)
        kind = seasons if seasons in SEASON_KINDS else None
        season = await self.bot.storage.seasons.set_kind(interaction.guild_id, kind, discord.utils.utcnow())
        if season is None:
            said = gettext(
                lang, "Seasons are now off: ratings run on without resets, and no season is archived."
            )
        else:
            said = _season_under_way(season, lang)
        await interaction.response.send_message(said, ephemeral=True)

    @settings.command(name="clock", description=locale_str("The default turn clock of new matches"))
    @app_commands.describe(clock=locale_str("Time per move when the host does not choose one"))
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def settings_clock(self, interaction: discord.Interaction, clock: int) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        lang = private_language(interaction)
        await self.bot.storage.settings.set_default_clock(interaction.guild_id, clock)
        await interaction.response.send_message(
            gettext(lang, "New matches now get {clock} by default.", clock=_clock(lang, clock)),
            ephemeral=True,
        )

    @settings.command(
        name="timeouts", description=locale_str("Time-outs in a row before a computer takes a player's seat")
    )
    @app_commands.describe(count=locale_str("How many times in a row a player may run out of time"))
    async def settings_timeouts(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 10]
    ) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        await self.bot.storage.settings.set_max_timeouts(interaction.guild_id, count)
        said = ngettext(
            private_language(interaction),
            "A player who runs out of time once is now replaced by a computer (normal).",
            "A player who runs out of time {n} times in a row is now replaced by a computer (normal).",
            count,
        )
        await interaction.response.send_message(said, ephemeral=True)

    @settings.command(
        name="language", description=locale_str("The language of this server's boards, lobbies and results")
    )
    @app_commands.describe(
        language=locale_str("server default: the language set in the server's settings (Community)")
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def settings_language(self, interaction: discord.Interaction, language: str) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        await self.bot.storage.settings.set_guild_language(
            interaction.guild_id, language if language in LANGUAGE_NAMES else None
        )
        lang = private_language(interaction)
        if language in LANGUAGE_NAMES:
            said = gettext(
                lang, "Boards and lobbies now speak **{language}**.", language=LANGUAGE_NAMES[language]
            )
        else:
            said = gettext(
                lang,
                "Boards and lobbies now speak the server's language (now **{language}**).",
                language=LANGUAGE_NAMES[language_of(interaction.guild_locale)],
            )
        hint = gettext(
            lang,
            "Private replies speak each member's own language; `{show}` shows every setting.",
            show=command(picker_language(self.bot, lang), "settings show"),
        )
        await interaction.response.send_message(f"{said} {hint}", ephemeral=True)


def _season_under_way(season: Season, lang: str) -> str:
    """The season under way and when it ends."""
    ends = int(datetime.fromisoformat(season.ends_at).timestamp())
    if season.kind == QUARTERLY:
        text = N_(
            "Seasons are quarterly: the season {season} ends <t:{ends}:F>; then its final tables are "
            "kept, its podium is announced and every rating restarts softly."
        )
    else:
        text = N_(
            "Seasons are monthly: the season {season} ends <t:{ends}:F>; then its final tables are "
            "kept, its podium is announced and every rating restarts softly."
        )
    return gettext(lang, text, season=season_name(season, lang), ends=ends)


async def _ended_season(
    bot: GameBot, interaction: discord.Interaction, season_id: int | None
) -> Season | None:
    """The server's ended season `season_id`; else the member is told privately which there are."""
    season = None if season_id is None else await bot.storage.seasons.get(season_id)
    if season is not None and season.guild_id == interaction.guild_id and season.ended_at is not None:
        return season
    lang = private_language(interaction)
    said = gettext(
        lang,
        "That is not a past season of this server — pick one from the list `{leaderboard}` offers "
        "(there is none before the first season ends: see `{settings}`).",
        leaderboard=command(picker_language(bot, lang), "leaderboard"),
        settings=command(picker_language(bot, lang), "settings show"),
    )
    await tell(interaction, said)
    return None


def _with_list(card: Card, name: str, lines: list[str], lang: str) -> Card:
    """`card` with a last part called `name` listing as many of `lines` as the text of a message
    leaves room for (the rest counted)."""
    room = TEXT_LIMIT - text_size(dataclasses.replace(card, parts=(*card.parts, (name, ""))))
    listed, _ = fitting(lang, lines, limit=room)
    return dataclasses.replace(card, parts=(*card.parts, (name, listed)))


def _clock(lang: str, seconds: int) -> str:
    """A turn clock as players read it: "10 minutes per move", "no turn clock"."""
    if not seconds:
        return gettext(lang, "no turn clock")
    return gettext(lang, "{duration} per move", duration=duration(lang, seconds))


def _is_leaderboard(message: discord.Message | None) -> bool:
    """Whether `message` is a leaderboard (in any language, a card or an earlier version's embed):
    its heading is one and its every control turns its pages."""
    if message is None:
        return False
    shown = _components(message.components)
    texts = [item.content for item in shown if isinstance(item, discord.TextDisplay)]
    if message.embeds:
        heading = message.embeds[0].title or ""
    else:
        heading = texts[0].removeprefix("## ") if texts else ""
    if not any(heading.startswith(gettext(lang, LEADERBOARD, game="")) for lang in LANGUAGES):
        return False
    ids = [item.custom_id or "" for item in shown if isinstance(item, (discord.Button, discord.SelectMenu))]
    return all(custom_id.startswith("lb:") for custom_id in ids)


def _components(items: Sequence[discord.Component]) -> list[discord.Component]:
    """Every component of a message, nested ones (in rows, in a card) after what holds them."""
    found: list[discord.Component] = []
    for item in items:
        found += [item, *_components(getattr(item, "children", []))]
    return found


async def _known_game(games: Games, interaction: discord.Interaction, game: str) -> bool:
    """Whether `game` names a table this bot keeps; else the member is told privately."""
    if game == OVERALL or game in games:
        return True
    names = ", ".join(spec.title for spec in games.values())
    said = gettext(
        private_language(interaction),
        "There is no game called {game} here — choose one of {names}, or leave it empty.",
        game=repr(game),
        names=names,
    )
    await interaction.response.send_message(said, ephemeral=True)
    return False


async def _may_manage(interaction: discord.Interaction) -> bool:
    if interaction.permissions.manage_guild:
        return True
    said = gettext(
        private_language(interaction),
        "Only members with the Manage Server permission can change these settings.",
    )
    await interaction.response.send_message(said, ephemeral=True)
    return False


def _leaderboard_line(row: dict[str, Any], rank: int, lang: str) -> str:
    """One rated member of a leaderboard page: rank, mention, rating and record."""
    return pgettext(
        lang,
        "leaderboard line",
        "{rank} {player} — **{rating}** · {record}",
        rank="`" + str(rank).rjust(3) + ".`",
        player=who(row["user_id"], lang),
        rating=row["rating"],
        record=record(lang, row["wins"], row["games"]),
    )


def _result_line(games: Games, result: dict[str, Any], lang: str, viewer: int | None = None) -> str:
    """One finished match in a sentence, in `lang`: game, how it ended, who won, scores (and
    how those who left did), when, and why it was unrated where that needs saying."""
    when = f"<t:{int(_timestamp(result['finished_at']))}:R>"
    seats = ", ".join(
        f"{who(s['user_id'], lang)} {number(lang, s['score'])}"
        + left_mark(s["left"], lang)
        + (" 🏆" if s["winner"] and not result["abandoned"] else "")
        for s in result["seats"]
    )
    line = pgettext(
        lang,
        "history line",
        "**{title}**{ending} — {seats} — {when}",
        title=match_title(games.title_of(result["game"]), result["match_id"], lang),
        ending=_ending(result, lang),
        seats=seats,
        when=when,
    )
    unrated = unrated_text(result["unrated"], lang)
    if viewer is not None and not result["abandoned"]:  # an abandoned one says it is unrated
        mine = next(s for s in result["seats"] if s["user_id"] == viewer)
        change = mine["change"]
        line += (
            f" · {unrated}"
            if unrated is not None
            else gettext(lang, " · unrated")
            if change is None
            else gettext(lang, " · rating {change}", change=signed(lang, round(change)))
        )
    elif unrated is not None:
        line += f" · {unrated}"
    return line


def _ending(result: dict[str, Any], lang: str) -> str:
    """How a match ended when it was not simply played out: abandoned, a draw, won by resignation
    (every loser left it before the end)."""
    if result["abandoned"]:
        return gettext(lang, " (abandoned — unrated)")
    if result["draw"]:
        return gettext(lang, " (draw)")
    seats = result["seats"]
    if any(s["winner"] for s in seats) and all(s["winner"] or s["left"] for s in seats):
        return gettext(lang, " (won by resignation)")
    return ""


def _timestamp(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(LeaderboardPage)
    await bot.add_cog(League(bot))
