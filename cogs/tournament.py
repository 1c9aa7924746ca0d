"""`/tournament new`, `/tournament standings` and `/tournament leave`.

`/tournament new` takes the game, the format, the table size, the rounds and the clock, and
then the games' own options as their `/<game> new` commands declare them: each game cog's `new`
command is read (its parameters, their types, choices and help) and every option it has beyond
the clock and the computers is offered here too, optional. A game's lobby options are named as
its `new` command's parameters, so the chosen ones are handed to the tournament's matches as they
are; an option of another game is refused."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from locales import gettext, name
from locales.audience import command_names, private_language
from matches.match import CLOCK_CHOICES, CLOCK_HELP, tell
from matches.spec import Games
from matches.tournaments import TournamentButton

if TYPE_CHECKING:
    from bot import GameBot

SHARED = frozenset({"self", "interaction", "clock", "computers", "level"})  # not a game's own option
Callback = Callable[..., Coroutine[Any, Any, None]]


def game_options(games: Games) -> dict[str, dict[str, inspect.Parameter]]:
    """Each game's own `new` options (name → parameter, its annotation resolved)."""
    found: dict[str, dict[str, inspect.Parameter]] = {}
    for game, spec in games.items():
        command = getattr(spec.presentation, "new", None)
        if not isinstance(command, app_commands.Command):
            found[game] = {}
            continue
        hints = typing.get_type_hints(command.callback)
        found[game] = {
            parameter.name: parameter.replace(annotation=hints[parameter.name])
            for parameter in inspect.signature(command.callback).parameters.values()
            if parameter.name not in SHARED
        }
    return found


def option_help(games: Games) -> dict[str, locale_str]:
    """The help of the games' own options, as their `new` commands give it."""
    helps: dict[str, locale_str] = {}
    for spec in games.values():
        command = getattr(spec.presentation, "new", None)
        if isinstance(command, app_commands.Command):
            described = getattr(command.callback, "__discord_app_commands_param_description__", {})
            for key, text in described.items():
                if key not in SHARED:
                    helps.setdefault(key, text if isinstance(text, locale_str) else locale_str(str(text)))
    return helps


def new_command(games: Games) -> app_commands.Command[Any, ..., None]:
    """`/tournament new`, with the options of every hosted game."""
    options = game_options(games)
    extra: dict[str, inspect.Parameter] = {}
    for declared in options.values():
        for key, parameter in declared.items():
            extra.setdefault(
                key,
                inspect.Parameter(
                    key, inspect.Parameter.KEYWORD_ONLY, annotation=parameter.annotation | None, default=None
                ),
            )
    fixed = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        ),
        inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str),
        inspect.Parameter(
            "format", inspect.Parameter.KEYWORD_ONLY, annotation=Literal["swiss", "knockout", "roundrobin"]
        ),
        inspect.Parameter(
            "seats", inspect.Parameter.KEYWORD_ONLY, annotation=app_commands.Range[int, 2, 6], default=2
        ),
        inspect.Parameter(
            "rounds",
            inspect.Parameter.KEYWORD_ONLY,
            annotation=app_commands.Range[int, 1, 12] | None,
            default=None,
        ),
        inspect.Parameter("clock", inspect.Parameter.KEYWORD_ONLY, annotation=int | None, default=None),
    ]

    async def new(interaction: discord.Interaction, **chosen: Any) -> None:
        await open_tournament(interaction, options, chosen)

    new.__signature__ = inspect.Signature([*fixed, *extra.values()])  # type: ignore[attr-defined]
    callback: Callback = new
    game_choices: list[app_commands.Choice[str]] = [
        app_commands.Choice(name=locale_str(spec.title, translate=False), value=key)
        for key, spec in games.items()
    ]
    callback = app_commands.choices(  # type: ignore[misc]
        game=game_choices,
        clock=CLOCK_CHOICES,
    )(callback)
    callback = app_commands.describe(
        game=locale_str("The game every match of the tournament plays"),
        format=locale_str("Swiss: paired by points; knockout: a seeded bracket; round robin: everyone meets"),
        seats=locale_str("Players at each table (default 2); a knockout is played at tables of two"),
        rounds=locale_str("Swiss only: how many rounds (default: enough to find a winner)"),
        clock=CLOCK_HELP,
        **option_help(games),
    )(callback)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="new",
        description=locale_str("Open a tournament's sign-up in this channel"),
        callback=callback,
    )
    return app_commands.guild_only()(command)


async def open_tournament(
    interaction: discord.Interaction, options: dict[str, dict[str, inspect.Parameter]], chosen: dict[str, Any]
) -> None:
    """Check the chosen options against the game's, then open the sign-up."""
    bot: GameBot = interaction.client  # type: ignore[assignment]
    mine = private_language(interaction)
    game = chosen.pop("game")
    format_, seats, rounds, clock = (chosen.pop(key) for key in ("format", "seats", "rounds", "clock"))
    declared = options.get(game, {})
    foreign = [key for key, value in chosen.items() if value is not None and key not in declared]
    if foreign or game not in bot.matches.games:
        text = gettext(
            mine,
            "{options} is not an option of {game} — leave it out.",
            options=", ".join(f"`{name(command_names(interaction), key)}`" for key in foreign),
            game=bot.games.title_of(game),
        )
        await tell(interaction, text)
        return
    settings = {
        key: parameter.default if chosen.get(key) is None else chosen[key]
        for key, parameter in declared.items()
    }
    await bot.matches.tournaments.open(
        interaction,
        bot.matches.games[game],
        format_,
        rounds=rounds,
        clock=clock,
        seats=seats,
        options=settings,
    )


class Tournament(
    commands.GroupCog, group_name="tournament", group_description=locale_str("Tournaments of a game")
):
    """The tournament commands; their work is the match service's `tournaments`."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()
        assert self.app_command is not None  # a group cog's group
        self.app_command.add_command(new_command(bot.games))

    @app_commands.command(name="standings", description=locale_str("A tournament's table, as a picture"))
    @app_commands.describe(id=locale_str("The tournament's number (default: this server's latest)"))
    @app_commands.guild_only()
    async def standings(self, interaction: discord.Interaction, id: int | None = None) -> None:
        await self.bot.matches.tournaments.show_standings(interaction, id)

    @app_commands.command(
        name="leave", description=locale_str("Withdraw from your tournament on this server")
    )
    @app_commands.describe(
        member=locale_str("The organizer or a server manager: remove this player instead of yourself")
    )
    @app_commands.guild_only()
    async def leave(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        await self.bot.matches.tournaments.leave(interaction, member=None if member is None else member.id)


async def setup(bot: GameBot) -> None:
    bot.add_dynamic_items(TournamentButton)
    await bot.add_cog(Tournament(bot))
