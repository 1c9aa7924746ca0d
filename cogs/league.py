"""The server's league: /leaderboard, /stats, /history and the /settings of its matches."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from data.ratings import OVERALL
from games import ENGINES, title_of
from matches.match import CLOCK_CHOICES, DEFAULT_CLOCK_S, DEFAULT_MAX_TIMEOUTS, clock_text, tell, who

if TYPE_CHECKING:
    from bot import GameBot

PAGE_SIZE = 10
LEADERBOARD = "Leaderboard — "  # the title of every leaderboard message, before its game
GAME_CHOICES = [app_commands.Choice(name=engine.title, value=name) for name, engine in ENGINES.items()]


def board_title(game: str) -> str:
    return "all games" if game == OVERALL else title_of(game)


async def leaderboard_page(bot: GameBot, guild_id: int, game: str, page: int) -> dict:
    """The embed and paging buttons of one page of a server's table."""
    total = await bot.storage.league.rated_players(guild_id, game)
    pages = max(1, -(-total // PAGE_SIZE))
    page = min(max(page, 0), pages - 1)
    rows = await bot.storage.league.leaderboard(guild_id, game, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    embed = discord.Embed(title=f"{LEADERBOARD}{board_title(game)}", colour=discord.Colour.gold())
    if rows:
        lines = [
            f"`{page * PAGE_SIZE + index + 1:>3}.` <@{row['user_id']}> — **{row['rating']}** · "
            f"{row['wins']} wins / {row['games']} games"
            for index, row in enumerate(rows)
        ]
        embed.description = "\n".join(lines)
    else:
        embed.description = (
            "Nobody has finished a rated match here yet — start one with a game's `new` command "
            "(matches with computers are not rated)."
        )
    embed.set_footer(text=f"page {page + 1} of {pages} · ratings by OpenSkill, newcomers start at 1000")
    view = discord.ui.View(timeout=None)
    view.add_item(LeaderboardPage(game, page - 1, "◀ Previous", disabled=page == 0))
    view.add_item(LeaderboardPage(game, page + 1, "Next ▶", disabled=page >= pages - 1))
    return {"embed": embed, "view": view}


class LeaderboardPage(
    discord.ui.DynamicItem[discord.ui.Button], template=r"lb:(?P<game>[a-z_*]{1,32}):(?P<page>-?\d{1,6})"
):
    """Turns the leaderboard to another page (works after restarts: the page is in the id)."""

    def __init__(self, game: str, page: int, label: str = "Page", *, disabled: bool = False) -> None:
        self.game, self.page = game, page
        super().__init__(discord.ui.Button(label=label, custom_id=f"lb:{game}:{page}", disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LeaderboardPage:
        return cls(match["game"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Turn the page of the leaderboard message pressed; anywhere else, answer privately."""
        bot: GameBot = interaction.client  # type: ignore[assignment]
        if interaction.guild_id is None:
            await tell(interaction, "Leaderboards belong to a server — use `/leaderboard` there.")
        elif await _known_game(interaction, self.game):
            page = await leaderboard_page(bot, interaction.guild_id, self.game, self.page)
            if _is_leaderboard(interaction.message):
                await interaction.response.edit_message(**page)
            else:  # a page button that is not under a leaderboard: show the page privately
                await interaction.response.send_message(**page, ephemeral=True)


class League(commands.Cog):
    """Ratings, results and settings of one server; nothing crosses servers."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The server's table of ratings")
    @app_commands.describe(game="One game's table (leave empty for the table across all games)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        if not await _known_game(interaction, game or OVERALL):
            return
        page = await leaderboard_page(self.bot, interaction.guild_id, game or OVERALL, 0)
        await interaction.response.send_message(**page)

    @app_commands.command(name="stats", description="A player's games, wins, ratings and recent results")
    @app_commands.describe(member="Whose stats (you, if left empty)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        assert interaction.guild_id is not None
        user = member or interaction.user
        games = await self.bot.storage.league.player_ratings(interaction.guild_id, user.id)
        against, won = await self.bot.storage.league.computer_record(interaction.guild_id, user.id)
        embed = discord.Embed(title=f"Stats — {user.display_name}", colour=discord.Colour.blurple())
        if not games and not against:
            embed.description = f"{user.mention} has not finished a match on this server yet."
        for entry in games:
            embed.add_field(
                name=board_title(entry["game"]),
                value=f"rating **{entry['rating']}** · {entry['wins']} wins / {entry['games']} games",
                inline=entry["game"] != OVERALL,
            )
        if against:
            embed.add_field(
                name="With computers (unrated)", value=f"{won} wins / {against} games", inline=False
            )
        recent = await self.bot.storage.league.recent_results(interaction.guild_id, user_id=user.id, limit=5)
        if recent:
            embed.add_field(
                name="Recent results", value="\n".join(_result_line(r, user.id) for r in recent), inline=False
            )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="history", description="The server's recent matches")
    @app_commands.describe(game="Only this game's matches")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: str | None = None) -> None:
        assert interaction.guild_id is not None
        if game is not None and not await _known_game(interaction, game):
            return
        recent = await self.bot.storage.league.recent_results(interaction.guild_id, game=game, limit=10)
        title = f"Recent matches — {title_of(game)}" if game else "Recent matches"
        embed = discord.Embed(title=title, colour=discord.Colour.blurple())
        embed.description = (
            "\n".join(_result_line(r) for r in recent)
            if recent
            else "No match has finished here yet — start one with a game's `new` command."
        )
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="replay", description="An animated replay of a finished match")
    @app_commands.describe(match="The match's number, as /history, /stats and /matches show it")
    @app_commands.guild_only()
    async def replay(
        self, interaction: discord.Interaction, match: app_commands.Range[int, 1, 10**12]
    ) -> None:
        await self.bot.matches.replays.send(interaction, match, private=False)

    settings = app_commands.Group(
        name="settings",
        description="How this server's matches are played (Manage Server)",
        default_permissions=discord.Permissions(manage_guild=True),
        guild_only=True,
    )

    @settings.command(name="show", description="This server's match settings")
    async def settings_show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        clock, timeouts, threads = await self.bot.storage.settings.for_guild(interaction.guild_id)
        await interaction.response.send_message(
            f"New matches get **{clock_text(DEFAULT_CLOCK_S if clock is None else clock)}** unless "
            f"the host picks another; a player who runs out of time "
            f"**{timeouts or DEFAULT_MAX_TIMEOUTS}** times in a row is replaced by a computer (normal). "
            + ("Each new lobby gets its own thread." if threads else "Lobbies are posted in the channel."),
            ephemeral=True,
        )

    @settings.command(name="threads", description="Whether each new match is played in its own thread")
    @app_commands.describe(threads="on: a thread per match, linked from the channel; off: in the channel")
    async def settings_threads(self, interaction: discord.Interaction, threads: Literal["on", "off"]) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        await self.bot.storage.settings.set_threads(interaction.guild_id, threads == "on")
        said = (
            "Each new lobby now gets its own thread, archived when its match ends."
            if threads == "on"
            else "New lobbies are now posted in the channel."
        )
        await interaction.response.send_message(said, ephemeral=True)

    @settings.command(name="clock", description="The default turn clock of new matches")
    @app_commands.describe(clock="Time per move when the host does not choose one")
    @app_commands.choices(clock=CLOCK_CHOICES)
    async def settings_clock(self, interaction: discord.Interaction, clock: int) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        await self.bot.storage.settings.set_default_clock(interaction.guild_id, clock)
        await interaction.response.send_message(
            f"New matches now get {clock_text(clock)} by default.", ephemeral=True
        )

    @settings.command(
        name="timeouts", description="Time-outs in a row before a computer takes a player's seat"
    )
    @app_commands.describe(count="How many times in a row a player may run out of time")
    async def settings_timeouts(
        self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 10]
    ) -> None:
        if not await _may_manage(interaction):
            return
        assert interaction.guild_id is not None
        await self.bot.storage.settings.set_max_timeouts(interaction.guild_id, count)
        await interaction.response.send_message(
            f"A player who runs out of time {count} times in a row is now replaced by a computer (normal).",
            ephemeral=True,
        )


def _is_leaderboard(message: discord.Message | None) -> bool:
    """Whether `message` is a leaderboard: its embed is one and its every control turns its pages."""
    if message is None or not message.embeds or not (message.embeds[0].title or "").startswith(LEADERBOARD):
        return False
    ids = [
        getattr(child, "custom_id", None) or ""
        for row in message.components
        for child in getattr(row, "children", [])
    ]
    return all(custom_id.startswith("lb:") for custom_id in ids)


async def _known_game(interaction: discord.Interaction, game: str) -> bool:
    """Whether `game` names a table this bot keeps; else the member is told privately."""
    if game == OVERALL or game in ENGINES:
        return True
    names = ", ".join(engine.title for engine in ENGINES.values())
    await interaction.response.send_message(
        f"There is no game called {game!r} here — choose one of {names}, or leave it empty.", ephemeral=True
    )
    return False


async def _may_manage(interaction: discord.Interaction) -> bool:
    if interaction.permissions.manage_guild:
        return True
    await interaction.response.send_message(
        "Only members with the Manage Server permission can change these settings.", ephemeral=True
    )
    return False


def _result_line(result: dict, viewer: int | None = None) -> str:
    """One finished match in a sentence: game, who won, scores and when."""
    when = f"<t:{int(_timestamp(result['finished_at']))}:R>"
    seats = ", ".join(
        f"{who(s['user_id'])} {s['score']}" + (" 🏆" if s["winner"] else "") for s in result["seats"]
    )
    tag = " (abandoned)" if result["abandoned"] else " (draw)" if result["draw"] else ""
    line = f"**{title_of(result['game'])} #{result['match_id']}**{tag} — {seats} — {when}"
    if viewer is not None:
        mine = next(s for s in result["seats"] if s["user_id"] == viewer)
        line += " · unrated" if mine["change"] is None else f" · rating {mine['change']:+.0f}"
    return line


def _timestamp(iso: str) -> float:
    return datetime.fromisoformat(iso).timestamp()


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(LeaderboardPage)
    await bot.add_cog(League(bot))
